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

mod blind;
mod compile;
mod conditions;
mod filtered;
mod listing;
pub(crate) mod native;
mod pick;
mod quick;
mod quiet;
mod recheck;
mod tables;
mod test;

use std::sync::{Arc, OnceLock};

use crate::data::Data;
use crate::engine::decide::{Act, MAX_DEPTH};
use crate::engine::exec::{Charge, Enter, Need};
use crate::engine::request::{Choice, Picks, Request};
use crate::engine::tier::{Compiled, Tier};
use crate::engine::{Game, Res};
use crate::lang::ir::Code;
use crate::value::{ObjId, PlayerId, Value};
use compile::Body;
use tables::Tables;

/// The speed tier of one game's data: each piece of code's compiled form,
/// made on its first run, by [`Code::id`], and what it recognised in the
/// declarations.
pub struct Fast {
    codes: Box<[OnceLock<(Body, usize)>]>,
    /// Each move's pick that is one filter, by move ([`filtered`]).
    filters: Box<[OnceLock<filtered::FilterPick>]>,
    tables: Tables,
}

/// The speed tier for games of `data` (shared by all of them).
pub fn tier(data: &Data) -> Arc<dyn Tier> {
    Arc::new(Fast::new(data))
}

impl Fast {
    pub fn new(data: &Data) -> Fast {
        Fast {
            codes: (0..data.code_count).map(|_| OnceLock::new()).collect(),
            filters: (data.moves.iter()).map(|_| OnceLock::new()).collect(),
            tables: Tables::new(data),
        }
    }

    /// Whether the tier decides move `m`'s condition and its pick natively.
    pub fn move_recognised(&self, m: usize) -> (bool, bool) {
        let mf = &self.tables.moves[m];
        (mf.cond_test.is_some(), mf.pick.is_some())
    }

    /// Whether the tier decides rule `r` of bot `b`'s condition and its
    /// `choose` natively.
    pub fn rule_recognised(&self, b: usize, r: usize) -> (bool, bool) {
        let rf = &self.tables.rules[b][r];
        (
            rf.cond_test.is_some(),
            !matches!(rf.choose, native::Choose::General),
        )
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

    /// [`Tier::end_check`] where the check is not decided: run compiled.
    #[inline(never)]
    fn end_check_run(&self, g: &mut Game, data: &Data) -> Res<bool> {
        let code = &data.end_if;
        let Some((Body::Cond(c), n)) = self.get(data, code) else {
            return Ok(g.exec_hook(data, code, g.st.active)?.truthy());
        };
        let e = Enter::rules(data, code, g.st.active);
        g.framed(Charge::Step, e, *n, |_| {}, |g, f| c(g, f))
    }
}

impl Fast {
    /// Code that only opens windows (a phase's) reads nothing of a frame:
    /// they are opened here, with no call through the door each.
    #[inline(never)]
    fn windows(&self, g: &mut Game, data: &Data, ws: &[u16]) -> Res<Value> {
        self.open(g, data, ws).map(|()| Value::None)
    }

    /// Opens windows `ws` in turn.
    #[inline(always)]
    fn open(&self, g: &mut Game, data: &Data, ws: &[u16]) -> Res<()> {
        (ws.iter()).try_for_each(|&w| g.window_by(data, w, |g| self.quick_window(g, data, w)))
    }

    /// One player's window, one move with a native pick: a data bot's seat
    /// decides before the move's options are listed; any other seat's
    /// rounds run blind ([`Game::blind_rounds`]).
    #[inline(always)]
    fn quick_window(&self, g: &mut Game, data: &Data, w: u16) -> Option<Res<()>> {
        let wf = self.tables.windows.get(w as usize)?;
        let q = wf.quick.as_ref()?;
        if wf.all_players || g.budget.depth() >= MAX_DEPTH {
            return None;
        }
        let p = g.st.active;
        let Some(b) = g.data_bot(p) else {
            return Some(g.blind_rounds(self, data, w, q.m, p));
        };
        let mut plan = Game::bot_plan(data, &self.tables, wf, p, b)?;
        Some(g.quick_rounds(data, &mut plan))
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
            // A phase's windows read nothing of a frame.
            Some(Body::Windows(ws)) => {
                g.framed(Charge::Step, e, 0, |_| {}, |g, _| self.windows(g, data, ws))
            }
            Some(b) => {
                let need = Need {
                    n,
                    own: code.slots as usize,
                };
                g.framed(Charge::Step, e, need, |_| {}, |g, f| b.run(g, f))
            }
            None => g.framed(Charge::Step, e, n, |_| {}, |g, f| g.run_body(None, code, f)),
        }
    }

    /// Phases that only open windows, found once in the tables.
    fn phase_windows(&self) -> &[Option<Box<[u16]>>] {
        &self.tables.phases
    }

    fn end_check(&self, g: &mut Game, data: &Data) -> Res<bool> {
        // Decided from the game, charged as its frame (else run).
        if let Some(end) = &self.tables.end
            && let Some((holds, steps)) = end.decide_kept(g)
            && g.budget.room(1 + steps)
        {
            return g.charge_as_frame(data.end_if.span, steps).map(|()| holds);
        }
        self.end_check_run(g, data)
    }

    fn window(&self, g: &mut Game, data: &Data, w: u16) -> Option<Res<()>> {
        self.quick_window(g, data, w)
    }

    fn bot_round(
        &self,
        g: &mut Game,
        data: &Data,
        w: u16,
        p: PlayerId,
        b: usize,
        options: &mut Vec<Choice>,
    ) -> Option<Res<Act>> {
        if g.budget.depth() >= MAX_DEPTH {
            return None;
        }
        let wf = self.tables.windows.get(w as usize)?;
        let mut plan = Game::bot_plan(data, &self.tables, wf, p, b)?;
        Some(g.bot_round(data, &mut plan, options))
    }

    fn bot_window(
        &self,
        g: &mut Game,
        data: &Data,
        b: usize,
        list: &[u32],
        p: PlayerId,
        options: &[Choice],
    ) -> Res<Option<usize>> {
        g.bot_window(&self.tables, data, b, list, p, options)
    }

    fn bot_rules(&self, g: &mut Game, b: usize, req: &Request) -> Res<Picks> {
        g.bot_rules(&self.tables, b, req)
    }

    fn legal_moves(
        &self,
        g: &mut Game,
        data: &Data,
        w: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        for &m in &data.windows[w as usize].moves {
            self.move_options(g, data, m, p, out)?;
        }
        Ok(())
    }

    #[inline]
    fn decides(&self, g: &Game, t: u32, this: Option<ObjId>, me: PlayerId) -> Option<bool> {
        self.tables.conditions[t as usize]
            .as_ref()?
            .decide(g, this, me)
    }

    fn compile_all(&self, data: &Data) {
        for code in data.codes() {
            self.code(data, code);
        }
        for m in 0..data.moves.len() {
            self.filter(data, m as u16);
        }
    }
}
