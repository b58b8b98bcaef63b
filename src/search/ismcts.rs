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
    /// Rewards also count the score margin ([`rewards`]).
    margin: bool,
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
            margin: false,
            seed,
            seated: seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            run: Arc::new(Mutex::new(Run::new(policy))),
            copy: Mutex::new(None),
            cands: Vec::new(),
            failed: 0,
        }
    }

    /// Rewards that also count the score margin (`ismcts:N:margin`).
    pub fn with_margin(mut self, margin: bool) -> Ismcts {
        self.margin = margin;
        self
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

/// How much of a reward the score margin makes, when counted: enough to
/// rank losses (a close one above a rout) and wins, never enough to rank a
/// loss above a win.
pub const MARGIN_WEIGHT: f64 = 0.2;

/// Each player's reward: a share of the win (1 alone, 1/2 in a two-way
/// draw), nothing for a loss. With `margin`, the share is weighed down to
/// `1 - MARGIN_WEIGHT` and the rest is the player's lead over the best other
/// score relative to their sizes, `(mine - best) / (|mine| + |best|)`, from
/// 0 (a rout) through 1/2 (level) to 1: a playout lost closely teaches more
/// than a rout, which matters in long games where playouts rarely win.
fn rewards(o: &Outcome, players: usize, margin: bool, out: &mut Vec<f64>) {
    out.clear();
    out.resize(players, 0.0);
    let share = 1.0 / o.winners.len().max(1) as f64;
    for &w in &o.winners {
        if let Some(r) = out.get_mut(w as usize) {
            *r = share;
        }
    }
    if !margin || o.scores.len() != players || players < 2 {
        return;
    }
    for (p, r) in out.iter_mut().enumerate() {
        let best_other = (0..players)
            .filter(|&q| q != p)
            .map(|q| o.scores[q])
            .max()
            .unwrap_or(0);
        let mine = o.scores[p];
        let size = (mine.unsigned_abs() + best_other.unsigned_abs()).max(1) as f64;
        let lead = ((mine - best_other) as f64 / size).clamp(-1.0, 1.0);
        *r = *r * (1.0 - MARGIN_WEIGHT) + MARGIN_WEIGHT * (lead + 1.0) / 2.0;
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
            let r = copy.fork_from(point, seed);
            let mut run = self.run.lock().unwrap_or_else(|e| e.into_inner());
            match r {
                Ok(o) => {
                    rewards(&o, players, self.margin, &mut reward);
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
        Box::new(Ismcts::new(self.budget, self.policy, self.seed).with_margin(self.margin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Ended;

    fn outcome(winners: Vec<u8>, scores: Vec<i64>) -> Outcome {
        Outcome {
            winners,
            scores,
            turns: 1,
            turns_taken: vec![1, 1],
            limit: false,
            ended: Ended::Rule,
            rule: None,
            lost: vec![],
            tiebreaks: None,
        }
    }

    #[test]
    fn margin_ranks_close_losses_above_routs_and_never_above_a_win() {
        let mut r = Vec::new();
        rewards(&outcome(vec![0], vec![10, 9]), 2, false, &mut r);
        assert_eq!(r, vec![1.0, 0.0]);
        rewards(&outcome(vec![0], vec![10, 9]), 2, true, &mut r);
        let close = r[1];
        assert!(r[0] > 0.8 && r[0] <= 1.0, "{r:?}");
        rewards(&outcome(vec![0], vec![30, 0]), 2, true, &mut r);
        let rout = r[1];
        assert!(close > rout, "close loss {close} vs rout {rout}");
        assert!(close < 1.0 - MARGIN_WEIGHT, "a loss stays below any win");
        rewards(&outcome(vec![0, 1], vec![5, 5]), 2, true, &mut r);
        assert_eq!(r[0], r[1]);
    }
}
