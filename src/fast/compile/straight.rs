//! Move bodies run in place: a straight run of counter changes, moves of
//! the card and quiet emits on one local's card, as one fixed sequence
//! with no closure per statement ([`Straight`]).

use super::*;
use crate::data::card_table::CardTable;
use crate::value::DefId;

/// A move body of leaves on one local's card, run in place: constant
/// changes of the running player's counters, changes by the card's
/// property (behind a tag test), moves of the card to zones found in
/// place, emits of events nothing listens to, inlined verb calls of such
/// leaves, and last, a `run` of an effect of the card. Where nothing can
/// see it, [`Straight::run`] runs it as one fixed sequence: the calls'
/// steps and depth, no closure, no leaf dispatch.
pub struct Straight {
    /// The card's slot.
    pub slot: usize,
    /// The verb calls (a step each) and how deep they nest.
    pub(super) calls: u32,
    pub(super) nest: u32,
    /// The events that must be quiet (a move's cause, an emit's event),
    /// and their bits when all are below 64 (else 0).
    pub(super) events: Vec<u16>,
    pub(super) mask: u64,
    pub(super) ops: Vec<Op>,
    /// The ops when the body moves its card at most once: its counter
    /// changes and its one move. With no modifier in play nothing they read
    /// depends on their order (a move changes no tag, property or counter),
    /// so [`Straight::run`] does them without dispatch: counters, then move.
    pub(super) ctrs: Option<Box<[Ctr]>>,
    /// The one move's destination, cause and span.
    pub(super) to: Option<(ZoneAt, Option<u16>, Span)>,
    /// Whether a call comes after a move: then the cards a move passes
    /// over are counted before the run ([`Straight::cost`]), else charged
    /// after each move at its span, as the leaves charge them.
    pub(super) late: bool,
    /// An effect run last, and how many calls deep.
    pub(super) run: Option<(u16, u32)>,
}

/// A [`Straight`] bound by [`Straight::bind`].
pub struct Bound<'s> {
    pub(super) ctrs: &'s [Ctr],
    /// The destination's instance and the owner a card takes there.
    pub(super) dst: usize,
    pub(super) owner: Option<PlayerId>,
    /// The player whose counters change.
    pub(super) me: PlayerId,
    /// The move's cause and span.
    pub(super) cause: Option<u16>,
    pub(super) span: Span,
    pub(super) calls: u64,
    /// Which definitions have the effect run last (none if no effect
    /// runs): a card of one is not played here.
    pub(super) run: &'s [bool],
}

impl Bound<'_> {
    /// [`Straight::run`] of the bound body (no call after its move) on
    /// card `c`, listed at index `i` of zone instance `from` (not the
    /// destination); false, with nothing done, for a card with the effect
    /// the body runs.
    #[inline(always)]
    pub fn play(&self, g: &mut Game, data: &Data, c: ObjId, from: usize, i: usize) -> Res<bool> {
        let o = &g.st.objs[c as usize];
        let (def, tags) = (o.def, o.tags);
        if self.run.get(def as usize) == Some(&true) {
            return Ok(false);
        }
        g.budget.spend(self.calls);
        Ctr::change(self.ctrs, g, self.me, tags, &data.table, def);
        let passed = g.st.move_listed(c, from, i, self.dst, self.owner);
        g.count_moved(self.cause, c);
        g.charge_passed(self.span, passed)?;
        Ok(true)
    }
}

/// A step of a [`Straight`] body.
pub(super) enum Op {
    /// To a zone, with a cause, at a span.
    Move(ZoneAt, Option<u16>, Span),
    Counter(Ctr),
}

#[derive(Clone, Copy)]
pub(super) enum By {
    Const(i64),
    Prop(u16),
}

/// A counter change of a [`Straight`]: the tag mask, negated?, the
/// counter, how it changes, by what.
#[derive(Clone, Copy)]
pub(super) struct Ctr(
    pub(super) u64,
    pub(super) bool,
    pub(super) u16,
    pub(super) AssignOp,
    pub(super) By,
);

impl Ctr {
    /// The changes for a card with `tags` of definition `def`, no modifier
    /// in play, on player `me`'s counters.
    #[inline(always)]
    pub(super) fn change(
        ctrs: &[Ctr],
        g: &mut Game,
        me: PlayerId,
        tags: u64,
        table: &CardTable,
        def: DefId,
    ) {
        for &Ctr(mask, negate, ctr, op, by) in ctrs {
            if (tags & mask != 0) != negate {
                let v = match by {
                    By::Const(k) => k,
                    By::Prop(pr) => table.prop(def, pr),
                };
                g.set_counter(me, ctr, op.apply(g.st.counter(me, ctr), v));
            }
        }
    }
}

impl Straight {
    pub(super) fn find(leaves: &[Leaf]) -> Option<Straight> {
        let mut s = Straight {
            slot: usize::MAX,
            calls: 0,
            nest: 0,
            events: Vec::new(),
            mask: 0,
            ops: Vec::new(),
            ctrs: None,
            to: None,
            late: false,
            run: None,
        };
        s.leaves(leaves, 0)?;
        let moves = s.ops.iter().filter(|o| matches!(o, Op::Move(..))).count();
        if moves <= 1 {
            let mut ctrs = Vec::new();
            for op in &s.ops {
                match *op {
                    Op::Move(to, cause, span) => s.to = Some((to, cause, span)),
                    Op::Counter(c) => ctrs.push(c),
                }
            }
            s.ctrs = Some(ctrs.into_boxed_slice());
        }
        s.mask = crate::engine::ops::event_mask(&s.events);
        (s.slot != usize::MAX).then_some(s)
    }

    pub(super) fn same(&mut self, slot: usize) -> bool {
        if self.slot == usize::MAX {
            self.slot = slot;
        }
        self.slot == slot
    }

    pub(super) fn leaves(&mut self, leaves: &[Leaf], nest: u32) -> Option<()> {
        let mut rest = leaves;
        while let [l, tail @ ..] = rest {
            rest = tail;
            // A run is last: its effect may change anything.
            if self.run.is_some() {
                return None;
            }
            let mut gate = (0, true);
            let l = match (l, tail) {
                (
                    Leaf::IfTag {
                        slot,
                        mask,
                        negate,
                        skip: 1,
                        ..
                    },
                    [c @ Leaf::Counter { .. }, tail @ ..],
                ) if self.same(*slot) => {
                    gate = (*mask, *negate);
                    rest = tail;
                    c
                }
                _ => l,
            };
            match l {
                Leaf::Move {
                    slot,
                    to,
                    cause,
                    span,
                    ..
                } if self.same(*slot) && !matches!(to, ZoneAt::Slot(..)) => {
                    self.events.extend(*cause);
                    self.ops.push(Op::Move(*to, *cause, *span));
                }
                Leaf::Counter { c, op, num, .. } => {
                    let by = match num {
                        Num::Const(k) => By::Const(*k),
                        Num::SlotProp(slot, pr, ..) if self.same(*slot) => By::Prop(*pr),
                        _ => return None,
                    };
                    self.ops.push(Op::Counter(Ctr(gate.0, gate.1, *c, *op, by)));
                }
                Leaf::Emit { slot, name, .. } if self.same(*slot) => {
                    self.events.push(*name);
                }
                Leaf::Run { slot, effect, .. } if self.same(*slot) => {
                    self.run = Some((*effect, nest));
                }
                Leaf::Call { body, .. } => {
                    self.late |= self.ops.iter().any(|o| matches!(o, Op::Move(..)));
                    self.calls += 1;
                    self.nest = self.nest.max(nest + 1);
                    self.leaves(body, nest + 1)?;
                }
                _ => return None,
            }
        }
        Some(())
    }

    /// Whether [`Straight::run`] on card `c` runs it as the leaves would,
    /// `depth` frames around it: nothing logged or waiting for its moves and
    /// events, its steps ([`Straight::cost`], returned) and depth within
    /// bounds (so no error).
    #[inline(always)]
    pub fn quiet(&self, g: &Game, depth: u32, c: ObjId) -> Option<u64> {
        let steps = self.cost(g, c, None);
        (g.budget.room(steps) && self.still(g, depth)).then_some(steps)
    }

    /// [`Straight::quiet`] but for the steps: holds while only such bodies
    /// run (no effect, nothing created).
    #[inline(always)]
    pub fn still(&self, g: &Game, depth: u32) -> bool {
        g.budget.depth() + depth + self.nest <= crate::engine::MAX_DEPTH
            && !g.logging
            && g.quiet_events(&self.events, self.mask)
    }

    /// The steps [`Straight::run`] counts before its effect.
    #[inline(always)]
    pub fn calls(&self) -> u64 {
        self.calls as u64
    }

    /// The steps [`Straight::run`] on card `c` (listed at `at`, if known)
    /// counts before it moves the card: its calls, and where a call comes
    /// after a move, the cards the first move passes over (as
    /// [`Game::charge_passed`] would charge them after the calls before it;
    /// a later move takes the card from the top).
    #[inline(always)]
    pub fn cost(&self, g: &Game, c: ObjId, at: Option<(usize, usize)>) -> u64 {
        self.calls() + self.passed(g, c, at)
    }

    /// The steps for the cards the first move of `c` passes over, counted
    /// before the run (a body with a call after a move).
    #[inline(always)]
    pub fn passed(&self, g: &Game, c: ObjId, at: Option<(usize, usize)>) -> u64 {
        if !self.late {
            return 0;
        }
        crate::engine::passed_steps(g.st.passed(c, at))
    }

    /// Whether the body may move its card into a zone declared `zone`.
    pub fn moves_into(&self, zone: u16) -> bool {
        self.ops.iter().any(|op| match op {
            Op::Move(ZoneAt::Fixed(z), ..) => z.zone == zone,
            Op::Move(ZoneAt::Mine(z) | ZoneAt::Slot(z, _), ..) => *z == zone,
            Op::Counter(..) => false,
        })
    }

    /// The body on card `c` for player `me`, `depth` frames around it, as
    /// [`run`] runs the leaves (`quiet` holds); a `return` ends it. True
    /// when it ran an effect (which may have changed anything). `at`: the
    /// zone instance and index the card is listed at, if known; `steps`:
    /// its [`Straight::cost`], known to fit.
    #[inline(always)]
    pub fn run(
        &self,
        g: &mut Game,
        data: &Data,
        me: PlayerId,
        (c, at): (ObjId, Option<(usize, usize)>),
        depth: u32,
        steps: u64,
    ) -> Res<bool> {
        // The calls' steps and the cards the move passes over: no code sees
        // them before the run, last.
        g.budget.spend(steps);
        // The card's definition and tags, read once (no step changes them).
        let o = &g.st.objs[c as usize];
        let (def, tags) = (o.def, o.tags);
        if let Some(ctrs) = &self.ctrs
            && g.st.mods.is_empty()
        {
            Ctr::change(ctrs, g, me, tags, &data.table, def);
            if let Some((to, cause, span)) = self.to {
                let passed = g.st.shift(c, at, to.mine(me));
                g.count_moved(cause, c);
                if !self.late {
                    g.charge_passed(span, passed)?;
                }
            }
        } else {
            self.ops_in_order(g, data, me, c, at)?;
        }
        if let Some((e, nest)) = self.run
            && data.table.effect(e).get(def as usize) == Some(&true)
            && let Some(Some(code)) = data.defs[def as usize].effects.get(e as usize)
        {
            g.budget.descend(depth + nest);
            let r = g.exec_in(data, code, Some(c), me, [Value::None], None);
            g.budget.ascend(depth + nest);
            if let Err(e) = r
                && !matches!(*e, Flow::Return(_))
            {
                return Err(e);
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The body bound for player `me`'s plays where it runs as counter
    /// changes and one move to a zone of cards (no effect, no modifier in
    /// play): what [`Straight::run`] looks up per play, found once.
    #[inline(always)]
    pub fn bind<'s>(&'s self, g: &Game, data: &'s Data, me: PlayerId) -> Option<Bound<'s>> {
        let (ctrs, (to, cause, span)) = (self.ctrs.as_deref()?, self.to?);
        if !g.st.mods.is_empty() || self.late {
            return None;
        }
        let (dst, owner) = g.st.card_dest(to.mine(me))?;
        Some(Bound {
            ctrs,
            dst,
            owner,
            me,
            cause,
            span,
            calls: self.calls as u64,
            run: self.run.map_or(&[][..], |(e, _)| data.table.effect(e)),
        })
    }

    /// The ops one by one, in order (a modifier may be in play).
    #[inline(never)]
    pub(super) fn ops_in_order(
        &self,
        g: &mut Game,
        data: &Data,
        me: PlayerId,
        c: ObjId,
        mut at: Option<(usize, usize)>,
    ) -> Res<()> {
        let o = &g.st.objs[c as usize];
        let (def, tags) = (o.def, o.tags);
        for op in &self.ops {
            match *op {
                Op::Move(to, cause, span) => {
                    let to = to.mine(me);
                    let passed = match at.take() {
                        Some((inst, i)) => g.st.relocate_at(c, inst, i, to),
                        None => g.st.relocate(c, to, false),
                    };
                    g.count_moved(cause, c);
                    if !self.late {
                        g.charge_passed(span, passed)?;
                    }
                }
                Op::Counter(Ctr(mask, negate, ctr, op, ref by)) => {
                    if (tags & mask != 0) != negate {
                        let v = match *by {
                            By::Const(k) => k,
                            By::Prop(pr) if g.st.mods.is_empty() => data.table.prop(def, pr),
                            By::Prop(pr) => g.st.prop(data, c, pr),
                        };
                        g.set_counter(me, ctr, op.apply(g.st.counter(me, ctr), v));
                    }
                }
            }
        }
        Ok(())
    }
}
