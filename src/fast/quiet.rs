//! Conditions of abilities decided without a frame. Most abilities' `if:`
//! only compares the card, its host, the players, counters, properties,
//! the event's fields and the board's squares (`event.card == this`, `me ==
//! active`, `this.host != none`, `square_kind(event.target) == "start"`):
//! such a condition costs the reference its frame's step and level
//! and nothing else, and cannot fail or change anything. The tier keeps it
//! as a small tree of those reads over values that own nothing, and
//! decides it from the game; the kernel charges the frame
//! ([`crate::engine::tier::Tier::decides`]). A value the tree was not made
//! for (a list, a string, a field a value does not have) makes it give up,
//! and the kernel runs the condition as compiled, so both paths agree.

use crate::data::Data;
use crate::engine::Game;
use crate::lang::builtins::Builtin;
use crate::lang::ir::{BinOp, Expr, Field, Special, Stmt};
use crate::value::{ObjId, PlayerId, Value, ZoneRef, bit};

/// A condition of quiet reads, as the IR has it.
#[derive(Debug)]
pub enum Quiet {
    Not(Box<Quiet>),
    And(Box<Quiet>, Box<Quiet>),
    Or(Box<Quiet>, Box<Quiet>),
    /// `x is tag` (negated if true).
    Is(Read, u16, bool),
    /// `==` (true) or `!=` (false).
    Eq(Read, Read, bool),
    /// `<`, `<=`, `>`, `>=` of two numbers.
    Cmp(Read, BinOp, Read),
    /// A value taken as a truth.
    Truthy(Read),
    /// `square_kind(s) == "kind"` (true) or `!=` (false).
    KindIs(Read, std::sync::Arc<String>, bool),
}

/// A read of the game whose value owns nothing: a literal, a value of the
/// frame, the game or the event, or one field of one (not a field of a
/// field: each read is one step, no recursion).
#[derive(Debug)]
pub enum Read {
    Lit(Small),
    Of(Base),
    /// A field of a card, a card id or a player.
    Field(Base, Field),
    /// `square_get(s, prop)` (the property's index) or `square_card(s)`
    /// (None) of a square read in one step.
    Square(Base, Option<usize>),
}

/// What a [`Read`] starts from.
#[derive(Debug, Clone, Copy)]
pub enum Base {
    This,
    Me,
    Active,
    Global(u16),
    /// A field of the newest event.
    Event(Special),
}

/// The values a [`Read`] gives: [`crate::value::Value`]'s that own nothing.
#[derive(Debug, Clone, Copy)]
pub enum Small {
    None,
    Int(i64),
    Bool(bool),
    Card(ObjId),
    Def(u16),
    Player(PlayerId),
    Zone(ZoneRef),
}

/// By trigger, its condition as a quiet tree, if it is one.
pub fn conditions(data: &Data) -> Box<[Option<Quiet>]> {
    (data.triggers.iter())
        .map(|t| match t.cond.as_ref().map(|c| &c.stmts[..]) {
            Some([Stmt::Return(Some(e))]) => quiet(e),
            _ => None,
        })
        .collect()
}

fn quiet(e: &Expr) -> Option<Quiet> {
    let q = |e: &Expr| quiet(e).map(Box::new);
    Some(match e {
        Expr::Not(x) => Quiet::Not(q(x)?),
        Expr::And(a, b) => Quiet::And(q(a)?, q(b)?),
        Expr::Or(a, b) => Quiet::Or(q(a)?, q(b)?),
        Expr::Is(x, tag, negate, _) => Quiet::Is(read(x)?, *tag, *negate),
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => match (&**a, &**b) {
            (Expr::Call(Builtin::SquareKind, s, _), Expr::Str(k))
            | (Expr::Str(k), Expr::Call(Builtin::SquareKind, s, _)) => {
                Quiet::KindIs(Read::Of(base(s.first()?)?), k.clone(), *op == BinOp::Eq)
            }
            _ => Quiet::Eq(read(a)?, read(b)?, *op == BinOp::Eq),
        },
        Expr::Bin(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b, _) => {
            Quiet::Cmp(read(a)?, *op, read(b)?)
        }
        _ => Quiet::Truthy(read(e)?),
    })
}

fn read(e: &Expr) -> Option<Read> {
    Some(match e {
        Expr::None => Read::Lit(Small::None),
        Expr::Int(i) => Read::Lit(Small::Int(*i)),
        Expr::Bool(b) => Read::Lit(Small::Bool(*b)),
        Expr::Def(d) => Read::Lit(Small::Def(*d)),
        Expr::Field(b, f) if !matches!(**b, Expr::Event) => Read::Field(base(b)?, *f),
        Expr::Call(Builtin::SquareCard, a, _) if let [s] = a.as_slice() => {
            Read::Square(base(s)?, None)
        }
        Expr::Call(Builtin::SquareGet, a, _) if let [s, Expr::Int(p)] = a.as_slice() => {
            Read::Square(base(s)?, Some(usize::try_from(*p).ok()?))
        }
        _ => Read::Of(base(e)?),
    })
}

fn base(e: &Expr) -> Option<Base> {
    Some(match e {
        Expr::This => Base::This,
        Expr::Me => Base::Me,
        Expr::Active => Base::Active,
        Expr::Global(i) => Base::Global(*i),
        Expr::Field(b, f) if matches!(**b, Expr::Event) => Base::Event(f.special?),
        _ => return None,
    })
}

impl Quiet {
    /// The condition's truth for card `this` and player `me`, as the
    /// reference would find it; None where it could charge or fail.
    pub fn decide(&self, g: &Game, this: Option<ObjId>, me: PlayerId) -> Option<bool> {
        Some(match self {
            Quiet::Not(x) => !x.decide(g, this, me)?,
            Quiet::And(a, b) => a.decide(g, this, me)? && b.decide(g, this, me)?,
            Quiet::Or(a, b) => a.decide(g, this, me)? || b.decide(g, this, me)?,
            Quiet::Is(x, tag, negate) => {
                let tags = match x.get(g, this, me)? {
                    Small::Card(c) => g.st.tags(c),
                    Small::Def(d) => g.data.defs[d as usize].tags,
                    Small::None => 0,
                    _ => return None,
                };
                (tags & bit(*tag) != 0) != *negate
            }
            Quiet::Eq(a, b, eq) => same(g, a.get(g, this, me)?, b.get(g, this, me)?) == *eq,
            Quiet::Cmp(a, op, b) => {
                let (x, y) = (int(a.get(g, this, me)?)?, int(b.get(g, this, me)?)?);
                match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                }
            }
            Quiet::KindIs(s, kind, eq) => {
                let s = square(g, s.get(g, this, me)?)?;
                (*g.data.board.squares[s].kind == **kind) == *eq
            }
            Quiet::Truthy(x) => match x.get(g, this, me)? {
                Small::None => false,
                Small::Bool(b) => b,
                Small::Int(i) => i != 0,
                _ => true,
            },
        })
    }
}

impl Read {
    /// What [`Game::field`] and the reference's reads give, where it owns
    /// nothing and nothing fails.
    #[inline(always)]
    fn get(&self, g: &Game, this: Option<ObjId>, me: PlayerId) -> Option<Small> {
        match self {
            Read::Lit(v) => Some(*v),
            Read::Of(b) => b.get(g, this, me),
            Read::Field(b, f) => field(g, b.get(g, this, me)?, f),
            Read::Square(b, prop) => {
                let s = square(g, b.get(g, this, me)?)?;
                match prop {
                    None => Some(g.data.board.squares[s].card.map_or(Small::None, Small::Def)),
                    Some(p) => {
                        let b = &g.st.board;
                        small(b.props.get(s * b.nprops + p).filter(|_| *p < b.nprops)?)
                    }
                }
            }
        }
    }
}

/// The square a value names, as the board's readers take it; None where
/// they would fail (a game with no board, a value naming no square).
#[inline(always)]
fn square(g: &Game, v: Small) -> Option<usize> {
    let n = int(v)?;
    usize::try_from(n)
        .ok()
        .filter(|&s| s < g.data.board.squares.len())
}

/// A value that owns nothing as a [`Small`].
#[inline(always)]
fn small(v: &Value) -> Option<Small> {
    Some(match v {
        Value::None => Small::None,
        Value::Int(i) => Small::Int(*i),
        Value::Bool(b) => Small::Bool(*b),
        Value::Card(c) => Small::Card(*c),
        Value::Def(d) => Small::Def(*d),
        Value::Player(p) => Small::Player(*p),
        Value::Zone(z) => Small::Zone(*z),
        _ => return None,
    })
}

impl Base {
    #[inline(always)]
    fn get(self, g: &Game, this: Option<ObjId>, me: PlayerId) -> Option<Small> {
        Some(match self {
            Base::This => this.map_or(Small::None, Small::Card),
            Base::Me => Small::Player(me),
            Base::Active => Small::Player(g.st.active),
            Base::Global(i) => Small::Int(g.st.globals[i as usize]),
            Base::Event(sp) => {
                let Some(e) = g.st.events.last() else {
                    return Some(Small::None);
                };
                match sp {
                    Special::Card => e.card.map_or(Small::None, Small::Card),
                    Special::Player => e.player.map_or(Small::None, Small::Player),
                    Special::From => e.from.map_or(Small::None, Small::Zone),
                    Special::To => e.to.map_or(Small::None, Small::Zone),
                    Special::Amount => Small::Int(e.amount),
                    Special::Source => e.source.map_or(Small::None, Small::Card),
                    Special::Target => small(&e.target)?,
                    Special::Prevented => Small::Bool(e.prevented),
                    _ => return None,
                }
            }
        })
    }
}

/// Field `f` of `v`, as [`Game::field`] reads it.
#[inline(always)]
fn field(g: &Game, v: Small, f: &Field) -> Option<Small> {
    Some(match v {
        Small::Card(c) => match (f.prop, f.special) {
            (Some(pr), _) => Small::Int(g.st.prop(&g.data, c, pr)),
            (_, Some(Special::Owner)) => Small::Player(g.st.objs[c as usize].owner),
            (_, Some(Special::Host)) => g.st.objs[c as usize].host.map_or(Small::None, Small::Card),
            (_, Some(Special::Id)) => Small::Def(g.st.objs[c as usize].def),
            (_, Some(Special::Zone)) => Small::Zone(g.st.zone_of(c)),
            _ => return None,
        },
        Small::Player(p) => match (f.counter, f.special) {
            (Some(k), _) => Small::Int(g.st.counter(p, k)),
            (_, Some(Special::Index)) => Small::Int(p as i64 + 1),
            (_, Some(Special::Turns)) => Small::Int(g.st.turns_taken[p as usize] as i64),
            _ => return None,
        },
        Small::Def(d) => match (f.prop, f.special) {
            (Some(pr), _) => Small::Int(g.data.defs[d as usize].props[pr as usize]),
            (_, Some(Special::Id)) => Small::Def(d),
            _ => return None,
        },
        Small::None => Small::None,
        _ => return None,
    })
}

/// `==` as [`Game::equal`] has it for values that own nothing.
#[inline(always)]
fn same(g: &Game, a: Small, b: Small) -> bool {
    match (a, b) {
        (Small::None, Small::None) => true,
        (Small::Int(x), Small::Int(y)) => x == y,
        (Small::Bool(x), Small::Bool(y)) => x == y,
        (Small::Card(x), Small::Card(y)) => x == y,
        (Small::Def(x), Small::Def(y)) => x == y,
        (Small::Card(c), Small::Def(d)) | (Small::Def(d), Small::Card(c)) => {
            g.st.objs[c as usize].def == d
        }
        (Small::Player(x), Small::Player(y)) => x == y,
        (Small::Zone(x), Small::Zone(y)) => x == y,
        _ => false,
    }
}

/// A number as [`Game::int`] reads one; None where it fails.
fn int(v: Small) -> Option<i64> {
    match v {
        Small::Int(i) => Some(i),
        Small::Bool(b) => Some(b as i64),
        Small::None => Some(0),
        _ => None,
    }
}
