//! Card lists and construction rules, on a minimal game written here: a list
//! card names the cards of a deck (`list:`), the rules' `construction:` says a
//! deck holds exactly 6 cards and at most 2 copies of one card, copies counted
//! by name and subtitle for heroes (two printings of one hero share the limit)
//! and by name for the rest. `fuda check` reports a bad list at its entry;
//! `listed(card)` builds the deck at setup.

mod common;
use common::{folder, fuda};

use std::process::Output;

const RULES: &str = r#"
name: lists
players: {min: 1, max: 1, default: 1}
tags: [hero, list]
construction:
  lists: list
  size: 6
  limits:
    - {tag: hero, by: [name, subtitle], max: 2}
    - {by: [name], max: 2}
zones:
  deck: {per: player, contents: public}
setup: |
  for c in listed(@good) { create(c, deck) }
turn:
  phases:
    - name: main
end:
  check: turn_end
  if: "true"
score: "count(deck where it is hero)"
"#;

const CARDS: &str = r#"
- {id: knight_a, name: Knight, subtitle: Dawn, tags: [hero]}
- {id: knight_b, name: Knight, subtitle: Dawn, tags: [hero]}
- {id: knight_dusk, name: Knight, subtitle: Dusk, tags: [hero]}
- {id: potion, name: Potion}
- {id: potion_foil, name: Potion}
- id: good
  name: Good
  tags: [list]
  list: {knight_a: 1, knight_b: 1, knight_dusk: 2, potion: 1, potion_foil: 1}
"#;

fn dir_with(cards: &str) -> tempfile::TempDir {
    folder(&[
        ("rules/lists.yaml", RULES),
        ("cards/lists/cards.yaml", cards),
    ])
}

fn all_text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_legal_list_checks_and_builds_the_deck() {
    let dir = dir_with(CARDS);
    let out = fuda(dir.path(), &["check", "lists"]);
    assert!(out.status.success(), "{}", all_text(&out));
    let out = fuda(dir.path(), &["run", "lists", "--json"]);
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    // Four heroes of six cards, from the list's counts.
    assert!(text.contains("\"scores\":[4]"), "{text}");
}

#[test]
fn printings_share_the_limit_by_name_and_subtitle() {
    // A third Dawn knight under another id: 3 copies of "Knight Dawn".
    let bad = CARDS.replace(
        "knight_a: 1, knight_b: 1, knight_dusk: 2",
        "knight_a: 2, knight_b: 1, knight_dusk: 1",
    );
    let out = fuda(dir_with(&bad).path(), &["check", "lists"]);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("3 copies of 『Knight Dawn』, at most 2"),
        "{text}"
    );
    // Located at the entry that goes past the limit, in the cards file.
    assert!(text.contains("cards/lists/cards.yaml:"), "{text}");
    assert!(text.contains("knight_b: 1"), "{text}");
}

#[test]
fn a_name_alone_is_the_key_of_the_other_cards() {
    let bad = CARDS
        .replace("potion: 1, potion_foil: 1", "potion: 2, potion_foil: 1")
        .replace("knight_dusk: 2", "knight_dusk: 1");
    let text = all_text(&fuda(dir_with(&bad).path(), &["check", "lists"]));
    assert!(text.contains("3 copies of 『Potion』, at most 2"), "{text}");
}

#[test]
fn the_size_is_checked_and_an_unknown_card_is_named() {
    let bad = CARDS.replace("knight_dusk: 2", "knight_dusk: 1");
    let text = all_text(&fuda(dir_with(&bad).path(), &["check", "lists"]));
    assert!(text.contains("`good` lists 5 cards, exactly 6"), "{text}");
    let bad = CARDS.replace("knight_dusk: 2", "knight_dsk: 2");
    let text = all_text(&fuda(dir_with(&bad).path(), &["check", "lists"]));
    assert!(text.contains("unknown card \"knight_dsk\""), "{text}");
    assert!(text.contains("did you mean `knight_dusk`?"), "{text}");
}
