//! The board's index of squares by a property's value (`Board::found`) is
//! kernel state kept by the board's writes, which both tiers share: the
//! differential cannot see it go wrong on its own. Held here against a full
//! scan of each list, at every decision of random games of every game, and
//! after every kind of board write (a property set to a value of every
//! kind, a track laid again, a new game).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use fuda::data::{Data, load};
use fuda::engine::board::Board;
use fuda::engine::board_index::IndexKey;
use fuda::engine::request::Picks;
use fuda::engine::request::Request;
use fuda::engine::{Agent, Game, GameConfig, Res, agent};
use fuda::value::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every list, property, value and test compared with a scan of the list;
/// how many the index answered.
fn check(b: &mut Board, what: &str) -> usize {
    let mut keys = vec![IndexKey::None, IndexKey::Bool(true), IndexKey::Bool(false)];
    keys.extend((0..4).map(IndexKey::Player));
    keys.extend((-1..20).map(IndexKey::Int));
    let lists: Vec<Arc<Vec<Value>>> = (b.lists.iter())
        .filter_map(|(_, l)| match l {
            Value::List(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    let mut answered = 0;
    for items in &lists {
        for p in 0..b.nprops {
            for &k in &keys {
                for eq in [true, false] {
                    let mut got = Vec::new();
                    let r = b.found(p, k, eq, items, &mut |v, left| {
                        got.push(format!("{v:?} {left}"))
                    });
                    if r.is_none() {
                        continue;
                    }
                    answered += 1;
                    let want: Vec<String> = (items.iter().enumerate())
                        .filter(|(_, v)| {
                            let Value::Int(s) = v else { return false };
                            k.same(&b.props()[*s as usize * b.nprops + p]) == eq
                        })
                        .map(|(i, v)| format!("{v:?} {}", items.len() - i))
                        .collect();
                    assert_eq!(got, want, "{what}: prop {p}, {k:?}, eq {eq}");
                }
            }
        }
    }
    answered
}

/// A random agent that checks the board's index before each answer.
struct Checking(Box<dyn Agent>, Arc<std::sync::atomic::AtomicUsize>);

impl Agent for Checking {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let n = check(&mut g.st.board, "a decision");
        self.1.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        self.0.answer(g, req)
    }
    fn seat(&mut self, seed: u64, seat: usize) {
        self.0.seat(seed, seat)
    }
    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(Checking(self.0.boxed(), self.1.clone()))
    }
}

fn game(data: &Arc<Data>, seed: u64, agents: Vec<Box<dyn Agent>>, fast: bool) -> Game {
    Game::new(
        data.clone(),
        GameConfig {
            players: agents.len() as u8,
            seed,
            agents,
            options: HashMap::new(),
            logging: false,
            tier: fast.then(|| fuda::fast::tier(data)),
        },
    )
}

#[test]
fn the_index_agrees_with_a_scan_in_random_games() {
    let answered = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for name in load::list_games(root()) {
        let data = Arc::new(load::load_game(root(), &name).unwrap_or_else(|e| panic!("{e:?}")));
        for seed in 0..6 {
            let agents = (0..data.players.2)
                .map(|_| {
                    let random = agent::parse("random", &data).expect("random");
                    Box::new(Checking(random, answered.clone())) as Box<dyn Agent>
                })
                .collect();
            let mut g = game(&data, seed, agents, seed % 2 == 0);
            let _ = g.play();
            check(&mut g.st.board, &format!("{name} seed {seed}, the end"));
        }
    }
    assert!(answered.load(std::sync::atomic::Ordering::Relaxed) > 0);
}

#[test]
fn the_index_follows_every_board_write() {
    let data = Arc::new(load::load_game(root(), "landgrab").expect("landgrab"));
    let mut g = game(
        &data,
        1,
        vec![agent::parse("first", &data).expect("first"); 2],
        true,
    );
    let b = &mut g.st.board;
    let n = data.board.squares.len();
    let values = [
        Value::None,
        Value::Bool(true),
        Value::Bool(false),
        Value::Player(0),
        Value::Player(1),
        Value::Int(3),
        Value::text("x".to_string()),
        Value::Def(0),
        Value::list(vec![Value::Int(1)]),
    ];
    let mut x = 7u64;
    let mut next = |m: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as usize % m
    };
    assert!(check(b, "new game") > 0);
    for round in 0..3000 {
        let what = format!("round {round}");
        match next(100) {
            0 => {
                let sections: &[i64] = [&[1][..], &[2], &[1, 2], &[1, 2, 3], &[3]][next(5)];
                b.lay_sections(&data, sections);
            }
            1 => b.reset(&data, 2),
            // Many numbers: a property no longer indexed this game.
            2..30 => b.set_prop(next(n), 1, Value::Int(next(40) as i64)),
            _ => {
                let v = values[next(values.len())].clone();
                b.set_prop(next(n), next(b.nprops), v);
            }
        }
        check(b, &what);
    }
}
