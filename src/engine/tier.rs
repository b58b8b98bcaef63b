//! The kernel's one door to a speed tier (`crate::fast`): the few places
//! where the kernel lets a tier run something its own way. A game with no
//! tier (`--reference`) runs everything as the reference evaluator and the
//! general paths define it; a tier may only do the same, faster.

use super::decide::Act;
use super::frame::Frame;
use super::request::{Choice, Picks, Request};
use super::{Game, Res};
use crate::data::Data;
use crate::lang::ir::Code;
use crate::value::{ObjId, PlayerId, Value};

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

    /// By phase, the windows it opens when that is all its code does: the
    /// kernel opens them itself, each through [`Tier::window`]; None: it
    /// runs the phase's code as a hook.
    fn phase_windows(&self) -> &[Option<Box<[u16]>>];

    /// The rules' end check, as [`Game::end_check`] runs it.
    fn end_check(&self, g: &mut Game, data: &Data) -> Res<bool>;

    /// Window `w` opened ([`Game::window_in`]): its rounds run this tier's
    /// way (one player's, a data bot deciding before any move is listed);
    /// None: the kernel lists the moves every round.
    fn window(&self, g: &mut Game, data: &Data, w: u16) -> Option<Res<()>>;

    /// A round of window `w` in which player `p`, seated as data bot `b`,
    /// acts, decided before the moves are listed (`options` is the round's
    /// list, empty, to fill if the tier must list after all); None: the
    /// kernel lists the moves and asks [`Game::decide_window`].
    fn bot_round(
        &self,
        g: &mut Game,
        data: &Data,
        w: u16,
        p: PlayerId,
        b: usize,
        options: &mut Vec<Choice>,
    ) -> Option<Res<Act>>;

    /// What data bot `b`'s rules `list` pick of a window's listed options
    /// ([`Game::bot_window`]).
    fn bot_window(
        &self,
        g: &mut Game,
        data: &Data,
        b: usize,
        list: &[u32],
        p: PlayerId,
        options: &[Choice],
    ) -> Res<Option<usize>>;

    /// What data bot `b`'s rules pick of a request ([`Game::bot_rules`]).
    fn bot_rules(&self, g: &mut Game, b: usize, req: &Request) -> Res<Picks>;

    /// The options of window `w`'s moves for player `p`, added to `out`
    /// ([`Game::legal_moves`]: each move's condition, then its pick).
    fn legal_moves(
        &self,
        g: &mut Game,
        data: &Data,
        w: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()>;

    /// Ability `t`'s condition for card `this` and player `me`, decided
    /// from the game without running it, where it would cost only its
    /// frame (a step and a level, which the kernel charges) and could not
    /// fail; None: the kernel runs it.
    fn decides(&self, g: &Game, t: u32, this: Option<ObjId>, me: PlayerId) -> Option<bool>;

    /// Compiles every piece of code now, before threads share the tier.
    fn compile_all(&self, data: &Data);
}
