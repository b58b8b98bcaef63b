//! Decisions: every choice is a [`Request`] asked of the seat's [`Agent`]
//! by [`Game::ask`] (several players at once by [`Game::ask_together`]);
//! each answer is checked and recorded with its player. Data bots' rules
//! are weighed here too, by a [`Judge`]: the reference runs their code; a
//! speed tier brings its own judge, and may decide a window before its
//! moves are listed ([`super::tier::Tier`]).

use super::agent::{Agent, First};

use super::log::Entry;
use super::request::{Choice, Kind, PASS, Picks, Request};
use super::{Game, Res};
use crate::data::{BotRule, Data};
use crate::lang::ir::Code;
use crate::value::{PlayerId, Value};

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
        self.seated(p, None);
        let r = agent.answer(self, &req);
        if let Some(seat) = self.agents.get_mut(p) {
            let bot = agent.data_bot();
            *seat = agent;
            self.seated(p, bot);
        }
        let picked = r?;
        if !req.fits(&picked) {
            return self.bad_answer(&req, &picked);
        }
        if self.logging && !req.public {
            self.log_answer(&req, &picked);
        }
        self.record(req.player, &picked);
        Ok(picked)
    }

    /// Asks several players at once, one part each: every part is answered
    /// before any answer takes effect (the caller applies them), so each
    /// decider sees the state as it was before anyone answered. Answers come
    /// in the parts' order, and are recorded so.
    pub fn ask_together(&mut self, parts: &[Request]) -> Res<smallvec::SmallVec<[Picks; 4]>> {
        parts.iter().map(|r| self.ask(*r)).collect()
    }

    /// The picks of `min` to `max` of `n` options by an agent that picks
    /// without reading ([`Agent::blind`], [`Agent::blind_picks`]): its
    /// answer, cut and recorded as [`Game::ask`] cuts and records it, with
    /// no request or options built. None for any other agent, and while a
    /// transcript is kept (the answer is logged with its options' labels).
    #[inline(always)]
    pub(crate) fn ask_blind(
        &mut self,
        p: PlayerId,
        n: usize,
        min: usize,
        max: usize,
    ) -> Option<Picks> {
        if self.logging {
            return None;
        }
        let agent = self.agents.get_mut(p as usize)?;
        let picked = match (min.min(n), max.min(n)) {
            (1, 1) => {
                let mut one = Picks::new();
                one.push(agent.blind(n)?);
                one
            }
            (min, max) => agent.blind_picks(n, min, max)?,
        };
        self.record(p, &picked);
        Some(picked)
    }

    /// An answer's picks recorded with its player.
    #[inline(always)]
    fn record(&mut self, p: PlayerId, picked: &[usize]) {
        match picked[..] {
            [i] => self.record_one(p, i),
            _ => {
                self.decisions.push(p as u32);
                self.decisions.push(picked.len() as u32);
                self.decisions.extend(picked.iter().map(|&i| i as u32));
            }
        }
    }

    /// A decision taken by a data bot's speed path: one option, `i`.
    #[inline(always)]
    pub(crate) fn record_one(&mut self, p: PlayerId, i: usize) {
        self.decisions.extend_from_slice(&[p as u32, 1, i as u32]);
    }

    /// The rules bot seated at `p`, if any: for the speed paths only.
    #[inline(always)]
    pub(crate) fn data_bot(&self, p: PlayerId) -> Option<usize> {
        self.seat_bots.get(p as usize).copied().flatten()
    }

    /// Seat `p` now holds an agent that is bot `bot` (or no bot).
    fn seated(&mut self, p: usize, bot: Option<usize>) {
        if let Some(b) = self.seat_bots.get_mut(p) {
            *b = bot;
        }
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
            let saved = self.viewer.replace(player);
            let r = match self.tier() {
                Some(t) => t.bot_window(self, data, b, &wb.rules, player, options),
                None => self.bot_window(&Reference, data, b, &wb.rules, player, options),
            };
            self.viewer = saved;
            // No rule picked: the first option (the decision wants one).
            let i = r?.unwrap_or(0);
            self.record_one(player, i);
            return Ok(i);
        }
        // An agent that picks without reading: no request to build.
        let n = options.len() + 1;
        if let Some(i) = self
            .agents
            .get_mut(player as usize)
            .and_then(|a| a.blind(n))
        {
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

    /// The option a bot's listed rules pick in a window, if any: what
    /// [`Game::bot_rules`] finds when one option is wanted (pass, not
    /// listed, is the one after `options`).
    pub(crate) fn bot_window<J: Judge>(
        &mut self,
        j: &J,
        data: &Data,
        b: usize,
        list: &[u32],
        player: PlayerId,
        options: &[Choice],
    ) -> Res<Option<usize>> {
        let rules = &data.bots[b].1;
        for &r in list {
            let Some(rule) = rules.get(r as usize) else {
                continue;
            };
            let each = match self.rule_once(j, data, b, r, rule, player)? {
                Some(each) => each,
                None => continue,
            };
            if let Some(i) = self.rule_pick(j, data, b, r, rule, each, player, options)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The option a rule that applies picks in a window, if any (pass, not
    /// listed, is the one after `options`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn rule_pick<J: Judge>(
        &mut self,
        j: &J,
        data: &Data,
        b: usize,
        r: u32,
        rule: &BotRule,
        each: Option<&Code>,
        player: PlayerId,
        options: &[Choice],
    ) -> Res<Option<usize>> {
        for (i, o) in options.iter().enumerate() {
            if self.option_hits(j, data, b, r, rule, each, player, o)? {
                return Ok(Some(i));
            }
        }
        if self.option_hits(j, data, b, r, rule, each, player, &PASS)? {
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
        let r = match self.tier() {
            Some(t) => t.bot_rules(self, b, req),
            None => self.bot_rules(&Reference, b, req),
        };
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
    pub(crate) fn bot_rules<J: Judge>(&mut self, j: &J, b: usize, req: &Request) -> Res<Picks> {
        let (data, player, options, max) = (req.data, req.player, req.options, req.max);
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
                if self.bot_rule(j, data, b, r, rule, player, options, max, &mut out)? {
                    break;
                }
            }
        } else {
            for (r, rule) in rules.iter().enumerate() {
                if rule.when.as_deref().is_some_and(|w| w != req.name) {
                    continue;
                }
                if self.bot_rule(j, data, b, r as u32, rule, player, options, max, &mut out)? {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// One bot rule weighs the options not picked yet; true when the decision
    /// is made (one option wanted, and this rule found it).
    #[allow(clippy::too_many_arguments)]
    fn bot_rule<J: Judge>(
        &mut self,
        j: &J,
        data: &Data,
        b: usize,
        r: u32,
        rule: &BotRule,
        player: PlayerId,
        options: &[Choice],
        max: usize,
        out: &mut Picks,
    ) -> Res<bool> {
        let each = match self.rule_once(j, data, b, r, rule, player)? {
            Some(each) => each,
            None => return Ok(false),
        };
        for (i, o) in options.iter().enumerate() {
            if out.len() >= max || out.contains(&i) {
                continue;
            }
            if self.option_hits(j, data, b, r, rule, each, player, o)? {
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
    pub(crate) fn rule_once<'r, J: Judge>(
        &mut self,
        j: &J,
        data: &Data,
        b: usize,
        r: u32,
        rule: &'r BotRule,
        player: PlayerId,
    ) -> Res<Option<Option<&'r Code>>> {
        match &rule.cond {
            Some(c) if rule.cond_reads_it => Ok(Some(Some(c))),
            Some(c) => Ok(j
                .holds(self, data, b, r, c, player, &Value::None, None)?
                .then_some(None)),
            None => Ok(Some(None)),
        }
    }

    /// Whether a rule picks an option (its per-option condition, then its
    /// `choose`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn option_hits<J: Judge>(
        &mut self,
        j: &J,
        data: &Data,
        b: usize,
        r: u32,
        rule: &BotRule,
        each: Option<&Code>,
        player: PlayerId,
        o: &Choice,
    ) -> Res<bool> {
        if let Some(c) = each
            && !j.holds(self, data, b, r, c, player, &o.value, o.mv)?
        {
            return Ok(false);
        }
        j.chooses(self, data, b, r, rule, player, o)
    }

    /// Whether a rule's `choose` picks an option, its code run.
    pub(crate) fn run_choose(
        &mut self,
        data: &Data,
        rule: &BotRule,
        player: PlayerId,
        o: &Choice,
    ) -> Res<bool> {
        Ok(
            match self.exec_in(data, &rule.choose, None, player, [o.value.clone()], o.mv)? {
                Value::Str(s) => self.text_hit(data, &s, o),
                v => v.truthy(),
            },
        )
    }

    /// Whether a bot's text names an option: a text option by its text, a
    /// move's option by its label or key.
    pub(crate) fn text_hit(&self, data: &Data, s: &str, o: &Choice) -> bool {
        match &o.value {
            Value::Str(v) => *s == **v,
            _ => {
                o.mv.is_some_and(|m| s.starts_with(data.moves[m as usize].label.as_str()))
                    && (*s == *o.key(self) || *s == *o.label(self))
            }
        }
    }
}

/// How a data bot's rules are weighed: a rule's condition and its `choose`
/// against an option. The loops that use a judge are generic, so a tier's
/// judge (which must agree with [`Reference`], steps and errors included)
/// is inlined into them: no call through the tier per option.
pub(crate) trait Judge {
    /// Whether rule `r` of bot `b`, whose condition is `cond`, holds for
    /// `it` (none: a condition that does not read it) and the option's move.
    #[allow(clippy::too_many_arguments)]
    fn holds(
        &self,
        g: &mut Game,
        data: &Data,
        b: usize,
        r: u32,
        cond: &Code,
        player: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool>;

    /// Whether rule `r` of bot `b` chooses option `o`.
    #[allow(clippy::too_many_arguments)]
    fn chooses(
        &self,
        g: &mut Game,
        data: &Data,
        b: usize,
        r: u32,
        rule: &BotRule,
        player: PlayerId,
        o: &Choice,
    ) -> Res<bool>;
}

/// The reference judge: a rule's code run.
pub(crate) struct Reference;

impl Judge for Reference {
    fn holds(
        &self,
        g: &mut Game,
        data: &Data,
        _: usize,
        _: u32,
        cond: &Code,
        player: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool> {
        Ok(g.exec_in(data, cond, None, player, [it.clone()], mv)?
            .truthy())
    }

    fn chooses(
        &self,
        g: &mut Game,
        data: &Data,
        _: usize,
        _: u32,
        rule: &BotRule,
        player: PlayerId,
        o: &Choice,
    ) -> Res<bool> {
        g.run_choose(data, rule, player, o)
    }
}

/// What a player does in a round of a window.
pub enum Act {
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
