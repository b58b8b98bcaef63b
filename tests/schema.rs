//! The editor schemas: `docs/schema/` is what `fuda schema` prints, every
//! shipped data file names its schema in its first line, every shipped file
//! and docs example is valid against its schema (checked by an independent
//! validator, `boon`), and a wrong file is not.

use std::path::{Path, PathBuf};
use std::process::Command;

use fuda::schema::{DIR, Kind, line_for};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `fuda schema KIND`, from the binary.
fn printed(kind: Kind) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["schema", kind.name()])
        .output()
        .expect("run fuda");
    assert!(out.status.success(), "fuda schema {} failed", kind.name());
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn kept(kind: Kind) -> PathBuf {
    root().join(DIR).join(format!("{}.json", kind.name()))
}

#[test]
fn kept_schemas_are_current() {
    for kind in Kind::ALL {
        let path = kept(kind);
        let file = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            file == printed(kind),
            "{} is not what `fuda schema {k}` prints: regenerate it with\n  cargo run --release -- schema {k} > {DIR}/{k}.json",
            path.display(),
            k = kind.name()
        );
    }
}

/// The kind of a shipped file: by [`Kind::of`], or inside an example mod
/// (`tests/mods/<mod>/`), by the mod's layout: `cards/` holds cards, and any
/// other YAML but `mod.yaml` and `rules.yaml` is a scenario.
fn kind(rel: &Path) -> Option<Kind> {
    if let Some(k) = Kind::of(rel) {
        return Some(k);
    }
    let mut inside = rel.strip_prefix("tests/mods").ok()?.iter().skip(1);
    match inside.next()?.to_str()? {
        "cards" => Some(Kind::Card),
        "rules.yaml" => None,
        _ => Some(Kind::Scenario),
    }
}

/// Every data file under the shipped folders, and every example mod's files
/// but its `rules.yaml` (which has no schema), relative to the root.
fn shipped() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, keep: &dyn Fn(&Path) -> bool) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out, keep);
            } else if keep(&p) {
                out.push(p.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    let yaml = |p: &Path| p.extension().is_some_and(|x| x == "yaml" || x == "yml");
    let mut out = Vec::new();
    for dir in ["rules", "cards", "tests/scenarios"] {
        walk(&root().join(dir), &mut out, &yaml);
    }
    let in_mod = |p: &Path| yaml(p) && kind(p.strip_prefix(root()).unwrap()).is_some();
    walk(&root().join("tests/mods"), &mut out, &in_mod);
    out.sort();
    out
}

#[test]
fn every_shipped_file_names_its_schema() {
    let files = shipped();
    assert!(files.len() > 300, "only {} data files found", files.len());
    let mut wrong = Vec::new();
    for rel in &files {
        let kind = kind(rel).unwrap_or_else(|| panic!("{} has no kind", rel.display()));
        let want = line_for(kind, rel);
        let text = std::fs::read_to_string(root().join(rel)).unwrap();
        if text.lines().next() != Some(want.as_str()) {
            wrong.push(format!(
                "{}: the first line should be\n  {want}",
                rel.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn line_points_at_the_schema_from_the_file() {
    let rel = Path::new("cards/shrine/characters/x.yaml");
    let line = line_for(Kind::Card, rel);
    let target = line.split("$schema=").nth(1).unwrap();
    let resolved = root().join(rel.parent().unwrap()).join(target);
    assert_eq!(
        resolved.canonicalize().unwrap(),
        kept(Kind::Card).canonicalize().unwrap()
    );
    assert_eq!(Kind::of(Path::new("rules/shrine.yaml")), Some(Kind::Rules));
    assert_eq!(Kind::of(Path::new("rules/lib.rhai")), None);
    assert_eq!(
        Kind::of(Path::new("tests/scenarios/shrine/a/b.yaml")),
        Some(Kind::Scenario)
    );
    assert_eq!(Kind::of(Path::new("mod.yaml")), Some(Kind::Mod));
    assert_eq!(
        Kind::of(Path::new("tests/mods/x/mod.yaml")),
        Some(Kind::Mod)
    );
    // A mod's rules are raw YAML laid over the game's: no schema.
    assert_eq!(Kind::of(Path::new("rules.yaml")), None);
}

/// The kept schemas, compiled by the validator.
struct Validator {
    schemas: boon::Schemas,
    index: Vec<(Kind, boon::SchemaIndex)>,
}

impl Validator {
    fn new() -> Validator {
        let mut schemas = boon::Schemas::new();
        let mut c = boon::Compiler::new();
        let mut index = Vec::new();
        for kind in Kind::ALL {
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(kept(kind)).unwrap()).unwrap();
            let url = format!("file:///{}.json", kind.name());
            c.add_resource(&url, json).unwrap();
            index.push((kind, c.compile(&url, &mut schemas).unwrap()));
        }
        Validator { schemas, index }
    }

    /// The validator's message, if `yaml` is not valid against `kind`'s schema.
    fn check(&self, kind: Kind, yaml: &str) -> Result<(), String> {
        let v: serde_json::Value = serde_norway::from_str(yaml).map_err(|e| e.to_string())?;
        let i = self.index.iter().find(|(k, _)| *k == kind).unwrap().1;
        self.schemas.validate(&v, i).map_err(|e| format!("{e:#}"))
    }
}

#[test]
fn every_shipped_file_is_valid_against_its_schema() {
    let v = Validator::new();
    let mut bad = Vec::new();
    for rel in shipped() {
        let kind = kind(&rel).unwrap();
        let text = std::fs::read_to_string(root().join(&rel)).unwrap();
        if let Err(e) = v.check(kind, &text) {
            bad.push(format!("{}: {e}", rel.display()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}

#[test]
fn docs_examples_are_valid_against_their_schemas() {
    let v = Validator::new();
    let mut seen = 0;
    let mut bad = Vec::new();
    let docs = std::fs::read_dir(root().join("docs")).unwrap();
    for page in docs.flatten().map(|e| e.path()) {
        if page.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        // A block: the line it opens on, its kind (`yaml card …`), its text.
        let mut open: Option<(usize, Option<Kind>, String)> = None;
        for (n, l) in text.lines().enumerate() {
            let fence = l.trim_start().strip_prefix("```");
            match (open.take(), fence) {
                (None, Some(info)) => {
                    let words: Vec<&str> = info.split_whitespace().collect();
                    // `yaml mod FILE`: a file of a mod, of FILE's kind.
                    let kind = match words[..] {
                        ["yaml", "mod", file] => Kind::of(Path::new(file)),
                        ["yaml", k, ..] => Kind::parse(k),
                        _ => None,
                    };
                    open = Some((n + 1, kind, String::new()));
                }
                (Some((at, Some(kind), body)), Some(_)) => {
                    seen += 1;
                    if let Err(e) = v.check(kind, &body) {
                        bad.push(format!("{}:{at}: {e}", page.display()));
                    }
                }
                (Some((_, None, _)), Some(_)) => {}
                (Some((at, kind, mut body)), None) => {
                    body.push_str(l);
                    body.push('\n');
                    open = Some((at, kind, body));
                }
                (None, None) => {}
            }
        }
    }
    assert!(seen > 10, "only {seen} examples found in docs/");
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}

#[test]
fn a_wrong_file_is_invalid() {
    let v = Validator::new();
    let card = "id: x\nname: X\n";
    v.check(Kind::Card, card).unwrap();
    v.check(Kind::Card, &format!("- {}", card.replace('\n', "\n  ")))
        .unwrap();
    // An unknown key, a number where a list goes, a missing name.
    let e = v
        .check(Kind::Card, "id: x\nname: X\ncots: 3\n")
        .unwrap_err();
    assert!(e.contains("cots"), "{e}");
    v.check(Kind::Card, "id: x\nname: X\ntags: 3\n")
        .unwrap_err();
    v.check(Kind::Card, "id: x\n").unwrap_err();
    let scenario = "game: g\ndecisions: [pass, {answer: pass, offered: [pass]}]\nexpect: [\"true\", {at: end, that: \"true\"}]\nresult: {winner: [1, 2]}\n";
    v.check(Kind::Scenario, scenario).unwrap();
    for wrong in [
        "game: g\ndecisions: [{answr: pass}]\n",
        "game: g\nexpect: [{at: end, that: \"true\", when: 2}]\n",
        "game: g\nresult: {winner: one}\n",
        "game: g\nstops: always\n",
        "game: g\nzones: {p1: [a]}\n",
    ] {
        assert!(v.check(Kind::Scenario, wrong).is_err(), "{wrong}");
    }
    let rules = std::fs::read_to_string(root().join("rules/shrine.yaml")).unwrap();
    v.check(Kind::Rules, &rules).unwrap();
    let wrong = rules.replacen("\nzones:", "\nzone:", 1);
    assert!(v.check(Kind::Rules, &wrong).is_err());
    v.check(Kind::Mod, "extends: shrine\nreplace: [omiki]\n")
        .unwrap();
    for wrong in [
        "name: x\n",
        "extends: shrine\nreplaces: [omiki]\n",
        "extends: shrine\nreplace: omiki\n",
    ] {
        assert!(v.check(Kind::Mod, wrong).is_err(), "{wrong}");
    }
}

/// An editor shows each key's description on hover: none may lack one.
#[test]
fn every_key_has_a_description() {
    /// Walks a schema: `properties` (and `definitions`, `patternProperties`)
    /// map names to schemas, every other object value is a schema or a list
    /// of them.
    fn walk(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
        let Some(m) = v.as_object() else {
            return;
        };
        for (k, x) in m {
            let here = format!("{at}/{k}");
            match (k.as_str(), x) {
                (
                    "properties" | "definitions" | "patternProperties",
                    serde_json::Value::Object(named),
                ) => {
                    for (name, s) in named {
                        let d = s.get("description").and_then(|d| d.as_str());
                        if k == "properties" && d.is_none_or(|d| d.trim().is_empty()) {
                            out.push(format!("{here}/{name}"));
                        }
                        walk(s, &format!("{here}/{name}"), out);
                    }
                }
                (_, serde_json::Value::Array(a)) => a.iter().for_each(|s| walk(s, &here, out)),
                _ => walk(x, &here, out),
            }
        }
    }
    for kind in Kind::ALL {
        let v: serde_json::Value = serde_json::from_str(&printed(kind)).unwrap();
        let mut missing = Vec::new();
        walk(&v, kind.name(), &mut missing);
        assert!(
            missing.is_empty(),
            "keys without a description: {missing:?}"
        );
    }
}
