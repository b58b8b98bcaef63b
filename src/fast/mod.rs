//! The speed tier: everything that exists only to run a game faster, kept
//! beside the kernel and reached through one door, [`crate::engine::tier`].
//!
//! What it may do: exactly what the reference does (the kernel's general
//! paths and its evaluator, `engine/reference.rs`), faster. Card and rules
//! code compiled to closures (shapes recognised by what they do, verbs
//! inlined, moves run in place), the rules' hooks run as one fixed
//! sequence, and quick windows decided by a data bot without listing moves.
//! Every answer, transcript line, final state, step count and error with
//! its span must be the reference's: `tests/differential.rs` plays every
//! scenario and many seeds under both tiers and compares them. A game with
//! no tier (`--reference`) runs none of this.

mod compile;
mod quick;

use std::sync::{Arc, OnceLock};

use crate::data::Data;
use crate::engine::decide::Plan;
use crate::engine::exec::{Charge, Enter};
use crate::engine::tier::{Compiled, Tier};
use crate::engine::{Game, Res};
use crate::lang::ir::Code;
use crate::value::{PlayerId, Value};
use compile::Body;

/// The speed tier of one game's data: each piece of code's compiled form,
/// made on its first run, by [`Code::id`].
pub struct Fast {
    codes: Box<[OnceLock<(Body, usize)>]>,
}

/// The speed tier for games of `data` (shared by all of them).
pub fn tier(data: &Data) -> Arc<dyn Tier> {
    Arc::new(Fast::new(data))
}

impl Fast {
    pub fn new(data: &Data) -> Fast {
        Fast {
            codes: (0..data.code_count).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Whether `code` is compiled yet.
    pub fn compiled(&self, code: &Code) -> bool {
        self.codes
            .get(code.id as usize)
            .is_some_and(|c| c.get().is_some())
    }

    /// `code`'s closure and frame size, compiled against `data` the first
    /// time; None for code the loader did not number (the reference walks
    /// it).
    #[inline(always)]
    fn get<'t>(&'t self, data: &Data, code: &Code) -> Option<&'t (Body, usize)> {
        let c = self.codes.get(code.id as usize)?;
        Some(match c.get() {
            Some(b) => b,
            None => first(c, data, code),
        })
    }

    /// [`Fast::get`] of code the loader numbered (a move's body).
    #[inline(always)]
    fn body<'t>(&'t self, data: &Data, code: &Code) -> (&'t Body, usize) {
        match self.get(data, code) {
            Some((b, n)) => (b, *n),
            None => unreachable!("the loader numbers every move's body"),
        }
    }
}

/// [`Fast::get`] the first time: compiles the code (out of line, so the
/// callers' usual path saves no registers for it).
#[cold]
#[inline(never)]
fn first<'t>(c: &'t OnceLock<(Body, usize)>, data: &Data, code: &Code) -> &'t (Body, usize) {
    c.get_or_init(|| compile::compile(data, code))
}

impl Tier for Fast {
    #[inline]
    fn code<'t>(&'t self, data: &Data, code: &Code) -> Option<(&'t dyn Compiled, usize)> {
        let (body, n) = self.get(data, code)?;
        Some((body, *n))
    }

    fn hook(&self, g: &mut Game, data: &Data, code: &Code, p: PlayerId) -> Res<Value> {
        let (b, n) = match self.get(data, code) {
            Some((b, n)) => (Some(b), *n),
            None => (None, code.slots as usize),
        };
        let e = Enter::rules(data, code, p);
        match b {
            // A hook runs as one fixed sequence, its slots made if needed.
            Some(Body::Hook(h)) => g.framed(
                Charge::Step,
                e,
                0,
                |_| {},
                |g, f| h.exec(g, f, n).map(|()| Value::None),
            ),
            Some(b) => g.framed(Charge::Step, e, n, |_| {}, |g, f| b.run(g, f)),
            None => g.framed(Charge::Step, e, n, |_| {}, |g, f| g.run_body(None, code, f)),
        }
    }

    fn end_check(&self, g: &mut Game, data: &Data) -> Res<bool> {
        let code = &data.end_if;
        let Some((Body::Cond(c), n)) = self.get(data, code) else {
            return Ok(g.exec_hook(data, code, g.st.active)?.truthy());
        };
        let e = Enter::rules(data, code, g.st.active);
        g.framed(Charge::Step, e, *n, |_| {}, |g, f| c(g, f))
    }

    fn quick_rounds(&self, g: &mut Game, data: &Data, pl: &mut Plan) -> Res<()> {
        g.quick_rounds(self, data, pl)
    }

    fn compile_all(&self, data: &Data) {
        for code in data.codes() {
            self.code(data, code);
        }
    }
}
