//! The search agent (`ismcts`) on every shipped game: it plays whole games,
//! it is deterministic for a seed, its copies never diverge from the game
//! they copy, and its decisions do not depend on where the cards hidden from
//! its seat lie (the leak test of search: the hidden cards of the real game
//! are swapped among their places, in the game and at its resume point, and
//! a search with the same seed must answer the same).

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use fuda::data::{Data, load};
use fuda::engine::agent::Agent;
use fuda::engine::request::{Picks, Request};
use fuda::engine::state::below;
use fuda::engine::{Flow, Game, GameConfig, Res};
use fuda::search::determinize::hidden;
use fuda::search::{Budget, Ismcts};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn games() -> Vec<Arc<Data>> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("rules"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "yaml").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    (names.iter())
        .map(|n| Arc::new(load::load_game(root(), n).expect("shipped data loads")))
        .collect()
}

/// The game's first data bot, or random.
fn opponent(data: &Data) -> Box<dyn Agent> {
    let name = data.bots.first().map_or("random", |(n, _)| n.as_str());
    fuda::search::parse(name, data).unwrap()
}

fn play(data: &Arc<Data>, seed: u64, seat0: Box<dyn Agent>) -> Game {
    let mut g = Game::new(
        data.clone(),
        GameConfig {
            players: 2,
            seed,
            agents: vec![seat0, opponent(data)],
            options: HashMap::new(),
            logging: false,
            tier: Some(fuda::fast::tier(data)),
        },
    );
    g.play()
        .unwrap_or_else(|e| panic!("{} seed {seed}: {e:?}", data.game));
    g
}

#[test]
fn ismcts_plays_every_game_the_same_for_a_seed() {
    for data in games() {
        let a = play(&data, 7, fuda::search::parse("ismcts:4", &data).unwrap());
        let b = play(&data, 7, fuda::search::parse("ismcts:4", &data).unwrap());
        assert!(!a.decisions.is_empty(), "{}", data.game);
        assert_eq!(
            a.decisions, b.decisions,
            "{}: same seed, same game",
            data.game
        );
    }
}

#[test]
fn agent_names_parse() {
    let data = games().remove(0);
    for ok in [
        "ismcts",
        "ismcts:10",
        "ismcts:5ms",
        "ismcts:10:random",
        "ismcts:10:margin",
        "ismcts:10:random:margin",
        "ismcts:10:margin:random",
    ] {
        assert!(fuda::search::parse(ok, &data).is_some(), "{ok}");
    }
    for bad in [
        "ismcts:0",
        "ismcts:x",
        "ismcts:10:nobot",
        "ismctsx",
        "ismcts:1:random:1",
        "ismcts:1:margin:margin",
        "ismcts:1:random:random",
        "ismcts:1:random:margin:random",
    ] {
        assert!(fuda::search::parse(bad, &data).is_none(), "{bad}");
    }
}

/// What the swapping seat found.
#[derive(Default)]
struct Found {
    searched: usize,
    /// Hidden cards given another identity.
    swapped: usize,
    /// Swaps the game's history could tell apart (the turn's code read
    /// a swapped card): not a question the search could be asked.
    told: usize,
    /// Answers that changed with the swap.
    leaks: Vec<String>,
    /// Playouts whose copy stopped with an error.
    failed: u64,
    /// Summed over the decisions searched: the bytes of the resume point's
    /// state, the answers replayed from it, the answers of the game so far.
    state_bytes: usize,
    replayed: usize,
    answers: usize,
}

/// How many answers a game's record holds (player, count, picks each).
fn records(mut rec: &[u32]) -> usize {
    let mut n = 0;
    while let [_, k, rest @ ..] = rec {
        rec = &rest[(*k as usize).min(rest.len())..];
        n += 1;
    }
    n
}

/// The bytes a state's cards, zones and numbers take (what a fork copies).
fn state_bytes(st: &fuda::engine::state::State) -> usize {
    let zones: usize = (st.zones.iter())
        .map(|z| z.cards.len() * 4 + z.piles.iter().map(|(_, p)| 8 + p.len() * 4).sum::<usize>())
        .sum();
    st.objs.len() * std::mem::size_of::<fuda::engine::state::Obj>()
        + zones
        + (st.counters.len() + st.globals.len()) * 8
        + std::mem::size_of_val(st)
}

/// Searches each decision twice with the same seed: once in the game as it
/// is, once with the cards hidden from its seat (here and at the resume
/// point, where they lie in the same place) dealt among themselves.
struct Swapper {
    a: Ismcts,
    b: Ismcts,
    rng: ChaCha8Rng,
    found: Arc<Mutex<Found>>,
    /// Decisions to check (then only `a` answers).
    left: usize,
}

impl Swapper {
    fn new(found: Arc<Mutex<Found>>) -> Swapper {
        Swapper {
            a: Ismcts::new(Budget::Iterations(6), None, 3),
            b: Ismcts::new(Budget::Iterations(6), None, 3),
            rng: ChaCha8Rng::seed_from_u64(11),
            found,
            left: 25,
        }
    }

    /// Deals the hidden cards among themselves: (object, identity) before.
    fn swap(&mut self, g: &mut Game, p: u8) -> Vec<(u32, (u16, u64))> {
        let (mut now, mut then) = (Vec::new(), Vec::new());
        hidden(&g.data, &g.st, p, &mut now);
        let point = g.fork_point().expect("a search seat forks");
        hidden(&g.data, &point.st, p, &mut then);
        let same_place = |c: &u32| {
            let (x, Some(y)) = (&g.st.objs[*c as usize], point.st.objs.get(*c as usize)) else {
                return false;
            };
            then.contains(c)
                && x.zone == y.zone
                && g.st.zones[x.zone as usize]
                    .cards
                    .iter()
                    .position(|o| o == c)
                    == point.st.zones[y.zone as usize]
                        .cards
                        .iter()
                        .position(|o| o == c)
        };
        let cards: Vec<u32> = now.iter().copied().filter(same_place).collect();
        let ids: Vec<(u16, u64)> = (cards.iter())
            .map(|&c| (g.st.objs[c as usize].def, g.st.objs[c as usize].tags))
            .collect();
        let mut dealt = ids.clone();
        for i in (1..dealt.len()).rev() {
            dealt.swap(i, below(&mut self.rng, i + 1));
        }
        self.set(g, &cards, &dealt);
        cards.into_iter().zip(ids).collect()
    }

    fn set(&self, g: &mut Game, cards: &[u32], ids: &[(u16, u64)]) {
        for (&c, &(def, tags)) in cards.iter().zip(ids) {
            let o = &mut g.st.objs[c as usize];
            (o.def, o.tags) = (def, tags);
            let o = &mut g.fork_point_mut().unwrap().st.objs[c as usize];
            (o.def, o.tags) = (def, tags);
        }
    }
}

/// Each card's definition, zone, tags and what was seen of it.
type Cards = Vec<(u16, u32, u64, u8)>;

/// The state's cards and numbers.
fn state_of(g: &Game) -> (Cards, Vec<Vec<u32>>, Vec<i64>, Vec<i64>) {
    let objs = (g.st.objs.iter())
        .map(|o| (o.def, o.zone, o.tags, o.seen))
        .collect();
    let zones = g.st.zones.iter().map(|z| z.cards.clone()).collect();
    (objs, zones, g.st.counters.clone(), g.st.globals.clone())
}

/// The answers given since a resume point, in the order given, shared by
/// the seats of a copy; who was asked when they ran out.
#[derive(Clone, Default)]
struct Answers(Arc<Mutex<Given>>);

/// The answers left, each with its player, and who was asked when none was.
type Given = (VecDeque<(u32, Picks)>, Option<u8>);

impl Agent for Answers {
    fn answer(&mut self, _: &mut Game, req: &Request) -> Res<Picks> {
        let mut a = self.0.lock().unwrap();
        match a.0.pop_front() {
            Some((p, picks)) if p == req.player as u32 => Ok(picks),
            // Asked of another player, or asked again: not the game copied.
            Some(_) => Err(Box::new(Flow::EndTurn)),
            None => {
                a.1 = Some(req.player);
                Err(Box::new(Flow::OutOfDecisions))
            }
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

/// Whether the game, resumed from its resume point with the answers given
/// since, comes to the state it is in and asks its player there: whether
/// the swapped cards are ones the game's history cannot tell apart.
fn replays_to(g: &Game, player: u8) -> bool {
    let point = g.fork_point().unwrap();
    let answers = Answers::default();
    let mut rec = &g.decisions[point.answers..];
    while let [p, k, rest @ ..] = rec {
        let k = *k as usize;
        let picks = rest[..k].iter().map(|&i| i as usize).collect();
        answers.0.lock().unwrap().0.push_back((*p, picks));
        rec = &rest[k..];
    }
    let mut copy = Game::new(
        g.data.clone(),
        GameConfig {
            players: g.st.nplayers,
            seed: 0,
            agents: vec![Box::new(answers.clone()) as Box<dyn Agent>; g.st.nplayers as usize],
            options: g.options.clone(),
            logging: false,
            tier: Some(fuda::fast::tier(&g.data)),
        },
    );
    let stopped = copy.resume(point);
    matches!(stopped.map_err(|e| *e), Err(Flow::OutOfDecisions))
        && answers.0.lock().unwrap().1 == Some(player)
        && state_of(&copy) == state_of(g)
}

impl Agent for Swapper {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let pa = self.a.answer(g, req)?;
        if self.left == 0 {
            return Ok(pa);
        }
        self.left -= 1;
        {
            let point = g.fork_point().unwrap();
            let mut f = self.found.lock().unwrap();
            f.state_bytes += state_bytes(&point.st);
            f.replayed += records(&g.decisions[point.answers..]);
            f.answers += records(&g.decisions);
        }
        let before = self.swap(g, req.player);
        let changed = (before.iter())
            .filter(|(c, id)| (g.st.objs[*c as usize].def, g.st.objs[*c as usize].tags) != *id)
            .count();
        let consistent = changed > 0 && replays_to(g, req.player);
        let pb = consistent.then(|| self.b.answer(g, req));
        let (cards, ids): (Vec<u32>, Vec<(u16, u64)>) = before.into_iter().unzip();
        self.set(g, &cards, &ids);
        let mut f = self.found.lock().unwrap();
        f.searched += 1;
        f.failed = self.a.failed + self.b.failed;
        let Some(pb) = pb else {
            f.told += (changed > 0) as usize;
            return Ok(pa);
        };
        let pb = pb?;
        f.swapped += changed;
        if pa != pb {
            let opts: Vec<String> = (req.options.iter())
                .map(|o| {
                    format!(
                        "{} / {} / {:?}",
                        o.label_for(g, req.player),
                        o.key(g),
                        o.value
                    )
                })
                .collect();
            f.leaks.push(format!(
                "{} turn {}: \"{}\" answered {pa:?}, with hidden cards swapped {pb:?}; options {opts:?}",
                g.data.game, g.st.turn, req.prompt
            ));
        }
        Ok(pa)
    }

    fn seat(&mut self, seed: u64, seat: usize) {
        self.a.seat(seed, seat);
        self.b.seat(seed, seat);
    }

    fn forks(&self) -> bool {
        true
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(Swapper::new(self.found.clone()))
    }
}

#[test]
fn search_answers_do_not_depend_on_hidden_cards() {
    let mut report = Vec::new();
    for data in games() {
        let found = Arc::new(Mutex::new(Found::default()));
        play(&data, 5, Box::new(Swapper::new(found.clone())));
        let f = found.lock().unwrap();
        let n = f.searched.max(1);
        report.push(format!(
            "{}: {} decisions searched, {} hidden cards swapped, {} swaps history told apart, \
             {} playouts failed; per decision a fork copies {} bytes of state and replays {:.1} \
             answers (the game so far: {:.1} answers)",
            data.game,
            f.searched,
            f.swapped,
            f.told,
            f.failed,
            f.state_bytes / n,
            f.replayed as f64 / n as f64,
            f.answers as f64 / n as f64
        ));
        assert!(f.searched > 0, "{}: nothing searched", data.game);
        assert!(
            f.leaks.is_empty(),
            "{} leaks:\n{}",
            data.game,
            f.leaks.join("\n")
        );
        assert_eq!(f.failed, 0, "{}: copies diverged", data.game);
    }
    // Some game has hidden cards to swap (else the test tests nothing).
    assert!(
        !report.iter().all(|r| r.contains(" 0 hidden")),
        "{report:?}"
    );
    println!("{}", report.join("\n"));
}
