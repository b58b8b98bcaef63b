//! Compiled code as native closures. Each expression and statement becomes a
//! Rust closure that calls its children directly; what a tree-walker would
//! decide on every run (which kind of operand, whether a zone is shared, which
//! table a field reads, whether a value is only tested for truth) is decided
//! once here. A piece of code is compiled the first time it runs and kept in
//! its [`Code`]; the game data it reads is the data that holds it.

use std::cell::Cell;

use crate::data::Data;
use crate::data::native::CmpOp;
use crate::engine::exec::{Frame, MAX_LOOP};
use crate::engine::state::Event;
use crate::engine::{Flow, Game, Res};
use crate::lang::builtins::Builtin;
use crate::lang::ir::*;
use crate::value::{Args, Cards, ObjId, PlayerId, Value, ZoneRef, bit};

mod hook;
pub use hook::Hook;

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
    let need = Cell::new(code.slots);
    let c = Compiler {
        data,
        base: 0,
        size: code.slots,
        need: &need,
        chain: Vec::new(),
        remap: Vec::new(),
    };
    let f = c.body::<KeepValue>(&code.stmts);
    (f, need.get() as usize)
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
        for c in g.cards_of(list, f)? {
            f.slots[slot] = Value::Card(c);
            if cond(g, f)? {
                out.push(Value::Card(c));
            }
        }
    } else {
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
        _ => g.field(b, field, f),
    }
}

/// A zone operand: one the code names without an owner (`supply`, `hand`)
/// is found in place (it cannot fail), no closure run.
enum ZoneOp {
    At(ZoneAt),
    Code(ValFn),
}

impl ZoneOp {
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        match self {
            ZoneOp::At(z) => Ok(Value::Zone(z.get(g, f)?)),
            ZoneOp::Code(c) => c(g, f),
        }
    }

    /// The zone of a builtin's only argument, read after `f.span` is set
    /// to the call's.
    #[inline(always)]
    fn zone(&self, g: &mut Game, f: &mut Frame, span: Span) -> Res<ZoneRef> {
        match self {
            ZoneOp::At(z) => {
                f.span = span;
                z.get(g, f)
            }
            ZoneOp::Code(c) => {
                let v = c(g, f)?;
                f.span = span;
                g.zone_arg(&v, f)
            }
        }
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
trait Keep: 'static {
    type Out: 'static;
    /// Whether the value is kept.
    const VALUE: bool;
    fn keep(v: Value) -> Self::Out;
}

struct KeepValue;
impl Keep for KeepValue {
    type Out = Value;
    const VALUE: bool = true;
    #[inline(always)]
    fn keep(v: Value) -> Value {
        v
    }
}

struct KeepNothing;
impl Keep for KeepNothing {
    type Out = ();
    const VALUE: bool = false;
    #[inline(always)]
    fn keep(_: Value) {}
}

/// A zone expression whose zone is found without running code: a shared
/// zone, one of the running player's, or one of the player in a slot.
#[derive(Clone, Copy, PartialEq)]
enum ZoneAt {
    Fixed(ZoneRef),
    Mine(u16),
    Slot(u16, usize),
}

impl ZoneAt {
    #[inline(always)]
    fn get(self, g: &Game, f: &Frame) -> Res<ZoneRef> {
        Ok(match self {
            ZoneAt::Fixed(z) => z,
            ZoneAt::Mine(zone) => ZoneRef { zone, owner: f.me },
            ZoneAt::Slot(zone, s) => ZoneRef {
                zone,
                owner: g.player(&f.slots[s], f.span)?,
            },
        })
    }
}

impl ZoneAt {
    /// The zone for player `me` where no slot names the owner (a
    /// [`Straight`] body's moves: never a slot's zone, see `Straight::find`).
    #[inline(always)]
    fn mine(self, me: PlayerId) -> ZoneRef {
        match self {
            ZoneAt::Fixed(z) => z,
            ZoneAt::Mine(zone) | ZoneAt::Slot(zone, _) => ZoneRef { zone, owner: me },
        }
    }

    /// [`ZoneAt::get`] with no error made: none where it fails.
    #[inline(always)]
    fn find(self, f: &Frame) -> Option<ZoneRef> {
        Some(match self {
            ZoneAt::Fixed(z) => z,
            ZoneAt::Mine(zone) => ZoneRef { zone, owner: f.me },
            ZoneAt::Slot(zone, s) => match f.slots[s] {
                Value::Player(owner) => ZoneRef { zone, owner },
                _ => return None,
            },
        })
    }
}

/// The cards a move takes, found without running code: a slot's value,
/// the top card of a zone (`top(deck)`, with the span of the `top` call) or
/// a whole zone.
#[derive(Clone, Copy)]
enum CardAt {
    Slot(usize),
    Top(ZoneAt, Span),
    Zone(ZoneAt),
}

/// The body of an inlined verb called at `span`, with the step, depth, span
/// (`at`, the verb's) and move name of a call of its own; a `return` ends
/// it.
#[inline(always)]
fn call_body<K: Keep>(
    g: &mut Game,
    f: &mut Frame,
    body: impl FnOnce(&mut Game, &mut Frame) -> Res<Value>,
    span: Span,
    at: Span,
) -> Res<K::Out> {
    // A failed step or depth check is an error that no code reads the
    // span of.
    g.enter(at)?;
    f.span = at;
    let move_name = f.move_name.take();
    let r = match body(g, f) {
        Ok(v) => Ok(K::keep(v)),
        Err(e) => match *e {
            Flow::Return(v) => Ok(K::keep(v)),
            e => Err(crate::engine::at_call(Box::new(e), span)),
        },
    };
    f.move_name = move_name;
    f.span = span;
    g.leave();
    r
}

/// What [`Compiler::inlined`] made of a verb call.
enum Inlined<T> {
    Code(Native<T>),
    /// The body's leaves and the verb's span.
    Leaves(Box<[Leaf]>, Span),
}

/// A statement of a block, the usual ones run in place by [`run`]: a block
/// is one closure call, not one per statement (and per nested block).
enum Leaf {
    /// `move(x, zone, cause)` of a local's card run for its effect: a quiet
    /// move in place, anything else as compiled (`code`).
    Move {
        slot: usize,
        to: ZoneAt,
        cause: Option<u16>,
        span: Span,
        code: StmtFn,
    },
    /// `move(zone, zone, cause)` of whole zones found in place, run for
    /// its effect: a quiet move in place, anything else as compiled.
    Zones {
        from: ZoneAt,
        to: ZoneAt,
        cause: Option<u16>,
        span: Span,
        code: StmtFn,
    },
    /// `for x in zone where x is <tag> { move(x, to, cause) }`: the zone
    /// moved whole in place where [`whole_move`] can, else as compiled.
    WholeMove {
        zone: ZoneAt,
        test: (u64, bool),
        mv: (ZoneAt, Option<u16>, bool, Span),
        slots: (usize, usize),
        code: StmtFn,
    },
    /// `counter op= n` of the running player.
    Counter {
        c: u16,
        op: AssignOp,
        num: Num,
        span: Span,
    },
    /// `if x is tag { .. } else { .. }` of a local: its tag mask, negated?
    /// The `then` leaves follow, then a [`Leaf::Jump`] over the `else` ones
    /// if any: a test that fails skips `skip` leaves.
    IfTag {
        slot: usize,
        mask: u64,
        negate: bool,
        skip: u32,
        /// Where the test fails on a value that is no card.
        span: Span,
    },
    /// Skips `n` leaves.
    Jump(u32),
    /// `run(x, effect)` of a local.
    Run {
        slot: usize,
        effect: u16,
        span: Span,
    },
    /// An inlined verb call run for its effect, at `span`; `at` the verb's.
    Call {
        body: Box<[Leaf]>,
        span: Span,
        at: Span,
    },
    /// `emit(event, x)` of a local that no ability may change or prevent.
    Emit {
        slot: usize,
        name: u16,
        code: StmtFn,
    },
    /// `repeat k { .. }` of a constant count and a [`TopLoop`] body.
    Top(i64, Box<TopLoop>),
    Code(StmtFn),
}

/// A move body of leaves on one local's card, run in place: constant
/// changes of the running player's counters, changes by the card's
/// property (behind a tag test), moves of the card to zones found in
/// place, emits of events nothing listens to, inlined verb calls of such
/// leaves, and last, a `run` of an effect of the card. Where nothing can
/// see it, [`Straight::run`] runs it as one fixed sequence: the calls'
/// steps and depth, no closure, no leaf dispatch.
pub struct Straight {
    /// The card's slot.
    pub slot: usize,
    /// The verb calls (a step each) and how deep they nest.
    calls: u32,
    nest: u32,
    /// The events that must be quiet (a move's cause, an emit's event),
    /// and their bits when all are below 64 (else 0).
    events: Vec<u16>,
    mask: u64,
    ops: Vec<Op>,
    /// The ops when the body moves its card at most once: its counter
    /// changes and its one move. With no modifier in play nothing they read
    /// depends on their order (a move changes no tag, property or counter),
    /// so [`Straight::run`] does them without dispatch: counters, then move.
    ctrs: Option<Box<[Ctr]>>,
    to: Option<ZoneAt>,
    /// An effect run last, and how many calls deep.
    run: Option<(u16, u32)>,
}

/// A [`Straight`] bound by [`Straight::bind`].
pub struct Bound<'s> {
    ctrs: &'s [Ctr],
    /// The destination's instance and the owner a card takes there.
    dst: usize,
    owner: Option<PlayerId>,
    /// The player whose counters change.
    me: PlayerId,
    calls: u64,
    /// The effect run last, if the card has it.
    run: Option<u16>,
}

impl Bound<'_> {
    /// [`Straight::run`] of the bound body on card `c`, listed at index `i`
    /// of zone instance `from` (not the destination); false, with nothing
    /// done, for a card with the effect the body runs.
    #[inline(always)]
    pub fn play(&self, g: &mut Game, data: &Data, c: ObjId, from: usize, i: usize) -> bool {
        let o = &g.st.objs[c as usize];
        let (def, tags) = (&data.defs[o.def as usize], o.tags);
        if let Some(e) = self.run
            && let Some(Some(_)) = def.effects.get(e as usize)
        {
            return false;
        }
        g.budget.spend(self.calls);
        Ctr::change(self.ctrs, g, self.me, tags, def);
        g.st.move_listed(c, from, i, self.dst, self.owner);
        true
    }
}

/// A step of a [`Straight`] body.
enum Op {
    Move(ZoneAt),
    Counter(Ctr),
}

#[derive(Clone, Copy)]
enum By {
    Const(i64),
    Prop(u16),
}

/// A counter change of a [`Straight`]: the tag mask, negated?, the
/// counter, how it changes, by what.
#[derive(Clone, Copy)]
struct Ctr(u64, bool, u16, AssignOp, By);

impl Ctr {
    /// The changes for a card with `tags` of definition `def`, no modifier
    /// in play, on player `me`'s counters.
    #[inline(always)]
    fn change(ctrs: &[Ctr], g: &mut Game, me: PlayerId, tags: u64, def: &crate::data::CardDef) {
        for &Ctr(mask, negate, ctr, op, by) in ctrs {
            if (tags & mask != 0) != negate {
                let v = match by {
                    By::Const(k) => k,
                    By::Prop(pr) => def.props[pr as usize],
                };
                g.set_counter(me, ctr, op.apply(g.st.counter(me, ctr), v));
            }
        }
    }
}

impl Straight {
    fn find(leaves: &[Leaf]) -> Option<Straight> {
        let mut s = Straight {
            slot: usize::MAX,
            calls: 0,
            nest: 0,
            events: Vec::new(),
            mask: 0,
            ops: Vec::new(),
            ctrs: None,
            to: None,
            run: None,
        };
        s.leaves(leaves, 0)?;
        let moves = s.ops.iter().filter(|o| matches!(o, Op::Move(_))).count();
        if moves <= 1 {
            let mut ctrs = Vec::new();
            for op in &s.ops {
                match *op {
                    Op::Move(to) => s.to = Some(to),
                    Op::Counter(c) => ctrs.push(c),
                }
            }
            s.ctrs = Some(ctrs.into_boxed_slice());
        }
        s.mask = crate::engine::ops::event_mask(&s.events);
        (s.slot != usize::MAX).then_some(s)
    }

    fn same(&mut self, slot: usize) -> bool {
        if self.slot == usize::MAX {
            self.slot = slot;
        }
        self.slot == slot
    }

    fn leaves(&mut self, leaves: &[Leaf], nest: u32) -> Option<()> {
        let mut rest = leaves;
        while let [l, tail @ ..] = rest {
            rest = tail;
            // A run is last: its effect may change anything.
            if self.run.is_some() {
                return None;
            }
            let mut gate = (0, true);
            let l = match (l, tail) {
                (
                    Leaf::IfTag {
                        slot,
                        mask,
                        negate,
                        skip: 1,
                        ..
                    },
                    [c @ Leaf::Counter { .. }, tail @ ..],
                ) if self.same(*slot) => {
                    gate = (*mask, *negate);
                    rest = tail;
                    c
                }
                _ => l,
            };
            match l {
                Leaf::Move {
                    slot, to, cause, ..
                } if self.same(*slot) && !matches!(to, ZoneAt::Slot(..)) => {
                    self.events.extend(*cause);
                    self.ops.push(Op::Move(*to));
                }
                Leaf::Counter { c, op, num, .. } => {
                    let by = match num {
                        Num::Const(k) => By::Const(*k),
                        Num::SlotProp(slot, pr, ..) if self.same(*slot) => By::Prop(*pr),
                        _ => return None,
                    };
                    self.ops.push(Op::Counter(Ctr(gate.0, gate.1, *c, *op, by)));
                }
                Leaf::Emit { slot, name, .. } if self.same(*slot) => {
                    self.events.push(*name);
                }
                Leaf::Run { slot, effect, .. } if self.same(*slot) => {
                    self.run = Some((*effect, nest));
                }
                Leaf::Call { body, .. } => {
                    self.calls += 1;
                    self.nest = self.nest.max(nest + 1);
                    self.leaves(body, nest + 1)?;
                }
                _ => return None,
            }
        }
        Some(())
    }

    /// Whether [`Straight::run`] runs it as the leaves would, `depth`
    /// frames around it: nothing logged or waiting for its moves and
    /// events, the calls' steps and depth within bounds (so no error).
    #[inline(always)]
    pub fn quiet(&self, g: &Game, depth: u32) -> bool {
        g.budget.room(self.calls()) && self.still(g, depth)
    }

    /// [`Straight::quiet`] but for the steps: holds while only such bodies
    /// run (no effect, nothing created).
    #[inline(always)]
    pub fn still(&self, g: &Game, depth: u32) -> bool {
        g.budget.depth() + depth + self.nest <= crate::engine::MAX_DEPTH
            && !g.logging
            && g.quiet_events(&self.events, self.mask)
    }

    /// The steps [`Straight::run`] counts before its effect.
    #[inline(always)]
    pub fn calls(&self) -> u64 {
        self.calls as u64
    }

    /// Whether the body may move its card into a zone declared `zone`.
    pub fn moves_into(&self, zone: u16) -> bool {
        self.ops.iter().any(|op| match op {
            Op::Move(ZoneAt::Fixed(z)) => z.zone == zone,
            Op::Move(ZoneAt::Mine(z) | ZoneAt::Slot(z, _)) => *z == zone,
            Op::Counter(..) => false,
        })
    }

    /// The body on card `c` for player `me`, `depth` frames around it, as
    /// [`run`] runs the leaves (`quiet` holds); a `return` ends it. True
    /// when it ran an effect (which may have changed anything). `at`: the
    /// zone instance and index the card is listed at, if known.
    #[inline(always)]
    pub fn run(
        &self,
        g: &mut Game,
        data: &Data,
        me: PlayerId,
        c: ObjId,
        at: Option<(usize, usize)>,
        depth: u32,
    ) -> Res<bool> {
        // The calls' steps: no code sees them before the run, last.
        g.budget.spend(self.calls as u64);
        // The card's definition and tags, read once (no step changes them).
        let o = &g.st.objs[c as usize];
        let (def, tags) = (&data.defs[o.def as usize], o.tags);
        if let Some(ctrs) = &self.ctrs
            && g.st.mods.is_empty()
        {
            Ctr::change(ctrs, g, me, tags, def);
            if let Some(to) = self.to {
                g.st.shift(c, at, to.mine(me));
            }
        } else {
            self.ops_in_order(g, data, me, c, at);
        }
        if let Some((e, nest)) = self.run
            && let Some(Some(code)) = def.effects.get(e as usize)
        {
            g.budget.descend(depth + nest);
            let r = g.exec_in(data, code, Some(c), me, [Value::None], None);
            g.budget.ascend(depth + nest);
            if let Err(e) = r
                && !matches!(*e, Flow::Return(_))
            {
                return Err(e);
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The body bound for player `me`'s plays where it runs as counter
    /// changes and one move to a zone of cards (no effect, no modifier in
    /// play): what [`Straight::run`] looks up per play, found once.
    pub fn bind(&self, g: &Game, me: PlayerId) -> Option<Bound<'_>> {
        let (ctrs, to) = (self.ctrs.as_deref()?, self.to?);
        if !g.st.mods.is_empty() {
            return None;
        }
        let (dst, owner) = g.st.card_dest(to.mine(me))?;
        Some(Bound {
            ctrs,
            dst,
            owner,
            me,
            calls: self.calls as u64,
            run: self.run.map(|(e, _)| e),
        })
    }

    /// The ops one by one, in order (a modifier may be in play).
    #[inline(never)]
    fn ops_in_order(
        &self,
        g: &mut Game,
        data: &Data,
        me: PlayerId,
        c: ObjId,
        mut at: Option<(usize, usize)>,
    ) {
        let o = &g.st.objs[c as usize];
        let (def, tags) = (&data.defs[o.def as usize], o.tags);
        for op in &self.ops {
            match *op {
                Op::Move(to) => {
                    let to = to.mine(me);
                    match at.take() {
                        Some((inst, i)) => g.st.relocate_at(c, inst, i, to),
                        None => g.st.relocate(c, to, false),
                    }
                }
                Op::Counter(Ctr(mask, negate, ctr, op, ref by)) => {
                    if (tags & mask != 0) != negate {
                        let v = match *by {
                            By::Const(k) => k,
                            By::Prop(pr) if g.st.mods.is_empty() => def.props[pr as usize],
                            By::Prop(pr) => g.st.prop(data, c, pr),
                        };
                        g.set_counter(me, ctr, op.apply(g.st.counter(me, ctr), v));
                    }
                }
            }
        }
    }
}

/// A block of leaves as one closure.
fn block_of(mut v: Vec<Leaf>) -> StmtFn {
    match v.as_mut_slice() {
        [] => Box::new(|_, _| Ok(())),
        [Leaf::Code(_)] => match v.pop() {
            Some(Leaf::Code(c)) => c,
            _ => Box::new(|_, _| Ok(())),
        },
        // One inlined call (a move body `verb(it)`): its body's leaves
        // run in the call, no block around it.
        [Leaf::Call { .. }] => match v.pop() {
            Some(Leaf::Call { body, span, at }) => Box::new(move |g, f| {
                call_body::<KeepNothing>(
                    g,
                    f,
                    |g, f| run(&body, g, f).map(|()| Value::None),
                    span,
                    at,
                )
            }),
            _ => Box::new(|_, _| Ok(())),
        },
        _ => {
            let v = v.into_boxed_slice();
            Box::new(move |g, f| run(&v, g, f))
        }
    }
}

/// Runs a block's leaves in order.
fn run(leaves: &[Leaf], g: &mut Game, f: &mut Frame) -> Res<()> {
    let mut rest = leaves;
    while let [l, tail @ ..] = rest {
        rest = tail;
        match l {
            Leaf::Move {
                slot,
                to,
                cause,
                span,
                code,
            } => match f.slots[*slot] {
                Value::Card(c)
                    if g.quiet_move(*cause)
                        && let Ok(to) = to.get(g, f) =>
                {
                    f.span = *span;
                    g.st.relocate(c, to, false);
                }
                _ => code(g, f)?,
            },
            Leaf::Zones {
                from,
                to,
                cause,
                span,
                code,
            } => {
                if zones(g, f, *from, *to, *cause) {
                    f.span = *span;
                } else {
                    code(g, f)?
                }
            }
            Leaf::WholeMove {
                zone,
                test,
                mv,
                slots,
                code,
            } => match zone.find(f) {
                Some(z) if g.viewer.is_none() && whole_move(g, f, z, *test, mv, *slots) => {}
                _ => code(g, f)?,
            },
            Leaf::Counter { c, op, num, span } => {
                f.span = *span;
                let v = num.get(g, f)?;
                let old = g.st.counter(f.me, *c);
                let new = op.apply(old, v);
                g.set_counter(f.me, *c, new);
            }
            Leaf::IfTag {
                slot,
                mask,
                negate,
                skip,
                span,
            } => {
                let tags = tags_of(g, &f.slots[*slot], f, *span)?;
                if (tags & mask != 0) == *negate {
                    rest = rest.get(*skip as usize..).unwrap_or_default();
                }
            }
            Leaf::Jump(n) => rest = rest.get(*n as usize..).unwrap_or_default(),
            Leaf::Run { slot, effect, span } => {
                f.span = *span;
                match f.slots[*slot] {
                    Value::Card(c) => {
                        if let Some(code) = g.effect_of(f.data, c, *effect) {
                            g.exec_in(f.data, code, Some(c), f.me, [Value::None], None)?;
                        }
                    }
                    Value::None => {}
                    ref other => {
                        return g.err(*span, format!("run needs a card, not {}", other.kind()));
                    }
                }
            }
            Leaf::Call { body, span, at } => call(body, g, f, *span, *at)?,
            Leaf::Top(n, each) => {
                let n = g.repeat_count(*n, f.span)?;
                each.run(g, f, n)?
            }
            Leaf::Emit { code, .. } | Leaf::Code(code) => code(g, f)?,
        }
    }
    Ok(())
}

/// An inlined verb call's leaves (see [`call_body`]); a body that is one
/// call (which cannot `return`) enters both at once when neither step nor
/// depth fails, and a body of one statement runs with no loop around it.
#[inline(always)]
fn call(body: &[Leaf], g: &mut Game, f: &mut Frame, span: Span, at: Span) -> Res<()> {
    // A quiet whole-zone move: the call's step, nothing else seen.
    if let [
        Leaf::Zones {
            from, to, cause, ..
        },
    ] = body
        && g.budget.room(1)
        && g.budget.depth() < crate::engine::MAX_DEPTH
        && zones(g, f, *from, *to, *cause)
    {
        g.budget.spend(1);
        f.span = span;
        return Ok(());
    }
    match body {
        [Leaf::Call { body, at: at2, .. }]
            if g.budget.room(2) && g.budget.depth() + 2 <= crate::engine::MAX_DEPTH =>
        {
            g.budget.spend(2);
            g.budget.descend(2);
            f.span = *at2;
            let move_name = f.move_name.take();
            let r = one(body, g, f);
            f.move_name = move_name;
            f.span = span;
            g.budget.ascend(2);
            match r {
                Err(e) if !matches!(*e, Flow::Return(_)) => Err(crate::engine::at_call(e, span)),
                _ => Ok(()),
            }
        }
        body => {
            call_body::<KeepNothing>(g, f, |g, f| one(body, g, f).map(|()| Value::None), span, at)
        }
    }
}

/// [`Leaf::Zones`] in place: false, nothing done, where it cannot be.
#[inline(always)]
fn zones(g: &mut Game, f: &Frame, from: ZoneAt, to: ZoneAt, cause: Option<u16>) -> bool {
    match (from.find(f), to.find(f)) {
        (Some(a), Some(b)) => g.quiet_move(cause) && g.st.move_zone(a, b, None),
        _ => false,
    }
}

/// [`run`], a single code leaf called directly.
#[inline(always)]
fn one(body: &[Leaf], g: &mut Game, f: &mut Frame) -> Res<()> {
    match body {
        [Leaf::Code(c)] => c(g, f),
        body => run(body, g, f),
    }
}

/// A move of any cards to a zone found in place (`f.span` the call's); a
/// whole zone moved for its effect only builds no list of its cards.
#[inline(always)]
fn zone_move<K: Keep>(
    g: &mut Game,
    f: &mut Frame,
    cards: &Value,
    to: ZoneRef,
    cause: Option<u16>,
    together: bool,
) -> Res<K::Out> {
    if !K::VALUE
        && let Value::Zone(from) = *cards
        && g.quiet_move(cause)
        && g.st.move_zone(from, to, None)
    {
        return Ok(K::keep(Value::None));
    }
    g.move_value(cards, &Value::Zone(to), cause, false, together, f)
        .map(K::keep)
}

/// `for x in zone where x is <tag> { move(x, to, cause) }` where every
/// card passes and nothing sees the moves: the zone moves whole (top card
/// first, as the loop moves them), with the loop's steps, slots (`it`, `x`)
/// and span. False, nothing done, otherwise.
#[inline(always)]
fn whole_move(
    g: &mut Game,
    f: &mut Frame,
    z: ZoneRef,
    (mask, negate): (u64, bool),
    &(to, cause, _, span): &(ZoneAt, Option<u16>, bool, Span),
    (it, x): (usize, usize),
) -> bool {
    if matches!(to, ZoneAt::Slot(..)) || !g.quiet_move(cause) {
        return false;
    }
    let zi = &g.st.zones[g.st.inst(z)];
    let n = zi.cards.len();
    if !zi.piles.is_empty()
        || !g.budget.room(n as u64)
        || !(zi.cards.iter()).all(|&c| (g.st.tags(c) & mask != 0) != negate)
    {
        return false;
    }
    // The loop's last card is the bottom one.
    let Some(&last) = zi.cards.first() else {
        return true;
    };
    let Ok(to) = to.get(g, f) else { return false };
    if !g.st.move_zone(z, to, None) {
        return false;
    }
    g.budget.spend(n as u64);
    f.slots[it] = Value::Card(last);
    f.slots[x] = Value::Card(last);
    f.span = span;
    true
}

/// `repeat n { if count(a) <op> k { refill }; move(top(a), b, cause) }`:
/// the zones are found once (again after the refill, which may change
/// anything) and a quiet move of the top card is a pop and a push; with a
/// bot deciding, an owner that is not a player or a loud move, the
/// statements run as compiled.
struct TopLoop {
    from: ZoneAt,
    to: ZoneAt,
    cause: Option<u16>,
    /// The move's span.
    span: Span,
    /// The test: how the size of `from` compares, with what, the count's
    /// span and the refill.
    test: Option<(CmpOp, i64, Span, StmtFn)>,
    /// The refill when it is `if count(b) <op> k { .. }; move_together(b,
    /// a, cause); shuffle(a)`: run in place when the test fails and nothing
    /// sees it.
    swap: Option<Swap>,
    /// The move, and the whole body, as compiled.
    mv: StmtFn,
    body: StmtFn,
}

/// [`TopLoop::swap`]: the zone refilled from, its test (as in
/// [`TopLoop::test`]), the move's cause, the shuffle's span.
struct Swap {
    from: ZoneAt,
    test: (CmpOp, i64),
    cause: Option<u16>,
    shuffle: Span,
}

impl TopLoop {
    fn run(&self, g: &mut Game, f: &mut Frame, n: i64) -> Res<()> {
        let mut at = None;
        let mut i = 0;
        while i < n {
            if at.is_none() && g.viewer.is_none() {
                at = match (self.from.find(f), self.to.find(f)) {
                    (Some(a), Some(b)) => Some((g.st.inst(a), b)),
                    _ => None,
                };
            }
            // The moves before the test would hold, when nothing sees
            // them: their steps counted, the cards moved in one go.
            if let Some((src, dst)) = at
                && let Some(k) = self.quiet_run(g, src, n - i)
            {
                g.budget.spend(k as u64);
                g.st.move_tops(src, dst, k);
                f.span = self.span;
                i += k as i64;
                continue;
            }
            i += 1;
            g.tick(f.span)?;
            let Some((src, dst)) = at.filter(|_| g.viewer.is_none()) else {
                at = None;
                (self.body)(g, f)?;
                continue;
            };
            if let Some((op, k, span, refill)) = &self.test {
                f.span = *span;
                let zi = &g.st.zones[src];
                let size = zi.cards.len() + zi.piles.iter().map(|(_, p)| p.len()).sum::<usize>();
                if op.holds(size as i64, *k) && !self.swap(g, f, src) {
                    at = None;
                    refill(g, f)?;
                    (self.mv)(g, f)?;
                    continue;
                }
            }
            if g.quiet_move(self.cause) && g.st.move_top(src, dst).is_some() {
                f.span = self.span;
                continue;
            }
            (self.mv)(g, f)?;
        }
        Ok(())
    }

    /// [`TopLoop::swap`] run in place, with the spans the statements
    /// leave; false, nothing done, where it cannot.
    #[inline(always)]
    fn swap(&self, g: &mut Game, f: &mut Frame, src: usize) -> bool {
        let Some(w) = &self.swap else { return false };
        let (Some(b), Some(a)) = (w.from.find(f), self.from.find(f)) else {
            return false;
        };
        let (op, k) = w.test;
        if !g.quiet_move(w.cause) || op.holds(g.st.size(b) as i64, k) {
            return false;
        }
        if !g.st.move_zone(b, a, None) {
            return false;
        }
        g.st.shuffle(a);
        debug_assert_eq!(g.st.inst(a), src);
        f.span = w.shuffle;
        true
    }

    /// How many of the next `left` iterations (at least one) are quiet
    /// moves of the top card of zone instance `src`, the test never
    /// holding, within the step budget.
    #[inline(always)]
    fn quiet_run(&self, g: &Game, src: usize, left: i64) -> Option<usize> {
        if g.viewer.is_some() || !g.quiet_move(self.cause) || !g.st.zones[src].piles.is_empty() {
            return None;
        }
        let size = g.st.zones[src].cards.len() as i64;
        let mut k = left.min(size);
        if let Some((op, k0, ..)) = &self.test {
            k = k.min(first_hold(*op, *k0, size));
        }
        (k > 0 && g.budget.room(k as u64)).then_some(k as usize)
    }
}

/// The fewest top cards taken from a zone of `size` cards after which
/// `count <op> k` holds (the count falls by one a card); `size` if it never
/// does before the zone is empty.
fn first_hold(op: CmpOp, k: i64, size: i64) -> i64 {
    let at = match op {
        CmpOp::Eq if k <= size => size - k,
        CmpOp::Lt => size - k + 1,
        CmpOp::Le => size - k,
        CmpOp::Ne => (size == k) as i64,
        CmpOp::Gt | CmpOp::Ge if op.holds(size, k) => 0,
        _ => return size,
    };
    at.clamp(0, size)
}

/// A number found without a closure call where it can be: constants,
/// counters, globals, zone sizes; other number code as a closure.
enum Num {
    Const(i64),
    Global(usize),
    Counter(u16),
    Count(ZoneAt, Span),
    /// A card's property read from a slot (`card.coins`), with the span its
    /// conversion to a number reports: only where any value is converted
    /// (none is 0), as an assignment to a counter does.
    SlotProp(usize, u16, Field, Span),
    Code(Native<i64>),
}

impl Num {
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<i64> {
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
fn sum_prop(zones: Box<[ZoneOp]>, pr: u16, generic: ValFn) -> ValFn {
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
        if n > crate::engine::MAX_LIST {
            return generic(g, f);
        }
        let mut total = 0i64;
        for &z in &zs {
            let zi = &g.st.zones[g.st.inst(z)];
            let add = |t: i64, c: &ObjId| g.st.prop(f.data, *c, pr).saturating_add(t);
            total = if zi.piles.is_empty() {
                g.st.add_props(f.data, zi.cards.iter().rev(), pr, total)
            } else {
                zi.piles
                    .iter()
                    .filter_map(|(_, p)| p.last())
                    .fold(total, add)
            };
        }
        Ok(Value::Int(total))
    })
}

/// What `any(piles(..), ...)` asks of a pile past its tag test.
enum PileTest {
    /// `pile_count(zone, it) <op> k`: the zone (named; shared?) and the
    /// call's span.
    Count(u16, bool, CmpOp, i64, Span),
    Code(CondFn),
}

/// `it is a or it is b`: tag tests of one local, as the local and the mask
/// of tags any of which passes.
fn tag_any(e: &Expr) -> Option<(u16, u64)> {
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
fn tag_test(e: &Expr, it: u16) -> Option<(u64, bool)> {
    match e {
        Expr::Is(x, tag, negate, _) if matches!(**x, Expr::Local(s) if s == it) => {
            Some((bit(*tag), *negate))
        }
        Expr::Not(x) => tag_test(x, it).map(|(m, n)| (m, !n)),
        _ => tag_any(e).and_then(|(s, m)| (s == it).then_some((m, false))),
    }
}

/// Where a tag test fails on a value that is no card: at its first `is`.
fn first_is(e: &Expr) -> Span {
    match e {
        Expr::Is(_, _, _, span) => *span,
        Expr::Or(a, _) | Expr::Not(a) => first_is(a),
        _ => Span::default(),
    }
}

/// A tag test of a local (`x is a`, `x is not a`, `x is a or x is b`): the
/// local, the mask of tags any of which passes, whether negated.
fn local_tag(e: &Expr) -> Option<(u16, u64, bool)> {
    match e {
        Expr::Is(x, tag, negate, _) if let Expr::Local(s) = **x => Some((s, bit(*tag), *negate)),
        _ => tag_any(e).map(|(s, m)| (s, m, false)),
    }
}

impl Compiler<'_> {
    /// The frame slot of the code's slot `s`.
    fn slot(&self, s: u16) -> usize {
        match self.remap.iter().find(|r| r.0 == s) {
            Some(&(_, at)) => at,
            None => (self.base + s) as usize,
        }
    }

    /// A whole piece of code; one `return <expr>` is its expression, run
    /// for its effect only when its value is not kept.
    fn body<K: Keep>(&self, stmts: &[Stmt]) -> Body {
        match stmts {
            [Stmt::Return(Some(e))] if K::VALUE => match self.truth(e) {
                Some(c) => Body::Cond(c),
                None => Body::Expr(self.val(e)),
            },
            [Stmt::Return(Some(e))] => Body::Block(self.effect(e)),
            stmts => {
                let v = self.leaves(stmts);
                let straight = Straight::find(&v);
                if straight.is_none() && Hook::fits(&v) {
                    let leaves = v.into_boxed_slice();
                    return Body::Hook(Box::new(Hook::new(leaves)));
                }
                let b = block_of(v);
                match straight {
                    Some(s) => Body::Straight(Box::new(s), b),
                    None => Body::Block(b),
                }
            }
        }
    }

    /// A verb call compiled into its caller: the verb's slots follow the
    /// caller's in the same frame, so no frame is made; the step, the depth
    /// and what the verb sees (`this`, `me`, no move name, its span) are as
    /// in a call of its own. None for a verb already being inlined here (a
    /// verb that calls itself) or nested too deep.
    fn inline<K: Keep>(&self, v: u16, args: &[Expr], span: Span) -> Option<Native<K::Out>> {
        Some(match self.inlined::<K>(v, args, span, false)? {
            Inlined::Code(c) => c,
            Inlined::Leaves(body, at) => Box::new(move |g, f| {
                call_body::<K>(
                    g,
                    f,
                    |g, f| run(&body, g, f).map(|()| Value::None),
                    span,
                    at,
                )
            }),
        })
    }

    /// [`Compiler::inline`]; a call run for its effect whose arguments are
    /// all replaced and that writes no slot is its body's leaves and its
    /// span when `leaves` is asked for.
    fn inlined<K: Keep>(
        &self,
        v: u16,
        args: &[Expr],
        span: Span,
        leaves: bool,
    ) -> Option<Inlined<K::Out>> {
        let code = &self.data.verbs[v as usize];
        let base = self.base + self.size;
        if self.chain.len() >= INLINE_DEPTH || self.chain.contains(&v) || base > 1024 {
            return None;
        }
        // The arguments go straight into the verb's slots: code in them
        // that inlines a verb too uses the slots after the verb's.
        let outer = Compiler {
            size: self.size + code.slots,
            chain: self.chain.clone(),
            remap: self.remap.clone(),
            ..*self
        };
        // A parameter the verb never writes, given an operand that runs no
        // code and that the verb cannot change (a constant, `me`, a zone of
        // the running player, a caller's slot), is that operand in the
        // verb's code: nothing copied, nothing cleared.
        let mut stmts: Option<Vec<Stmt>> = None;
        let (mut substituted, mut remap, mut kept) = (Vec::new(), Vec::new(), Vec::new());
        for (i, a) in args.iter().enumerate() {
            let p = i as u16;
            // Arguments past the verb's slots are computed, then dropped.
            let i = (p < code.slots).then_some(base as usize + i);
            let fixed = p < code.slots && !code.binds_slot(p);
            match a {
                Expr::Local(s) if fixed => remap.push((p, outer.slot(*s))),
                Expr::Int(_)
                | Expr::Bool(_)
                | Expr::None
                | Expr::Str(_)
                | Expr::Def(_)
                | Expr::Me
                | Expr::Zone(_, None)
                    if fixed =>
                {
                    let st = stmts.get_or_insert_with(|| code.stmts.clone());
                    st.iter_mut().for_each(|s| s.substitute(p, a));
                }
                Expr::Local(s) => {
                    kept.push((i, Arg::Slot(outer.slot(*s))));
                    continue;
                }
                Expr::Me => {
                    kept.push((i, Arg::Me));
                    continue;
                }
                a => {
                    kept.push((i, Arg::Code(outer.val(a))));
                    continue;
                }
            }
            substituted.push(p);
        }
        let mut chain = self.chain.clone();
        chain.push(v);
        let inner = Compiler {
            data: self.data,
            base,
            size: code.slots,
            need: self.need,
            chain,
            remap,
        };
        self.need.set(self.need.get().max(base + code.slots));
        // The slots the verb may write: from its first one not replaced.
        let first = (0..code.slots)
            .find(|i| !substituted.contains(i))
            .unwrap_or(code.slots);
        let slots = (base + first) as usize..(base + code.slots) as usize;
        let (args, at) = (kept.into_boxed_slice(), code.span);
        let stmts = stmts.as_deref().unwrap_or(&code.stmts);
        if leaves && !K::VALUE && args.is_empty() && slots.is_empty() {
            let body = match stmts {
                [Stmt::Return(Some(e))] => vec![inner.leaf_effect(e)],
                stmts => inner.leaves(stmts),
            };
            return Some(Inlined::Leaves(body.into_boxed_slice(), at));
        }
        let body = inner.body::<K>(stmts);
        if args.is_empty() && slots.is_empty() {
            // Every argument replaced, no slot written: the call is its
            // step, depth and span around the body.
            return Some(Inlined::Code(Box::new(move |g, f| {
                call_body::<K>(g, f, |g, f| body.run(g, f), span, at)
            })));
        }
        Some(Inlined::Code(Box::new(move |g, f| {
            for (i, a) in args.iter() {
                let v = match a {
                    Arg::Slot(s) => f.slots[*s].clone(),
                    Arg::Me => Value::Player(f.me),
                    Arg::Code(c) => c(g, f)?,
                };
                if let Some(s) = i {
                    f.slots[*s] = v;
                }
            }
            let r = call_body::<K>(g, f, |g, f| body.run(g, f), span, at);
            // Left empty, as the next call expects them.
            for s in &mut f.slots[slots.clone()] {
                *s = Value::None;
            }
            r
        })))
    }

    /// A zone expression that needs no code run to find its zone.
    fn zone_at(&self, e: &Expr) -> Option<ZoneAt> {
        let Expr::Zone(z, owner) = e else { return None };
        let z = *z;
        Some(match owner.as_deref() {
            None if self.shared(z) => ZoneAt::Fixed(ZoneRef { zone: z, owner: 0 }),
            None | Some(Expr::Me) if !self.shared(z) => ZoneAt::Mine(z),
            Some(Expr::Local(s)) if !self.shared(z) => ZoneAt::Slot(z, self.slot(*s)),
            _ => return None,
        })
    }

    /// The cards of a move that need no code run to find them.
    fn card_at(&self, e: &Expr) -> Option<CardAt> {
        match e {
            Expr::Local(s) => Some(CardAt::Slot(self.slot(*s))),
            Expr::Call(Builtin::Top, a, span) => match a.as_slice() {
                [z] => Some(CardAt::Top(self.zone_at(z)?, *span)),
                _ => None,
            },
            e => Some(CardAt::Zone(self.zone_at(e)?)),
        }
    }

    /// `move(cards, zone, cause)` with operands read in place: one card
    /// to the top of a zone with nothing logged or listening moves here.
    fn mover<K: Keep>(&self, b: Builtin, args: &[Expr], span: Span) -> Option<Native<K::Out>> {
        let (cards, zone, cause) = match args {
            [c, z] => (c, z, None),
            [c, z, Expr::Int(e)] => (c, z, Some(*e as u16)),
            _ => return None,
        };
        let (cards, zone, together) = (
            self.card_at(cards)?,
            self.zone_at(zone)?,
            b == Builtin::MoveAll,
        );
        Some(match cards {
            // `move(card, zone)`: the usual move of one card in place.
            CardAt::Slot(s) => Box::new(move |g, f| {
                let to = zone.get(g, f)?;
                f.span = span;
                match f.slots[s] {
                    Value::Card(c) if g.quiet_move(cause) => {
                        g.st.relocate(c, to, false);
                        Ok(K::keep(Value::Card(c)))
                    }
                    Value::Zone(z) => zone_move::<K>(g, f, &Value::Zone(z), to, cause, together),
                    _ => g
                        .move_value(&f.slots[s], &Value::Zone(to), cause, false, together, f)
                        .map(K::keep),
                }
            }),
            // `move(top(zone), zone)`: the top card popped and pushed.
            CardAt::Top(z, top) => Box::new(move |g, f| {
                let from = z.get(g, f)?;
                f.span = top;
                let to = zone.get(g, f)?;
                f.span = span;
                let from = g.st.inst(from);
                if g.quiet_move(cause)
                    && let Some(c) = g.st.move_top(from, to)
                {
                    return Ok(K::keep(Value::Card(c)));
                }
                let top = g.st.zones[from].cards.last();
                let cards = top.map_or(Value::None, |&c| Value::Card(c));
                g.move_value(&cards, &Value::Zone(to), cause, false, together, f)
                    .map(K::keep)
            }),
            CardAt::Zone(z) => Box::new(move |g, f| {
                let from = Value::Zone(z.get(g, f)?);
                let to = zone.get(g, f)?;
                f.span = span;
                zone_move::<K>(g, f, &from, to, cause, together)
            }),
        })
    }

    /// `run(card, effect)` with the card read in place: a card with no such
    /// effect does nothing.
    fn runner<K: Keep>(&self, card: &Expr, effect: u16, span: Span) -> Native<K::Out> {
        let card: Result<usize, ValFn> = match card {
            Expr::Local(s) => Ok(self.slot(*s)),
            other => Err(self.val(other)),
        };
        Box::new(move |g, f| {
            let c = match &card {
                Ok(s) => match f.slots[*s] {
                    Value::Card(c) => Ok(c),
                    ref other => Err(other.clone()),
                },
                Err(v) => match v(g, f)? {
                    Value::Card(c) => Ok(c),
                    other => Err(other),
                },
            };
            f.span = span;
            match c {
                Ok(c) => match g.effect_of(f.data, c, effect) {
                    Some(code) => g
                        .exec_in(f.data, code, Some(c), f.me, [Value::None], None)
                        .map(K::keep),
                    None => Ok(K::keep(Value::None)),
                },
                Err(Value::None) => Ok(K::keep(Value::None)),
                Err(other) => g.err(span, format!("run needs a card, not {}", other.kind())),
            }
        })
    }

    /// `emit(event, card)`: the event built in place (no argument list).
    fn emitter<K: Keep>(&self, args: &[Expr], span: Span) -> Option<Native<K::Out>> {
        let [Expr::Int(name), card] = args else {
            return None;
        };
        let (name, card) = (*name as u16, self.val(card));
        // Whether an ability in the data may change or prevent the event.
        let would = self.data.index.listened(name, true);
        Some(Box::new(move |g, f| {
            let card = card(g, f)?;
            f.span = span;
            // Nothing logged or listening: the event happens, unseen.
            if !would && g.quiet_move(Some(name)) {
                return Ok(K::keep(Value::Bool(true)));
            }
            let mut ev = Event::new(name);
            ev.card = match card {
                Value::Card(c) => Some(c),
                _ => None,
            };
            ev.player = Some(f.me);
            ev.source = f.this;
            // Whether the event happened (it is not counted).
            let happened = g.emit(ev, false, f)?.is_some();
            Ok(K::keep(Value::Bool(happened)))
        }))
    }

    /// A statement that is one call, run for its effect: its value is
    /// never built when the call needs none.
    fn effect(&self, e: &Expr) -> StmtFn {
        if let Some(s) = self.known_effect(e) {
            return s;
        }
        match e {
            Expr::Verb(v, args, span) => {
                if let Some(call) = self.inline::<KeepNothing>(*v, args, *span) {
                    return call;
                }
            }
            Expr::Call(b @ (Builtin::Move | Builtin::MoveAll), args, span) => {
                if let Some(m) = self.mover::<KeepNothing>(*b, args, *span) {
                    return m;
                }
            }
            Expr::Call(Builtin::Run, args, span) => {
                if let [card, Expr::Int(effect)] = args.as_slice() {
                    return self.runner::<KeepNothing>(card, *effect as u16, *span);
                }
            }
            // `create(...)` whose cards are not used: no list made.
            Expr::Call(Builtin::Create, args, span) => {
                let (args, span) = (self.vals(args), *span);
                return Box::new(move |g, f| {
                    let mut vals = Args::new();
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    g.create(&vals, f).map(drop)
                });
            }
            Expr::Call(Builtin::Emit, args, span) => {
                if let Some(e) = self.emitter::<KeepNothing>(args, *span) {
                    return e;
                }
            }
            _ => {}
        }
        let e = self.val(e);
        Box::new(move |g, f| e(g, f).map(drop))
    }

    fn shared(&self, z: u16) -> bool {
        bit(z) != 0 && self.data.zones[z as usize].shared
    }

    fn zone_op(&self, e: &Expr) -> ZoneOp {
        match e {
            Expr::Zone(_, None) if let Some(z) = self.zone_at(e) => ZoneOp::At(z),
            _ => ZoneOp::Code(self.val(e)),
        }
    }

    /// The zones of `a + b + ...`, each named or owned by a local, in order.
    fn zone_leaves(&self, e: &Expr, out: &mut Vec<ZoneOp>) -> bool {
        match e {
            Expr::Zone(_, o) if matches!(o.as_deref(), None | Some(Expr::Local(_))) => {
                out.push(self.zone_op(e));
                true
            }
            Expr::Bin(BinOp::Add, a, b, _) => self.zone_leaves(a, out) && self.zone_leaves(b, out),
            _ => false,
        }
    }

    fn vals(&self, args: &[Expr]) -> Box<[ValFn]> {
        args.iter().map(|a| self.val(a)).collect()
    }

    fn block(&self, stmts: &[Stmt]) -> StmtFn {
        block_of(self.leaves(stmts))
    }

    fn leaves(&self, stmts: &[Stmt]) -> Vec<Leaf> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            self.leaf(s, &mut out);
        }
        out
    }

    /// A statement as leaves of its block.
    fn leaf(&self, s: &Stmt, out: &mut Vec<Leaf>) {
        let l = match s {
            Stmt::Expr(e) => self.leaf_effect(e),
            Stmt::Assign(Place::Field(base, field), op, rhs, span)
                if matches!(**base, Expr::Me)
                    && let Some(c) = field.counter
                    && let Some(num) = self.counter_num(rhs, *span) =>
            {
                Leaf::Counter {
                    c,
                    op: *op,
                    num,
                    span: *span,
                }
            }
            Stmt::If(c, a, b) if let Some((s, mask, negate)) = local_tag(c) => {
                let at = out.len();
                out.push(Leaf::Jump(0));
                a.iter().for_each(|s| self.leaf(s, out));
                // Where the `else` leaves start.
                let mut els = out.len();
                if !b.is_empty() {
                    out.push(Leaf::Jump(0));
                    els = out.len();
                    b.iter().for_each(|s| self.leaf(s, out));
                    out[els - 1] = Leaf::Jump((out.len() - els) as u32);
                }
                out[at] = Leaf::IfTag {
                    slot: self.slot(s),
                    mask,
                    negate,
                    skip: (els - at - 1) as u32,
                    span: first_is(c),
                };
                return;
            }
            Stmt::For(slot, Expr::Where(list, it, cond), body)
                if let Some(zone) = self.zone_at(list)
                    && let Some(test) = tag_test(cond, *it)
                    && let Some(mv) = self.move_of(body, self.slot(*slot)) =>
            {
                Leaf::WholeMove {
                    zone,
                    test,
                    mv,
                    slots: (self.slot(*it), self.slot(*slot)),
                    code: self.stmt(s),
                }
            }
            Stmt::Repeat(Expr::Int(k), body) if let Some(each) = self.top_loop(body) => {
                Leaf::Top(*k, Box::new(each))
            }
            s => Leaf::Code(self.stmt(s)),
        };
        out.push(l);
    }

    /// A call run for its effect as a leaf.
    fn leaf_effect(&self, e: &Expr) -> Leaf {
        match e {
            Expr::Verb(v, args, span) => match self.inlined::<KeepNothing>(*v, args, *span, true) {
                Some(Inlined::Leaves(body, at)) => {
                    return Leaf::Call {
                        body,
                        span: *span,
                        at,
                    };
                }
                Some(Inlined::Code(c)) => return Leaf::Code(c),
                None => {}
            },
            Expr::Call(Builtin::Move | Builtin::MoveAll, args, span) => {
                let (card, zone, cause) = match args.as_slice() {
                    [c, z] => (c, z, None),
                    [c, z, Expr::Int(e)] => (c, z, Some(*e as u16)),
                    _ => return Leaf::Code(self.effect(e)),
                };
                match (self.card_at(card), self.zone_at(zone)) {
                    (Some(CardAt::Slot(slot)), Some(to)) => {
                        return Leaf::Move {
                            slot,
                            to,
                            cause,
                            span: *span,
                            code: self.effect(e),
                        };
                    }
                    (Some(CardAt::Zone(from)), Some(to)) => {
                        return Leaf::Zones {
                            from,
                            to,
                            cause,
                            span: *span,
                            code: self.effect(e),
                        };
                    }
                    _ => {}
                }
            }
            Expr::Call(Builtin::Emit, args, _) => {
                if let [Expr::Int(name), Expr::Local(s)] = args.as_slice()
                    && !self.data.index.listened(*name as u16, true)
                {
                    return Leaf::Emit {
                        slot: self.slot(*s),
                        name: *name as u16,
                        code: self.effect(e),
                    };
                }
            }
            Expr::Call(Builtin::Run, args, span) => {
                if let [Expr::Local(s), Expr::Int(effect)] = args.as_slice() {
                    return Leaf::Run {
                        slot: self.slot(*s),
                        effect: *effect as u16,
                        span: *span,
                    };
                }
            }
            _ => {}
        }
        Leaf::Code(self.effect(e))
    }

    fn stmt(&self, s: &Stmt) -> StmtFn {
        match s {
            Stmt::Expr(e) => self.effect(e),
            Stmt::Let(slot, e) => {
                let (slot, e) = (self.slot(*slot), self.val(e));
                Box::new(move |g, f| {
                    f.slots[slot] = e(g, f)?;
                    Ok(())
                })
            }
            Stmt::Assign(place, op, e, span) => self.assign(place, *op, e, *span),
            // A comparison of numbers read in place: no closure for the test.
            Stmt::If(c, a, b) if let Some((x, cmp, y)) = self.num_cmp(c) => {
                let (a, b) = (self.block(a), self.block(b));
                Box::new(move |g, f| {
                    if cmp.holds(x.get(g, f)?, y.get(g, f)?) {
                        a(g, f)
                    } else {
                        b(g, f)
                    }
                })
            }
            Stmt::If(c, a, b) if b.is_empty() => {
                let (c, a) = (self.cond(c), self.block(a));
                Box::new(move |g, f| if c(g, f)? { a(g, f) } else { Ok(()) })
            }
            Stmt::If(c, a, b) => {
                let (c, a, b) = (self.cond(c), self.block(a), self.block(b));
                Box::new(move |g, f| if c(g, f)? { a(g, f) } else { b(g, f) })
            }
            Stmt::Repeat(n, body) if let Some(each) = self.top_loop(body) => {
                // A constant count is read with no closure run.
                let n = match n {
                    Expr::Int(k) => Ok(*k),
                    n => Err(self.val(n)),
                };
                Box::new(move |g, f| {
                    let n = match &n {
                        Ok(k) => *k,
                        Err(n) => {
                            let n = n(g, f)?;
                            g.int(&n, f.span)?
                        }
                    };
                    let n = g.repeat_count(n, f.span)?;
                    each.run(g, f, n)
                })
            }
            Stmt::Repeat(n, body) => {
                let (n, body) = (self.val(n), self.block(body));
                Box::new(move |g, f| {
                    let n = n(g, f)?;
                    let n = g.int(&n, f.span)?;
                    for _ in 0..g.repeat_count(n, f.span)? {
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::While(cond, body) => {
                let (cond, body) = (self.cond(cond), self.block(body));
                Box::new(move |g, f| {
                    let mut n = 0u32;
                    while cond(g, f)? {
                        n += 1;
                        if n > MAX_LOOP {
                            return g.err(
                                f.span,
                                format!("a `while` loop ran {MAX_LOOP} times (an endless loop?)"),
                            );
                        }
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            // `for x in list where cond`: the items that pass, kept inline.
            // Over a zone found in place: the cards that pass kept as ids;
            // a tag test and a one-card move of `x` run in place.
            Stmt::For(slot, Expr::Where(list, it, cond), body)
                if let Some(z) = self.zone_at(list) =>
            {
                let slot = self.slot(*slot);
                let test = match tag_test(cond, *it) {
                    Some((mask, negate)) => Err((mask, negate)),
                    None => Ok(self.cond(cond)),
                };
                let each = self.move_of(body, slot).ok_or_else(|| self.block(body));
                let it = self.slot(*it);
                Box::new(move |g, f| {
                    let z = z.get(g, f)?;
                    g.check_visible(z, f.span)?;
                    if let (Err(t), Ok(m)) = (&test, &each)
                        && whole_move(g, f, z, *t, m, (it, slot))
                    {
                        return Ok(());
                    }
                    let mut pass = Cards::new();
                    for c in g.cards_of(&Value::Zone(z), f)? {
                        f.slots[it] = Value::Card(c);
                        let ok = match &test {
                            Err((mask, negate)) => (g.st.tags(c) & mask != 0) != *negate,
                            Ok(cond) => cond(g, f)?,
                        };
                        if ok {
                            pass.push(c);
                        }
                    }
                    for c in pass {
                        f.slots[slot] = Value::Card(c);
                        g.tick(f.span)?;
                        match &each {
                            Ok((zone, cause, together, span)) => {
                                let to = zone.get(g, f)?;
                                f.span = *span;
                                if g.quiet_move(*cause) {
                                    g.st.relocate(c, to, false);
                                } else {
                                    let (c, to) = (Value::Card(c), Value::Zone(to));
                                    g.move_value(&c, &to, *cause, false, *together, f)?;
                                }
                            }
                            Err(body) => body(g, f)?,
                        }
                    }
                    Ok(())
                })
            }
            Stmt::For(slot, Expr::Where(list, it, cond), body) => {
                let (slot, body) = (self.slot(*slot), self.block(body));
                let (list, it, cond) = (self.val(list), self.slot(*it), self.cond(cond));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    let mut items = Items::new();
                    filter_items(g, f, &list, it, &cond, &mut items)?;
                    for item in items {
                        f.slots[slot] = item;
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::For(slot, Expr::Call(Builtin::Players, a, span), body) if a.is_empty() => {
                self.for_players(*slot, *span, body)
            }
            Stmt::For(slot, list, body) => {
                let (slot, list, body) = (self.slot(*slot), self.val(list), self.block(body));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    for item in g.items(&list, f.span)?.iter() {
                        f.slots[slot] = item.clone();
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::Return(e) => match e {
                Some(e) => {
                    let e = self.val(e);
                    Box::new(move |g, f| Err(Flow::Return(e(g, f)?).into()))
                }
                None => Box::new(|_, _| Err(Flow::Return(Value::None).into())),
            },
        }
    }

    fn assign(&self, place: &Place, op: AssignOp, rhs: &Expr, span: Span) -> StmtFn {
        let e = self.val(rhs);
        match place {
            Place::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    f.slots[s] = combine(g, op, &f.slots[s], v, span)?;
                    Ok(())
                })
            }
            Place::Global(i) => {
                let i = *i;
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    let old = g.st.globals[i as usize];
                    let new = g.int(&combine(g, op, &Value::Int(old), v, span)?, span)?;
                    g.set_global(i, new);
                    Ok(())
                })
            }
            // The running player's own counter (`coins += 2`): no base to evaluate.
            Place::Field(base, field) if matches!(**base, Expr::Me) && field.counter.is_some() => {
                let (field, c) = (*field, field.counter.unwrap_or_default());
                if let Some(num) = self.counter_num(rhs, span) {
                    return Box::new(move |g, f| {
                        f.span = span;
                        let v = num.get(g, f)?;
                        let old = g.st.counter(f.me, c);
                        let new = op.apply(old, v);
                        g.set_counter(f.me, c, new);
                        Ok(())
                    });
                }
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    let old = g.st.counter(f.me, c);
                    let new = match (op, &v) {
                        (AssignOp::Set, Value::Int(v)) => *v,
                        (AssignOp::Add, Value::Int(v)) => old.saturating_add(*v),
                        (AssignOp::Sub, Value::Int(v)) => old.saturating_sub(*v),
                        _ => {
                            let new = combine(g, op, &Value::Int(old), v, span)?;
                            return g.set_field(&Value::Player(f.me), &field, new, f);
                        }
                    };
                    g.set_counter(f.me, c, new);
                    Ok(())
                })
            }
            Place::Field(base, field) => {
                let (base, field) = (self.val(base), *field);
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    let b = base(g, f)?;
                    let old = g.field(&b, &field, f)?;
                    let new = combine(g, op, &old, v, span)?;
                    g.set_field(&b, &field, new, f)
                })
            }
        }
    }

    /// The number assigned to a counter, found in place: the value is
    /// converted to one anyway.
    fn counter_num(&self, rhs: &Expr, span: Span) -> Option<Num> {
        match rhs {
            Expr::Field(b, pf)
                if let Some(pr) = pf.prop
                    && let Expr::Local(s) = **b =>
            {
                Some(Num::SlotProp(self.slot(s), pr, *pf, span))
            }
            rhs => self.int(rhs),
        }
    }

    /// Code that always makes a number (or fails), compiled to return it
    /// unboxed: constants, the running player's counters, globals, counts.
    fn int(&self, e: &Expr) -> Option<Num> {
        Some(match e {
            Expr::Int(i) => Num::Const(*i),
            Expr::Global(i) => Num::Global(*i as usize),
            Expr::Field(base, field) if matches!(**base, Expr::Me) && field.counter.is_some() => {
                Num::Counter(field.counter.unwrap_or_default())
            }
            Expr::Call(Builtin::Count, args, span) if args.len() == 1 => {
                if let Some(z) = self.zone_at(&args[0]) {
                    return Some(Num::Count(z, *span));
                }
                let (x, span) = (self.val(&args[0]), *span);
                Num::Code(Box::new(move |g, f| {
                    let v = x(g, f)?;
                    f.span = span;
                    Ok(g.count(&v, span)? as i64)
                }))
            }
            _ => return None,
        })
    }

    /// `a <op> b` of two numbers found in place.
    fn num_cmp(&self, e: &Expr) -> Option<(Num, CmpOp, Num)> {
        let Expr::Bin(op, a, b, _) = e else {
            return None;
        };
        Some((self.int(a)?, CmpOp::of(*op)?, self.int(b)?))
    }

    /// A loop body that is `move(x, zone, cause)` of the loop's card `x`
    /// (frame slot `slot`) to a zone found in place: the zone, the cause,
    /// whether moved together, the call's span.
    fn move_of(&self, body: &[Stmt], slot: usize) -> Option<(ZoneAt, Option<u16>, bool, Span)> {
        let [Stmt::Expr(Expr::Call(b @ (Builtin::Move | Builtin::MoveAll), args, span))] = body
        else {
            return None;
        };
        let (card, zone, cause) = match args.as_slice() {
            [c, z] => (c, z, None),
            [c, z, Expr::Int(e)] => (c, z, Some(*e as u16)),
            _ => return None,
        };
        match card {
            Expr::Local(s) if self.slot(*s) == slot => {}
            _ => return None,
        }
        Some((self.zone_at(zone)?, cause, *b == Builtin::MoveAll, *span))
    }

    /// A loop body `if count(a) <op> k { refill }; move(top(a), b, cause)`
    /// (the test optional) with both zones found in place.
    fn top_loop(&self, body: &[Stmt]) -> Option<TopLoop> {
        let (test, mv) = match body {
            [mv] => (None, mv),
            [Stmt::If(c, then, els), mv] if els.is_empty() => (Some((c, then)), mv),
            _ => return None,
        };
        let Stmt::Expr(Expr::Call(Builtin::Move | Builtin::MoveAll, args, span)) = mv else {
            return None;
        };
        let (top, to, cause) = match args.as_slice() {
            [t, z] => (t, z, None),
            [t, z, Expr::Int(e)] => (t, z, Some(*e as u16)),
            _ => return None,
        };
        let Expr::Call(Builtin::Top, a, _) = top else {
            return None;
        };
        let [a] = a.as_slice() else { return None };
        let (from, to) = (self.zone_at(a)?, self.zone_at(to)?);
        let test = match test {
            None => None,
            Some((c, then)) => {
                let (Num::Count(z, span), op, Num::Const(k)) = self.num_cmp(c)? else {
                    return None;
                };
                (z == from).then_some(())?;
                Some((op, k, span, self.block(then)))
            }
        };
        let swap = match body {
            [Stmt::If(_, then, _), _] => self.swap(then, from),
            _ => None,
        };
        Some(TopLoop {
            from,
            to,
            cause,
            span: *span,
            test,
            swap,
            mv: self.stmt(mv),
            body: self.block(body),
        })
    }

    /// A refill `if count(b) <op> k { .. }; move_together(b, a, cause);
    /// shuffle(a)` of zone `a`, both zones found in place.
    fn swap(&self, then: &[Stmt], a: ZoneAt) -> Option<Swap> {
        let [
            Stmt::If(c, _, els),
            Stmt::Expr(Expr::Call(Builtin::MoveAll, args, _)),
            Stmt::Expr(Expr::Call(Builtin::Shuffle, sh, shuffle)),
        ] = then
        else {
            return None;
        };
        let (Num::Count(b, _), op, Num::Const(k)) = self.num_cmp(c)? else {
            return None;
        };
        let (x, to, cause) = match args.as_slice() {
            [x, z] => (x, z, None),
            [x, z, Expr::Int(e)] => (x, z, Some(*e as u16)),
            _ => return None,
        };
        let [z] = sh.as_slice() else { return None };
        let same = |e: &Expr, at: ZoneAt| self.zone_at(e) == Some(at);
        (els.is_empty() && same(x, b) && same(to, a) && same(z, a)).then_some(Swap {
            from: b,
            test: (op, k),
            cause,
            shuffle: *shuffle,
        })
    }

    /// Code whose value is tested for truth.
    fn cond(&self, e: &Expr) -> CondFn {
        if let Some((s, mask)) = tag_any(e) {
            let span = first_is(e);
            let s = self.slot(s);
            return Box::new(move |g, f| Ok(tags_of(g, &f.slots[s], f, span)? & mask != 0));
        }
        if let Some(c) = self.known_cond(e) {
            return c;
        }
        match e {
            Expr::Bool(b) => {
                let b = *b;
                Box::new(move |_, _| Ok(b))
            }
            Expr::Is(x, tag, negate, span) => {
                let (mask, negate, span) = (bit(*tag), *negate, *span);
                if let Expr::Local(s) = **x {
                    let s = self.slot(s);
                    return Box::new(move |g, f| {
                        let tags = tags_of(g, &f.slots[s], f, span)?;
                        Ok((tags & mask != 0) != negate)
                    });
                }
                let x = self.val(x);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    Ok((tags_of(g, &v, f, span)? & mask != 0) != negate)
                })
            }
            Expr::Not(x) => {
                let x = self.cond(x);
                Box::new(move |g, f| Ok(!x(g, f)?))
            }
            Expr::And(a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(a(g, f)? && b(g, f)?))
            }
            Expr::Or(a, b) => {
                if let Some(c) = self.pile_or(a, b) {
                    return c;
                }
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(a(g, f)? || b(g, f)?))
            }
            Expr::Bin(op, a, b, span) if let Some(cmp) = CmpOp::of(*op) => {
                let (op, span) = (*op, *span);
                // `empty_piles(zone) >= n`: counted and compared in one step.
                if let (Expr::Call(Builtin::EmptyPiles, args, at), Expr::Int(y)) = (&**a, &**b)
                    && let [z] = args.as_slice()
                {
                    let (z, at, y) = (self.zone_op(z), *at, *y);
                    return Box::new(move |g, f| {
                        let z = z.zone(g, f, at)?;
                        Ok(cmp.holds(g.empty_piles(z), y))
                    });
                }
                if let Some((a, cmp, b)) = self.num_cmp(e) {
                    return Box::new(move |g, f| Ok(cmp.holds(a.get(g, f)?, b.get(g, f)?)));
                }
                let (a, b) = (self.val(a), self.val(b));
                Box::new(move |g, f| {
                    let x = a(g, f)?;
                    let y = b(g, f)?;
                    if let (Value::Int(x), Value::Int(y)) = (&x, &y) {
                        let (x, y) = (*x, *y);
                        return Ok(cmp.holds(x, y));
                    }
                    Ok(g.binop(op, x, y, span)?.truthy())
                })
            }
            Expr::Any(list, slot, body) => {
                if let Expr::Call(Builtin::Piles, a, span) = &**list
                    && let [zone] = a.as_slice()
                {
                    return self.any_pile(zone, *span, *slot, body);
                }
                let (list, slot, body) = (self.val(list), self.slot(*slot), self.cond(body));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    for item in g.items(&list, f.span)?.iter() {
                        f.slots[slot] = item.clone();
                        if body(g, f)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                })
            }
            _ => {
                let v = self.val(e);
                Box::new(move |g, f| Ok(v(g, f)?.truthy()))
            }
        }
    }

    /// The condition of an expression [`Compiler::val`] compiles as
    /// `Bool` of that condition (the same closure, unwrapped).
    fn truth(&self, e: &Expr) -> Option<CondFn> {
        match e {
            Expr::Or(a, b) if tag_any(e).is_none() => self.pile_or(a, b),
            Expr::Is(..)
            | Expr::Not(_)
            | Expr::Or(..)
            | Expr::Any(..)
            | Expr::Bin(
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                ..,
            ) => Some(self.cond(e)),
            _ => None,
        }
    }

    /// Code that computes a value.
    fn val(&self, e: &Expr) -> ValFn {
        match e {
            Expr::None => Box::new(|_, _| Ok(Value::None)),
            Expr::Int(i) => {
                let i = *i;
                Box::new(move |_, _| Ok(Value::Int(i)))
            }
            Expr::Bool(b) => {
                let b = *b;
                Box::new(move |_, _| Ok(Value::Bool(b)))
            }
            Expr::Str(s) => {
                let s = s.clone();
                Box::new(move |_, _| Ok(Value::Str(s.clone())))
            }
            Expr::Def(d) => {
                let d = *d;
                Box::new(move |_, _| Ok(Value::Def(d)))
            }
            Expr::List(items) => {
                let items = self.vals(items);
                Box::new(move |g, f| {
                    let mut out = Vec::with_capacity(items.len());
                    for i in items.iter() {
                        out.push(i(g, f)?);
                    }
                    Ok(Value::list(out))
                })
            }
            Expr::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |_, f| Ok(f.slots[s].clone()))
            }
            Expr::This => Box::new(|_, f| Ok(f.this.map(Value::Card).unwrap_or(Value::None))),
            Expr::Me => Box::new(|_, f| Ok(Value::Player(f.me))),
            Expr::Active => Box::new(|g, _| Ok(Value::Player(g.st.active))),
            Expr::Event => Box::new(|g, _| {
                Ok(match g.st.events.len() {
                    0 => Value::None,
                    n => Value::Event(n - 1),
                })
            }),
            Expr::MoveName => Box::new(|_, f| {
                Ok(match f.move_name {
                    Some(m) => Value::text(f.data.moves[m as usize].name.as_str()),
                    None => Value::None,
                })
            }),
            Expr::Global(i) => {
                let i = *i as usize;
                Box::new(move |g, _| Ok(Value::Int(g.st.globals[i])))
            }
            Expr::Zone(z, owner) => self.zone(*z, owner.as_deref()),
            Expr::Field(base, field) => self.field(base, *field),
            Expr::And(a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(Value::Bool(a(g, f)? && b(g, f)?)))
            }
            Expr::Or(a, b) if tag_any(e).is_none() => {
                if let Some(c) = self.pile_or(a, b) {
                    return Box::new(move |g, f| c(g, f).map(Value::Bool));
                }
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(Value::Bool(a(g, f)? || b(g, f)?)))
            }
            // The kinds `truth` lists (a body of one of them keeps its
            // condition unwrapped): change both lists together.
            Expr::Is(..)
            | Expr::Not(_)
            | Expr::Or(..)
            | Expr::Any(..)
            | Expr::Bin(
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                ..,
            ) => {
                let c = self.cond(e);
                Box::new(move |g, f| c(g, f).map(Value::Bool))
            }
            Expr::Neg(x) => {
                let x = self.val(x);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    Ok(Value::Int(g.int(&v, f.span)?.saturating_neg()))
                })
            }
            Expr::Bin(op, a, b, span) => {
                let (op, span, a, b) = (*op, *span, self.val(a), self.val(b));
                Box::new(move |g, f| {
                    let x = a(g, f)?;
                    let y = b(g, f)?;
                    if let (Value::Int(x), Value::Int(y)) = (&x, &y)
                        && let Some(v) = int_op(op, *x, *y)
                    {
                        return Ok(v);
                    }
                    g.binop(op, x, y, span)
                })
            }
            Expr::Where(list, slot, cond) => self.filter(list, *slot, cond),
            Expr::Sum(list, slot, body) => {
                let mut zones = Vec::new();
                let pr = match &**body {
                    Expr::Field(x, field) if matches!(**x, Expr::Local(s) if s == *slot) => {
                        field.prop.filter(|_| self.zone_leaves(list, &mut zones))
                    }
                    _ => None,
                };
                let (list, slot, body) = (self.val(list), self.slot(*slot), self.val(body));
                let generic: ValFn = Box::new(move |g, f| {
                    let list = list(g, f)?;
                    let mut total = 0i64;
                    for item in g.items(&list, f.span)?.iter() {
                        f.slots[slot] = item.clone();
                        let v = body(g, f)?;
                        total = g.int(&v, f.span)?.saturating_add(total);
                    }
                    Ok(Value::Int(total))
                });
                match pr {
                    Some(pr) => sum_prop(zones.into_boxed_slice(), pr, generic),
                    None => generic,
                }
            }
            Expr::Call(b, args, span) => self.call(*b, args, *span),
            Expr::Verb(v, args, span) => {
                if let Some(call) = self.inline::<KeepValue>(*v, args, *span) {
                    return call;
                }
                // A verb not inlined (one calling itself, or nested deep).
                let (v, span, args) = (*v as usize, *span, self.vals(args));
                Box::new(move |g, f| {
                    let mut vals = Args::new();
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    let data = f.data;
                    g.exec_in(data, &data.verbs[v], f.this, f.me, vals, None)
                        .map_err(|e| crate::engine::at_call(e, span))
                })
            }
            Expr::Script(s, args, span) => {
                let (s, span, args) = (*s, *span, self.vals(args));
                Box::new(move |g, f| {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    crate::engine::script::call_fn(g, s, vals, f.this, f.me, span)
                })
            }
            Expr::Rhai(id) => {
                // Scripts see the code's first slot as `target`.
                let (id, first) = (*id, (self.size > 0).then_some(self.base as usize));
                Box::new(move |g, f| {
                    let target = first.map(|s| f.slots[s].clone()).unwrap_or_default();
                    crate::engine::script::run_snippet(g, id, f.this, f.me, target)
                })
            }
        }
    }

    fn zone(&self, z: u16, owner: Option<&Expr>) -> ValFn {
        if self.shared(z) {
            // A shared zone has one instance; its owner expression (if any) is
            // still evaluated, and must be a player.
            let zone = Value::Zone(ZoneRef { zone: z, owner: 0 });
            return match owner {
                None => Box::new(move |_, _| Ok(zone.clone())),
                Some(o) => {
                    let o = self.val(o);
                    Box::new(move |g, f| {
                        let o = o(g, f)?;
                        g.player(&o, f.span)?;
                        Ok(zone.clone())
                    })
                }
            };
        }
        match owner {
            None => Box::new(move |_, f| {
                Ok(Value::Zone(ZoneRef {
                    zone: z,
                    owner: f.me,
                }))
            }),
            // `deck(p)`: the player read from its slot in place.
            Some(Expr::Local(s)) => {
                let s = self.slot(*s);
                Box::new(move |g, f| {
                    let owner = g.player(&f.slots[s], f.span)?;
                    Ok(Value::Zone(ZoneRef { zone: z, owner }))
                })
            }
            Some(o) => {
                let o = self.val(o);
                Box::new(move |g, f| {
                    let o = o(g, f)?;
                    let owner = g.player(&o, f.span)?;
                    Ok(Value::Zone(ZoneRef { zone: z, owner }))
                })
            }
        }
    }

    fn field(&self, base: &Expr, field: Field) -> ValFn {
        match (base, field.counter, field.prop) {
            (Expr::Me, Some(c), _) => Box::new(move |g, f| Ok(Value::Int(g.st.counter(f.me, c)))),
            (Expr::Local(s), ..) => {
                let s = self.slot(*s);
                Box::new(move |g, f| read_field(g, &f.slots[s], &field, f))
            }
            _ => {
                let base = self.val(base);
                Box::new(move |g, f| {
                    let b = base(g, f)?;
                    read_field(g, &b, &field, f)
                })
            }
        }
    }

    /// `any(piles(zone), cond)`: the pile ids read in place, no list made. A
    /// test of `it`'s tags first (`it is a and ...`) reads the definition in
    /// place; the rest runs only for the piles that pass it, and a rest of
    /// the shape `pile_count(zone, it) < n` reads the pile's size in place.
    fn any_pile(&self, zone: &Expr, span: Span, slot: u16, body: &Expr) -> CondFn {
        let (mask, body) = match body {
            Expr::And(a, b) => match tag_any(a) {
                Some((s, m)) if s == slot => (Some(m), &**b),
                _ => (None, body),
            },
            _ => (None, body),
        };
        // `pile_count(zone, it) < n`.
        let rest = match body {
            Expr::Bin(op, a, b, _) if let Some(op) = CmpOp::of(*op) => match (&**a, &**b) {
                (Expr::Call(Builtin::PileCount, args, at), Expr::Int(k)) => match args.as_slice() {
                    [Expr::Zone(z, None), Expr::Local(s)] if *s == slot => {
                        Some((*z, self.shared(*z), op, *k, *at))
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        // `pile_count` of the zone iterated reads the pile at hand: a zone
        // holds one pile per definition.
        let same = matches!((zone, &rest), (Expr::Zone(z, None), Some((y, ..))) if z == y);
        let rest = match rest {
            Some((zone, shared, op, k, at)) => PileTest::Count(zone, shared, op, k, at),
            None => PileTest::Code(self.cond(body)),
        };
        // Which definitions pass the tag test, found once.
        let pass: Box<[bool]> = (self.data.defs.iter())
            .map(|d| mask.is_none_or(|m| d.tags & m != 0))
            .collect();
        let (zone, slot) = (self.zone_op(zone), self.slot(slot));
        Box::new(move |g, f| {
            let z = zone.zone(g, f, span)?;
            let inst = g.st.inst(z);
            if let PileTest::Count(zone, shared, op, y, at) = rest {
                for (d, p) in &g.st.zones[inst].piles {
                    if !pass[*d as usize] {
                        continue;
                    }
                    f.span = at;
                    let len = if same {
                        p.len()
                    } else {
                        let owner = if shared { 0 } else { f.me };
                        g.pile_of(ZoneRef { zone, owner }, *d).len()
                    };
                    if op.holds(len as i64, y) {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            // Piles are only ever added: the first `n` are the ones listed now.
            let n = g.st.zones[inst].piles.len();
            for i in 0..n {
                let d = g.st.zones[inst].piles[i].0;
                if !pass[d as usize] {
                    continue;
                }
                if let PileTest::Code(ref body) = rest {
                    f.slots[slot] = Value::Def(d);
                    if body(g, f)? {
                        return Ok(true);
                    }
                }
            }
            Ok(false)
        })
    }

    /// `empty_piles(z) <op> n or any(piles(z), <tag test> and pile_count(z,
    /// it) <op> k)` of one zone named without an owner: both read in one pass
    /// over its piles. Neither side can fail or count a step; the span left
    /// is the one the two scans would leave (the `pile_count` call's once a
    /// pile passed the tag test).
    fn pile_or(&self, a: &Expr, b: &Expr) -> Option<CondFn> {
        let Expr::Bin(op, x, n, _) = a else {
            return None;
        };
        let (Expr::Call(Builtin::EmptyPiles, args, at_empty), Expr::Int(n)) = (&**x, &**n) else {
            return None;
        };
        let (cmp, n, at_empty) = (CmpOp::of(*op)?, *n, *at_empty);
        let ([Expr::Zone(z, None)], Expr::Any(list, slot, body)) = (args.as_slice(), b) else {
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
        let Expr::Bin(op, c, k, _) = &**rest else {
            return None;
        };
        let (Expr::Call(Builtin::PileCount, ca, at), Expr::Int(k)) = (&**c, &**k) else {
            return None;
        };
        let [Expr::Zone(w, None), Expr::Local(it)] = ca.as_slice() else {
            return None;
        };
        let (op, k, at, at_piles) = (CmpOp::of(*op)?, *k, *at, *at_piles);
        if z != y || y != w || *it != *slot || s != *slot {
            return None;
        }
        let ZoneOp::At(zone) = self.zone_op(&args[0]) else {
            return None;
        };
        let pass: Box<[bool]> = (self.data.defs.iter())
            .map(|d| d.tags & mask != 0)
            .collect();
        // The same, a bit per definition.
        let mut pass_bits = vec![0u64; pass.len().div_ceil(64)];
        for (d, _) in pass.iter().enumerate().filter(|p| *p.1) {
            pass_bits[d / 64] |= 1 << (d % 64);
        }
        // `pile_count(..) <op> k` holds for an empty pile only: the empty
        // piles are the zone's bits.
        let only_empty =
            matches!(op, CmpOp::Eq | CmpOp::Lt | CmpOp::Le) && op.holds(0, k) && !op.holds(1, k);
        Some(Box::new(move |g, f| {
            let z = zone.get(g, f)?;
            let zi = &g.st.zones[g.st.inst(z)];
            if only_empty && zi.piles.len() <= 64 {
                debug_assert_eq!(zi.nempty, zi.empty.count_ones());
                debug_assert_eq!(
                    zi.empty,
                    (zi.piles.iter().enumerate())
                        .fold(0, |m, (i, (_, p))| m | (p.is_empty() as u64) << i)
                );
                if cmp.holds(zi.nempty as i64, n) {
                    f.span = at_empty;
                    return Ok(true);
                }
                let mut bits = zi.empty;
                while bits != 0 {
                    if pass[zi.piles[bits.trailing_zeros() as usize].0 as usize] {
                        f.span = at;
                        return Ok(true);
                    }
                    bits &= bits - 1;
                }
                let seen = (zi.pile_defs.iter().zip(&pass_bits)).any(|(a, b)| a & b != 0);
                f.span = if seen { at } else { at_piles };
                return Ok(false);
            }
            let (mut empty, mut seen, mut hit) = (0i64, false, false);
            for (d, p) in &zi.piles {
                empty += p.is_empty() as i64;
                if pass[*d as usize] {
                    seen = true;
                    hit |= op.holds(p.len() as i64, k);
                }
            }
            if cmp.holds(empty, n) {
                f.span = at_empty;
                return Ok(true);
            }
            f.span = if seen { at } else { at_piles };
            Ok(hit)
        }))
    }

    /// `list where cond`: a zone's cards are filtered without building the
    /// zone's list first.
    fn filter(&self, list: &Expr, slot: u16, cond: &Expr) -> ValFn {
        let (list, slot, cond) = (self.val(list), self.slot(slot), self.cond(cond));
        Box::new(move |g, f| {
            let list = list(g, f)?;
            let mut out = Vec::new();
            if let Value::Zone(z) = list {
                g.check_visible(z, f.span)?;
                let cards = g.cards_of(&list, f)?;
                for (i, &c) in cards.iter().enumerate() {
                    f.slots[slot] = Value::Card(c);
                    if cond(g, f)? {
                        // One allocation, sized for the cards still to test.
                        if out.capacity() == 0 {
                            out.reserve_exact(cards.len() - i);
                        }
                        out.push(Value::Card(c));
                    }
                }
            } else {
                let items = g.items(&list, f.span)?;
                for (i, item) in items.iter().enumerate() {
                    f.slots[slot] = item.clone();
                    if cond(g, f)? {
                        if out.capacity() == 0 {
                            out.reserve_exact(items.len() - i);
                        }
                        out.push(item.clone());
                    }
                }
            }
            Ok(Value::list(out))
        })
    }

    /// A kernel operation. The ones every turn runs many times (count, top,
    /// move, run, window) take their arguments straight from their closures;
    /// the rest go through [`Game::call`].
    fn call(&self, b: Builtin, args: &[Expr], span: Span) -> ValFn {
        if let Some(c) = self.known_call(b, args, span) {
            return c;
        }
        match (b, args) {
            (Builtin::Count | Builtin::Empty, [x]) => {
                let (x, count) = (self.val(x), b == Builtin::Count);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    f.span = span;
                    let n = g.count(&v, span)?;
                    Ok(if count {
                        Value::Int(n as i64)
                    } else {
                        Value::Bool(n == 0)
                    })
                })
            }
            (Builtin::Top, [z]) => {
                let z = self.val(z);
                Box::new(move |g, f| {
                    let z = z(g, f)?;
                    f.span = span;
                    let z = g.zone_arg(&z, f)?;
                    let cards = &g.st.zones[g.st.inst(z)].cards;
                    Ok(cards.last().map(|&c| Value::Card(c)).unwrap_or(Value::None))
                })
            }
            (Builtin::Move | Builtin::MoveAll, _)
                if let Some(m) = self.mover::<KeepValue>(b, args, span) =>
            {
                m
            }
            (Builtin::Move | Builtin::MoveAll, [cards, zone, rest @ ..])
                if matches!(rest, [] | [Expr::Int(_)]) =>
            {
                let cause = match rest {
                    [Expr::Int(e)] => Some(*e as u16),
                    _ => None,
                };
                let (cards, zone, together) =
                    (self.val(cards), self.val(zone), b == Builtin::MoveAll);
                Box::new(move |g, f| {
                    let cards = cards(g, f)?;
                    let zone = zone(g, f)?;
                    f.span = span;
                    g.move_value(&cards, &zone, cause, false, together, f)
                })
            }
            (Builtin::Emit, _) if let Some(e) = self.emitter::<KeepValue>(args, span) => e,
            (Builtin::Run, [card, Expr::Int(effect)]) => {
                self.runner::<KeepValue>(card, *effect as u16, span)
            }
            (Builtin::Window, [Expr::Int(w)]) => {
                let w = *w as u16;
                Box::new(move |g, f| {
                    f.span = span;
                    g.window_in(f.data, w).map(|()| Value::None)
                })
            }
            _ => {
                let args = self.vals(args);
                Box::new(move |g, f| {
                    let mut vals = Args::new();
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    g.call(b, vals, f)
                })
            }
        }
    }
}

/// Calls whose operands are known at load time: a declared option read by
/// its index, and the players listed with no list built.
impl Compiler<'_> {
    fn known_call(&self, b: Builtin, args: &[Expr], span: Span) -> Option<ValFn> {
        let players = |e: &Expr| matches!(e, Expr::Call(Builtin::Players, a, _) if a.is_empty());
        Some(match (b, args) {
            (Builtin::Option, [Expr::Str(name)]) => {
                let i = self.data.options.iter().position(|o| **o == ***name)?;
                Box::new(move |g, f| {
                    f.span = span;
                    Ok(g.option_vals[i].clone())
                })
            }
            (Builtin::First, [Expr::Call(Builtin::Option, o, _)])
                if let [Expr::Str(name)] = o.as_slice() =>
            {
                let i = self.data.options.iter().position(|o| **o == ***name)?;
                Box::new(move |g, f| {
                    f.span = span;
                    match &g.option_vals[i] {
                        Value::None => Ok(Value::None),
                        Value::List(l) => Ok(l.first().cloned().unwrap_or(Value::None)),
                        v => {
                            let mut a = Args::new();
                            a.push(v.clone());
                            g.call(b, a, f)
                        }
                    }
                })
            }
            (Builtin::Count, [p]) if players(p) => Box::new(move |g, f| {
                f.span = span;
                Ok(Value::Int(
                    g.turn_order_iter(g.st.active, true).count() as i64
                ))
            }),
            // `first(random_pick(players(), 1))`: one draw, as random_pick makes it.
            (Builtin::First, [Expr::Call(Builtin::RandomPick, r, _)])
                if let [p, Expr::Int(1)] = r.as_slice()
                    && players(p) =>
            {
                Box::new(move |g, f| {
                    f.span = span;
                    let ps: smallvec::SmallVec<[PlayerId; 8]> =
                        g.turn_order_iter(g.st.active, true).collect();
                    if ps.is_empty() {
                        return Ok(Value::None);
                    }
                    let i = g.st.below(ps.len());
                    Ok(Value::Player(ps[i]))
                })
            }
            // `contains(x, @card)` of none (an unset option): no list read.
            (Builtin::Contains, [x, Expr::Def(d)]) => {
                let (x, d) = (self.val(x), *d);
                Box::new(move |g, f| {
                    let x = x(g, f)?;
                    f.span = span;
                    if let Value::None = x {
                        return Ok(Value::Bool(false));
                    }
                    let mut a = Args::new();
                    a.push(x);
                    a.push(Value::Def(d));
                    g.call(b, a, f)
                })
            }
            _ => return None,
        })
    }

    /// Calls in statement position on a zone found in place, operands read
    /// with no closure where they can be (a zone that is not found runs
    /// the general way): `create(card, zone, n?)` makes its cards straight
    /// into the zone, `shuffle(zone)`, `set_active(p)`.
    fn known_effect(&self, e: &Expr) -> Option<StmtFn> {
        let Expr::Call(b, args, span) = e else {
            return None;
        };
        let span = *span;
        Some(match (b, args.as_slice()) {
            (Builtin::Create, [d, z, n @ ..]) => {
                let at = self.zone_at(z)?;
                let n = n.first().map(|n| self.operand(n, true));
                // A card read from its slot after the count's code ran
                // could see that code's work: read first then.
                let late = !matches!(n, Some(Operand::Code(_)));
                let d = self.operand(d, late);
                let all = self.vals(args);
                Box::new(move |g, f| {
                    let code = match &d {
                        Operand::Code(d) => Some(d(g, f)?),
                        _ => None,
                    };
                    let Some(z) = at.find(f) else {
                        let mut vals = Args::new();
                        vals.push(d.read(&code, f).clone());
                        for a in all[1..].iter() {
                            vals.push(a(g, f)?);
                        }
                        f.span = span;
                        return g.create(&vals, f).map(drop);
                    };
                    let count = match &n {
                        Some(Operand::Code(n)) => Some(n(g, f)?),
                        _ => None,
                    };
                    f.span = span;
                    let d = g.def_arg(d.read(&code, f), f)?;
                    let n = n.as_ref().map(|n| n.read(&count, f));
                    g.create_n(d, z, n, f).map(drop)
                })
            }
            (Builtin::Shuffle, [z]) => {
                let at = self.zone_at(z)?;
                let general = self.vals(args);
                Box::new(move |g, f| {
                    let Some(z) = at.find(f) else {
                        let v = general[0](g, f)?;
                        f.span = span;
                        let z = g.zone_arg(&v, f)?;
                        g.shuffle_zone(z);
                        return Ok(());
                    };
                    f.span = span;
                    g.shuffle_zone(z);
                    Ok(())
                })
            }
            (Builtin::SetActive, [p]) => {
                let p = self.val(p);
                Box::new(move |g, f| {
                    let p = p(g, f)?;
                    f.span = span;
                    g.set_active(&p, span)
                })
            }
            _ => return None,
        })
    }

    /// An operand read with no closure run: a constant, or a local's slot
    /// where `slot` allows it.
    fn operand(&self, e: &Expr, slot: bool) -> Operand {
        match e {
            Expr::Def(d) => Operand::Const(Value::Def(*d)),
            Expr::Int(k) => Operand::Const(Value::Int(*k)),
            Expr::Local(s) if slot => Operand::Slot(self.slot(*s)),
            e => Operand::Code(self.val(e)),
        }
    }

    /// `x == none` and `x != none` of a local: its slot read, no values compared.
    fn known_cond(&self, e: &Expr) -> Option<CondFn> {
        let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, _) = e else {
            return None;
        };
        let (Expr::Local(s), Expr::None) = (&**a, &**b) else {
            return None;
        };
        let (s, eq) = (self.slot(*s), *op == BinOp::Eq);
        Some(Box::new(move |_, f| {
            Ok(matches!(f.slots[s], Value::None) == eq)
        }))
    }

    /// `for p in players() {..}`: the players taken in a list on the stack.
    fn for_players(&self, slot: u16, span: Span, body: &[Stmt]) -> StmtFn {
        let (slot, body) = (self.slot(slot), self.block(body));
        Box::new(move |g, f| {
            f.span = span;
            let ps: smallvec::SmallVec<[PlayerId; 8]> =
                g.turn_order_iter(g.st.active, true).collect();
            for p in ps {
                f.slots[slot] = Value::Player(p);
                g.tick(f.span)?;
                body(g, f)?;
            }
            Ok(())
        })
    }
}

/// A call's operand: a constant, a frame slot, or code run before the call
/// (its value kept by the caller and passed to [`Operand::read`]).
enum Operand {
    Const(Value),
    Slot(usize),
    Code(ValFn),
}

impl Operand {
    #[inline(always)]
    fn read<'a>(&'a self, code: &'a Option<Value>, f: &'a Frame) -> &'a Value {
        match (self, code) {
            (Operand::Const(v), _) => v,
            (Operand::Slot(s), _) => &f.slots[*s],
            (Operand::Code(_), Some(v)) => v,
            (Operand::Code(_), None) => &Value::None,
        }
    }
}
