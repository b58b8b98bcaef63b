//! The compiled form of effect code: names resolved to indices, ready to run.
//! Nothing here is parsed at run time; the kernel's reference evaluator
//! walks these trees (a faster tier may compile them, keyed by [`Code::id`]).

use crate::lang::builtins::Builtin;

/// Where a piece of code came from, for error reports at run time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

/// A compiled block with its local-variable frame size.
#[derive(Debug, Clone)]
pub struct Code {
    pub stmts: Vec<Stmt>,
    pub slots: u16,
    pub span: Span,
    /// The code's number among its game's code, given at load: the key of
    /// what is kept beside the data about it (a faster tier's compiled
    /// form). [`Code::UNNUMBERED`] for code made later (a scenario's
    /// expectations).
    pub id: u32,
}

impl Code {
    pub const UNNUMBERED: u32 = u32::MAX;
}

impl Default for Code {
    fn default() -> Code {
        Code {
            stmts: Vec::new(),
            slots: 0,
            span: Span::default(),
            id: Code::UNNUMBERED,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Stmt {
    Expr(Expr),
    Let(u16, Expr),
    Assign(Place, AssignOp, Expr, Span),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Repeat(Expr, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    For(u16, Expr, Vec<Stmt>),
    Return(Option<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

impl AssignOp {
    /// A number's new value: `v`, or `old` raised or lowered by `v`
    /// (saturating).
    #[inline(always)]
    pub fn apply(self, old: i64, v: i64) -> i64 {
        match self {
            AssignOp::Set => v,
            AssignOp::Add => old.saturating_add(v),
            AssignOp::Sub => old.saturating_sub(v),
        }
    }
}

/// Something that can be assigned to.
#[derive(Debug, Clone)]
pub enum Place {
    Local(u16),
    /// A field of a value: a player's counter, an event's field.
    Field(Box<Expr>, Field),
    Global(u16),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A field name resolved against every table it could mean; the value's kind
/// picks one at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub name: u32,
    pub counter: Option<u16>,
    pub prop: Option<u16>,
    pub special: Option<Special>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    Id,
    Name,
    Owner,
    Zone,
    Host,
    Index,
    Turns,
    // event fields
    Card,
    Player,
    From,
    To,
    Cause,
    Amount,
    Source,
    Target,
    Prevented,
}

impl Special {
    /// Every special field name, for suggestions and script getters.
    pub const NAMES: &'static [&'static str] = &[
        "id",
        "name",
        "owner",
        "zone",
        "host",
        "index",
        "turns",
        "card",
        "player",
        "from",
        "to",
        "cause",
        "amount",
        "source",
        "target",
        "prevented",
    ];

    pub fn parse(s: &str) -> Option<Special> {
        Some(match s {
            "id" => Special::Id,
            "name" => Special::Name,
            "owner" => Special::Owner,
            "zone" => Special::Zone,
            "host" => Special::Host,
            "index" => Special::Index,
            "turns" => Special::Turns,
            "card" => Special::Card,
            "player" => Special::Player,
            "from" => Special::From,
            "to" => Special::To,
            "cause" => Special::Cause,
            "amount" => Special::Amount,
            "source" => Special::Source,
            "target" => Special::Target,
            "prevented" => Special::Prevented,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone)]
pub enum Expr {
    None,
    Int(i64),
    Bool(bool),
    Str(std::sync::Arc<String>),
    Def(u16),
    List(Vec<Expr>),
    Local(u16),
    This,
    Me,
    Active,
    Event,
    /// The current move or option name while a bot weighs an option.
    MoveName,
    Global(u16),
    /// A zone; `None` owner means "the player running the code" for per-player zones.
    Zone(u16, Option<Box<Expr>>),
    Field(Box<Expr>, Field),
    /// `x is tag` (negated if true), with its span: a run-time error in it
    /// (`x` is not a card) points here, not at the last call.
    Is(Box<Expr>, u16, bool, Span),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>, Span),
    /// `list where cond`, with `it` bound in the given slot.
    Where(Box<Expr>, u16, Box<Expr>),
    /// `list where cond` as far as its first item: a list of that item, or
    /// an empty one. What a filter becomes where only its emptiness is read
    /// (`data::probe`): the items after the first that passes are not tested.
    First(Box<Expr>, u16, Box<Expr>),
    /// `sum(list, expr)` and `any(list, cond)` bind `it` the same way.
    Sum(Box<Expr>, u16, Box<Expr>),
    Any(Box<Expr>, u16, Box<Expr>),
    Call(Builtin, Vec<Expr>, Span),
    Verb(u16, Vec<Expr>, Span),
    Script(u16, Vec<Expr>, Span),
    /// A Rhai snippet compiled at load time (index into the game's scripts).
    Rhai(u32),
}

impl Code {
    /// The windows code of only `window(...)` calls opens, in order; None
    /// for any other code.
    pub fn only_windows(&self) -> Option<Box<[u16]>> {
        (self.stmts.iter())
            .map(|s| match s {
                Stmt::Expr(Expr::Call(Builtin::Window, a, _)) => match a[..] {
                    [Expr::Int(w)] => u16::try_from(w).ok(),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    /// Whether the code is one expression of reads and comparisons (no
    /// call but the board's readers, no verb, script, filter, list or
    /// zone): a tier may decide such a condition from the game without
    /// running it.
    pub fn plain(&self) -> bool {
        match &self.stmts[..] {
            [Stmt::Return(Some(e))] => e.plain(),
            _ => false,
        }
    }

    /// Whether the code reads local slot `slot` (e.g. `it` in a bot rule), so a
    /// caller can evaluate code that does not depend on it only once.
    pub fn reads_slot(&self, slot: u16) -> bool {
        self.stmts.iter().any(|s| s.reads_slot(slot))
    }
}

impl Stmt {
    pub fn reads_slot(&self, slot: u16) -> bool {
        let block = |b: &[Stmt]| b.iter().any(|s| s.reads_slot(slot));
        match self {
            Stmt::Expr(e) | Stmt::Let(_, e) | Stmt::Return(Some(e)) => e.reads_slot(slot),
            Stmt::Return(None) => false,
            Stmt::Assign(p, _, e, _) => {
                e.reads_slot(slot)
                    || match p {
                        Place::Local(s) => *s == slot,
                        Place::Field(b, _) => b.reads_slot(slot),
                        Place::Global(_) => false,
                    }
            }
            Stmt::If(c, a, b) => c.reads_slot(slot) || block(a) || block(b),
            Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                c.reads_slot(slot) || block(b)
            }
        }
    }
}

impl Expr {
    /// See [`Code::plain`].
    fn plain(&self) -> bool {
        match self {
            Expr::None
            | Expr::Int(_)
            | Expr::Bool(_)
            | Expr::Str(_)
            | Expr::Def(_)
            | Expr::This
            | Expr::Me
            | Expr::Active
            | Expr::Event
            | Expr::Global(_) => true,
            Expr::Field(b, _) | Expr::Is(b, ..) | Expr::Not(b) => b.plain(),
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Bin(_, a, b, _) => a.plain() && b.plain(),
            // The board's readers only read.
            Expr::Call(Builtin::SquareKind | Builtin::SquareCard | Builtin::SquareGet, a, _) => {
                a.iter().all(Expr::plain)
            }
            _ => false,
        }
    }

    pub fn reads_slot(&self, slot: u16) -> bool {
        match self {
            Expr::Local(s) => *s == slot,
            // Scripts see the frame's first slot as `target`.
            Expr::Rhai(_) => slot == 0,
            _ => self.children().into_iter().any(|e| e.reads_slot(slot)),
        }
    }

    fn binds_slot(&self, slot: u16) -> bool {
        match self {
            Expr::Where(_, s, _)
            | Expr::First(_, s, _)
            | Expr::Sum(_, s, _)
            | Expr::Any(_, s, _)
                if *s == slot =>
            {
                true
            }
            Expr::Rhai(_) => slot == 0,
            _ => self.children().into_iter().any(|e| e.binds_slot(slot)),
        }
    }

    fn substitute(&mut self, slot: u16, to: &Expr) {
        match self {
            Expr::Local(s) if *s == slot => *self = to.clone(),
            _ => {
                for e in self.children_mut() {
                    e.substitute(slot, to);
                }
            }
        }
    }

    /// The expressions this one holds, in order (for the slot walkers above;
    /// load time only).
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::List(v) | Expr::Call(_, v, _) | Expr::Verb(_, v, _) | Expr::Script(_, v, _) => {
                v.iter().collect()
            }
            Expr::Zone(_, Some(b))
            | Expr::Field(b, _)
            | Expr::Is(b, ..)
            | Expr::Not(b)
            | Expr::Neg(b) => vec![b],
            Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Bin(_, a, b, _)
            | Expr::Where(a, _, b)
            | Expr::First(a, _, b)
            | Expr::Sum(a, _, b)
            | Expr::Any(a, _, b) => vec![a, b],
            // Leaves, named so a new kind of expression must say what it holds.
            Expr::None
            | Expr::Int(_)
            | Expr::Bool(_)
            | Expr::Str(_)
            | Expr::Def(_)
            | Expr::Local(_)
            | Expr::This
            | Expr::Me
            | Expr::Active
            | Expr::Event
            | Expr::MoveName
            | Expr::Global(_)
            | Expr::Zone(_, None)
            | Expr::Rhai(_) => vec![],
        }
    }

    /// [`Expr::children`], to change them.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::List(v) | Expr::Call(_, v, _) | Expr::Verb(_, v, _) | Expr::Script(_, v, _) => {
                v.iter_mut().collect()
            }
            Expr::Zone(_, Some(b))
            | Expr::Field(b, _)
            | Expr::Is(b, ..)
            | Expr::Not(b)
            | Expr::Neg(b) => vec![b],
            Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Bin(_, a, b, _)
            | Expr::Where(a, _, b)
            | Expr::First(a, _, b)
            | Expr::Sum(a, _, b)
            | Expr::Any(a, _, b) => vec![a, b],
            // Leaves, as in `children`.
            _ => vec![],
        }
    }
}

impl Code {
    /// Whether the code may write local slot `slot` (a `let`, an assignment,
    /// a loop or `it` binding), or a script reads it from the frame: a verb
    /// parameter for which this is false holds its argument throughout.
    pub fn binds_slot(&self, slot: u16) -> bool {
        self.stmts.iter().any(|s| s.binds_slot(slot))
    }
}

impl Stmt {
    /// Every expression the statement and those in its blocks hold, at any depth.
    pub fn each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        fn deep<'a>(e: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
            f(e);
            for c in e.children() {
                deep(c, f);
            }
        }
        self.top_exprs(&mut |e| deep(e, f));
    }

    /// The expressions the statement and those in its blocks hold at their
    /// top, in order.
    pub fn top_exprs<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Stmt::Expr(e) | Stmt::Let(_, e) | Stmt::Return(Some(e)) => f(e),
            Stmt::Return(None) => {}
            Stmt::Assign(p, _, e, _) => {
                if let Place::Field(b, _) = p {
                    f(b);
                }
                f(e);
            }
            Stmt::If(c, a, b) => {
                f(c);
                a.iter().chain(b).for_each(|s| s.top_exprs(f));
            }
            Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                f(c);
                b.iter().for_each(|s| s.top_exprs(f));
            }
        }
    }

    /// [`Stmt::top_exprs`], to change them.
    pub fn exprs_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match self {
            Stmt::Expr(e) | Stmt::Let(_, e) | Stmt::Return(Some(e)) => f(e),
            Stmt::Return(None) => {}
            Stmt::Assign(p, _, e, _) => {
                if let Place::Field(b, _) = p {
                    f(b);
                }
                f(e);
            }
            Stmt::If(c, a, b) => {
                f(c);
                a.iter_mut().chain(b).for_each(|s| s.exprs_mut(f));
            }
            Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                f(c);
                b.iter_mut().for_each(|s| s.exprs_mut(f));
            }
        }
    }

    pub fn binds_slot(&self, slot: u16) -> bool {
        let block = |b: &[Stmt]| b.iter().any(|s| s.binds_slot(slot));
        match self {
            Stmt::Expr(e) | Stmt::Return(Some(e)) => e.binds_slot(slot),
            Stmt::Let(s, e) => *s == slot || e.binds_slot(slot),
            Stmt::Return(None) => false,
            Stmt::Assign(p, _, e, _) => {
                e.binds_slot(slot)
                    || match p {
                        Place::Local(s) => *s == slot,
                        Place::Field(b, _) => b.binds_slot(slot),
                        Place::Global(_) => false,
                    }
            }
            Stmt::If(c, a, b) => c.binds_slot(slot) || block(a) || block(b),
            Stmt::Repeat(c, b) | Stmt::While(c, b) => c.binds_slot(slot) || block(b),
            Stmt::For(s, c, b) => *s == slot || c.binds_slot(slot) || block(b),
        }
    }

    /// Every read of local `slot` replaced by `to`.
    pub fn substitute(&mut self, slot: u16, to: &Expr) {
        let block = |b: &mut Vec<Stmt>| b.iter_mut().for_each(|s| s.substitute(slot, to));
        match self {
            Stmt::Expr(e) | Stmt::Let(_, e) | Stmt::Return(Some(e)) => e.substitute(slot, to),
            Stmt::Return(None) => {}
            Stmt::Assign(p, _, e, _) => {
                e.substitute(slot, to);
                if let Place::Field(b, _) = p {
                    b.substitute(slot, to);
                }
            }
            Stmt::If(c, a, b) => {
                c.substitute(slot, to);
                block(a);
                block(b);
            }
            Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                c.substitute(slot, to);
                block(b);
            }
        }
    }
}
