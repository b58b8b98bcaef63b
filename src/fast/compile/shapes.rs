//! Small recognised shapes: numbers read without a closure ([`Num`]), a
//! property summed over zones in place, tag tests of a local.

use super::*;

/// A number found without a closure call where it can be: constants,
/// counters, globals, zone sizes; other number code as a closure.
pub(super) enum Num {
    Const(i64),
    Global(usize),
    Counter(u16),
    Count(ZoneAt, Span),
    /// A card's property read from a slot (`card.cost`), with the span its
    /// conversion to a number reports: only where any value is converted
    /// (none is 0), as an assignment to a counter does.
    SlotProp(usize, u16, Field, Span),
    Code(Native<i64>),
}

impl Num {
    #[inline(always)]
    pub(super) fn get(&self, g: &mut Game, f: &mut Frame) -> Res<i64> {
        match self {
            Num::Const(i) => Ok(*i),
            Num::Global(i) => Ok(g.st.globals[*i]),
            Num::Counter(c) => Ok(g.st.counter(f.me, *c)),
            Num::Count(z, span) => {
                let z = z.get(g, f)?;
                f.span = *span;
                Ok(g.zone_size(z, *span)? as i64)
            }
            Num::SlotProp(s, pr, field, span) => match f.slots[*s] {
                Value::Card(c) => Ok(g.st.prop(f.data, c, *pr)),
                ref other => g.int(&read_field(g, other, field, f)?, *span),
            },
            Num::Code(c) => c(g, f),
        }
    }
}

/// `sum(zone + zone + ..., it.prop)`: the cards' property added up in place,
/// no list made. Where the interpreter's way could fail (a zone hidden from a
/// bot, an owner that is not a player, a list too long) it runs instead:
/// reading these zones has no effect to undo.
pub(super) fn sum_prop(zones: Box<[ZoneOp]>, pr: u16, generic: ValFn) -> ValFn {
    Box::new(move |g, f| {
        if g.viewer.is_some() {
            return generic(g, f);
        }
        let mut zs: smallvec::SmallVec<[ZoneRef; 4]> = smallvec::SmallVec::new();
        let mut n = 0;
        for z in zones.iter() {
            let Ok(Value::Zone(z)) = z.get(g, f) else {
                return generic(g, f);
            };
            n += g.st.listed(z);
            zs.push(z);
        }
        // A sum of zones copies its cards (a step each, at its `+`s) into
        // the list walked: where that may not fit, the `+`s run.
        let steps = if zs.len() > 1 { 2 * n } else { n } as u64;
        if n > crate::engine::MAX_LIST || (zs.len() > 1 && !g.budget.room(steps)) {
            return generic(g, f);
        }
        // A zone, or the list a sum of zones makes, walked.
        g.charge(f.span, steps)?;
        let mut total = 0i64;
        for &z in &zs {
            let zi = &g.st.zones[g.st.inst(z)];
            let add = |t: i64, c: &ObjId| g.st.prop(f.data, *c, pr).saturating_add(t);
            total = if zi.piles.is_empty() {
                g.st.add_props(f.data, zi.cards.iter().rev(), pr, total)
            } else {
                zi.tops().fold(total, |t, c| add(t, &c))
            };
        }
        Ok(Value::Int(total))
    })
}

/// `x <op> k` of a constant `k` written either way round (`k <= x` is
/// `x >= k`): reading a constant has no effect, so the order is free.
pub(in crate::fast) fn vs_const(e: &Expr) -> Option<(&Expr, CmpOp, i64)> {
    let Expr::Bin(op, a, b, _) = e else {
        return None;
    };
    let op = CmpOp::of(*op)?;
    match (&**a, &**b) {
        (x, Expr::Int(k)) => Some((x, op, *k)),
        (Expr::Int(k), x) => Some((x, op.flip(), *k)),
        _ => None,
    }
}

/// `empty_piles(z) <op> n or any(piles(z), <tag test> and pile_count(z,
/// it) <op> k)` of one zone named without an owner (a row of piles' end
/// test), as the compiled check and the quiet one both take it.
pub(in crate::fast) struct PileOr<'e> {
    /// The zone as written in `empty_piles(..)`.
    pub zone_arg: &'e Expr,
    pub zone: u16,
    pub empty: (CmpOp, i64),
    /// The tags any of which a pile's definition has to be counted.
    pub mask: u64,
    pub count: (CmpOp, i64),
    /// The spans of the `empty_piles`, `piles` and `pile_count` calls.
    pub at_empty: Span,
    pub at_piles: Span,
    pub at_count: Span,
}

impl PileOr<'_> {
    /// Whether the count's test holds for an empty pile only: the empty
    /// piles are then the zone's bits.
    pub fn only_empty(&self) -> bool {
        let (op, k) = self.count;
        matches!(op, CmpOp::Eq | CmpOp::Lt | CmpOp::Le) && op.holds(0, k) && !op.holds(1, k)
    }
}

/// `a or b` as a [`PileOr`], if it is one.
pub(in crate::fast) fn pile_or<'e>(a: &'e Expr, b: &'e Expr) -> Option<PileOr<'e>> {
    let (Expr::Call(Builtin::EmptyPiles, args, at_empty), cmp, n) = vs_const(a)? else {
        return None;
    };
    let ([zone_arg @ Expr::Zone(z, None)], Expr::Any(list, slot, body)) = (args.as_slice(), b)
    else {
        return None;
    };
    let Expr::Call(Builtin::Piles, pa, at_piles) = &**list else {
        return None;
    };
    let [Expr::Zone(y, None)] = pa.as_slice() else {
        return None;
    };
    let Expr::And(t, rest) = &**body else {
        return None;
    };
    let (s, mask) = tag_any(t)?;
    let (Expr::Call(Builtin::PileCount, ca, at_count), op, k) = vs_const(rest)? else {
        return None;
    };
    let [Expr::Zone(w, None), Expr::Local(it)] = ca.as_slice() else {
        return None;
    };
    (z == y && y == w && it == slot && s == *slot).then_some(PileOr {
        zone_arg,
        zone: *z,
        empty: (cmp, n),
        mask,
        count: (op, k),
        at_empty: *at_empty,
        at_piles: *at_piles,
        at_count: *at_count,
    })
}

/// What `any(piles(..), ...)` asks of a pile past its tag test.
pub(super) enum PileTest {
    /// `pile_count(zone, it) <op> k`: the zone (named; shared?) and the
    /// call's span.
    Count(u16, bool, CmpOp, i64, Span),
    Code(CondFn),
}

/// `it is a or it is b`: tag tests of one local, as the local and the mask
/// of tags any of which passes.
pub(in crate::fast) fn tag_any(e: &Expr) -> Option<(u16, u64)> {
    match e {
        Expr::Is(x, tag, false, _) => match **x {
            Expr::Local(s) => Some((s, bit(*tag))),
            _ => None,
        },
        Expr::Or(a, b) => {
            let ((s, m), (t, n)) = (tag_any(a)?, tag_any(b)?);
            (s == t).then_some((s, m | n))
        }
        _ => None,
    }
}

/// A tag test of local `it` (`it is a`, `it is not a`, `it is a or it is
/// b`, `not ...`): the mask of tags any of which passes, and whether the
/// test is negated.
pub(super) fn tag_test(e: &Expr, it: u16) -> Option<(u64, bool)> {
    match e {
        Expr::Is(x, tag, negate, _) if matches!(**x, Expr::Local(s) if s == it) => {
            Some((bit(*tag), *negate))
        }
        Expr::Not(x) => tag_test(x, it).map(|(m, n)| (m, !n)),
        _ => tag_any(e).and_then(|(s, m)| (s == it).then_some((m, false))),
    }
}

/// Where a tag test fails on a value that is no card: at its first `is`.
pub(super) fn first_is(e: &Expr) -> Span {
    match e {
        Expr::Is(_, _, _, span) => *span,
        Expr::Or(a, _) | Expr::Not(a) => first_is(a),
        _ => Span::default(),
    }
}

/// A tag test of a local (`x is a`, `x is not a`, `x is a or x is b`): the
/// local, the mask of tags any of which passes, whether negated.
pub(super) fn local_tag(e: &Expr) -> Option<(u16, u64, bool)> {
    match e {
        Expr::Is(x, tag, negate, _) if let Expr::Local(s) = **x => Some((s, bit(*tag), *negate)),
        _ => tag_any(e).map(|(s, m)| (s, m, false)),
    }
}
