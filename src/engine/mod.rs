//! The kernel: runs a loaded game. It knows zones, counters, events, triggers,
//! phases, windows and decisions — never a particular game.

pub mod agent;
pub mod board;
pub mod board_index;
mod board_ops;
mod budget;
pub mod counts;
pub mod decide;
pub mod events;
pub mod exec;
pub mod facts;
pub mod frame;
mod hosted;
pub mod log;
pub mod mods;
pub mod ops;
mod reference;
pub mod request;
pub mod resume;
pub mod said;
pub mod script;
pub mod state;
mod tag_names;
mod thread_state;
pub mod tier;
pub mod turn;
pub mod view;

use std::collections::HashMap;
use std::sync::Arc;

use crate::data::Data;
use crate::lang::ir::{Code, Span};
use crate::limits::MAX_LOG_ENTRIES;
use crate::value::{DefId, ObjId, PlayerId, Value};
pub use agent::Agent;
pub(crate) use budget::passed_steps;
use log::Entry;
pub use request::{Choice, Kind, Picks, Request};
use state::State;
pub use thread_state::ThreadState;

/// Why evaluation stopped early. Not all are errors: `Return` carries a value
/// out of a verb, `EndTurn` jumps to the end of the turn.
#[derive(Debug)]
pub enum Flow {
    Return(Value),
    EndTurn,
    EndGame,
    /// A scripted agent has no more answers: a scenario ends here.
    OutOfDecisions,
    Error(RunError),
}

/// An error while running card or rules code.
#[derive(Debug, Clone)]
pub struct RunError {
    pub message: String,
    pub span: Span,
    /// The card whose code was running, if any.
    pub card: Option<String>,
    /// The running card's call, in its file, of the code that failed in
    /// another file (a rules verb): the place to show.
    pub site: Option<Span>,
    /// The running card's file.
    pub card_file: Option<u32>,
}

/// An error leaving a call at `call`: if the call is in the running card's
/// file and the failure in another's (a rules verb the card calls), the
/// call is where it shows.
#[cold]
pub(crate) fn at_call(mut e: Box<Flow>, call: Span) -> Box<Flow> {
    if let Flow::Error(re) = &mut *e
        && re.site.is_none()
        && re.card_file == Some(call.file)
        && re.span.file != call.file
        && call != Span::default()
    {
        re.site = Some(call);
    }
    e
}

/// A result of running code. The stop is boxed: stops are rare, and a
/// one-word error lets results come back in registers.
pub type Res<T> = Result<T, Box<Flow>>;

pub use crate::limits::{MAX_DEPTH, MAX_LIST, MAX_OBJECTS, MAX_STEPS};

/// How a game ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub winners: Vec<PlayerId>,
    pub scores: Vec<i64>,
    pub turns: u32,
    pub turns_taken: Vec<u32>,
    /// The game hit the rules' turn limit.
    pub limit: bool,
    /// What ended it.
    pub ended: Ended,
    /// The named end rule that held (`end: rules:`), by index.
    pub rule: Option<u16>,
    /// The players who had lost (they rank below all others, whatever their score).
    pub lost: Vec<PlayerId>,
    /// Each player's `tiebreak`, if the rules have one: what decided between
    /// equal scores.
    pub tiebreaks: Option<Vec<i64>>,
}

/// What ended a game (or did not: a caller's turn budget ran out first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The rules' end condition held (`end: if`).
    Rule,
    /// Every player but one (or every player) lost.
    Lost,
    /// The rules' turn limit.
    TurnLimit,
    /// Not over: the turns asked of [`Game::play_turns`] were played.
    Unfinished,
}

impl Ended {
    /// The word for it (a scenario's `result: {ended: …}`, JSON's `ended`).
    pub fn word(self) -> &'static str {
        match self {
            Ended::Rule => "rule",
            Ended::Lost => "lost",
            Ended::TurnLimit => "turn_limit",
            Ended::Unfinished => "unfinished",
        }
    }
}

/// Where a game stands, for a [`Watch`]: a phase starting or ending.
#[derive(Debug, Clone, Copy)]
pub struct Point {
    pub phase: u16,
    pub start: bool,
}

/// Looks at a game at its [`Point`]s (a scenario's expectations): the
/// kernel calls it only when one is set, so games without cost nothing.
pub trait Watch: Send + Sync {
    fn at(&mut self, g: &mut Game, p: Point) -> Res<()>;
}

/// One game in progress.
pub struct Game {
    pub data: Arc<Data>,
    pub st: State,
    /// Who answers each seat's requests: set by the kernel only, so the
    /// seats' bots below stay true.
    pub(crate) agents: Vec<Box<dyn Agent>>,
    /// Each seat's [`Agent::data_bot`], asked when the agent was seated: a
    /// window reads it with no call through the agent.
    seat_bots: Vec<Option<usize>>,
    pub log: Vec<Entry>,
    pub logging: bool,
    /// The speed tier the game runs on, if any ([`tier`]).
    tier: Option<Arc<dyn tier::Tier>>,
    /// The same tier borrowed for the game's life (see [`Game::tier`]).
    tier_ref: Option<&'static dyn tier::Tier>,
    /// Tiers the game ran on before [`Game::renew`] gave it another: kept
    /// until the game is dropped (see [`Game::tier`]).
    retired: Vec<Arc<dyn tier::Tier>>,
    /// No tier: the kernel's one shortcut of its own, a quiet move made in
    /// place (`Game::quiet_move`, which compiled code also asks), declines
    /// too, so the game runs as the language defines it.
    pub reference: bool,
    /// Set when the transcript reached [`MAX_LOG_ENTRIES`]: where it was (the
    /// game stops with this error at the end of the turn).
    log_full: Option<(Span, String)>,
    pub options: HashMap<String, Vec<DefId>>,
    /// The value of `option(name)` for each option the rules declare, made
    /// when the options are set (no lookup or list per call).
    pub(crate) option_vals: Vec<Value>,
    /// While a bot weighs options, code may read only what this player sees.
    pub viewer: Option<PlayerId>,
    /// Every answer given: the player, a count, then the chosen indices (a
    /// game is its data, seed and these).
    pub decisions: Vec<u32>,
    pub(crate) current_card: Option<DefId>,
    /// Steps taken in the turn, nesting depth.
    pub(crate) budget: budget::Budget,
    /// A spare options list for windows.
    pub(crate) spare_options: Vec<Choice>,
    /// The seed the game started from.
    pub seed: u64,
    /// The last list a move or `create` returned, kept to be refilled once
    /// nothing else holds it (such results are mostly dropped at once).
    pub(crate) spare_list: Option<Arc<Vec<Value>>>,
    /// The slots of code with more than a frame's stack holds (the setup),
    /// kept from frame to frame and game to game ([`Game::framed`]).
    spare_slots: Vec<Value>,
    /// Told of every phase's start and end, if set.
    pub watch: Option<Box<dyn Watch>>,
    /// Moves counted for the balance lab, if asked ([`Game::count_moves`]).
    counts: Option<Box<counts::MoveCounts>>,
    /// Some seat forks the game ([`Agent::forks`]): resume points are kept.
    forking: bool,
    /// The last resume point, when forking ([`resume`]).
    fork: Option<Box<resume::Resume>>,
}

#[derive(Clone)]
pub struct GameConfig {
    pub players: u8,
    pub seed: u64,
    pub agents: Vec<Box<dyn Agent>>,
    pub options: HashMap<String, Vec<DefId>>,
    pub logging: bool,
    /// The speed tier to run on (`crate::fast::tier`); none: the reference
    /// tier ([`Game::reference`]).
    pub tier: Option<Arc<dyn tier::Tier>>,
}

impl Game {
    pub fn new(data: Arc<Data>, cfg: GameConfig) -> Game {
        let st = State::new(&data, cfg.players, cfg.seed);
        let (mut agents, mut seat_bots) = (cfg.agents, Vec::new());
        seat_agents(&mut agents, &mut seat_bots, cfg.players, cfg.seed);
        let option_vals = option_vals(&data, &cfg.options);
        Game {
            data,
            st,
            agents,
            seat_bots,
            log: Vec::new(),
            logging: cfg.logging,
            reference: cfg.tier.is_none(),
            tier_ref: cfg.tier.as_ref().map(lend),
            tier: cfg.tier,
            retired: Vec::new(),
            log_full: None,
            options: cfg.options,
            option_vals,
            viewer: None,
            decisions: Vec::new(),
            current_card: None,
            budget: Default::default(),
            spare_options: Vec::new(),
            seed: cfg.seed,
            spare_list: None,
            spare_slots: Vec::new(),
            watch: None,
            counts: None,
            forking: false,
            fork: None,
        }
        .seated_all()
    }

    /// Notes whether a seat forks (after the agents are seated).
    fn seated_all(mut self) -> Game {
        self.forking = self.agents.iter().any(|a| a.forks());
        self
    }

    /// Counts the moves of the rules' `stats:` events from now on (and in
    /// renewed games), or stops counting. Ask before the game is played.
    pub fn count_moves(&mut self, on: bool) {
        self.counts = on.then(|| Box::new(counts::MoveCounts::new(&self.data, self.st.nplayers)));
    }

    /// The moves counted this game, if counting ([`Game::count_moves`]).
    pub fn move_counts(&self) -> Option<&counts::MoveCounts> {
        self.counts.as_deref()
    }

    /// Makes this game a new one of the same game data, as [`Game::new`]
    /// would, in its own vectors (no allocation for a game like the last).
    pub fn renew(&mut self, cfg: &GameConfig) {
        self.agents.clone_from(&cfg.agents);
        self.logging = cfg.logging;
        self.reference = cfg.tier.is_none();
        let same = match (&self.tier, &cfg.tier) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.tier_ref = cfg.tier.as_ref().map(lend);
            if let Some(old) = std::mem::replace(&mut self.tier, cfg.tier.clone()) {
                self.retired.push(old);
            }
        }
        if self.options != cfg.options {
            self.options.clone_from(&cfg.options);
            self.option_vals = option_vals(&self.data, &self.options);
        }
        self.renew_in(cfg.players, cfg.seed, true);
    }

    /// [`Game::renew`] with this game's players, agents, options and logging
    /// (a series of games told apart by their seeds: no options to compare).
    pub fn renew_seed(&mut self, seed: u64) {
        self.renew_in(self.st.nplayers, seed, true);
    }

    /// Without `state`, the state is left as it is (to be copied over).
    fn renew_in(&mut self, players: u8, seed: u64, state: bool) {
        // Every field named: one added later must be renewed here too.
        let Game {
            data,
            st,
            agents,
            seat_bots,
            log,
            tier: _,
            tier_ref: _,
            retired: _,
            reference: _,
            logging,
            log_full,
            options: _,
            option_vals: _,
            viewer,
            decisions,
            current_card,
            budget,
            spare_options,
            seed: game_seed,
            spare_list: _,
            spare_slots: _,
            watch,
            counts,
            forking,
            fork,
        } = self;
        *watch = None;
        if let Some(c) = counts {
            c.reset(players);
        }
        if state {
            st.reset(data, players, seed);
        }
        seat_agents(agents, seat_bots, players, seed);
        *forking = agents.iter().any(|a| a.forks());
        // The point's state is kept, to be copied over.
        if let Some(f) = fork {
            f.answers = 0;
        }
        log.clear();
        // A full transcript turned logging off.
        if log_full.take().is_some() {
            *logging = true;
        }
        *viewer = None;
        decisions.clear();
        *current_card = None;
        budget.reset();
        // Windows leave their vector empty.
        debug_assert!(spare_options.is_empty());
        *game_seed = seed;
    }

    /// The game's speed tier, borrowed while the game is borrowed mutably
    /// (the kernel hands the tier the game): no reference count touched per
    /// run of code.
    #[inline(always)]
    pub(crate) fn tier<'t>(&self) -> Option<&'t dyn tier::Tier> {
        self.tier_ref
    }

    /// An empty list to fill: the last one [`Game::keep_list`] kept when
    /// nothing else holds it any more (no allocation), else a new one.
    #[inline]
    pub(crate) fn spare_list(&mut self) -> Arc<Vec<Value>> {
        if let Some(mut a) = self.spare_list.take()
            && let Some(v) = Arc::get_mut(&mut a)
        {
            v.clear();
            return a;
        }
        Arc::new(Vec::new())
    }

    /// Lets go of the spare list if it is `list`: the game's own hold on
    /// it must not stop a list being grown in place.
    #[inline]
    pub(crate) fn let_go_of_spare(&mut self, list: &Arc<Vec<Value>>) {
        if (self.spare_list.as_ref()).is_some_and(|s| Arc::ptr_eq(s, list)) {
            self.spare_list = None;
        }
    }

    /// The list value of a filled [`Game::spare_list`], kept to be refilled
    /// once dropped (moves' and `create`'s results mostly are, at once).
    #[inline]
    pub(crate) fn keep_list(&mut self, list: Arc<Vec<Value>>) -> Value {
        if list.is_empty() {
            self.spare_list = Some(list);
            return Value::list(Vec::new());
        }
        self.spare_list = Some(list.clone());
        Value::List(list)
    }

    /// Whether a card is its zone's top card.
    pub fn is_top(&self, c: ObjId) -> bool {
        let z = self.st.zone_of(c);
        self.st.zones[self.st.inst(z)].cards.last() == Some(&c)
    }

    /// A card as a log entry names it: its definition and where it is now.
    pub fn named(&self, c: ObjId) -> (DefId, log::Place) {
        let place = log::Place::In(self.st.zone_of(c), self.is_top(c));
        (self.st.objs[c as usize].def, place)
    }

    #[inline(always)]
    pub fn push(&mut self, e: Entry) {
        if self.logging {
            self.keep(e);
        }
    }

    /// [`Game::push`] for the hot paths: the entry is built only when logging
    /// (a built entry costs its drop even when it is not kept).
    #[inline(always)]
    pub fn push_with(&mut self, e: impl FnOnce() -> Entry) {
        if self.logging {
            self.keep(e());
        }
    }

    /// Out of line: the hot paths that may log keep only the test and the
    /// call.
    #[inline(never)]
    fn keep(&mut self, e: Entry) {
        if self.log.len() < MAX_LOG_ENTRIES {
            self.log.push(e);
        } else {
            self.log_overflow();
        }
    }

    /// The transcript is full: logging stops, and the turn's end reports
    /// where it happened (the entry's maker has no way to fail).
    #[cold]
    fn log_overflow(&mut self) {
        self.logging = false;
        let phase = self.st.phase.map(|p| &self.data.turn.phases[p as usize]);
        let span = match phase {
            Some(p) => p.body.span,
            None if self.st.turn == 0 => self.data.setup.span,
            None => Span::default(),
        };
        let mut at = match phase {
            Some(p) => format!("in phase `{}` of turn {}", p.name, self.st.turn),
            None if self.st.turn == 0 => "in the setup".to_string(),
            None => format!("in turn {}", self.st.turn),
        };
        if let Some(d) = self.current_card {
            at += &format!(", while card `{}` ran", self.data.defs[d as usize].id);
        }
        self.log_full = Some((
            span,
            format!(
                "the transcript passed {MAX_LOG_ENTRIES} entries {at}: does a rule log without end?"
            ),
        ));
    }

    /// Stops the game once the transcript is full.
    #[inline(always)]
    fn check_log(&self) -> Res<()> {
        match &self.log_full {
            None => Ok(()),
            Some((span, message)) => self.err(*span, message.clone()),
        }
    }

    /// Runs the rules' setup, then turns until the game ends.
    pub fn play(&mut self) -> Res<Outcome> {
        // The game's one reference to the shared data: each change of the
        // count is a write to a cache line every sim thread reads.
        let data = self.data.clone();
        self.mark(true, None);
        match self.exec_hook(&data, &data.setup, 0) {
            Err(e) if !matches!(*e, Flow::EndGame) => return Err(e),
            _ => {}
        }
        self.check_log()?;
        self.play_turns_in(&data, None, u32::MAX)
    }

    /// Plays turns; the first one may start at a given phase. Stops after
    /// `max_turns` turns (for scenarios) or when the game ends.
    pub fn play_turns(&mut self, start_phase: Option<u16>, max_turns: u32) -> Res<Outcome> {
        let data = self.data.clone();
        self.play_turns_in(&data, start_phase, max_turns)
    }

    /// Plays turns to the end, the first from a phase (a resumed game).
    fn play_from(&mut self, start_phase: Option<u16>) -> Res<Outcome> {
        let data = self.data.clone();
        self.check_log()?;
        self.play_turns_in(&data, start_phase, u32::MAX)
    }

    fn play_turns_in(
        &mut self,
        data: &Data,
        mut start_phase: Option<u16>,
        max_turns: u32,
    ) -> Res<Outcome> {
        let mut played = 0;
        while !self.over() {
            if self.st.turn >= data.max_turns {
                return self.finish_in(data, Ended::TurnLimit);
            }
            if played >= max_turns {
                return self.finish_in(data, Ended::Unfinished);
            }
            self.mark(false, start_phase);
            match self.turn_in(data, start_phase.take()) {
                Ok(()) => {}
                Err(e) if matches!(*e, Flow::EndGame) => break,
                Err(e) => return Err(e),
            }
            self.check_log()?;
            played += 1;
            if self.over() {
                break;
            }
            if self.end_check(data)? {
                self.check_log()?;
                return self.finish_in(data, Ended::Rule);
            }
            self.advance_player(data)?;
        }
        self.check_log()?;
        // A stop by `EndGame` is a loss if players lost, else the end check.
        let ended = if self.over() {
            Ended::Lost
        } else {
            Ended::Rule
        };
        self.finish_in(data, ended)
    }

    /// The rules' end check (`end: if:`): [`Game::exec_hook`] of a
    /// condition taken as its truth (run every turn).
    #[inline(always)]
    pub(crate) fn end_check(&mut self, data: &Data) -> Res<bool> {
        match self.tier() {
            Some(t) => t.end_check(self, data),
            None => Ok(self
                .reference_hook(data, &data.end_if, self.st.active)?
                .truthy()),
        }
    }

    /// [`Game::exec_in`] of the rules' own code for player `p` (setup, turn
    /// and phase code, the end check, the score): no card, arguments or move
    /// name; the tier may run it its own way ([`tier::Tier::hook`]).
    #[inline(always)]
    pub(crate) fn exec_hook(&mut self, data: &Data, code: &Code, p: PlayerId) -> Res<Value> {
        match self.tier() {
            Some(t) => t.hook(self, data, code, p),
            None => self.reference_hook(data, code, p),
        }
    }

    /// [`Game::exec_hook`] with no tier (out of line: the tier's callers
    /// keep only the call).
    #[inline(never)]
    fn reference_hook(&mut self, data: &Data, code: &Code, p: PlayerId) -> Res<Value> {
        let e = exec::Enter::rules(data, code, p);
        let n = code.slots as usize;
        self.framed(
            exec::Charge::Step,
            e,
            n,
            |_| {},
            |g, f| g.run_body(None, code, f),
        )
    }

    pub fn over(&self) -> bool {
        // No player has lost in most games: no count.
        let lost = &self.st.lost;
        let alive = if lost.contains(&true) {
            lost.iter().filter(|l| !**l).count()
        } else {
            lost.len()
        };
        alive <= 1 && self.st.nplayers > 1 || alive == 0
    }

    /// Scores every player and picks the winners.
    pub fn finish(&mut self, ended: Ended) -> Res<Outcome> {
        let data = self.data.clone();
        self.finish_in(&data, ended)
    }

    fn finish_in(&mut self, data: &Data, ended: Ended) -> Res<Outcome> {
        let rule = match ended {
            Ended::Rule if !data.end_rules.is_empty() => self.end_rule(data)?,
            _ => None,
        };
        let n = self.st.nplayers;
        let mut scores = Vec::with_capacity(n as usize);
        let mut keys = Vec::with_capacity(n as usize);
        let mut tiebreaks = Vec::with_capacity(n as usize);
        for p in 0..n {
            let s = self.exec_hook(data, &data.score, p)?;
            let s = self.int(&s, data.score.span)?;
            let t = match &data.tiebreak {
                Some(t) => {
                    let v = self.exec_hook(data, t, p)?;
                    self.int(&v, t.span)?
                }
                None => 0,
            };
            scores.push(s);
            tiebreaks.push(t);
            keys.push((!self.st.lost[p as usize], s, t));
        }
        let best = keys.iter().copied().max().unwrap_or((true, 0, 0));
        let winners = (0..n).filter(|&p| keys[p as usize] == best).collect();
        Ok(Outcome {
            winners,
            scores,
            turns: self.st.turn,
            turns_taken: self.st.turns_taken.clone(),
            limit: ended == Ended::TurnLimit,
            ended,
            rule,
            lost: (0..n).filter(|&p| self.st.lost[p as usize]).collect(),
            tiebreaks: data.tiebreak.is_some().then_some(tiebreaks),
        })
    }

    /// The first named end rule that holds (once, as the game ends).
    #[cold]
    fn end_rule(&mut self, data: &Data) -> Res<Option<u16>> {
        for (i, (_, code)) in data.end_rules.iter().enumerate() {
            if self.exec_hook(data, code, self.st.active)?.truthy() {
                return Ok(Some(i as u16));
            }
        }
        Ok(None)
    }

    /// Tells the [`Watch`] of a point (out of line: rarely set).
    #[cold]
    #[inline(never)]
    pub(crate) fn watched(&mut self, p: Point) -> Res<()> {
        let Some(mut w) = self.watch.take() else {
            return Ok(());
        };
        let r = w.at(self, p);
        self.watch = Some(w);
        r
    }

    /// A run-time error at `span`, naming the current card. Cold: errors
    /// are rare, and the paths that raise them stay out of the hot code.
    #[cold]
    #[inline(never)]
    pub(crate) fn err<T>(&self, span: Span, message: impl Into<String>) -> Res<T> {
        let card = self
            .current_card
            .map(|d| self.data.defs[d as usize].id.clone());
        let card_file = self.current_card.map(|d| self.data.defs[d as usize].file);
        Err(Box::new(Flow::Error(RunError {
            message: message.into(),
            span,
            card,
            site: None,
            card_file,
        })))
    }
}

/// A tier the game holds, lent for as long as the game lives.
fn lend(t: &Arc<dyn tier::Tier>) -> &'static dyn tier::Tier {
    // SAFETY: a tier a game has held is dropped only with the game
    // (`Game::renew` keeps a replaced one in `retired`, and nothing else
    // writes the field); the private `tier_ref` is read only by
    // `Game::tier`, whose callers use it within a call on the game.
    unsafe { &*Arc::as_ptr(t) }
}

/// The values of the declared options, in [`Data::options`]' order.
fn option_vals(data: &Data, options: &HashMap<String, Vec<DefId>>) -> Vec<Value> {
    (data.options.iter())
        .map(|o| match options.get(o) {
            Some(defs) => Value::list(defs.iter().map(|&d| Value::Def(d)).collect()),
            None => Value::None,
        })
        .collect()
}

/// Seats the agents: one per player (first-option agents for seats not
/// given), random ones on their own stream; each seat's bot noted.
fn seat_agents(
    agents: &mut Vec<Box<dyn Agent>>,
    bots: &mut Vec<Option<usize>>,
    players: u8,
    seed: u64,
) {
    agents.resize_with(players as usize, || Box::new(agent::First));
    for (i, a) in agents.iter_mut().enumerate() {
        a.seat(seed, i);
    }
    bots.clear();
    bots.extend(agents.iter().map(|a| a.data_bot()));
}

// Results of compiled code fit two registers (see `Value`).
const _: () = assert!(std::mem::size_of::<Res<Value>>() == 16);
