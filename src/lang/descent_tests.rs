//! The fast parser against pest: for every string in the shipped games'
//! rules, cards and scenarios, and for texts made from them by seeded
//! mutations, both give the same tree or both reject (`FUDA_PARSE_CASES`
//! sets how many mutated texts; the default is small).

use std::path::Path;

use crate::lang::descent;
use crate::lang::grammar::Rule;
use crate::lang::syntax::Tree;

/// Where the two parsers differ on `text` as `rule`, a description.
pub(crate) fn differ(text: &str, rule: Rule) -> Option<String> {
    let fast = descent::parse(text, rule);
    let slow = Tree::by_pest(text, rule).ok();
    match (&fast, &slow) {
        (Some(a), Some(b)) if a == b => None,
        (None, None) => None,
        _ => Some(format!(
            "{rule:?} of {text:?}:\n fast {:?}\n pest {:?}",
            fast.map(|t| t.slots),
            slow.map(|t| t.slots)
        )),
    }
}

fn strings(v: &serde_norway::Value, out: &mut Vec<String>) {
    use serde_norway::Value;
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Sequence(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Mapping(m) => m.values().for_each(|i| strings(i, out)),
        Value::Tagged(t) => strings(&t.value, out),
        _ => {}
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a data folder") {
        let path = e.expect("an entry").path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "yaml") {
            out.push(path);
        }
    }
}

/// Every string value in the shipped data: card text, verbs, conditions,
/// and much that is no code (names, display text), which pest rejects too.
fn shipped() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["rules", "cards", "tests/scenarios"] {
        yaml_files(&root.join(d), &mut files);
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a readable file");
        if let Ok(v) = serde_norway::from_str::<serde_norway::Value>(&text) {
            strings(&v, &mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Pieces a mutation inserts: the grammar's punctuation, keywords and
/// whitespace, with the spellings that border them.
const PIECES: &[&str] = &[
    " ", "  ", "\t", "\n", "\r\n", "\r", ";", "\\\n", "\\", "#", "# c\n", "(", ")", "{", "}", "[",
    "]", ",", "\"", "@", ".", "-", "+", "*", "/", "%", "=", "==", "!=", "<", "<=", ">", ">=", "+=",
    "-=", "!", "not", "not ", "and", "or", "where", "is", "is not", "if", "else", "repeat",
    "while", "for", "in", "let", "return", "x", "_", "it", "1", "0", "42", "é", "札", "\0",
];

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `text` changed in one to three places.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(c.len() + 1);
        match rng.below(4) {
            0 if at < c.len() => {
                let n = (1 + rng.below(3)).min(c.len() - at);
                c.drain(at..at + n);
            }
            1 if at < c.len() => {
                let other = rng.below(c.len());
                c.swap(at, other);
            }
            2 if at < c.len() => {
                let n = (1 + rng.below(8)).min(c.len() - at);
                let copy: Vec<char> = c[at..at + n].to_vec();
                let to = rng.below(c.len() + 1);
                c.splice(to..to, copy);
            }
            _ => {
                let piece = PIECES[rng.below(PIECES.len())];
                c.splice(at..at, piece.chars());
            }
        }
    }
    c.into_iter().collect()
}

#[test]
fn fast_parser_equals_pest() {
    let texts = shipped();
    assert!(texts.len() > 1000, "{} strings", texts.len());
    let mut parsed = 0;
    let mut failures = Vec::new();
    for t in &texts {
        for rule in [Rule::program, Rule::expr_only] {
            parsed += usize::from(descent::parse(t, rule).is_some());
            failures.extend(differ(t, rule));
        }
    }
    // Most shipped code parses (display text mostly does not).
    assert!(parsed > 1000, "{parsed} parsed");
    let cases: usize = std::env::var("FUDA_PARSE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let mut accepted = 0;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..cases {
        let base = &texts[rng.below(texts.len())];
        let t = mutate(base, &mut rng);
        let rule = if rng.below(2) == 0 {
            Rule::program
        } else {
            Rule::expr_only
        };
        accepted += usize::from(descent::parse(&t, rule).is_some());
        failures.extend(differ(&t, rule));
    }
    // Many mutated texts still parse, so trees are compared, not only rejections.
    assert!(
        accepted * 10 > cases,
        "{accepted} of {cases} mutated texts parsed"
    );
    assert!(
        failures.is_empty(),
        "{} differences; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
}

/// Deep nesting goes to pest (which the compiler then stops), never past
/// the fast parser's stack bound.
#[test]
fn deep_text_goes_to_pest() {
    let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
    assert!(descent::parse(&deep, Rule::expr_only).is_none());
    assert!(Tree::by_pest(&deep, Rule::expr_only).is_ok());
    let shallow = format!("{}1{}", "(".repeat(20), ")".repeat(20));
    assert!(descent::parse(&shallow, Rule::expr_only).is_some());
}
