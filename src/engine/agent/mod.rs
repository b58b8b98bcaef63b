//! Agents: whoever answers a seat's requests. The kernel asks through the one
//! [`Agent`] trait and never asks which agent it is, except that a data bot
//! says so ([`Agent::data_bot`]): its rules are then weighed in place (no
//! request made), and a speed tier may decide a window without listing the
//! moves ([`super::tier::Tier::window`]); and an agent that reads nothing
//! (first, random) names its pick of `n` options ([`Agent::blind`]), so a
//! window round or a one-pick choice builds no request for it.

mod bot;
mod replay;
mod scripted;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use bot::DataBot;
pub use replay::Replay;
pub use scripted::{Script, Scripted, index, names, pick};

use super::request::{Picks, Request};
use super::state::below;
use super::{Game, Res};
use crate::data::Data;

/// Answers requests for one seat.
pub trait Agent: Send + Sync {
    /// The indices of the options picked: `req.min` to `req.max` distinct
    /// ones (the kernel checks). `g` is the game as it stands; an agent
    /// that looks should look through [`Request::view`].
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks>;

    /// Seated at `seat` in a game started from `seed` (a new game, or the
    /// same seat's next one).
    fn seat(&mut self, _seed: u64, _seat: usize) {}

    /// The rules bot this agent is, by index into `Data::bots`: asked
    /// when it takes its seat, and the answer kept while it sits.
    fn data_bot(&self) -> Option<usize> {
        None
    }

    /// The option it would pick of a one-pick request of `n` options,
    /// for an agent that reads neither the game nor the options (first,
    /// random): a window round or a one-pick choice then builds no
    /// request, and the answer is the one [`Agent::answer`] would give,
    /// drawn the same way.
    fn blind(&mut self, _n: usize) -> Option<usize> {
        None
    }

    /// The options it would pick of a request of `n` options wanting `min`
    /// to `max` of them (both at most `n`), for an agent that reads neither
    /// the game nor the options: a choice then builds no request, and the
    /// answer is the one [`Agent::answer`] would give, drawn the same way.
    fn blind_picks(&mut self, _n: usize, _min: usize, _max: usize) -> Option<Picks> {
        None
    }

    /// Whether it forks the game it is asked in: the kernel then keeps a
    /// point the game can be resumed from ([`Game::fork_point`]). Asked
    /// when it takes its seat.
    fn forks(&self) -> bool {
        false
    }

    /// A copy for another game (configurations are cloned per game).
    fn boxed(&self) -> Box<dyn Agent>;
}

impl Clone for Box<dyn Agent> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}

/// Takes the first options it may.
#[derive(Clone, Copy, Default)]
pub struct First;

/// The first options, `min` of them (at least one, at most `max`).
fn first_picks(min: usize, max: usize) -> Picks {
    (0..min.max(1).min(max)).collect()
}

impl Agent for First {
    fn answer(&mut self, _: &mut Game, req: &Request) -> Res<Picks> {
        Ok(first_picks(req.min, req.max))
    }

    fn blind(&mut self, _n: usize) -> Option<usize> {
        Some(0)
    }

    fn blind_picks(&mut self, _n: usize, min: usize, max: usize) -> Option<Picks> {
        Some(first_picks(min, max))
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(*self)
    }
}

/// Picks at random from its own seeded stream (derived from the game's seed
/// and its seat), so its answers do not move the game's own RNG.
#[derive(Clone)]
pub struct Random(ChaCha8Rng);

impl Default for Random {
    fn default() -> Random {
        Random(ChaCha8Rng::seed_from_u64(0))
    }
}

impl Agent for Random {
    fn answer(&mut self, _: &mut Game, req: &Request) -> Res<Picks> {
        Ok(self.picks(req.options.len(), req.min, req.max))
    }

    /// `answer`'s draws for one pick: the count, `1 + below(1)`, draws
    /// nothing; the pick is `below(n)`.
    fn blind(&mut self, n: usize) -> Option<usize> {
        Some(below(&mut self.0, n))
    }

    fn blind_picks(&mut self, n: usize, min: usize, max: usize) -> Option<Picks> {
        Some(self.picks(n, min, max))
    }

    fn seat(&mut self, seed: u64, seat: usize) {
        self.0 =
            ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seat as u64 + 1));
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

impl Random {
    /// `min` to `max` distinct indices below `n`: how many drawn first.
    fn picks(&mut self, n: usize, min: usize, max: usize) -> Picks {
        let rng = &mut self.0;
        let k = min + below(rng, max - min + 1);
        // One pick (most requests): the draw the pool below would make.
        if k == 1 {
            let mut one = Picks::new();
            one.push(below(rng, n));
            return one;
        }
        draw_distinct(rng, n, k)
    }
}

/// `k` distinct indices below `n`, sorted: each the `below(left)`-th of
/// those not yet drawn, in turn. Past 64 the ones left are counted in a
/// Fenwick tree, so an order of thousands of options draws in n·log n
/// (taking each out of a list of those left was n² for the same draws).
fn draw_distinct(rng: &mut ChaCha8Rng, n: usize, k: usize) -> Picks {
    if n <= 64 {
        // Those left a bit each (no list to allocate past 4): the `r`th
        // left is the `r`th lowest set bit.
        let mut left = u64::MAX >> (64 - n.max(1));
        let mut out: Picks = (0..k)
            .map(|j| {
                let mut m = left;
                for _ in 0..below(rng, n - j) {
                    m &= m - 1;
                }
                let i = m.trailing_zeros();
                left &= !(1 << i);
                i as usize
            })
            .collect();
        out.sort_unstable();
        return out;
    }
    // tree[i] counts the indices left in (i - lowbit(i), i], 1-based.
    let mut tree = vec![0usize; n + 1];
    for i in 1..=n {
        tree[i] += 1;
        let j = i + (i & i.wrapping_neg());
        if j <= n {
            tree[j] += tree[i];
        }
    }
    let top = 1usize << (usize::BITS - 1 - n.leading_zeros());
    let mut out: Picks = (0..k)
        .map(|j| {
            let mut r = below(rng, n - j);
            let (mut pos, mut step) = (0, top);
            while step > 0 {
                if pos + step <= n && tree[pos + step] <= r {
                    pos += step;
                    r -= tree[pos];
                }
                step >>= 1;
            }
            let mut i = pos + 1;
            while i <= n {
                tree[i] -= 1;
                i += i & i.wrapping_neg();
            }
            pos
        })
        .collect();
    out.sort_unstable();
    out
}

/// The agents known by name to the kernel: `first`, `random`, or a bot of
/// the rules. (People and remote players are agents of the layers above.)
pub fn parse(name: &str, data: &Data) -> Option<Box<dyn Agent>> {
    Some(match name {
        "first" => Box::new(First),
        "random" => Box::new(Random::default()),
        other => Box::new(DataBot(data.bot(other)?)),
    })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The bits and the tree draw what taking each out of a list of those
    /// left draws.
    #[test]
    fn distinct_draws_match_the_list() {
        let small = [(0, 0), (1, 1), (6, 2), (7, 7), (63, 5), (64, 64), (64, 3)];
        let big = [(65, 1), (65, 65), (100, 37), (1000, 999), (300, 2)];
        for (n, k) in small.into_iter().chain(big) {
            let (mut a, mut b) = (
                ChaCha8Rng::seed_from_u64(n as u64),
                ChaCha8Rng::seed_from_u64(n as u64),
            );
            let mut pool: Vec<usize> = (0..n).collect();
            let mut want: Vec<usize> = (0..k)
                .map(|_| pool.remove(super::below(&mut a, pool.len())))
                .collect();
            want.sort_unstable();
            assert_eq!(
                super::draw_distinct(&mut b, n, k).to_vec(),
                want,
                "n {n} k {k}"
            );
        }
    }
}
