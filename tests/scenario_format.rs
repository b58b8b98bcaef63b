//! What a scenario file can say: expectations at
//! points, offered options, results, and unused answers or a stop for want
//! of one, each failing at its line and column.

use std::path::{Path, PathBuf};

use fuda::scenario::run_file;
use fuda::snapshot::{self, Options, Review};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scenario written into a fresh folder.
fn scenario(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Each failure as `line:col: message`.
fn failures(path: &Path) -> Vec<String> {
    let run = run_file(&fuda::data::source::open(Some(root())), path)
        .unwrap_or_else(|e| panic!("{:?}", e.errors));
    assert_eq!(run.failures.len(), run.reports.len());
    let text = std::fs::read_to_string(path).unwrap();
    (run.reports.iter())
        .map(|r| {
            let off = r.span.expect("located").offset();
            let line = text[..off].matches('\n').count() + 1;
            let col = text[..off].rsplit('\n').next().unwrap().chars().count() + 1;
            format!("{line}:{col}: {}", r.message)
        })
        .collect()
}

const BASE: &str = "game: shrine
zones:
  supply: {osaisen: 10, honoumai: 10}
  p1:
    hand: [omiki, omiki]
phase: buy
";

#[test]
fn unused_answers_fail_at_the_first_one_unless_allowed() {
    let text = format!("{BASE}decisions: [play omiki, play omiki, pass, pass, pass]\n");
    let (_d, path) = scenario("a.yaml", &text);
    let f = failures(&path);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("7:43: 2 scripted answer(s) unused, from `pass` on"),
        "{f:?}"
    );
    let (_d, path) = scenario("b.yaml", &format!("{text}unused: allowed\n"));
    assert_eq!(failures(&path), Vec::<String>::new());
}

#[test]
fn a_stop_for_want_of_an_answer_fails_unless_expected() {
    let text = format!("{BASE}decisions: [play omiki]\n");
    let (_d, path) = scenario("a.yaml", &text);
    let f = failures(&path);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("7:13: the scenario stopped for want of an answer (P1: resources)"),
        "{f:?}"
    );
    let (_d, path) = scenario("b.yaml", &format!("{text}stops: waiting\n"));
    assert_eq!(failures(&path), Vec::<String>::new());
    // Expected, but it did not stop.
    let full = format!("{BASE}decisions: [play omiki, play omiki, pass]\nstops: waiting\n");
    let (_d, path) = scenario("c.yaml", &full);
    let f = failures(&path);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("8:1: expected the scenario to stop waiting"),
        "{f:?}"
    );
}

/// The README's example with every expectation turned false.
#[test]
fn points_offers_and_results_fail_at_their_text_saying_what_was_found() {
    let example =
        std::fs::read_to_string(root().join("tests/scenarios/shrine/readme_example.yaml")).unwrap();
    let wrong = example
        .replace(
            "offered: [buy yasaka_kanako, pass]",
            "offered: [buy koumakan, pass]",
        )
        .replace("not_offered: [buy koumakan]", "not_offered: [buy honoumai]")
        .replace("\"coins == 1\"", "\"coins == 2\"")
        .replace("\"count(hand) == 5\"", "\"count(hand) == 4\"")
        + "  - after: 1\n    that: \"coins == 0\"\n  - at: start of cleanup\n    turn: 2\n    that: \"coins == 0\"\nresult: {winner: 1}\n";
    let (_d, path) = scenario("wrong.yaml", &wrong);
    let f = failures(&path);
    // In the order they were checked: decision 2 asked, decision 3 asked,
    // the end of buy, the end.
    let expected = [
        "31:12: expected `coins == 0` after decision 1; found `coins` is 3",
        "18:15: expected decision 3 (P1: buy) to offer `buy koumakan`; it offered: buy osaisen | buy honoumai | buy yasaka_kanako | pass",
        "19:19: expected decision 3 (P1: buy) not to offer `buy honoumai`",
        "28:10: expected `coins == 2` at the end of buy; found `coins` is 1",
        "29:6: expected `count(hand) == 4` at the end; found `count(hand)` is 5",
        "32:9: the scenario never came to the point at the start of cleanup of turn 2",
        "35:1: expected a result; the game did not end: it ran out of turns after turn 1",
    ];
    assert_eq!(f.len(), expected.len(), "{f:#?}");
    for (got, e) in f.iter().zip(expected) {
        assert!(
            got.starts_with(e),
            "{got}\n  should start with\n{e}\n{f:#?}"
        );
    }
}

#[test]
fn results_name_the_winner_the_end_and_the_turns() {
    let path = root().join("tests/scenarios/shrine/rules/end_three_piles.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("result: {winner: 1, ended: three_empty_piles, turns: 1}"));
    let wrong = text.replace(
        "result: {winner: 1, ended: three_empty_piles, turns: 1}",
        "result: {winner: [1, 2], ended: lost, turns: 2}",
    );
    let (_d, path) = scenario("end.yaml", &wrong);
    let f = failures(&path);
    assert_eq!(
        f,
        [
            "24:10: expected winner P1 and P2; found P1",
            "24:33: expected the game ended by `lost`; found `three_empty_piles`",
            "24:39: expected 2 turn(s); found 1",
        ]
    );
}

#[test]
fn the_readme_shows_the_example_file() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let example =
        std::fs::read_to_string(root().join("tests/scenarios/shrine/readme_example.yaml")).unwrap();
    assert!(
        readme.contains(&format!("```yaml\n{example}```")),
        "README.md should show tests/scenarios/shrine/readme_example.yaml as it is"
    );
}

struct Answer(bool, usize);

impl Review for Answer {
    fn accept(&mut self, _: &Path, diff: &str, _: Option<&str>) -> bool {
        assert!(diff.contains("+ "), "{diff}");
        self.1 += 1;
        self.0
    }
}

/// A new scenario is pending until updated; a changed transcript fails with
/// its diff until accepted.
#[test]
fn fuda_test_writes_pending_snapshots_and_updates_them() {
    let src = root().join("tests/scenarios/shrine/cards/cirno.yaml");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cirno.yaml");
    std::fs::copy(&src, &file).unwrap();
    let paths = [dir.path().to_path_buf()];
    let run = |opts: &Options, review: Option<&mut dyn Review>| {
        let mut out = Vec::new();
        let s = snapshot::run(
            &fuda::data::source::open(Some(root())),
            &paths,
            opts,
            review,
            &mut out,
        )
        .unwrap();
        (s, String::from_utf8(out).unwrap())
    };
    let (s, out) = run(&Options::default(), None);
    assert_eq!((s.passed, s.failed), (0, 1), "{out}");
    assert!(
        out.contains("no snapshot yet") && out.ends_with("0 passed, 1 failed\n"),
        "{out}"
    );
    let pending = dir.path().join("cirno.snap.new");
    let snap = dir.path().join("cirno.snap");
    assert!(pending.exists() && !snap.exists());
    let update = Options {
        update: true,
        ..Default::default()
    };
    let (s, _) = run(&update, None);
    assert_eq!((s.passed, s.failed), (1, 0));
    assert!(snap.exists() && !pending.exists());
    // The stored transcript is the repository's own.
    let ours = std::fs::read_to_string(src.with_extension("snap")).unwrap();
    let mine = std::fs::read_to_string(&snap).unwrap();
    assert_eq!(snapshot::body(&ours), snapshot::body(&mine));
    let (s, _) = run(&Options::default(), None);
    assert_eq!((s.passed, s.failed), (1, 0));
    // A changed transcript: a diff, then rejected, then accepted.
    std::fs::write(&snap, mine.replace("== turn 1: P1 ==", "== turn 9: P1 ==")).unwrap();
    let (s, out) = run(&Options::default(), None);
    assert_eq!(s.failed, 1);
    assert!(
        out.contains("- == turn 9: P1 ==\n+ == turn 1: P1 ==\n"),
        "{out}"
    );
    let mut no = Answer(false, 0);
    let (s, _) = run(&Options::default(), Some(&mut no));
    assert_eq!((s.failed, no.1), (1, 1));
    let mut yes = Answer(true, 0);
    let (s, _) = run(&Options::default(), Some(&mut yes));
    assert_eq!((s.passed, yes.1), (1, 1));
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), mine);
    // The filter leaves it out.
    let only = Options {
        filter: Some("nothing".into()),
        ..Default::default()
    };
    assert_eq!(run(&only, None).0, snapshot::Summary::default());
}

/// Runs a scenario that must load; its failures as `line:col: message`.
fn fails_of(text: &str) -> Vec<String> {
    let (_d, path) = scenario("s.yaml", text);
    failures(&path)
}

/// The load errors of a scenario that must not load, as `line:col: message (help)`.
fn load_errors(text: &str) -> Vec<String> {
    let (_d, path) = scenario("s.yaml", text);
    let Err(e) = run_file(&fuda::data::source::open(Some(root())), &path) else {
        panic!("the scenario loaded")
    };
    (e.errors.iter())
        .map(|r| {
            let off = r.span.expect("located").offset();
            let line = text[..off].matches('\n').count() + 1;
            let col = text[..off].rsplit('\n').next().unwrap().chars().count() + 1;
            format!("{line}:{col}: {} ({:?})", r.message, r.help)
        })
        .collect()
}

const SIX: &str = "game: shrine
zones:
  supply: {moriya: 8, koumakan: 8}
  p1:
    hand: [omiki, omiki]
phase: buy
";

#[test]
fn a_wrong_answer_fails_first_at_its_place_with_the_closest_option() {
    let f = fails_of(&format!(
        "{SIX}decisions: [play omiki, play omiki, buy morya]\nexpect: [\"coins == 9\"]\n"
    ));
    assert_eq!(f.len(), 2, "{f:?}");
    assert_eq!(
        f[0],
        "7:37: scripted answer `buy morya` matches no option of decision 3 (P1: buy); it offered: buy moriya | pass; the closest is `buy moriya`"
    );
    assert!(f[1].starts_with("8:11: expected `coins == 9`"), "{f:?}");
}

#[test]
fn options_checks_the_whole_list_and_player_whose_decision() {
    let ok = format!(
        "{SIX}decisions:\n  - play omiki\n  - play omiki\n  - answer: \"#0 buy moriya\"\n    player: 1\n    options: [pass, buy moriya]\n"
    );
    assert_eq!(fails_of(&ok), Vec::<String>::new());
    let wrong = ok
        .replace("player: 1", "player: 2")
        .replace("[pass, buy moriya]", "[pass, buy koumakan]");
    let f = fails_of(&wrong);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f[0].starts_with("11:5: expected decision 3 to be P2's; it is decision 3 (P1: buy)"),
        "{f:?}"
    );
    assert!(
        f[1].starts_with("12:5: expected decision 3 (P1: buy) to offer exactly the options listed (not offered: `buy koumakan`; offered but not listed: `buy moriya`)"),
        "{f:?}"
    );
    // `#N name`: the option at N must be that one.
    let f = fails_of(&ok.replace("#0 buy moriya", "#1 buy moriya"));
    assert!(
        f[0].contains("scripted answer `#1 buy moriya` matches no option"),
        "{f:?}"
    );
}

#[test]
fn an_option_no_decision_could_offer_is_an_error() {
    let text = format!(
        "{SIX}decisions:\n  - answer: play omiki\n    not_offered: [buy koumkan]\n  - play omiki\n  - pass\n"
    );
    let e = load_errors(&text);
    assert_eq!(
        e,
        [
            "9:19: no decision of shrine could offer `buy koumkan`: it names no card, move or option of the game (Some(\"did you mean `buy koumakan`?\"))"
        ]
    );
}

#[test]
fn leftover_dice_and_the_wrong_waiting_player_fail() {
    let text = format!("{SIX}dice: [3, 4]\ndecisions: [play omiki]\nwaiting_for: 2\n");
    let f = fails_of(&text);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f[0].starts_with("7:1: 2 die result(s) of `dice:` left over ([3, 4])"),
        "{f:?}"
    );
    assert!(
        f[1].starts_with(
            "9:1: expected the scenario to stop waiting for P2; it waits for P1: resources"
        ),
        "{f:?}"
    );
    assert_eq!(
        fails_of(&format!("{SIX}decisions: [play omiki]\nwaiting_for: 1\n")),
        Vec::<String>::new()
    );
}

#[test]
fn cards_attach_across_zones_and_conditions_read_as_another_player() {
    let text = "game: shrine
zones:
  p1:
    play: [omiki]
    discard: [hakurei^play.1]
  p2:
    hand: [hakurei^p1.play.1]
counters:
  p2: {buys: 4}
phase: cleanup
expect:
  - at: start of cleanup
    that: [\"first(discard(me)).host.id == @omiki\", \"first(hand(player(2))).host.id == @omiki\"]
  - at: start of cleanup
    as: 2
    that: \"buys == 4 and player(1).buys != 4\"
";
    assert_eq!(fails_of(text), Vec::<String>::new());
    let e = load_errors(&text.replace("^play.1", "^plya.1"));
    assert!(
        e[0].contains("no card 1 listed in `plya`") && e[0].contains("did you mean `play`?"),
        "{e:?}"
    );
}
