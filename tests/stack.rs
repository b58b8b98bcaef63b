//! The priority-pass stack, on a minimal game written here (no shipped game puts
//! effects on the stack yet): responses resolve before what they respond to,
//! and the active player acts again after each resolution.

use std::path::Path;
use std::process::Command;

const RULES: &str = r#"
name: duel
players: {min: 2, max: 2, default: 2}
counters:
  life: {start: 5}
zones:
  hand: {per: player, contents: owner}
  waiting: {per: shared, contents: public}
  discard: {per: player, contents: public}
events: [cast, put]
effects: [effect]
windows:
  main: {players: all, moves: [cast]}
moves:
  cast:
    label: cast
    pick: "hand"
    do: |
      move(it, waiting, "cast")
      stack(it, "effect")
setup: ""
turn:
  phases:
    - name: main
      do: window("main")
end:
  check: turn_end
  if: "true"
score: "me.life"
"#;

const CARDS: &str = r#"
- id: spark
  name: Spark
  effects:
    effect: |
      next_player(me).life -= 2
      move(this, discard, "put")
- id: ward
  name: Ward
  effects:
    effect: |
      me.life += 1
      move(this, discard, "put")
"#;

const SCENARIO: &str = r#"
description: P2 answers P1's Spark with Ward; later P2 casts its own Spark
game: duel
zones:
  p1: {hand: [spark]}
  p2: {hand: [ward, spark]}
decisions: [cast spark, cast ward, pass, pass, cast spark]
expect:
  - "player(2).life == 4"
  - "player(1).life == 3"
"#;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn responses_resolve_first_and_priority_returns_to_the_active_player() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "rules/duel.yaml", RULES);
    write(dir.path(), "cards/duel/cards.yaml", CARDS);
    write(dir.path(), "scenario.yaml", SCENARIO);
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["scenario", "scenario.yaml", "--data", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    let at = |l: &str| {
        lines
            .iter()
            .position(|x| *x == l)
            .unwrap_or_else(|| panic!("no line {l:?} in:\n{text}"))
    };
    // Last in, first out: Ward (the answer) resolves before Spark.
    assert!(at("P2 puts Ward on the stack") > at("P1 puts Spark on the stack"));
    assert!(at("Ward resolves from the stack") > at("P2 puts Ward on the stack"));
    assert!(at("Spark resolves from the stack") > at("Ward resolves from the stack"));
    assert!(at("P2 life +1 (= 6)") < at("P2 life -2 (= 4)"));
    // Nothing resolves until both players have passed in a row.
    let ward = at("Ward resolves from the stack");
    assert_eq!(
        &lines[ward - 2..ward],
        ["P1 passes (nothing to do)", "P2 passes"]
    );
    // After each resolution the active player (P1) has priority again.
    assert!(lines[ward + 3].starts_with("P1 passes"), "{text}");
    assert!(text.contains("P1 life -2 (= 3)"));
}
