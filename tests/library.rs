//! A large library of unused cards costs a game nothing: definitions are
//! indexed at load, so what a game looks at (the kernel's `scanned` count of
//! definitions visited by lookups, a deterministic measure, not time) and what
//! it does are the same with 10,000 extra card files as without them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use fuda::data::{Data, load};
use fuda::engine::agent;
use fuda::engine::{Game, GameConfig};

#[path = "common/copy_dir.rs"]
mod copy_dir;
use copy_dir::copy_dir;

const EXTRA: usize = 10_000;
const GAMES: u64 = 6;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped shrine data and `extra` card files no game uses: tagged like
/// kingdom cards, with effects and abilities on the events every game raises
/// (a game that looked at every definition's abilities would pay for them).
fn library(dir: &Path, extra: usize) {
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::copy(
        root().join("rules/shrine.yaml"),
        dir.join("rules/shrine.yaml"),
    )
    .unwrap();
    copy_dir(&root().join("cards/shrine"), &dir.join("cards/shrine"));
    let lib = dir.join("cards/shrine/library");
    std::fs::create_dir_all(&lib).unwrap();
    for i in 0..extra {
        let event = ["gain", "draw", "play", "buy", "discard"][i % 5];
        let card = format!(
            "id: lib_{i:05}\nname: Library card {i}\ntags: [action, character]\n\
             props: {{cost: {}, pile: 10}}\neffects:\n  play: |\n    draw(1)\n    actions += 2\n\
             abilities:\n  - on: {event}\n    zone: hand\n    do: coins += 1\n  \
             - on: {event}\n    self: true\n    do: coins += 1\n",
            i % 8
        );
        std::fs::write(lib.join(format!("c{i:05}.yaml")), card).unwrap();
    }
}

/// Per game: its result and the definitions its lookups visited.
fn games(data: Arc<Data>) -> Vec<(String, u64)> {
    (1..=GAMES)
        .map(|seed| {
            let cfg = GameConfig {
                players: 2,
                seed,
                agents: (0..2)
                    .map(|_| agent::parse("bigmoney", &data).expect("shrine's bot"))
                    .collect(),
                // The basic cards only, the 6-VP pile drawn from its tag.
                options: HashMap::from([("kingdom".to_string(), vec![])]),
                logging: false,
                tier: Some(fuda::fast::tier(&data)),
            };
            let mut g = Game::new(data.clone(), cfg);
            let o = g.play().unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
            let result = format!("{:?} {:?} {}", o.winners, o.scores, o.turns);
            (result, g.st.scanned)
        })
        .collect()
}

#[test]
fn unused_cards_cost_a_game_nothing() {
    let small = tempfile::tempdir().unwrap();
    let large = tempfile::tempdir().unwrap();
    library(small.path(), 0);
    library(large.path(), EXTRA);
    let load = |dir: &Path| Arc::new(load::load_game(dir, "shrine").expect("loads"));
    let (small, large) = (load(small.path()), load(large.path()));
    assert_eq!(large.defs.len(), small.defs.len() + EXTRA);
    let (a, b) = (games(small), games(large));
    assert!(a.iter().any(|(_, n)| *n > 0), "a lookup was counted: {a:?}");
    assert_eq!(
        a, b,
        "results and definitions visited, without and with the library"
    );
}
