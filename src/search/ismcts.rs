//! The `ismcts` agent: single-observer information-set Monte Carlo tree
//! search over copies of the game dealt from its seat's view.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::answers::{answers, key};
use super::playout::{Run, Seat};
use crate::engine::agent::{Agent, DataBot, Random};
use crate::engine::request::{Picks, Request};
use crate::engine::state::below;
use crate::engine::{Game, GameConfig, Outcome, Res};

/// How long a search may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Playouts per decision: deterministic.
    Iterations(u32),
    /// Wall time per decision (at least one playout): not reproducible.
    Millis(u64),
}

/// Playouts made and the time they took, by every search in the process
/// (`fuda sim --json` reports their rate).
static PLAYOUTS: AtomicU64 = AtomicU64::new(0);
static NANOS: AtomicU64 = AtomicU64::new(0);

/// (playouts, nanoseconds) searched so far in this process.
pub fn searched() -> (u64, u64) {
    (
        PLAYOUTS.load(Ordering::Relaxed),
        NANOS.load(Ordering::Relaxed),
    )
}

/// The search agent. Each decision with more than one answer is searched:
/// `budget` playouts, each a copy of the game resumed from its resume point
/// ([`Game::fork_point`]), brought to the decision by replaying the answers
/// since, dealt again from the seat's view, then played to the end by the
/// tree and the rollout policy; the answer most often followed wins.
pub struct Ismcts {
    budget: Budget,
    /// The rollout policy: a data bot by index, or random.
    policy: Option<usize>,
    /// The agent's own seed, mixed with the game's and the seat.
    seed: u64,
    /// `seed` mixed with the game's seed and the seat ([`Agent::seat`]).
    seated: u64,
    /// Drawn afresh for each decision from `seated` and the number of
    /// answers the game has recorded: a decision depends on the game as
    /// it stands, not on what this agent drew before.
    rng: ChaCha8Rng,
    run: Arc<Mutex<Run>>,
    /// The copy the playouts run in, kept from decision to decision.
    copy: Mutex<Option<Box<Game>>>,
    cands: Vec<Picks>,
    /// Playouts that stopped with an error (a copy that diverged).
    pub failed: u64,
}

impl Ismcts {
    pub fn new(budget: Budget, policy: Option<usize>, seed: u64) -> Ismcts {
        Ismcts {
            budget,
            policy,
            seed,
            seated: seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            run: Arc::new(Mutex::new(Run::new(policy))),
            copy: Mutex::new(None),
            cands: Vec::new(),
            failed: 0,
        }
    }

    /// The copy, made on the first decision with the real game's data,
    /// players, options and tier kind.
    fn copy_of(&self, g: &Game) -> Box<Game> {
        let mut slot = self.copy.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = slot.take()
            && c.st.nplayers == g.st.nplayers
            && Arc::ptr_eq(&c.data, &g.data)
        {
            return c;
        }
        let seats = (0..g.st.nplayers as usize)
            .map(|seat| {
                Box::new(Seat {
                    run: self.run.clone(),
                    seat,
                }) as Box<dyn Agent>
            })
            .collect();
        Box::new(Game::new(
            g.data.clone(),
            GameConfig {
                players: g.st.nplayers,
                seed: 0,
                agents: seats,
                options: g.options.clone(),
                logging: false,
                tier: (!g.reference).then(|| crate::fast::tier(&g.data)),
            },
        ))
    }

    /// A decision with no resume point (a game started by hand): the
    /// rollout policy's answer.
    fn unsearched(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        match self.policy {
            Some(b) => DataBot(b).answer(g, req),
            None => {
                let mut r = Random::default();
                r.seat(self.rng.next_u64(), req.player as usize);
                r.answer(g, req)
            }
        }
    }
}

/// Each player's reward: a share of the win (1 alone, 1/2 in a two-way
/// draw), nothing for a loss.
fn rewards(o: &Outcome, players: usize, out: &mut Vec<f64>) {
    out.clear();
    out.resize(players, 0.0);
    let share = 1.0 / o.winners.len().max(1) as f64;
    for &w in &o.winners {
        if let Some(r) = out.get_mut(w as usize) {
            *r = share;
        }
    }
}

impl Agent for Ismcts {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        answers(req, &mut self.cands);
        if self.cands.len() <= 1 {
            return Ok(self.cands.pop().unwrap_or_default());
        }
        let at = (g.decisions.len() as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        self.rng = ChaCha8Rng::seed_from_u64(self.seated ^ at);
        let Some(point) = g.fork_point() else {
            return self.unsearched(g, req);
        };
        let keys: Vec<u64> = self.cands.iter().map(|p| key(g, req, p)).collect();
        let players = g.st.nplayers as usize;
        let mut copy = self.copy_of(g);
        {
            let mut run = self.run.lock().unwrap_or_else(|e| e.into_inner());
            run.observer = req.player;
            run.prefix.clear();
            run.prefix
                .extend_from_slice(&g.decisions[point.answers.min(g.decisions.len())..]);
            run.tree.clear();
        }
        let start = Instant::now();
        let mut done = 0u64;
        let mut reward = Vec::new();
        loop {
            match self.budget {
                Budget::Iterations(n) if done >= n as u64 => break,
                Budget::Millis(ms) if done > 0 && start.elapsed() >= Duration::from_millis(ms) => {
                    break;
                }
                _ => {}
            }
            let seed = self.rng.next_u64();
            self.run
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .start(seed, players);
            copy.renew_seed(seed);
            let r = copy.resume(point);
            let mut run = self.run.lock().unwrap_or_else(|e| e.into_inner());
            match r {
                Ok(o) => {
                    rewards(&o, players, &mut reward);
                    let path = std::mem::take(&mut run.path);
                    run.tree.backup(&path, &reward);
                    run.path = path;
                }
                Err(_) => self.failed += 1,
            }
            done += 1;
        }
        PLAYOUTS.fetch_add(done, Ordering::Relaxed);
        NANOS.fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        *self.copy.lock().unwrap_or_else(|e| e.into_inner()) = Some(copy);
        let best = self
            .run
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .tree
            .best();
        let i = match best.and_then(|b| keys.iter().position(|&k| k == b)) {
            Some(i) => i,
            None => below(&mut self.rng, keys.len()),
        };
        Ok(self.cands.swap_remove(i))
    }

    fn seat(&mut self, seed: u64, seat: usize) {
        self.seated = self.seed ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seat as u64) << 56;
    }

    fn forks(&self) -> bool {
        true
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(Ismcts::new(self.budget, self.policy, self.seed))
    }
}
