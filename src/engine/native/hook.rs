//! The rules' own code run once or twice a turn (a clean-up phase, the
//! turn's end) as one fixed sequence: counters set to constants, verb calls
//! that move a whole zone, a `for .. where` that moves a zone whole, a call
//! of a call of a top-card loop. Run by [`Hook::exec`] with no frame, no
//! closure and no leaf dispatch while nothing sees it; the first leaf that
//! cannot run in place (and a top-card loop from the iteration that cannot)
//! runs as compiled, in a frame made then. Steps, depth and spans are as
//! the compiled leaves leave them.

use super::{Leaf, Num, TopLoop, ZoneAt, run};
use crate::data::Data;
use crate::engine::exec::{self, Frame, MAX_LOOP};
use crate::engine::{Flow, Game, MAX_STEPS, Res};
use crate::lang::ir::{AssignOp, Span};
use crate::value::{ObjId, PlayerId, Value, ZoneRef};

/// A block of leaves all of the kinds [`Hook::exec`] runs in place.
pub struct Hook {
    pub(super) leaves: Box<[Leaf]>,
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

/// The top-card loop of a `verb(..)` whose body is `verb2(..)` whose body
/// is that loop.
fn top_call(body: &[Leaf]) -> Option<(&i64, &TopLoop, Span)> {
    match body {
        [Leaf::Call { body, at, .. }] => match &**body {
            [Leaf::Top(n, each)] => Some((n, each, *at)),
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

    /// Runs the block for player `p` in code with `n` frame slots,
    /// starting at `span`; a `return` is left to the caller to catch.
    pub fn exec(&self, g: &mut Game, data: &Data, p: PlayerId, n: usize, span: Span) -> Res<()> {
        let mut span = span;
        // A loop's locals (slot, card) as a moved zone left them.
        let mut last: Option<(usize, usize, ObjId)> = None;
        for (i, l) in self.leaves.iter().enumerate() {
            match l {
                Leaf::Counter {
                    c,
                    op,
                    num: Num::Const(k),
                    span: s,
                } => {
                    span = *s;
                    let old = g.st.counter(p, *c);
                    let new = match op {
                        AssignOp::Set => *k,
                        AssignOp::Add => old.saturating_add(*k),
                        AssignOp::Sub => old.saturating_sub(*k),
                    };
                    g.set_counter(p, *c, new);
                    continue;
                }
                Leaf::Call { body, span: s, .. } => {
                    if let [
                        Leaf::Zones {
                            from, to, cause, ..
                        },
                    ] = &**body
                    {
                        if g.steps < MAX_STEPS
                            && g.depth < 200
                            && let (Some(a), Some(b)) = (find(*from, p), find(*to, p))
                            && g.quiet_move(*cause)
                            && g.st.move_zone(a, b, None)
                        {
                            g.steps += 1;
                            span = *s;
                            continue;
                        }
                    } else if let Some((&k, each, at)) = top_call(body)
                        && g.steps + 2 <= MAX_STEPS
                        && g.depth + 2 <= 200
                        && k <= MAX_LOOP as i64
                    {
                        g.steps += 2;
                        g.depth += 2;
                        let (left, at) = each.quiet(g, p, k.max(0), at);
                        if left > 0 {
                            // The loop's rest, then the leaves after it,
                            // as compiled.
                            return frame(g, data, p, n, at, last, |g, f| {
                                let r = each.run(g, f, left);
                                f.span = *s;
                                g.depth -= 2;
                                match r {
                                    Err(e) if !matches!(*e, Flow::Return(_)) => return Err(e),
                                    _ => {}
                                }
                                run(&self.leaves[i + 1..], g, f)
                            });
                        }
                        g.depth -= 2;
                        span = *s;
                        continue;
                    }
                }
                Leaf::WholeMove {
                    zone,
                    test: (mask, negate),
                    mv: (to, cause, _, s),
                    slots: (it, x),
                    ..
                } if last.is_none()
                    && g.viewer.is_none()
                    && let (Some(z), Some(to)) = (find(*zone, p), find(*to, p))
                    && g.quiet_move(*cause) =>
                {
                    // As `whole_move`, the locals set only if a frame is
                    // made.
                    let zi = &g.st.zones[g.st.inst(z)];
                    let k = zi.cards.len();
                    if zi.piles.is_empty()
                        && g.steps + k as u64 <= MAX_STEPS
                        && (zi.cards.iter()).all(|&c| (g.st.tags(c) & mask != 0) != *negate)
                    {
                        let Some(&bottom) = zi.cards.first() else {
                            continue;
                        };
                        if g.st.move_zone(z, to, None) {
                            g.steps += k as u64;
                            last = Some((*it, *x, bottom));
                            span = *s;
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

/// Runs `body` in a frame of `n` slots for player `p` at `span`, the
/// locals a moved zone left set.
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
    let mut buf = exec::Slots::new();
    let slots = buf.get(n);
    if let Some((it, x, c)) = last {
        slots[it] = Value::Card(c);
        slots[x] = Value::Card(c);
    }
    let mut f = Frame {
        data,
        this: None,
        me: p,
        slots,
        span,
        move_name: None,
    };
    let r = body(g, &mut f);
    buf.empty(n);
    r
}

impl TopLoop {
    /// [`TopLoop::run`] of `n` iterations for player `p`, in place while no
    /// closure would run: the iterations left (to run as compiled, from
    /// their start) and the span they start at.
    pub(super) fn quiet(&self, g: &mut Game, p: PlayerId, n: i64, span: Span) -> (i64, Span) {
        let (Some(a), Some(dst)) = (find(self.from, p), find(self.to, p)) else {
            return (n, span);
        };
        if g.viewer.is_some() {
            return (n, span);
        }
        let src = g.st.inst(a);
        let mut span = span;
        let mut i = 0;
        while i < n {
            if let Some(k) = self.quiet_run(g, src, n - i) {
                g.steps += k as u64;
                g.st.move_tops(src, dst, k);
                span = self.span;
                i += k as i64;
                continue;
            }
            // One iteration: its step, the refill in place if the test
            // holds, the top card moved; none of it where any would not be.
            if g.steps >= MAX_STEPS || !g.quiet_move(self.cause) {
                break;
            }
            if let Some((op, k, ..)) = &self.test {
                let zi = &g.st.zones[src];
                let size = zi.cards.len() + zi.piles.iter().map(|(_, p)| p.len()).sum::<usize>();
                if op.holds(size as i64, *k) && !self.swap_in(g, p, a, src) {
                    break;
                }
            }
            // The test holds no more, or there is none: the move in place.
            if g.st.zones[src].cards.is_empty() {
                break;
            }
            g.steps += 1;
            g.st.move_top(src, dst);
            span = self.span;
            i += 1;
        }
        (n - i, span)
    }

    /// [`TopLoop::swap`] with no frame, done only if a card is on top
    /// after it; false, nothing done, otherwise.
    fn swap_in(&self, g: &mut Game, p: PlayerId, a: ZoneRef, src: usize) -> bool {
        let Some(w) = &self.swap else { return false };
        let Some(b) = find(w.from, p) else {
            return false;
        };
        let (op, k) = w.test;
        let bi = g.st.inst(b);
        if !g.quiet_move(w.cause)
            || op.holds(g.st.size(b) as i64, k)
            || g.st.zones[bi].cards.is_empty() && g.st.zones[src].cards.is_empty()
        {
            return false;
        }
        if !g.st.move_zone(b, a, None) {
            return false;
        }
        g.st.shuffle(a);
        true
    }
}
