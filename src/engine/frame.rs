//! A frame: the variables of one running piece of code, where they are
//! kept, and the one way code enters and leaves one: [`Game::framed`] for a
//! frame of its own (code called, a window's move, the rules' own code, a
//! script calling back), [`Game::inlined`] for a verb a tier inlined into
//! its caller's frame. Both charge the budget's step and depth here and
//! unwind here, so nesting limits, the card errors name and what a `return`
//! or an error does at a frame's edge cannot differ between paths.

use std::mem::ManuallyDrop;

use super::{Flow, Game, Res};
use crate::data::Data;
use crate::lang::ir::{Code, Span};
use crate::value::{ObjId, PlayerId, Value};

/// A frame's slots when there are few (most code), on the native stack: no
/// vector to take from a pool and give back. Only the first `n` are used,
/// and [`Slots::empty`] empties them (no glue dropping all eight).
struct Slots {
    stack: ManuallyDrop<[Value; 8]>,
}

impl Slots {
    /// The most slots kept on the native stack.
    const MAX: usize = 8;

    #[inline(always)]
    fn new() -> Slots {
        Slots {
            stack: Default::default(),
        }
    }

    /// Drops what the first `n` slots hold: only a value that is not
    /// [`Value::is_plain`] owns anything; the rest are left as they are (the
    /// slots are not read again, and not dropped).
    #[inline(always)]
    fn empty(&mut self, n: usize) {
        for s in self.stack.iter_mut().take(n) {
            if !s.is_plain() {
                s.clear();
            }
        }
    }
}

/// The variables of one running piece of code, and the game data it runs in
/// (borrowed: no reference counting per call, shared by all threads).
pub struct Frame<'a> {
    pub data: &'a Data,
    pub this: Option<ObjId>,
    pub me: PlayerId,
    pub slots: &'a mut [Value],
    pub span: Span,
    pub move_name: Option<u16>,
}

/// What [`Game::framed`] binds: the data, the card and player the code
/// runs for, the span it starts at, the window move it is the body of.
#[derive(Clone, Copy)]
pub(crate) struct Enter<'d> {
    pub data: &'d Data,
    pub this: Option<ObjId>,
    pub me: PlayerId,
    pub span: Span,
    pub move_name: Option<u16>,
}

impl<'d> Enter<'d> {
    /// The rules' own code for player `p`: no card, no move.
    #[inline(always)]
    pub(crate) fn rules(data: &'d Data, code: &Code, p: PlayerId) -> Enter<'d> {
        Enter {
            data,
            this: None,
            me: p,
            span: code.span,
            move_name: None,
        }
    }

    #[inline(always)]
    fn frame<'a>(&self, slots: &'a mut [Value]) -> Frame<'a>
    where
        'd: 'a,
    {
        Frame {
            data: self.data,
            this: self.this,
            me: self.me,
            slots,
            span: self.span,
            move_name: self.move_name,
        }
    }
}

/// How entering a frame is paid for out of the turn's budget.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Charge {
    /// A step and a level deeper, both checked ([`Game::enter`]): code run.
    Step,
    /// `n` levels deeper only: the caller counted the steps and knows the
    /// depth fits (a quick window's move, its round counted; a verb called
    /// by a verb, both run in place).
    Levels(u32),
    /// Nothing: the frame of code already running, made again (for a script
    /// calling back into the kernel, with the slots a hook makes only when
    /// it needs them). Its card is already the current one, and a `return`
    /// is left to the frame it is within.
    Within,
}

/// The slots a frame takes: `n` in all, the first `own` its code's own.
/// The rest (a tier's: verbs inlined into the code, a filter's kept parts)
/// are left empty by the code that writes them whenever it ends without an
/// error, so a frame that ends so empties only its own.
#[derive(Clone, Copy)]
pub(crate) struct Need {
    pub n: usize,
    pub own: usize,
}

impl From<usize> for Need {
    #[inline(always)]
    fn from(n: usize) -> Need {
        Need { n, own: n }
    }
}

/// A frame's body stopped by `e`: a `return`'s value taken, any other
/// [`Flow`] passed on (located at the `call` of an inlined verb). Out of
/// line, so the frames' usual path holds no drop glue.
#[cold]
#[inline(never)]
fn unwound<R: Returns>(e: Box<Flow>, call: Option<Span>) -> Res<R> {
    if !matches!(*e, Flow::Return(_)) {
        return Err(match call {
            Some(call) => super::at_call(e, call),
            None => e,
        });
    }
    match *e {
        Flow::Return(v) => Ok(R::of(v)),
        _ => unreachable!("a return, tested above"),
    }
}

/// What a frame's body gives back, a `return` in it taken as its value.
pub(crate) trait Returns: Sized {
    fn of(v: Value) -> Self;
}

impl Returns for Value {
    #[inline(always)]
    fn of(v: Value) -> Value {
        v
    }
}

impl Returns for bool {
    #[inline(always)]
    fn of(v: Value) -> bool {
        v.truthy()
    }
}

impl Returns for () {
    #[inline(always)]
    fn of(_: Value) {}
}

impl Game {
    /// Runs `body` in a frame of `n` slots (`bind` sets them first; the
    /// rest are empty): the one way into a frame, so what entering and
    /// leaving one means has one home. Entering charges the budget
    /// ([`Charge`]: a step and a level, checked, before anything else is
    /// touched) and makes `this`'s card the current one (errors name it);
    /// leaving, whether the body ends, returns or fails, gives the level
    /// back, restores the current card and empties the slots, and a `return`
    /// stops here as the body's value while every other [`Flow`] (an error,
    /// the end of a turn) goes on unwinding to the caller.
    #[inline(always)]
    pub(crate) fn framed<R: Returns>(
        &mut self,
        charge: Charge,
        e: Enter,
        need: impl Into<Need>,
        bind: impl FnOnce(&mut [Value]),
        body: impl FnOnce(&mut Game, &mut Frame) -> Res<R>,
    ) -> Res<R> {
        let Need { n, own } = need.into();
        self.pay(charge, e.span)?;
        // Code with no card leaves the current one (frames in it restore
        // theirs).
        let saved = self.current_card;
        if let Some(c) = e.this.filter(|_| charge != Charge::Within) {
            self.current_card = Some(self.st.objs[c as usize].def);
        }
        // One call of `body` (inlined here), its slots on the native stack
        // when few, else in the spare vector.
        let mut stack = Slots::new();
        // Given back by hand: no drop glue on this path.
        let mut heap = ManuallyDrop::new(match n > Slots::MAX {
            true => self.spare(n),
            false => Vec::new(),
        });
        let slots = match n > Slots::MAX {
            true => &mut heap[..n],
            false => &mut stack.stack[..n],
        };
        if n > 0 {
            bind(slots);
        }
        let r = body(self, &mut e.frame(slots));
        if n > Slots::MAX {
            let written = if r.is_ok() { own } else { n };
            self.give_back(ManuallyDrop::into_inner(heap), written, n);
        } else {
            stack.empty(n);
        }
        if charge == Charge::Within {
            return r;
        }
        if e.this.is_some() {
            self.current_card = saved;
        }
        self.repay(charge);
        match r {
            Err(e) => unwound(e, None),
            Ok(v) => Ok(v),
        }
    }

    /// Runs `body`, a verb the tier inlined into the code running in `f`
    /// (its locals among that frame's slots), as [`Game::framed`] runs one
    /// in a frame of its own: entered (`charge`) at the verb's span `at`
    /// with no move name, left at the call's `span`, a `return` taken as
    /// its value, any other [`Flow`] located at the call.
    #[inline(always)]
    pub(crate) fn inlined<R: Returns>(
        &mut self,
        f: &mut Frame,
        charge: Charge,
        at: Span,
        span: Span,
        body: impl FnOnce(&mut Game, &mut Frame) -> Res<R>,
    ) -> Res<R> {
        // A failed step or depth check is an error that no code reads the
        // span of, located at the call as the verb's own frame's would be.
        if let Err(e) = self.pay(charge, at) {
            return Err(super::at_call(e, span));
        }
        f.span = at;
        let move_name = f.move_name.take();
        let r = body(self, f);
        f.move_name = move_name;
        f.span = span;
        self.repay(charge);
        match r {
            Err(e) => unwound(e, Some(span)),
            Ok(v) => Ok(v),
        }
    }

    /// Enters the levels `charge` says, at `span`.
    #[inline(always)]
    fn pay(&mut self, charge: Charge, span: Span) -> Res<()> {
        match charge {
            Charge::Step => self.enter(span),
            Charge::Levels(n) => {
                self.budget.descend(n);
                Ok(())
            }
            Charge::Within => Ok(()),
        }
    }

    /// Leaves the levels [`Game::pay`] entered.
    #[inline(always)]
    fn repay(&mut self, charge: Charge) {
        match charge {
            Charge::Step => self.leave(),
            Charge::Levels(n) => self.budget.ascend(n),
            Charge::Within => {}
        }
    }

    /// [`Game::framed`]'s `n` slots when there are more than the native
    /// stack keeps: a vector kept from frame to frame (one nested in another
    /// makes its own), its first `n` used. Every slot it holds is empty, so
    /// one as long is used as it is: nothing written per slot.
    #[inline(never)]
    fn spare(&mut self, n: usize) -> Vec<Value> {
        let mut slots = std::mem::take(&mut self.spare_slots);
        if slots.len() < n {
            let more = n - slots.len();
            slots.extend(std::iter::repeat_with(|| Value::None).take(more));
        }
        slots
    }

    /// [`Game::spare`]'s vector given back, its first `written` slots
    /// emptied (the rest of the frame's `n` are empty: see [`Need`]) and
    /// kept at its length: most slots of a big frame are never written, and
    /// an empty one is only read.
    #[inline(never)]
    fn give_back(&mut self, mut slots: Vec<Value>, written: usize, n: usize) {
        for s in &mut slots[..written] {
            if !matches!(s, Value::None) {
                s.clear();
            }
        }
        debug_assert!(
            slots[written..n].iter().all(|s| matches!(s, Value::None)),
            "a frame's slots past its code's own left written"
        );
        self.spare_slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Emptied slots give back what they own (a list, a string), and only
    /// the first `n` are looked at.
    #[test]
    fn emptied_slots_drop_what_they_own() {
        let list = Arc::new(vec![Value::Int(1)]);
        let text = Arc::new(String::from("x"));
        let mut s = Slots::new();
        s.stack[0] = Value::Int(3);
        s.stack[1] = Value::List(list.clone());
        s.stack[2] = Value::Str(text.clone());
        s.stack[3] = Value::Card(7);
        s.empty(4);
        assert_eq!((Arc::strong_count(&list), Arc::strong_count(&text)), (1, 1));
    }
}
