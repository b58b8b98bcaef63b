//! One event heard by the rules and by cards at once: the rules' ability
//! and every card's (in a zone, or about itself) all trigger. The kernel
//! takes a path of its own for an event only the rules hear; a slot that
//! also holds cards' abilities must not take it.

mod common;

use common::{folder, fuda};

const RULES: &str = r#"
name: heard
players: {min: 2, max: 2, default: 2}
counters:
  life: {start: 5}
zones:
  hand: {per: player, contents: owner}
  table: {per: player, contents: public}
  discard: {per: player, contents: public}
events: [put]
windows:
  main: {players: all, moves: [cast]}
moves:
  cast:
    label: cast
    pick: "hand"
    do: move(it, discard, "put")
triggers:
  - on: put
    prompt: the rules hear
    do: me.life += 1
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

const SPARK: &str = "- id: spark\n  name: Spark\n";

/// Heard in a zone: the slot holds a zone's abilities and none about itself.
const WATCHER: &str = r#"
- id: watcher
  name: Watcher
  abilities:
    - on: put
      zone: table
      prompt: watcher hears
      do: me.life += 10
"#;

/// Heard about itself: the slot holds such an ability and no zone's.
const ECHO: &str = r#"
- id: echo
  name: Echo
  abilities:
    - on: put
      self: true
      prompt: echo hears
      do: me.life += 100
"#;

/// With the cards Spark and `card`, plays `decisions` (P1 picks which of
/// its abilities resolves first) from the zones given and checks `expect`
/// (the scenario runner fails on an expectation that does not hold, or on
/// a question left unanswered).
fn scenario(card: &str, zones: &str, decisions: &str, expect: &str) {
    let text = format!(
        "description: one event, heard by the rules and by cards\ngame: heard\n\
         zones:\n  p1: {zones}\ndecisions: {decisions}\nexpect:\n  - \"{expect}\"\n"
    );
    let dir = folder(&[
        ("rules/heard.yaml", RULES),
        ("cards/heard/cards.yaml", &format!("{SPARK}{card}")),
        ("scenario.yaml", &text),
    ]);
    let out = fuda(dir.path(), &["scenario", "scenario.yaml"]);
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_rules_alone_hear_an_event() {
    scenario("", "{hand: [spark]}", "[cast spark]", "player(1).life == 6");
}

#[test]
fn the_rules_and_a_card_in_a_zone_hear_one_event() {
    scenario(
        WATCHER,
        "{hand: [spark], table: [watcher]}",
        "[cast spark, watcher hears]",
        "player(1).life == 16",
    );
}

#[test]
fn the_rules_and_the_card_the_event_is_about_hear_it() {
    scenario(
        ECHO,
        "{hand: [echo]}",
        "[cast echo, echo hears]",
        "player(1).life == 106",
    );
}
