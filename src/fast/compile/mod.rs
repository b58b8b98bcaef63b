//! Compiled code as native closures. Each expression and statement becomes a
//! Rust closure that calls its children directly; what a tree-walker would
//! decide on every run (which kind of operand, whether a zone is shared, which
//! table a field reads, whether a value is only tested for truth) is decided
//! once here. A piece of code is compiled the first time it runs and kept in
//! the tier's table ([`super::Fast`]), by its [`Code::id`].
//!
//! By job: statements (`stmt`), lists grown in a local (`append`), expressions (`expr`), verbs inlined
//! (`inline`), moves/runs/emits (`moves`), calls known at load (`known`),
//! log lines nobody keeps (`logline`), prompts joined only when read (`prompt`), names compared (`names`);
//! what they compile to: blocks of leaves (`leaf`), move bodies run in place
//! (`straight`), the top-card loop (`toploop`), small shapes (`shapes`),
//! zones and cards found in place (`place`), rules hooks (`hook`).

use std::cell::Cell;

use crate::data::Data;
use crate::engine::exec::{Charge, Frame, MAX_LOOP, Returns};
use crate::engine::state::Event;
use crate::engine::{Flow, Game, Res};
use crate::fast::native::CmpOp;
use crate::lang::builtins::Builtin;
use crate::lang::ir::*;
use crate::value::{Args, Cards, ObjId, PlayerId, Value, ZoneRef, bit};

mod append;
mod arith;
mod conj;
mod expr;
mod filter;
mod hook;
mod inline;
mod invariant;
mod known;
mod leaf;
mod listed;
mod logline;
mod marks;
mod moves;
mod names;
mod near;
mod place;
mod prompt;
mod ran;
mod shapes;
mod stmt;
mod straight;
mod toploop;
mod zonesum;

use arith::Conjunct;
use conj::*;
use filter::*;
pub(in crate::fast) use filter::{Filter, Lead};
pub use hook::Hook;
use leaf::*;
use listed::Listed;
use near::Scan;
use place::*;
/// Shapes the quiet conditions read too ([`super::quiet`]).
pub(super) use shapes::pile_or;
use shapes::*;
pub use straight::Straight;
use toploop::*;
use zonesum::*;

type Native<T> = Box<dyn Fn(&mut Game, &mut Frame) -> Res<T> + Send + Sync>;
/// Code that computes a value.
pub type ValFn = Native<Value>;
/// Code whose value is only tested for truth (conditions, filters).
pub type CondFn = Native<bool>;
/// A statement or a block.
pub type StmtFn = Native<()>;

/// A compiled piece of code: one expression, or statements whose value is
/// none unless they return one.
pub enum Body {
    Expr(ValFn),
    /// An expression whose value is the truth of a condition: callers that
    /// only test it (the end check) take the truth, with no value made.
    Cond(CondFn),
    Block(StmtFn),
    /// A block that is one inlined verb call of a [`Straight`] shape: the
    /// shape, and the block as compiled.
    Straight(Box<Straight>, StmtFn),
    /// A block the rules run as a [`Hook`].
    Hook(Box<Hook>),
    /// Statements that only open windows, `window(...)` calls alone: they
    /// are opened with no frame, which they read nothing of.
    Windows(Box<[u16]>),
}

impl Body {
    /// Runs the code; a `return` is left to the caller to catch.
    #[inline(always)]
    pub fn run(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        match self {
            Body::Expr(e) => e(g, f),
            Body::Cond(c) => c(g, f).map(Value::Bool),
            Body::Block(b) | Body::Straight(_, b) => b(g, f).map(|()| Value::None),
            Body::Hook(h) => run(&h.leaves, g, f).map(|()| Value::None),
            Body::Windows(ws) => (ws.iter())
                .try_for_each(|&w| g.window_in(f.data, w))
                .map(|()| Value::None),
        }
    }
}

impl crate::engine::tier::Compiled for Body {
    #[inline]
    fn run(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        Body::run(self, g, f)
    }
}

/// Compiles a whole piece of code: one-expression code (conditions, picks, bot
/// rules) returns its value directly, without a statement and a `Return`.
pub(super) fn compile(data: &Data, code: &Code) -> (Body, usize) {
    if let Some(ws) = code.only_windows() {
        return (Body::Windows(ws), code.slots as usize);
    }
    let need = Cell::new(code.slots);
    let f = Compiler::whole(data, code, &need).body::<KeepValue>(&code.stmts);
    (f, need.get() as usize)
}

/// A move's pick that is one `list where cond`, as its filter and the
/// frame slots it needs, compiled as [`compile`] compiles the pick: the
/// tier lists its items straight into a window's options, with no list
/// made, shared and dropped. None for any other pick.
pub(in crate::fast) fn filter_pick(data: &Data, code: &Code) -> Option<(Filter, usize)> {
    let [Stmt::Return(Some(Expr::Where(list, slot, cond)))] = code.stmts.as_slice() else {
        return None;
    };
    let need = Cell::new(code.slots);
    let fl = Compiler::whole(data, code, &need).filter_of(list, *slot, cond);
    Some((fl, need.get() as usize))
}

impl<'a> Compiler<'a> {
    /// The compiler of a whole piece of code (no verb inlined yet): its
    /// frame starts at slot 0, and `need` grows past `code`'s own slots
    /// as inlined verbs ask for more.
    fn whole(data: &'a Data, code: &Code, need: &'a Cell<u16>) -> Self {
        Compiler {
            data,
            base: 0,
            size: code.slots,
            need,
            chain: Vec::new(),
            remap: Vec::new(),
        }
    }
}

/// Verbs inlined one inside another at most this deep (a verb calling
/// itself is never inlined into itself).
const INLINE_DEPTH: usize = 4;

struct Compiler<'d> {
    data: &'d Data,
    /// The frame slot of the code's slot 0: not 0 inside an inlined verb,
    /// whose slots follow its caller's.
    base: u16,
    /// The slots of the code being compiled.
    size: u16,
    /// The frame size the whole compiled code needs.
    need: &'d Cell<u16>,
    /// The verbs being inlined around the code being compiled.
    chain: Vec<u16>,
    /// Parameters of an inlined verb read from a caller's frame slot.
    remap: Vec<(u16, usize)>,
}

/// The value of a `+=`, `-=` or `=` assignment.
fn combine(g: &Game, op: AssignOp, old: &Value, v: Value, span: Span) -> Res<Value> {
    match op {
        AssignOp::Set => Ok(v),
        AssignOp::Add => Ok(Value::Int(
            g.int(old, span)?.saturating_add(g.int(&v, span)?),
        )),
        AssignOp::Sub => Ok(Value::Int(
            g.int(old, span)?.saturating_sub(g.int(&v, span)?),
        )),
    }
}

/// Two numbers compared or added: the common case of a binary operator.
#[inline(always)]
fn int_op(op: BinOp, x: i64, y: i64) -> Option<Value> {
    Some(match op {
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        BinOp::Add => Value::Int(x.saturating_add(y)),
        BinOp::Sub => Value::Int(x.saturating_sub(y)),
        _ => return None,
    })
}

/// A few values: inline, no allocation for the usual handful.
type Items = smallvec::SmallVec<[Value; 8]>;

/// The items of a list or zone for which `cond` holds (each bound in `slot`
/// while tested). A zone's cards are read without building its list.
fn filter_items(
    g: &mut Game,
    f: &mut Frame,
    list: &Value,
    slot: usize,
    cond: &CondFn,
    out: &mut Items,
) -> Res<()> {
    if let Value::Zone(z) = list {
        g.check_visible(*z, f.span)?;
        g.charge(f.span, g.st.listed(*z) as u64)?;
        for c in g.cards_of(list, f)? {
            f.slots[slot] = Value::Card(c);
            if cond(g, f)? {
                out.push(Value::Card(c));
            }
        }
    } else {
        g.visit(list, f.span)?;
        for item in g.items(list, f.span)?.iter() {
            f.slots[slot] = item.clone();
            if cond(g, f)? {
                out.push(item.clone());
            }
        }
    }
    Ok(())
}

/// The tags of a value tested with `is` at `span`.
#[inline(always)]
fn tags_of(g: &Game, v: &Value, f: &Frame, span: Span) -> Res<u64> {
    match v {
        Value::Card(c) => Ok(g.st.tags(*c)),
        Value::Def(d) => Ok(f.data.defs[*d as usize].tags),
        Value::None => Ok(0),
        other => g.err(span, format!("`is` needs a card, not {}", other.kind())),
    }
}

/// A field read from a value: a player's counter and a card's property in
/// place, anything else through [`Game::field`].
#[inline(always)]
fn read_field(g: &Game, b: &Value, field: &Field, f: &Frame) -> Res<Value> {
    match (b, field.counter, field.prop) {
        (Value::Player(p), Some(c), _) => Ok(Value::Int(g.st.counter(*p, c))),
        (Value::Card(c), _, Some(pr)) => Ok(Value::Int(g.st.prop(f.data, *c, pr))),
        (Value::Def(d), _, Some(pr)) => Ok(Value::Int(g.data.table.prop(*d, pr))),
        _ => g.field(b, field, f),
    }
}

/// An argument of an inlined verb call.
enum Arg {
    Slot(usize),
    Me,
    Code(ValFn),
}

/// What a call's value becomes: the value itself, or nothing for a call
/// in statement position (no value to build and drop).
trait Keep: Sized + 'static {
    type Out: Returns + 'static;
    /// Whether the value is kept.
    const VALUE: bool;
    /// Whether only the value's truth is kept (a call tested as a
    /// condition): the body is compiled as one where it can be.
    const TRUTH: bool = false;
    fn keep(v: Value) -> Self::Out;
    /// An inlined verb's compiled body called at `span` (the verb's at
    /// `at`), given to the caller as kept: [`call_body`] of the body, or
    /// for [`Keep::TRUTH`], its truth.
    #[inline(always)]
    fn call(g: &mut Game, f: &mut Frame, body: &Body, span: Span, at: Span) -> Res<Self::Out> {
        call_body::<Self>(g, f, |g, f| body.run(g, f), span, at)
    }
    /// `stmts` as an if-chain of returns giving what is kept, `call`
    /// around it ([`Compiler::called`]); None where it is none.
    fn chained(_: &Compiler, _: &[Stmt], _: inline::Call) -> Option<Native<Self::Out>> {
        None
    }
}

struct KeepValue;
impl Keep for KeepValue {
    type Out = Value;
    const VALUE: bool = true;
    #[inline(always)]
    fn keep(v: Value) -> Value {
        v
    }
    fn chained(c: &Compiler, stmts: &[Stmt], call: inline::Call) -> Option<ValFn> {
        c.tail(stmts, call)
    }
}

/// A call tested as a condition: the truth of its value, taken from a
/// body compiled as a condition with no value made.
struct KeepTruth;
impl Keep for KeepTruth {
    type Out = bool;
    const VALUE: bool = true;
    const TRUTH: bool = true;
    #[inline(always)]
    fn keep(v: Value) -> bool {
        v.truthy()
    }
    #[inline(always)]
    fn call(g: &mut Game, f: &mut Frame, body: &Body, span: Span, at: Span) -> Res<bool> {
        g.inlined(f, Charge::Step, at, span, |g, f| match body {
            Body::Cond(c) => c(g, f),
            body => body.run(g, f).map(|v| v.truthy()),
        })
    }
    fn chained(c: &Compiler, stmts: &[Stmt], call: inline::Call) -> Option<CondFn> {
        c.tail_cond(stmts, call)
    }
}

struct KeepNothing;
impl Keep for KeepNothing {
    type Out = ();
    const VALUE: bool = false;
    #[inline(always)]
    fn keep(_: Value) {}
}

/// What [`Compiler::inlined`] made of a verb call.
enum Inlined<T> {
    Code(Native<T>),
    /// The body's leaves and the verb's span.
    Leaves(Box<[Leaf]>, Span),
}
