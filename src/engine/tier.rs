//! The kernel's one door to a speed tier (`crate::fast`): the few places
//! where the kernel lets a tier run something its own way. A game with no
//! tier (`--reference`) runs everything as the reference evaluator and the
//! general paths define it; a tier may only do the same, faster.

use super::decide::Plan;
use super::frame::Frame;
use super::{Game, Res};
use crate::data::Data;
use crate::lang::ir::Code;
use crate::value::{PlayerId, Value};

/// A piece of code as a tier compiled it.
pub trait Compiled: Send + Sync {
    /// Runs the code in its frame; a `return` is left to the caller.
    fn run(&self, g: &mut Game, f: &mut Frame) -> Res<Value>;
}

/// A speed tier, shared by every game of one [`Data`] (it is made for it).
pub trait Tier: Send + Sync {
    /// `code` as this tier runs it, and the frame slots it needs (its own,
    /// then those of what the tier inlined); None: the reference walks it.
    fn code<'t>(&'t self, data: &Data, code: &Code) -> Option<(&'t dyn Compiled, usize)>;

    /// Rules code (setup, turn and phase code, the score) for player `p`,
    /// as [`Game::exec_hook`] runs it (in [`Game::framed`]).
    fn hook(&self, g: &mut Game, data: &Data, code: &Code, p: PlayerId) -> Res<Value>;

    /// The rules' end check, as [`Game::end_check`] runs it.
    fn end_check(&self, g: &mut Game, data: &Data) -> Res<bool>;

    /// The rounds of a window of one player whose seat is a data bot and
    /// whose one move has a recognised pick ([`Plan`]).
    fn quick_rounds(&self, g: &mut Game, data: &Data, pl: &mut Plan) -> Res<()>;

    /// Compiles every piece of code now, before threads share the tier.
    fn compile_all(&self, data: &Data);
}
