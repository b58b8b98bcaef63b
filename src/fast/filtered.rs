//! A move's pick that is one `list where cond` (most picks): its items
//! listed straight into the window's options. Run as a pick runs (its
//! condition first, then a frame of its own at the pick's span, a step
//! charged), minus the list `where` would make, share and drop.

use super::Fast;
use super::compile::{self, Filter, Lead};
use crate::data::Data;
use crate::engine::exec::{Charge, Enter};
use crate::engine::request::Choice;
use crate::engine::{Game, Res};
use crate::lang::ir::Code;
use crate::value::PlayerId;

/// A move's pick as one filter, and the frame slots it needs; None for a
/// pick of any other shape (by move, in [`Fast`]).
pub(super) type FilterPick = Option<(Filter, usize)>;

impl Fast {
    /// Move `m`'s pick as a filter and its frame size, compiled the first
    /// time; None for a move whose pick is not one filter.
    #[inline]
    pub(super) fn filter(&self, data: &Data, m: u16) -> Option<&(Filter, usize)> {
        let c = self.filters.get(m as usize)?;
        c.get_or_init(|| {
            let pick = data.moves[m as usize].pick.as_ref()?;
            compile::filter_pick(data, pick)
        })
        .as_ref()
    }
}

impl Game {
    /// The options of move `m`'s `pick`, the filter `fl` (frame size `n`),
    /// as [`Game::pick_options`] lists them.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn filtered_options(
        &mut self,
        data: &Data,
        fl: &Filter,
        n: usize,
        pick: &Code,
        m: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        let lead = fl.lead(self, p);
        let Lead::Past(skip) = lead else {
            // No card can pass: charged as the frame and the walk are (a
            // step and a level at the pick's span, then what reading the
            // cards charges), neither made; at once where none can fail.
            if let Some(steps) = lead.steps(self)
                && self.budget.room(1 + steps)
            {
                return self.charge_as_frame(pick.span, steps);
            }
            self.enter(pick.span)?;
            let r = lead.charge(self, data, p, m, pick.span);
            self.leave();
            return r;
        };
        let e = Enter {
            data,
            this: None,
            me: p,
            span: pick.span,
            move_name: Some(m),
        };
        self.framed(
            Charge::Step,
            e,
            n,
            |_| {},
            |g, f| {
                fl.run_past(g, f, skip, |v, _| {
                    out.push(Choice {
                        value: v.clone(),
                        mv: Some(m),
                    })
                })
            },
        )
    }
}
