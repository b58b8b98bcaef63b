//! Blind windows: a window of one player whose one move has a native pick
//! and whose seat is no data bot runs its rounds in one loop, as the
//! kernel's listed rounds run them (`Game::window_rounds`), with the pick's
//! zone read once. An agent that picks without reading
//! ([`crate::engine::agent::Agent::blind`]: first, random) is told how many
//! options there are and gets the card it picks: no options list, no
//! request. Any other agent gets the listed options and its request as ever.

use super::Fast;
use super::compile::Body;
use crate::data::Data;
use crate::engine::decide::Act;
use crate::engine::request::Choice;
use crate::engine::{Game, Res};
use crate::value::{ObjId, PlayerId, Value};

/// A pick's options' cards, inline for a hand or a row of piles.
type Cards = smallvec::SmallVec<[ObjId; 32]>;

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
                if let Some(cond) = &mv.cond {
                    let holds = match mf.cond_cmp {
                        // A number of the player's against another, in place
                        // (a quick window is never too deep).
                        Some((a, op, b)) => {
                            self.tick(cond.span)?;
                            op.holds(self.plain(a, p), self.plain(b, p))
                        }
                        None => {
                            let test = mf.cond_test.as_ref();
                            self.holds(data, cond, test, p, &Value::None, Some(m))?
                        }
                    };
                    if !holds {
                        break 'round Act::Nothing;
                    }
                }
                let zone = match inst {
                    Some(i) => {
                        let walk = self.st.listed_inst(i) as u64;
                        self.charge(pick.span, 1 + walk)?;
                        i
                    }
                    None => *inst.insert(self.pick_zone(np, pick.span, p)?),
                };
                let mut cards = Cards::new();
                self.pick_each(data, &np.test, p, m, zone, |c| {
                    cards.push(c);
                    false
                });
                if cards.is_empty() {
                    break 'round Act::Nothing;
                }
                // The agent picks among the options and pass (the last).
                let n = cards.len() + 1;
                match self.agents.get_mut(p as usize).and_then(|a| a.blind(n)) {
                    Some(i) => {
                        self.record_one(p, i);
                        match cards.get(i) {
                            Some(&c) => Act::Move(m, Value::Card(c)),
                            None => Act::Pass,
                        }
                    }
                    None => {
                        options.clear();
                        options.extend(cards.iter().map(|&c| Choice {
                            value: Value::Card(c),
                            mv: Some(m),
                        }));
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
                    let code = &data.moves[m as usize].body;
                    match (tier.body(data, code), &it) {
                        // A straight body on `it`, run in place where nothing
                        // sees it, as quick windows run it: the move's step,
                        // then the body one level down.
                        ((Body::Straight(s, _), n), &Value::Card(c))
                            if code.slots > 0
                                && n > 0
                                && s.slot == 0
                                && self.budget.room(s.cost(self, c, None) + 1)
                                && s.still(self, 1) =>
                        {
                            self.tick(code.span)?;
                            s.run(self, data, p, (c, None), 1, s.cost(self, c, None))?;
                        }
                        _ => {
                            self.exec_move(data, code, p, it, m)?;
                        }
                    }
                    self.resolve_pending()?;
                    self.check_end_always(data)?;
                }
            }
        }
    }
}
