//! Decisions: every choice is a [`Request`] asked of the seat's [`Agent`]
//! by [`Game::ask`] (several players at once by [`Game::ask_together`]);
//! each answer is checked and recorded with its player. Data bots' rules
//! are run here too, with the speed paths that let a bot decide a window
//! before its moves are listed.

use super::agent::{Agent, First};

use super::log::Entry;
use super::request::{Choice, Kind, PASS, Picks, Request};
use super::{Game, Res};
use crate::data::native::{Choose, FastChoose, Operand, Pick, Test};
use crate::data::{BotRule, Data, MoveDecl, WindowBot};
use crate::lang::ir::{Code, Span};
use crate::value::{ObjId, PlayerId, Value};

pub(crate) use super::MAX_DEPTH;

impl Game {
    /// Asks a request of its player's agent. The answer must pick `min` to
    /// `max` distinct options (both cut to the number of options); it is
    /// logged unless the request is public (a window's move speaks for
    /// itself) and recorded with its player.
    pub fn ask(&mut self, mut req: Request) -> Res<Picks> {
        let n = req.options.len();
        (req.min, req.max) = (req.min.min(n), req.max.min(n));
        let p = req.player as usize;
        // The agent is out of its seat while it answers (it may read the
        // game); a request made meanwhile, by code a bot runs, gets the
        // first options.
        let Some(seat) = self.agents.get_mut(p) else {
            return self.err(Default::default(), format!("no player {}", p + 1));
        };
        let mut agent: Box<dyn Agent> = std::mem::replace(seat, Box::new(First));
        let r = agent.answer(self, &req);
        if let Some(seat) = self.agents.get_mut(p) {
            *seat = agent;
        }
        let picked = r?;
        if !req.fits(&picked) {
            return self.bad_answer(&req, &picked);
        }
        if self.logging && !req.public {
            self.log_answer(&req, &picked);
        }
        match picked[..] {
            [i] => self.record_one(req.player, i),
            _ => {
                self.decisions.push(req.player as u32);
                self.decisions.push(picked.len() as u32);
                self.decisions.extend(picked.iter().map(|&i| i as u32));
            }
        }
        Ok(picked)
    }

    /// Asks several players at once, one part each: every part is answered
    /// before any answer takes effect (the caller applies them), so each
    /// decider sees the state as it was before anyone answered. Answers come
    /// in the parts' order, and are recorded so.
    pub fn ask_together(&mut self, parts: &[Request]) -> Res<Vec<Picks>> {
        parts.iter().map(|r| self.ask(*r)).collect()
    }

    /// A decision taken by a data bot's speed path: one option, `i`.
    #[inline(always)]
    pub(crate) fn record_one(&mut self, p: PlayerId, i: usize) {
        self.decisions.extend_from_slice(&[p as u32, 1, i as u32]);
    }

    /// The rules bot seated at `p`, if any: for the speed paths only.
    #[inline(always)]
    pub(crate) fn data_bot(&self, p: PlayerId) -> Option<usize> {
        self.agents.get(p as usize)?.data_bot()
    }

    #[cold]
    fn bad_answer(&self, req: &Request, picked: &[usize]) -> Res<Picks> {
        self.err(
            Default::default(),
            format!(
                "the agent of {} answered {picked:?} to \"{}\", which wants {} to {} of its {} options",
                super::log::pname(req.player),
                req.prompt,
                req.min,
                req.max,
                req.options.len()
            ),
        )
    }

    #[cold]
    fn log_answer(&mut self, req: &Request, picked: &[usize]) {
        let label = if picked.is_empty() {
            "nothing".to_string()
        } else {
            (picked.iter())
                .map(|&i| req.options[i].label_for(self, req.player))
                .collect::<Vec<_>>()
                .join(", ")
        };
        self.push(Entry::Choice {
            player: req.player,
            prompt: req.prompt.to_string(),
            label,
            public: req.public,
        });
    }

    /// A priority window's decision between its moves and pass: the index
    /// of a move, or `options.len()` for pass (the option after them). A
    /// data bot with the window's rules listed picks without a list of picks
    /// in between (nor pass listed).
    pub(crate) fn decide_window(
        &mut self,
        data: &Data,
        player: PlayerId,
        w: u16,
        options: &mut Vec<Choice>,
    ) -> Res<usize> {
        let decl = &data.windows[w as usize];
        if let Some(b) = self.data_bot(player)
            && let Some(wb) = decl.bots.get(b)
        {
            let rules = &data.bots[b].1;
            let saved = self.viewer.replace(player);
            let r = self.bot_window(data, rules, &wb.rules, player, options);
            self.viewer = saved;
            // No rule picked: the first option (the decision wants one).
            let i = r?.unwrap_or(0);
            self.record_one(player, i);
            return Ok(i);
        }
        options.push(PASS.clone());
        let name = &decl.name;
        let req = Request {
            data,
            player,
            together: &[],
            kind: Kind::Window(w),
            name,
            prompt: name,
            options,
            min: 1,
            max: 1,
            public: true,
        };
        let picks = self.ask(req)?;
        options.pop();
        Ok(picks.first().copied().unwrap_or(options.len()))
    }

    /// What the rounds of one bot in one quick window share: found once
    /// (the window is never opened too deep for the bot to take in place).
    #[inline(always)]
    pub(crate) fn bot_plan<'d>(
        data: &'d Data,
        m: u16,
        p: PlayerId,
        b: usize,
        wb: &'d WindowBot,
    ) -> Plan<'d> {
        let mv = &data.moves[m as usize];
        let (Some(pick), Some(np)) = (&mv.pick, &mv.pick_native) else {
            unreachable!("a quick window's move has a native pick");
        };
        Plan {
            p,
            b,
            m,
            mv,
            pick,
            np,
            wb,
            inst: None,
        }
    }

    /// A round of a window whose one move, `m`, has a native pick, decided by a
    /// data bot with the window's rules listed. A rule that applies and
    /// chooses by a native test finds its card without a list; otherwise
    /// every option is listed before any rule weighs one (a rule's condition
    /// running code first).
    pub(crate) fn bot_round(
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
        if let Some(span) = pl.wb.takes {
            self.tick(span)?;
            self.record_one(pl.p, 0);
            return Ok(Act::Move(pl.m, Value::Card(first)));
        }
        self.bot_pick(data, pl, first, inst, options)
    }

    /// [`Game::bot_round`] once the move's pick lists `first`: what the
    /// bot's rules pick.
    #[inline(never)]
    pub(crate) fn bot_pick(
        &mut self,
        data: &Data,
        pl: &Plan,
        first: ObjId,
        inst: usize,
        options: &mut Vec<Choice>,
    ) -> Res<Act> {
        let (m, p, np) = (pl.m, pl.p, pl.np);
        let saved = self.viewer.replace(p);
        let rules = &data.bots[pl.b].1;
        let r = self.bot_quick(data, rules, &pl.wb.rules, p, np, m, inst, options);
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
    pub(crate) fn round_first(
        &mut self,
        data: &Data,
        pl: &mut Plan,
    ) -> Res<Option<(ObjId, usize)>> {
        let Some(inst) = self.round_start(data, pl)? else {
            return Ok(None);
        };
        Ok(self
            .pick_first(data, &pl.np.test, pl.p, pl.m, inst)
            .map(|c| (c, inst)))
    }

    /// [`Game::round_first`] up to the zone instance the pick reads.
    #[inline(always)]
    pub(crate) fn round_start(&mut self, data: &Data, pl: &mut Plan) -> Res<Option<usize>> {
        let (m, p, mv, np) = (pl.m, pl.p, pl.mv, pl.np);
        if let Some(cond) = &mv.cond {
            let holds = match mv.cond_cmp {
                // A quick window is never too deep: decided in place.
                Some((a, op, b)) => {
                    self.tick(cond.span)?;
                    op.holds(self.plain(a, p), self.plain(b, p))
                }
                None => self.holds(data, cond, mv.cond_test.as_ref(), p, &Value::None, Some(m))?,
            };
            if !holds {
                return Ok(None);
            }
        }
        // The zone and whether it may be seen do not change between rounds:
        // later rounds only count the pick's step.
        let inst = match pl.inst {
            Some(inst) => {
                self.tick(pl.pick.span)?;
                inst
            }
            None => *pl.inst.insert(self.pick_zone(np, pl.pick, p)?),
        };
        Ok(Some(inst))
    }

    /// A round of [`Game::quick_rounds`] as its bot's rules decide it once
    /// the pick's zone is read.
    pub(crate) fn round_rules(&mut self, data: &Data, pl: &Plan, inst: usize) -> Res<Act> {
        let Some(first) = self.pick_first(data, &pl.np.test, pl.p, pl.m, inst) else {
            return Ok(Act::Nothing);
        };
        let mut options = std::mem::take(&mut self.spare_options);
        let r = self.bot_pick(data, pl, first, inst, &mut options);
        options.clear();
        self.spare_options = options;
        r
    }

    /// A round decided by rules resolved at load ([`crate::data::native::FastRules`]): each
    /// condition read in place, the card chosen found in one scan of the
    /// pick's row of piles, the steps and the decision counted at once.
    /// None, with nothing done, where a rule finds no card or a step could
    /// fail: [`Game::bot_pick`] then decides as ever.
    #[inline(always)]
    pub(crate) fn fast_round(&mut self, pl: &Plan, inst: usize) -> Option<Act> {
        let (fast, p) = (pl.wb.fast.as_ref()?, pl.p);
        let zi = &self.st.zones[inst];
        if zi.piles.is_empty() || !self.st.mods.is_empty() || self.budget.depth() >= MAX_DEPTH {
            return None;
        }
        let (lo, hi) = crate::data::native::range(fast.op, self.st.counter(p, fast.counter))?;
        let prop = |d: crate::value::DefId| fast.prop.get(d as usize).copied().unwrap_or(i64::MIN);
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
            let (i, act) = match r.choose {
                FastChoose::Def { def, negate } => {
                    let (i, c) = row_find(zi, prop, lo, hi, |d, _| (d == def) != negate).ok()?;
                    (i, Act::Move(pl.m, Value::Card(c)))
                }
                FastChoose::Tag { bit, negate } => {
                    let is = |_, c| (self.st.tags(c) & bit != 0) != negate;
                    let (i, c) = row_find(zi, prop, lo, hi, is).ok()?;
                    (i, Act::Move(pl.m, Value::Card(c)))
                }
                FastChoose::Pass => match row_find(zi, prop, lo, hi, |_, _| false) {
                    Err(n) if n > 0 => (n, Act::Pass),
                    _ => return None,
                },
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
    pub(crate) fn take_round(
        &mut self,
        data: &Data,
        pl: &mut Plan,
        span: Span,
    ) -> Res<Option<ObjId>> {
        let (m, p, mv, np) = (pl.m, pl.p, pl.mv, pl.np);
        if let Some(inst) = pl.inst
            && self.budget.room(5)
            && (mv.cond.is_none() || mv.cond_cmp.is_some())
        {
            // The round's step, the condition's, the pick's.
            let mut k = 2;
            if let Some((a, op, b)) = mv.cond_cmp {
                if !op.holds(self.plain(a, p), self.plain(b, p)) {
                    self.budget.spend(2);
                    return Ok(None);
                }
                k = 3;
            }
            let Some(c) = self.pick_first(data, &np.test, p, m, inst) else {
                self.budget.spend(k);
                return Ok(None);
            };
            self.budget.spend(k + 2);
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
    pub(crate) fn quick_pass(&mut self, data: &Data, p: PlayerId, nothing: bool) -> Res<bool> {
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
                text: format!("{} passes (nothing to do)", super::log::pname(p)),
            });
        } else {
            self.push(Entry::Pass { player: p });
        }
    }

    /// [`Game::bot_window`] for [`Game::bot_round`]: options are listed only
    /// when a rule weighs them in a way not known natively.
    #[allow(clippy::too_many_arguments)]
    fn bot_quick(
        &mut self,
        data: &Data,
        rules: &[BotRule],
        list: &[u32],
        player: PlayerId,
        np: &Pick,
        m: u16,
        inst: usize,
        options: &mut Vec<Choice>,
    ) -> Res<Quick> {
        for (k, &r) in list.iter().enumerate() {
            let Some(rule) = rules.get(r as usize) else {
                continue;
            };
            if rule.cond.is_some() && rule.cond_test.is_none() {
                self.pick_cards(data, &np.test, player, m, inst, options);
                return Ok(Quick::Listed(self.bot_window(
                    data,
                    rules,
                    &list[k..],
                    player,
                    options,
                )?));
            }
            // A number of the player's against another, decided in place.
            let each = match rule.cond_cmp {
                Some((a, op, b)) if self.budget.depth() < MAX_DEPTH => {
                    let (x, y) = (self.plain(a, player), self.plain(b, player));
                    self.tick(rule.cond.as_ref().map_or_else(Default::default, |c| c.span))?;
                    if !op.holds(x, y) {
                        continue;
                    }
                    None
                }
                _ => match self.rule_once(data, rule, player)? {
                    Some(each) => each,
                    None => continue,
                },
            };
            if each.is_none() && self.budget.depth() < MAX_DEPTH {
                // Each option weighed counts a step, as `rule_pick` would.
                match &rule.choose_native {
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
            if let Some(i) = self.rule_pick(data, rule, each, player, options)? {
                return Ok(Quick::Listed(Some(i)));
            }
            return Ok(Quick::Listed(self.bot_window(
                data,
                rules,
                &list[k + 1..],
                player,
                options,
            )?));
        }
        Ok(Quick::Nothing)
    }

    /// The option a bot's listed rules pick in a window, if any: what
    /// [`Game::bot_rules`] finds when one option is wanted (pass, not
    /// listed, is the one after `options`).
    fn bot_window(
        &mut self,
        data: &Data,
        rules: &[BotRule],
        list: &[u32],
        player: PlayerId,
        options: &[Choice],
    ) -> Res<Option<usize>> {
        for &r in list {
            let Some(rule) = rules.get(r as usize) else {
                continue;
            };
            let each = match self.rule_once(data, rule, player)? {
                Some(each) => each,
                None => continue,
            };
            if let Some(i) = self.rule_pick(data, rule, each, player, options)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The option a rule that applies picks in a window, if any (pass, not
    /// listed, is the one after `options`).
    #[inline(always)]
    fn rule_pick(
        &mut self,
        data: &Data,
        rule: &BotRule,
        each: Option<&Code>,
        player: PlayerId,
        options: &[Choice],
    ) -> Res<Option<usize>> {
        let choose = self.choose_of(rule);
        for (i, o) in options.iter().enumerate() {
            if self.option_hits(data, rule, each, choose, player, o)? {
                return Ok(Some(i));
            }
        }
        if self.option_hits(data, rule, each, choose, player, &PASS)? {
            return Ok(Some(options.len()));
        }
        Ok(None)
    }

    /// A data bot's answer: the first rule whose condition holds and which
    /// matches an option picks it; otherwise the first options (or nothing,
    /// if allowed).
    pub(crate) fn bot_decide(&mut self, b: usize, req: &Request) -> Res<Picks> {
        let (player, min) = (req.player, req.min);
        let saved = self.viewer.replace(player);
        let r = self.bot_rules(req.data, b, req);
        self.viewer = saved;
        let mut out = r?;
        let mut i = 0;
        while out.len() < min {
            if !out.contains(&i) {
                out.push(i);
            }
            i += 1;
        }
        Ok(out)
    }

    /// The options a bot's rules pick, in rule order.
    fn bot_rules(&mut self, data: &Data, b: usize, req: &Request) -> Res<Picks> {
        let (player, options, max) = (req.player, req.options, req.max);
        let mut out = Picks::new();
        let rules = &data.bots[b].1;
        // A window knows its rules; other decisions match `when` by text.
        let listed = (req.window())
            .and_then(|w| data.windows.get(w as usize))
            .and_then(|w| w.bots.get(b))
            .map(|wb| &wb.rules);
        if let Some(list) = listed {
            for &r in list {
                let Some(rule) = rules.get(r as usize) else {
                    continue;
                };
                if self.bot_rule(data, rule, player, options, max, &mut out)? {
                    break;
                }
            }
        } else {
            for rule in rules {
                if rule.when.as_deref().is_some_and(|w| w != req.name) {
                    continue;
                }
                if self.bot_rule(data, rule, player, options, max, &mut out)? {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// One bot rule weighs the options not picked yet; true when the decision
    /// is made (one option wanted, and this rule found it).
    fn bot_rule(
        &mut self,
        data: &Data,
        rule: &BotRule,
        player: PlayerId,
        options: &[Choice],
        max: usize,
        out: &mut Picks,
    ) -> Res<bool> {
        let each = match self.rule_once(data, rule, player)? {
            Some(each) => each,
            None => return Ok(false),
        };
        let choose = self.choose_of(rule);
        for (i, o) in options.iter().enumerate() {
            if out.len() >= max || out.contains(&i) {
                continue;
            }
            if self.option_hits(data, rule, each, choose, player, o)? {
                out.push(i);
                if max == 1 {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// A rule's condition, when it does not look at the option, checked once:
    /// `None` when it fails; otherwise the condition left to check per option.
    #[inline(always)]
    fn rule_once<'r>(
        &mut self,
        data: &Data,
        rule: &'r BotRule,
        player: PlayerId,
    ) -> Res<Option<Option<&'r Code>>> {
        match &rule.cond {
            Some(c) if rule.cond_reads_it => Ok(Some(Some(c))),
            Some(c) => {
                let test = rule.cond_test.as_ref();
                Ok(self
                    .holds(data, c, test, player, &Value::None, None)?
                    .then_some(None))
            }
            None => Ok(Some(None)),
        }
    }

    /// How a rule's `choose` decides: code nested too deep runs (and fails)
    /// as it would have.
    #[inline(always)]
    fn choose_of<'r>(&self, rule: &'r BotRule) -> &'r Choose {
        match &rule.choose_native {
            _ if self.budget.depth() >= MAX_DEPTH || self.reference => &Choose::General,
            c => c,
        }
    }

    /// Whether a rule picks an option (its per-option condition, then its
    /// `choose`).
    #[inline(always)]
    fn option_hits(
        &mut self,
        data: &Data,
        rule: &BotRule,
        each: Option<&Code>,
        choose: &Choose,
        player: PlayerId,
        o: &Choice,
    ) -> Res<bool> {
        if let Some(c) = each
            && !self.holds(data, c, rule.cond_test.as_ref(), player, &o.value, o.mv)?
        {
            return Ok(false);
        }
        // The common shapes of `choose` decide natively, counting the
        // step running the code would.
        let native = match (choose, &o.value) {
            (Choose::Test(t), Value::Card(c)) => Some(self.card_test(data, t, player, *c, o.mv)),
            (Choose::Test(t), v) => self.native_test(data, t, player, v, o.mv),
            (Choose::Str(s), _) => Some(self.text_hit(data, s, o)),
            (Choose::General, _) => None,
        };
        Ok(match native {
            Some(hit) => {
                self.tick(rule.choose.span)?;
                hit
            }
            None => {
                match self.exec_in(data, &rule.choose, None, player, [o.value.clone()], o.mv)? {
                    Value::Str(s) => self.text_hit(data, &s, o),
                    v => v.truthy(),
                }
            }
        })
    }

    /// Whether a bot's text names an option: a text option by its text, a
    /// move's option by its label or key.
    fn text_hit(&self, data: &Data, s: &str, o: &Choice) -> bool {
        match &o.value {
            Value::Str(v) => *s == **v,
            _ => {
                o.mv.is_some_and(|m| s.starts_with(data.moves[m as usize].label.as_str()))
                    && (*s == *o.key(self) || *s == *o.label(self))
            }
        }
    }

    /// Whether `code` holds for `it` (and the option's move): natively when it
    /// has a test that fits the value, else by running it.
    #[inline(always)]
    pub(crate) fn holds(
        &mut self,
        data: &Data,
        code: &Code,
        test: Option<&Test>,
        me: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool> {
        let test = test.filter(|_| !self.reference);
        // The commonest condition, a number of the player's against another
        // (`actions > 0`), decided in place.
        if let Some(Test::Cmp(a, op, b)) = test
            && !matches!(it, Value::Card(_))
            && self.budget.depth() < MAX_DEPTH
            && let (Some(x), Some(y)) = (self.plain_operand(*a, me), self.plain_operand(*b, me))
        {
            self.tick(code.span)?;
            return Ok(op.holds(x, y));
        }
        self.holds_rest(data, code, test, me, it, mv)
    }

    /// [`Game::holds`] for the other tests.
    #[inline(never)]
    fn holds_rest(
        &mut self,
        data: &Data,
        code: &Code,
        test: Option<&Test>,
        me: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool> {
        if let Some(t) = test
            && self.budget.depth() < MAX_DEPTH
            && let Some(b) = self.native_test(data, t, me, it, mv)
        {
            // The step running the code would count.
            self.tick(code.span)?;
            return Ok(b);
        }
        Ok(self
            .exec_in(data, code, None, me, [it.clone()], mv)?
            .truthy())
    }

    /// A native test, as the interpreter would find it; `None` when it meets
    /// a value it was not made for (the code then runs and says why).
    pub(crate) fn native_test(
        &self,
        data: &Data,
        t: &Test,
        me: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Option<bool> {
        if let Value::Card(c) = it {
            return Some(self.card_test(data, t, me, *c, mv));
        }
        Some(match t {
            Test::Const(b) => *b,
            Test::Is { tag, negate } => {
                let tags = match it {
                    Value::Def(d) => data.defs[*d as usize].tags,
                    Value::None => 0,
                    _ => return None,
                };
                (tags & crate::value::bit(*tag) != 0) != *negate
            }
            Test::DefEq { def, negate } => {
                let eq = matches!(it, Value::Def(d) if d == def);
                eq != *negate
            }
            Test::Move { id, negate } => (id.is_some() && mv == *id) != *negate,
            Test::Cmp(a, op, b) => {
                let x = self.plain_operand(*a, me)?;
                let y = self.plain_operand(*b, me)?;
                op.holds(x, y)
            }
            Test::Not(x) => !self.native_test(data, x, me, it, mv)?,
            Test::And(a, b) => {
                self.native_test(data, a, me, it, mv)? && self.native_test(data, b, me, it, mv)?
            }
            Test::Or(a, b) => {
                self.native_test(data, a, me, it, mv)? || self.native_test(data, b, me, it, mv)?
            }
        })
    }

    /// [`Game::native_test`] with a card bound to `it`: every test is
    /// defined for cards. The one-step tests are inlined into the loops
    /// that filter cards.
    #[inline(always)]
    pub(crate) fn card_test(
        &self,
        data: &Data,
        t: &Test,
        me: PlayerId,
        c: ObjId,
        mv: Option<u16>,
    ) -> bool {
        match t {
            Test::Is { tag, negate } => (self.st.tags(c) & crate::value::bit(*tag) != 0) != *negate,
            Test::DefEq { def, negate } => (self.st.objs[c as usize].def == *def) != *negate,
            Test::Cmp(a, op, b) => op.holds(
                self.card_operand(data, *a, me, c),
                self.card_operand(data, *b, me, c),
            ),
            _ => self.card_test_rest(data, t, me, c, mv),
        }
    }

    #[inline(never)]
    fn card_test_rest(
        &self,
        data: &Data,
        t: &Test,
        me: PlayerId,
        c: ObjId,
        mv: Option<u16>,
    ) -> bool {
        match t {
            Test::Const(b) => *b,
            Test::Move { id, negate } => (id.is_some() && mv == *id) != *negate,
            Test::Not(x) => !self.card_test(data, x, me, c, mv),
            Test::And(a, b) => {
                self.card_test(data, a, me, c, mv) && self.card_test(data, b, me, c, mv)
            }
            Test::Or(a, b) => {
                self.card_test(data, a, me, c, mv) || self.card_test(data, b, me, c, mv)
            }
            Test::Is { .. } | Test::DefEq { .. } | Test::Cmp(..) => {
                self.card_test(data, t, me, c, mv)
            }
        }
    }

    /// A number a test compares, with a card bound to `it`.
    #[inline(always)]
    fn card_operand(&self, data: &Data, o: Operand, me: PlayerId, c: ObjId) -> i64 {
        match o {
            Operand::Prop(p) => self.st.prop(data, c, p),
            Operand::Int(i) => i,
            Operand::Counter(k) => self.st.counter(me, k),
            Operand::Global(g) => self.st.globals[g as usize],
        }
    }

    /// An operand of [`BotRule::cond_cmp`] (never a property).
    #[inline(always)]
    pub(crate) fn plain(&self, o: Operand, me: PlayerId) -> i64 {
        match o {
            Operand::Counter(k) => self.st.counter(me, k),
            Operand::Global(g) => self.st.globals[g as usize],
            Operand::Int(i) => i,
            Operand::Prop(_) => 0,
        }
    }

    /// A number a test compares, with no card bound (a property has none).
    #[inline(always)]
    fn plain_operand(&self, o: Operand, me: PlayerId) -> Option<i64> {
        Some(match o {
            Operand::Prop(_) => return None,
            Operand::Int(i) => i,
            Operand::Counter(k) => self.st.counter(me, k),
            Operand::Global(g) => self.st.globals[g as usize],
        })
    }
}

/// See [`Game::bot_plan`].
pub struct Plan<'d> {
    pub(crate) p: PlayerId,
    pub(crate) b: usize,
    pub(crate) m: u16,
    pub(crate) mv: &'d MoveDecl,
    pub(crate) pick: &'d Code,
    pub(crate) np: &'d Pick,
    /// The bot's rules here, and what they come to ([`WindowBot`]).
    pub(crate) wb: &'d WindowBot,
    /// The zone instance the pick reads, once read.
    pub(crate) inst: Option<usize>,
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
/// definition's property (`prop`) is in `lo..=hi` that `hit`s: its index
/// among the cards kept and the card; else `Err` with how many are kept.
#[inline(always)]
fn row_find(
    zi: &super::state::ZoneInst,
    prop: impl Fn(crate::value::DefId) -> i64,
    lo: i64,
    hi: i64,
    mut hit: impl FnMut(crate::value::DefId, ObjId) -> bool,
) -> Result<(usize, ObjId), usize> {
    let mut n = 0;
    for &(def, ref pile) in &zi.piles {
        let Some(&c) = pile.last() else { continue };
        let x = prop(def);
        if x < lo || x > hi {
            continue;
        }
        if hit(def, c) {
            return Ok((n, c));
        }
        n += 1;
    }
    Err(n)
}
/// What a player does in a round of a window.
pub(crate) enum Act {
    /// Nothing to do: no move is legal.
    Nothing,
    Pass,
    /// A move, with what it picked.
    Move(u16, Value),
}

impl Act {
    /// The option `i` of a window's listed options (pass after them).
    pub(crate) fn of(options: &mut Vec<Choice>, i: usize) -> Act {
        if i >= options.len() {
            return Act::Pass;
        }
        let c = options.swap_remove(i);
        Act::Move(c.mv.expect("move options carry their move"), c.value)
    }
}
