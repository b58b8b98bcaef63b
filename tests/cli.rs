//! The `fuda` binary end to end: errors with positions, exit codes, data
//! directories, determinism, hidden information, JSON output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

fn fuda(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fuda")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A fresh copy of the shrine rules and basic cards in a scratch directory,
/// removed when the returned guard drops.
fn data_copy(name: &str) -> TempDir {
    let tmp = scratch(name);
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("cards/shrine")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("rules/shrine.yaml"),
        dir.join("rules/shrine.yaml"),
    )
    .unwrap();
    std::fs::copy(
        root.join("cards/shrine/basic.yaml"),
        dir.join("cards/shrine/basic.yaml"),
    )
    .unwrap();
    tmp
}

/// An empty scratch directory named for the test.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("fuda-test-{name}-"))
        .tempdir()
        .unwrap()
}

/// Checks one bad card file: exit 1, the message, and file:line:column.
fn bad_card(name: &str, yaml: &str, message: &str, line_col: &str) -> String {
    let tmp = data_copy(name);
    let dir = tmp.path();
    std::fs::write(dir.join("cards/shrine/bad.yaml"), yaml).unwrap();
    let o = fuda(&["check", "shrine", "--data", dir.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{name}: {err}");
    assert!(
        err.contains(message),
        "{name}: expected {message:?} in:\n{err}"
    );
    assert!(
        err.contains(&format!("bad.yaml:{line_col}")),
        "{name}: expected position {line_col} in:\n{err}"
    );
    err
}

#[test]
fn yaml_syntax_error_has_position() {
    bad_card(
        "syntax",
        "id: x\ntags: [action\n",
        "did not find expected",
        "3:1",
    );
}

#[test]
fn unknown_field_has_position_and_help() {
    let err = bad_card(
        "field",
        "id: x\ntagz: [action]\n",
        "unknown field `tagz`",
        "2:1",
    );
    assert!(err.contains("did you mean `tags`?"), "{err}");
}

#[test]
fn wrong_type_has_position() {
    bad_card("type", "id: x\ntags: action\n", "invalid type", "2:7");
}

#[test]
fn unknown_card_reference_points_at_the_value() {
    let yaml = "id: x\ntags: [action]\neffects:\n  play: |\n    draw(1)\n    gain(pile(supply, @omikki))\nname: X\n";
    let err = bad_card("cardref", yaml, "unknown card `omikki`", "6:24");
    assert!(err.contains("did you mean `omiki`?"), "{err}");
}

#[test]
fn unknown_zone_and_event_have_suggestions() {
    let err = bad_card(
        "event",
        "id: x\nabilities:\n  - on: gian\n    self: true\n    do: draw(1)\nname: X\n",
        "unknown event \"gian\"",
        "3:9",
    );
    assert!(err.contains("did you mean `gain`?"), "{err}");
    let err = bad_card(
        "zone",
        "id: x\neffects:\n  play: move(this, hnd)\nname: X\n",
        "unknown name `hnd`",
        "3:20",
    );
    assert!(err.contains("did you mean `hand`?"), "{err}");
}

#[test]
fn grammar_error_has_position() {
    bad_card(
        "grammar",
        "id: x\neffects:\n  play: \"draw(2\"\nname: X\n",
        "syntax error in card text",
        "3:16",
    );
}

#[test]
fn rhai_syntax_error_has_position() {
    bad_card(
        "rhai",
        "id: x\nrhai:\n  play: |\n    draw(1);\n    let x = ;\nname: X\n",
        "Rhai syntax error",
        "5:13",
    );
}

/// A scenario that plays one card from hand in a copied data directory.
fn play_card_scenario(dir: &Path, card: &str) -> PathBuf {
    let file = dir.join(format!("play_{card}.yaml"));
    let yaml = format!(
        "game: shrine\nzones:\n  supply: {{osaisen: 10}}\n  p1:\n    hand: [{card}]\n    deck: [osaisen, osaisen, osaisen]\ncounters:\n  p1: {{actions: 1}}\nphase: action\ndecisions: [play {card}]\nstops: waiting\n"
    );
    std::fs::write(&file, yaml).unwrap();
    file
}

#[test]
fn rhai_runtime_error_names_the_card() {
    let tmp = data_copy("rhai_runtime");
    let dir = tmp.path();
    let card = "id: oops\ntags: [action]\nrhai:\n  play: |\n    draw(1);\n    let y = card.cost * \"x\";\nname: Oops\n";
    std::fs::write(dir.join("cards/shrine/oops.yaml"), card).unwrap();
    let file = play_card_scenario(dir, "oops");
    let o = fuda(&[
        "scenario",
        file.to_str().unwrap(),
        "--data",
        dir.to_str().unwrap(),
    ]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("while running card `oops`"), "{err}");
    assert!(err.contains("oops.yaml:6:"), "{err}");
}

#[test]
fn endless_scripts_are_stopped_by_their_limits() {
    let tmp = data_copy("endless");
    let dir = tmp.path();
    let cards = "- id: spin\n  name: Spin\n  tags: [action]\n  rhai:\n    play: \"loop { }\"\n\
                 - id: deep\n  name: Deep\n  tags: [action]\n  rhai:\n    play: |\n      fn f(n) { f(n + 1) }\n      f(0)\n\
                 - id: again\n  name: Again\n  tags: [action]\n  effects:\n    play: run(this, \"play\")\n";
    std::fs::write(dir.join("cards/shrine/endless.yaml"), cards).unwrap();
    for (card, what) in [
        ("spin", "operations"),
        ("deep", "nested too deep"),
        ("again", "nested more than"),
    ] {
        let file = play_card_scenario(dir, card);
        // Stopped by the script limits (operations, call levels, nesting),
        // which the message names: no clock involved.
        let o = fuda(&[
            "scenario",
            file.to_str().unwrap(),
            "--data",
            dir.to_str().unwrap(),
        ]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{card}: {err}");
        assert!(
            err.contains(&format!("card `{card}`")) && err.contains(what),
            "{card}: {err}"
        );
    }
}

#[test]
fn a_card_added_to_a_copied_data_directory_plays_without_rebuilding() {
    let tmp = data_copy("newcard");
    let dir = tmp.path();
    let card = "id: festival_new\nname: 新しい祭り\ntags: [action]\nprops: {cost: 5}\neffects:\n  play: |\n    actions += 2\n    coins += 2\n    buys += 1\n";
    std::fs::write(dir.join("cards/shrine/festival_new.yaml"), card).unwrap();
    let file = play_card_scenario(dir, "festival_new");
    let o = fuda(&[
        "scenario",
        file.to_str().unwrap(),
        "--data",
        dir.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("P1 play 新しい祭り") && out.contains("P1 coins +2 (= 2)"),
        "{out}"
    );
}

#[test]
fn unknown_game_agent_and_option_are_errors_with_help() {
    let (_, err) = text(&fuda(&["run", "shrne"]));
    assert!(err.contains("did you mean `shrine`?"), "{err}");
    let o = fuda(&["run", "shrine", "--agents", "bigmony"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("did you mean `bigmoney`?"));
    let o = fuda(&["run", "shrine", "--kingdom", "omikki"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("did you mean `omiki`?"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(fuda(&["run"]).status.code(), Some(2));
    assert_eq!(
        fuda(&["run", "shrine", "--seed", "x"]).status.code(),
        Some(2)
    );
    assert_eq!(
        fuda(&["run", "shrine", "--view", "7"]).status.code(),
        Some(2)
    );
}

#[test]
fn check_accepts_the_repository_data() {
    let o = fuda(&["check"]);
    assert!(o.status.success(), "{}", text(&o).1);
}

#[test]
fn same_seed_same_transcript_other_seed_other_game() {
    let a = fuda(&["run", "shrine", "--seed", "7", "--players", "3"]);
    let b = fuda(&["run", "shrine", "--seed", "7", "--players", "3"]);
    let c = fuda(&["run", "shrine", "--seed", "8", "--players", "3"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn json_ends_with_the_result() {
    let o = fuda(&[
        "run", "shrine", "--seed", "3", "--json", "--agents", "bigmoney",
    ]);
    let (out, _) = text(&o);
    let last = out.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    assert!(
        v["winner"].is_array()
            && v["scores"].as_array().unwrap().len() == 2
            && v["turns"].as_u64().unwrap() > 0,
        "{last}"
    );
    for line in out.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
}

/// `--json` lines carry the facts beside the text: the credited player,
/// cards with their ids, the zones and the cause; a counter's old and new
/// values; the stack's pushes. A player's view gives a hidden card no id.
#[test]
fn json_lines_carry_structured_fields() {
    let lines = |view: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec!["run", "duel", "--seed", "1", "--agents", "random", "--json"];
        args.extend(view);
        let (out, _) = text(&fuda(&args));
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let all = lines(&[]);
    let cast = (all.iter())
        .find(|v| v["kind"] == "move" && v["cause"] == "cast")
        .expect("a spell is cast");
    assert!(cast["player"].is_u64(), "{cast}");
    assert!(cast["cards"][0]["id"].is_string(), "{cast}");
    assert_eq!(cast["to"]["zone"], "casting", "{cast}");
    assert_eq!(cast["from"]["zone"], "hand", "{cast}");
    let life = (all.iter())
        .find(|v| v["kind"] == "counter" && v["counter"] == "life")
        .expect("someone is hit or healed");
    assert_eq!(
        life["new"].as_i64().unwrap() - life["old"].as_i64().unwrap(),
        life["amount"].as_i64().unwrap()
    );
    assert!(
        all.iter()
            .any(|v| v["kind"] == "stack" && v["push"] == false)
    );
    // P2 does not see P1's draws: a count, no cards.
    let p2 = lines(&["--view", "2"]);
    let draw = (p2.iter())
        .find(|v| v["kind"] == "move" && v["cause"] == "draw" && v["player"] == 1)
        .expect("P1 draws");
    assert!(draw["cards"].is_null() && draw["count"].is_u64(), "{draw}");
}

#[test]
fn a_players_view_hides_what_that_player_may_not_see() {
    let all = text(&fuda(&["run", "shrine", "--seed", "5"])).0;
    let p2 = text(&fuda(&["run", "shrine", "--seed", "5", "--view", "2"])).0;
    // P2 sees its own draws but only counts of P1's; P1's deck size is P1's alone.
    assert!(all.contains("P1 draw お賽銭") || all.contains("P1 draw 博麗神社"));
    assert!(
        p2.lines()
            .filter(|l| l.starts_with("P1 draw"))
            .all(|l| l.contains(" cards (") || l.contains(" card (")),
        "{p2}"
    );
    assert!(
        p2.lines()
            .any(|l| l.starts_with("P2 draw") && !l.contains(" cards ("))
    );
    assert!(p2.lines().any(|l| l == "shuffle P1's deck"));
    // Discarding shows the top card, not the others.
    assert!(!p2.contains("P1's discard: "));
}

#[test]
fn a_deck_put_into_the_discard_shows_its_top_card_but_not_its_size_to_others() {
    // 覚り妖怪 puts a whole deck into the discard pile: the top card is public,
    // the number of cards would tell the deck size, which is its owner's alone.
    let kingdom = "komeiji_satori,izayoi_sakuya,kirisame_marisa,hong_meiling,cirno,\
                   hakurei_reimu,kochiya_sanae,tatara_kogasa,ibuki_suika,hinanawi_tenshi";
    let run = |view: &str| {
        let args = [
            "run",
            "shrine",
            "--seed",
            "1",
            "--kingdom",
            kingdom,
            "--agents",
            "random",
            "--view",
            view,
        ];
        text(&fuda(&args)).0
    };
    let is_deck_put =
        |l: &&str| l.starts_with("P2 put ") && l.ends_with("(P2's deck → P2's discard)");
    let theirs: Vec<String> = run("1")
        .lines()
        .filter(is_deck_put)
        .map(String::from)
        .collect();
    assert!(!theirs.is_empty(), "the seed no longer puts P2's deck away");
    for l in &theirs {
        assert!(l.starts_with("P2 put cards, top: "), "{l}");
    }
    // The owner may see its deck's size, so its own view gives the count.
    let own = run("2");
    let mine: Vec<&str> = own.lines().filter(is_deck_put).collect();
    assert_eq!(mine.len(), theirs.len());
    for l in mine {
        assert!(
            l.split(' ')
                .nth(2)
                .is_some_and(|n| n.parse::<u32>().is_ok()),
            "{l}"
        );
    }
}

#[test]
fn a_saved_game_replays_to_the_same_transcript_and_undoes_by_replay() {
    let tmp = scratch("save");
    let file = tmp.path().join("save.json");
    let f = file.to_str().unwrap();
    let played = fuda(&[
        "run",
        "shrine",
        "--seed",
        "9",
        "--players",
        "3",
        "--save",
        f,
    ]);
    assert!(played.status.success());
    let replayed = fuda(&["replay", f]);
    assert!(replayed.status.success(), "{}", text(&replayed).1);
    assert_eq!(played.stdout, replayed.stdout);
    let undone = text(&fuda(&["replay", f, "--upto", "5"])).0;
    assert!(undone.len() < text(&played).0.len());
    assert!(
        undone.ends_with("-- replay stopped after the requested decisions\n"),
        "{undone}"
    );
}

#[test]
fn a_games_own_flags_are_its_rules_options() {
    // The README's forms: a flag before other flags, its value after a space or `=`.
    let utage = fuda(&[
        "run",
        "utage",
        "--decks",
        "deck_reimu,deck_marisa",
        "--agents",
        "utage",
        "--view",
        "1",
    ]);
    assert_eq!(utage.status.code(), Some(0), "{}", text(&utage).1);
    let set = fuda(&[
        "run",
        "shrine",
        "--seed",
        "4",
        "--set",
        "kingdom=cirno,ibuki_suika",
    ]);
    let flag = fuda(&[
        "run",
        "shrine",
        "--kingdom=cirno,ibuki_suika",
        "--seed",
        "4",
    ]);
    assert_eq!(set.status.code(), Some(0), "{}", text(&set).1);
    assert_eq!(text(&set).0, text(&flag).0, "--kingdom is --set kingdom=");
    let other = fuda(&[
        "run",
        "shrine",
        "--seed",
        "4",
        "--kingdom",
        "cirno,hong_meiling",
    ]);
    assert_ne!(text(&set).0, text(&other).0, "the flag's value is used");
    // What the rules declare is listed, flags first.
    let (out, _) = text(&fuda(&["options", "shrine"]));
    assert!(out.contains("--kingdom IDS, --set kingdom=IDS"), "{out}");
    assert!(
        out.contains("accepts cards tagged character; at most 10, each once"),
        "{out}"
    );
    let (out, _) = text(&fuda(&["options", "utage"]));
    assert!(out.contains("--decks IDS, --set decks=IDS"), "{out}");
    // And under a game subcommand's help.
    let help = fuda(&["run", "utage", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(
        text(&help).0.contains("--decks IDS, --set decks=IDS"),
        "{}",
        text(&help).0
    );
}

#[test]
fn default_seats_play_the_rules_default_agent_and_the_result_says_what_ended_the_game() {
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "shrine", "--seed", "1"];
        args.extend_from_slice(extra);
        text(&fuda(&args)).0
    };
    let plain = run(&[]);
    assert_eq!(plain, run(&["--agents", "bigmoney"]));
    assert_ne!(plain, run(&["--agents", "random"]));
    let last = plain.lines().last().unwrap();
    assert!(
        last.ends_with("; ended by the end rule `big_pile_empty`"),
        "{last}"
    );
    let json = run(&["--json"]);
    assert!(
        (json.lines().last().unwrap()).contains(r#""end_rule":"big_pile_empty","ended":"rule""#),
        "{json}"
    );
    let utage = text(&fuda(&["run", "utage", "--seed", "1"])).0;
    assert_eq!(
        utage,
        text(&fuda(&["run", "utage", "--seed", "1", "--agents", "utage"])).0
    );
    assert!(
        utage
            .lines()
            .last()
            .unwrap()
            .ends_with("; ended by players losing"),
        "{utage}"
    );
    // A misspelt default agent is a located load error.
    let tmp = data_copy("default_agent");
    let dir = tmp.path();
    let path = dir.join("rules/shrine.yaml");
    let rules = std::fs::read_to_string(&path).unwrap();
    assert!(rules.contains("\ndefault_agent: bigmoney"));
    std::fs::write(
        &path,
        rules.replace("\ndefault_agent: bigmoney", "\ndefault_agent: bigmony"),
    )
    .unwrap();
    let o = fuda(&["check", "shrine", "--data", dir.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("unknown agent \"bigmony\"") && err.contains("did you mean `bigmoney`?"),
        "{err}"
    );
}

/// A copy of every game's rules and cards in a scratch directory.
fn full_copy(name: &str) -> TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            let (f, t) = (e.path(), to.join(e.file_name()));
            if f.is_dir() {
                copy(&f, &t);
            } else {
                std::fs::copy(&f, &t).unwrap();
            }
        }
    }
    let tmp = scratch(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["rules", "cards"] {
        copy(&root.join(sub), &tmp.path().join(sub));
    }
    tmp
}

#[test]
fn new_card_writes_a_card_and_a_scenario_that_pass_check_and_test_in_every_game() {
    let tmp = full_copy("new_card");
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    for game in ["shrine", "utage", "hyakki", "landgrab", "t3", "duel"] {
        let id = format!("first_{game}");
        let o = fuda(&["--data", d, "new", "card", game, &id]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{game}: {err}");
        let card = dir.join(format!("cards/{game}/{id}.yaml"));
        let scenario = dir.join(format!("tests/scenarios/{game}/cards/{id}.yaml"));
        assert!(out.contains(&format!("wrote {}", card.display())), "{out}");
        let card_text = std::fs::read_to_string(&card).unwrap();
        assert!(card_text.contains(&format!("id: {id}\n")), "{card_text}");
        let scenario_text = std::fs::read_to_string(&scenario).unwrap();
        assert!(scenario_text.contains(&format!("@{id}")), "{scenario_text}");
        let snap = scenario.with_extension("snap");
        assert!(out.contains(&format!("wrote {}", snap.display())), "{out}");
        assert!(snap.is_file(), "{game}: no snapshot");
        // Not overwritten: the same command is refused, the file unchanged.
        std::fs::write(&card, format!("{card_text}# mine\n")).unwrap();
        let o = fuda(&["--data", d, "new", "card", game, &id]);
        assert_eq!(o.status.code(), Some(1), "{game}");
        assert!(text(&o).1.contains("already has a card"), "{}", text(&o).1);
        assert!(
            std::fs::read_to_string(&card)
                .unwrap()
                .ends_with("# mine\n")
        );
    }
    let o = fuda(&["--data", d, "check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    // The snapshots are written: the new scenarios pass as they are.
    let o = fuda(&["--data", d, "test"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).0);
    assert!(
        text(&o).0.ends_with("6 passed, 0 failed\n"),
        "{}",
        text(&o).0
    );
    // The scenario sees the card where the rules' moves take cards from.
    let snap = std::fs::read_to_string(dir.join("tests/scenarios/shrine/cards/first_shrine.snap"));
    assert!(snap.unwrap().contains("P1's hand: first_shrine"));
}

#[test]
fn new_mod_writes_a_mod_that_checks_and_tests_at_once_in_every_game() {
    let tmp = scratch("new_mod");
    for game in ["shrine", "utage", "hyakki", "landgrab", "t3", "duel"] {
        let dir = tmp.path().join(format!("lanterns_{game}"));
        let d = dir.to_str().unwrap();
        let o = fuda(&["new", "mod", game, d]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{game}: {err}");
        for f in [
            "mod.yaml",
            "rules.yaml",
            "cards/my_card.yaml",
            "scenarios/my_card.yaml",
            "scenarios/my_card.snap",
            "docs/schema/card.json",
        ] {
            assert!(dir.join(f).is_file(), "{game}: no {f}");
            assert!(
                out.contains(&format!("wrote {}", dir.join(f).display())),
                "{out}"
            );
        }
        let rules = std::fs::read_to_string(dir.join("rules.yaml")).unwrap();
        assert!(rules.contains("\nadd:\n"), "{rules}");
        let o = fuda(&["check", "--data", d]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{game}: {err}");
        assert!(out.contains("adds card my_card"), "{out}");
        let o = fuda(&["test", d]);
        assert_eq!(o.status.code(), Some(0), "{game}: {}", text(&o).0);
        assert!(
            text(&o).0.ends_with("1 passed, 0 failed\n"),
            "{}",
            text(&o).0
        );
        // The next card goes where the mod's loading and `fuda test` look.
        let o = fuda(&["--data", d, "new", "card", game, "second"]);
        assert_eq!(o.status.code(), Some(0), "{game}: {}", text(&o).1);
        let card = std::fs::read_to_string(dir.join("cards/second.yaml")).unwrap();
        assert!(
            card.starts_with("# yaml-language-server: $schema=../docs/schema/card.json\n"),
            "{card}"
        );
        assert!(dir.join("scenarios/second.yaml").is_file());
        assert!(dir.join("scenarios/second.snap").is_file());
        assert!(!dir.join("tests").exists() && !dir.join("cards").join(game).exists());
        let o = fuda(&["check", "--data", d]);
        assert!(text(&o).0.contains("adds card second"), "{}", text(&o).0);
        // A new card may change what the game's setup deals (a supply drawn
        // from the cards), so the first card's snapshot is rewritten too.
        let o = fuda(&["test", d, "--update"]);
        assert_eq!(o.status.code(), Some(0), "{game}: {}", text(&o).0);
        assert!(
            text(&o).0.ends_with("2 passed, 0 failed\n"),
            "{}",
            text(&o).0
        );
    }
    // Not into a folder that holds something, nor of a game fuda lacks.
    let taken = tmp.path().join("lanterns_shrine");
    let o = fuda(&["new", "mod", "shrine", taken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let (_, err) = text(&o);
    let said: Vec<&str> = (err.split_whitespace()).filter(|w| *w != "│").collect();
    assert!(
        said.join(" ").contains("is not an empty folder"),
        "{said:?}"
    );
    let fresh = tmp.path().join("fresh");
    let o = fuda(&["new", "mod", "shrin", fresh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("did you mean `shrine`?"),
        "{}",
        text(&o).1
    );
    assert!(!fresh.exists(), "nothing written");
}

#[test]
fn new_card_refuses_a_bad_id_a_misspelt_game_and_an_existing_file() {
    let tmp = data_copy("new_refused");
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    for bad in ["2nd", "a/b", "..", "if", "カード"] {
        let o = fuda(&["--data", d, "new", "card", "shrine", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(text(&o).1.contains("cannot be a card id"), "{}", text(&o).1);
    }
    let o = fuda(&["--data", d, "new", "card", "shrin", "x"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("did you mean `shrine`?"),
        "{}",
        text(&o).1
    );
    let scenario = dir.join("tests/scenarios/shrine/cards/x.yaml");
    std::fs::create_dir_all(scenario.parent().unwrap()).unwrap();
    std::fs::write(&scenario, "mine").unwrap();
    let o = fuda(&["--data", d, "new", "card", "shrine", "x"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("does not overwrite"), "{}", text(&o).1);
    assert_eq!(std::fs::read_to_string(&scenario).unwrap(), "mine");
    assert!(!dir.join("cards/shrine/x.yaml").exists(), "nothing written");
}

#[test]
fn explain_shows_a_cards_abilities_as_compiled_and_the_scenarios_naming_it() {
    let o = fuda(&["explain", "utage", "sekinin_tenka"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    for want in [
        "責任転嫁 (sekinin_tenka), a utage card",
        "cards/utage/named1/sekinin_tenka.yaml:3:5",
        "tags:  support, on_leader",
        "props: cost 2",
        "on:       would damage: before it happens",
        "zone:     while this card is in leader",
        "if:       event.player == me and event.amount >= 1",
        "optional: its player is asked \"discard it",
        "timing:   now",
        "    prevent()\n",
        "verbs of the rules:  opponent",
        "kernel operations:   lose, move, prevent",
        "tests/scenarios/utage/named1/sekinin_tenka.yaml",
        "tests/scenarios/utage/chart/battle_damage_would.yaml",
    ] {
        assert!(out.contains(want), "{want:?} in:\n{out}");
    }
    assert!(!out.contains("Some("), "no Debug output:\n{out}");
    // A self ability, and a scenario only by its card's name in it.
    let (out, _) = text(&fuda(&["explain", "shrine", "chirei_shaden"]));
    assert!(
        out.contains("self:     only an event of this card itself"),
        "{out}"
    );
    assert!(
        out.contains("tests/scenarios/shrine/rules/on_trash_order.yaml"),
        "{out}"
    );
    assert!(!out.contains("utage"), "only the game's scenarios:\n{out}");
    let o = fuda(&["explain", "shrine", "alice_margatrod"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("did you mean `alice_margatroid`?"),
        "{}",
        text(&o).1
    );
}

#[test]
fn events_lists_where_each_event_is_raised_its_fields_and_who_waits() {
    let tmp = data_copy("events");
    let dir = tmp.path();
    std::fs::write(
        dir.join("cards/shrine/signal.yaml"),
        r#"id: signal_fire
name: Signal Fire
tags: [action]
props: {cost: 2}
effects:
  play: emit("attack", this, none, 2, hand)
abilities:
  - on: attack
    zone: play
    do: "coins += event.amount"
"#,
    )
    .unwrap();
    let o = fuda(&["events", "shrine", "--data", dir.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let block = |name: &str| {
        let start = out.find(&format!("\n{name}\n")).expect(name);
        out[start + 1..].split("\n\n").next().unwrap().to_string()
    };
    let attack = block("attack");
    assert!(
        attack.contains(
            "raised by  emit(\"attack\", card, amount, target) in card signal_fire, effect `play` ("
        ) && attack.contains("cards/shrine/signal.yaml:6:9)"),
        "{attack}"
    );
    assert!(
        attack.contains("fields     card, player, amount, target"),
        "{attack}"
    );
    assert!(attack.contains("after      signal_fire"), "{attack}");
    let gain = block("gain");
    assert!(gain.contains("move(…, \"gain\") in verb `gain`"), "{gain}");
    assert!(gain.contains("fields     card, player, from, to"), "{gain}");
    // The turn raises its events without a `would` step.
    let start = block("turn_start");
    assert!(
        start.contains("raised by  the turn, as it starts"),
        "{start}"
    );
    assert!(start.contains("would      never raised"), "{start}");
}
