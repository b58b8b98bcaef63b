//! Blind windows: a window of one player whose one move has a native pick
//! and whose seat is no data bot runs its rounds in one loop, as the
//! kernel's listed rounds run them (`Game::window_rounds`), with the pick's
//! zone read once. An agent that picks without reading
//! ([`crate::engine::agent::Agent::blind`]: first, random) is told how many
//! options there are and the card it picks is found: nothing is listed.
//! Any other agent gets the listed options and its request as ever.

use super::Fast;
use crate::data::Data;
use crate::engine::decide::Act;
use crate::engine::request::Choice;
use crate::engine::{Game, Res};
use crate::value::{ObjId, PlayerId, Value};

impl Game {
    /// The rounds of window `w`, whose one move `m` has a native pick, for
    /// player `p`: a window's options list is lent to them.
    pub(super) fn blind_rounds(
        &mut self,
        tier: &Fast,
        data: &Data,
        w: u16,
        m: u16,
        p: PlayerId,
    ) -> Res<()> {
        let mut options = std::mem::take(&mut self.spare_options);
        let r = self.blind_loop(tier, data, w, m, p, &mut options);
        options.clear();
        self.spare_options = options;
        r
    }

    fn blind_loop(
        &mut self,
        tier: &Fast,
        data: &Data,
        w: u16,
        m: u16,
        p: PlayerId,
        options: &mut Vec<Choice>,
    ) -> Res<()> {
        let (mv, mf) = (&data.moves[m as usize], &tier.tables.moves[m as usize]);
        let (Some(pick), Some(np)) = (&mv.pick, &mf.pick) else {
            unreachable!("a quick window's move has a native pick");
        };
        // The zone and whether it may be seen do not change between rounds:
        // later rounds only count the pick's step.
        let mut inst = None;
        loop {
            self.tick(Default::default())?;
            let act = 'round: {
                if let Some(cond) = &mv.cond
                    && !self.holds(data, cond, mf.cond_test.as_ref(), p, &Value::None, Some(m))?
                {
                    break 'round Act::Nothing;
                }
                let zone = match inst {
                    Some(i) => {
                        self.tick(pick.span)?;
                        i
                    }
                    None => *inst.insert(self.pick_zone(np, pick, p)?),
                };
                let mut n = 0;
                self.pick_each(data, &np.test, p, m, zone, |_| {
                    n += 1;
                    false
                });
                if n == 0 {
                    break 'round Act::Nothing;
                }
                // The agent picks among the options and pass (the last).
                match self.agents.get_mut(p as usize).and_then(|a| a.blind(n + 1)) {
                    Some(i) => {
                        self.record_one(p, i);
                        match self.nth_card(data, np, p, m, zone, i) {
                            Some(c) => Act::Move(m, Value::Card(c)),
                            None => Act::Pass,
                        }
                    }
                    None => {
                        options.clear();
                        self.pick_cards(data, &np.test, p, m, zone, options);
                        let i = self.decide_window(data, p, w, options)?;
                        Act::of(options, i)
                    }
                }
            };
            match act {
                Act::Nothing | Act::Pass => {
                    if self.quick_pass(data, p, matches!(act, Act::Nothing))? {
                        continue;
                    }
                    return Ok(());
                }
                Act::Move(m, it) => {
                    self.exec_move(data, &data.moves[m as usize].body, p, it, m)?;
                    self.resolve_pending()?;
                    self.check_end_always(data)?;
                }
            }
        }
    }

    /// The card of option `i` of a native pick (none: past the options).
    fn nth_card(
        &self,
        data: &Data,
        np: &super::native::Pick,
        p: PlayerId,
        m: u16,
        inst: usize,
        i: usize,
    ) -> Option<ObjId> {
        let (mut k, mut found) = (0, None);
        self.pick_each(data, &np.test, p, m, inst, |c| {
            if k == i {
                found = Some(c);
                return true;
            }
            k += 1;
            false
        });
        found
    }
}
