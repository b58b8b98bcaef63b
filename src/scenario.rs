//! Scenario files: a starting position, scripted decisions and expectations,
//! run by one harness (`fuda scenario FILE`, and the insta test over
//! `tests/scenarios/`), so a new scenario needs no Rust.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use crate::data::locate::{find_key, find_word};
use crate::data::{Data, DataError, DataErrors, Sources, load, yamltext};
use crate::engine::agent::{Script, Scripted};
use crate::engine::log::Entry;
use crate::engine::{Agent, Flow, Game, GameConfig, Outcome};
use crate::lang::compile::{Context, compile_expr};
use crate::lang::names::find;
use crate::suggest::{did_you_mean, suggest};
use crate::value::{PlayerId, ZoneRef};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub game: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default = "two")]
    pub players: u8,
    #[serde(default = "one")]
    pub seed: u64,
    /// Rules options by name, each a list of card ids: `name: [a, b]`.
    #[serde(default)]
    pub options: BTreeMap<String, Vec<String>>,
    /// Run the rules' setup before placing cards (default: start empty).
    #[serde(default)]
    pub setup: bool,
    /// Cards to place: a shared zone by name, or `p1:` … with that player's zones.
    /// Lists are top card first; a pile zone takes `id: count`. An entry may add
    /// tags and attach to another entry of the list: `spell+activated`, `charm^1`.
    #[serde(default)]
    pub zones: BTreeMap<String, serde_norway::Value>,
    /// Counters to set: `p1: {actions: 1}`; globals under `game:`.
    #[serde(default)]
    pub counters: BTreeMap<String, BTreeMap<String, i64>>,
    /// Whose turn it is (default: the setup's choice with `setup: true`, else 1).
    #[serde(default)]
    pub active: Option<u8>,
    /// Phase to start the active player's turn at (default: the turn's start).
    #[serde(default)]
    pub phase: Option<String>,
    /// How many turns to play (default 1).
    #[serde(default = "one_u32")]
    pub turns: u32,
    /// Answers, in order, for every decision (option labels or card ids).
    #[serde(default)]
    pub decisions: Vec<String>,
    /// Conditions that must hold at the end, in card-text syntax (`me` is P1).
    #[serde(default)]
    pub expect: Vec<String>,
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
    pub failures: Vec<String>,
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

pub fn run_file(dir: &Path, file: &Path) -> Result<ScenarioRun, DataErrors> {
    run_file_with(dir, file, Tier::default())
}

/// [`run_file`] on a given [`Tier`].
pub fn run_file_with(dir: &Path, file: &Path, tier: Tier) -> Result<ScenarioRun, DataErrors> {
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
    let data = Arc::new(load::load_game(dir, &raw.game)?);
    run_with(data, raw, &sources, fid, tier)
}

fn err_at(
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
    // Every seat answers from the one script, in the order the game asks.
    let script = Script::new(raw.decisions.iter().cloned());
    let cfg = GameConfig {
        players: raw.players,
        seed: raw.seed,
        agents: (0..raw.players)
            .map(|_| Box::new(Scripted(script.clone())) as Box<dyn Agent>)
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
    if raw.setup
        && let Err(e) = game.exec_code(&data.setup, None, 0, Vec::new())
        && let Flow::Error(e) = *e
    {
        return Err(DataErrors {
            errors: vec![crate::report::run_error(&data, &e)],
        });
    }
    let zones_at = text.find("\nzones:").unwrap_or(0);
    for (key, val) in &raw.zones {
        let key_at = find_key(&text, key, "", zones_at).unwrap_or_else(|| {
            text[zones_at..]
                .find(key.as_str())
                .map(|i| zones_at + i)
                .unwrap_or(0)
        });
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
                &mut errors,
            );
        }
    }
    for (key, counters) in &raw.counters {
        for (name, v) in counters {
            if key == "game" {
                match find(&data.names.globals, name) {
                    Some(g) => game.st.globals[g as usize] = *v,
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
    let origin_of = |e: &str| {
        crate::data::locate::code_origin(&text, e, text.find("\nexpect:").unwrap_or(0), fid)
    };
    let mut expects = Vec::new();
    for e in &raw.expect {
        match compile_expr(e, &data.names, &origin_of(e), &Context::default()) {
            Ok(code) => expects.push((e.clone(), code)),
            Err(ce) => errors.push(sources.error(fid, ce.start, ce.end, ce.message, ce.help)),
        }
    }
    if !errors.is_empty() {
        return Err(DataErrors { errors });
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
    let mut failures = Vec::new();
    for (text, code) in &expects {
        match game.exec_code(code, None, 0, Vec::new()).map_err(|e| *e) {
            Ok(v) if v.truthy() => {}
            Ok(v) => failures.push(format!("expected `{text}`, got {}", game.show(&v))),
            Err(Flow::Error(e)) => failures.push(format!("expected `{text}`: {}", e.message)),
            Err(f) => failures.push(format!("expected `{text}`: {f:?}")),
        }
    }
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
        description: raw.description,
        error,
    })
}

fn player_key(key: &str, players: u8) -> Option<PlayerId> {
    let n: u8 = key.strip_prefix('p')?.parse().ok()?;
    (n >= 1 && n <= players).then(|| n - 1)
}

#[allow(clippy::too_many_arguments)]
fn place(
    game: &mut Game,
    data: &Data,
    sources: &Sources,
    fid: u32,
    from: usize,
    zname: &str,
    owner: Option<PlayerId>,
    val: &serde_norway::Value,
    errors: &mut Vec<DataError>,
) {
    let Some(z) = find(&data.names.zones, zname) else {
        let help = did_you_mean(suggest(zname, data.names.zones.iter().map(|s| s.as_str())));
        errors.push(err_at(
            sources,
            fid,
            zname,
            from,
            format!("unknown zone \"{zname}\""),
            help,
        ));
        return;
    };
    let shared = data.zones[z as usize].shared;
    if shared != owner.is_none() {
        let msg = if shared {
            format!("`{zname}` is shared: put it at the top level of `zones:`")
        } else {
            format!("`{zname}` belongs to a player: put it under `p1:`…")
        };
        errors.push(err_at(sources, fid, zname, from, msg, None));
        return;
    }
    let zr = ZoneRef {
        zone: z,
        owner: owner.unwrap_or(0),
    };
    let inst = game.st.inst(zr);
    game.st.zones[inst].clear();
    let mut items: Vec<(String, i64)> = Vec::new();
    match val {
        serde_norway::Value::Sequence(s) => {
            for v in s.iter().rev() {
                items.push((v.as_str().unwrap_or("").to_string(), 1));
            }
        }
        serde_norway::Value::Mapping(m) => {
            for (k, v) in m {
                items.push((
                    k.as_str().unwrap_or("").to_string(),
                    v.as_i64().unwrap_or(1),
                ));
            }
        }
        serde_norway::Value::Null => {}
        _ => errors.push(err_at(
            sources,
            fid,
            zname,
            from,
            format!("`{zname}` takes a list of card ids (or id: count)"),
            None,
        )),
    }
    // A list entry may carry tags and an attachment: `amulet_shot+activated`,
    // `lucky_charm^1` (attached to the first card of the same list).
    let written = items.len();
    let mut made: Vec<Option<u32>> = vec![None; written];
    let mut attach: Vec<(u32, usize)> = Vec::new();
    for (k, (spec, n)) in items.into_iter().enumerate() {
        let mut parts = spec.split('+');
        let head = parts.next().unwrap_or("");
        let (id, host) = match head.split_once('^') {
            Some((id, h)) => (id.to_string(), h.parse::<usize>().ok()),
            None => (head.to_string(), None),
        };
        let mut marks = 0u64;
        for tag in parts {
            match find(&data.names.tags, tag) {
                Some(t) => marks |= crate::value::bit(t),
                None => {
                    let help =
                        did_you_mean(suggest(tag, data.names.tags.iter().map(|s| s.as_str())));
                    errors.push(err_at(
                        sources,
                        fid,
                        tag,
                        from,
                        format!("unknown tag \"{tag}\""),
                        help,
                    ));
                }
            }
        }
        if n > 100_000 || game.st.objs.len() + n.max(0) as usize > crate::engine::MAX_OBJECTS {
            errors.push(err_at(
                sources,
                fid,
                &id,
                from,
                format!("{n} cards of `{id}` are too many (at most 100000 per entry)"),
                None,
            ));
            continue;
        }
        match data.names.def(&id) {
            Some(d) => {
                if n <= 0 && game.st.layouts[z as usize].piles {
                    // `id: 0` lays out an empty pile.
                    game.st.zones[inst].push_empty_pile(d);
                }
                for _ in 0..n.max(0) {
                    let c = game.st.new_obj(data, d, zr);
                    game.st.objs[c as usize].tags |= marks;
                    game.st.tags_seen |= marks;
                    // Entries were reversed (bottom first); k counts from the bottom.
                    made[written - 1 - k] = Some(c);
                    if let Some(h) = host {
                        attach.push((c, h));
                    }
                }
            }
            None => {
                let help = did_you_mean(suggest(&id, data.names.defs.iter().map(|s| s.as_str())));
                errors.push(err_at(
                    sources,
                    fid,
                    &id,
                    from,
                    format!("unknown card \"{id}\""),
                    help,
                ));
            }
        }
    }
    for (c, h) in attach {
        match h
            .checked_sub(1)
            .and_then(|i| made.get(i).copied().flatten())
        {
            Some(host) => game.st.set_host(c, Some(host)),
            None => errors.push(err_at(
                sources,
                fid,
                zname,
                from,
                format!("`^{h}`: no card {h} in `{zname}` to attach to"),
                None,
            )),
        }
    }
}

impl ScenarioRun {
    /// The transcript, the end state and the checks, as one text (the snapshot).
    pub fn render(&self, viewer: Option<PlayerId>) -> String {
        let data = &self.game.data;
        let mut s = String::new();
        if let Some(d) = &self.description {
            s += &format!("# {}\n", d.trim());
        }
        for (_, line) in crate::engine::log::render_all(data, &self.game.log, viewer) {
            s += &line;
            s.push('\n');
        }
        match (&self.outcome, &self.stopped) {
            (_, Some(why)) => s += &format!("-- stopped: {why}\n"),
            (Some(o), None) => s += &format!("{}\n", crate::report::outcome_line(o)),
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
