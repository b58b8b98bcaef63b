//! `attached(card)`: the cards attached to a host, in the order they were
//! made, without those that left (entering a zone ends an attachment) or
//! went to another host. The kernel keeps an index of the cards ever given
//! a host (`State::hosted`); attachments made out of id order, a detached
//! card and a moved one check that the index answers as a scan of every
//! card would. A minimal game written here, run on both tiers.

use std::process::Command;

const RULES: &str = r#"
name: pins
players: {min: 2, max: 2, default: 2}
globals:
  order: 0
  after_move: 0
  other: 0
zones:
  board: {per: shared, contents: public}
  bin: {per: shared, contents: public}
setup: |
  let h = first(create(@host, board))
  let g = first(create(@host, board))
  let pins = create(@pin, board, 4)
  attach(at(pins, 3), h)
  attach(at(pins, 0), h)
  attach(at(pins, 2), h)
  attach(at(pins, 1), g)
  if attached(h) == [at(pins, 0), at(pins, 2), at(pins, 3)] { order = 1 }
  move(at(pins, 2), bin)
  attach(at(pins, 1), h)
  if attached(h) == [at(pins, 0), at(pins, 1), at(pins, 3)] { after_move = 1 }
  if count(attached(g)) == 0 { other = 1 }
turn:
  phases:
    - name: main
end:
  check: turn_end
  if: "true"
score: "order"
"#;

const CARDS: &str = r#"
- {id: host, name: Host}
- {id: pin, name: Pin}
"#;

const SCENARIO: &str = r#"
description: attached(card) lists a host's cards in the order they were made, and not those that left
game: pins
setup: true
phase: main
decisions: []
expect:
  - "order == 1"
  - "after_move == 1"
  - "other == 1"
"#;

#[test]
fn attached_lists_a_hosts_cards_in_order_and_not_those_that_left() {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in [
        ("rules/pins.yaml", RULES),
        ("cards/pins/cards.yaml", CARDS),
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
