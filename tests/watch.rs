//! `--watch` end to end: the binary runs, a file is written, the run comes
//! again, once per save. Each test waits for the lines the binary prints
//! (`-- run N done` on stderr); the time limit is only a last guard against a
//! watcher that never wakes, and no result depends on how fast a run is.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// The last guard: a run that has not come by then never will.
const GUARD: Duration = Duration::from_secs(120);

/// A `fuda … --watch` process and the lines it printed so far.
struct Watching {
    child: Child,
    lines: Receiver<(bool, String)>,
    out: Vec<String>,
    err: Vec<String>,
}

impl Watching {
    fn start(args: &[&str]) -> Watching {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run fuda");
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send((false, l));
            }
        });
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx2.send((true, l));
            }
        });
        Watching {
            child,
            lines,
            out: Vec::new(),
            err: Vec::new(),
        }
    }

    /// Reads lines until `done` holds of what was printed.
    fn until(&mut self, what: &str, done: impl Fn(&Watching) -> bool) {
        let end = Instant::now() + GUARD;
        while !done(self) {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((true, l)) => self.err.push(l),
                Ok((false, l)) => self.out.push(l),
                Err(_) => panic!(
                    "waited for {what}; stdout:\n{}\nstderr:\n{}",
                    self.out.join("\n"),
                    self.err.join("\n")
                ),
            }
        }
    }

    /// Waits for run `n` to be done, its stdout ending with `lines_out`
    /// lines that match `out`.
    fn run_done(&mut self, n: usize, out: impl Fn(&str) -> bool, lines_out: usize) {
        let tag = format!("-- run {n} done");
        self.until(&tag, |w| {
            w.err.iter().any(|l| l.starts_with(&tag))
                && w.out.iter().filter(|l| out(l)).count() >= lines_out
        });
    }

    /// The stderr line that started run `n`.
    fn started(&self, n: usize) -> &str {
        let tag = format!("-- run {n}:");
        (self.err.iter().find(|l| l.starts_with(&tag))).map_or("", |l| l.as_str())
    }

    fn summaries(&self) -> Vec<&str> {
        (self.out.iter())
            .filter(|l| summary(l))
            .map(|l| l.as_str())
            .collect()
    }
}

/// `fuda test`'s last line: `N passed, N failed`.
fn summary(l: &str) -> bool {
    l.split_once(" passed, ")
        .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.ends_with(" failed"))
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scratch data folder: the shrine rules and basic cards, and one scenario.
fn data(name: &str) -> TempDir {
    let tmp = tempfile::Builder::new()
        .prefix(&format!("fuda-watch-{name}-"))
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    for sub in ["rules", "cards/shrine", "tests/scenarios"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in ["rules/shrine.yaml", "cards/shrine/basic.yaml"] {
        std::fs::copy(root.join(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join("tests/scenarios/coins.yaml"), scenario(3)).unwrap();
    tmp
}

fn scenario(coins: u32) -> String {
    format!(
        "game: shrine\nzones:\n  supply: {{honoumai: 10}}\n  p1:\n    hand: [omiki]\nphase: buy\n\
         decisions: [play omiki]\nstops: waiting\nexpect:\n  - \"coins == {coins}\"\n"
    )
}

/// Saves as editors do, in more than one step: the text, then the file's
/// times (an event of another kind, which the system does not merge).
fn save(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(std::time::SystemTime::now()).unwrap();
}

const CARD: &str = "id: extra\nname: extra\ntags: [resource]\nprops: {cost: 1, coins: 1}\n";

#[test]
fn each_save_runs_the_scenarios_once_more() {
    let tmp = data("save");
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    let mut w = Watching::start(&["--data", d, "test", "--watch", "--update"]);
    w.run_done(1, summary, 1);
    assert_eq!(w.summaries(), ["1 passed, 0 failed"]);

    // A scenario saved: run 2, which fails (omiki gives 3).
    let saved = Instant::now();
    save(&dir.join("tests/scenarios/coins.yaml"), &scenario(4));
    w.run_done(2, summary, 2);
    eprintln!("save to result: {} ms", saved.elapsed().as_millis());
    assert!(w.started(2).contains("coins.yaml"), "{:?}", w.err);
    assert_eq!(w.summaries()[1], "0 passed, 1 failed");

    // A card saved in the data folder: run 3 is that save's alone, so the
    // scenario's save ran once.
    save(&dir.join("cards/shrine/extra.yaml"), CARD);
    w.run_done(3, summary, 3);
    let third = w.started(3);
    assert!(third.contains("extra.yaml"), "{third}");
    assert!(!third.contains("coins.yaml"), "{third}");
    // Snapshots the run writes itself start no run.
    assert!(dir.join("tests/scenarios/coins.snap").exists());
    assert!(w.started(4).is_empty(), "{:?}", w.err);
}

#[test]
fn a_card_that_does_not_load_is_reported_and_the_next_save_runs() {
    let tmp = data("bad");
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    let mut w = Watching::start(&["--data", d, "test", "--watch", "--update"]);
    w.run_done(1, summary, 1);
    std::fs::write(dir.join("cards/shrine/extra.yaml"), "id: extra\nname: [x\n").unwrap();
    w.run_done(2, summary, 2);
    let out = w.out.join("\n");
    assert!(out.contains("does not load"), "{out}");
    assert!(out.contains("extra.yaml:2:7"), "{out}");
    assert_eq!(w.summaries()[1], "0 passed, 1 failed");
    // Still watching: the fixed card runs.
    std::fs::write(dir.join("cards/shrine/extra.yaml"), CARD).unwrap();
    w.run_done(3, summary, 3);
    assert_eq!(w.summaries()[2], "1 passed, 0 failed");
}

#[test]
fn run_plays_again_when_a_card_changes() {
    let tmp = data("run");
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    let args = [
        "--data", d, "run", "shrine", "--set", "kingdom=", "--json", "--watch",
    ];
    let mut w = Watching::start(&args);
    let result = |l: &str| l.contains("\"result\":true");
    w.run_done(1, result, 1);
    // お賽銭 gives 2 coins instead of 1: the game changes.
    let basic = dir.join("cards/shrine/basic.yaml");
    let text = std::fs::read_to_string(&basic).unwrap();
    let changed = text.replacen(
        "props: {cost: 0, coins: 1}",
        "props: {cost: 0, coins: 2}",
        1,
    );
    assert_ne!(text, changed);
    std::fs::write(&basic, changed).unwrap();
    w.run_done(2, result, 2);
    assert!(w.started(2).contains("basic.yaml"), "{:?}", w.err);
    let results: Vec<&String> = w.out.iter().filter(|l| result(l)).collect();
    assert_ne!(results[0], results[1], "the changed card changes the game");
    // Every stdout line is still JSON.
    assert!(w.out.iter().all(|l| l.starts_with('{')), "{:?}", w.out);
}

#[test]
fn bad_usage_ends_the_watch_at_once() {
    let d = env!("CARGO_MANIFEST_DIR");
    let args = [
        "--data", d, "run", "shrine", "--agents", "nobody", "--watch",
    ];
    let mut w = Watching::start(&args);
    let end = Instant::now() + GUARD;
    let status = loop {
        if let Some(s) = w.child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < end, "still watching after bad usage");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(2));
    w.until("the error", |w| {
        w.err.iter().any(|l| l.contains("unknown agent"))
    });
}

/// The built-in games never change: watching them alone is bad usage.
#[test]
fn watching_the_built_in_games_alone_is_bad_usage() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["run", "shrine", "--watch"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--watch needs files to watch"), "{err}");
}
