//! The work budget of a turn: the steps taken and how deep code nests. Both
//! tiers charge it here and only here, so the limits (and anything that will
//! meter work) have one home. A step is an effect run, a loop round, a phase,
//! a window action or a check point, an item of a list walked or copied,
//! [`TEXT_BYTES_PER_STEP`] bytes of a string made, an operation of a script;
//! see [`MAX_STEPS`] and [`MAX_DEPTH`].

use super::{Game, MAX_DEPTH, MAX_STEPS, Res};
use crate::lang::ir::Span;
use crate::limits::TEXT_BYTES_PER_STEP;
use crate::value::Value;

/// Steps taken in the current turn (or the setup), and the nesting depth.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    steps: u64,
    depth: u32,
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
        self.steps + n <= MAX_STEPS
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

    /// A new turn: no steps taken.
    pub(crate) fn new_turn(&mut self) {
        self.steps = 0;
    }

    /// A new game.
    pub(crate) fn reset(&mut self) {
        *self = Budget::default();
    }
}

impl Game {
    /// The steps the current turn (or the setup) has taken so far.
    pub fn steps(&self) -> u64 {
        self.budget.steps
    }

    /// Counts one step of work; fails once the turn has taken [`MAX_STEPS`].
    #[inline(always)]
    pub(crate) fn tick(&mut self, span: Span) -> Res<()> {
        self.budget.steps += 1;
        if self.budget.steps > MAX_STEPS {
            return self.too_many_steps(span);
        }
        Ok(())
    }

    /// `n` steps of one span at once, failing at the step [`Game::tick`]
    /// would.
    #[inline(always)]
    pub(crate) fn charge(&mut self, span: Span, n: u64) -> Res<()> {
        let left = MAX_STEPS.saturating_sub(self.budget.steps);
        if n > left {
            self.budget.steps += left;
            return self.tick(span);
        }
        self.budget.steps += n;
        Ok(())
    }

    /// A list's items walked by code (`where`, `sum`, `any`, `contains`):
    /// one step each, charged before the walk, so a big list costs what
    /// walking it costs. Zones and other values are not charged here.
    #[inline(always)]
    pub(crate) fn visit(&mut self, v: &Value, span: Span) -> Res<()> {
        match v {
            Value::List(l) => self.charge(span, l.len() as u64),
            _ => Ok(()),
        }
    }

    /// A string of `len` bytes made by `+`: a step per
    /// [`TEXT_BYTES_PER_STEP`], so big strings cost what making them costs.
    #[inline(always)]
    pub(crate) fn charge_text(&mut self, len: usize, span: Span) -> Res<()> {
        self.charge(span, (len / TEXT_BYTES_PER_STEP) as u64)
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
