//! Every move line names the right player. Over seeds of every shipped game
//! with random agents, each move's actor must be the owner of the player zone
//! the cards enter, else of the one they leave; between shared zones (a
//! battle zone, a grave), the player whose cards they are. The owners of cards
//! in shared zones are worked out from the transcript alone (which player's
//! zone each card last left), not from the engine's own bookkeeping.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

mod logged;
use logged::play;

use fuda::data::{Data, load};
use fuda::engine::log::{Entry, pname};
use fuda::value::{DefId, PlayerId, ZoneRef};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn games() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("rules"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "yaml").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    out.sort();
    out
}

/// Who owns the cards in each shared zone, as far as the transcript tells
/// (`None`: made there by the rules, owner not stated).
type Owners = HashMap<ZoneRef, Vec<(DefId, Option<PlayerId>)>>;

/// The first move line crediting the wrong player, if any.
fn wrong_actor(data: &Data, log: &[Entry]) -> Option<String> {
    let shared = |z: ZoneRef| data.zones[z.zone as usize].shared;
    let mut owners: Owners = HashMap::new();
    for (i, e) in log.iter().enumerate() {
        match e {
            Entry::Created { def, n, to, .. } if shared(*to) => {
                let z = owners.entry(*to).or_default();
                z.extend(std::iter::repeat_n((*def, None), *n));
            }
            Entry::Move {
                player,
                cards,
                from,
                to,
                ..
            } => {
                // Whose cards these are: the player zone's owner, else one of
                // the owners the shared zone they leave holds that card for
                // (copies of one card may be two players').
                let mut theirs: Vec<Option<PlayerId>> = Vec::new();
                let mut ok = true;
                for (k, d) in cards.iter().enumerate() {
                    if !shared(*from) {
                        theirs.push(Some(from.owner));
                        continue;
                    }
                    let z = owners.entry(*from).or_default();
                    let copies: Vec<usize> = (0..z.len()).filter(|&j| z[j].0 == *d).collect();
                    // The first card decides the line's player.
                    let credited = copies
                        .iter()
                        .copied()
                        .find(|&j| k > 0 || z[j].1.is_none_or(|o| Some(o) == *player));
                    if k == 0 && !shared(*to) {
                        // A player zone's owner is credited whoever had it.
                    } else if k == 0 && credited.is_none() && !copies.is_empty() {
                        ok = false;
                    }
                    let at = credited.or(copies.first().copied());
                    theirs.push(at.and_then(|j| z.remove(j).1));
                }
                let expected = if !shared(*to) {
                    Some(to.owner)
                } else if !shared(*from) {
                    Some(from.owner)
                } else {
                    theirs[0]
                };
                if !ok || expected.is_some_and(|want| *player != Some(want)) {
                    return Some(format!(
                        "entry {i}: {:?} credits {}, the cards are {}",
                        e.render(data, None),
                        player.map_or("the game".into(), pname),
                        expected.map_or("another player's".into(), |w| pname(w) + "'s")
                    ));
                }
                if shared(*to) {
                    let z = owners.entry(*to).or_default();
                    for (d, o) in cards.iter().zip(theirs) {
                        let o = if shared(*from) { o } else { Some(from.owner) };
                        z.push((*d, o));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn every_move_credits_the_owner_of_its_cards() {
    let mut wrong = Vec::new();
    let mut moves = 0;
    for game in games() {
        let data = Arc::new(load::load_game(root(), &game).expect("shipped data loads"));
        let (min, max, _) = data.players;
        for players in min..=max {
            for seed in 0..3 {
                let log = play(&data, players, seed, "random");
                moves += log
                    .iter()
                    .filter(|e| matches!(e, Entry::Move { .. }))
                    .count();
                if let Some(w) = wrong_actor(&data, &log) {
                    wrong.push(format!("{game} {players}p seed {seed}: {w}"));
                }
            }
        }
    }
    assert!(moves > 1000, "too few moves to judge ({moves})");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The checker itself finds a wrong actor: a log whose move lines all credit
/// P1 is caught in a two-player game.
#[test]
fn the_checker_catches_a_wrong_actor() {
    let data = Arc::new(load::load_game(root(), "landgrab").expect("shipped data loads"));
    let mut log = play(&data, 2, 1, "random");
    assert!(wrong_actor(&data, &log).is_none());
    for e in &mut log {
        if let Entry::Move { player, .. } = e {
            *player = Some(0);
        }
    }
    assert!(wrong_actor(&data, &log).is_some());
}
