//! No user input makes fuda panic (design promise 4).
//!
//! Copies the shipped data directory, damages it in many seeded ways (random
//! edits of the YAML, card text and Rhai, plus hand-written nasty cases: endless
//! loops, deep nesting, huge numbers, duplicate ids…) and runs the real binary
//! on each copy: `check`, `run`, `scenario`, `replay`. Every run must end by
//! itself with exit code 0, 1 or 2 — never 101 (a panic), never a signal (a
//! stack overflow or an abort), never "panicked" on stderr, never a hang.
//!
//! `FUDA_ROBUST_MUTATIONS=N` runs N random mutations instead of the default
//! (a longer sweep: `FUDA_ROBUST_MUTATIONS=3000 cargo test --release --test robustness`);
//! `FUDA_ROBUST_SEED=S` changes the seed of the sweep.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one run may take before it counts as a hang: only a last guard.
/// Every run is bounded by fuda's own limits (steps, operations, nesting), and
/// the debug binary on a busy 2-core machine took longer than 20 s for some;
/// a timing limit would fail there while nothing is wrong.
const TIMEOUT: Duration = Duration::from_secs(600);

/// The game budget every run is given (`FUDA_MAX_GAME_STEPS`; the shipped
/// games take at most about 460,000): what is tested is that runaway rules
/// stop, with a located error and no panic, and the default of 20M steps
/// costs minutes of unoptimised work per runaway case to prove the same.
const GAME_STEPS: &str = "1000000";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// splitmix64: a tiny deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Every data file of the repository, relative to its root.
fn data_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p
                .extension()
                .is_some_and(|x| x == "yaml" || x == "yml" || x == "rhai")
            {
                out.push(p.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("rules"), &mut out);
    walk(&root().join("cards"), &mut out);
    out.sort();
    out
}

/// A fresh copy of the shipped rules and cards.
fn data_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in data_files() {
        let to = dir.path().join(&f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join(&f), to).unwrap();
    }
    dir
}

struct Ran {
    code: Option<i32>,
    stderr: String,
    hung: bool,
}

/// Runs fuda with a time limit; output goes to files so a chatty run never blocks.
fn fuda(args: &[&str], scratch: &Path) -> Ran {
    let out = std::fs::File::create(scratch.join("stdout")).unwrap();
    let err_path = scratch.join("stderr");
    let err = std::fs::File::create(&err_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .env("FUDA_MAX_GAME_STEPS", GAME_STEPS)
        .current_dir(scratch)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("start fuda");
    let start = Instant::now();
    let mut hung = false;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            hung = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let bytes = std::fs::read(&err_path).unwrap_or_default();
    Ran {
        code: status.code(),
        stderr: String::from_utf8_lossy(&bytes).into_owned(),
        hung,
    }
}

/// What went wrong with one run, if anything.
fn problem(r: &Ran, allowed: &[i32]) -> Option<String> {
    let tail = |s: &str| {
        s.chars()
            .rev()
            .take(1500)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<String>()
    };
    if r.hung {
        return Some(format!("did not finish within {TIMEOUT:?}"));
    }
    match r.code {
        None => Some(format!("killed by a signal; stderr:\n{}", tail(&r.stderr))),
        Some(c) if !allowed.contains(&c) || r.stderr.contains("panicked") => {
            Some(format!("exit code {c}; stderr:\n{}", tail(&r.stderr)))
        }
        _ => None,
    }
}

fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failing run(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The game a data file belongs to.
/// The game a data file belongs to: `rules/<game>.yaml` or `cards/<game>/…`.
fn game_of(file: &Path) -> String {
    let mut parts = file.iter().map(|p| p.to_string_lossy());
    match (parts.next().as_deref(), parts.next()) {
        (Some("cards"), Some(g)) => g.into_owned(),
        (_, Some(f)) => Path::new(f.as_ref())
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

// ---------------------------------------------------------------------------
// Random mutations

const NUMBERS: &[&str] = &[
    "-1",
    "0",
    "-0",
    "255",
    "256",
    "65535",
    "65536",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "1e9",
    "0x10",
];

const VALUES: &[&str] = &[
    "[1, 2]",
    "{a: 1}",
    "~",
    "\"\"",
    "[]",
    "{}",
    "true",
    "-",
    "!!binary aGVsbG8=",
    "&a x",
    "*a",
    "\"\\u0000\"",
    "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]",
];

const CHARS: &[&str] = &[
    "{", "}", "(", ")", "[", "]", ":", "-", "\"", "'", "#", "|", ">", " ", "\n", "\t", "@", "x",
    "0", "é", "字", ";", ",", ".", "\\", "=", "+", "*", "/", "%", "&", "!", "\r", "\u{feff}",
];

const SNIPPETS: &[&str] = &[
    "while true { }",
    "repeat 100000 { repeat 100000 { } }",
    "create(@nope, hand, 3)",
    "run(this, \"play\")",
    "move(hand, hand)",
    "let x = 9223372036854775807 + 1 - -9223372036854775807",
    "actions += 9223372036854775807",
    "at([], -1)",
    "random(0, 9223372036854775807)",
    "choose([], 5, 1)",
    "top(deck, -5)",
    "1 / 0",
    "9223372036854775807 * 9223372036854775807 % 0",
    "repeat_phase()",
    "end_turn()",
    "lose(me)",
    "player(0)",
    "emit(\"nope\")",
    "window(\"nope\")",
];

const RHAI: &[&str] = &[
    "loop { }",
    "fn f(n) { f(n + 1) } f(0);",
    "let a = []; loop { a.push(a); }",
    "let s = \"x\"; loop { s += s; }",
    "throw \"boom\";",
    "9223372036854775807 + 1",
    "mark(card, 100);",
    "modify(card, 999, 1);",
    "zone(999);",
    "window(999);",
    "emit(999, card);",
    "defs(100)",
    "player(-1)",
    "create(card, zone(\"hand\"), 99999999999)",
    "move(card, 5)",
    "lose(me); lose(me);",
];

/// A line range `[a, b)` of the `i`-th line.
fn line_at(text: &str, rng: &mut Rng) -> (usize, usize) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text.len())
        .collect();
    if starts.is_empty() {
        return (0, 0);
    }
    let k = rng.below(starts.len());
    let a = starts[k];
    let b = starts.get(k + 1).copied().unwrap_or(text.len());
    (a, b)
}

fn char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One random edit of a data file's bytes; returns a description.
fn mutate(bytes: &mut Vec<u8>, is_rhai: bool, rng: &mut Rng) -> String {
    let Ok(text) = String::from_utf8(bytes.clone()) else {
        bytes.truncate(bytes.len() / 2);
        return "truncate non-UTF-8".into();
    };
    let (what, new) = match rng.below(16) {
        0 => {
            let (a, b) = line_at(&text, rng);
            (
                format!("delete line at byte {a}"),
                format!("{}{}", &text[..a], &text[b..]),
            )
        }
        1 => {
            let (a, b) = line_at(&text, rng);
            (
                format!("duplicate line at byte {a}"),
                format!("{}{}{}", &text[..b], &text[a..b], &text[b..]),
            )
        }
        2 => {
            let at = char_boundary(&text, rng.below(text.len() + 1));
            (format!("truncate at {at}"), text[..at].to_string())
        }
        3 | 4 => {
            let mut t = text.clone();
            let n = 1 + rng.below(3);
            for _ in 0..n {
                let at = char_boundary(&t, rng.below(t.len() + 1));
                let end = t[at..]
                    .chars()
                    .next()
                    .map(|c| at + c.len_utf8())
                    .unwrap_or(at);
                let c = *rng.pick(CHARS);
                t.replace_range(at..end, c);
            }
            (format!("replace {n} character(s)"), t)
        }
        5 => {
            let (a, b) = line_at(&text, rng);
            let (c, d) = line_at(&text, rng);
            if a == c {
                return mutate(bytes, is_rhai, rng);
            }
            let (x, y) = if a < c {
                ((a, b), (c, d))
            } else {
                ((c, d), (a, b))
            };
            if x.1 > y.0 {
                return mutate(bytes, is_rhai, rng);
            }
            let t = format!(
                "{}{}{}{}{}",
                &text[..x.0],
                &text[y.0..y.1],
                &text[x.1..y.0],
                &text[x.0..x.1],
                &text[y.1..]
            );
            (format!("swap lines at {a} and {c}"), t)
        }
        6 | 7 => {
            // A number becomes huge, negative, or not quite a number.
            let nums: Vec<(usize, usize)> = {
                let b = text.as_bytes();
                let mut v = Vec::new();
                let mut i = 0;
                while i < b.len() {
                    if b[i].is_ascii_digit() {
                        let s = i;
                        while i < b.len() && b[i].is_ascii_digit() {
                            i += 1;
                        }
                        v.push((s, i));
                    } else {
                        i += 1;
                    }
                }
                v
            };
            if nums.is_empty() {
                return mutate(bytes, is_rhai, rng);
            }
            let (a, b) = *rng.pick(&nums);
            let n = *rng.pick(NUMBERS);
            (
                format!("number at {a} -> {n}"),
                format!("{}{n}{}", &text[..a], &text[b..]),
            )
        }
        8 => {
            // A value after `key:` becomes a list, a map, null…
            let spots: Vec<usize> = text.match_indices(": ").map(|(i, _)| i + 2).collect();
            if spots.is_empty() {
                return mutate(bytes, is_rhai, rng);
            }
            let a = *rng.pick(&spots);
            let b = text[a..].find('\n').map(|i| a + i).unwrap_or(text.len());
            let v = *rng.pick(VALUES);
            (
                format!("value at {a} -> {v}"),
                format!("{}{v}{}", &text[..a], &text[b..]),
            )
        }
        9 => {
            // A card reference names no card.
            let refs: Vec<usize> = text.match_indices('@').map(|(i, _)| i + 1).collect();
            if refs.is_empty() {
                return mutate(bytes, is_rhai, rng);
            }
            let a = *rng.pick(&refs);
            (
                format!("card ref at {a}"),
                format!("{}no_such_card_{}", &text[..a], &text[a..]),
            )
        }
        10 => {
            // Brackets broken.
            let spots: Vec<usize> = text
                .match_indices(['(', ')', '{', '}', '[', ']', '"'])
                .map(|(i, _)| i)
                .collect();
            if spots.is_empty() {
                return mutate(bytes, is_rhai, rng);
            }
            let a = *rng.pick(&spots);
            (
                format!("drop bracket at {a}"),
                format!("{}{}", &text[..a], &text[a + 1..]),
            )
        }
        11 => ("empty file".into(), String::new()),
        12 => {
            let at = char_boundary(&text, rng.below(text.len() + 1));
            let mut b = text.as_bytes()[..at].to_vec();
            b.extend_from_slice(&[0xff, 0xfe, 0xc3]);
            b.extend_from_slice(&text.as_bytes()[at..]);
            *bytes = b;
            return format!("non-UTF-8 bytes at {at}");
        }
        13 => {
            // Code appended after a block-scalar line of card text.
            let spots: Vec<usize> = text.match_indices("|\n").map(|(i, _)| i + 2).collect();
            let code = if is_rhai || rng.below(4) == 0 {
                rng.pick(RHAI).to_string()
            } else {
                rng.pick(SNIPPETS).to_string()
            };
            if spots.is_empty() || is_rhai {
                return format!("append {code}: {}", {
                    bytes.extend_from_slice(format!("\n{code}\n").as_bytes());
                    ""
                });
            }
            let a = *rng.pick(&spots);
            let indent: String = text[a..].chars().take_while(|c| *c == ' ').collect();
            (
                format!("insert `{code}` at {a}"),
                format!("{}{indent}{code}\n{}", &text[..a], &text[a..]),
            )
        }
        14 => {
            // A whole key's line removed (a required field, often).
            let keys: Vec<usize> = text
                .match_indices(['\n'])
                .map(|(i, _)| i + 1)
                .filter(|&i| {
                    text[i..]
                        .trim_start()
                        .split(':')
                        .next()
                        .is_some_and(|k| !k.contains(' '))
                })
                .collect();
            if keys.is_empty() {
                return mutate(bytes, is_rhai, rng);
            }
            let a = *rng.pick(&keys);
            let b = text[a..]
                .find('\n')
                .map(|i| a + i + 1)
                .unwrap_or(text.len());
            (
                format!("remove key line at {a}"),
                format!("{}{}", &text[..a], &text[b..]),
            )
        }
        _ => {
            // Indentation shifted.
            let (a, _) = line_at(&text, rng);
            (
                format!("indent line at {a}"),
                format!("{}   {}", &text[..a], &text[a..]),
            )
        }
    };
    *bytes = new.into_bytes();
    what
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_mutations_never_panic() {
    let count = env_num("FUDA_ROBUST_MUTATIONS", 160);
    let seed = env_num("FUDA_ROBUST_SEED", 0x5eed);
    let files = data_files();
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(4) as u64;
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for w in 0..jobs {
            let (files, failures) = (&files, &failures);
            s.spawn(move || {
                let dir = data_copy();
                let d = dir.path().to_str().unwrap().to_string();
                let scratch = tempfile::tempdir().unwrap();
                let mut i = w;
                while i < count {
                    let mut rng = Rng(seed ^ i.wrapping_mul(0x2545_F491_4F6C_DD1D));
                    let file = rng.pick(files).clone();
                    let path = dir.path().join(&file);
                    let original = std::fs::read(&path).unwrap();
                    let mut bytes = original.clone();
                    let is_rhai = file.extension().is_some_and(|x| x == "rhai");
                    let mut what = Vec::new();
                    for _ in 0..1 + rng.below(2) {
                        what.push(mutate(&mut bytes, is_rhai, &mut rng));
                    }
                    std::fs::write(&path, &bytes).unwrap();
                    // Only the mutated file's game reads it: checking the others
                    // would load five unchanged games per mutation.
                    let game = game_of(&file);
                    let mut runs: Vec<Vec<&str>> = vec![vec!["check", &game, "--data", &d]];
                    // Running a game costs more: every third mutation.
                    if i % 3 == 0 {
                        runs.push(vec!["run", &game, "--seed", "1", "--data", &d]);
                    }
                    for args in runs {
                        let r = fuda(&args, scratch.path());
                        if let Some(p) = problem(&r, &[0, 1]) {
                            failures.lock().unwrap().push(format!(
                                "mutation #{i} of {} ({}): fuda {}: {p}",
                                file.display(),
                                what.join("; "),
                                args[..2].join(" ")
                            ));
                        }
                    }
                    std::fs::write(&path, &original).unwrap();
                    i += jobs;
                }
            });
        }
    });
    report(failures.into_inner().unwrap());
}

// ---------------------------------------------------------------------------
// Hand-written cases

/// Replaces the first occurrence of `from` in a data file (it must be there).
fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Puts code at the start of shrine's setup.
fn setup_code(dir: &Path, code: &str) {
    let code: String = code.lines().map(|l| format!("  {l}\n")).collect();
    edit(
        dir,
        "rules/shrine.yaml",
        "setup: |\n",
        &format!("setup: |\n{code}"),
    );
}

/// Adds a card file to shrine.
fn card(dir: &Path, name: &str, yaml: &str) {
    std::fs::write(dir.join(format!("cards/shrine/{name}.yaml")), yaml).unwrap();
}

/// Another copy of the shipped data inside `dir` (one per sub-case).
fn sub_copy(dir: &Path, i: usize) -> PathBuf {
    let sub = dir.join(format!("sub{i}"));
    for f in data_files() {
        let to = sub.join(&f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join(&f), to).unwrap();
    }
    sub
}

/// A shrine card `id` whose play effect is `code`, and a scenario that plays it.
fn played(dir: &Path, id: &str, code: &str, rhai: bool) -> String {
    let key = if rhai { "rhai" } else { "effects" };
    let body: String = code.lines().map(|l| format!("    {l}\n")).collect();
    card(
        dir,
        id,
        &format!("id: {id}\nname: {id}\ntags: [action]\n{key}:\n  play: |\n{body}"),
    );
    let file = dir.join(format!("{id}_scenario.yaml"));
    std::fs::write(
        &file,
        format!("game: shrine\nzones:\n  supply: {{osaisen: 10}}\n  p1:\n    hand: [{id}]\n    deck: [osaisen, osaisen]\ncounters:\n  p1: {{actions: 1}}\nphase: action\ndecisions: [play {id}]\n"),
    )
    .unwrap();
    file.to_str().unwrap().to_string()
}

type Case = (&'static str, fn(&Path) -> Vec<Vec<String>>);

fn s(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// Runs go on both tiers: the reference evaluator must not panic or hang
/// either.
fn run_shrine(dir: &Path) -> Vec<Vec<String>> {
    let d = dir.to_str().unwrap();
    vec![
        s(&["check", "shrine", "--data", d]),
        s(&["run", "shrine", "--seed", "1", "--data", d]),
        s(&["run", "shrine", "--seed", "1", "--data", d, "--reference"]),
    ]
}

fn scenario(dir: &Path, file: String) -> Vec<Vec<String>> {
    let d = dir.to_str().unwrap();
    vec![
        s(&["scenario", &file, "--data", d]),
        s(&["scenario", &file, "--data", d, "--reference"]),
    ]
}

fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

const CASES: &[Case] = &[
    ("duplicate card id in two files", |d| {
        card(d, "dup", "id: omiki\nname: Omiki\n");
        run_shrine(d)
    }),
    ("duplicate card id in one list", |d| {
        card(
            d,
            "dup",
            "- id: twice\n  name: T\n- id: twice\n  name: T\n- id: twice\n  name: T\n",
        );
        run_shrine(d)
    }),
    ("card with a non-string id", |d| {
        card(d, "odd", "- id: [1, 2]\n- id: {a: b}\n- id: 3\n- id: ''\n");
        run_shrine(d)
    }),
    ("players min 0", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "players: {min: 2, max: 4, default: 2}",
            "players: {min: 0, max: 4}",
        );
        run_shrine(d)
    }),
    ("players default 0 and max 255", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "players: {min: 2, max: 4, default: 2}",
            "players: {min: 1, max: 255, default: 0}",
        );
        let dd = d.to_str().unwrap();
        let mut v = run_shrine(d);
        v.push(s(&["run", "shrine", "--players", "255", "--data", dd]));
        v.push(s(&["run", "shrine", "--players", "1", "--data", dd]));
        v
    }),
    ("a verb that calls itself forever", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "verbs:\n",
            "verbs:\n  recur:\n    params: [n]\n    do: recur(n + 1)\n",
        );
        setup_code(d, "recur(1)");
        run_shrine(d)
    }),
    ("two verbs calling each other", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "verbs:\n",
            "verbs:\n  ping:\n    do: pong()\n  pong:\n    do: ping()\n",
        );
        setup_code(d, "ping()");
        run_shrine(d)
    }),
    ("while true in setup", |d| {
        setup_code(d, "while true { }");
        run_shrine(d)
    }),
    ("nested repeats", |d| {
        setup_code(
            d,
            "repeat 100000 { repeat 100000 { repeat 100000 { let x = 1 } } }",
        );
        run_shrine(d)
    }),
    ("huge create counts", |d| {
        setup_code(d, "create(@omiki, supply, 9223372036854775807)");
        run_shrine(d)
    }),
    ("create in a loop", |d| {
        setup_code(d, "repeat 100000 { create(@omiki, trash, 100000) }");
        run_shrine(d)
    }),
    ("negative create count", |d| {
        setup_code(d, "create(@omiki, supply, -5)");
        run_shrine(d)
    }),
    ("integer overflow in card text", |d| {
        setup_code(
            d,
            "let x = 9223372036854775807\nx += 1\nx -= 0 - 9223372036854775807\nactions += 9223372036854775807\nactions += 9223372036854775807\nactions -= 0 - 9223372036854775807",
        );
        run_shrine(d)
    }),
    ("negating the smallest number", |d| {
        setup_code(
            d,
            "let m = 0 - 9223372036854775807 - 1\nlet n = -m\nlet q = m / -1\nlet r = m % -1\nlet t = 0 - m",
        );
        run_shrine(d)
    }),
    ("random over the whole range", |d| {
        setup_code(
            d,
            "let r = random(0 - 9223372036854775807 - 1, 9223372036854775807)\nlet q = random(0, 9223372036854775807)",
        );
        run_shrine(d)
    }),
    ("sum overflows", |d| {
        setup_code(
            d,
            "let s = sum([9223372036854775807, 9223372036854775807], it)",
        );
        run_shrine(d)
    }),
    ("a list that doubles forever", |d| {
        setup_code(d, "let l = [1]\nrepeat 100 { l = l + l }");
        run_shrine(d)
    }),
    ("a string that doubles forever", |d| {
        setup_code(d, "let l = \"xx\"\nrepeat 100 { l = l + l }");
        run_shrine(d)
    }),
    ("deeply nested parentheses", |d| {
        setup_code(d, &format!("let x = {}", nested("(", "1", ")", 20000)));
        run_shrine(d)
    }),
    ("deeply nested lists", |d| {
        setup_code(d, &format!("let x = {}", nested("[", "1", "]", 20000)));
        run_shrine(d)
    }),
    ("deeply nested blocks", |d| {
        setup_code(d, &nested("if true { ", "let x = 1", " }", 20000));
        run_shrine(d)
    }),
    ("deeply nested calls", |d| {
        setup_code(
            d,
            &format!("let x = {}", nested("min(1, ", "1", ")", 20000)),
        );
        run_shrine(d)
    }),
    ("a long else-if chain", |d| {
        setup_code(
            d,
            &format!(
                "if false {{ }}{} else {{ }}",
                " else if false { }".repeat(20000)
            ),
        );
        run_shrine(d)
    }),
    ("a long sum", |d| {
        setup_code(d, &format!("let x = 1{}", " + 1".repeat(100000)));
        run_shrine(d)
    }),
    ("a long and-chain", |d| {
        setup_code(d, &format!("let x = true{}", " and true".repeat(100000)));
        run_shrine(d)
    }),
    ("many nots", |d| {
        setup_code(d, &format!("let x = {}true", "not ".repeat(100000)));
        run_shrine(d)
    }),
    ("many minus signs", |d| {
        setup_code(d, &format!("let y = 1\nlet x = {}y", "- ".repeat(100000)));
        run_shrine(d)
    }),
    ("a long field chain", |d| {
        setup_code(d, &format!("let x = me{}", ".index".repeat(100000)));
        run_shrine(d)
    }),
    ("where inside where", |d| {
        setup_code(d, &format!("let x = [1]{}", " where it".repeat(20000)));
        run_shrine(d)
    }),
    ("an endless phase", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "      do: window(\"action\")",
            "      do: repeat_phase()",
        );
        run_shrine(d)
    }),
    ("a move that is always there", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "      do: window(\"action\")",
            "      do: |\n        actions = 5\n        window(\"action\")",
        );
        edit(
            d,
            "rules/shrine.yaml",
            "setup: |\n",
            "setup: |\n  create(@village_festival, hand(player(1)), 1)\n  create(@village_festival, hand(player(2)), 1)\n",
        );
        card(
            d,
            "village_festival",
            "id: village_festival\nname: V\ntags: [action]\neffects:\n  play: |\n    actions += 1\n    move(this, hand)\n",
        );
        vec![s(&[
            "run",
            "shrine",
            "--agents",
            "first",
            "--data",
            d.to_str().unwrap(),
        ])]
    }),
    ("a trigger that triggers itself", |d| {
        card(
            d,
            "echo",
            "id: echo\nname: Echo\ntags: [action]\nabilities:\n  - on: draw\n    zone: hand\n    timing: queued\n    do: emit(\"draw\", this)\n  - on: draw\n    zone: hand\n    do: emit(\"draw\", this)\n",
        );
        setup_code(d, "create(@echo, hand(player(1)), 1)");
        run_shrine(d)
    }),
    ("queued triggers forever", |d| {
        card(
            d,
            "echo",
            "id: echo\nname: Echo\ntags: [action]\nabilities:\n  - on: look\n    zone: hand\n    timing: queued\n    do: emit(\"look\", this)\n",
        );
        setup_code(d, "create(@echo, hand(player(1)), 1)\nemit(\"look\")");
        run_shrine(d)
    }),
    ("too many tags", |d| {
        let tags: Vec<String> = (0..70).map(|i| format!("t{i}")).collect();
        edit(
            d,
            "rules/shrine.yaml",
            "tags: [",
            &format!("tags: [{}, ", tags.join(", ")),
        );
        card(
            d,
            "tagged",
            "id: tagged\nname: Tagged\ntags: [t69, t65, t0]\n",
        );
        run_shrine(d)
    }),
    ("too many zones", |d| {
        let zones: String = (0..70)
            .map(|i| format!("  z{i}: {{per: shared}}\n"))
            .collect();
        edit(
            d,
            "rules/shrine.yaml",
            "zones:\n",
            &format!("zones:\n{zones}"),
        );
        setup_code(d, "create(@omiki, z69, 1)");
        run_shrine(d)
    }),
    ("huge max_turns and no end", |d| {
        edit(d, "rules/shrine.yaml", "max_turns: 400", "max_turns: 0");
        run_shrine(d)
    }),
    ("a card text with a non-ASCII error", |d| {
        card(
            d,
            "jp",
            "id: jp\nname: 御神酒\ntags: [action]\neffects:\n  play: \"御神酒(\"\n",
        );
        run_shrine(d)
    }),
    ("a YAML error after non-ASCII text", |d| {
        card(d, "jp", "id: jp\nname: 御神酒御神酒御神酒\ntext: [御神酒\n");
        run_shrine(d)
    }),
    ("an unknown field after non-ASCII text", |d| {
        card(d, "jp", "id: jp\nname: 御神酒御神酒御神酒\n御神酒: 1\n");
        run_shrine(d)
    }),
    ("an empty rules file", |d| {
        std::fs::write(d.join("rules/shrine.yaml"), "").unwrap();
        run_shrine(d)
    }),
    ("a rules file that is a list", |d| {
        std::fs::write(d.join("rules/shrine.yaml"), "- 1\n- 2\n").unwrap();
        run_shrine(d)
    }),
    ("a rules file that is a directory", |d| {
        std::fs::remove_file(d.join("rules/shrine.yaml")).unwrap();
        std::fs::create_dir(d.join("rules/shrine.yaml")).unwrap();
        run_shrine(d)
    }),
    ("a missing script file", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "max_turns: 400",
            "max_turns: 400\nscripts: [nope.rhai, ../../../etc/passwd]",
        );
        run_shrine(d)
    }),
    ("Rhai scripts that run away", |d| {
        std::fs::write(d.join("rules/bad.rhai"), "fn deep(n) { deep(n + 1) }\nfn spin() { loop { } }\nfn grow() { let a = [1]; loop { a += a; } }\n").unwrap();
        edit(
            d,
            "rules/shrine.yaml",
            "max_turns: 400",
            "max_turns: 400\nscripts: [bad.rhai]",
        );
        setup_code(d, "deep(1)");
        let mut v = run_shrine(d);
        let f = played(d, "spinner", "spin()", false);
        v.extend(scenario(d, f));
        v
    }),
    ("Rhai calling kernel operations with bad numbers", |d| {
        let mut v = Vec::new();
        for (i, code) in RHAI.iter().enumerate() {
            let d = sub_copy(d, i);
            let f = played(&d, "nasty", code, true);
            v.extend(scenario(&d, f));
        }
        v
    }),
    ("card text with bad values", |d| {
        let mut v = Vec::new();
        for (i, code) in SNIPPETS.iter().enumerate() {
            let d = sub_copy(d, i);
            let f = played(&d, "nasty", code, false);
            v.extend(scenario(&d, f));
        }
        v
    }),
    ("Rhai recursion through a verb", |d| {
        edit(
            d,
            "rules/shrine.yaml",
            "verbs:\n",
            "verbs:\n  bounce:\n    do: run(this, \"play\")\n",
        );
        let f = played(d, "bouncer", "bounce();", true);
        scenario(d, f)
    }),
    ("Rhai deep expression", |d| {
        let f = played(
            d,
            "deep",
            &format!("let x = {};", nested("(", "1", ")", 5000)),
            true,
        );
        scenario(d, f)
    }),
];

#[test]
fn nasty_data_never_panics() {
    let failures = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(4);
    std::thread::scope(|sc| {
        for _ in 0..jobs {
            sc.spawn(|| {
                let scratch = tempfile::tempdir().unwrap();
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some((name, make)) = CASES.get(i) else {
                        break;
                    };
                    let dir = data_copy();
                    for args in make(dir.path()) {
                        let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
                        let r = fuda(&a, scratch.path());
                        if let Some(p) = problem(&r, &[0, 1]) {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("{name}: fuda {}: {p}", a[..2].join(" ")));
                        }
                    }
                }
            });
        }
    });
    report(failures.into_inner().unwrap());
}

// ---------------------------------------------------------------------------
// Command line, scenario files and saved games

#[test]
fn command_line_misuse_is_usage_or_a_report() {
    let scratch = tempfile::tempdir().unwrap();
    let sp = scratch.path();
    let d = root().to_str().unwrap();
    let mut failures = Vec::new();
    let mut expect = |args: &[&str], codes: &[i32], needle: &str| {
        let r = fuda(args, sp);
        if let Some(p) = problem(&r, codes) {
            failures.push(format!("fuda {}: {p}", args.join(" ")));
        } else if !r.stderr.contains(needle) {
            failures.push(format!(
                "fuda {}: no {needle:?} in:\n{}",
                args.join(" "),
                r.stderr
            ));
        }
    };
    // Bad flags and values: usage errors (2).
    for args in [
        &["--frobnicate"][..],
        &["run"],
        &["run", "shrine", "--seed", "-1"],
        &["run", "shrine", "--seed", "abc"],
        &["run", "shrine", "--players", "256"],
        &["run", "shrine", "--players", "-1"],
        &["sim", "shrine", "--games", "x"],
        &["replay"],
        &["nonsense"],
        &["check", "shrine", "extra"],
    ] {
        expect(args, &[2], "");
    }
    // Values the parser accepts but the data refuses: reports (1).
    let unknown = ["run", "shrnie", "--data", d];
    expect(&unknown, &[1], "did you mean `shrine`?");
    // An unknown agent is bad usage (2), like the other usage errors.
    for args in [
        &["run", "shrine", "--agents", "nobody", "--data", d][..],
        &["run", "shrine", "--agents", "", "--data", d],
    ] {
        expect(args, &[2], "unknown agent");
    }
    for args in [
        &["run", "../rules/shrine", "--data", d][..],
        &["run", "", "--data", d],
        &["check", "nope", "--data", d],
        &["scenario", "/nonexistent.yaml", "--data", d],
        &["replay", "/nonexistent.json", "--data", d],
    ] {
        expect(args, &[1], "");
    }
    for args in [
        &["run", "shrine", "--view", "0", "--data", d][..],
        &["run", "shrine", "--view", "9", "--data", d],
    ] {
        expect(args, &[2], "--view");
    }
    // Out of the rules' range, or no data folder at all: usage too (2).
    for args in [
        &["run", "shrine", "--players", "0", "--data", d][..],
        &["run", "shrine", "--players", "255", "--data", d],
    ] {
        expect(args, &[2], "--players");
    }
    for args in [
        &["check", "--data", "/nonexistent/dir"][..],
        &["run", "shrine", "--data", "/nonexistent/dir"],
    ] {
        expect(args, &[2], "no such folder");
    }
    for args in [
        &[
            "run",
            "shrine",
            "--seed",
            "18446744073709551615",
            "--json",
            "--data",
            d,
        ][..],
        &["sim", "shrine", "--games", "0", "--data", d],
        &["sim", "shrine", "--games", "3", "--jobs", "0", "--data", d],
        &["run", "shrine", "--set", "kingdom=", "--data", d],
    ] {
        expect(args, &[0, 1], "");
    }
    // Options the rules refuse are bad usage (2): an unknown option or flag, a
    // card the option does not accept, the wrong number of cards.
    for args in [
        &["run", "shrine", "--kingdom", "nope,,", "--data", d][..],
        &["run", "shrine", "--set", "nope", "--data", d],
        &["run", "shrine", "--set", "=", "--data", d],
        &["run", "shrine", "--decks", "x", "--data", d],
        &["run", "utage", "--decks", "", "--data", d],
        &["run", "utage", "--set", "decks=omiki", "--data", d],
        &[
            "run",
            "shrine",
            "--set",
            "kingdom=omiki,omiki,omiki",
            "--data",
            d,
        ],
        &["run", "utage", "--set", "decks=", "--data", d],
    ] {
        expect(args, &[2], "");
    }
    report(failures);
}

#[test]
fn bad_scenarios_and_saves_are_reported() {
    let scratch = tempfile::tempdir().unwrap();
    let sp = scratch.path();
    let d = root().to_str().unwrap();
    let head = "game: shrine\n";
    let bodies: Vec<String> = vec![
        String::new(),
        "- 1\n".into(),
        "game: [shrine]\n".into(),
        "game: nope\n".into(),
        format!("{head}players: 0\n"),
        format!("{head}players: 255\n"),
        format!("{head}players: 300\n"),
        format!("{head}active: 0\n"),
        format!("{head}active: 200\n"),
        format!("{head}setup: true\nactive: 3\n"),
        format!("{head}phase: nope\n"),
        format!("{head}turns: 4294967295\ndecisions: []\n"),
        format!("{head}zones: {{supply: {{osaisen: -1}}}}\n"),
        format!("{head}zones: {{supply: {{osaisen: 99999999999}}}}\n"),
        format!("{head}zones: {{supply: {{osaisen: 100000000}}}}\n"),
        format!("{head}zones: {{supply: {{nope: 1}}}}\n"),
        format!("{head}zones: {{supply: [omiki, [1], {{a: b}}]}}\n"),
        format!("{head}zones: {{supply: 3}}\n"),
        format!("{head}zones: {{nope: [omiki]}}\n"),
        format!("{head}zones: {{p1: [omiki]}}\n"),
        format!("{head}zones: {{p0: {{hand: [omiki]}}}}\n"),
        format!("{head}zones: {{p3: {{hand: [omiki]}}}}\n"),
        format!("{head}zones: {{p99999999999: {{hand: [omiki]}}}}\n"),
        format!(
            "{head}zones: {{p1: {{hand: [omiki^5, omiki^0, omiki^-1, omiki^1, omiki^99999999999999999999]}}}}\n"
        ),
        format!(
            "{head}zones: {{p1: {{hand: [omiki+nope, omiki+, +, ^, omiki+staying+staying]}}}}\n"
        ),
        format!("{head}zones: {{p1: {{hand: [omiki^1, omiki^1]}}}}\n"),
        format!("{head}zones: {{p1: {{hand: [\"御神酒^1\", \"^御\", \"+御\"]}}}}\n"),
        format!("{head}zones: {{p1: {{hand: {{omiki: 3}}, supply: [omiki], 3: [x]}}}}\n"),
        format!("{head}zones: {{trash: {{omiki: 3}}}}\n"),
        format!("{head}counters: {{p1: {{actions: 9223372036854775807}}, game: {{nope: 1}}}}\n"),
        format!("{head}counters: {{p9: {{actions: 1}}, px: {{actions: 1}}, p1: {{nope: 1}}}}\n"),
        format!("{head}expect: [\"(((\", \"count(\", \"御神酒\", \"@nope\"]\n"),
        format!("{head}expect: [\"{}\"]\n", nested("(", "1", ")", 20000)),
        format!(
            "{head}decisions: [\"#99999999999999999999\", \"#-1\", \",,,\", \"\"]\nphase: action\nzones: {{p1: {{hand: [kirisame_marisa]}}}}\ncounters: {{p1: {{actions: 1}}}}\n"
        ),
        format!("{head}options: {{kingdom: [nope]}}\n"),
        format!("{head}options: {{nope: [omiki]}}\n"),
        format!("{head}seed: -1\n"),
        "game: shrine\n\u{feff}players: 2\n".into(),
        "game: shrine\nplayers: 御神酒\n".into(),
        "御神酒: 御神酒\n\tgame: [\n".into(),
    ];
    let mut failures = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        let f = sp.join(format!("s{i}.yaml"));
        std::fs::write(&f, body).unwrap();
        let r = fuda(&["scenario", f.to_str().unwrap(), "--data", d], sp);
        if let Some(p) = problem(&r, &[0, 1]) {
            failures.push(format!("scenario {body:?}: {p}"));
        }
    }
    let f = sp.join("bytes.yaml");
    std::fs::write(&f, b"game: shrine\nplayers: \xff\xfe\n").unwrap();
    let r = fuda(&["scenario", f.to_str().unwrap(), "--data", d], sp);
    if let Some(p) = problem(&r, &[1]) {
        failures.push(format!("non-UTF-8 scenario: {p}"));
    }
    // Saved games: broken, or with impossible players and decisions.
    let saves = [
        "".to_string(),
        "{}".into(),
        "[1,2]".into(),
        r#"{"game":"nope","players":2,"seed":1,"options":{},"data_hash":"","decisions":[]}"#.into(),
        r#"{"game":"shrine","players":0,"seed":1,"options":{},"data_hash":"","decisions":[]}"#.into(),
        r#"{"game":"shrine","players":255,"seed":1,"options":{},"data_hash":"","decisions":[]}"#.into(),
        r#"{"game":"shrine","players":2,"seed":1,"options":{"kingdom":["nope"]},"data_hash":"","decisions":[]}"#.into(),
        r#"{"game":"shrine","players":2,"seed":1,"options":{},"data_hash":"x","decisions":[4294967295,1,2]}"#.into(),
        r#"{"game":"shrine","players":2,"seed":1,"options":{},"data_hash":"x","decisions":[1,4294967295]}"#.into(),
        r#"{"game":"shrine","players":2,"seed":1,"options":{},"data_hash":"x","decisions":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}"#.into(),
    ];
    for (i, save) in saves.iter().enumerate() {
        let f = sp.join(format!("save{i}.json"));
        std::fs::write(&f, save).unwrap();
        for upto in ["0", "3", "18446744073709551615"] {
            let r = fuda(
                &["replay", f.to_str().unwrap(), "--upto", upto, "--data", d],
                sp,
            );
            if let Some(p) = problem(&r, &[0, 1]) {
                failures.push(format!("replay {save:?} --upto {upto}: {p}"));
            }
        }
    }
    report(failures);
}
