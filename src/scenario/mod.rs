//! Scenario files: a starting position, scripted decisions and expectations,
//! run by one harness (`fuda scenario FILE`, `fuda test`, and the tests over
//! `tests/scenarios/`), so a new scenario needs no Rust.

pub mod expect;
mod place;
mod read;
mod shapes;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;

use crate::data::locate::find_word;
use crate::data::source::Source;
use crate::data::{Data, DataError, DataErrors, Sources, yamltext};
use crate::engine::agent::{Script, Scripted};
use crate::engine::log::Entry;
use crate::engine::{Agent, Ended, Flow, Game, GameConfig, Outcome};
use crate::lang::compile::{Context, compile_code};
use crate::lang::names::find;
use crate::suggest::{did_you_mean, suggest};
use crate::value::PlayerId;
use expect::{Asked, Failure, Phases, Shared, Tester, When};
use place::place;

/// A scenario: a position, the answers to every decision, and what must
/// hold, where. `fuda test` runs it and compares its transcript with the
/// `.snap` file beside it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    /// The game: `rules/<game>.yaml` of the data folder.
    pub game: String,
    /// What the scenario shows, for people.
    #[serde(default)]
    pub description: Option<String>,
    /// How many players (default 2).
    #[serde(default = "two")]
    pub players: u8,
    /// The game's random seed (default 1).
    #[serde(default = "one")]
    pub seed: u64,
    /// Rules options by name, each a list of card ids: `name: [a, b]`.
    #[serde(default)]
    pub options: BTreeMap<String, Vec<String>>,
    /// `true`: run the rules' setup, then place the cards of `zones:` on top
    /// of it (default: start from empty zones).
    #[serde(default)]
    pub setup: bool,
    /// Cards to place: a shared zone by name, or `p1:` … with that player's zones.
    /// Lists are top card first; a pile zone takes `id: count`. An entry may add
    /// tags and attach to another entry of the list: `spell+activated`, `charm^1`.
    #[serde(default)]
    #[schemars(with = "shapes::Zones")]
    pub zones: BTreeMap<String, serde_norway::Value>,
    /// Counters to set: `p1: {actions: 1}` (counter names of the rules);
    /// globals under `game:`.
    #[serde(default)]
    pub counters: BTreeMap<String, BTreeMap<String, i64>>,
    /// Whose turn it is (default: the setup's choice with `setup: true`, else 1).
    #[serde(default)]
    pub active: Option<u8>,
    /// A phase name of the rules to start the active player's turn at
    /// (default: the turn's start).
    #[serde(default)]
    pub phase: Option<String>,
    /// How many turns to play (default 1).
    #[serde(default = "one_u32")]
    pub turns: u32,
    /// Answers, in order, for every decision (option labels or card ids),
    /// each a text or `{answer, offered, not_offered}`.
    #[serde(default)]
    #[schemars(with = "Option<Vec<shapes::Decision>>")]
    pub decisions: serde_norway::Value,
    /// Conditions in card-text syntax (`me` is P1): a text holds at the
    /// end; `{at | after, turn, that}` at a point.
    #[serde(default)]
    #[schemars(with = "Option<Vec<shapes::Expectation>>")]
    pub expect: serde_norway::Value,
    /// Card text run as P1 once the cards and counters are placed: a position
    /// the other keys cannot say (a board's squares and pieces).
    #[serde(default)]
    pub before: Option<String>,
    /// Die results, in order, for the game's rolls before its RNG takes over.
    #[serde(default)]
    pub dice: Vec<i64>,
    /// The game's result: `{winner, ended, turns}`.
    #[serde(default)]
    #[schemars(with = "Option<shapes::Outcome>")]
    pub result: Option<serde_norway::Value>,
    /// `waiting`: the scenario means to stop at a decision it has no answer
    /// for (otherwise that is a failure).
    #[serde(default)]
    #[schemars(extend("enum" = ["waiting", null]))]
    pub stops: Option<String>,
    /// The player whose decision the scenario stops at, for want of an
    /// answer (implies `stops: waiting`).
    #[serde(default)]
    pub waiting_for: Option<u8>,
    /// `allowed`: scripted answers may be left over (otherwise a failure).
    #[serde(default)]
    #[schemars(extend("enum" = ["allowed", null]))]
    pub unused: Option<String>,
    /// Seats played by an agent instead of the script: `p2: bigmoney` (any
    /// name `fuda run --agents` takes, `ismcts:50` too). Their decisions take
    /// no answer from `decisions:` and are not counted by `after:`.
    #[serde(default)]
    pub seats: BTreeMap<String, String>,
}

fn two() -> u8 {
    2
}
fn one() -> u64 {
    1
}
fn one_u32() -> u32 {
    1
}

/// What a scenario did.
pub struct ScenarioRun {
    pub game: Game,
    pub outcome: Option<Outcome>,
    pub stopped: Option<String>,
    pub unused: usize,
    /// What failed, in words (the snapshot's `FAILED:` lines).
    pub failures: Vec<String>,
    /// The same failures, each at its text in the scenario file.
    pub reports: Vec<DataError>,
    pub description: Option<String>,
    /// A script or rules error that stopped the scenario, as a report.
    pub error: Option<DataError>,
}

/// How a scenario runs: on which tier, logged or not (the transcript is
/// empty when not).
#[derive(Debug, Clone, Copy)]
pub struct Tier {
    pub reference: bool,
    pub logging: bool,
}

impl Default for Tier {
    fn default() -> Tier {
        Tier {
            reference: false,
            logging: true,
        }
    }
}

pub fn run_file(dir: &Source, file: &Path) -> Result<ScenarioRun, DataErrors> {
    run_file_with(dir, file, Tier::default())
}

/// [`run_file`] on a given [`Tier`].
pub fn run_file_with(dir: &Source, file: &Path, tier: Tier) -> Result<ScenarioRun, DataErrors> {
    run_file_in(&Loaded::new(dir.clone()), file, tier)
}

/// The games of one data source, each loaded the first time a scenario
/// names it and shared after: a run of a folder of scenarios loads each
/// game once, not once a file (loading is most of a scenario's time). A
/// game that fails to load is not kept, so each of its scenarios says why.
pub struct Loaded {
    source: Source,
    games: Mutex<HashMap<String, Arc<Data>>>,
}

impl Loaded {
    pub fn new(source: Source) -> Loaded {
        Loaded {
            source,
            games: Mutex::default(),
        }
    }

    /// The game, loaded now or before.
    pub fn game(&self, game: &str) -> Result<Arc<Data>, DataErrors> {
        let known = self.games.lock().ok().and_then(|g| g.get(game).cloned());
        if let Some(d) = known {
            return Ok(d);
        }
        // Loaded with the lock released: another thread may load another
        // game meanwhile (or this one: either copy will do).
        let d = Arc::new(self.source.load(game)?);
        if let Ok(mut g) = self.games.lock() {
            g.insert(game.to_string(), d.clone());
        }
        Ok(d)
    }
}

/// [`run_file_with`], the game taken from (or loaded into) `loaded`.
pub fn run_file_in(loaded: &Loaded, file: &Path, tier: Tier) -> Result<ScenarioRun, DataErrors> {
    let mut sources = Sources::default();
    let mut errors = Vec::new();
    if let Some(why) = crate::data::confine::refuse_given(file) {
        return Err(DataErrors {
            errors: vec![DataError::plain(why, None)],
        });
    }
    let Some(fid) = yamltext::read(&mut sources, file, &mut errors) else {
        return Err(DataErrors { errors });
    };
    if let Some((at, why)) = crate::data::yaml::over_limits(sources.text(fid)) {
        let at = at as u32;
        return Err(DataErrors {
            errors: vec![sources.error(fid, at, at + 1, why, None)],
        });
    }
    let dups = yamltext::check(&sources, fid);
    if !dups.is_empty() {
        return Err(DataErrors { errors: dups });
    }
    let text = sources.text(fid);
    let raw: RawScenario = serde_norway::from_str(text).map_err(|e| {
        let off = e.location().map(|l| l.index()).unwrap_or(0);
        let msg = e.to_string();
        let (msg, help, off) = match yamltext::explain_tab(text, off) {
            Some((m, h, at)) => (m, Some(h), at),
            None => (
                msg.split(" at line ").next().unwrap_or(&msg).to_string(),
                None,
                off,
            ),
        };
        DataErrors {
            errors: vec![sources.error(fid, off as u32, off as u32 + 1, msg, help)],
        }
    })?;
    run_with(loaded.game(&raw.game)?, raw, &sources, fid, tier)
}

pub(crate) fn err_at(
    sources: &Sources,
    fid: u32,
    needle: &str,
    from: usize,
    msg: String,
    help: Option<String>,
) -> DataError {
    let text = sources.text(fid);
    let (a, b) = find_word(text, needle, from).unwrap_or((from, from + 1));
    sources.error(fid, a as u32, b as u32, msg, help)
}

pub fn run(
    data: Arc<Data>,
    raw: RawScenario,
    sources: &Sources,
    fid: u32,
) -> Result<ScenarioRun, DataErrors> {
    run_with(data, raw, sources, fid, Tier::default())
}

/// [`run`] on a given [`Tier`].
pub fn run_with(
    data: Arc<Data>,
    raw: RawScenario,
    sources: &Sources,
    fid: u32,
    tier: Tier,
) -> Result<ScenarioRun, DataErrors> {
    let text = sources.text(fid).to_string();
    let mut errors = Vec::new();
    // Each option on its own, so its errors point at its key.
    let mut options = std::collections::HashMap::new();
    let from = find_word(&text, "options", 0).map_or(0, |(a, _)| a);
    for (k, v) in &raw.options {
        match crate::data::options::resolve(&data, vec![(k.clone(), v.clone())]) {
            Ok(o) => options.extend(o),
            Err(e) => errors.extend(
                (e.errors.into_iter()).map(|e| err_at(sources, fid, k, from, e.message, e.help)),
            ),
        }
    }
    if !errors.is_empty() {
        return Err(DataErrors { errors });
    }
    let mut reader = read::Reader {
        data: &data,
        sources,
        fid,
        text: &text,
        errors,
    };
    let decisions = reader.decisions(&raw.decisions);
    let groups = reader.expect(&raw.expect);
    let result = reader.result(raw.result.as_ref());
    let stops_at = reader.key_at("stops");
    let unused_at = reader.key_at("unused");
    let mut errors = reader.errors;
    let mut flag = |val: &Option<String>, key: &str, word: &str, at: usize| match val.as_deref() {
        None => false,
        Some(w) if w == word => true,
        Some(w) => {
            errors.push(err_at(
                sources,
                fid,
                w,
                at,
                format!("`{key}:` takes `{word}`, not `{w}`"),
                None,
            ));
            false
        }
    };
    let mut stops_waiting = flag(&raw.stops, "stops", "waiting", stops_at);
    let unused_allowed = flag(&raw.unused, "unused", "allowed", unused_at);
    let waiting_at = reader_key_at(&text, "waiting_for");
    let waiting_for = match raw.waiting_for {
        Some(p) if p >= 1 && p <= raw.players => {
            stops_waiting = true;
            Some(p)
        }
        Some(_) => {
            errors.push(err_at(
                sources,
                fid,
                "waiting_for",
                waiting_at,
                format!("`waiting_for:` takes a player, 1 to {}", raw.players),
                None,
            ));
            None
        }
        None => None,
    };
    let mut seated = seats(&raw, &data, sources, fid, &text, &mut errors);
    if let Some(p) = waiting_for
        && let Some(name) = raw.seats.get(&format!("p{p}"))
        && seated[p as usize - 1].is_some()
    {
        errors.push(err_at(
            sources,
            fid,
            "waiting_for",
            waiting_at,
            format!("`waiting_for: {p}` names a seat `{name}` plays: it never waits"),
            Some("name a seat `decisions:` answers for".into()),
        ));
    }
    let tester = Shared::default();
    let phase_points = groups.iter().any(|g| matches!(g.when, When::Phase { .. }));
    *tester.lock() = Tester {
        groups,
        offers: decisions.offers,
        answers_at: decisions.at.clone(),
        ..Default::default()
    };
    // Every seat answers from the one script, in the order the game asks.
    let script = Script::new(decisions.answers.iter().cloned());
    let cfg = GameConfig {
        players: raw.players,
        seed: raw.seed,
        agents: (seated.iter_mut())
            .map(|a| {
                a.take().unwrap_or_else(|| {
                    Box::new(Asked {
                        script: Scripted(script.clone()),
                        tester: tester.clone(),
                    })
                })
            })
            .collect(),
        options,
        logging: tier.logging,
        tier: (!tier.reference).then(|| crate::fast::tier(&data)),
    };
    if raw.players < data.players.0 || raw.players > data.players.1 {
        return Err(DataErrors {
            errors: vec![err_at(
                sources,
                fid,
                "players",
                0,
                format!(
                    "{} is for {} to {} players",
                    data.game, data.players.0, data.players.1
                ),
                None,
            )],
        });
    }
    let mut game = Game::new(data.clone(), cfg);
    game.st.board.dice.extend(raw.dice.iter().copied());
    if phase_points {
        game.watch = Some(Box::new(Phases(tester.clone())));
    }
    if raw.setup
        && let Err(e) = game.exec_code(&data.setup, None, 0, Vec::new())
        && let Flow::Error(e) = *e
    {
        return Err(DataErrors {
            errors: vec![crate::report::run_error(&data, &e)],
        });
    }
    let zones_at = text.find("\nzones:").unwrap_or(0);
    let (mut placed, mut attaches) = (Vec::new(), Vec::new());
    for (key, val) in &raw.zones {
        let key_at = (text[zones_at..].find(key.as_str())).map_or(0, |i| zones_at + i);
        if let Some(p) = player_key(key, raw.players) {
            let serde_norway::Value::Mapping(m) = val else {
                errors.push(err_at(
                    sources,
                    fid,
                    key,
                    zones_at,
                    format!("`{key}` should map zone names to card lists"),
                    None,
                ));
                continue;
            };
            for (zk, zv) in m {
                let zname = zk.as_str().unwrap_or("");
                place(
                    &mut game,
                    &data,
                    sources,
                    fid,
                    key_at,
                    zname,
                    Some(p),
                    zv,
                    &mut placed,
                    &mut attaches,
                    &mut errors,
                );
            }
        } else {
            place(
                &mut game,
                &data,
                sources,
                fid,
                zones_at,
                key,
                None,
                val,
                &mut placed,
                &mut attaches,
                &mut errors,
            );
        }
    }
    place::attach_all(
        &mut game,
        &data,
        sources,
        fid,
        &placed,
        attaches,
        &mut errors,
    );
    for (key, counters) in &raw.counters {
        for (name, v) in counters {
            if key == "game" {
                match find(&data.names.globals, name) {
                    Some(g) => *game.st.global_mut(g) = *v,
                    None => errors.push(err_at(
                        sources,
                        fid,
                        name,
                        0,
                        format!("unknown global counter \"{name}\""),
                        did_you_mean(suggest(name, data.names.globals.iter().map(|s| s.as_str()))),
                    )),
                }
                continue;
            }
            let Some(p) = player_key(key, raw.players) else {
                errors.push(err_at(
                    sources,
                    fid,
                    key,
                    0,
                    format!("counters are set per player (`p1:`) or under `game:`, not `{key}`"),
                    None,
                ));
                continue;
            };
            match find(&data.names.counters, name) {
                Some(c) => *game.st.counter_mut(p, c) = *v,
                None => errors.push(err_at(
                    sources,
                    fid,
                    name,
                    0,
                    format!("unknown counter \"{name}\""),
                    did_you_mean(suggest(
                        name,
                        data.names.counters.iter().map(|s| s.as_str()),
                    )),
                )),
            }
        }
    }
    let active = raw
        .active
        .unwrap_or(if raw.setup { game.st.active + 1 } else { 1 });
    if active == 0 || active > raw.players {
        errors.push(err_at(
            sources,
            fid,
            "active",
            0,
            format!("active must be 1 to {}", raw.players),
            None,
        ));
    }
    game.st.active = active.saturating_sub(1);
    let phase = match &raw.phase {
        Some(p) => match data.turn.phases.iter().position(|x| &x.name == p) {
            Some(i) => Some(i as u16),
            None => {
                let help =
                    did_you_mean(suggest(p, data.turn.phases.iter().map(|x| x.name.as_str())));
                errors.push(err_at(
                    sources,
                    fid,
                    p,
                    0,
                    format!("unknown phase \"{p}\""),
                    help,
                ));
                None
            }
        },
        None => None,
    };
    let before = match &raw.before {
        Some(b) => {
            let origin = crate::data::locate::code_origin(
                &text,
                b,
                text.find("\nbefore:").unwrap_or(0),
                fid,
            );
            match compile_code(b, &data.names, &origin, &Context::default()) {
                Ok(code) => Some(code),
                Err(ce) => {
                    errors.push(sources.error(fid, ce.start, ce.end, ce.message, ce.help));
                    None
                }
            }
        }
        None => None,
    };
    if !errors.is_empty() {
        return Err(DataErrors { errors });
    }
    if let Some(code) = &before
        && let Err(e) = game.exec_code(code, None, 0, Vec::new())
        && let Flow::Error(e) = *e
    {
        return Err(DataErrors {
            errors: vec![crate::report::run_error(&data, &e)],
        });
    }

    let mut stopped = None;
    let mut error = None;
    let outcome = match game.play_turns(phase, raw.turns).map_err(|e| *e) {
        Ok(o) => Some(o),
        Err(Flow::OutOfDecisions) => {
            stopped = Some("out of scripted decisions".to_string());
            None
        }
        Err(Flow::Error(e)) => {
            let r = crate::report::run_error(&data, &e);
            stopped = Some(format!("error: {}", r.message));
            game.log.push(Entry::Text {
                text: format!("error: {}", r.message),
            });
            error = Some(r);
            None
        }
        Err(other) => {
            stopped = Some(format!("{other:?}"));
            None
        }
    };
    let unused = script.left();
    game.watch = None;
    let mut t = std::mem::take(&mut *tester.lock());
    t.end(&mut game);
    let mut fails = std::mem::take(&mut t.failures);
    // A wrong answer first: what follows it is its knock-on.
    let wrong = t.wrong.take();
    if let Some(w) = wrong {
        fails.insert(0, w);
        stopped = Some("at a scripted answer that matches no option".into());
    }
    let wrong = stopped.as_deref() == Some("at a scripted answer that matches no option");
    let dice_left: Vec<i64> = game.st.board.dice.iter().copied().collect();
    if !dice_left.is_empty() && error.is_none() && !wrong {
        let at = reader_key_at(&text, "dice") as u32;
        fails.push(Failure {
            at: (at, at + 4),
            message: format!(
                "{} die result(s) of `dice:` left over ({dice_left:?}): the game rolled {} of {}",
                dice_left.len(),
                raw.dice.len() - dice_left.len(),
                raw.dice.len()
            ),
        });
    }
    if let Some(r) = &result {
        r.compare(&data, outcome.as_ref(), &mut fails);
    }
    if let (Some(p), Some((q, why))) = (waiting_for, &t.waiting)
        && p != q + 1
    {
        let at = waiting_at as u32;
        fails.push(Failure {
            at: (at, at + 11),
            message: format!("expected the scenario to stop waiting for P{p}; it waits for {why}"),
        });
    }
    if let (Some((_, why)), false) = (&t.waiting, stops_waiting)
        && error.is_none()
    {
        let at = text.find("\ndecisions:").map_or(0, |i| i + 1) as u32;
        fails.push(Failure {
            at: decisions.at.last().copied().unwrap_or((at, at + 9)),
            message: format!(
                "the scenario stopped for want of an answer ({why}); answer it, or write `stops: waiting` if it means to stop there"
            ),
        });
    }
    if stops_waiting && t.waiting.is_none() {
        let at = stops_at as u32;
        fails.push(Failure {
            at: (at, at + 5),
            message:
                "expected the scenario to stop waiting for an answer (`stops: waiting`); it did not"
                    .into(),
        });
    }
    if unused > 0 && !unused_allowed && !wrong {
        let first = decisions.answers.len() - unused;
        fails.push(Failure {
            at: decisions.at[first],
            message: format!(
                "{unused} scripted answer(s) unused, from `{}` on: the game asked no more; remove them, or write `unused: allowed`",
                decisions.answers[first]
            ),
        });
    }
    let mut failures: Vec<String> = fails.iter().map(|f| f.message.clone()).collect();
    let reports: Vec<DataError> = (fails.iter())
        .map(|f| {
            let mut e = sources.error(fid, f.at.0, f.at.1.max(f.at.0 + 1), f.message.clone(), None);
            e.label = "expected here".into();
            e
        })
        .collect();
    if let Some(s) = &stopped
        && s.starts_with("error")
    {
        failures.push(s.clone());
    }
    Ok(ScenarioRun {
        game,
        outcome,
        stopped,
        unused,
        failures,
        reports,
        description: raw.description,
        error,
    })
}

/// Where a top-level key starts (0 if absent).
fn reader_key_at(text: &str, key: &str) -> usize {
    let line = format!("{key}:");
    if text.starts_with(&line) {
        return 0;
    }
    text.find(&format!("\n{line}")).map_or(0, |i| i + 1)
}

/// The agents `seats:` names, by seat (none: the script answers).
fn seats(
    raw: &RawScenario,
    data: &Data,
    sources: &Sources,
    fid: u32,
    text: &str,
    errors: &mut Vec<DataError>,
) -> Vec<Option<Box<dyn Agent>>> {
    let mut out: Vec<Option<Box<dyn Agent>>> = (0..raw.players).map(|_| None).collect();
    let at = reader_key_at(text, "seats");
    for (key, name) in &raw.seats {
        let Some(p) = player_key(key, raw.players) else {
            let msg = format!(
                "`seats:` takes players `p1` to `p{}`, not `{key}`",
                raw.players
            );
            errors.push(err_at(sources, fid, key, at, msg, None));
            continue;
        };
        match crate::search::parse(name, data) {
            Some(a) => out[p as usize] = Some(a),
            None => {
                let known = crate::search::names(data);
                let help = did_you_mean(suggest(name, known.iter().map(|s| s.as_str())))
                    .or_else(|| Some(format!("agents: {}", known.join(", "))));
                let msg = format!("unknown agent \"{name}\"");
                errors.push(err_at(sources, fid, name, at, msg, help));
            }
        }
    }
    out
}

fn player_key(key: &str, players: u8) -> Option<PlayerId> {
    let n: u8 = key.strip_prefix('p')?.parse().ok()?;
    (n >= 1 && n <= players).then(|| n - 1)
}

impl ScenarioRun {
    /// The transcript, the end state and the checks, as one text (the snapshot).
    pub fn render(&self, viewer: Option<PlayerId>) -> String {
        let data = &self.game.data;
        let mut s = String::new();
        for (_, line) in crate::engine::log::render_all(data, &self.game.log, viewer) {
            s += &line;
            s.push('\n');
        }
        match (&self.outcome, &self.stopped) {
            (_, Some(why)) => s += &format!("-- stopped: {why}\n"),
            (Some(o), None) if o.ended == Ended::Unfinished => {
                s += "-- no result: the scenario's turns are played; the game goes on\n"
            }
            (Some(o), None) => s += &format!("{}\n", crate::report::outcome_line(data, o)),
            (None, None) => {}
        }
        if self.unused > 0 {
            s += &format!("-- {} scripted answer(s) unused\n", self.unused);
        }
        s += "-- final state --\n";
        s += &self.game.dump(viewer);
        for f in &self.failures {
            s += &format!("FAILED: {f}\n");
        }
        s
    }
}
