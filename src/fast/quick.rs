//! Quick windows: a window of one player whose seat is a data bot and
//! whose one move has a recognised pick runs its rounds in one loop, the
//! move's compiled body found once, a straight body run in place.

use super::Fast;
use super::compile::{Body, Straight};
use crate::data::Data;
use crate::data::native::Test;
use crate::engine::decide::{Act, Plan};
use crate::engine::exec::{Charge, Enter};
use crate::engine::{Game, Res};
use crate::value::{PlayerId, Value};

impl Game {
    /// A window of one player whose seat is a data bot and whose one move
    /// has a native pick, opened: its rounds run in one loop, no options
    /// listed (unless a rule weighs them in a way not known natively), the
    /// steps of a round that cannot fail counted at once, and the move's
    /// compiled body and frame found once.
    #[inline(always)]
    pub(super) fn quick_rounds(&mut self, tier: &Fast, data: &Data, pl: &mut Plan) -> Res<()> {
        let (m, p, mv) = (pl.m, pl.p, pl.mv);
        let code = &mv.body;
        let (native, n) = tier.body(data, code);
        let has_it = code.slots > 0 && n > 0;
        // A straight body on `it`, run in place where nothing sees it.
        let straight = match native {
            Body::Straight(s, _) if has_it && s.slot == 0 => Some(s),
            _ => None,
        };
        loop {
            let it = match pl.wb.takes {
                Some(span) => match match straight {
                    Some(s) if self.take_run(data, pl, s)? => None,
                    _ => self.take_round(data, pl, span)?,
                } {
                    Some(c) => Value::Card(c),
                    None => {
                        if self.quick_pass(data, p, true)? {
                            continue;
                        }
                        return Ok(());
                    }
                },
                None => {
                    self.tick(Default::default())?;
                    let act = match self.round_start(data, pl)? {
                        None => Act::Nothing,
                        Some(inst) => match self.fast_round(pl, inst) {
                            Some(act) => act,
                            None => self.round_rules(data, pl, inst)?,
                        },
                    };
                    match act {
                        Act::Move(_, it) => {
                            self.tick(code.span)?;
                            it
                        }
                        act => {
                            if self.quick_pass(data, p, matches!(act, Act::Nothing))? {
                                continue;
                            }
                            return Ok(());
                        }
                    }
                }
            };
            if let (Some(s), Value::Card(c)) = (straight, &it)
                && s.quiet(self, 1)
            {
                s.run(self, data, p, *c, None, 1)?;
                self.resolve_pending()?;
                self.check_end_always(data)?;
                continue;
            }
            self.quick_move(data, native, n, has_it, p, m, it)?;
            self.resolve_pending()?;
            self.check_end_always(data)?;
        }
    }

    /// A quick window's move that does not run in place, as `exec_move`
    /// runs it (its step counted by the round; a quick window is never too
    /// deep): its frame built here, not by every window opened.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn quick_move(
        &mut self,
        data: &Data,
        native: &Body,
        n: usize,
        has_it: bool,
        p: PlayerId,
        m: u16,
        it: Value,
    ) -> Res<()> {
        let code = &data.moves[m as usize].body;
        let e = Enter {
            data,
            this: None,
            me: p,
            span: code.span,
            move_name: Some(m),
        };
        let bind = |s: &mut [Value]| {
            if has_it {
                s[0] = it;
            }
        };
        // A `return` in the body ends it.
        self.framed(Charge::Levels(1), e, n, bind, |g, f| {
            g.run_body(Some(native), code, f).map(drop)
        })
    }

    /// Rounds of [`Game::quick_rounds`] whose bot takes every card
    /// (`Plan::takes`) and whose move runs in place (`s`), as they would run,
    /// in one loop while only those moves happen (no effect run, nothing
    /// waiting, logged or checked after a move, the step limit far): the
    /// checks made once, an ordered zone scanned once top down (the cards
    /// above one taken failed the test, and stay). Stops before a round it
    /// cannot run so (false); true after a round finding no card.
    fn take_run(&mut self, data: &Data, pl: &mut Plan, s: &Straight) -> Res<bool> {
        let (p, mv, np) = (pl.p, pl.mv, pl.np);
        if (mv.cond.is_some() && mv.cond_cmp.is_none())
            || data.end_always
            || !s.still(self, 1)
            || s.moves_into(np.zone)
        {
            return Ok(false);
        }
        let need = 5 + s.calls();
        let bound = s.bind(self, p);
        // Below this index the zone's cards are yet to be scanned.
        let mut hi = usize::MAX;
        loop {
            if !self.budget.room(need) {
                return Ok(false);
            }
            // The round's step, the condition's, the pick's.
            let mut k = 2;
            if let Some((a, op, b)) = mv.cond_cmp {
                if !op.holds(self.plain(a, p), self.plain(b, p)) {
                    return Ok(false);
                }
                k = 3;
            }
            let (inst, add) = match pl.inst {
                Some(inst) => (inst, k),
                None => {
                    self.budget.spend(k - 1);
                    (*pl.inst.insert(self.pick_zone(np, pl.pick, p)?), 0)
                }
            };
            let zi = &self.st.zones[inst];
            let found = match np.test {
                Test::Is { tag, negate } if zi.piles.is_empty() => {
                    let bit = crate::value::bit(tag);
                    let cards = &zi.cards[..hi.min(zi.cards.len())];
                    let j = cards
                        .iter()
                        .rposition(|&c| (self.st.tags(c) & bit != 0) != negate);
                    j.map(|j| {
                        hi = j;
                        (cards[j], Some((inst, j)))
                    })
                }
                _ => self
                    .pick_first(data, &np.test, p, pl.m, inst)
                    .map(|c| (c, None)),
            };
            let Some((c, at)) = found else {
                self.budget.spend(add);
                return Ok(true);
            };
            // The `choose`'s step and the move's.
            self.budget.spend(add + 2);
            self.record_one(p, 0);
            if let (Some(b), Some((from, j))) = (&bound, at)
                && b.play(self, data, c, from, j)
            {
                if self.st.pending.is_empty() {
                    continue;
                }
                self.resolve_pending()?;
                return Ok(false);
            }
            let ran = s.run(self, data, p, c, at, 1)?;
            let busy = !self.st.pending.is_empty();
            self.resolve_pending()?;
            if ran || busy {
                return Ok(false);
            }
        }
    }
}
