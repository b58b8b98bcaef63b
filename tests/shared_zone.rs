//! Abilities of cards in a shared zone, in a game where a player is out: the
//! first player leaving must not silence the cards everyone shares. A minimal
//! three-player game written here: setup puts P1 out, then raises an event that
//! a card on the shared table answers.

use std::process::Command;

const RULES: &str = r#"
name: table
players: {min: 3, max: 3, default: 3}
globals:
  rings: 0
zones:
  table: {per: shared, contents: public}
  hand: {per: player, contents: owner}
events: [knock]
setup: |
  create(@bell, table)
  create(@pebble, hand(player(2)))
  lose(player(1))
  set_active(player(2))
  emit("knock")
turn:
  phases:
    - name: main
end:
  check: turn_end
  if: "true"
score: "rings"
"#;

const CARDS: &str = r#"
- id: bell
  name: Bell
  abilities:
    - on: knock
      zone: table
      do: "rings += 1"
- {id: pebble, name: Pebble}
"#;

const SCENARIO: &str = r#"
description: P1 is out; the bell on the shared table still answers the knock
game: table
players: 3
setup: true
phase: main
decisions: []
expect:
  - "rings == 1"
"#;

#[test]
fn a_shared_zone_keeps_its_abilities_after_the_first_player_is_out() {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in [
        ("rules/table.yaml", RULES),
        ("cards/table/cards.yaml", CARDS),
        ("scenario.yaml", SCENARIO),
    ] {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    for tier in [&[][..], &["--reference"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
            .args(["scenario", "scenario.yaml", "--data", "."])
            .args(tier)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{tier:?}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
