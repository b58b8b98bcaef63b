//! The common shapes of conditions, picks and bot choices, recognised once
//! when the tier is made ([`super::tables`]) so the tier decides them
//! natively, with no interpreter call. Anything else keeps its compiled
//! code; a native test that meets a value it was not made for (say `it is x`
//! on a string) also defers to that code, so both paths always agree,
//! errors included.

use std::sync::Arc;

use crate::lang::ir::{BinOp, Code, Expr, Stmt};

/// A condition on the value bound to `it` (an option, a zone's card), the
/// running player's counters and the option's move.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    Const(bool),
    /// `it is <tag>`, `it is not <tag>`.
    Is {
        tag: u16,
        negate: bool,
    },
    /// `it == @card`, `it != @card`.
    DefEq {
        def: u16,
        negate: bool,
    },
    /// `move == "name"`: the option's move, by index (`None`: no move has that name).
    Move {
        id: Option<u16>,
        negate: bool,
    },
    /// Two numbers compared.
    Cmp(Operand, CmpOp, Operand),
    Not(Box<Test>),
    And(Box<Test>, Box<Test>),
    Or(Box<Test>, Box<Test>),
}

/// How a [`Test`] compares two numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    pub(crate) fn of(op: BinOp) -> Option<CmpOp> {
        Some(match op {
            BinOp::Lt => CmpOp::Lt,
            BinOp::Le => CmpOp::Le,
            BinOp::Gt => CmpOp::Gt,
            BinOp::Ge => CmpOp::Ge,
            BinOp::Eq => CmpOp::Eq,
            BinOp::Ne => CmpOp::Ne,
            _ => return None,
        })
    }

    /// The comparison with its operands swapped: `x < y` is `y > x`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            op => op,
        }
    }

    #[inline(always)]
    pub fn holds(self, x: i64, y: i64) -> bool {
        match self {
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
        }
    }
}

/// A number a [`Test`] compares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    Int(i64),
    /// A counter of the running player (`total`, `me.total`).
    Counter(u16),
    Global(u16),
    /// A property of the card bound to `it` (`it.cost`).
    Prop(u16),
}

/// A bot rule's `choose`, as far as it is recognised.
#[derive(Debug, Clone)]
pub enum Choose {
    /// A string constant: matches options by text.
    Str(Arc<String>),
    Test(Test),
    /// Anything else: run the code.
    General,
}

/// A test comparing two numbers none of which is a property (of `it`).
pub fn plain_cmp(t: Option<&Test>) -> Option<(Operand, CmpOp, Operand)> {
    match t? {
        &Test::Cmp(a, op, b)
            if !matches!(a, Operand::Prop(_)) && !matches!(b, Operand::Prop(_)) =>
        {
            Some((a, op, b))
        }
        _ => None,
    }
}

/// A move's `pick` of the shape `<zone> where <test>`.
#[derive(Debug, Clone)]
pub struct Pick {
    pub zone: u16,
    pub test: Test,
}

/// The one expression a piece of code returns, if that is all it does.
fn single(code: &Code) -> Option<&Expr> {
    match code.stmts.as_slice() {
        [Stmt::Return(Some(e))] => Some(e),
        _ => None,
    }
}

/// Recognises code as a [`Test`]; `it` is the local slot bound to the value
/// tested (none: the code reads no slot), `moves` the rules' move names.
pub fn test(code: &Code, it: Option<u16>, moves: &[String]) -> Option<Test> {
    test_expr(single(code)?, it, moves)
}

fn is_it(e: &Expr, it: Option<u16>) -> bool {
    matches!(e, Expr::Local(s) if Some(*s) == it)
}

fn test_expr(e: &Expr, it: Option<u16>, moves: &[String]) -> Option<Test> {
    Some(match e {
        Expr::Bool(b) => Test::Const(*b),
        Expr::Is(x, tag, negate, _) if is_it(x, it) => Test::Is {
            tag: *tag,
            negate: *negate,
        },
        Expr::Not(x) => Test::Not(Box::new(test_expr(x, it, moves)?)),
        Expr::And(a, b) => Test::And(
            Box::new(test_expr(a, it, moves)?),
            Box::new(test_expr(b, it, moves)?),
        ),
        Expr::Or(a, b) => Test::Or(
            Box::new(test_expr(a, it, moves)?),
            Box::new(test_expr(b, it, moves)?),
        ),
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, _)
            if matches!((&**a, &**b), (Expr::Def(_), _) | (_, Expr::Def(_))) =>
        {
            let negate = *op == BinOp::Ne;
            match (&**a, &**b) {
                (x, Expr::Def(d)) | (Expr::Def(d), x) if is_it(x, it) => {
                    Test::DefEq { def: *d, negate }
                }
                _ => return None,
            }
        }
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, _)
            if matches!(
                (&**a, &**b),
                (Expr::MoveName, Expr::Str(_)) | (Expr::Str(_), Expr::MoveName)
            ) =>
        {
            let ((Expr::Str(s), _) | (_, Expr::Str(s))) = (&**a, &**b) else {
                return None;
            };
            Test::Move {
                id: moves
                    .iter()
                    .position(|m| m.as_str() == s.as_str())
                    .and_then(|i| u16::try_from(i).ok()),
                negate: *op == BinOp::Ne,
            }
        }
        Expr::Bin(op, a, b, _) => cmp(operand(a, it)?, CmpOp::of(*op)?, operand(b, it)?),
        _ => return None,
    })
}

/// A comparison in one order whichever way it is written (`8 <= total` is
/// `total >= 8`): a card's property first, then counters and globals, a
/// constant last. Reading an operand has no effect, so the order is free.
fn cmp(a: Operand, op: CmpOp, b: Operand) -> Test {
    let rank = |o: &Operand| match o {
        Operand::Prop(_) => 0,
        Operand::Counter(_) | Operand::Global(_) => 1,
        Operand::Int(_) => 2,
    };
    if rank(&a) > rank(&b) {
        Test::Cmp(b, op.flip(), a)
    } else {
        Test::Cmp(a, op, b)
    }
}

fn operand(e: &Expr, it: Option<u16>) -> Option<Operand> {
    Some(match e {
        Expr::Int(i) => Operand::Int(*i),
        Expr::Global(g) => Operand::Global(*g),
        Expr::Field(base, f) => match (&**base, f.counter, f.prop) {
            (Expr::Me, Some(c), _) => Operand::Counter(c),
            (x, _, Some(p)) if is_it(x, it) => Operand::Prop(p),
            _ => return None,
        },
        _ => return None,
    })
}

/// Recognises a bot rule's `choose` (`it` in slot 0).
pub fn choose(code: &Code, moves: &[String]) -> Choose {
    match single(code) {
        Some(Expr::Str(s)) => Choose::Str(s.clone()),
        _ => test(code, Some(0), moves).map_or(Choose::General, Choose::Test),
    }
}

/// Recognises a move's `pick` of the shape `<zone> where <test>` (a zone of
/// the running player, or a shared one), or a whole zone (`pick: hand`: a
/// test that always holds; the kernel charges its cards as a walk's).
pub fn pick(code: &Code, moves: &[String]) -> Option<Pick> {
    match single(code)? {
        Expr::Zone(z, None) => Some(Pick {
            zone: *z,
            test: Test::Const(true),
        }),
        Expr::Where(list, slot, cond) => match &**list {
            Expr::Zone(z, None) => Some(Pick {
                zone: *z,
                test: test_expr(cond, Some(*slot), moves)?,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// Recognises `cond`, the test of a `where` whose item is in slot `slot`,
/// as a [`Test`] of pure reads (no step, no error), outside any move: none
/// that reads the move's name.
pub fn where_test(cond: &Expr, slot: u16) -> Option<Test> {
    fn no_move(t: &Test) -> bool {
        match t {
            Test::Move { .. } => false,
            Test::Not(x) => no_move(x),
            Test::And(a, b) | Test::Or(a, b) => no_move(a) && no_move(b),
            _ => true,
        }
    }
    test_expr(cond, Some(slot), &[]).filter(no_move)
}

/// A bot's rules in a window whose one move picks from a row of piles by a
/// property against a counter (`row where it.price <= budget`), resolved
/// at load so a round reads each condition in place and finds the card
/// chosen in one scan of the row.
#[derive(Debug, Clone)]
pub struct FastRules {
    pub rules: Box<[FastRule]>,
    /// The pick's counter and comparison, and its property (a pile's top
    /// card read by its pile's definition, in the card table).
    pub counter: u16,
    pub op: CmpOp,
    pub prop: u16,
}

/// A rule of [`FastRules`].
#[derive(Debug, Clone, Copy)]
pub struct FastRule {
    /// `if:` a counter of the player's within `lo..=hi`; None: no condition.
    pub cond: Option<(u16, i64, i64)>,
    pub choose: FastChoose,
}

/// What a [`FastRule`] chooses.
#[derive(Debug, Clone, Copy)]
pub enum FastChoose {
    /// `it == @card`, `it != @card`.
    Def { def: u16, negate: bool },
    /// `it is <tag>`, `it is not <tag>`: the tag's bit.
    Tag { bit: u64, negate: bool },
    /// `"pass"`.
    Pass,
}

/// A comparison's range of `x` in `x <op> y`; None where it has no range.
#[inline(always)]
pub fn range(op: CmpOp, y: i64) -> Option<(i64, i64)> {
    use CmpOp::*;
    Some(match op {
        Lt => (i64::MIN, y.checked_sub(1)?),
        Le => (i64::MIN, y),
        Gt => (y.checked_add(1)?, i64::MAX),
        Ge => (y, i64::MAX),
        Eq => (y, y),
        Ne => return None,
    })
}
