//! The work budget of a turn and of a game: the steps taken and how deep
//! code nests. Both tiers charge it here and only here, so the limits (and
//! anything that will meter work) have one home. A step is an effect run, a loop round, a phase,
//! a window action or a check point, an item of a list walked or copied,
//! [`TEXT_BYTES_PER_STEP`] bytes of a string made, a card a move of one card
//! passes over past [`FREE_PASSED`], an operation of a script;
//! see [`MAX_STEPS`], [`MAX_GAME_STEPS`] and [`MAX_DEPTH`]. The bytes the game
//! holds are checked at steps too ([`MEMORY_CHECK_STEPS`]), against
//! [`crate::limits::MAX_GAME_BYTES`].

use super::{Game, MAX_DEPTH, MAX_STEPS, Res};
use crate::lang::ir::Span;
use crate::limits::{FREE_PASSED, MAX_GAME_STEPS, MEMORY_CHECK_STEPS, TEXT_BYTES_PER_STEP};
use crate::memory::{Held, max_game_bytes};
use crate::value::Value;

/// Steps taken in the current turn (or the setup) and before it, and the
/// nesting depth.
#[derive(Debug)]
pub(crate) struct Budget {
    steps: u64,
    /// The next step that needs a look: the turn's limit or the next memory
    /// check, whichever is first, so one comparison checks all.
    limit: u64,
    /// The steps this turn may take: [`MAX_STEPS`], or what is left of
    /// [`MAX_GAME_STEPS`] if less.
    turn_limit: u64,
    /// Steps of the setup and the turns before this one.
    before: u64,
    depth: u32,
    /// The bytes the game holds.
    held: Held,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            steps: 0,
            limit: MAX_STEPS.min(max_game_steps()).min(MEMORY_CHECK_STEPS),
            turn_limit: MAX_STEPS.min(max_game_steps()),
            before: 0,
            depth: 0,
            held: Held::default(),
        }
    }
}

/// The steps one game may take: [`MAX_GAME_STEPS`], or fewer if
/// `FUDA_MAX_GAME_STEPS` says so (tests prove that runaway rules stop with
/// a small budget rather than spend 20M unoptimised steps on it).
pub fn max_game_steps() -> u64 {
    static MAX: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        (std::env::var("FUDA_MAX_GAME_STEPS").ok())
            .and_then(|v| v.trim().parse().ok())
            .map_or(MAX_GAME_STEPS, |n: u64| n.min(MAX_GAME_STEPS))
    })
}

impl Budget {
    #[inline(always)]
    pub(crate) fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether `n` more steps fit in the turn: a fast path that takes
    /// several at once checks first, then [`Budget::spend`]s them.
    #[inline(always)]
    pub(crate) fn room(&self, n: u64) -> bool {
        self.steps + n <= self.limit
    }

    /// Takes `n` steps known to fit ([`Budget::room`]).
    #[inline(always)]
    pub(crate) fn spend(&mut self, n: u64) {
        self.steps += n;
    }

    /// `n` levels deeper, known to stay within [`MAX_DEPTH`].
    #[inline(always)]
    pub(crate) fn descend(&mut self, n: u32) {
        self.depth += n;
    }

    /// Leaves `n` levels.
    #[inline(always)]
    pub(crate) fn ascend(&mut self, n: u32) {
        self.depth -= n;
    }

    /// A new turn: no steps taken, those before counted against the game's.
    pub(crate) fn new_turn(&mut self) {
        self.resume_at(self.before + self.steps);
    }

    /// A turn starting after `before` steps of the game.
    pub(crate) fn resume_at(&mut self, before: u64) {
        self.before = before;
        self.steps = 0;
        self.turn_limit = MAX_STEPS.min(max_game_steps().saturating_sub(before));
        self.limit = self.turn_limit.min(MEMORY_CHECK_STEPS);
    }

    /// The steps the game has taken so far.
    pub(crate) fn total(&self) -> u64 {
        self.before + self.steps
    }

    /// A new game.
    pub(crate) fn reset(&mut self) {
        *self = Budget::default();
    }
}

/// The steps [`Game::charge_passed`] charges for `passed` cards.
#[inline(always)]
pub(crate) fn passed_steps(passed: usize) -> u64 {
    passed.saturating_sub(FREE_PASSED) as u64
}

impl Game {
    /// The steps the current turn (or the setup) has taken so far.
    pub fn steps(&self) -> u64 {
        self.budget.steps
    }

    /// The steps the game has taken so far, setup included.
    pub fn game_steps(&self) -> u64 {
        self.budget.total()
    }

    /// Counts one step of work; fails once the turn has taken [`MAX_STEPS`]
    /// or the game [`MAX_GAME_STEPS`].
    #[inline(always)]
    pub(crate) fn tick(&mut self, span: Span) -> Res<()> {
        self.budget.steps += 1;
        if self.budget.steps > self.budget.limit {
            return self.past_limit(span);
        }
        Ok(())
    }

    /// `n` steps of one span at once, failing at the step [`Game::tick`]
    /// would.
    #[inline(always)]
    pub(crate) fn charge(&mut self, span: Span, n: u64) -> Res<()> {
        let left = self.budget.limit.saturating_sub(self.budget.steps);
        if n > left {
            return self.charge_past(span, n);
        }
        self.budget.steps += n;
        Ok(())
    }

    #[cold]
    fn charge_past(&mut self, span: Span, n: u64) -> Res<()> {
        let b = &mut self.budget;
        if n <= b.turn_limit.saturating_sub(b.steps) {
            b.steps += n;
            return self.checkpoint(span);
        }
        (b.steps, b.limit) = (b.turn_limit, b.turn_limit);
        self.tick(span)
    }

    /// Past [`Budget::limit`]: a memory check, or the turn is over.
    #[cold]
    fn past_limit(&mut self, span: Span) -> Res<()> {
        if self.budget.steps <= self.budget.turn_limit {
            return self.checkpoint(span);
        }
        self.too_many_steps(span)
    }

    /// A memory check; the next [`MEMORY_CHECK_STEPS`] later.
    fn checkpoint(&mut self, span: Span) -> Res<()> {
        let b = &mut self.budget;
        b.limit = b.turn_limit.min(b.steps + MEMORY_CHECK_STEPS);
        self.check_memory(span)
    }

    /// Fails once the game holds more than its bytes. Made at checkpoints,
    /// and after work that makes much for few steps (a zone's cards copied).
    pub(crate) fn check_memory(&mut self, span: Span) -> Res<()> {
        if self.budget.held.update() > max_game_bytes() as isize {
            return self.too_much_memory(span);
        }
        Ok(())
    }

    /// The thread's allocation count at which the game would hold its
    /// limit (a script call checks it as it runs).
    pub(crate) fn memory_ceiling(&mut self) -> isize {
        self.budget.held.ceiling(max_game_bytes())
    }

    #[cold]
    pub(crate) fn too_much_memory<T>(&self, span: Span) -> Res<T> {
        self.err(
            span,
            format!(
                "the game holds more than {} MiB, its memory budget (lists, strings or script values built without end?)",
                max_game_bytes() >> 20
            ),
        )
    }

    /// A list's items or a zone's cards walked by code (`where`, `sum`,
    /// `any`, `contains`): one step each (a zone's: the items it lists, see
    /// [`State::listed`]), charged before the walk, so a big list or zone
    /// costs what walking it costs.
    #[inline(always)]
    pub(crate) fn visit(&mut self, v: &Value, span: Span) -> Res<()> {
        match v {
            Value::List(l) => self.charge(span, l.len() as u64),
            Value::Zone(z) => self.charge(span, self.st.listed(*z) as u64),
            _ => Ok(()),
        }
    }

    /// The cards a move of one card passed over, searched or shifted (taken
    /// from deep in its zone or pile, put at the bottom, see
    /// [`State::relocate`](super::state::State::relocate)): a step each past
    /// [`FREE_PASSED`], charged after the move at its span, so a take deep
    /// in a huge zone costs what it costs. Both tiers charge here, or count
    /// [`passed_steps`] before a move run in place.
    #[inline(always)]
    pub(crate) fn charge_passed(&mut self, span: Span, passed: usize) -> Res<()> {
        if passed > FREE_PASSED {
            return self.charge(span, passed_steps(passed));
        }
        Ok(())
    }

    /// A string of `len` bytes made by `+`: a step per
    /// [`TEXT_BYTES_PER_STEP`], so big strings cost what making them costs.
    #[inline(always)]
    pub(crate) fn charge_text(&mut self, len: usize, span: Span) -> Res<()> {
        self.charge(span, (len / TEXT_BYTES_PER_STEP) as u64)
    }

    /// What a frame at `span` whose code walks lists of `steps` steps
    /// charges (a step and a level, then those steps), taken at once for
    /// code decided without running it, where [`Budget::room`] says they
    /// fit (else the caller runs the code, to stop or check where the
    /// reference does).
    #[inline(always)]
    pub(crate) fn charge_as_frame(&mut self, span: Span, steps: u64) -> Res<()> {
        // The frame's level: entered and left, or failed as entering it fails.
        if self.budget.depth() >= MAX_DEPTH {
            return self.enter(span);
        }
        self.budget.spend(1 + steps);
        Ok(())
    }

    /// Counts a piece of code run, one level deeper: the step budget and the
    /// nesting limit. The caller leaves the level ([`Game::leave`]).
    #[inline]
    pub(crate) fn enter(&mut self, span: Span) -> Res<()> {
        self.tick(span)?;
        if self.budget.depth >= MAX_DEPTH {
            return self.err(
                span,
                format!(
                    "effects nested more than {MAX_DEPTH} deep (a verb or trigger that calls itself?)"
                ),
            );
        }
        self.budget.depth += 1;
        Ok(())
    }

    /// Leaves the level [`Game::enter`] entered.
    #[inline(always)]
    pub(crate) fn leave(&mut self) {
        self.budget.depth -= 1;
    }

    #[cold]
    fn too_many_steps(&self, span: Span) -> Res<()> {
        if self.budget.turn_limit < MAX_STEPS {
            return self.err(
                span,
                format!(
                    "the game ran more than {} steps in all, the game's budget, not a turn's (turn {} went past it; a turn may take {MAX_STEPS}): turns that each run close to the turn's limit?",
                    max_game_steps(),
                    self.st.turn
                ),
            );
        }
        self.err(
            span,
            format!(
                "{} ran more than {MAX_STEPS} steps (an endless loop, a phase repeated forever, abilities that trigger each other?)",
                if self.st.turn == 0 {
                    "the setup".to_string()
                } else {
                    format!("turn {}", self.st.turn)
                }
            ),
        )
    }
}
