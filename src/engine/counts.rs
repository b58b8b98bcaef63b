//! Moves counted per player, card and kind, for the balance lab: a move
//! whose cause is one of the rules' `stats:` events ([`Data::stats`]) counts
//! once per card, for the card's owner after the move. Off unless asked
//! ([`Game::count_moves`]). The kernel's move path counts (`after_move`);
//! the speed tier's quiet moves (nothing logged or listening) count through
//! the [`Game`] methods below, so counting leaves them quiet: off, it costs
//! them one test.

use super::state::Obj;
use super::{Game, Res};
use crate::data::{Data, STAT_KINDS};
use crate::lang::ir::Span;
use crate::value::{DefId, ObjId, PlayerId, Value, ZoneRef};

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
        self.bump(kinds, player, def);
    }

    /// [`MoveCounts::add`] for each of `cards`, moved by `event`, with the
    /// event's kinds looked up once (nothing to do for most events).
    pub(crate) fn add_cards(&mut self, event: u16, objs: &[Obj], cards: &[ObjId]) {
        let kinds = self.kinds.get(event as usize).copied().unwrap_or(0);
        if kinds == 0 {
            return;
        }
        for &c in cards {
            let o = &objs[c as usize];
            self.bump(kinds, o.owner, o.def);
        }
    }

    /// One more of `def` for `player` in each of `kinds` (a bit per kind).
    #[inline(always)]
    fn bump(&mut self, kinds: u8, player: PlayerId, def: DefId) {
        for k in (0..KINDS).filter(|k| kinds & (1 << k) != 0) {
            let i = (player as usize * KINDS + k) * self.ndefs + def as usize;
            if let Some(n) = self.counts.get_mut(i) {
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

/// The speed tier's quiet moves: [`State`](super::state::State)'s moves,
/// then each moved card counted as `after_move` counts it.
impl Game {
    /// A quiet move of card `c` to the top of `to`, at `span`: the cards
    /// it passed over charged as [`Game::move_card`] charges them.
    #[inline(always)]
    pub(crate) fn quiet_relocate(
        &mut self,
        c: ObjId,
        to: ZoneRef,
        cause: Option<u16>,
        span: Span,
    ) -> Res<()> {
        let passed = self.st.relocate(c, to, false);
        self.count_moved(cause, c);
        self.charge_passed(span, passed)
    }

    /// A quiet move of the top card listed in zone instance `from`: the
    /// card, or None if it lists none.
    #[inline(always)]
    pub(crate) fn quiet_top(
        &mut self,
        from: usize,
        to: ZoneRef,
        cause: Option<u16>,
    ) -> Option<ObjId> {
        let c = self.st.move_top(from, to)?;
        self.count_moved(cause, c);
        Some(c)
    }

    /// `n` quiet moves of the top card of zone instance `from` (which lists
    /// at least `n` cards).
    #[inline(always)]
    pub(crate) fn quiet_tops(&mut self, from: usize, to: ZoneRef, n: usize, cause: Option<u16>) {
        if self.counts.is_some() {
            return self.counted_tops(from, to, n, cause);
        }
        self.st.move_tops(from, to, n);
    }

    /// A quiet move of every card of a zone to the top of another, as
    /// [`State::move_zone`](super::state::State::move_zone): false, nothing
    /// moved, where it cannot.
    #[inline(always)]
    pub(crate) fn quiet_zone(
        &mut self,
        from: ZoneRef,
        to: ZoneRef,
        out: Option<&mut Vec<Value>>,
        cause: Option<u16>,
    ) -> bool {
        if self.counts.is_some() {
            return self.counted_zone(from, to, out, cause);
        }
        self.st.move_zone(from, to, out)
    }

    /// After a quiet move of card `c` caused by `cause`: counted, if
    /// counting.
    #[inline(always)]
    pub(crate) fn count_moved(&mut self, cause: Option<u16>, c: ObjId) {
        if self.counts.is_some()
            && let Some(e) = cause
        {
            self.count_one(e, c);
        }
    }

    #[inline(never)]
    fn count_one(&mut self, e: u16, c: ObjId) {
        if let Some(counts) = &mut self.counts {
            let o = &self.st.objs[c as usize];
            counts.add(e, o.owner, o.def);
        }
    }

    /// [`Game::quiet_tops`] while counting: the moved cards are the top
    /// `n` of the destination after the move (card by card onto piles or
    /// within one zone, as [`State::move_tops`](super::state::State::move_tops)
    /// moves them).
    #[inline(never)]
    fn counted_tops(&mut self, from: usize, to: ZoneRef, n: usize, cause: Option<u16>) {
        let dst = self.st.inst(to);
        if dst == from || self.st.is_piles(to) {
            for _ in 0..n {
                self.quiet_top(from, to, cause);
            }
            return;
        }
        self.st.move_tops(from, to, n);
        self.count_top(cause, dst, n);
    }

    /// [`Game::quiet_zone`] while counting: the moved cards are the top
    /// ones of the destination, a zone of cards, after the move.
    #[inline(never)]
    fn counted_zone(
        &mut self,
        from: ZoneRef,
        to: ZoneRef,
        out: Option<&mut Vec<Value>>,
        cause: Option<u16>,
    ) -> bool {
        let n = self.st.zones[self.st.inst(from)].cards.len();
        if !self.st.move_zone(from, to, out) {
            return false;
        }
        self.count_top(cause, self.st.inst(to), n);
        true
    }

    /// Counts the top `n` cards of zone instance `inst`, moved there by
    /// `cause`.
    fn count_top(&mut self, cause: Option<u16>, inst: usize, n: usize) {
        let (Some(counts), Some(e)) = (&mut self.counts, cause) else {
            return;
        };
        let cards = &self.st.zones[inst].cards;
        counts.add_cards(e, &self.st.objs, &cards[cards.len() - n..]);
    }
}
