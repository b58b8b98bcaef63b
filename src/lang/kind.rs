//! What kind of value an expression always has, as the code shows it: the
//! load-time checks (and the compiler, for a `repeat` count) refuse a value
//! given where another kind is needed, without guessing at what only the run
//! time knows.

use super::builtins::Builtin;
use super::ir::{BinOp, Expr};

/// The kind of value an expression always has, as the code shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number, true/false or none (all read as numbers).
    Number,
    Text,
    List,
    Player,
    Zone,
    CardId,
}

impl Kind {
    pub fn text(self) -> &'static str {
        match self {
            Kind::Number => "a number",
            Kind::Text => "a string",
            Kind::List => "a list",
            Kind::Player => "a player",
            Kind::Zone => "a zone",
            Kind::CardId => "a card id",
        }
    }
}

/// The kind `e` always has, if the code shows it.
pub fn kind(e: &Expr) -> Option<Kind> {
    Some(match e {
        Expr::Int(_)
        | Expr::Bool(_)
        | Expr::None
        | Expr::Neg(_)
        | Expr::Not(_)
        | Expr::Is(..)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::Sum(..)
        | Expr::Any(..) => Kind::Number,
        Expr::Str(_) => Kind::Text,
        Expr::List(_) | Expr::Where(..) | Expr::First(..) => Kind::List,
        Expr::Def(_) => Kind::CardId,
        Expr::Me | Expr::Active => Kind::Player,
        Expr::Zone(..) => Kind::Zone,
        Expr::Bin(BinOp::Add, a, b, _) => match (kind(a)?, kind(b)?) {
            (Kind::List | Kind::Zone, Kind::List | Kind::Zone) => Kind::List,
            (Kind::Text, _) | (_, Kind::Text) => Kind::Text,
            (Kind::Number, Kind::Number) => Kind::Number,
            _ => return None,
        },
        Expr::Bin(..) => Kind::Number,
        Expr::Call(b, ..) => match b {
            Builtin::Count
            | Builtin::Empty
            | Builtin::PileCount
            | Builtin::EmptyPiles
            | Builtin::Random
            | Builtin::Min
            | Builtin::Max
            | Builtin::Roll
            | Builtin::Piece
            | Builtin::Advance
            | Builtin::May
            | Builtin::Contains
            | Builtin::HasTag => Kind::Number,
            Builtin::Players
            | Builtin::Others
            | Builtin::Piles
            | Builtin::Defs
            | Builtin::Listed
            | Builtin::Choose
            | Builtin::Reveal
            | Builtin::Look
            | Builtin::Attached
            | Builtin::RandomPick => Kind::List,
            Builtin::NextPlayer | Builtin::Player => Kind::Player,
            _ => return None,
        },
        _ => return None,
    })
}
