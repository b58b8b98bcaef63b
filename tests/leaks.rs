//! The leak checker: over seeds of every shipped game, every player count and
//! every agent kind (random and each data bot), each player's transcript
//! (`--view N`) must not depend on any card that player may not see. Each log
//! entry tells which cards it names and where each was (zone and whether on
//! top, or shown to everyone or to one player); the checker decides from the zones' declared visibility, read from the rules,
//! which of those the viewer may see, gives every other one a different
//! identity and renders the transcript again: a line that changes has leaked.
//! That holds whatever wording the renderer chooses, and for each line's
//! `--json` fields as well. `FUDA_LEAK_SEEDS=N` plays
//! N seeds per game, player count and agent (3 by default).

use std::path::Path;
use std::sync::Arc;

mod logged;
use logged::play;

use fuda::data::{Data, Visibility, load};
use fuda::engine::facts::facts;
use fuda::engine::log::{Entry, Part, Place, render_spans};
use fuda::value::PlayerId;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `viewer` may see a card at `place`, from the zone declarations
/// alone (the renderer's own test is not used).
fn may_see(data: &Data, place: Place, viewer: PlayerId) -> bool {
    match place {
        Place::Open => true,
        Place::By(p) => p == viewer,
        Place::In(z, top) => {
            let decl = &data.zones[z.zone as usize];
            let contents = match decl.contents {
                Visibility::Public => true,
                Visibility::Owner => !decl.shared && z.owner == viewer,
                Visibility::Hidden => false,
            };
            contents || (top && decl.top)
        }
    }
}

/// The log with every card `viewer` may not see given another identity.
fn disguised(data: &Data, log: &[Entry], viewer: PlayerId) -> Vec<Entry> {
    let n = data.defs.len() as u16;
    let mut out = log.to_vec();
    for e in &mut out {
        e.each_named(|def, places| {
            if !places.iter().any(|&p| may_see(data, p, viewer)) {
                *def = (*def + 1) % n;
            }
        });
    }
    out
}

/// The first line of `viewer`'s transcript that gives away a hidden card, with
/// the entries behind it as everyone sees them.
fn leak(data: &Data, log: &[Entry], viewer: PlayerId) -> Option<String> {
    let masked = disguised(data, log, viewer);
    let seen = render_spans(data, log, Some(viewer));
    let other = render_spans(data, &masked, Some(viewer));
    assert_eq!(seen.len(), other.len(), "a disguise changed the line count");
    for (i, (a, b)) in seen.iter().zip(&other).enumerate() {
        // The line's `--json` fields too.
        let fields = |l: &[Entry]| facts(data, &l[a.2.clone()], Some(viewer));
        if a.1 != b.1 || fields(log) != fields(&masked) {
            let all: Vec<String> = log[a.2.clone()]
                .iter()
                .filter_map(|e| e.render(data, None))
                .collect();
            return Some(format!(
                "line {} of P{}'s view: {:?} (with the hidden cards changed: {:?}); it renders {:?}",
                i + 1,
                viewer + 1,
                a.1,
                b.1,
                all
            ));
        }
    }
    None
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

fn seeds() -> u64 {
    std::env::var("FUDA_LEAK_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

#[test]
fn no_view_shows_a_card_its_player_may_not_see() {
    let mut leaks = Vec::new();
    let mut lines = 0;
    for game in games() {
        let data = Arc::new(load::load_game(root(), &game).expect("shipped data loads"));
        let (min, max, _) = data.players;
        for players in min..=max {
            // Bots reach positions random agents rarely do (long games, full zones).
            let kinds = std::iter::once("random".to_string())
                .chain(data.bots.iter().map(|(n, _)| n.clone()));
            for kind in kinds {
                for seed in 0..seeds() {
                    let log = play(&data, players, seed, &kind);
                    for v in 0..players {
                        lines += log.len();
                        if let Some(l) = leak(&data, &log, v) {
                            leaks.push(format!("{game} {players}p {kind} seed {seed}: {l}"));
                        }
                    }
                }
            }
        }
    }
    assert!(lines > 0, "no game was played");
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

/// A line that names a card must name it as a card, so each viewer's line
/// follows where that card is: a card's name in a line's plain text (a rule's
/// `log("against " + t.name)` joined before the line was made) would reach
/// every view whoever may see the card. Names public by declaration (a board
/// square's) may stand in text.
fn named_in_text(data: &Data, log: &[Entry]) -> Option<String> {
    let public: Vec<&str> = data.board.squares.iter().map(|s| s.name.as_str()).collect();
    let names: Vec<&str> = (0..data.defs.len() as u16)
        .map(|d| data.def_name(d))
        .filter(|n| !n.is_empty() && !public.contains(n))
        .collect();
    for e in log {
        let texts: Vec<&str> = match e {
            Entry::Text { text } => vec![text],
            Entry::Said { parts } => parts
                .iter()
                .filter_map(|p| match p {
                    Part::Text(t) => Some(t.as_str()),
                    Part::Card(..) => None,
                })
                .collect(),
            _ => continue,
        };
        for t in texts {
            if let Some(n) = names.iter().find(|n| t.contains(**n)) {
                return Some(format!(
                    "{:?} names {n} as plain text",
                    e.render(data, None)
                ));
            }
        }
    }
    None
}

#[test]
fn no_line_names_a_card_in_plain_text() {
    let mut found = Vec::new();
    for game in games() {
        let data = Arc::new(load::load_game(root(), &game).expect("shipped data loads"));
        let (min, max, _) = data.players;
        for players in min..=max {
            for seed in 0..seeds() {
                let log = play(&data, players, seed, "random");
                if let Some(l) = named_in_text(&data, &log) {
                    found.push(format!("{game} {players}p seed {seed}: {l}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// t3's refused battle names the treasure it was refused against, which may
/// lie in the attacker's own reserve: P2's view names no card there.
#[test]
fn a_refused_battle_names_a_reserve_card_to_its_owner_only() {
    let data = Arc::new(load::load_game(root(), "t3").expect("shipped data loads"));
    let log = play(&data, 2, 6000005, "random");
    let line = |v| {
        render_spans(&data, &log, v)
            .into_iter()
            .map(|(_, l, _)| l)
            .find(|l| l.starts_with("not enough power against"))
            .expect("the seed's game has a refused battle")
    };
    assert_eq!(
        line(Some(1)),
        "not enough power against a card: the battle is refused"
    );
    assert_ne!(
        line(None),
        line(Some(1)),
        "the full transcript names the card"
    );
    assert!(leak(&data, &log, 1).is_none());
}

/// The checker itself finds a leak: a renderer that names every card (the
/// omniscient transcript passed off as a player's view) is caught.
#[test]
fn the_checker_catches_an_omniscient_view() {
    let data = Arc::new(load::load_game(root(), "shrine").expect("shipped data loads"));
    let log = play(&data, 2, 1, "random");
    let seen = render_spans(&data, &log, None);
    let other = render_spans(&data, &disguised(&data, &log, 1), None);
    assert!(
        seen.iter().zip(&other).any(|(a, b)| a.1 != b.1),
        "disguising P2's hidden cards changed nothing in the omniscient transcript"
    );
}
