//! Quick windows: a window of one player whose seat is a data bot and
//! whose one move has a recognised pick runs its rounds in one loop, the
//! move's compiled body found once, a straight body run in place.

use super::compile::{Body, Straight};
use super::native::{Choose, FastChoose, Test};
use super::tables::{BotFast, QuickMove, Tables, WindowFast};
use crate::data::{Data, MoveDecl};
use crate::engine::decide::{Act, MAX_DEPTH};
use crate::engine::exec::{Charge, Enter};
use crate::engine::log::Entry;
use crate::engine::request::Choice;
use crate::engine::state::{State, ZoneInst};
use crate::engine::{Game, Res};
use crate::lang::ir::{Code, Span};
use crate::value::{ObjId, PlayerId, Value};

/// How [`Game::take_run`] stopped.
enum Taken {
    /// Before a round it cannot run in place: the round not begun.
    Stop,
    /// After a round finding no card.
    Empty,
    /// A card picked, to be moved from deep in its zone by a body that
    /// counts the cards passed over first ([`Straight::passed`]): its
    /// round's steps (up to the move's) counted.
    Deep(ObjId),
}

impl Game {
    /// A window of one player whose seat is a data bot and whose one move
    /// has a native pick, opened: its rounds run in one loop, no options
    /// listed (unless a rule weighs them in a way not known natively), the
    /// steps of a round that cannot fail counted at once, and the move's
    /// compiled body and frame found once.
    #[inline(never)]
    pub(super) fn quick_rounds(&mut self, data: &Data, pl: &mut Plan) -> Res<()> {
        let (m, p, mv) = (pl.q.m, pl.p, pl.mv);
        let code = &mv.body;
        let (native, n) = (&pl.q.body.0, pl.q.body.1);
        let has_it = pl.q.has_it;
        // A straight body on `it`, run in place where nothing sees it.
        let straight = match native {
            Body::Straight(s, _) if pl.q.straight => Some(s),
            _ => None,
        };
        loop {
            let it = match pl.bf.takes {
                Some(span) => match match straight {
                    Some(s) => match self.take_run(data, pl, s)? {
                        Taken::Empty => None,
                        Taken::Deep(c) => Some(c),
                        Taken::Stop => self.take_round(data, pl, span)?,
                    },
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
                    // Every arm takes what it holds: no drop of `act` left.
                    let nothing = match act {
                        Act::Move(_, it) => {
                            self.tick(code.span)?;
                            Ok(it)
                        }
                        Act::Nothing => Err(true),
                        Act::Pass => Err(false),
                    };
                    match nothing {
                        Ok(it) => it,
                        Err(nothing) => {
                            if self.quick_pass(data, p, nothing)? {
                                continue;
                            }
                            return Ok(());
                        }
                    }
                }
            };
            if let (Some(s), Value::Card(c)) = (straight, &it)
                && let Some(steps) = s.quiet(self, 1, *c)
            {
                s.run(self, data, p, (*c, None), 1, steps)?;
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
    /// cannot run so; [`Taken::Deep`] for a card taken from deep in its
    /// zone by a body with a call after its move, its round's steps
    /// counted, left to run as any picked card runs (the cards its move
    /// passes over counted there, before the run).
    fn take_run(&mut self, data: &Data, pl: &mut Plan, s: &Straight) -> Res<Taken> {
        let (p, mv, q) = (pl.p, pl.mv, pl.q);
        let np = &q.np;
        if (mv.cond.is_some() && q.cond_cmp.is_none())
            || data.end_always
            || !s.still(self, 1)
            || q.into_pick
        {
            return Ok(Taken::Stop);
        }
        let need = 5 + s.calls();
        let bound = s.bind(self, data, p);
        // Below this index the zone's cards are yet to be scanned.
        let mut hi = usize::MAX;
        loop {
            // The pick's walk of its zone, once it is known.
            let walk = pl.inst.map_or(0, |i| self.st.listed_inst(i) as u64);
            if !self.budget.room(need + walk) {
                return Ok(Taken::Stop);
            }
            // The round's step, the condition's, the pick's.
            let mut k = 2;
            if let Some((a, op, b)) = q.cond_cmp {
                if !op.holds(self.plain(a, p), self.plain(b, p)) {
                    return Ok(Taken::Stop);
                }
                k = 3;
            }
            let (inst, add) = match pl.inst {
                Some(inst) => (inst, k + walk),
                None => {
                    self.budget.spend(k - 1);
                    (*pl.inst.insert(self.pick_zone(np, q.pick, p)?), 0)
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
                    .pick_first(data, &np.test, p, q.m, inst)
                    .map(|c| (c, None)),
            };
            let Some((c, at)) = found else {
                self.budget.spend(add);
                return Ok(Taken::Empty);
            };
            // The `choose`'s step and the move's.
            self.budget.spend(add + 2);
            self.record_one(p, 0);
            if s.passed(self, c, at) > 0 {
                return Ok(Taken::Deep(c));
            }
            if let (Some(b), Some((from, j))) = (&bound, at)
                && b.play(self, data, c, from, j)?
            {
                if self.st.pending.is_empty() {
                    continue;
                }
                self.resolve_pending()?;
                return Ok(Taken::Stop);
            }
            let ran = s.run(self, data, p, (c, at), 1, s.calls())?;
            let busy = !self.st.pending.is_empty();
            self.resolve_pending()?;
            if ran || busy {
                return Ok(Taken::Stop);
            }
        }
    }

    /// What the rounds of one bot in one quick window share: found once
    /// (the window is never opened too deep for the bot to take in place).
    /// None where the window is not quick or the bot has no rules there.
    #[inline(always)]
    pub(super) fn bot_plan<'d>(
        data: &'d Data,
        tables: &'d Tables,
        wf: &'d WindowFast,
        p: PlayerId,
        b: usize,
    ) -> Option<Plan<'d>> {
        let q = wf.quick.as_ref()?;
        let bf = wf.bots.get(b)?;
        Some(Plan {
            p,
            q,
            mv: &data.moves[q.m as usize],
            bf,
            tables,
            inst: None,
        })
    }

    /// A round of a window whose one move, `m`, has a native pick, decided by a
    /// data bot with the window's rules listed. A rule that applies and
    /// chooses by a native test finds its card without a list; otherwise
    /// every option is listed before any rule weighs one (a rule's condition
    /// running code first).
    pub(super) fn bot_round(
        &mut self,
        data: &Data,
        pl: &mut Plan,
        options: &mut Vec<Choice>,
    ) -> Res<Act> {
        let Some((first, inst)) = self.round_first(data, pl)? else {
            return Ok(Act::Nothing);
        };
        // The first rule takes the first card, counting the step its
        // `choose` would.
        if let Some(span) = pl.bf.takes {
            self.tick(span)?;
            self.record_one(pl.p, 0);
            return Ok(Act::Move(pl.q.m, Value::Card(first)));
        }
        self.bot_pick(data, pl, first, inst, options)
    }

    /// [`Game::bot_round`] once the move's pick lists `first`: what the
    /// bot's rules pick.
    #[inline(never)]
    pub(super) fn bot_pick(
        &mut self,
        data: &Data,
        pl: &Plan,
        first: ObjId,
        inst: usize,
        options: &mut Vec<Choice>,
    ) -> Res<Act> {
        let (m, p) = (pl.q.m, pl.p);
        let saved = self.viewer.replace(p);
        let r = self.bot_quick(data, pl, inst, options);
        self.viewer = saved;
        // No rule picked: the first option (the decision wants one).
        let (i, act) = match r? {
            Quick::Listed(i) => {
                let i = i.unwrap_or(0);
                (i, Act::of(options, i))
            }
            Quick::Card(i, c) => (i, Act::Move(m, Value::Card(c))),
            Quick::Pass(n) => (n, Act::Pass),
            Quick::Nothing => (0, Act::Move(m, Value::Card(first))),
        };
        self.record_one(p, i);
        Ok(act)
    }

    /// How a round of a quick window starts: the move's condition, the
    /// pick's step, its first card and the zone instance it reads; None if
    /// the move cannot be made.
    #[inline(always)]
    pub(super) fn round_first(
        &mut self,
        data: &Data,
        pl: &mut Plan,
    ) -> Res<Option<(ObjId, usize)>> {
        let Some(inst) = self.round_start(data, pl)? else {
            return Ok(None);
        };
        Ok(self
            .pick_first(data, &pl.q.np.test, pl.p, pl.q.m, inst)
            .map(|c| (c, inst)))
    }

    /// A quick window's move condition that is not a plain comparison
    /// (out of line: the rounds' loop keeps only the call).
    #[inline(never)]
    fn cond_rest(&mut self, data: &Data, cond: &Code, q: &QuickMove, p: PlayerId) -> Res<bool> {
        self.holds(data, cond, q.cond_test.as_ref(), p, &Value::None, Some(q.m))
    }

    /// [`Game::round_first`] up to the zone instance the pick reads.
    #[inline(always)]
    pub(super) fn round_start(&mut self, data: &Data, pl: &mut Plan) -> Res<Option<usize>> {
        let (p, mv, q) = (pl.p, pl.mv, pl.q);
        if let Some(cond) = &mv.cond {
            let holds = match q.cond_cmp {
                // A quick window is never too deep: decided in place.
                Some((a, op, b)) => {
                    self.tick(cond.span)?;
                    op.holds(self.plain(a, p), self.plain(b, p))
                }
                None => self.cond_rest(data, cond, q, p)?,
            };
            if !holds {
                return Ok(None);
            }
        }
        // The zone and whether it may be seen do not change between rounds:
        // later rounds only count the pick's step.
        let inst = match pl.inst {
            Some(inst) => {
                let walk = self.st.listed_inst(inst) as u64;
                self.charge(q.pick, 1 + walk)?;
                inst
            }
            None => *pl.inst.insert(self.pick_zone(&q.np, q.pick, p)?),
        };
        Ok(Some(inst))
    }

    /// A round of [`Game::quick_rounds`] as its bot's rules decide it once
    /// the pick's zone is read.
    pub(super) fn round_rules(&mut self, data: &Data, pl: &Plan, inst: usize) -> Res<Act> {
        let Some(first) = self.pick_first(data, &pl.q.np.test, pl.p, pl.q.m, inst) else {
            return Ok(Act::Nothing);
        };
        let mut options = std::mem::take(&mut self.spare_options);
        let r = self.bot_pick(data, pl, first, inst, &mut options);
        options.clear();
        self.spare_options = options;
        r
    }

    /// A round decided by rules resolved at load ([`super::native::FastRules`]): each
    /// condition read in place, the card chosen found in one scan of the
    /// pick's row of piles, the steps and the decision counted at once.
    /// None, with nothing done, where a rule finds no card or a step could
    /// fail: [`Game::bot_pick`] then decides as ever.
    #[inline(always)]
    pub(super) fn fast_round(&mut self, pl: &Plan, inst: usize) -> Option<Act> {
        let (fast, p) = (pl.bf.fast.as_ref()?, pl.p);
        let zi = &self.st.zones[inst];
        if zi.piles.is_empty() || !self.st.mods.is_empty() || self.budget.depth() >= MAX_DEPTH {
            return None;
        }
        let (lo, hi) = super::native::range(fast.op, self.st.counter(p, fast.counter))?;
        let prop = self.data.table.column(fast.prop);
        // The conditions' steps, then the options weighed.
        let mut steps = 0;
        for r in &fast.rules {
            if let Some((k, a, b)) = r.cond {
                steps += 1;
                let x = self.st.counter(p, k);
                if x < a || x > b {
                    continue;
                }
            }
            let (i, act) = match (r.choose, row_find(&self.st, zi, prop, lo, hi, r.choose)) {
                (FastChoose::Pass, Err(n)) if n > 0 => (n, Act::Pass),
                (FastChoose::Pass, _) | (_, Err(_)) => return None,
                (_, Ok((i, c))) => (i, Act::Move(pl.q.m, Value::Card(c))),
            };
            steps += i as u64 + 1;
            if !self.budget.room(steps) {
                return None;
            }
            self.budget.spend(steps);
            self.record_one(p, i);
            return Some(act);
        }
        None
    }

    /// A round of a quick window whose bot takes every card its move's pick
    /// lists (`Plan::takes`): the card taken, its decision recorded and the
    /// steps up to the move's counted (the round's, the condition's, the
    /// pick's, the `choose`'s, the move's), or None. Away from the step
    /// limit, a condition decided in place and a zone read before: the
    /// steps are counted at once.
    #[inline(always)]
    pub(super) fn take_round(
        &mut self,
        data: &Data,
        pl: &mut Plan,
        span: Span,
    ) -> Res<Option<ObjId>> {
        let (p, mv, q) = (pl.p, pl.mv, pl.q);
        let (m, np) = (q.m, &q.np);
        if let Some(inst) = pl.inst
            && self.budget.room(5 + self.st.listed_inst(inst) as u64)
            && (mv.cond.is_none() || q.cond_cmp.is_some())
        {
            let walk = self.st.listed_inst(inst) as u64;
            // The round's step, the condition's, the pick's.
            let mut k = 2;
            if let Some((a, op, b)) = q.cond_cmp {
                if !op.holds(self.plain(a, p), self.plain(b, p)) {
                    self.budget.spend(2);
                    return Ok(None);
                }
                k = 3;
            }
            let Some(c) = self.pick_first(data, &np.test, p, m, inst) else {
                self.budget.spend(k + walk);
                return Ok(None);
            };
            self.budget.spend(k + walk + 2);
            self.record_one(p, 0);
            return Ok(Some(c));
        }
        self.tick(Default::default())?;
        let Some((c, _)) = self.round_first(data, pl)? else {
            return Ok(None);
        };
        // The first rule takes the first card, counting the step its
        // `choose` would.
        self.tick(span)?;
        self.record_one(p, 0);
        self.tick(mv.body.span)?;
        Ok(Some(c))
    }

    /// A quick window's bot passes (`nothing`: no move was legal): true when
    /// an effect on the stack resolved and the bot acts again.
    #[inline(always)]
    pub(super) fn quick_pass(&mut self, data: &Data, p: PlayerId, nothing: bool) -> Res<bool> {
        if self.logging {
            self.log_pass(p, nothing);
        }
        if self.st.stack.is_empty() {
            return Ok(false);
        }
        self.resolve_stacked(data)?;
        Ok(true)
    }

    #[cold]
    fn log_pass(&mut self, p: PlayerId, nothing: bool) {
        if nothing {
            self.push(Entry::Text {
                text: format!("{} passes (nothing to do)", crate::engine::log::pname(p)),
            });
        } else {
            self.push(Entry::Pass { player: p });
        }
    }

    /// [`Game::bot_window`] for [`Game::bot_round`]: options are listed only
    /// when a rule weighs them in a way not known natively.
    fn bot_quick(
        &mut self,
        data: &Data,
        pl: &Plan,
        inst: usize,
        options: &mut Vec<Choice>,
    ) -> Res<Quick> {
        let (list, player, np, m, b, t) =
            (&pl.bf.list[..], pl.p, &pl.q.np, pl.q.m, pl.bf.b, pl.tables);
        let rules = &data.bots[b].1;
        for (k, &r) in list.iter().enumerate() {
            let (Some(rule), Some(rf)) = (rules.get(r as usize), t.rule(b, r)) else {
                continue;
            };
            if rule.cond.is_some() && rf.cond_test.is_none() {
                self.pick_cards(data, &np.test, player, m, inst, options);
                return Ok(Quick::Listed(self.bot_window(
                    t,
                    data,
                    b,
                    &list[k..],
                    player,
                    options,
                )?));
            }
            // A number of the player's against another, decided in place.
            let each = match rf.cond_cmp {
                Some((a, op, b)) if self.budget.depth() < MAX_DEPTH => {
                    let (x, y) = (self.plain(a, player), self.plain(b, player));
                    self.tick(rule.cond.as_ref().map_or_else(Default::default, |c| c.span))?;
                    if !op.holds(x, y) {
                        continue;
                    }
                    None
                }
                _ => match self.rule_once(t, data, b, r, rule, player)? {
                    Some(each) => each,
                    None => continue,
                },
            };
            if each.is_none() && self.budget.depth() < MAX_DEPTH {
                // Each option weighed counts a step, as `rule_pick` would.
                match &rf.choose {
                    Choose::Test(t) => {
                        if let Ok((i, c)) = self.pick_find(data, &np.test, Some(t), player, m, inst)
                        {
                            self.charge(rule.choose.span, (i + 1) as u64)?;
                            return Ok(Quick::Card(i, c));
                        }
                    }
                    // Text that names no option of the move: only pass may hit.
                    Choose::Str(s) if !s.starts_with(data.moves[m as usize].label.as_str()) => {
                        let Err(n) = self.pick_find(data, &np.test, None, player, m, inst) else {
                            unreachable!("no test finds no card");
                        };
                        self.charge(rule.choose.span, (n + 1) as u64)?;
                        if **s == *"pass" {
                            return Ok(Quick::Pass(n));
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            self.pick_cards(data, &np.test, player, m, inst, options);
            if let Some(i) = self.rule_pick(t, data, b, r, rule, each, player, options)? {
                return Ok(Quick::Listed(Some(i)));
            }
            return Ok(Quick::Listed(self.bot_window(
                t,
                data,
                b,
                &list[k + 1..],
                player,
                options,
            )?));
        }
        Ok(Quick::Nothing)
    }
}

/// See [`Game::bot_plan`]: what the tables found at load, and the one
/// reference into the data they cannot hold.
pub(super) struct Plan<'d> {
    pub(super) p: PlayerId,
    /// The window's move, as its rounds read it.
    pub(super) q: &'d QuickMove,
    pub(super) mv: &'d MoveDecl,
    /// The bot's rules here, and what they come to.
    pub(super) bf: &'d BotFast,
    pub(super) tables: &'d Tables,
    /// The zone instance the pick reads, once read.
    pub(super) inst: Option<usize>,
}

/// What a quick window round decided (see [`Game::bot_quick`]).
enum Quick {
    /// The options were listed: the one picked (pass after them), if any.
    Listed(Option<usize>),
    /// An option not listed: its index among the options, and its card.
    Card(usize, ObjId),
    /// Pass, after this many options (not listed).
    Pass(usize),
    /// No rule applied; nothing listed.
    Nothing,
}

/// The first card of a row of piles whose pick keeps the piles whose
/// definition's property (`prop`) is in `lo..=hi` that `choose` takes (no
/// card for pass): its index among the cards kept and the card; else `Err`
/// with how many are kept. (A test by value, not a closure: it stays in
/// line.)
#[inline(always)]
fn row_find(
    st: &State,
    zi: &ZoneInst,
    prop: &[i64],
    lo: i64,
    hi: i64,
    choose: FastChoose,
) -> Result<(usize, ObjId), usize> {
    let mut n = 0;
    for (def, pile) in zi.full_piles() {
        let c = pile[pile.len() - 1];
        let x = prop.get(def as usize).copied().unwrap_or(i64::MIN);
        if x < lo || x > hi {
            continue;
        }
        let hit = match choose {
            FastChoose::Def { def: d, negate } => (def == d) != negate,
            FastChoose::Tag { bit, negate } => (st.tags(c) & bit != 0) != negate,
            FastChoose::Pass => false,
        };
        if hit {
            return Ok((n, c));
        }
        n += 1;
    }
    Err(n)
}
