//! Whole games on the shipped data: they finish, with scores that match the
//! cards players own, for every player count and many seeds.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use fuda::data::load;
use fuda::engine::{Game, GameConfig, agent};
use fuda::value::ZoneRef;

fn data(game: &str) -> Arc<fuda::data::Data> {
    Arc::new(
        load::load_game(Path::new(env!("CARGO_MANIFEST_DIR")), game).expect("shipped data loads"),
    )
}

fn game(d: &Arc<fuda::data::Data>, players: u8, seed: u64, agent: &str) -> Game {
    let agents = agent
        .split(',')
        .map(|a| agent::parse(a, d).expect("agent exists"))
        .cycle()
        .take(players as usize)
        .collect();
    Game::new(
        d.clone(),
        GameConfig {
            players,
            seed,
            agents,
            options: HashMap::new(),
            logging: false,
            tier: Some(fuda::fast::tier(d)),
        },
    )
}

#[test]
fn shrine_games_end_with_correct_scores() {
    let d = data("shrine");
    let zone = |n: &str| fuda::lang::names::find(&d.names.zones, n).unwrap();
    let vp = fuda::lang::names::find(&d.names.props, "vp").unwrap();
    for players in 2..=4u8 {
        for seed in 0..12 {
            for agent in ["random", "bigmoney"] {
                let mut g = game(&d, players, seed, agent);
                let o = g
                    .play()
                    .unwrap_or_else(|e| panic!("{players}p seed {seed} {agent}: {e:?}"));
                assert!(
                    !o.limit,
                    "{players}p seed {seed} {agent}: hit the turn limit"
                );
                // Recount every player's victory points from the cards themselves.
                for p in 0..players {
                    let mut total = 0;
                    for z in ["deck", "hand", "discard"] {
                        for c in g.st.cards(ZoneRef {
                            zone: zone(z),
                            owner: p,
                        }) {
                            total += g.st.prop(&d, c, vp);
                        }
                    }
                    assert_eq!(
                        o.scores[p as usize],
                        total,
                        "{players}p seed {seed} {agent} P{}",
                        p + 1
                    );
                }
                let best = *o.scores.iter().max().unwrap();
                for w in &o.winners {
                    assert_eq!(o.scores[*w as usize], best);
                }
                // The game ended by the rules: a 6-VP pile or three piles empty.
                let supply = ZoneRef {
                    zone: zone("supply"),
                    owner: 0,
                };
                let zi = &g.st.zones[g.st.inst(supply)];
                let empty = zi.piles.iter().filter(|(_, p)| p.is_empty()).count();
                let big_empty = zi
                    .piles
                    .iter()
                    .any(|(def, p)| p.is_empty() && d.defs[*def as usize].props[vp as usize] >= 6);
                assert!(
                    empty >= 3 || big_empty,
                    "{players}p seed {seed} {agent}: ended early"
                );
            }
        }
    }
}

#[test]
fn utage_games_end_with_a_leader_down_or_a_deck_out() {
    let d = data("utage");
    let hp = fuda::lang::names::find(&d.names.counters, "hp").unwrap();
    let deck = fuda::lang::names::find(&d.names.zones, "deck").unwrap();
    for seed in 0..40 {
        for agents in ["random", "utage", "utage,random", "random,utage"] {
            let mut g = game(&d, 2, seed, agents);
            let o = g
                .play()
                .unwrap_or_else(|e| panic!("seed {seed} {agents}: {e:?}"));
            assert!(!o.limit, "seed {seed} {agents}: hit the turn limit");
            // A player is down when its leader is at 0 or its deck is empty.
            let down: Vec<bool> = (0..2u8)
                .map(|p| {
                    g.st.counter(p, hp) <= 0
                        || g.st.size(ZoneRef {
                            zone: deck,
                            owner: p,
                        }) == 0
                })
                .collect();
            assert!(
                down.iter().any(|x| *x),
                "seed {seed} {agents}: ended with both players up"
            );
            for w in &o.winners {
                assert!(
                    !down[*w as usize] || down.iter().all(|x| *x),
                    "seed {seed} {agents}: P{} won while down",
                    w + 1
                );
            }
        }
    }
}

#[test]
fn views_never_hold_hidden_cards() {
    let d = data("shrine");
    let mut g = game(&d, 3, 11, "random");
    g.play().unwrap();
    for p in 0..3u8 {
        let v = g.view(p);
        for z in &v.zones {
            let mine = z.zone.starts_with(&format!("P{}'s", p + 1));
            if z.zone.ends_with("'s deck") || z.zone.ends_with("'s discard") {
                assert!(
                    z.cards.is_none(),
                    "P{} sees the contents of {}",
                    p + 1,
                    z.zone
                );
            }
            if z.zone.ends_with("'s hand") {
                assert_eq!(z.cards.is_some(), mine, "P{} and {}", p + 1, z.zone);
                assert!(z.size.is_some(), "hand sizes are public");
            }
            if z.zone.ends_with("'s deck") {
                assert_eq!(
                    z.size.is_some(),
                    mine,
                    "deck size is the owner's alone: P{} and {}",
                    p + 1,
                    z.zone
                );
            }
            if z.zone.ends_with("'s discard") {
                assert!(z.size.is_none(), "discard sizes are hidden");
            }
        }
    }
}
