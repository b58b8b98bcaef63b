//! Moves counted per player, card and kind, for the balance lab: a move
//! whose cause is one of the rules' `stats:` events ([`Data::stats`]) counts
//! once per card, for the card's owner after the move. Off unless asked
//! ([`Game::count_moves`]); while on, those events are never quiet, so every
//! tier moves such cards through the kernel's one move path, which counts.

use crate::data::{Data, STAT_KINDS};
use crate::value::{DefId, PlayerId};

/// How many kinds are counted.
pub const KINDS: usize = STAT_KINDS.len();

#[derive(Clone, Debug)]
pub struct MoveCounts {
    /// Per event: the kinds it counts as (a bit per kind).
    kinds: Vec<u8>,
    ndefs: usize,
    /// `[(player * KINDS + kind) * ndefs + def]`
    counts: Vec<u32>,
}

impl MoveCounts {
    pub fn new(data: &Data, players: u8) -> MoveCounts {
        let mut kinds = vec![0u8; data.names.events.len()];
        for (k, events) in data.stats.iter().enumerate() {
            for &e in events {
                kinds[e as usize] |= 1 << k;
            }
        }
        let ndefs = data.defs.len();
        MoveCounts {
            kinds,
            ndefs,
            counts: vec![0; players as usize * KINDS * ndefs],
        }
    }

    /// Whether moves caused by `event` are counted.
    #[inline]
    pub fn counts_event(&self, event: u16) -> bool {
        self.kinds.get(event as usize).is_some_and(|&k| k != 0)
    }

    pub(crate) fn add(&mut self, event: u16, player: PlayerId, def: DefId) {
        let kinds = self.kinds.get(event as usize).copied().unwrap_or(0);
        for k in 0..KINDS {
            if kinds & (1 << k) != 0
                && let Some(n) = self
                    .counts
                    .get_mut((player as usize * KINDS + k) * self.ndefs + def as usize)
            {
                *n += 1;
            }
        }
    }

    /// How many of `def`'s cards `player` moved as `kind` (an index of
    /// [`STAT_KINDS`]).
    pub fn get(&self, player: PlayerId, kind: usize, def: DefId) -> u32 {
        (self
            .counts
            .get((player as usize * KINDS + kind) * self.ndefs + def as usize))
        .copied()
        .unwrap_or(0)
    }

    /// Zero for a new game of `players` players.
    pub(crate) fn reset(&mut self, players: u8) {
        self.counts.clear();
        self.counts.resize(players as usize * KINDS * self.ndefs, 0);
    }
}
