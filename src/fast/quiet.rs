//! Conditions decided without a frame. Most abilities' `if:` only compares
//! the card, its host, the players, counters, properties, the event's
//! fields and the board's squares (`event.card == this`, `me == active`,
//! `this.host != none`, `square_kind(event.target) == "start"`): such a
//! condition costs the reference its frame's step and level and nothing
//! else, and cannot fail or change anything. The tier keeps it as a small
//! tree of those reads over values that own nothing, and decides it from
//! the game; the kernel charges the frame
//! ([`crate::engine::tier::Tier::decides`]). An end check may also ask
//! `any(players(), …)` and a zone's size (`any(players(), count(z(it)) ==
//! 0)`): the players' list costs its steps, counted as the reference
//! walks it, and the tier charges them ([`super::recheck::Check`]); so
//! may a row of piles' emptiness (`empty_piles(row) >= 3 or
//! any(piles(row), it is big and pile_count(row, it) == 0)`), charged
//! as the compiled check charges it ([`Quiet::Piles`]). A value
//! the tree was not made for (a list, a string, a field a value does not
//! have, a size the viewer may not know) makes it give up, and the code runs
//! as compiled, so both paths agree.

use super::compile::pile_or;
use super::native::CmpOp;
use crate::data::Data;
use crate::engine::Game;
use crate::lang::builtins::Builtin;
use crate::lang::ir::{BinOp, Code, Expr, Field, Special, Stmt};
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
    /// [`Quiet::Eq`] or [`Quiet::Cmp`] of two reads that always give a
    /// number (a counter, a zone's size, a literal): compared as numbers,
    /// with no value made.
    Num(Box<NumCmp>),
    /// [`Quiet::Num`] with a sum on a side (`count(a) + count(b) > 0`).
    Sum(Box<SumCmp>),
    /// A value taken as a truth.
    Truthy(Read),
    /// `square_kind(s) == "kind"` (true) or `!=` (false): by square,
    /// whether its kind is that one (worked out at load, no text compared).
    KindIs(Read, std::sync::Arc<[bool]>, bool),
    /// `any(players(), …)` (true) or `any(others(), …)` (false), the
    /// player bound as [`Base::Bound`].
    AnyPlayer(bool, Box<Quiet>),
    /// `empty_piles(z) <op> n or any(piles(z), it is <tags> and
    /// pile_count(z, it) <op> k)` (an end check over a row of piles).
    Piles(Box<Piles>),
}

/// [`Quiet::Piles`]: the zone, named without an owner; the empty piles'
/// test; the tags any of which a pile's definition has to be tested; the
/// pile's count's test.
#[derive(Debug)]
pub struct Piles {
    zone: u16,
    empty: (CmpOp, i64),
    mask: u64,
    count: (CmpOp, i64),
    /// The count's test holds for an empty pile only.
    only_empty: bool,
}

impl Piles {
    /// [`Quiet::Piles`]'s truth for player `me`, the steps of the list it
    /// walks added to `steps` (out of line: the trees of abilities'
    /// conditions, decided often, never have one).
    #[inline(never)]
    fn holds(&self, g: &Game, me: PlayerId, steps: &mut u64) -> bool {
        // As the compiled check: the empty piles counted by the
        // moves; else the list `piles` makes charged (its cards
        // passed over, a step each), the piles walked.
        let zi = &g.st.zones[g.st.inst(ZoneRef {
            zone: self.zone,
            owner: me,
        })];
        if self.empty.0.holds(zi.nempty as i64, self.empty.1) {
            return true;
        }
        let n = zi.piles.len();
        *steps += crate::engine::passed_steps(n) + n as u64;
        let (defs, (op, k)) = (&g.data.defs, self.count);
        let tested = |d: u16| defs[d as usize].tags & self.mask != 0;
        // A count that holds for an empty pile only: the empty
        // piles are the zone's bits.
        if self.only_empty && n <= 64 {
            let mut bits = zi.empty_bits();
            while bits != 0 {
                if tested(zi.piles[bits.trailing_zeros() as usize].0) {
                    return true;
                }
                bits &= bits - 1;
            }
            return false;
        }
        (zi.piles.iter()).any(|(d, pile)| tested(*d) && op.holds(pile.len() as i64, k))
    }
}

/// `a or b` as [`Quiet::Piles`]: the shape [`pile_or`] finds, the one the
/// compiled check takes too.
fn piles(a: &Expr, b: &Expr) -> Option<Piles> {
    let shape = pile_or(a, b)?;
    Some(Piles {
        zone: shape.zone,
        empty: shape.empty,
        mask: shape.mask,
        count: shape.count,
        only_empty: shape.only_empty(),
    })
}

/// [`Quiet::Num`]: `nums[0] op nums[1]`.
#[derive(Debug)]
pub struct NumCmp {
    pub(super) nums: [Num; 2],
    pub(super) op: CmpOp,
}

/// [`Quiet::Sum`]: `sides[0] op sides[1]`, each side its numbers added
/// (false) or subtracted (true) in turn from the first, saturating as the
/// reference's `+` and `-` do.
#[derive(Debug)]
pub struct SumCmp {
    pub(super) sides: [Box<[(Num, bool)]>; 2],
    pub(super) op: CmpOp,
}

impl SumCmp {
    fn side(e: &Expr, bound: Option<u16>) -> Option<Vec<(Num, bool)>> {
        Some(match e {
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b, _) => {
                let mut side = SumCmp::side(a, bound)?;
                side.push((Num::of(read(b, bound)?)?, *op == BinOp::Sub));
                side
            }
            _ => vec![(Num::of(read(e, bound)?)?, false)],
        })
    }

    /// `a op b` as a [`Quiet::Sum`], if a side is a sum of numbers.
    fn of(a: &Expr, op: BinOp, b: &Expr, bound: Option<u16>) -> Option<Quiet> {
        let op = CmpOp::of(op)?;
        let (a, b) = (SumCmp::side(a, bound)?, SumCmp::side(b, bound)?);
        (a.len() > 1 || b.len() > 1).then(|| {
            Quiet::Sum(Box::new(SumCmp {
                sides: [a.into(), b.into()],
                op,
            }))
        })
    }

    #[inline(always)]
    pub(super) fn holds(&self, g: &Game, s: &Scope) -> Option<bool> {
        let mut totals = [0i64; 2];
        for (t, side) in totals.iter_mut().zip(&self.sides) {
            for &(n, sub) in side.iter() {
                let n = n.get(g, s)?;
                *t = if sub {
                    t.saturating_sub(n)
                } else {
                    t.saturating_add(n)
                };
            }
        }
        Some(self.op.holds(totals[0], totals[1]))
    }
}

/// A [`Read`] that always gives a number (or gives up where the read
/// would): read straight from the game.
#[derive(Debug, Clone, Copy)]
pub(super) enum Num {
    Const(i64),
    Global(u16),
    /// Counter `k` of a player.
    Counter(Who, u16),
    /// The size of a player's zone (the one, if shared).
    Size(u16, Who),
}

/// The player a [`Num`] reads.
#[derive(Debug, Clone, Copy)]
pub(super) enum Who {
    Me,
    Active,
    Bound,
}

impl Num {
    /// The read as a number read, if it always gives one.
    fn of(r: Read) -> Option<Num> {
        let who = |b: Base| match b {
            Base::Me => Some(Who::Me),
            Base::Active => Some(Who::Active),
            Base::Bound => Some(Who::Bound),
            _ => None,
        };
        Some(match r {
            Read::Lit(Small::Int(i)) => Num::Const(i),
            Read::Of(Base::Global(i)) => Num::Global(i),
            Read::Field(b, f) => Num::Counter(who(b)?, f.counter?),
            Read::Size(z, owner, false) => Num::Size(z, owner.map_or(Some(Who::Me), who)?),
            _ => return None,
        })
    }

    /// What [`Read::get`] gives, as a number.
    #[inline(always)]
    pub(super) fn get(self, g: &Game, s: &Scope) -> Option<i64> {
        let who = |w: Who| match w {
            Who::Me => Some(s.me),
            Who::Active => Some(g.st.active),
            Who::Bound => s.bound,
        };
        Some(match self {
            Num::Const(i) => i,
            Num::Global(i) => g.st.globals[i as usize],
            Num::Counter(w, k) => g.st.counter(who(w)?, k),
            Num::Size(z, w) => {
                // As `Game::zone_size`: a viewer may not know a size.
                if g.viewer.is_some() {
                    return None;
                }
                let owner = if g.st.shared(z) { 0 } else { who(w)? };
                g.st.size(ZoneRef { zone: z, owner }) as i64
            }
        })
    }
}

/// `a op b` as a [`Quiet::Num`], if both reads always give a number.
fn num_cmp(a: Read, op: BinOp, b: Read) -> Option<Quiet> {
    Some(Quiet::Num(Box::new(NumCmp {
        nums: [Num::of(a)?, Num::of(b)?],
        op: CmpOp::of(op)?,
    })))
}

/// A read of the game whose value owns nothing: a literal, a value of the
/// frame, the game or the event, or one field of one (not a field of a
/// field: each read is one step, no recursion).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Read {
    Lit(Small),
    Of(Base),
    /// A field of a card, a card id or a player.
    Field(Base, Field),
    /// `square_get(s, prop)` (the property's index) or `square_card(s)`
    /// (None) of a square read in one step.
    Square(Base, Option<usize>),
    /// `count(zone)` (false) or `empty(zone)` (true) of a zone, its owner
    /// the player running the code (None) or the one read.
    Size(u16, Option<Base>, bool),
}

/// What a [`Read`] starts from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Base {
    This,
    Me,
    Active,
    Global(u16),
    /// A field of the newest event.
    Event(Special),
    /// The player `any(players(), …)` binds.
    Bound,
}

/// The values a [`Read`] gives: [`crate::value::Value`]'s that own nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Small {
    None,
    Int(i64),
    Bool(bool),
    Card(ObjId),
    Def(u16),
    Player(PlayerId),
    Zone(ZoneRef),
}

/// Code that is one condition, as a quiet tree, if it is one.
pub fn condition(code: &Code, data: &Data) -> Option<Quiet> {
    match &code.stmts[..] {
        [Stmt::Return(Some(e))] => quiet(e, None, data),
        _ => None,
    }
}

/// Code that is one condition as a quiet tree (true), else the quiet
/// conjuncts it starts with (false): `a and b` is false where `a` is, and
/// nothing of `b` runs then.
pub fn lead(code: &Code, data: &Data) -> Option<(Quiet, bool)> {
    fn lead_of(e: &Expr, data: &Data) -> Option<Quiet> {
        match e {
            Expr::And(a, _) => quiet(a, None, data).or_else(|| lead_of(a, data)),
            _ => None,
        }
    }
    let [Stmt::Return(Some(e))] = &code.stmts[..] else {
        return None;
    };
    match quiet(e, None, data) {
        Some(q) => Some((q, true)),
        None => Some((lead_of(e, data)?, false)),
    }
}

/// `e` as a tree; `bound`: the slot the innermost `any` binds.
fn quiet(e: &Expr, bound: Option<u16>, data: &Data) -> Option<Quiet> {
    let q = |e: &Expr| quiet(e, bound, data).map(Box::new);
    let read = |e: &Expr| read(e, bound);
    Some(match e {
        Expr::Not(x) => Quiet::Not(q(x)?),
        Expr::And(a, b) => Quiet::And(q(a)?, q(b)?),
        Expr::Or(a, b) if let Some(p) = piles(a, b) => Quiet::Piles(Box::new(p)),
        Expr::Or(a, b) => Quiet::Or(q(a)?, q(b)?),
        Expr::Is(x, tag, negate, _) => Quiet::Is(read(x)?, *tag, *negate),
        Expr::Bin(op, a, b, _) if let Some(sum) = SumCmp::of(a, *op, b, bound) => sum,
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => match (&**a, &**b) {
            (Expr::Call(Builtin::SquareKind, s, _), Expr::Str(k))
            | (Expr::Str(k), Expr::Call(Builtin::SquareKind, s, _)) => Quiet::KindIs(
                Read::Of(base(s.first()?, bound)?),
                (data.board.squares.iter())
                    .map(|sq| *sq.kind == **k)
                    .collect(),
                *op == BinOp::Eq,
            ),
            _ => {
                let (a, b) = (read(a)?, read(b)?);
                num_cmp(a, *op, b).unwrap_or(Quiet::Eq(a, b, *op == BinOp::Eq))
            }
        },
        Expr::Bin(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b, _) => {
            let (a, b) = (read(a)?, read(b)?);
            num_cmp(a, *op, b).unwrap_or(Quiet::Cmp(a, *op, b))
        }
        Expr::Any(list, slot, body) => match &**list {
            Expr::Call(b @ (Builtin::Players | Builtin::Others), args, _) if args.is_empty() => {
                Quiet::AnyPlayer(
                    *b == Builtin::Players,
                    Box::new(quiet(body, Some(*slot), data)?),
                )
            }
            _ => return None,
        },
        _ => Quiet::Truthy(read(e)?),
    })
}

fn read(e: &Expr, bound: Option<u16>) -> Option<Read> {
    Some(match e {
        Expr::None => Read::Lit(Small::None),
        Expr::Int(i) => Read::Lit(Small::Int(*i)),
        Expr::Bool(b) => Read::Lit(Small::Bool(*b)),
        Expr::Def(d) => Read::Lit(Small::Def(*d)),
        Expr::Field(b, f) if !matches!(**b, Expr::Event) => Read::Field(base(b, bound)?, *f),
        Expr::Call(Builtin::SquareCard, a, _) if let [s] = a.as_slice() => {
            Read::Square(base(s, bound)?, None)
        }
        Expr::Call(Builtin::SquareGet, a, _) if let [s, Expr::Int(p)] = a.as_slice() => {
            Read::Square(base(s, bound)?, Some(usize::try_from(*p).ok()?))
        }
        Expr::Call(b @ (Builtin::Count | Builtin::Empty), args, _) => match &args[..] {
            [Expr::Zone(z, owner)] => {
                let owner = match owner {
                    Some(o) => Some(base(o, bound)?),
                    None => None,
                };
                Read::Size(*z, owner, *b == Builtin::Empty)
            }
            _ => return None,
        },
        _ => Read::Of(base(e, bound)?),
    })
}

fn base(e: &Expr, bound: Option<u16>) -> Option<Base> {
    Some(match e {
        Expr::This => Base::This,
        Expr::Me => Base::Me,
        Expr::Active => Base::Active,
        Expr::Global(i) => Base::Global(*i),
        Expr::Field(b, f) if matches!(**b, Expr::Event) => Base::Event(f.special?),
        Expr::Local(s) if Some(*s) == bound => Base::Bound,
        _ => return None,
    })
}

/// What a tree is decided for: the card and player running the code, and
/// the player an `any` binds.
#[derive(Clone, Copy)]
pub(super) struct Scope {
    pub this: Option<ObjId>,
    pub me: PlayerId,
    pub bound: Option<PlayerId>,
}

impl Quiet {
    /// The condition's truth for card `this` and player `me`, as the
    /// reference would find it; None where it could charge or fail.
    #[inline]
    pub fn decide(&self, g: &Game, this: Option<ObjId>, me: PlayerId) -> Option<bool> {
        let scope = Scope {
            this,
            me,
            bound: None,
        };
        self.truth::<false>(g, &scope, &mut 0)
    }

    /// The truth in scope `s`; `LISTS`: whether `any` of the players is
    /// decided (an end check), the steps the reference charges for the
    /// lists it walks on the way (each one's length, as [`Game::visit`]
    /// charges it) added to `steps`; an ability's condition has none, and
    /// its walk stays as small as it was without them.
    pub(super) fn truth<const LISTS: bool>(
        &self,
        g: &Game,
        s: &Scope,
        steps: &mut u64,
    ) -> Option<bool> {
        Some(match self {
            Quiet::Not(x) => !x.truth::<LISTS>(g, s, steps)?,
            Quiet::And(a, b) => a.truth::<LISTS>(g, s, steps)? && b.truth::<LISTS>(g, s, steps)?,
            Quiet::Or(a, b) => a.truth::<LISTS>(g, s, steps)? || b.truth::<LISTS>(g, s, steps)?,
            Quiet::Is(x, tag, negate) => is(g, x.get(g, s)?, *tag, *negate)?,
            Quiet::Eq(a, b, eq) => same(g, a.get(g, s)?, b.get(g, s)?) == *eq,
            Quiet::Num(n) => {
                let [a, b] = n.nums;
                n.op.holds(a.get(g, s)?, b.get(g, s)?)
            }
            Quiet::Sum(c) => c.holds(g, s)?,
            Quiet::Cmp(a, op, b) => {
                let (x, y) = (int(a.get(g, s)?)?, int(b.get(g, s)?)?);
                match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                }
            }
            Quiet::KindIs(x, kinds, eq) => kinds[square(g, x.get(g, s)?)?] == *eq,
            Quiet::Truthy(x) => truthy(x.get(g, s)?),
            Quiet::AnyPlayer(..) | Quiet::Piles(..) if !LISTS => return None,
            Quiet::Piles(p) => p.holds(g, s.me, steps),
            Quiet::AnyPlayer(all, body) => {
                // The list `players()` (from the active player) or
                // `others()` (after `me`) makes, its length charged before
                // the first is tried.
                let from = if *all { g.st.active } else { s.me };
                // Its length is the players in the game (`from` left out of
                // `others()`), counted in any order.
                let lost = &g.st.lost[..g.st.nplayers as usize];
                *steps += (lost.iter().enumerate())
                    .filter(|&(p, &l)| !l && (*all || p != from as usize))
                    .count() as u64;
                for p in g.turn_order_iter(from, *all) {
                    let inner = Scope {
                        bound: Some(p),
                        ..*s
                    };
                    if body.truth::<LISTS>(g, &inner, steps)? {
                        return Some(true);
                    }
                }
                false
            }
        })
    }
}

impl Read {
    /// What [`Game::field`] and the reference's reads give, where it owns
    /// nothing and nothing fails.
    #[inline(always)]
    pub(super) fn get(&self, g: &Game, s: &Scope) -> Option<Small> {
        match self {
            Read::Lit(v) => Some(*v),
            Read::Of(b) => b.get(g, s),
            Read::Field(b, f) => field(g, b.get(g, s)?, f),
            Read::Square(b, prop) => {
                let sq = square(g, b.get(g, s)?)?;
                match prop {
                    None => Some(
                        g.data.board.squares[sq]
                            .card
                            .map_or(Small::None, Small::Def),
                    ),
                    Some(p) => {
                        let b = &g.st.board;
                        small(b.props().get(sq * b.nprops + p).filter(|_| *p < b.nprops)?)
                    }
                }
            }
            Read::Size(z, owner, empty) => {
                // As `Game::zone_size`: a viewer may not know a size.
                if g.viewer.is_some() {
                    return None;
                }
                let owner = match owner {
                    Some(b) => match b.get(g, s)? {
                        Small::Player(p) => p,
                        _ => return None,
                    },
                    None => s.me,
                };
                let owner = if g.st.shared(*z) { 0 } else { owner };
                let n = g.st.size(ZoneRef { zone: *z, owner });
                Some(match empty {
                    true => Small::Bool(n == 0),
                    false => Small::Int(n as i64),
                })
            }
        }
    }
}

/// The square a value names, as the board's readers take it; None where
/// they would fail (a game with no board, a value naming no square).
#[inline(always)]
pub(super) fn square(g: &Game, v: Small) -> Option<usize> {
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
    fn get(self, g: &Game, s: &Scope) -> Option<Small> {
        Some(match self {
            Base::This => s.this.map_or(Small::None, Small::Card),
            Base::Me => Small::Player(s.me),
            Base::Active => Small::Player(g.st.active),
            Base::Global(i) => Small::Int(g.st.globals[i as usize]),
            Base::Bound => Small::Player(s.bound?),
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
            (Some(pr), _) => Small::Int(g.data.table.prop(d, pr)),
            (_, Some(Special::Id)) => Small::Def(d),
            _ => return None,
        },
        Small::None => Small::None,
        _ => return None,
    })
}

/// `==` as [`Game::equal`] has it for values that own nothing.
#[inline(always)]
pub(super) fn same(g: &Game, a: Small, b: Small) -> bool {
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

/// `v is tag` (negated if `negate`), as [`Quiet::Is`] decides it.
#[inline(always)]
pub(super) fn is(g: &Game, v: Small, tag: u16, negate: bool) -> Option<bool> {
    let tags = match v {
        Small::Card(c) => g.st.tags(c),
        Small::Def(d) => g.data.defs[d as usize].tags,
        Small::None => 0,
        _ => return None,
    };
    Some((tags & bit(tag) != 0) != negate)
}

/// A value's truth, as [`Value::truthy`] has it.
#[inline(always)]
pub(super) fn truthy(v: Small) -> bool {
    match v {
        Small::None => false,
        Small::Bool(b) => b,
        Small::Int(i) => i != 0,
        _ => true,
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
