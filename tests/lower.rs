//! Rhai snippets lowered to card text (`src/data/lower.rs`): a snippet is
//! lowered only where card text means the same, and then plays exactly as
//! Rhai plays it. Each set of probe cards is a mod of shrine whose bot buys
//! and plays them; its games are played with lowering (the default) and with
//! `FUDA_LOWER_RHAI=0`, and their transcripts must be byte-identical.

use std::path::Path;
use std::process::{Command, Output};

fn fuda(dir: &Path, args: &[&str], lower: bool) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fuda"));
    c.args(args).current_dir(dir).env("NO_COLOR", "1");
    if !lower {
        c.env("FUDA_LOWER_RHAI", "0");
    }
    c.output().expect("run fuda")
}

/// A mod of shrine with one card `probe_<i>` (cost 2, an action) per snippet,
/// and a bot `tester` that buys them and plays every action it holds.
fn probes(dir: &Path, snippets: &[&str]) {
    probes_with(dir, snippets, "");
}

/// [`probes`], with `rules` added to the mod's rules file.
fn probes_with(dir: &Path, snippets: &[&str], rules: &str) {
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    std::fs::write(dir.join("mod.yaml"), "extends: shrine\nname: probes\n").unwrap();
    let bot = rules.to_string()
        + r#"add:
  bots:
    tester:
      - {when: action, choose: "it is action"}
      - {when: action, choose: "\"pass\""}
      - {when: resources, choose: "it is resource"}
      - {when: buy, choose: "it is character", if: "coins >= 2"}
      - {when: buy, choose: "\"pass\""}
"#;
    std::fs::write(dir.join("rules.yaml"), bot).unwrap();
    for (i, s) in snippets.iter().enumerate() {
        let body: String = s.lines().map(|l| format!("    {l}\n")).collect();
        let card = format!(
            "id: probe_{i}\nname: Probe {i}\ntext: a probe\ntags: [action, character]\nprops: {{cost: 2}}\nrhai:\n  play: |\n{body}"
        );
        std::fs::write(dir.join(format!("cards/probe_{i}.yaml")), card).unwrap();
    }
}

/// How many of the mod's own snippets are lowered (`fuda check`'s count,
/// less shrine's).
fn lowered(dir: &Path) -> usize {
    count(dir, &["check", "--data", "."]) - count(dir, &["check", "shrine"])
}

/// `fuda check`'s count of snippets lowered.
fn count(dir: &Path, args: &[&str]) -> usize {
    let o = fuda(dir, args, true);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let line = text.lines().find(|l| l.contains("Rhai:")).expect(&text);
    let n = line.split(", ").nth(1).and_then(|w| w.split(' ').next());
    n.and_then(|n| n.parse().ok()).expect(line)
}

/// `fuda run` of shrine on the mod in the current folder, its bot at every
/// seat, with the kingdom `kingdom` (`kingdom=…`) and `more`.
fn run<'a>(kingdom: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "run", "shrine", "--data", ".", "--agents", "tester", "--set", kingdom,
    ];
    args.extend_from_slice(more);
    args
}

/// Games of the mod in `dir` (the probes as its kingdom) played both ways.
fn same_games(dir: &Path, n: usize) {
    let kingdom = format!(
        "kingdom={}",
        (0..n)
            .map(|i| format!("probe_{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut played = 0;
    for seed in 1..=4 {
        for players in ["2", "3"] {
            let seed = seed.to_string();
            let args = run(&kingdom, &["--seed", &seed, "--players", players, "--json"]);
            let a = fuda(dir, &args, true);
            let b = fuda(dir, &args, false);
            let (ta, tb) = (
                String::from_utf8_lossy(&a.stdout),
                String::from_utf8_lossy(&b.stdout),
            );
            assert_eq!(
                ta, tb,
                "seed {seed}, {players} players: lowered and Rhai differ"
            );
            assert_eq!(
                String::from_utf8_lossy(&a.stderr),
                String::from_utf8_lossy(&b.stderr)
            );
            played += (ta.lines())
                .filter(|l| l.contains("\"cause\":\"play\"") && l.contains("probe_"))
                .count();
        }
    }
    assert!(played > 0, "no card was played");
}

/// Every construct the lowering takes, each card played by the bot.
const LOWERED: &[&str] = &[
    // Calls, a local, a counter raised, a test of nothing, `else`.
    "draw(1);\nlet p = me;\np.actions += 2;\nreveal_top(1);\nlet c = top(zone(\"revealed\"));\nif type_of(c) != \"()\" {\n  if contains(defs(\"resource\"), c) {\n    move(c, zone(\"hand\"));\n  } else {\n    put_back(c);\n  }\n}",
    // `while` on numbers, `&&`, `||`, `!`.
    "while count(zone(\"hand\")) < 7 && !empty(zone(\"deck\")) || count(zone(\"hand\")) < 2 && count(zone(\"discard\")) > 0 {\n  draw(1);\n}",
    // An early `return`, `== ()`, a local assigned again.
    "let c = top(zone(\"hand\"));\nif c == () { return; }\nc = top(zone(\"deck\"));\nif c != () { set_aside(c); }\ndraw(1);",
    // `for` over a kernel list, a card's field, `card`.
    "for p in players() {\n  if p == me { me.coins += count(zone(\"hand\")); }\n}\nif card.name != \"Probe 3\" { draw(1); }",
    // A list written out, a value returned.
    "let top2 = top(zone(\"deck\"), 2);\nif !empty(zone(\"hand\")) { discard_cards([top(zone(\"hand\"))]); }\ntop2",
    // A question in a condition.
    "if may(\"draw two?\") { draw(2); } else { me.buys += 1; }",
];

/// Snippets card text would read otherwise: each must stay in Rhai.
const REFUSED: &[&str] = &[
    "let s = \"a\";\ns += \"b\";\nlog(s);",
    "if contains(\"abc\", \"b\") { draw(1); }",
    "for i in 0..2 { draw(1); }",
    "let c = top(zone(\"hand\"));\nif c != () && c.cost <= 4 { draw(1); }",
    "let x = [];\nx.push(1);\ndraw(1);",
    "let h = top(zone(\"hand\"), 2);\nif h.len > 0 { draw(1); }",
    "let a = 1;\nif count(zone(\"hand\")) > 0 { let a = 2; draw(a); }\ndraw(a);",
    "if count(zone(\"hand\")) { draw(1); }",
    "fn two() { 2 }\ndraw(two());",
    "loop { draw(1); break; }",
    "if target == () { draw(1); }",
    "let hand = 1;\ndraw(hand);",
    "draw(min(1, 2));",
    "if count(zone(\"hand\")) > 0 { let n = 1; draw(n); }\nlet n = 2;\ndraw(n);",
    "log(\"probe\");",
    "log(\"drew \" + count(zone(\"hand\")));",
];

#[test]
fn lowered_snippets_play_as_rhai_plays_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("lowered");
    probes(&dir, LOWERED);
    assert_eq!(lowered(&dir), LOWERED.len());
    same_games(&dir, LOWERED.len());
}

#[test]
fn snippets_card_text_would_read_otherwise_stay_in_rhai() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, s) in REFUSED.iter().enumerate() {
        let dir = tmp.path().join(format!("refused_{i}"));
        probes(&dir, &[s]);
        assert_eq!(
            lowered(&dir),
            0,
            "lowered, but card text may read it otherwise:\n{s}"
        );
    }
}

/// The rules' script functions do not keep a snippet from being lowered; a
/// call of one, or a function of the snippet's own, does.
#[test]
fn rules_scripts_functions_stay_in_rhai() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scripts");
    let snippets = ["draw(helper(1));", "fn two() { 2 }\ndraw(1);", "draw(1);"];
    probes_with(&dir, &snippets, "scripts: [helper.rhai]\n");
    std::fs::write(dir.join("helper.rhai"), "fn helper(n) { n + 1 }\n").unwrap();
    assert_eq!(lowered(&dir), 1);
    same_games(&dir, snippets.len());
}

/// A run-time error of a lowered snippet says what Rhai says, at the call
/// that failed (Rhai shows the snippet's start), its column counted in
/// characters.
#[test]
fn a_lowered_snippets_error_points_at_its_call() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("error");
    probes(&dir, &["draw(1);\nlet s = \"札札\"; let p = player(9);"]);
    assert_eq!(lowered(&dir), 1);
    let args = run("kingdom=probe_0", &[]);
    let (a, b) = (fuda(&dir, &args, true), fuda(&dir, &args, false));
    let (ea, eb) = (
        String::from_utf8_lossy(&a.stderr),
        String::from_utf8_lossy(&b.stderr),
    );
    let msg = "while running card `probe_0`: there is no player 9 in a 2-player game";
    assert!(ea.contains(msg) && eb.contains(msg), "{ea}\n{eb}");
    assert!(ea.contains("probe_0.yaml:9:27"), "{ea}");
    assert!(eb.contains("probe_0.yaml:8:5"), "{eb}");
    assert_eq!(a.stdout, b.stdout);
}
