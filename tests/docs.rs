//! The reference in docs/ is tested: every example runs, and the list of
//! kernel operations is the one the kernel registers.
//!
//! Fenced blocks are found by their info string:
//! - ```` ```yaml card GAME ```` — a card file (one card or a list), added to
//!   GAME's cards; the game must still load.
//! - ```` ```yaml card GAME fails ```` — a card file GAME must refuse to load:
//!   each error's message must be written in the page; the card is then
//!   taken away again.
//! - ```` ```yaml rules GAME ```` — a whole rules file `rules/GAME.yaml`; it must load.
//! - ```` ```yaml mod PATH ```` — a file of a mod (`mod.yaml`, `rules.yaml`,
//!   `cards/x.yaml`); the mod must load.
//! - ```` ```yaml scenario ```` — a scenario file; it runs with the cards and
//!   rules of the blocks above it in the same page (on the mod, if the page
//!   has one above it), and its `expect:` (required) must hold.
//! - ```` ```yaml scenario fails ```` — a scenario that must fail: each
//!   failure's message must be written in the page (the block after it).
//! - ```` ```sh ```` and ```` ```text ```` are shown, not run; any other block is an error,
//!   so no example escapes the test.
//!
//! A failure names the page and line of the example.

use std::path::{Path, PathBuf};

use fuda::lang::builtins::Builtin;

#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

struct Block {
    line: usize,
    info: Vec<String>,
    text: String,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, l) in text.lines().enumerate() {
        let fence = l.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => {
                open = Some(Block {
                    line: i + 1,
                    info: info.split_whitespace().map(str::to_string).collect(),
                    text: String::new(),
                })
            }
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some(b), None) => {
                b.text.push_str(l);
                b.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    out
}

fn render(e: fuda::data::DataErrors) -> String {
    (e.errors.into_iter())
        .map(|e| format!("{:?}", miette::Report::new(e)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs every example of one page; returns a message per broken example.
fn check_page(root: &Path, page: &Path) -> (usize, Vec<String>) {
    let name = page
        .strip_prefix(root)
        .unwrap_or(page)
        .display()
        .to_string();
    let text = std::fs::read_to_string(page).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy_dir(&root.join("rules"), &dir.join("rules"));
    copy_dir(&root.join("cards"), &dir.join("cards"));
    let mut failures = Vec::new();
    let mut ran = 0;
    // A rules example loads with the card examples that follow it.
    let mut unloaded: Option<(String, String)> = None;
    // A mod's files, written under `mod/`: where the first one is, until loaded.
    let modded = dir.join("mod");
    let mut mod_unloaded: Option<String> = None;
    let mut has_mod = false;
    // A page that writes a game's rules builds that game from nothing: the
    // shipped cards of a game of that name are set aside.
    let mut fresh: Vec<String> = Vec::new();
    let load_mod = |at: &str, failures: &mut Vec<String>| {
        let src = fuda::data::source::open(Some(&modded));
        for game in src.games() {
            if let Err(e) = src.load(&game) {
                failures.push(format!("{at}: {}", render(e)));
            }
        }
    };
    let load = |game: &str, at: &str, failures: &mut Vec<String>| {
        if let Err(e) = fuda::data::load::load_game(dir, game) {
            failures.push(format!("{at}: {}", render(e)));
        }
    };
    for b in blocks(&text) {
        let at = format!("{name}:{}", b.line);
        let info: Vec<&str> = b.info.iter().map(String::as_str).collect();
        let file = |p: PathBuf| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, &b.text).unwrap();
            p
        };
        let game = match info.as_slice() {
            ["sh" | "text"] => continue,
            ["yaml", "card", game, "fails"] => {
                ran += 1;
                let card = file(dir.join(format!("cards/{game}/docs_{}.yaml", b.line)));
                match fuda::data::load::load_game(dir, game) {
                    Ok(_) => failures.push(format!("{at}: the card should not load; it does")),
                    Err(e) => {
                        for e in &e.errors {
                            if !text.contains(e.message.as_str()) {
                                failures.push(format!(
                                    "{at}: the page should show the error `{}`",
                                    e.message
                                ));
                            }
                        }
                    }
                }
                std::fs::remove_file(card).unwrap();
                continue;
            }
            ["yaml", "card", game] => {
                file(dir.join(format!("cards/{game}/docs_{}.yaml", b.line)));
                game
            }
            ["yaml", "rules", game] => {
                ran += 1;
                file(dir.join(format!("rules/{game}.yaml")));
                if !fresh.iter().any(|g| g == game) {
                    fresh.push(game.to_string());
                    let _ = std::fs::remove_dir_all(dir.join("cards").join(game));
                }
                std::fs::create_dir_all(dir.join("cards").join(game)).unwrap();
                unloaded = Some((game.to_string(), at));
                continue;
            }
            ["yaml", "mod", path] => {
                ran += 1;
                file(modded.join(path));
                has_mod = true;
                mod_unloaded.get_or_insert(at);
                continue;
            }
            ["yaml", "scenario", ..] => {
                let must_fail = b.info.get(2).map(String::as_str) == Some("fails");
                ran += 1;
                if let Some(at) = mod_unloaded.take() {
                    load_mod(&at, &mut failures);
                }
                if let Some((game, at)) = unloaded.take() {
                    load(&game, &at, &mut failures);
                }
                if !b.text.contains("\nexpect:") && !b.text.starts_with("expect:") {
                    failures.push(format!("{at}: a scenario example needs `expect:`"));
                    continue;
                }
                let path = file(dir.join(format!("scenario_{}.yaml", b.line)));
                let data = if has_mod { modded.as_path() } else { dir };
                match fuda::scenario::run_file(&fuda::data::source::open(Some(data)), &path) {
                    Err(e) => failures.push(format!("{at}: {}", render(e))),
                    Ok(mut r) => {
                        if let Some(e) = r.error.take() {
                            failures.push(format!("{at}: {:?}", miette::Report::new(e)));
                        }
                        if must_fail {
                            if r.failures.is_empty() {
                                failures.push(format!("{at}: the scenario should fail; it passed"));
                            }
                            for f in &r.failures {
                                if !text.contains(f.as_str()) {
                                    failures.push(format!(
                                        "{at}: the page should show the failure `{f}`"
                                    ));
                                }
                            }
                        } else if !r.failures.is_empty() {
                            failures.push(format!(
                                "{at}: expectations failed:\n{}\n{}",
                                r.failures.join("\n"),
                                r.render(None)
                            ));
                        }
                    }
                }
                continue;
            }
            other => {
                failures.push(format!(
                    "{at}: a block marked {other:?} is not run: use `yaml card GAME [fails]`, \
                     `yaml rules GAME`, `yaml mod PATH`, `yaml scenario`, `sh` or `text`"
                ));
                continue;
            }
        };
        ran += 1;
        if unloaded.as_ref().is_some_and(|(g, _)| g == game) {
            unloaded = None;
        }
        load(game, &at, &mut failures);
    }
    if let Some((game, at)) = unloaded {
        load(&game, &at, &mut failures);
    }
    if let Some(at) = mod_unloaded {
        load_mod(&at, &mut failures);
    }
    (ran, failures)
}

/// The tutorial builds the shipped `duel`: its last rules file is
/// `rules/duel.yaml` and its card files are those of `cards/duel/`.
#[test]
fn the_tutorial_builds_the_shipped_duel() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/tutorial.md")).unwrap();
    let bs = blocks(&page);
    let of = |kind: &str| -> Vec<&str> {
        bs.iter()
            .filter(|b| b.info == ["yaml", kind, "duel"])
            .map(|b| b.text.as_str())
            .collect()
    };
    let rules = std::fs::read_to_string(root.join("rules/duel.yaml")).unwrap();
    assert_eq!(of("rules").last().copied(), Some(rules.as_str()));
    let mut shipped: Vec<String> = std::fs::read_dir(root.join("cards/duel"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    shipped.sort();
    let mut taught: Vec<String> = of("card").into_iter().map(String::from).collect();
    taught.sort();
    assert_eq!(taught, shipped);
}

#[test]
fn every_example_in_docs_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let (mut ran, mut failures) = (0, Vec::new());
    for page in &pages {
        let (n, f) = check_page(root, page);
        ran += n;
        failures.extend(f);
    }
    assert!(ran >= 10, "only {ran} examples found in docs/");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_broken_example_is_reported_at_its_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("page.md");
    std::fs::write(
        &page,
        "# page\n\n```yaml card shrine\nid: broken\nname: B\neffects:\n  play: drawx(1)\n```\n\n\
         ```yaml\nid: x\n```\n",
    )
    .unwrap();
    let (_, failures) = check_page(root, &page);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("page.md:3") && failures[0].contains("drawx"));
    assert!(failures[1].contains("page.md:10") && failures[1].contains("is not run"));
}

#[test]
fn every_operation_has_a_description_and_its_parameters() {
    for &b in Builtin::ALL {
        assert!(
            b.doc().len() > 10,
            "the builtin `{}` has no description in src/lang/builtins.rs",
            b.name()
        );
        let params = b.params().split(", ").filter(|p| !p.is_empty()).count();
        let optional = b.params().matches('?').count();
        let (min, max) = b.arity();
        assert_eq!(
            (params - optional, params),
            (min, max),
            "`{}`: the parameters written ({}) do not match its arity",
            b.name(),
            b.params()
        );
    }
}

#[test]
fn docs_operations_md_is_what_fuda_doc_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["doc", "operations"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let file = std::fs::read_to_string(root.join("docs/operations.md")).unwrap();
    assert!(
        printed == file,
        "docs/operations.md is out of date: run `cargo run --release -- doc operations > docs/operations.md`"
    );
    for &b in Builtin::ALL {
        assert!(printed.contains(&format!("## `{}`", b.signature())));
    }
}

#[test]
fn fuda_doc_lists_topics_and_rejects_unknown_ones() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
            .args(args)
            .output()
            .unwrap()
    };
    let list = run(&["doc"]);
    let list = String::from_utf8(list.stdout).unwrap();
    for topic in fuda::lang::doc::topic_names() {
        assert!(list.contains(topic), "{topic} missing from `fuda doc`");
        assert!(run(&["doc", topic]).status.success());
    }
    let bad = run(&["doc", "operatons"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("did you mean `operations`"));
}
