//! The rules' own code run once or twice a turn (a clean-up phase, the
//! turn's end) as one fixed sequence: counters set to constants, verb calls
//! that move a whole zone, a `for .. where` that moves a zone whole, a call
//! of a call of a top-card loop. Run by [`Hook::exec`] with no slots, no
//! closure and no leaf dispatch while nothing sees it; the first leaf that
//! cannot run in place (and a top-card loop from the iteration that cannot)
//! runs as compiled, with the slots made then. Steps, depth and spans are as
//! the compiled leaves leave them.

use super::{Leaf, Num, TopLoop, ZoneAt, first_hold, run};
use crate::data::Data;
use crate::engine::exec::{Charge, Enter, Frame, MAX_LOOP};
use crate::engine::ops::event_mask;
use crate::engine::{Flow, Game, MAX_DEPTH, Res};
use crate::lang::ir::{AssignOp, Span};
use crate::value::{ObjId, PlayerId, Value, ZoneRef};

/// A block of leaves all of the kinds [`Hook::exec`] runs in place, with
/// what the checks of all of them need found once: the leaves' steps as
/// decoded, the events their moves raise, the most steps they take.
pub struct Hook {
    pub(super) leaves: Box<[Leaf]>,
    steps: Box<[Step]>,
    events: Box<[u16]>,
    /// The events' bits ([`event_mask`]).
    mask: u64,
    /// Steps the leaves take beyond one a card of each whole-zone move and
    /// of each shuffle a top-card loop's refill may do (a zone move's step
    /// a card is checked as it comes, with room for all these left after
    /// it: [`Hook::reserve`]).
    most: u64,
    wholes: u64,
    shuffles: u64,
    /// Every leaf a counter's change.
    counters: bool,
}

/// A leaf as [`Hook::exec`] runs it, and the span it leaves.
enum Step {
    Counter(u16, AssignOp, i64, Span),
    /// From, to, the move's cause.
    Zones(ZoneAt, ZoneAt, Option<u16>, Span),
    Whole {
        zone: ZoneAt,
        to: ZoneAt,
        cause: Option<u16>,
        mask: u64,
        negate: bool,
        slots: (usize, usize),
        span: Span,
    },
    /// Leaf `i` is a call of a call of a top-card loop of `k` iterations.
    Top(i64),
    /// A leaf always run as compiled.
    Compiled,
}

/// A zone found with no frame: none for a local's.
#[inline(always)]
fn find(z: ZoneAt, p: PlayerId) -> Option<ZoneRef> {
    match z {
        ZoneAt::Fixed(z) => Some(z),
        ZoneAt::Mine(zone) => Some(ZoneRef { zone, owner: p }),
        ZoneAt::Slot(..) => None,
    }
}

/// A counter of player `p` set to, raised or lowered by a constant.
#[inline(always)]
fn set_const(g: &mut Game, p: PlayerId, c: u16, op: AssignOp, k: i64) {
    let old = g.st.counter(p, c);
    let new = op.apply(old, k);
    g.set_counter(p, c, new);
}

/// The top-card loop of a `verb(..)` whose body is `verb2(..)` whose body
/// is that loop.
fn top_call(body: &[Leaf]) -> Option<(&i64, &TopLoop, Span)> {
    match body {
        [Leaf::Call { body, at, .. }] => match &**body {
            [Leaf::Top(n, each)] if each.calls == 0 => Some((n, each, *at)),
            _ => None,
        },
        _ => None,
    }
}

impl Hook {
    /// A block worth running as a hook: two leaves or more, each one
    /// [`Hook::exec`] knows.
    pub(super) fn fits(leaves: &[Leaf]) -> bool {
        leaves.len() >= 2
            && leaves.iter().all(|l| match l {
                Leaf::Counter { num, .. } => matches!(num, Num::Const(_)),
                Leaf::Call { body, .. } => {
                    matches!(&**body, [Leaf::Zones { .. }]) || top_call(body).is_some()
                }
                Leaf::WholeMove { .. } => true,
                _ => false,
            })
    }

    /// The hook of leaves that [`Hook::fits`].
    pub(super) fn new(leaves: Box<[Leaf]>) -> Hook {
        let mut events = Vec::new();
        let (mut most, mut wholes, mut shuffles) = (0u64, 0u64, 0u64);
        let steps = (leaves.iter())
            .map(|l| match l {
                Leaf::Counter {
                    c,
                    op,
                    num: Num::Const(k),
                    span,
                } => Step::Counter(*c, *op, *k, *span),
                Leaf::Call { body, span, .. } => match &**body {
                    [
                        Leaf::Zones {
                            from, to, cause, ..
                        },
                    ] => {
                        events.extend(*cause);
                        most += 1;
                        Step::Zones(*from, *to, *cause, *span)
                    }
                    _ => match top_call(body) {
                        Some((&k, each, _)) if k <= MAX_LOOP as i64 => {
                            events.extend(each.cause);
                            events.extend(each.swap.as_ref().and_then(|w| w.cause));
                            most += 2 + k.max(0) as u64;
                            // At most a refill an iteration.
                            if each.swap.is_some() {
                                shuffles += k.max(0) as u64;
                            }
                            Step::Top(k)
                        }
                        _ => Step::Compiled,
                    },
                },
                Leaf::WholeMove {
                    zone,
                    test: (mask, negate),
                    mv: (to, cause, _, span),
                    slots,
                    ..
                } => {
                    events.extend(*cause);
                    wholes += 1;
                    Step::Whole {
                        zone: *zone,
                        to: *to,
                        cause: *cause,
                        mask: *mask,
                        negate: *negate,
                        slots: *slots,
                        span: *span,
                    }
                }
                _ => Step::Compiled,
            })
            .collect::<Box<[Step]>>();
        let counters = steps.iter().all(|s| matches!(s, Step::Counter(..)));
        let mask = event_mask(&events);
        Hook {
            leaves,
            steps,
            events: events.into(),
            mask,
            most,
            wholes,
            shuffles,
            counters,
        }
    }

    /// Whether nothing sees the leaves run, within the step and depth
    /// limits whatever they find (but the moves of whole zones, checked as
    /// they come): each leaf's own checks hold.
    #[inline(always)]
    fn quiet(&self, g: &Game, reserve: u64) -> bool {
        !g.logging
            && g.viewer.is_none()
            && g.budget.depth() + 2 <= MAX_DEPTH
            && g.budget.room(reserve)
            && g.quiet_events(&self.events, self.mask)
    }

    /// The most steps the leaves take, but a zone move's step a card: a
    /// move of `n` cards in place needs room for `n` and this, so the
    /// leaves after it still fit.
    #[inline(always)]
    fn reserve(&self, g: &Game) -> u64 {
        self.most + (2 * self.wholes + self.shuffles) * g.st.objs.len() as u64
    }

    /// Runs the block in code with `n` frame slots, entered in a frame with
    /// none (`f`: its player, its span): the slots are made only if a leaf
    /// runs as compiled. A `return` is left to the caller to catch.
    #[inline(always)]
    pub fn exec(&self, g: &mut Game, f: &Frame, n: usize) -> Res<()> {
        let (data, p, span) = (f.data, f.me, f.span);
        // Counters only (a turn's end): no check, no slots.
        if self.counters {
            for s in &self.steps {
                if let Step::Counter(c, op, k, _) = *s {
                    set_const(g, p, c, op, k);
                }
            }
            return Ok(());
        }
        self.steps_in(g, data, p, n, span)
    }

    /// [`Hook::exec`] of leaves not all counters.
    #[inline(never)]
    fn steps_in(&self, g: &mut Game, data: &Data, p: PlayerId, n: usize, span: Span) -> Res<()> {
        let reserve = self.reserve(g);
        if !self.quiet(g, reserve) {
            return frame(g, data, p, n, span, None, |g, f| run(&self.leaves, g, f));
        }
        let mut span = span;
        // A loop's locals (slot, card) as a moved zone left them.
        let mut last: Option<(usize, usize, ObjId)> = None;
        for (i, s) in self.steps.iter().enumerate() {
            match *s {
                Step::Counter(c, op, k, s) => {
                    set_const(g, p, c, op, k);
                    span = s;
                    continue;
                }
                Step::Zones(from, to, cause, s) => {
                    if let (Some(a), Some(b)) = (find(from, p), find(to, p))
                        && let moved = g.st.listed(a) as u64
                        && g.budget.room(moved + reserve)
                        && g.quiet_zone(a, b, None, cause)
                    {
                        // The call's step and the move's step a card.
                        g.budget.spend(1 + moved);
                        span = s;
                        continue;
                    }
                }
                Step::Top(k) => {
                    let Leaf::Call { body, span: s, .. } = &self.leaves[i] else {
                        unreachable!()
                    };
                    let Some((_, each, at)) = top_call(body) else {
                        unreachable!()
                    };
                    g.budget.spend(2);
                    g.budget.descend(2);
                    let (left, at) = each.quiet(g, p, k.max(0), at, reserve);
                    if left > 0 {
                        // The loop's rest, then the leaves after it,
                        // as compiled.
                        return frame(g, data, p, n, at, last, |g, f| {
                            let r = each.run(g, f, left);
                            f.span = *s;
                            g.budget.ascend(2);
                            match r {
                                Err(e) if !matches!(*e, Flow::Return(_)) => return Err(e),
                                _ => {}
                            }
                            run(&self.leaves[i + 1..], g, f)
                        });
                    }
                    g.budget.ascend(2);
                    span = *s;
                    continue;
                }
                Step::Whole {
                    zone,
                    to,
                    cause,
                    mask,
                    negate,
                    slots: (it, x),
                    span: s,
                } if last.is_none()
                    && let (Some(z), Some(to)) = (find(zone, p), find(to, p)) =>
                {
                    // As `whole_move`, the locals set only if a frame is
                    // made.
                    let zi = &g.st.zones[g.st.inst(z)];
                    if zi.piles.is_empty()
                        && (zi.cards.iter()).all(|&c| (g.st.tags(c) & mask != 0) != negate)
                    {
                        let k = zi.cards.len();
                        let Some(&bottom) = zi.cards.first() else {
                            continue;
                        };
                        if g.quiet_zone(z, to, None, cause) {
                            // The walk and a round a card, as `whole_move`.
                            g.budget.spend(2 * k as u64);
                            last = Some((it, x, bottom));
                            span = s;
                            continue;
                        }
                    }
                }
                _ => {}
            }
            return frame(g, data, p, n, span, last, |g, f| {
                run(&self.leaves[i..], g, f)
            });
        }
        Ok(())
    }
}

/// Runs `body` with the hook's `n` slots for player `p` at `span`, the
/// locals a moved zone left set: the frame the hook entered, made again
/// with its slots ([`Charge::Within`]).
#[inline(never)]
fn frame(
    g: &mut Game,
    data: &Data,
    p: PlayerId,
    n: usize,
    span: Span,
    last: Option<(usize, usize, ObjId)>,
    body: impl FnOnce(&mut Game, &mut Frame) -> Res<()>,
) -> Res<()> {
    let e = Enter {
        data,
        this: None,
        me: p,
        span,
        move_name: None,
    };
    let bind = |slots: &mut [Value]| {
        if let Some((it, x, c)) = last {
            slots[it] = Value::Card(c);
            slots[x] = Value::Card(c);
        }
    };
    g.framed(Charge::Within, e, n, bind, body)
}

impl TopLoop {
    /// [`TopLoop::run`] of `n` iterations for player `p`, in place where
    /// [`Hook::quiet`] holds (so does every check of quietness and steps of
    /// the iterations, but a refill's move, which needs room for its cards
    /// and `reserve` more): the iterations left (to run as compiled, from
    /// their start) and the span they start at.
    #[inline(always)]
    pub(super) fn quiet(
        &self,
        g: &mut Game,
        p: PlayerId,
        n: i64,
        span: Span,
        reserve: u64,
    ) -> (i64, Span) {
        let (Some(a), Some(dst)) = (find(self.from, p), find(self.to, p)) else {
            return (n, span);
        };
        let src = g.st.inst(a);
        let mut span = span;
        let mut i = 0;
        while i < n {
            // The moves before the test would hold, at once.
            let zi = &g.st.zones[src];
            let size = zi.cards.len() as i64;
            if zi.piles.is_empty() {
                let mut k = (n - i).min(size);
                if let Some((op, k0, ..)) = &self.test {
                    k = k.min(first_hold(*op, *k0, size));
                }
                if k > 0 {
                    g.budget.spend(k as u64);
                    g.quiet_tops(src, dst, k as usize, self.cause);
                    span = self.span;
                    i += k;
                    continue;
                }
            }
            // One iteration: the refill in place if the test holds, the
            // top card moved; none of it where either cannot be.
            if let Some((op, k, ..)) = &self.test {
                let size = zi.size();
                if op.holds(size as i64, *k) && !self.swap_in(g, p, a, src, reserve) {
                    break;
                }
            }
            if g.st.zones[src].cards.is_empty() {
                break;
            }
            g.budget.spend(1);
            g.quiet_top(src, dst, self.cause);
            span = self.span;
            i += 1;
        }
        (n - i, span)
    }

    /// [`TopLoop::swap`] with no frame, done only if a card is on top
    /// after it; false, nothing done, otherwise.
    #[inline(always)]
    fn swap_in(&self, g: &mut Game, p: PlayerId, a: ZoneRef, src: usize, reserve: u64) -> bool {
        let Some(w) = &self.swap else { return false };
        let Some(b) = find(w.from, p) else {
            return false;
        };
        let (op, k) = w.test;
        let bi = g.st.inst(b);
        if op.holds(g.st.size(b) as i64, k)
            || g.st.zones[bi].cards.is_empty() && g.st.zones[src].cards.is_empty()
        {
            return false;
        }
        let moved = g.st.listed(b) as u64;
        if !g.st.zones[src].piles.is_empty()
            || !g.budget.room(moved + reserve)
            || !g.quiet_zone(b, a, None, w.cause)
        {
            return false;
        }
        g.st.shuffle(a);
        // The move's step a card, the shuffle's (room for it found by
        // [`Hook::quiet`]).
        g.budget.spend(moved + g.st.zones[src].cards.len() as u64);
        true
    }
}
