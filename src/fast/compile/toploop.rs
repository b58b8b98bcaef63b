//! A loop that moves a zone's top card `n` times, refilling the zone when
//! it runs low ([`TopLoop`]): found once, a quiet move is a pop and a push.

use super::*;

/// `repeat n { if count(a) <op> k { refill }; move(top(a), b, cause) }`, or
/// with a refill called before the move ([`TopLoop::calls`]):
/// the zones are found once (again after the refill, which may change
/// anything) and a quiet move of the top card is a pop and a push; with a
/// bot deciding, an owner that is not a player or a loud move, the
/// statements run as compiled.
pub(super) struct TopLoop {
    pub(super) from: ZoneAt,
    pub(super) to: ZoneAt,
    pub(super) cause: Option<u16>,
    /// The move's span.
    pub(super) span: Span,
    /// The test: how the size of `from` compares, with what, the count's
    /// span and the refill.
    pub(super) test: Option<(CmpOp, i64, Span, StmtFn)>,
    /// The refill when it is `if count(b) <op> k { .. }; move_together(b,
    /// a, cause); shuffle(a)`: run in place when the test fails and nothing
    /// sees it.
    pub(super) swap: Option<Swap>,
    /// The move, and the whole body, as compiled.
    pub(super) mv: StmtFn,
    pub(super) body: StmtFn,
    /// The span each iteration leaves when it is not the move's: a counted
    /// `while` loop's increment.
    pub(super) end: Option<Span>,
    /// Verb calls before the move that do nothing while `from` has a card
    /// (a refill of an empty zone, however it is named): a step and a level
    /// each, an iteration. An iteration that finds `from` empty runs as
    /// compiled.
    pub(super) calls: u32,
}

/// [`TopLoop::swap`]: the zone refilled from, its test (as in
/// [`TopLoop::test`]), the move's cause, the shuffle's span.
pub(super) struct Swap {
    pub(super) from: ZoneAt,
    pub(super) test: (CmpOp, i64),
    pub(super) cause: Option<u16>,
    pub(super) shuffle: Span,
}

impl TopLoop {
    pub(super) fn run(&self, g: &mut Game, f: &mut Frame, n: i64) -> Res<()> {
        let mut at = None;
        let mut i = 0;
        while i < n {
            if at.is_none() && g.viewer.is_none() {
                at = match (self.from.find(f), self.to.find(f)) {
                    (Some(a), Some(b)) => Some((g.st.inst(a), b)),
                    _ => None,
                };
            }
            // The moves before the test would hold, when nothing sees
            // them: their steps counted, the cards moved in one go.
            if let Some((src, dst)) = at
                && let Some(k) = self.quiet_run(g, src, n - i)
            {
                g.budget.spend(k as u64 * (1 + self.calls as u64));
                g.quiet_tops(src, dst, k, self.cause);
                f.span = self.end.unwrap_or(self.span);
                i += k as i64;
                continue;
            }
            i += 1;
            g.tick(f.span)?;
            'one: {
                let Some((src, dst)) = at.filter(|_| g.viewer.is_none() && self.calls == 0) else {
                    at = None;
                    (self.body)(g, f)?;
                    break 'one;
                };
                if let Some((op, k, span, refill)) = &self.test {
                    f.span = *span;
                    let size = g.st.zones[src].size();
                    if op.holds(size as i64, *k) && !self.swap(g, f, src) {
                        at = None;
                        refill(g, f)?;
                        (self.mv)(g, f)?;
                        break 'one;
                    }
                }
                if g.quiet_move(self.cause) && g.quiet_top(src, dst, self.cause).is_some() {
                    f.span = self.span;
                    break 'one;
                }
                (self.mv)(g, f)?;
            }
            if let Some(end) = self.end {
                f.span = end;
            }
        }
        Ok(())
    }

    /// [`TopLoop::swap`] run in place, with the spans the statements
    /// leave; false, nothing done, where it cannot.
    #[inline(always)]
    pub(super) fn swap(&self, g: &mut Game, f: &mut Frame, src: usize) -> bool {
        let Some(w) = &self.swap else { return false };
        let (Some(b), Some(a)) = (w.from.find(f), self.from.find(f)) else {
            return false;
        };
        let (op, k) = w.test;
        if !g.quiet_move(w.cause) || op.holds(g.st.size(b) as i64, k) {
            return false;
        }
        // The move's step a card, then the shuffle's, as `move` and
        // `shuffle` charge them.
        let moved = g.st.listed(b);
        let shuffled = g.st.zones[src].cards.len() + g.st.size(b);
        if !g.st.zones[src].piles.is_empty() || !g.budget.room((moved + shuffled) as u64) {
            return false;
        }
        if !g.quiet_zone(b, a, None, w.cause) {
            return false;
        }
        g.st.shuffle(a);
        debug_assert_eq!(g.st.inst(a), src);
        debug_assert_eq!(g.st.zones[src].cards.len(), shuffled);
        g.budget.spend((moved + shuffled) as u64);
        f.span = w.shuffle;
        true
    }

    /// How many of the next `left` iterations (at least one) are quiet
    /// moves of the top card of zone instance `src`, the test never
    /// holding, within the step budget.
    #[inline(always)]
    pub(super) fn quiet_run(&self, g: &Game, src: usize, left: i64) -> Option<usize> {
        if g.viewer.is_some() || !g.quiet_move(self.cause) || !g.st.zones[src].piles.is_empty() {
            return None;
        }
        // The calls' depth checks pass (each enters one level).
        if self.calls > 0 && g.budget.depth() >= crate::engine::MAX_DEPTH {
            return None;
        }
        let size = g.st.zones[src].cards.len() as i64;
        let mut k = left.min(size);
        if let Some((op, k0, ..)) = &self.test {
            k = k.min(first_hold(*op, *k0, size));
        }
        let steps = k as u64 * (1 + self.calls as u64);
        (k > 0 && g.budget.room(steps)).then_some(k as usize)
    }
}

/// The fewest top cards taken from a zone of `size` cards after which
/// `count <op> k` holds (the count falls by one a card); `size` if it never
/// does before the zone is empty.
pub(super) fn first_hold(op: CmpOp, k: i64, size: i64) -> i64 {
    let at = match op {
        CmpOp::Eq if k <= size => size - k,
        CmpOp::Lt => size - k + 1,
        CmpOp::Le => size - k,
        CmpOp::Ne => (size == k) as i64,
        CmpOp::Gt | CmpOp::Ge if op.holds(size, k) => 0,
        _ => return size,
    };
    at.clamp(0, size)
}
