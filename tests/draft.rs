//! Simultaneous requests, on a minimal draft written here: three players each
//! keep one card of their pack, all at once (`choose_each`), then pass the
//! rest to the next player, until nothing is passed. Played by scripted,
//! random and replay agents, and watched by an agent that looks at its view.

mod common;
use common::{folder, fuda};

use std::collections::HashMap;
use std::process::Output;
use std::sync::{Arc, Mutex};

use fuda::data::load;
use fuda::engine::{Agent, Game, GameConfig, Picks, Request, Res, agent};

const RULES: &str = r#"
name: draft
players: {min: 3, max: 3, default: 3}
zones:
  pack: {per: player, contents: owner}
  passing: {per: player, contents: owner}
  kept: {per: player, contents: public}
setup: |
  create(@a1, pack(player(1)))
  create(@a2, pack(player(1)))
  create(@a3, pack(player(1)))
  create(@b1, pack(player(2)))
  create(@b2, pack(player(2)))
  create(@b3, pack(player(2)))
  create(@c1, pack(player(3)))
  create(@c2, pack(player(3)))
  create(@c3, pack(player(3)))
turn:
  phases:
    - name: draft
      do: |
        while count(pack) > 0 {
          choose_each(pack, 1, 1, kept, "keep a card")
          for p in players() { move_together(pack(p), passing(next_player(p))) }
          for p in players() { move_together(passing(p), pack(p)) }
        }
end:
  check: turn_end
  if: "true"
score: "count(kept)"
"#;

const CARDS: &str = r#"
- {id: a1, name: A1}
- {id: a2, name: A2}
- {id: a3, name: A3}
- {id: b1, name: B1}
- {id: b2, name: B2}
- {id: b3, name: B3}
- {id: c1, name: C1}
- {id: c2, name: C2}
- {id: c3, name: C3}
"#;

/// Answers in the order asked: P1, P2, P3 in each round. P1 passes to P2,
/// so in round 2 P1 holds what P3 left (c1, c2), P2 what P1 left, and so on.
const SCENARIO: &str = r#"
description: three players keep one card each and pass the rest left until none is passed
game: draft
players: 3
setup: true
phase: draft
decisions: [a2, b1, c3, c1, a3, b2, b3, c2, a1]
expect:
  - "count(kept(player(1)) where it == @a2 or it == @c1 or it == @b3) == 3"
  - "count(kept(player(2)) where it == @b1 or it == @a3 or it == @c2) == 3"
  - "count(kept(player(3)) where it == @c3 or it == @b2 or it == @a1) == 3"
  - "count(pack) + count(pack(player(2))) + count(pack(player(3))) == 0"
"#;

fn data_dir() -> tempfile::TempDir {
    data_with(RULES, CARDS)
}

fn data_with(rules: &str, cards: &str) -> tempfile::TempDir {
    folder(&[
        ("rules/draft.yaml", rules),
        ("cards/draft/cards.yaml", cards),
        ("scenario.yaml", SCENARIO),
    ])
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn scripted_players_keep_one_card_each_and_pass_the_rest() {
    let dir = data_dir();
    let out = fuda(dir.path(), &["scenario", "scenario.yaml"]);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "  P1's kept: b3, c1, a2",
        "  P2's kept: c2, a3, b1",
        "  P3's kept: a1, b2, c3",
    ] {
        assert!(text.lines().any(|l| l == line), "no {line:?} in:\n{text}");
    }
    // Each round's three answers come before any of its cards move.
    let lines: Vec<&str> = text.lines().collect();
    let at = |l: &str| lines.iter().position(|x| *x == l).unwrap();
    assert!(at("P3 chooses C3 (keep a card)") < at("P1 move A2 (P1's pack → P1's kept)"));
}

/// The draft with a shared `table` zone holding a `host` card whose Rhai
/// effect `keep` is `keep` (the picks), run by the phase in their place.
fn with_host(keep: &str) -> (String, String) {
    let rules = RULES
        .replace(
            "  kept: {per: player, contents: public}\n",
            "  kept: {per: player, contents: public}\n  table: {per: shared, contents: public}\neffects: [keep]\n",
        )
        .replace(
            "  create(@c3, pack(player(3)))\n",
            "  create(@c3, pack(player(3)))\n  create(@host, table)\n",
        )
        .replace(
            "choose_each(pack, 1, 1, kept, \"keep a card\")",
            "run(top(table), \"keep\")",
        );
    let cards = format!("{CARDS}- id: host\n  name: Host\n  rhai:\n    keep: '{keep}'\n");
    (rules, cards)
}

#[test]
fn rhai_asks_every_player_at_once_too() {
    let (rules, cards) =
        with_host(r#"choose_each(zone("pack"), 1, 1, zone("kept"), "keep a card");"#);
    let dir = data_with(&rules, &cards);
    let out = fuda(dir.path(), &["scenario", "scenario.yaml"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\n  P1's kept: b3, c1, a2\n"), "{text}");
}

#[test]
fn a_shared_zone_is_refused_as_each_players_zone() {
    let (rules, cards) =
        with_host(r#"choose_each(zone("table"), 1, 1, zone("kept"), "keep a card");"#);
    let dir = data_with(&rules, &cards);
    let out = fuda(dir.path(), &["scenario", "scenario.yaml"]);
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("both must be zones every player has"),
        "{text}"
    );
}

/// Answers option 7 of anything.
#[derive(Clone)]
struct Wrong;

impl Agent for Wrong {
    fn answer(&mut self, _: &mut Game, _: &Request) -> Res<Picks> {
        Ok(Picks::from_slice(&[7]))
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

#[test]
fn an_answer_that_fits_no_option_is_an_error() {
    let dir = data_dir();
    let data = Arc::new(load::load_game(dir.path(), "draft").unwrap());
    let cfg = GameConfig {
        players: 3,
        seed: 1,
        agents: vec![Box::new(Wrong) as Box<dyn Agent>; 3],
        options: HashMap::new(),
        logging: false,
        tier: Some(fuda::fast::tier(&data)),
    };
    let err = format!("{:?}", Game::new(data, cfg).play().unwrap_err());
    assert!(
        err.contains("the agent of P1 answered [7] to \\\"keep a card\\\""),
        "{err}"
    );
}

#[test]
fn a_random_draft_saves_each_answer_with_its_player_and_replays_the_same() {
    let dir = data_dir();
    let run = fuda(
        dir.path(),
        &[
            "run", "draft", "--agents", "random", "--seed", "4", "--save", "s.json",
        ],
    );
    let played = stdout(&run);
    assert!(run.status.success(), "{played}");
    assert!(
        played.ends_with("scores: P1 3, P2 3, P3 3; turns: 1; ended by the end rule `true`\n"),
        "{played}"
    );
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    let players: Vec<u64> = (save["answers"].as_array().unwrap().iter())
        .map(|a| a["player"].as_u64().unwrap())
        .collect();
    assert_eq!(players, [1, 2, 3, 1, 2, 3, 1, 2, 3]);

    let replayed = fuda(dir.path(), &["replay", "s.json"]);
    assert!(replayed.status.success());
    assert_eq!(run.stdout, replayed.stdout, "the replay differs");

    // Undo: four answers replayed, the fifth (P2's, in round 2) is missing.
    let undone = stdout(&fuda(dir.path(), &["replay", "s.json", "--upto", "4"]));
    assert_eq!(undone.matches(" chooses ").count(), 4, "{undone}");
    assert!(undone.ends_with("-- replay stopped after the requested decisions\n"));
}

#[test]
fn a_save_without_players_is_refused_with_a_reason() {
    let dir = data_dir();
    let old = r#"{"game":"draft","players":3,"seed":4,"options":{},"data_hash":"0","decisions":[1,0,1,0]}"#;
    std::fs::write(dir.path().join("old.json"), old).unwrap();
    let out = fuda(dir.path(), &["replay", "old.json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("format 1"), "{err}");
}

/// Answers as `inner` does, noting for each request who asked, how many
/// players were asked at once and how many kept cards its view shows.
#[derive(Clone)]
struct Watcher {
    inner: Box<dyn Agent>,
    seen: Arc<Mutex<Vec<(u8, usize, usize)>>>,
}

impl Agent for Watcher {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let view = req.view(g);
        let kept = (view.zones.iter())
            .filter(|z| z.zone.ends_with("kept"))
            .map(|z| z.size.unwrap_or(0))
            .sum();
        (self.seen.lock().unwrap()).push((req.player, req.together.len(), kept));
        self.inner.answer(g, req)
    }

    fn seat(&mut self, seed: u64, seat: usize) {
        self.inner.seat(seed, seat);
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

#[test]
fn no_player_sees_another_pick_while_picking() {
    let dir = data_dir();
    let data = Arc::new(load::load_game(dir.path(), "draft").unwrap());
    for seed in 1..=5 {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let random = agent::parse("random", &data).unwrap();
        let watcher = Watcher {
            inner: random,
            seen: seen.clone(),
        };
        let cfg = GameConfig {
            players: 3,
            seed,
            agents: vec![Box::new(watcher) as Box<dyn Agent>; 3],
            options: HashMap::new(),
            logging: false,
            tier: Some(fuda::fast::tier(&data)),
        };
        let mut g = Game::new(data.clone(), cfg);
        let outcome = g.play().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(outcome.scores, [3, 3, 3]);
        // Every kept card was in some pack: each card is kept once.
        let dump = g.dump(None);
        let mut kept: Vec<&str> = (dump.lines())
            .filter_map(|l| l.split_once("'s kept: "))
            .flat_map(|(_, cards)| cards.split(", "))
            .collect();
        kept.sort_unstable();
        assert_eq!(kept, ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]);
        // In each round the three are asked together, and every view shows
        // the kept cards of the rounds before, none of this round's.
        let seen = seen.lock().unwrap().clone();
        let expected: Vec<(u8, usize, usize)> = (0..3)
            .flat_map(|round| (0..3).map(move |p| (p, 3, 3 * round)))
            .collect();
        assert_eq!(seen, expected, "seed {seed}");
    }
}
