//! Choosing among cards the chooser may not see, on a minimal game written here:
//! a zone whose contents are hidden from everyone, its owner included (face-down
//! cards that pay costs), and a choice of which of them to move. The chooser's
//! view of the transcript, and its options, read "a face-down card"; the
//! omniscient transcript names the card moved, and a card the chooser may see
//! (its hand) is still named. A card the chooser was shown where it lies
//! (`look`) is named to it until it moves.

use std::process::{Command, Output};

const RULES: &str = r#"
name: veiled
players: {min: 1, max: 1, default: 1}
zones:
  pool: {per: player, contents: hidden, size: public}
  hand: {per: player, contents: owner}
  out: {per: player, contents: public}
setup: |
  create(@secret, pool)
  create(@other, pool)
  create(@known, hand)
turn:
  phases:
    - name: main
      do: |
        move(choose(pool, 1, 1, "pay one"), out)
        choose(hand, 1, 1, "name one")
        create(@other, pool)
        look(top(pool))
        move(choose(pool, 1, 1, "pay another"), out)
end:
  check: turn_end
  if: "true"
score: "count(out)"
"#;

const CARDS: &str = r#"
- {id: secret, name: Secret}
- {id: other, name: Other}
- {id: known, name: Known}
"#;

fn run(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in [
        ("rules/veiled.yaml", RULES),
        ("cards/veiled/cards.yaml", CARDS),
    ] {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out: Output = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .args(["--data", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn a_choice_among_hidden_cards_does_not_name_them_to_the_chooser() {
    for seed in ["1", "2", "3"] {
        let view = run(&[
            "run", "veiled", "--seed", seed, "--agents", "random", "--view", "1",
        ]);
        let line = view
            .lines()
            .find(|l| l.contains("(pay one)"))
            .unwrap_or_else(|| panic!("{view}"));
        assert_eq!(line, "P1 chooses a face-down card (pay one)", "{view}");
        // The hand is the chooser's own to see: its card is named.
        assert!(view.contains("P1 chooses Known (name one)"), "{view}");
    }
}

#[test]
fn a_card_looked_at_is_named_to_the_chooser_the_others_are_not() {
    let mut named = 0;
    for seed in 1..=8 {
        let seed = seed.to_string();
        let view = run(&[
            "run", "veiled", "--seed", &seed, "--agents", "random", "--view", "1",
        ]);
        let line = view
            .lines()
            .find(|l| l.contains("(pay another)"))
            .unwrap_or_else(|| panic!("{view}"));
        // Two face-down cards: the one looked at (Other) and an unknown one.
        match line {
            "P1 chooses Other (pay another)" => named += 1,
            "P1 chooses a face-down card (pay another)" => {}
            _ => panic!("{line}"),
        }
    }
    // The random picks took the known card in some seeds and not in others.
    assert!(named > 0 && named < 8, "{named}");
}

#[test]
fn the_card_moved_is_named_once_it_is_public() {
    let all = run(&["run", "veiled", "--seed", "1", "--agents", "random"]);
    // The move to the public zone names it, whichever it was.
    assert!(all.contains("Secret") || all.contains("Other"), "{all}");
}
