//! Abilities' quiet conditions ([`Quiet`]) made into closures: each event
//! asks those of the abilities it finds, most of them one comparison or tag
//! test of reads (`event.card == this`, `me == active`, `this.host !=
//! none`, `this is <tag>`, `square_kind(event.target) == "<kind>"`,
//! `buys > 0`) or an `and` of such. The commonest reads get code made for
//! them, so no tree is walked and no read's kind matched at each decision;
//! `and`, `or` and `not` call their parts' closures; any other node is
//! decided as its tree is ([`Quiet::decide`]). The answer is always the
//! tree's.

use super::quiet::{self, Base, Quiet, Read, Scope, Small, same};
use crate::data::Data;
use crate::engine::Game;
use crate::lang::ir::{Field, Special};
use crate::value::{ObjId, PlayerId};

/// A condition's truth for card `this` and player `me`, as
/// [`Quiet::decide`] gives it (None where the tree gives up).
pub type Decide = Box<dyn Fn(&Game, Option<ObjId>, PlayerId) -> Option<bool> + Send + Sync>;

/// By trigger, its condition made into closures, if it is quiet.
pub fn conditions(data: &Data) -> Box<[Option<Condition>]> {
    (data.triggers.iter())
        .map(|t| t.cond.as_ref().and_then(|c| quiet::condition(c, data)))
        .map(|q| q.map(Condition::of))
        .collect()
}

/// `$f::<…, T>(args)` for the named read `T` that `$read` is, if any.
macro_rules! by_name {
    ($read:expr, $f:ident $(::<$pre:ty>)? ($($args:expr),*)) => {{
        let r = $read;
        by_name!(@ r, $f, ($($pre)?), ($($args),*),
            This, Me, Active, EventCard, EventPlayer, EventSource, EventTarget, ThisHost, Nothing)
    }};
    (@ $r:ident, $f:ident, $pre:tt, $args:tt, $($t:ident),*) => {
        if false {
            None
        }
        $(else if alike($r, $t::READ) {
            Some(by_name!(@call $f, $pre, $t, $args))
        })*
        else {
            None
        }
    };
    (@call $f:ident, ($($pre:ty)?), $t:ident, ($($args:expr),*)) => {
        $f::<$($pre,)? $t>($($args),*)
    };
}

/// The closures deciding `q`.
fn decider(q: Quiet) -> Decide {
    match q {
        Quiet::Not(x) => {
            let x = decider(*x);
            Box::new(move |g, t, m| Some(!x(g, t, m)?))
        }
        Quiet::And(a, b) => {
            let (a, b) = (decider(*a), decider(*b));
            Box::new(move |g, t, m| Some(a(g, t, m)? && b(g, t, m)?))
        }
        Quiet::Or(a, b) => {
            let (a, b) = (decider(*a), decider(*b));
            Box::new(move |g, t, m| Some(a(g, t, m)? || b(g, t, m)?))
        }
        Quiet::Eq(a, b, eq) => by_name!(a, eq_a(b, eq)).unwrap_or_else(|| {
            Box::new(move |g, t, m| {
                let s = scope(t, m);
                Some(same(g, a.get(g, &s)?, b.get(g, &s)?) == eq)
            })
        }),
        Quiet::Is(x, tag, negate) => {
            by_name!(x, is_of(tag, negate)).unwrap_or_else(|| tree(Quiet::Is(x, tag, negate)))
        }
        Quiet::KindIs(x, kinds, eq) => match by_name!(x, kind_of(kinds.clone(), eq)) {
            Some(d) => d,
            None => tree(Quiet::KindIs(x, kinds, eq)),
        },
        Quiet::Num(n) => {
            let ([a, b], op) = (n.nums, n.op);
            Box::new(move |g, t, m| {
                let s = scope(t, m);
                Some(op.holds(a.get(g, &s)?, b.get(g, &s)?))
            })
        }
        q => tree(q),
    }
}

/// A node decided as its tree is.
fn tree(q: Quiet) -> Decide {
    Box::new(move |g, t, m| q.decide(g, t, m))
}

/// A trigger's condition: made into closures, or (where no closure is made
/// for its root) its tree, decided with no closure called.
pub enum Condition {
    Made(Decide),
    Tree(Quiet),
}

impl Condition {
    fn of(q: Quiet) -> Condition {
        match q {
            Quiet::Not(_)
            | Quiet::And(..)
            | Quiet::Or(..)
            | Quiet::Eq(..)
            | Quiet::Is(..)
            | Quiet::KindIs(..)
            | Quiet::Num(_) => Condition::Made(decider(q)),
            q => Condition::Tree(q),
        }
    }

    /// As [`Quiet::decide`].
    #[inline(always)]
    pub fn decide(&self, g: &Game, this: Option<ObjId>, me: PlayerId) -> Option<bool> {
        match self {
            Condition::Made(d) => d(g, this, me),
            Condition::Tree(q) => q.decide(g, this, me),
        }
    }
}

#[inline(always)]
fn scope(this: Option<ObjId>, me: PlayerId) -> Scope {
    Scope {
        this,
        me,
        bound: None,
    }
}

/// A read named by a type: the code made for it knows its kind.
trait Named {
    const READ: Read;
}

/// A field of a card that is only a special one (its name left out: the
/// reads compare fields by what they read, [`alike`]).
const fn special(s: Special) -> Field {
    Field {
        name: 0,
        counter: None,
        prop: None,
        special: Some(s),
    }
}

macro_rules! named {
    ($($t:ident = $r:expr;)*) => {
        $(
            struct $t;
            impl Named for $t {
                const READ: Read = $r;
            }
        )*
    };
}

named! {
    This = Read::Of(Base::This);
    Me = Read::Of(Base::Me);
    Active = Read::Of(Base::Active);
    EventCard = Read::Of(Base::Event(Special::Card));
    EventPlayer = Read::Of(Base::Event(Special::Player));
    EventSource = Read::Of(Base::Event(Special::Source));
    EventTarget = Read::Of(Base::Event(Special::Target));
    ThisHost = Read::Field(Base::This, special(Special::Host));
    Nothing = Read::Lit(Small::None);
}

/// Whether two reads read the same (a field by what it reads, not its name).
fn alike(a: Read, b: Read) -> bool {
    match (a, b) {
        (Read::Field(x, f), Read::Field(y, h)) => {
            x == y && (f.counter, f.prop, f.special) == (h.counter, h.prop, h.special)
        }
        _ => a == b,
    }
}

/// `A == b` (`!=` if not `eq`).
fn eq_a<A: Named>(b: Read, eq: bool) -> Decide {
    by_name!(b, eq_ab::<A>(eq)).unwrap_or_else(|| {
        Box::new(move |g, t, m| {
            let s = scope(t, m);
            Some(same(g, A::READ.get(g, &s)?, b.get(g, &s)?) == eq)
        })
    })
}

/// `A == B` (`!=` if not `eq`).
fn eq_ab<A: Named, B: Named>(eq: bool) -> Decide {
    Box::new(move |g, t, m| {
        let s = scope(t, m);
        Some(same(g, A::READ.get(g, &s)?, B::READ.get(g, &s)?) == eq)
    })
}

/// `square_kind(A) == "kind"` (`!=` if not `eq`): by square, whether its
/// kind is that one.
fn kind_of<A: Named>(kinds: std::sync::Arc<[bool]>, eq: bool) -> Decide {
    Box::new(move |g, t, m| Some(kinds[quiet::square(g, A::READ.get(g, &scope(t, m))?)?] == eq))
}

/// `A is tag` (negated if `negate`).
fn is_of<A: Named>(tag: u16, negate: bool) -> Decide {
    Box::new(move |g, t, m| quiet::is(g, A::READ.get(g, &scope(t, m))?, tag, negate))
}
