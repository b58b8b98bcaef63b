//! Mods as overlays and the built-in games, through the binary: what
//! `fuda check` reports of a mod, a mod's scenarios under `fuda test`, the
//! binary run from another folder, `fuda data export`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs fuda in `cwd`, with no variable of cargo's to lean on.
fn fuda_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .current_dir(cwd)
        .env_remove("CARGO_MANIFEST_DIR")
        .env("NO_COLOR", "1")
        .output()
        .expect("run fuda")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn festival() -> PathBuf {
    root().join("tests/mods/festival")
}

#[test]
fn check_reports_what_a_mod_adds_and_replaces() {
    let dir = festival();
    let o = fuda_in(root(), &["check", "--data", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.starts_with(&format!(
            "data: the mod {} on the built-in game shrine\n",
            dir.display()
        )),
        "{text}"
    );
    let report: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("mod festival on shrine:"))
        .skip(1)
        .collect();
    assert_eq!(
        report,
        [
            "  replaces card omiki",
            "  adds card village_festival",
            "  changes max_turns: 400 → 300",
            "  changes turn.phases.cleanup.do",
            "  adds verbs.celebrate",
        ],
        "{text}"
    );
}

/// A misspelt name in a mod's rules is an error at its line with the
/// closest name; a new name goes under `add:`, and a name the game has
/// cannot be added.
#[test]
fn a_mods_rules_change_only_names_the_game_has_unless_added() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("typo");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mod.yaml"), "extends: shrine\nname: typo\n").unwrap();
    let rules =
        "counters:\n  actoins: {start: 3}\nturn:\n  phases:\n    - name: clenaup\n      do: \"\"\n";
    std::fs::write(dir.join("rules.yaml"), rules).unwrap();
    let o = fuda_in(tmp.path(), &["check", "--data", "typo"]);
    assert!(!o.status.success());
    let text = format!("{}{}", out(&o), err(&o));
    assert!(
        text.contains("the game has no counters `actoins`"),
        "{text}"
    );
    assert!(text.contains("rules.yaml:2:3"), "{text}");
    assert!(text.contains("did you mean `actions`?"), "{text}");
    assert!(
        text.contains("the game has no turn.phases `clenaup`"),
        "{text}"
    );
    assert!(text.contains("rules.yaml:5:13"), "{text}");
    assert!(text.contains("did you mean `cleanup`?"), "{text}");
    // Under `add:` they are new names, and the game loads.
    let added = "add:\n  counters:\n    lfie: {start: 3}\n";
    std::fs::write(dir.join("rules.yaml"), added).unwrap();
    let o = fuda_in(tmp.path(), &["check", "--data", "typo"]);
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("adds counters.lfie"), "{}", out(&o));
    // A name the game has cannot be added.
    std::fs::write(
        dir.join("rules.yaml"),
        "add:\n  counters:\n    actions: {start: 2}\n",
    )
    .unwrap();
    let o = fuda_in(tmp.path(), &["check", "--data", "typo"]);
    assert!(!o.status.success());
    assert!(
        err(&o).contains("`add:` gives counters `actions`, which the game has")
            || out(&o).contains("`add:` gives counters `actions`, which the game has"),
        "{}{}",
        out(&o),
        err(&o)
    );
}

#[test]
fn a_mods_scenarios_play_on_the_mod_and_fail_without_its_change() {
    let o = fuda_in(root(), &["test", "tests/mods/festival"]);
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).ends_with("1 passed, 0 failed\n"), "{}", out(&o));
    // One scenario file inside the mod plays on the mod too, from any folder.
    let file = festival().join("scenarios/festival.yaml");
    let o = fuda_in(&festival().join("cards"), &["test", file.to_str().unwrap()]);
    assert!(out(&o).ends_with("1 passed, 0 failed\n"), "{}", out(&o));
    let o = fuda_in(
        root(),
        &["scenario", "tests/mods/festival/scenarios/festival.yaml"],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("village_festival"), "{}", out(&o));

    // The same scenario on the mod with 御神酒 at its old cost fails: the
    // scenario tests the mod's card, not the game's.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("festival");
    copy_dir(&festival(), &copy);
    let card = copy.join("cards/omiki.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(&card, text.replace("cost: 5", "cost: 6")).unwrap();
    let o = fuda_in(tmp.path(), &["test", "--data", "festival"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("0 passed, 1 failed"), "{}", out(&o));
}

#[test]
fn the_built_in_games_run_from_any_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let o = fuda_in(tmp.path(), &["run", "shrine", "--seed", "1"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("result — winner"), "{}", out(&o));
    let o = fuda_in(tmp.path(), &["check"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).starts_with("data: the games built into fuda\n"),
        "{}",
        out(&o)
    );
    for game in ["duel", "hyakki", "landgrab", "shrine", "t3", "utage"] {
        assert!(out(&o).contains(&format!("{game}: ok")), "{}", out(&o));
    }
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(under).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(dir, &p, out);
        } else {
            out.push(p.strip_prefix(dir).unwrap().to_path_buf());
        }
    }
    out.sort();
}

#[test]
fn data_export_writes_the_built_in_games_and_refuses_a_folder_in_use() {
    let tmp = tempfile::tempdir().unwrap();
    let o = fuda_in(tmp.path(), &["data", "export", "games"]);
    assert!(o.status.success(), "{}", err(&o));
    let games = tmp.path().join("games");
    // The export is the repository's rules/ and cards/, byte for byte.
    for top in ["rules", "cards"] {
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        files(&games, &games.join(top), &mut mine);
        files(root(), &root().join(top), &mut theirs);
        assert_eq!(mine, theirs);
        for f in &mine {
            let a = std::fs::read(games.join(f)).unwrap();
            let b = std::fs::read(root().join(f)).unwrap();
            assert!(a == b, "{} differs", f.display());
        }
    }
    // The schemas the files' first lines point at come along, as shipped.
    for kind in ["rules", "card", "scenario", "mod"] {
        let f = format!("docs/schema/{kind}.json");
        assert!(
            std::fs::read(games.join(&f)).ok() == std::fs::read(root().join(&f)).ok(),
            "{f} missing or not the shipped one"
        );
    }
    // So do the games' scenarios and their snapshots, and they pass there:
    // `fuda test` plays them on the exported folder they stand in.
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    let scenarios = Path::new("tests/scenarios");
    files(&games, &games.join(scenarios), &mut mine);
    files(root(), &root().join(scenarios), &mut theirs);
    theirs.retain(|f| f.extension().is_some_and(|e| e == "yaml" || e == "snap"));
    assert_eq!(
        mine, theirs,
        "the scenarios built into fuda are not those of tests/scenarios: build.rs \
         notices a new file only at its next run (`touch build.rs`)"
    );
    for f in &mine {
        let a = std::fs::read(games.join(f)).unwrap();
        assert!(a == std::fs::read(root().join(f)).unwrap(), "{f:?} differs");
    }
    let o = fuda_in(tmp.path(), &["test", "games/tests/scenarios"]);
    assert!(o.status.success(), "{}", out(&o));
    assert!(err(&o).contains("data: the folder"), "{}", err(&o));
    let yaml = mine
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "yaml"));
    let all = format!("{} passed, 0 failed\n", yaml.count());
    assert!(out(&o).ends_with(&all), "{}", out(&o));
    let o = fuda_in(tmp.path(), &["check", "shrine", "--data", "games"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).starts_with("data: the folder games\n"),
        "{}",
        out(&o)
    );

    let o = fuda_in(tmp.path(), &["data", "export", "games"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("is not empty"), "{}", err(&o));
    assert!(err(&o).contains("--force"), "{}", err(&o));
    let rules = games.join("rules/shrine.yaml");
    std::fs::write(&rules, "edited").unwrap();
    let o = fuda_in(tmp.path(), &["data", "export", "games", "--force"]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        std::fs::read(&rules).unwrap(),
        std::fs::read(root().join("rules/shrine.yaml")).unwrap()
    );
}

/// A mod that changes only two of shrine's named parameters: every place
/// that reads one follows (setup's deal and each clean-up's draw; the
/// counter's start and each turn's reset), and `fuda check` names them.
#[test]
fn a_mod_changes_a_named_parameter_and_the_game_follows() {
    let dir = root().join("tests/mods/bigger_hands");
    let d = dir.to_str().unwrap();
    let o = fuda_in(root(), &["check", "--data", d]);
    assert!(o.status.success(), "{}", err(&o));
    for line in [
        "  changes params.hand_size: 5 → 6",
        "  changes params.actions_per_turn: 1 → 2",
    ] {
        assert!(out(&o).contains(line), "{}", out(&o));
    }
    let o = fuda_in(root(), &["test", d]);
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert!(out(&o).ends_with("1 passed, 0 failed\n"), "{}", out(&o));
    // The same scenario on shrine itself fails where the values show.
    let scenario = dir.join("scenarios/params.yaml");
    let o = fuda_in(
        root(),
        &["--data", ".", "scenario", scenario.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    for want in [
        "found `count(hand)` is 5",
        "`actions == 2` at the start of action of turn 3; found `actions` is 1",
    ] {
        assert!(out(&o).contains(want), "{}", out(&o));
    }
}

/// The card author's trial (issue 15), as two mods: three shrine cards with a
/// rule change, and a utage card with a "when targeted" ability.
fn trial(game: &str) -> PathBuf {
    root().join(format!("tests/mods/trial_{game}"))
}

#[test]
fn the_trial_mods_load_and_match_their_snapshots() {
    let shrine = trial("shrine");
    let o = fuda_in(root(), &["check", "--data", shrine.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let report: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("mod trial_shrine on shrine:"))
        .skip(1)
        .collect();
    assert_eq!(
        report,
        [
            "  adds card trial_lab",
            "  adds card trial_militia",
            "  adds card trial_remodel",
            "  changes counters.actions.start: actions_per_turn → 2",
            "  changes turn.end",
        ],
        "{text}"
    );
    for (game, n) in [("shrine", 4), ("utage", 1)] {
        let o = fuda_in(root(), &["test", trial(game).to_str().unwrap()]);
        assert!(o.status.success(), "{}{}", out(&o), err(&o));
        assert!(
            out(&o).ends_with(&format!("{n} passed, 0 failed\n")),
            "{}",
            out(&o)
        );
    }
    // The "when targeted" ability is the card's, as explain shows it.
    let utage = trial("utage");
    let o = fuda_in(
        root(),
        &[
            "--data",
            utage.to_str().unwrap(),
            "explain",
            "utage",
            "trial_decoy",
        ],
    );
    assert!(
        out(&o).contains("if:       any(event.target, it == this)"),
        "{}",
        out(&o)
    );
}

#[test]
fn the_trial_mods_scenarios_fail_when_a_card_or_the_rule_changes() {
    let tmp = tempfile::tempdir().unwrap();
    for (game, file, from, to) in [
        ("shrine", "cards/trial_lab.yaml", "draw(2)", "draw(1)"),
        ("shrine", "rules.yaml", "actions = 2", "actions = 1"),
        ("utage", "cards/trial_decoy.yaml", "+= 1", "+= 2"),
    ] {
        let copy = tmp
            .path()
            .join(format!("{game}-{}", file.replace('/', "-")));
        copy_dir(&trial(game), &copy);
        let path = copy.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let o = fuda_in(tmp.path(), &["test", copy.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", out(&o));
        assert!(out(&o).contains(" failed\n"), "{}", out(&o));
        assert!(!out(&o).contains(" 0 failed"), "{file}: {}", out(&o));
    }
}
