//! The lab's commands (`sim --out/--cards/--swap`, `tournament`, `sweep`,
//! `report`): the command line turned into [`crate::lab`] runs.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use super::{GameArgs, prepare, prepare_rest, report, say};
use crate::data::source::Source;
use crate::data::{Data, DataError};
use crate::lab::cards::card_stats;
use crate::lab::grid::grid;
use crate::lab::interval::points;
use crate::lab::play::{self, Run, Seat, Variant};
use crate::lab::report::{cards_text, standings_text, summary_text, sweep_points};
use crate::lab::shard::Shard;
use crate::lab::sim::{self, SimRun};
use crate::lab::summary::summarize;
use crate::lab::{sweep, table, tournament};

/// What a lab command writes and prints besides its own table.
pub struct LabOut {
    pub games: u64,
    pub shard: Shard,
    pub jobs: usize,
    pub out: Option<PathBuf>,
    pub cards: bool,
    pub json: bool,
}

/// `fuda sim` with the lab's flags.
pub fn sim(dir: &Source, a: &GameArgs, swap: bool, o: &LabOut) -> ExitCode {
    let (data, cfg) = match prepare(dir, a, false) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let how = SimRun {
        games: o.games,
        shard: o.shard,
        swap,
        cards: o.cards,
        jobs: o.jobs,
        progress: !o.json,
    };
    let run = sim::sim(data.clone(), &cfg, &a.agents, &how);
    finish(&[data], run, o, Kind::Sim)
}

#[derive(PartialEq)]
enum Kind {
    Sim,
    Tournament,
    Sweep,
}

/// Plays the variants (all seeds: only `sim` takes a shard).
fn play_all(variants: &[Variant], seed: u64, o: &LabOut, cards: bool) -> Result<Run, String> {
    let plan = play::Plan {
        seed,
        games: o.games,
        shard: Default::default(),
    };
    play::run(variants, plan, o.jobs, cards, !o.json)
}

/// Prints the tables of a run of `datas` (one per variant), writes the
/// rows, reports the errors.
fn finish(datas: &[Arc<Data>], run: Result<Run, String>, o: &LabOut, kind: Kind) -> ExitCode {
    let cards = o.cards || kind == Kind::Sweep;
    if cards && datas.iter().any(|d| d.stats.iter().all(|e| e.is_empty())) {
        crate::errln!(
            "note: the rules declare no `stats:` events: gained, played and drawn stay 0 (the final deck is counted)"
        );
    }
    let run = match run {
        Ok(r) => r,
        Err(e) => {
            crate::errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let Run {
        rows,
        errors,
        stopped,
        planned,
        secs,
    } = run;
    for g in &errors {
        let data = &datas[g.variant];
        let head = format!(
            "{} game(s) stopped by this error; first seed {}",
            g.count, g.first_seed
        );
        match &g.error {
            Some(e) => crate::errln!(
                "{head}\n{:?}",
                miette::Report::new(crate::report::run_error(data, e))
            ),
            None => crate::errln!("{head}\nerror: {}", g.message),
        }
    }
    if stopped {
        crate::errln!(
            "stopped: {} of {planned} games played (Ctrl-C); the rows so far are kept",
            rows.games.len()
        );
    }
    let sums = summarize(&rows.games);
    let stats = if cards { card_stats(&rows) } else { Vec::new() };
    let st = (kind == Kind::Tournament).then(|| tournament::standings(&rows.games));
    let mut written = Vec::new();
    if let Some(path) = &o.out {
        match table::write_rows(path, &rows, cards) {
            Ok(w) => written = w,
            Err(e) => {
                crate::errln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    if o.json {
        let v = serde_json::json!({
            "games": rows.games.len(),
            "planned": planned,
            "stopped": stopped,
            "summaries": sums,
            "cards": stats,
            "standings": st,
            "errors": errors.iter().map(|g| serde_json::json!({"message": g.message, "count": g.count, "first_seed": g.first_seed})).collect::<Vec<_>>(),
            "files": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        });
        say(format_args!("{v}"));
    } else {
        say(format_args!("{} games in {secs:.1}s", rows.games.len()));
        if let Some(st) = &st {
            crate::outp!("{}", standings_text(st));
        } else {
            for s in &sums {
                crate::outp!("{}", summary_text(s));
            }
        }
        if kind == Kind::Sweep {
            if let Some((name, pts)) = sweep_points(&rows, &stats) {
                let (n, what) = name.split_once('|').unwrap_or((&name, ""));
                say(format_args!(
                    "sweep of {n}: {what}, 95% intervals (Newcombe)"
                ));
                if !n.starts_with("rules.") && !n.starts_with("set.") {
                    say(format_args!(
                        "  n: player-games with the card in their final deck, and without"
                    ));
                }
                for p in pts {
                    let x = &p.label;
                    let [with, without] = p.n;
                    match p.value {
                        Some((_, d, lo, hi)) => say(format_args!(
                            "  {n}={x:<6} {d:+.1} [{lo:+.1}, {hi:+.1}]  n {with} with, {without} without"
                        )),
                        None => say(format_args!(
                            "  {n}={x:<6} -  n {with} with, {without} without (no comparison)"
                        )),
                    }
                }
            } else if let Some(g) = grid(&rows, &stats) {
                let [a, b] = &g.names;
                say(format_args!(
                    "grid of {a} × {b}: {}, 95% intervals (Newcombe)",
                    g.what
                ));
                for (x, row) in g.rows.iter().zip(&g.cells) {
                    for (y, c) in g.cols.iter().zip(row) {
                        let Some((d, [with, without])) = c else {
                            continue;
                        };
                        let d = d.map_or("-".to_string(), points);
                        say(format_args!(
                            "  {a}={x}, {b}={y}  {d}  n {with} with, {without} without"
                        ));
                    }
                }
            }
        } else if cards {
            crate::outp!("{}", cards_text(&stats, usize::MAX));
        }
        for p in &written {
            say(format_args!("wrote {}", p.display()));
        }
    }
    if errors.is_empty() && !stopped {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `fuda tournament`: every pair of entrants, seats swapped.
pub fn tournament(dir: &Source, a: &GameArgs, decks: &[String], o: &LabOut) -> ExitCode {
    let data = match dir.load(&a.game) {
        Ok(d) => Arc::new(d),
        Err(e) => return report(e),
    };
    let per = sim::seat_options(&data, 2);
    let deck_opt = match (&per[..], decks.is_empty()) {
        (_, true) => None,
        ([one], false) => Some(one.clone()),
        _ => {
            return super::usage(DataError::plain(
                format!(
                    "--decks: {} has {} options with one value per seat (two players); --decks needs exactly one",
                    data.game,
                    per.len()
                ),
                Some("set decks per seat with --set NAME=a,b and compare agents instead".into()),
            ));
        }
    };
    let n = a.agents.len().max(decks.len());
    if n < 2 || (a.agents.len() > 1 && decks.len() > 1 && a.agents.len() != decks.len()) {
        return super::usage(DataError::plain(
            "a tournament needs two or more entrants: --agents a,b,… and/or --decks x,y,… (as many of each, or one to share)".to_string(),
            None,
        ));
    }
    let fallback = data
        .default_agent
        .clone()
        .unwrap_or_else(|| "random".into());
    let entrant = |i: usize| -> (String, Option<String>) {
        let agent = a
            .agents
            .get(i)
            .or(a.agents.first())
            .cloned()
            .unwrap_or_else(|| fallback.clone());
        (agent, decks.get(i).cloned())
    };
    let label = |i: usize| {
        let (ag, dk) = entrant(i);
        match dk {
            Some(d) if a.agents.len() > 1 => format!("{ag}+{d}"),
            Some(d) => d,
            None => ag,
        }
    };
    let mut seatings = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (ai, di) = entrant(i);
            let (aj, dj) = entrant(j);
            let mut args = a.clone();
            args.players = Some(2);
            args.agents = vec![ai.clone(), aj.clone()];
            if let (Some(name), Some(di), Some(dj)) = (&deck_opt, &di, &dj) {
                args.set.push(format!("{name}={di},{dj}"));
            }
            let (data, cfg) = match prepare_rest(data.clone(), &args, 2, false) {
                Ok(x) => x,
                Err(code) => return code,
            };
            let seat = |k: usize, agent: String, who: usize| Seat {
                entrant: label(who).into(),
                agent,
                options: deck_opt
                    .iter()
                    .filter_map(|name| Some((name.clone(), *cfg.options.get(name)?.get(k)?)))
                    .collect(),
            };
            let seats = vec![seat(0, ai, i), seat(1, aj, j)];
            let _ = &data;
            seatings.push(play::rotate(&cfg, &seats, 0));
            seatings.push(play::rotate(&cfg, &seats, 1));
        }
    }
    let variants = vec![Variant {
        label: String::new(),
        data: data.clone(),
        seatings,
    }];
    let run = play_all(&variants, a.seed, o, false);
    finish(&[data], run, o, Kind::Tournament)
}

/// `fuda sweep`: the game rerun for each value (each point of the grid).
pub fn sweep(dir: &Source, a: &GameArgs, vary: &[String], swap: bool, o: &LabOut) -> ExitCode {
    let mut varies = Vec::new();
    for v in vary {
        match sweep::parse(v) {
            Ok(x) => varies.push(x),
            Err(e) => return super::usage(DataError::plain(e, None)),
        }
    }
    if varies.is_empty() {
        return super::usage(DataError::plain(
            "a sweep needs --vary CARD.PROP=FROM..TO (or rules.KEY=…, or set.OPTION=…)".to_string(),
            None,
        ));
    }
    let mut variants = Vec::new();
    for (label, values) in sweep::grid(&varies) {
        let files = match sweep::overlay(dir, &a.game, &varies, &values) {
            Ok(f) => f,
            Err(e) => return super::usage(DataError::plain(e, None)),
        };
        let data = match dir.load_over(&a.game, files) {
            Ok(d) => Arc::new(d),
            Err(e) => {
                crate::errln!("with {label}:");
                return report(e);
            }
        };
        let players = a.players.unwrap_or(data.players.2);
        // A varied option is set after the command line's, so it wins.
        let mut a = a.clone();
        a.set.extend(sweep::sets(&varies, &values));
        let (data, cfg) = match prepare_rest(data, &a, players, false) {
            Ok(x) => x,
            Err(code) => return code,
        };
        let seats = sim::seats(&data, &cfg, &a.agents);
        let n = if swap { seats.len() } else { 1 };
        let seatings = (0..n).map(|r| play::rotate(&cfg, &seats, r)).collect();
        variants.push(Variant {
            label,
            data,
            seatings,
        });
    }
    let run = play_all(&variants, a.seed, o, true);
    let datas: Vec<Arc<Data>> = variants.iter().map(|v| v.data.clone()).collect();
    finish(&datas, run, o, Kind::Sweep)
}

/// `fuda report FILE --html OUT --png DIR`: the tables, the page of plots,
/// and each plot alone.
pub fn report_cmd(file: &Path, html: Option<&Path>, png: Option<&Path>) -> ExitCode {
    let rows = match table::read_rows(file) {
        Ok(r) => r,
        Err(e) => {
            crate::errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    for s in summarize(&rows.games) {
        crate::outp!("{}", summary_text(&s));
    }
    let stats = card_stats(&rows);
    crate::outp!("{}", cards_text(&stats, 20));
    if let Some(out) = html {
        let title = format!("fuda report: {}", file.display());
        let html = crate::lab::report::html(&title, &rows);
        if let Err(e) = crate::data::confine::write_own(out, html.as_bytes()) {
            crate::errln!("error: {e}");
            return ExitCode::from(1);
        }
        say(format_args!("wrote {}", out.display()));
    }
    if let Some(dir) = png {
        match super::png::write_pngs(&crate::lab::report::plots(&rows), dir) {
            Ok(written) => {
                for p in written {
                    say(format_args!("wrote {}", p.display()));
                }
            }
            Err(e) => {
                crate::errln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}
