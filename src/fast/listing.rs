//! A window's options, move by move: a move's condition, then its pick,
//! each on the cheapest path the tier has for its shape (decided in place,
//! a compiled condition in its frame, a pick listed straight from its
//! filter), else run as the kernel runs them ([`Game::move_options`]).

use super::Fast;
use super::compile::Body;
use crate::data::Data;
use crate::engine::decide::MAX_DEPTH;
use crate::engine::exec::{Charge, Enter};
use crate::engine::request::Choice;
use crate::engine::{Game, Res};
use crate::value::{PlayerId, Value};

impl Fast {
    /// The options of move `m` for player `p`, as [`Game::move_options`]
    /// lists them.
    #[inline(always)]
    pub(super) fn move_options(
        &self,
        g: &mut Game,
        data: &Data,
        m: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        let mv = &data.moves[m as usize];
        let mf = &self.tables.moves[m as usize];
        if mv.cond.is_some() && !self.move_holds(g, data, m, p)? {
            return Ok(());
        }
        let Some(pick) = &mv.pick else {
            out.push(Choice {
                value: Value::None,
                mv: Some(m),
            });
            return Ok(());
        };
        match &mf.pick {
            Some(np) if g.budget.depth() < MAX_DEPTH => g.pick_native(data, np, pick, p, m, out),
            _ => match self.filter(data, m) {
                Some((fl, n)) => g.filtered_options(data, fl, *n, pick, m, p, out),
                None => g.pick_options(data, m, p, out),
            },
        }
    }

    /// Whether move `m`'s condition holds for player `p`, as
    /// [`Game::move_allowed`] finds: decided in place where recognised, a
    /// condition compiled to a truth run for it in the frame the kernel
    /// makes (no value made, no lookup through the door).
    #[inline(never)]
    fn move_holds(&self, g: &mut Game, data: &Data, m: u16, p: PlayerId) -> Res<bool> {
        let Some(cond) = &data.moves[m as usize].cond else {
            return Ok(true);
        };
        let mf = &self.tables.moves[m as usize];
        let test = mf.cond_test.as_ref();
        if test.is_some() {
            return g.holds(data, cond, test, p, &Value::None, Some(m));
        }
        // Decided from the game, charged as its frame (else run).
        if let Some(lead) = &mf.cond_lead
            && let Some((holds, steps)) = lead.check.decide(g, p)
            && (lead.whole || !holds)
            && g.budget.room(1 + steps)
        {
            return g.charge_as_frame(cond.span, steps).map(|()| holds);
        }
        self.move_runs(g, data, m, p)
    }

    /// [`Fast::move_holds`] of a condition not decided from the game: run
    /// (out of line: the frame's code stays off the decided path).
    #[inline(never)]
    fn move_runs(&self, g: &mut Game, data: &Data, m: u16, p: PlayerId) -> Res<bool> {
        let Some(cond) = &data.moves[m as usize].cond else {
            return Ok(true);
        };
        let Some((Body::Cond(c), n)) = self.get(data, cond) else {
            return g.move_allowed(data, m, p);
        };
        let e = Enter {
            data,
            this: None,
            me: p,
            span: cond.span,
            move_name: Some(m),
        };
        g.framed(Charge::Step, e, *n, |_| {}, |g, f| c(g, f))
    }
}
