//! Sums and differences of numbers read in place (`c.cost + spent >
//! p.score`, `count(a) + count(hand) > 0`): one closure for the whole
//! expression, no value made per operand. Reading them takes no step and
//! changes nothing but the span a count leaves, so where an operand is not
//! a number here (a local holding a string, a zone hidden from a bot's
//! seat) the expression runs again from its start as compiled, and does
//! exactly what it would have done.

use super::*;

/// A number read in place, or a sum or difference of them: the first
/// term, then each added or subtracted in turn (`a + b - c`, left to right
/// as `binop` folds it), one loop with no call per operand.
pub(super) struct Arith {
    first: Term,
    /// The terms after the first, each subtracted (true) or added.
    rest: Box<[(bool, Term)]>,
}

/// A number read in place: an operand of an [`Arith`].
enum Term {
    Const(i64),
    Global(usize),
    /// A counter of the running player.
    Counter(u16),
    /// A number in a frame slot.
    Slot(usize),
    /// A card's (or card id's) property or a player's counter, of a slot:
    /// the field's counter and property.
    Field(usize, Option<u16>, Option<u16>),
    /// `count(zone)`, with the call's span.
    Count(ZoneAt, Span),
    /// A sum or difference on the right (`a - (b + c)`), folded on its own.
    Sum(Box<Arith>),
}

impl Arith {
    /// The number, as `binop` makes it from the operands' values; None
    /// where an operand is not a number read here. Inlined into the
    /// closure that reads it: no frame of its own to save registers for.
    #[inline(always)]
    pub(super) fn get(&self, g: &Game, f: &mut Frame) -> Option<i64> {
        let mut n = self.first.get(g, f)?;
        for (sub, t) in self.rest.iter() {
            let x = t.get(g, f)?;
            n = match sub {
                true => n.saturating_sub(x),
                false => n.saturating_add(x),
            };
        }
        Some(n)
    }

    fn is_sum(&self) -> bool {
        !self.rest.is_empty()
    }

    /// Whether a term counts a zone (a call out of line, where compiled
    /// code counts in place).
    fn counts(&self) -> bool {
        let counts = |t: &Term| match t {
            Term::Count(..) => true,
            Term::Sum(x) => x.counts(),
            _ => false,
        };
        counts(&self.first) || self.rest.iter().any(|(_, t)| counts(t))
    }
}

impl Term {
    #[inline(always)]
    fn get(&self, g: &Game, f: &mut Frame) -> Option<i64> {
        Some(match self {
            Term::Const(i) => *i,
            Term::Global(i) => g.st.globals[*i],
            Term::Counter(c) => g.st.counter(f.me, *c),
            Term::Slot(s) => match f.slots[*s] {
                Value::Int(n) => n,
                _ => return None,
            },
            Term::Field(s, counter, prop) => match (&f.slots[*s], *counter, *prop) {
                (Value::Player(p), Some(c), _) => g.st.counter(*p, c),
                (Value::Card(c), _, Some(pr)) => g.st.prop(f.data, *c, pr),
                (Value::Def(d), _, Some(pr)) => g.data.table.prop(*d, pr),
                _ => return None,
            },
            Term::Count(z, span) => count(z, *span, g, f)?,
            Term::Sum(x) => sum(x, g, f)?,
        })
    }
}

/// [`Term::Count`], out of line: the loop keeps a small frame.
#[inline(never)]
fn count(z: &ZoneAt, span: Span, g: &Game, f: &mut Frame) -> Option<i64> {
    let z = z.get(g, f).ok()?;
    f.span = span;
    Some(g.zone_size(z, span).ok()? as i64)
}

/// [`Term::Sum`], out of line.
#[inline(never)]
fn sum(x: &Arith, g: &Game, f: &mut Frame) -> Option<i64> {
    x.get(g, f)
}

/// A part of a conjunction or an arm of an if-chain: a comparison of
/// numbers read in place tested where the loop runs it (no closure of its
/// own), falling back to its compiled code where an operand is not a
/// number here; or compiled code.
pub(super) enum Conjunct {
    Num(Arith, CmpOp, Arith, CondFn),
    Code(CondFn),
}

impl Conjunct {
    /// The part's compiled code.
    pub(super) fn code(self) -> CondFn {
        match self {
            Conjunct::Num(.., c) | Conjunct::Code(c) => c,
        }
    }

    #[inline(always)]
    pub(super) fn holds(&self, g: &mut Game, f: &mut Frame) -> Res<bool> {
        match self {
            Conjunct::Num(x, cmp, y, code) => {
                if let Some(x) = x.get(g, f)
                    && let Some(y) = y.get(g, f)
                {
                    return Ok(cmp.holds(x, y));
                }
                code(g, f)
            }
            Conjunct::Code(c) => c(g, f),
        }
    }
}

impl Compiler<'_> {
    /// Condition `e` as a [`Conjunct`]: a comparison of two numbers each
    /// read by one term is its own typed closure ([`typed`]), cheaper to
    /// call than the terms are to walk in the loop.
    pub(super) fn part(&self, e: &Expr) -> Conjunct {
        if let Expr::Bin(op, a, b, _) = e
            && let Some(cmp) = CmpOp::of(*op)
            && let (Some(x), Some(y)) = (self.arith(a), self.arith(b))
            && !x.counts()
            && !y.counts()
        {
            if x.is_sum() || y.is_sum() {
                return Conjunct::Num(x, cmp, y, self.cond(e));
            }
            return Conjunct::Code(typed(x.first, cmp, y.first, self.cond(e)));
        }
        Conjunct::Code(self.cond(e))
    }

    /// `e` as a number read in place, if it is one.
    pub(super) fn arith(&self, e: &Expr) -> Option<Arith> {
        Some(match e {
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b, _) => {
                let mut x = self.arith(a)?;
                let t = self.term(b)?;
                // Adding or taking 0 (a verb's parameter given 0) leaves
                // the number as it is: no term to fold.
                if matches!(t, Term::Const(0)) {
                    return Some(x);
                }
                let mut rest = std::mem::take(&mut x.rest).into_vec();
                rest.push((*op == BinOp::Sub, t));
                x.rest = rest.into_boxed_slice();
                x
            }
            e => Arith {
                first: self.term(e)?,
                rest: Box::new([]),
            },
        })
    }

    /// `e` as one operand of an [`Arith`], if it is a number read in place.
    fn term(&self, e: &Expr) -> Option<Term> {
        Some(match e {
            Expr::Int(i) => Term::Const(*i),
            Expr::Global(i) => Term::Global(*i as usize),
            Expr::Local(s) => Term::Slot(self.slot(*s)),
            Expr::Field(x, field) if field.counter.is_some() && matches!(**x, Expr::Me) => {
                Term::Counter(field.counter?)
            }
            Expr::Field(x, field) if field.counter.is_some() || field.prop.is_some() => match **x {
                Expr::Local(s) => Term::Field(self.slot(s), field.counter, field.prop),
                _ => return None,
            },
            Expr::Call(Builtin::Count, a, span) if let [z] = a.as_slice() => {
                Term::Count(self.zone_at(z)?, *span)
            }
            Expr::Bin(BinOp::Add | BinOp::Sub, ..) => Term::Sum(Box::new(self.arith(e)?)),
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

/// A number read in place, typed by kind: a comparison of two compiles to
/// its own code, with no dispatch on the kind at run time.
trait Num: Send + Sync + 'static {
    /// The number, as [`Term::get`] reads it; None where it is not one.
    fn num(&self, g: &Game, f: &Frame) -> Option<i64>;
}

struct NConst(i64);
impl Num for NConst {
    #[inline(always)]
    fn num(&self, _: &Game, _: &Frame) -> Option<i64> {
        Some(self.0)
    }
}

/// A counter of the running player.
struct NCounter(u16);
impl Num for NCounter {
    #[inline(always)]
    fn num(&self, g: &Game, f: &Frame) -> Option<i64> {
        Some(g.st.counter(f.me, self.0))
    }
}

/// A number in a frame slot.
struct NSlot(usize);
impl Num for NSlot {
    #[inline(always)]
    fn num(&self, _: &Game, f: &Frame) -> Option<i64> {
        match f.slots[self.0] {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }
}

/// A property of the card (or card id) in a slot, the field no counter.
struct NProp(usize, u16);
impl Num for NProp {
    #[inline(always)]
    fn num(&self, g: &Game, f: &Frame) -> Option<i64> {
        match f.slots[self.0] {
            Value::Card(c) => Some(g.st.prop(f.data, c, self.1)),
            Value::Def(d) => Some(g.data.table.prop(d, self.1)),
            _ => None,
        }
    }
}

/// A counter of the player in a slot, the field no property.
struct NCounterOf(usize, u16);
impl Num for NCounterOf {
    #[inline(always)]
    fn num(&self, g: &Game, f: &Frame) -> Option<i64> {
        match f.slots[self.0] {
            Value::Player(p) => Some(g.st.counter(p, self.1)),
            _ => None,
        }
    }
}

/// Any other term, read as [`Term::get`] reads it.
struct NTerm(Term);
impl Num for NTerm {
    #[inline(always)]
    fn num(&self, g: &Game, f: &Frame) -> Option<i64> {
        match &self.0 {
            Term::Const(i) => Some(*i),
            Term::Global(i) => Some(g.st.globals[*i]),
            Term::Field(s, counter, prop) => match (&f.slots[*s], *counter, *prop) {
                (Value::Player(p), Some(c), _) => Some(g.st.counter(*p, c)),
                (Value::Card(c), _, Some(pr)) => Some(g.st.prop(f.data, *c, pr)),
                (Value::Def(d), _, Some(pr)) => Some(g.data.table.prop(*d, pr)),
                _ => None,
            },
            Term::Counter(c) => Some(g.st.counter(f.me, *c)),
            Term::Slot(s) => match f.slots[*s] {
                Value::Int(n) => Some(n),
                _ => None,
            },
            // Not given here (no count, no sum): the compiled code decides.
            Term::Count(..) | Term::Sum(_) => None,
        }
    }
}

/// `x <cmp> y` of two terms read in place (no count, no sum), each typed
/// by kind: `code` where either is not a number here, as [`Conjunct`]
/// falls back.
fn typed(x: Term, cmp: CmpOp, y: Term, code: CondFn) -> CondFn {
    fn made<X: Num, Y: Num>(x: X, cmp: CmpOp, y: Y, code: CondFn) -> CondFn {
        match cmp {
            CmpOp::Lt => with::<X, Y, 0>(x, y, code),
            CmpOp::Le => with::<X, Y, 1>(x, y, code),
            CmpOp::Gt => with::<X, Y, 2>(x, y, code),
            CmpOp::Ge => with::<X, Y, 3>(x, y, code),
            CmpOp::Eq => with::<X, Y, 4>(x, y, code),
            CmpOp::Ne => with::<X, Y, 5>(x, y, code),
        }
    }
    // The comparison typed too (`C`, in `CmpOp`'s order): no dispatch on
    // it at run time.
    fn with<X: Num, Y: Num, const C: u8>(x: X, y: Y, code: CondFn) -> CondFn {
        Box::new(move |g, f| {
            if let Some(a) = x.num(g, f)
                && let Some(b) = y.num(g, f)
            {
                return Ok(match C {
                    0 => a < b,
                    1 => a <= b,
                    2 => a > b,
                    3 => a >= b,
                    4 => a == b,
                    _ => a != b,
                });
            }
            code(g, f)
        })
    }
    fn right<X: Num>(x: X, cmp: CmpOp, y: Term, code: CondFn) -> CondFn {
        match y {
            Term::Const(k) => made(x, cmp, NConst(k), code),
            Term::Counter(c) => made(x, cmp, NCounter(c), code),
            Term::Slot(s) => made(x, cmp, NSlot(s), code),
            y => made(x, cmp, NTerm(y), code),
        }
    }
    match x {
        Term::Field(s, None, Some(pr)) => right(NProp(s, pr), cmp, y, code),
        Term::Field(s, Some(c), None) => right(NCounterOf(s, c), cmp, y, code),
        Term::Counter(c) => right(NCounter(c), cmp, y, code),
        Term::Slot(s) => right(NSlot(s), cmp, y, code),
        x => right(NTerm(x), cmp, y, code),
    }
}
