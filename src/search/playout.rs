//! One playout: a copy of the game resumed from its resume point, its
//! seats answered by one [`Run`] shared by them all. The run replays the
//! answers the real game gave since that point (bringing the copy to the
//! decision being searched), deals the cards hidden from the searching
//! seat again there, follows the tree while the tree knows the way, and
//! hands every later decision to the rollout policy.

use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::answers::{answers, key};
use super::determinize::Deal;
use super::tree::Tree;
use crate::engine::agent::{Agent, DataBot, First, Random};
use crate::engine::request::{Picks, Request};
use crate::engine::{Flow, Game, Res, RunError};
use crate::value::PlayerId;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Giving back the real game's answers since the resume point.
    Replay,
    /// In the tree: each decision is a node's choice.
    Tree,
    /// Past the tree: the rollout policy answers.
    Rollout,
}

/// The state of one playout, shared by the copy's seats.
pub struct Run {
    pub observer: PlayerId,
    /// The real game's answers since its resume point, as it records them.
    pub prefix: Vec<u32>,
    cursor: usize,
    pub mode: Mode,
    pub tree: Tree,
    node: u32,
    pub path: Vec<(u32, usize)>,
    /// The playout's own stream (deals, expansion order).
    rng: ChaCha8Rng,
    /// The rollout policy: a data bot, or each seat at random.
    pub policy: Option<usize>,
    randoms: Vec<Random>,
    deal: Deal,
    cands: Vec<Picks>,
    keys: Vec<u64>,
}

impl Run {
    pub fn new(policy: Option<usize>) -> Run {
        Run {
            observer: 0,
            prefix: Vec::new(),
            cursor: 0,
            mode: Mode::Replay,
            tree: Tree::default(),
            node: 0,
            path: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(0),
            policy,
            randoms: Vec::new(),
            deal: Deal::default(),
            cands: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// Ready for the next playout, drawn from `seed`.
    pub fn start(&mut self, seed: u64, players: usize) {
        self.cursor = 0;
        self.mode = Mode::Replay;
        self.node = 0;
        self.path.clear();
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.randoms.resize_with(players, Random::default);
        for (i, r) in self.randoms.iter_mut().enumerate() {
            r.seat(seed, i);
        }
    }

    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        match self.mode {
            Mode::Replay if self.cursor < self.prefix.len() => self.replayed(g, req),
            Mode::Replay => {
                // The decision searched: the copy is where the real game is.
                if req.player != self.observer {
                    return diverged(req);
                }
                self.deal.redeal(g, self.observer, &mut self.rng);
                self.mode = Mode::Tree;
                self.in_tree(g, req)
            }
            // Another player's part of a decision taken together is not
            // told the observer's part: chance, not a node.
            Mode::Tree if req.together.is_empty() || req.player == self.observer => {
                self.in_tree(g, req)
            }
            _ => self.rollout(g, req),
        }
    }

    fn replayed(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let at = self.cursor;
        let (p, k) = (self.prefix[at], self.prefix.get(at + 1).copied());
        let end = at + 2 + k.unwrap_or(0) as usize;
        if p != req.player as u32 || end > self.prefix.len() {
            return diverged(req);
        }
        self.cursor = end;
        let _ = g;
        Ok(self.prefix[at + 2..end]
            .iter()
            .map(|&i| i as usize)
            .collect())
    }

    fn in_tree(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        answers(req, &mut self.cands);
        self.keys.clear();
        (self.keys).extend(self.cands.iter().map(|p| key(g, req, p)));
        let start = crate::engine::state::below(&mut self.rng, self.keys.len());
        let i = match self.tree.select(self.node, &self.keys, start) {
            Ok(e) => {
                let edge = &self.tree.nodes[self.node as usize].edges[e];
                self.path.push((self.node, e));
                self.node = edge.child;
                let k = edge.key;
                self.keys.iter().position(|&x| x == k).unwrap_or(0)
            }
            Err(i) => {
                let e = self.tree.expand(self.node, self.keys[i], req.player);
                self.path.push((self.node, e));
                self.mode = Mode::Rollout;
                i
            }
        };
        Ok(self.cands.get(i).cloned().unwrap_or_default())
    }

    fn rollout(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        match self.policy {
            Some(b) => DataBot(b).answer(g, req),
            None => match self.randoms.get_mut(req.player as usize) {
                Some(r) => r.answer(g, req),
                None => First.answer(g, req),
            },
        }
    }

    fn blind(&mut self, seat: usize, n: usize) -> Option<usize> {
        match self.mode {
            Mode::Replay => {
                let at = self.cursor;
                let rec = self.prefix.get(at..at + 3)?;
                (rec[0] == seat as u32 && rec[1] == 1 && (rec[2] as usize) < n).then(|| {
                    self.cursor += 3;
                    rec[2] as usize
                })
            }
            Mode::Tree => None,
            Mode::Rollout if self.policy.is_none() => self.randoms.get_mut(seat)?.blind(n),
            Mode::Rollout => None,
        }
    }
}

#[cold]
fn diverged<T>(req: &Request) -> Res<T> {
    Err(Box::new(Flow::Error(RunError {
        message: format!(
            "a search's copy asked P{} \"{}\" where the game it copies did not",
            req.player + 1,
            req.prompt
        ),
        span: Default::default(),
        card: None,
        site: None,
        card_file: None,
    })))
}

/// A seat of a copy: answers through the shared [`Run`].
#[derive(Clone)]
pub struct Seat {
    pub run: Arc<Mutex<Run>>,
    pub seat: usize,
}

impl Agent for Seat {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        // Held only by a seat answering: a request made while a rollout
        // bot weighs its options gets the first ones, as in a real game.
        match self.run.try_lock() {
            Ok(mut run) => run.answer(g, req),
            Err(_) => First.answer(g, req),
        }
    }

    fn blind(&mut self, n: usize) -> Option<usize> {
        self.run.try_lock().ok()?.blind(self.seat, n)
    }

    fn data_bot(&self) -> Option<usize> {
        let run = self.run.try_lock().ok()?;
        run.policy.filter(|_| run.mode == Mode::Rollout)
    }

    fn seat(&mut self, _seed: u64, seat: usize) {
        self.seat = seat;
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}
