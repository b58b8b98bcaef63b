//! A card's state (the rules' `shown:`: tags given with `mark`, properties
//! changed with `modify`) in the per-player view: shown with a card the seat
//! sees, never with one it does not. Tested by changing the state of a card
//! hidden from a seat: that seat's view stays the same to the byte.

use std::path::Path;
use std::sync::Arc;

use fuda::data::{Data, load};
use fuda::engine::state::{Modifier, Until};
use fuda::engine::{Game, GameConfig, agent};
use fuda::value::ZoneRef;

fn game(name: &str) -> Arc<Data> {
    Arc::new(load::load_game(Path::new(env!("CARGO_MANIFEST_DIR")), name).unwrap())
}

fn utage() -> Arc<Data> {
    game("utage")
}

/// A game stopped at its first decision (setup done, hands drawn).
fn started(d: &Arc<Data>, seed: u64) -> Game {
    let mut g = Game::new(
        d.clone(),
        GameConfig {
            players: 2,
            seed,
            agents: vec![Box::new(agent::Replay::default()); 2],
            options: Default::default(),
            logging: false,
            tier: None,
        },
    );
    assert!(
        g.play().is_err(),
        "no answers: it stops at the first decision"
    );
    g
}

/// The cards of a player's zone (from 0), top last.
fn cards(g: &Game, zone: &str, owner: u8) -> Vec<u32> {
    let zone = g.data.names.zones.iter().position(|z| z == zone).unwrap() as u16;
    let i = g.st.inst(ZoneRef { zone, owner });
    g.st.zones[i].cards.clone()
}

fn tag(d: &Data, name: &str) -> u64 {
    1u64 << d.names.tags.iter().position(|t| t == name).unwrap()
}

fn view(g: &Game, p: u8) -> String {
    serde_json::to_string(&g.view(p)).unwrap()
}

#[test]
fn a_cards_state_shows_only_where_the_card_is_seen() {
    let d = utage();
    for seed in [1, 2, 3] {
        let mut g = started(&d, seed);
        let hand = cards(&g, "hand", 0);
        let leader = cards(&g, "leader", 0);
        assert!(!hand.is_empty() && !leader.is_empty(), "seed {seed}");
        let before = [view(&g, 0), view(&g, 1)];

        // P1's hand card activated, with a changed accuracy: hidden from
        // P2, whose view does not change; P1 sees both on the card.
        let secret = hand[0];
        g.st.objs[secret as usize].tags |= tag(&d, "activated");
        let accuracy = d.names.props.iter().position(|p| p == "accuracy").unwrap();
        g.st.mods.push(Modifier {
            obj: secret,
            prop: accuracy as u16,
            delta: 2,
            until: Until::Forever,
            or: Until::Forever,
        });
        assert_eq!(
            view(&g, 1),
            before[1],
            "seed {seed}: P2 sees P1's hand's state"
        );
        assert_ne!(view(&g, 0), before[0], "seed {seed}");
        let own = g.shown_state(secret);
        assert_eq!(own[0], "activated", "seed {seed}");
        assert!(own[1].starts_with("accuracy "), "seed {seed}: {own:?}");
        let v = g.view(0);
        let z = v.zones.iter().find(|z| z.zone == "P1's hand").unwrap();
        let states = z.states.as_ref().expect("a state in P1's hand");
        assert!(states.contains(&own), "seed {seed}: {states:?}");

        // P1's leader (public): both seats see its state.
        let open = leader[0];
        g.st.objs[open as usize].tags |= tag(&d, "battled");
        for p in [0, 1] {
            let v = g.view(p);
            let z = v.zones.iter().find(|z| z.zone == "P1's leader").unwrap();
            let s = z.states.as_ref().expect("a state on P1's leader");
            assert!(
                s.iter().any(|s| s.contains(&"battled".to_string())),
                "seed {seed}"
            );
        }
        // A tag the rules do not show stays out of every view.
        let unshown = g.view(1);
        g.st.objs[open as usize].tags |= tag(&d, "nobattle");
        assert_eq!(
            serde_json::to_string(&g.view(1)).unwrap(),
            serde_json::to_string(&unshown).unwrap(),
            "seed {seed}"
        );
    }
}

/// Marks `c` with the tag and raises the property by 3, for good.
fn change(g: &mut Game, c: u32, tag_name: &str, prop: &str) {
    let d = g.data.clone();
    g.st.objs[c as usize].tags |= tag(&d, tag_name);
    let prop = d.names.props.iter().position(|p| p == prop).unwrap();
    g.st.mods.push(Modifier {
        obj: c,
        prop: prop as u16,
        delta: 3,
        until: Until::Forever,
        or: Until::Forever,
    });
}

/// hyakki and t3 declare their own `shown:`: a shown tag and property on a
/// card in P1's hand (or t3's draft packet) show in P1's view only, and on a
/// card in a deck in nobody's.
#[test]
fn each_games_shown_state_stays_with_the_seats_that_see_the_card() {
    for (name, tag_name, prop) in [("hyakki", "acted", "power"), ("t3", "exhausted", "power")] {
        let d = game(name);
        for seed in [1, 2, 3] {
            let mut g = started(&d, seed);
            let at = format!("{name} seed {seed}");
            let before = [view(&g, 0), view(&g, 1)];
            // t3 is drafting: its decks are empty, the shared deck is not.
            let deck = ["deck", "udeck"]
                .into_iter()
                .map(|z| cards(&g, z, 0))
                .find(|c| !c.is_empty())
                .expect("a deck with cards");
            change(&mut g, deck[0], tag_name, prop);
            assert_eq!(
                [view(&g, 0), view(&g, 1)],
                before,
                "{at}: a deck card's state shows"
            );

            let (zone, held) = ["hand", "packet"]
                .into_iter()
                .map(|z| (z, cards(&g, z, 0)))
                .find(|(_, c)| !c.is_empty())
                .expect("P1 holds cards");
            change(&mut g, held[0], tag_name, prop);
            assert_eq!(view(&g, 1), before[1], "{at}: P2 sees P1's {zone}'s state");
            let own = g.shown_state(held[0]);
            assert_eq!(own[0], tag_name, "{at}");
            assert!(own[1].starts_with(&format!("{prop} ")), "{at}: {own:?}");
            let v = g.view(0);
            let title = format!("P1's {zone}");
            let z = v.zones.iter().find(|z| z.zone == title).unwrap();
            let states = z.states.as_ref().expect("a state in P1's hand");
            assert!(states.contains(&own), "{at}: {states:?}");
        }
    }
}

#[test]
fn an_unknown_shown_tag_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir.path().join("rules")).unwrap();
    let rules = std::fs::read_to_string(root.join("rules/utage.yaml")).unwrap();
    let broken = rules.replace(
        "tags: [activated, battled, negated]",
        "tags: [activatd, battled, negated]",
    );
    assert_ne!(broken, rules);
    std::fs::write(dir.path().join("rules/utage.yaml"), broken).unwrap();
    let cards = dir.path().join("cards");
    std::fs::create_dir_all(&cards).unwrap();
    let copy = std::process::Command::new("cp")
        .args(["-r", root.join("cards/utage").to_str().unwrap()])
        .arg(&cards)
        .status()
        .unwrap();
    assert!(copy.success());
    for f in std::fs::read_dir(root.join("rules")).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "rhai") {
            std::fs::copy(&f, dir.path().join("rules").join(f.file_name().unwrap())).unwrap();
        }
    }
    let err = load::load_game(dir.path(), "utage")
        .map(|_| ())
        .unwrap_err();
    let text = format!("{:?}", miette::Report::new(err));
    assert!(text.contains("unknown tag \"activatd\""), "{text}");
    assert!(text.contains("activated"), "a suggestion: {text}");
    assert!(text.contains("utage.yaml"), "{text}");
}

/// A card attached to another (`attach`) says which in the view: the host's
/// zone, and its name and place where the seat sees that zone's cards. A
/// host hidden from a seat is "a face-down card" there: swapping it for
/// another hidden card leaves that seat's view the same to the byte.
#[test]
fn a_cards_host_shows_as_each_seat_sees_it() {
    let d = utage();
    let field = d.names.zones.iter().position(|z| z == "field").unwrap() as u16;
    for seed in [1, 2, 3] {
        let mut g = started(&d, seed);
        let at = format!("seed {seed}");
        let (hand, leader) = (cards(&g, "hand", 0), cards(&g, "leader", 0));
        assert!(hand.len() >= 3, "{at}");
        // Two of P1's hand cards put on P1's field, the first on the leader.
        let (on_leader, on_hidden) = (hand[0], hand[1]);
        for c in [on_leader, on_hidden] {
            g.st.relocate(
                c,
                ZoneRef {
                    zone: field,
                    owner: 0,
                },
                false,
            );
        }
        g.st.set_host(on_leader, Some(leader[0]));
        let leader_name = d.def_name(g.st.objs[leader[0] as usize].def).to_string();
        for p in [0, 1] {
            let v = g.view(p);
            let z = v.zones.iter().find(|z| z.zone == "P1's field").unwrap();
            // Listed top first.
            let listed: Vec<u32> = cards(&g, "field", 0).into_iter().rev().collect();
            let i = listed.iter().position(|&c| c == on_leader).unwrap();
            let j = listed.iter().position(|&c| c == on_hidden).unwrap();
            let h = z.hosts.as_ref().unwrap()[i].as_ref().expect("a host");
            assert_eq!(h.zone, "P1's leader", "{at}");
            assert_eq!(h.name.as_deref(), Some(leader_name.as_str()), "{at}");
            assert_eq!(h.index, Some(0), "{at}");
            assert!(
                z.card_label(i)
                    .ends_with(&format!("(on {leader_name} in P1's leader)")),
                "{at}: {}",
                z.card_label(i)
            );
            assert!(z.hosts.as_ref().unwrap()[j].is_none(), "{at}");
        }

        // The second stored under a card of P1's hand: P1 sees which, P2
        // sees only that it is one of P1's hand.
        g.st.set_host(on_hidden, Some(hand[2]));
        let hidden = view(&g, 1);
        assert!(hidden.contains(r#"{"zone":"P1's hand"}"#), "{at}: {hidden}");
        let v = g.view(0);
        let z = v.zones.iter().find(|z| z.zone == "P1's field").unwrap();
        let listed: Vec<u32> = cards(&g, "field", 0).into_iter().rev().collect();
        let j = listed.iter().position(|&c| c == on_hidden).unwrap();
        let mine = z.hosts.as_ref().unwrap()[j].as_ref().unwrap();
        assert!(mine.name.is_some() && mine.index.is_some(), "{at}");
        let other = (3..hand.len()).find(|&i| hand[i] != hand[2]);
        if let Some(i) = other {
            g.st.set_host(on_hidden, Some(hand[i]));
            assert_eq!(view(&g, 1), hidden, "{at}: P2 learns which hand card");
        }
    }
}
