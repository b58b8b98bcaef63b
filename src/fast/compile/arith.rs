//! Sums and differences of numbers read in place (`c.cost + spent >
//! p.score`, `count(a) + count(hand) > 0`): one closure for the whole
//! expression, no value made per operand. Reading them takes no step and
//! changes nothing but the span a count leaves, so where an operand is not
//! a number here (a local holding a string, a zone hidden from a bot's
//! seat) the expression runs again from its start as compiled, and does
//! exactly what it would have done.

use super::*;

/// A number read in place, or a sum or difference of them.
pub(super) enum Arith {
    Const(i64),
    Global(usize),
    /// A counter of the running player.
    Counter(u16),
    /// A number in a frame slot.
    Slot(usize),
    /// A card's (or card id's) property or a player's counter, of a slot.
    Field(usize, Field),
    /// `count(zone)`, with the call's span.
    Count(ZoneAt, Span),
    Add(Box<Arith>, Box<Arith>),
    Sub(Box<Arith>, Box<Arith>),
}

impl Arith {
    /// The number, as `binop` makes it from the operands' values; None
    /// where an operand is not a number read here.
    #[inline]
    pub(super) fn get(&self, g: &Game, f: &mut Frame) -> Option<i64> {
        Some(match self {
            Arith::Const(i) => *i,
            Arith::Global(i) => g.st.globals[*i],
            Arith::Counter(c) => g.st.counter(f.me, *c),
            Arith::Slot(s) => match f.slots[*s] {
                Value::Int(n) => n,
                _ => return None,
            },
            Arith::Field(s, field) => match (&f.slots[*s], field.counter, field.prop) {
                (Value::Player(p), Some(c), _) => g.st.counter(*p, c),
                (Value::Card(c), _, Some(pr)) => g.st.prop(f.data, *c, pr),
                (Value::Def(d), _, Some(pr)) => g.data.defs[*d as usize].props[pr as usize],
                _ => return None,
            },
            Arith::Count(z, span) => {
                let z = z.get(g, f).ok()?;
                f.span = *span;
                g.zone_size(z, *span).ok()? as i64
            }
            Arith::Add(a, b) => a.get(g, f)?.saturating_add(b.get(g, f)?),
            Arith::Sub(a, b) => a.get(g, f)?.saturating_sub(b.get(g, f)?),
        })
    }

    fn is_sum(&self) -> bool {
        matches!(self, Arith::Add(..) | Arith::Sub(..))
    }
}

impl Compiler<'_> {
    /// `e` as a number read in place, if it is one.
    pub(super) fn arith(&self, e: &Expr) -> Option<Arith> {
        Some(match e {
            Expr::Int(i) => Arith::Const(*i),
            Expr::Global(i) => Arith::Global(*i as usize),
            Expr::Local(s) => Arith::Slot(self.slot(*s)),
            Expr::Field(x, field) if field.counter.is_some() && matches!(**x, Expr::Me) => {
                Arith::Counter(field.counter?)
            }
            Expr::Field(x, field) if field.counter.is_some() || field.prop.is_some() => match **x {
                Expr::Local(s) => Arith::Field(self.slot(s), *field),
                _ => return None,
            },
            Expr::Call(Builtin::Count, a, span) if let [z] = a.as_slice() => {
                Arith::Count(self.zone_at(z)?, *span)
            }
            Expr::Bin(BinOp::Add, a, b, _) => {
                Arith::Add(Box::new(self.arith(a)?), Box::new(self.arith(b)?))
            }
            Expr::Bin(BinOp::Sub, a, b, _) => {
                Arith::Sub(Box::new(self.arith(a)?), Box::new(self.arith(b)?))
            }
            _ => return None,
        })
    }

    /// `a <cmp> b` of two numbers read in place, one a sum or difference;
    /// `compared` where one is not a number here.
    pub(super) fn arith_cmp(
        &self,
        cmp: CmpOp,
        a: &Expr,
        b: &Expr,
        compared: impl FnOnce() -> CondFn,
    ) -> Option<CondFn> {
        let (x, y) = (self.arith(a)?, self.arith(b)?);
        if !x.is_sum() && !y.is_sum() {
            return None;
        }
        let compared = compared();
        Some(Box::new(move |g, f| {
            if let Some(x) = x.get(g, f)
                && let Some(y) = y.get(g, f)
            {
                return Ok(cmp.holds(x, y));
            }
            compared(g, f)
        }))
    }

    /// A sum or difference of numbers read in place, as a value;
    /// `generic` where an operand is not a number here.
    pub(super) fn arith_val(&self, e: &Expr, generic: ValFn) -> ValFn {
        let Some(x) = self.arith(e).filter(Arith::is_sum) else {
            return generic;
        };
        Box::new(move |g, f| match x.get(g, f) {
            Some(n) => Ok(Value::Int(n)),
            None => generic(g, f),
        })
    }
}
