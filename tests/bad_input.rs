//! The bad-input corpus: every folder under `tests/bad_input/` is one case of data
//! (or a command line) a user might hand fuda, with the exit code and the located
//! message it must give. Adding a case needs no Rust.
//!
//! A case folder holds `case.yaml`:
//!
//! ```yaml
//! why: a card that names an unknown card id        # one line: what the case shows
//! base: shrine            # optional: copy rules/<base>.yaml and cards/<base>/ first
//! args: [check, shrine, --data, "{dir}"]            # {dir}: the case's data folder
//! exit: 1
//! stderr: ["bad.yaml:3:9", "did you mean"]          # each must appear (substrings)
//! stdout: []                                        # likewise for stdout
//! not: ["root:x:0"]       # must appear in neither stream (nothing leaked)
//! fifos: [cards/shrine/pipe.yaml]                   # optional special files to make
//! dirs: [cards/shrine/x.yaml]
//! symlinks: {cards/shrine/out.yaml: /etc/hostname}  # {out}: a folder beside the data
//! outside: {victim.txt: "keep\n"}  # optional: files made in {out}; each must be unchanged after
//! absent: ["{out}/made.txt"]          # optional: paths that must not exist after the run
//! stdin: /dev/zero         # optional: a file for stdin (default: none)
//! env: {FUDA_MAX_GAME_BYTES: "67108864"}   # optional: environment of the run
//! pipe: true              # optional: read one line of stdout, then close the pipe
//! pipe_lines: 0           # with pipe: lines read first (default 1; 0: `fuda … | true`)
//! append: {rules/shrine.yaml: "scripts: [lib.rhai]\n"}   # optional: add to a file
//! generate:               # optional: a big file made at run time, not committed
//!   # (entries for one path are written one after the other):
//!   - {path: cards/shrine/big.yaml, head: "a: ", body: "[", repeat: 100000, tail: ""}
//!   - {path: cards/big/many.yaml, body: "- {id: c{n}, name: C{n}}\n", repeat: 2000}   # {n}: 0, 1, …
//! ```
//!
//! and a `data/` folder whose files are laid over the base. Cases run against the
//! debug binary; a case may take at most [`GUARD`], a last guard against a hang, far
//! beyond what any case needs on a loaded machine. To see the cases fail on an
//! older build, `FUDA_BIN=path/to/fuda FUDA_GUARD_SECS=5` runs them against it.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

/// A case still running after this is reported as a hang.
const GUARD: Duration = Duration::from_secs(300);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    why: String,
    #[serde(default)]
    base: Option<String>,
    args: Vec<String>,
    exit: i32,
    #[serde(default)]
    stderr: Vec<String>,
    #[serde(default)]
    stdout: Vec<String>,
    #[serde(default)]
    not: Vec<String>,
    #[serde(default)]
    fifos: Vec<String>,
    #[serde(default)]
    dirs: Vec<String>,
    #[serde(default)]
    symlinks: BTreeMap<String, String>,
    #[serde(default)]
    outside: BTreeMap<String, String>,
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    stdin: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    pipe: bool,
    #[serde(default = "one")]
    pipe_lines: usize,
    #[serde(default)]
    append: BTreeMap<String, String>,
    #[serde(default)]
    generate: Vec<Generate>,
}

/// A file of `head`, `body` written `repeat` times, then `tail`; each `{n}`
/// in `body` is the repetition's number (0, 1, …): many distinct cards.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    path: String,
    #[serde(default)]
    head: String,
    body: String,
    repeat: usize,
    #[serde(default)]
    tail: String,
}

fn one() -> usize {
    1
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The folder beside a case's data folder (`{out}`): what a hostile mod
/// would reach for.
fn out_of(dir: &Path) -> PathBuf {
    dir.with_file_name("outside")
}

/// `{dir}` and `{out}` in a case's text.
fn fill(s: &str, dir: &Path) -> String {
    s.replace("{dir}", dir.to_str().unwrap())
        .replace("{out}", out_of(dir).to_str().unwrap())
}

/// Lays out one case's data folder in `dir`.
fn lay_out(case: &Case, src: &Path, dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(out_of(dir));
    std::fs::create_dir_all(out_of(dir)).unwrap();
    for (f, text) in &case.outside {
        std::fs::write(out_of(dir).join(f), text).unwrap();
    }
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    if let Some(base) = &case.base {
        let rules = format!("rules/{base}.yaml");
        std::fs::copy(root().join(&rules), dir.join(&rules)).unwrap();
        // A game's own folders, where it has them.
        for sub in [format!("rules/{base}"), format!("cards/{base}")] {
            if root().join(&sub).is_dir() {
                copy_dir(&root().join(&sub), &dir.join(&sub));
            }
        }
    }
    if src.join("data").is_dir() {
        copy_dir(&src.join("data"), dir);
    }
    for (f, text) in &case.append {
        let at = dir.join(f);
        let mut old = std::fs::read_to_string(&at).unwrap_or_default();
        old.push_str(text);
        std::fs::write(at, old).unwrap();
    }
    let mut made = BTreeMap::new();
    for g in &case.generate {
        let text: &mut String = made.entry(&g.path).or_default();
        text.push_str(&g.head);
        if g.body.contains("{n}") {
            for n in 0..g.repeat {
                text.push_str(&g.body.replace("{n}", &n.to_string()));
            }
        } else {
            text.push_str(&g.body.repeat(g.repeat));
        }
        text.push_str(&g.tail);
    }
    for (path, text) in made {
        let at = dir.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }
    for d in &case.dirs {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    for (from, to) in &case.symlinks {
        let at = dir.join(from);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&at);
        std::os::unix::fs::symlink(fill(to, dir), at).unwrap();
    }
    for f in &case.fifos {
        let at = dir.join(f);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        let ok = Command::new("mkfifo").arg(&at).status().unwrap().success();
        assert!(ok, "mkfifo {}", at.display());
    }
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    hung: bool,
}

fn run(case: &Case, dir: &Path, scratch: &Path) -> Ran {
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| fill(a, dir).replace("{root}", root().to_str().unwrap()))
        .collect();
    let out_path = scratch.join("stdout");
    let err_path = scratch.join("stderr");
    let bin = std::env::var("FUDA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_fuda").into());
    let mut cmd = Command::new(bin);
    cmd.args(&args)
        .current_dir(scratch)
        .env("NO_COLOR", "1")
        .envs(&case.env)
        .stdin(match &case.stdin {
            Some(f) => std::fs::File::open(fill(f, dir)).unwrap().into(),
            None => Stdio::null(),
        })
        .stderr(std::fs::File::create(&err_path).unwrap());
    let mut stdout = String::new();
    let mut child = if case.pipe {
        // The reader goes away after `pipe_lines` lines: fuda must notice the
        // broken pipe and stop quietly.
        let mut child = cmd.stdout(Stdio::piped()).spawn().expect("start fuda");
        let mut pipe = child.stdout.take().unwrap();
        let mut byte = [0u8; 1];
        let mut lines = 0;
        while lines < case.pipe_lines && pipe.read(&mut byte).unwrap_or(0) == 1 {
            stdout.push(byte[0] as char);
            if byte[0] == b'\n' {
                lines += 1;
            }
        }
        drop(pipe);
        child
    } else {
        cmd.stdout(std::fs::File::create(&out_path).unwrap())
            .spawn()
            .expect("start fuda")
    };
    let guard = guard();
    let start = Instant::now();
    let mut hung = false;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > guard {
            hung = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if !case.pipe {
        stdout =
            String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned();
    }
    Ran {
        code: status.code(),
        stdout,
        stderr: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned(),
        hung,
    }
}

/// The last guard: [`GUARD`], or `FUDA_GUARD_SECS`.
fn guard() -> Duration {
    std::env::var("FUDA_GUARD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(GUARD, Duration::from_secs)
}

/// What is wrong with one case's run, if anything.
fn check(case: &Case, r: &Ran, dir: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    for (f, text) in &case.outside {
        let now = std::fs::read_to_string(out_of(dir).join(f)).unwrap_or_default();
        if &now != text {
            wrong.push(format!("{{out}}/{f} was changed to {now:?}"));
        }
    }
    for p in &case.absent {
        if Path::new(&fill(p, dir)).symlink_metadata().is_ok() {
            wrong.push(format!("{p} was made"));
        }
    }
    if r.hung {
        wrong.push(format!("still running after {:?}", guard()));
    }
    if r.code != Some(case.exit) {
        wrong.push(format!("exit {:?}, want {}", r.code, case.exit));
    }
    let flat = unwrap(&r.stderr);
    for s in &case.stderr {
        if !r.stderr.contains(s.as_str()) && !flat.contains(s.as_str()) {
            wrong.push(format!("stderr lacks {s:?}"));
        }
    }
    for s in &case.stdout {
        if !r.stdout.contains(s.as_str()) {
            wrong.push(format!("stdout lacks {s:?}"));
        }
    }
    for s in &case.not {
        if r.stdout.contains(s.as_str()) || r.stderr.contains(s.as_str()) {
            wrong.push(format!("output contains {s:?}"));
        }
    }
    wrong
}

fn cases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/bad_input"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.yaml").is_file())
        .collect();
    v.sort();
    v
}

/// One case laid out in `scratch_root` and run: what is wrong with its
/// result, as one message (none if it gave what it must).
fn one_case(src: &Path, scratch_root: &Path) -> Option<String> {
    let name = src.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(src.join("case.yaml")).unwrap();
    let case: Case =
        serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.yaml: {e}"));
    assert!(!case.why.trim().is_empty(), "{name}: say why");
    let scratch = scratch_root.join(&name);
    let dir = scratch.join("data");
    lay_out(&case, src, &dir);
    let r = run(&case, &dir, &scratch);
    let wrong = check(&case, &r, &dir);
    (!wrong.is_empty()).then(|| {
        format!(
            "{name} ({}):\n  {}\n  --- stderr (end) ---\n{}\n  --- stdout (start) ---\n{}",
            case.why,
            wrong.join("\n  "),
            tail(&r.stderr),
            r.stdout.chars().take(600).collect::<String>()
        )
    })
}

/// Every case, spread over a few threads: each case is its own fuda
/// process in its own scratch folder, so they cannot meet.
#[test]
fn every_bad_input_case_gives_its_located_error() {
    let filter = std::env::var("FUDA_CASE").unwrap_or_default();
    let scratch_root = std::env::temp_dir().join(format!("fuda-bad-{}", std::process::id()));
    let todo: Vec<PathBuf> = cases()
        .into_iter()
        .filter(|src| src.file_name().unwrap().to_string_lossy().contains(&filter))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let jobs = std::thread::available_parallelism().map_or(1, |j| j.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(src) = todo.get(i) else { break };
                    if let Some(f) = one_case(src, &scratch_root) {
                        failures.lock().unwrap().push((i, f));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch_root);
    let ran = todo.len();
    assert!(
        ran > 0 || !filter.is_empty(),
        "no case under tests/bad_input"
    );
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} of {ran} bad-input cases failed:\n\n{}",
        failures.len(),
        failures
            .into_iter()
            .map(|(_, f)| f)
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// Messages as one line each: miette wraps long ones, continuing with `│`.
fn unwrap(s: &str) -> String {
    s.lines()
        .map(|l| l.trim().trim_start_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

fn tail(s: &str) -> String {
    let n = s.chars().count();
    s.chars().skip(n.saturating_sub(1200)).collect()
}
