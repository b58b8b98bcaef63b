//! The `fuda` command line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::data::{Data, DataError, DataErrors, load};
use crate::engine::log::Entry;
use crate::engine::{AgentKind, Game, GameConfig, Outcome};
use crate::suggest::{did_you_mean, suggest};
use crate::value::DefId;

#[derive(Parser)]
#[command(
    name = "fuda",
    version,
    about = "A declarative card-game engine: rules and cards are data"
)]
struct Cli {
    /// Data directory holding rules/ and cards/ (default: the repository's).
    #[arg(long, global = true, value_name = "DIR")]
    data: Option<PathBuf>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Clone)]
pub struct GameArgs {
    /// The game (a file rules/<game>.yaml).
    pub game: String,
    /// Number of players (default: the rules' default).
    #[arg(long)]
    pub players: Option<u8>,
    /// Seed of the game's random number generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Agents per seat, comma-separated: first, random, human, or a bot from the rules.
    #[arg(long, value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Cards for the rules' `kingdom` option (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    pub kingdom: Vec<String>,
    /// Cards for the rules' `decks` option (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    pub decks: Vec<String>,
    /// Any rules option: --set name=id1,id2
    #[arg(long = "set", value_name = "NAME=IDS")]
    pub set: Vec<String>,
    /// Run on the reference tier: no path that exists only for speed.
    #[arg(long)]
    pub reference: bool,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play one game and print its transcript.
    Run {
        #[command(flatten)]
        game: GameArgs,
        /// JSON lines; the last line is the result.
        #[arg(long)]
        json: bool,
        /// Show the transcript as player N (from 1) may see it.
        #[arg(long)]
        view: Option<u8>,
        /// Save the game (seed, options, decisions) to this file.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Replay a saved game; `--upto N` stops after N decisions (undo).
    Replay {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        #[arg(long)]
        view: Option<u8>,
        #[arg(long)]
        upto: Option<usize>,
        /// Run on the reference tier: no path that exists only for speed.
        #[arg(long)]
        reference: bool,
    },
    /// Validate rules, cards and scripts of one game or all.
    Check { game: Option<String> },
    /// Run a scenario file and print its transcript.
    Scenario {
        file: PathBuf,
        /// The transcript as player N sees it.
        #[arg(long)]
        view: Option<u8>,
        /// Run on the reference tier: no path that exists only for speed.
        #[arg(long)]
        reference: bool,
    },
    /// Play many games and report win rates and speed.
    Sim {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Worker threads (0: one per CPU); results do not depend on it.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Print one JSON object: games, wins and win_rates per seat, draws,
        /// avg_turns, turn_limit, games_per_sec, errors.
        #[arg(long)]
        json: bool,
    },
    /// Play against bots in the terminal (you are player 1).
    Play {
        #[command(flatten)]
        game: GameArgs,
    },
}

/// Stack of the thread that runs a command. Nesting in data is limited (code
/// depth, effect depth, script call levels) but the limits multiply: a verb
/// nested 200 deep may run deep expressions and Rhai at each level. Pages are
/// only touched when used.
pub const STACK_SIZE: usize = 512 << 20;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match std::thread::Builder::new()
        .name("fuda".into())
        .stack_size(STACK_SIZE)
        .spawn(move || command(cli))
    {
        // A panic was already printed; 101 is what Rust exits with for one.
        Ok(h) => h.join().unwrap_or(ExitCode::from(101)),
        Err(e) => {
            eprintln!("error: cannot start the main thread: {e}");
            ExitCode::from(1)
        }
    }
}

fn command(cli: Cli) -> ExitCode {
    let dir = data_dir(cli.data.as_deref());
    if !dir.is_dir() {
        eprintln!(
            "error: --data {}: no such folder (it should hold rules/ and cards/)",
            dir.display()
        );
        return ExitCode::from(2);
    }
    match cli.cmd {
        Cmd::Run {
            game,
            json,
            view,
            save,
        } => run(&dir, &game, json, view, save.as_deref()),
        Cmd::Replay {
            file,
            json,
            view,
            upto,
            reference,
        } => replay(&dir, &file, json, view, upto, reference),
        Cmd::Check { game } => check(&dir, game.as_deref()),
        Cmd::Scenario {
            file,
            view,
            reference,
        } => match crate::scenario::run_file_with(
            &dir,
            &file,
            crate::scenario::Tier {
                reference,
                logging: true,
            },
        ) {
            Ok(mut r) => {
                let _ = std::io::Write::write_all(
                    &mut std::io::stdout().lock(),
                    r.render(view.map(|v| v.saturating_sub(1))).as_bytes(),
                );
                if let Some(e) = r.error.take() {
                    eprintln!("{:?}", miette::Report::new(e));
                }
                if r.failures.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => report(e),
        },
        Cmd::Sim {
            game,
            games,
            jobs,
            json,
        } => crate::sim::sim(&dir, &game, games, jobs, json),
        Cmd::Play { mut game } => {
            if game.agents.is_empty() {
                game.agents = vec!["human".into(), "random".into()];
            }
            run(&dir, &game, false, Some(1), None)
        }
    }
}

/// `--data`, else the current directory if it holds rules/, else the repository.
pub fn data_dir(arg: Option<&Path>) -> PathBuf {
    match arg {
        Some(p) => p.to_path_buf(),
        None if Path::new("rules").is_dir() => PathBuf::from("."),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

/// A line to stdout. A reader that went away (`fuda check | head -1`) is no
/// error of ours: the line is dropped, as the transcript's are.
pub fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// Bad command-line usage: exit 2, as the README promises.
pub fn usage(e: DataError) -> ExitCode {
    eprintln!("{:?}", miette::Report::new(e));
    ExitCode::from(2)
}

pub fn report(e: DataErrors) -> ExitCode {
    for err in e.errors {
        eprintln!("{:?}", miette::Report::new(err));
    }
    ExitCode::from(1)
}

fn check(dir: &Path, game: Option<&str>) -> ExitCode {
    let games = match game {
        Some(g) => vec![g.to_string()],
        None => load::list_games(dir),
    };
    if games.is_empty() {
        eprintln!("error: no games in {}: no rules/<game>.yaml", dir.display());
        return ExitCode::from(1);
    }
    let mut bad = false;
    for g in games {
        match load::load_game(dir, &g) {
            Ok(d) => say(format_args!(
                "{g}: ok ({} cards, {} verbs, {} abilities)",
                d.defs.len(),
                d.verbs.len(),
                d.triggers.len()
            )),
            Err(e) => {
                bad = true;
                eprintln!("{g}: {} error(s)", e.errors.len());
                report(e);
            }
        }
    }
    if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Loads a game and turns command-line choices into a game configuration;
/// on failure, reports it and gives the exit code.
pub fn prepare(
    dir: &Path,
    a: &GameArgs,
    logging: bool,
) -> Result<(Arc<Data>, GameConfig), ExitCode> {
    let data = Arc::new(load::load_game(dir, &a.game).map_err(report)?);
    let players = a.players.unwrap_or(data.players.2);
    if players < data.players.0 || players > data.players.1 {
        let (min, max) = (data.players.0, data.players.1);
        let Some(asked) = a.players else {
            // The rules' own default is out of their range: a data error.
            let e = DataError::plain(
                format!(
                    "{}: the default of {players} players is not within {min} to {max}",
                    data.game
                ),
                None,
            );
            return Err(report(DataErrors { errors: vec![e] }));
        };
        return Err(usage(DataError::plain(
            format!(
                "--players {asked}: {} is for {min} to {max} players",
                data.game
            ),
            None,
        )));
    }
    prepare_rest(data, a, players, logging).map_err(report)
}

fn prepare_rest(
    data: Arc<Data>,
    a: &GameArgs,
    players: u8,
    logging: bool,
) -> Result<(Arc<Data>, GameConfig), DataErrors> {
    let one = |e: DataError| DataErrors { errors: vec![e] };
    let mut agents = Vec::new();
    for name in &a.agents {
        match AgentKind::parse(name, &data) {
            Some(k) => agents.push(k),
            None => {
                let known: Vec<&str> = ["first", "random", "human"]
                    .into_iter()
                    .chain(data.bots.iter().map(|(n, _)| n.as_str()))
                    .collect();
                let help = did_you_mean(suggest(name, known.iter().copied()))
                    .or_else(|| Some(format!("agents: {}", known.join(", "))));
                return Err(one(DataError::plain(
                    format!("unknown agent \"{name}\""),
                    help,
                )));
            }
        }
    }
    // Seats without a named agent take the last one named (all random if none).
    let last = agents
        .last()
        .cloned()
        .unwrap_or_else(|| AgentKind::parse("random", &data).unwrap_or(AgentKind::First));
    agents.resize(players as usize, last);
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    if !a.kingdom.is_empty() {
        sets.push(("kingdom".into(), a.kingdom.clone()));
    }
    if !a.decks.is_empty() {
        sets.push(("decks".into(), a.decks.clone()));
    }
    for s in &a.set {
        let Some((k, v)) = s.split_once('=') else {
            return Err(one(DataError::plain(
                format!("--set wants NAME=IDS, got \"{s}\""),
                None,
            )));
        };
        sets.push((
            k.to_string(),
            v.split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect(),
        ));
    }
    let options = resolve_options(&data, sets)?;
    Ok((
        data,
        GameConfig {
            players,
            seed: a.seed,
            agents,
            options,
            logging,
            reference: a.reference,
        },
    ))
}

pub fn resolve_options(
    data: &Data,
    sets: Vec<(String, Vec<String>)>,
) -> Result<HashMap<String, Vec<DefId>>, DataErrors> {
    let mut errors = Vec::new();
    let mut options = HashMap::new();
    for (k, ids) in sets {
        if !data.options.contains(&k) {
            let help =
                did_you_mean(suggest(&k, data.options.iter().map(|s| s.as_str()))).or_else(|| {
                    Some(format!(
                        "options of {}: {}",
                        data.game,
                        data.options.join(", ")
                    ))
                });
            errors.push(DataError::plain(
                format!("{} has no option \"{k}\"", data.game),
                help,
            ));
            continue;
        }
        let mut defs = Vec::new();
        for id in ids {
            match data.names.def(&id) {
                Some(d) => defs.push(d),
                None => {
                    let help =
                        did_you_mean(suggest(&id, data.names.defs.iter().map(|s| s.as_str())));
                    errors.push(DataError::plain(
                        format!("unknown card \"{id}\" in option {k}"),
                        help,
                    ));
                }
            }
        }
        options.insert(k, defs);
    }
    if errors.is_empty() {
        Ok(options)
    } else {
        Err(DataErrors { errors })
    }
}

fn run(dir: &Path, a: &GameArgs, json: bool, view: Option<u8>, save: Option<&Path>) -> ExitCode {
    let (data, cfg) = match prepare(dir, a, true) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut game = Game::new(data.clone(), cfg);
    finish_run(&mut game, json, view, save)
}

/// Plays a prepared game, prints it as a viewer sees it, saves it if asked.
fn finish_run(game: &mut Game, json: bool, view: Option<u8>, save: Option<&Path>) -> ExitCode {
    let data = game.data.clone();
    if let Some(v) = view
        && (v == 0 || v > game.st.nplayers)
    {
        eprintln!("error: --view {v}: there are {} players", game.st.nplayers);
        return ExitCode::from(2);
    }
    let outcome = game.play().map_err(|e| *e);
    let viewer = view.map(|v| v - 1);
    print_log(game, &game.log, viewer, json);
    if let Some(path) = save
        && let Err(e) = crate::replay::Save::of(game).write(path)
    {
        eprintln!("error: cannot save to {}: {e}", path.display());
        return ExitCode::from(1);
    }
    match outcome {
        Err(crate::engine::Flow::OutOfDecisions) => {
            say(format_args!(
                "-- replay stopped after the requested decisions"
            ));
            ExitCode::SUCCESS
        }
        Ok(o) => {
            print_outcome(&o, json);
            ExitCode::SUCCESS
        }
        Err(f) => crate::report::flow(&data, f),
    }
}

fn replay(
    dir: &Path,
    file: &Path,
    json: bool,
    view: Option<u8>,
    upto: Option<usize>,
    reference: bool,
) -> ExitCode {
    let save = match crate::replay::Save::read(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let data = match load::load_game(dir, &save.game) {
        Ok(d) => Arc::new(d),
        Err(e) => return report(e),
    };
    if format!("{:016x}", data.hash()) != save.data_hash {
        eprintln!(
            "warning: the game's data changed since this game was saved; the replay may diverge"
        );
    }
    if save.players < data.players.0 || save.players > data.players.1 {
        eprintln!(
            "error: {} saves a {}-player game; {} is for {} to {} players",
            file.display(),
            save.players,
            data.game,
            data.players.0,
            data.players.1
        );
        return ExitCode::from(1);
    }
    let sets = save.options.clone().into_iter().collect();
    let options = match resolve_options(&data, sets) {
        Ok(o) => o,
        Err(e) => return report(e),
    };
    let cfg = GameConfig {
        players: save.players,
        seed: save.seed,
        agents: vec![AgentKind::Replay; save.players as usize],
        options,
        logging: true,
        reference,
    };
    let mut game = Game::new(data, cfg);
    // Keep the first `upto` decisions (each is a count, then that many picks).
    let mut kept = Vec::new();
    let mut rest = save.decisions.iter().copied();
    let mut n = 0;
    while let Some(k) = rest.next() {
        if upto.is_some_and(|u| n >= u) {
            break;
        }
        kept.push(k);
        kept.extend(rest.by_ref().take(k as usize));
        n += 1;
    }
    game.replay = kept.into();
    finish_run(&mut game, json, view, None)
}

pub fn print_log(game: &Game, log: &[Entry], viewer: Option<u8>, json: bool) {
    use std::io::Write;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for (kind, line) in crate::engine::log::render_all(&game.data, log, viewer) {
        if json {
            let v = serde_json::json!({ "kind": kind, "text": line });
            let _ = writeln!(out, "{v}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
}

pub fn print_outcome(o: &Outcome, json: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let winners: Vec<u8> = o.winners.iter().map(|w| w + 1).collect();
    if json {
        let v = serde_json::json!({
            "result": true,
            "winner": winners,
            "scores": o.scores,
            "turns": o.turns,
            "turns_taken": o.turns_taken,
            "limit_reached": o.limit,
        });
        let _ = writeln!(out, "{v}");
    } else {
        let _ = writeln!(out, "{}", outcome_line(o));
    }
}

pub fn outcome_line(o: &Outcome) -> String {
    let winners: Vec<String> = o.winners.iter().map(|w| format!("P{}", w + 1)).collect();
    let scores: Vec<String> = o
        .scores
        .iter()
        .enumerate()
        .map(|(i, s)| format!("P{} {s}", i + 1))
        .collect();
    let who = if winners.len() > 1 {
        format!("shared win: {}", winners.join(", "))
    } else {
        format!("winner: {}", winners.join(""))
    };
    let limit = if o.limit { " (turn limit reached)" } else { "" };
    format!(
        "result — {who}; scores: {}; turns: {}{limit}",
        scores.join(", "),
        o.turns
    )
}
