//! The rules' end check, decided again only when a value it reads changed.
//! Games that check it after every action ask it hundreds of times a game,
//! mostly with nothing it reads changed since the last time. A quiet end
//! check ([`super::quiet`]) reads a known, short list of values (a counter
//! of each player, the size of each player's zone, who has lost); kept
//! with its truth and the steps it cost, they answer the next check when
//! they are all the same. The values decide the truth and the steps
//! completely, so a kept answer is the one deciding again would give.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::quiet::{Probe, Quiet, read_probes};
use crate::engine::Game;
use crate::value::PlayerId;

/// The most values kept: a check reading more is decided every time.
const VALUES: usize = 32;

/// A quiet end check and the values it reads.
pub struct EndCheck {
    tree: Quiet,
    /// None where the tree reads the event or walks no players: decided
    /// every time.
    probes: Option<Box<[Probe]>>,
    /// Tells this check's kept answer from another's on the same thread.
    id: u64,
}

/// The last answer of a check on this thread.
struct Kept {
    id: u64,
    values: [i64; VALUES],
    len: usize,
    holds: bool,
    steps: u64,
}

thread_local! {
    static KEPT: RefCell<Kept> = const {
        RefCell::new(Kept { id: 0, values: [0; VALUES], len: 0, holds: false, steps: 0 })
    };
}

impl EndCheck {
    pub fn new(tree: Quiet) -> EndCheck {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let mut probes = Vec::new();
        // Kept only where it walks the players: a check of a few values
        // is decided for less than looking them up.
        let probes = (tree.probes(&mut probes))
            .filter(|()| probes.contains(&Probe::Players))
            .map(|()| probes.into_boxed_slice());
        EndCheck {
            tree,
            probes,
            id: NEXT.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The check's truth for player `me` and the steps its lists cost
    /// ([`Quiet::decide_counted`]), kept or decided again.
    pub fn decide(&self, g: &Game, me: PlayerId) -> Option<(bool, u64)> {
        let Some(probes) = &self.probes else {
            return self.tree.decide_counted(g, me);
        };
        KEPT.with_borrow_mut(|k| {
            // The values are read over the kept ones, compared as they come:
            // nothing copied, on a hit or a miss.
            let (kept, mut same, mut len) = (k.len, k.id == self.id, 0);
            let read = read_probes(probes, g, me, |v| {
                let slot = k.values.get_mut(len)?;
                same &= len < kept && *slot == v;
                *slot = v;
                len += 1;
                Some(())
            });
            if read.is_some() && same && len == kept {
                return Some((k.holds, k.steps));
            }
            // The kept values are written over: kept again once decided.
            k.id = 0;
            if read.is_none() {
                return self.tree.decide_counted(g, me);
            }
            let (holds, steps) = self.tree.decide_counted(g, me)?;
            (k.id, k.len, k.holds, k.steps) = (self.id, len, holds, steps);
            Some((holds, steps))
        })
    }
}
