//! The `fuda` command line.

mod lab;
pub mod png;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use crate::data::source::{self, Source};
use crate::data::{Data, DataError, DataErrors, options};
use crate::engine::log::Entry;
use crate::engine::{Agent, Game, GameConfig, Outcome, agent};
use crate::suggest::{did_you_mean, suggest};

#[derive(Parser)]
#[command(
    name = "fuda",
    version,
    about = "A declarative card-game engine: rules and cards are data"
)]
struct Cli {
    /// The data: a folder holding rules/ and cards/, or a mod (a folder
    /// holding mod.yaml, laid over a built-in game); default: the games
    /// built into fuda.
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
    /// Any rules option: --set name=id1,id2
    #[arg(long = "set", value_name = "NAME=IDS")]
    pub set: Vec<String>,
    /// Run on the reference tier: no path that exists only for speed.
    #[arg(long)]
    pub reference: bool,
    /// The game's own flags (`--<flag> ids`), declared by its rules' options
    /// and taken from the command line before clap parses it.
    #[arg(skip)]
    pub flags: Vec<(String, Option<String>)>,
}

/// Shown under `run`, `sim` and `play --help`.
const GAME_FLAGS: &str = "A game may declare its own flags for its options (`--<flag> ids`): \
`fuda run <game> --help` and `fuda options <game>` list them. Every option can also be given as \
`--set NAME=IDS`.";

#[derive(Subcommand)]
enum Cmd {
    /// Play one game and print its transcript.
    #[command(after_help = GAME_FLAGS)]
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
        /// Play again whenever a file of the data folder changes.
        #[arg(long)]
        watch: bool,
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
    /// Run every scenario under the paths and compare each transcript with
    /// the snapshot beside it (`x.yaml` → `x.snap`).
    Test {
        /// Scenario files or folders (default: tests/scenarios of the data
        /// folder, else the current folder); rules/ and cards/ are skipped.
        paths: Vec<PathBuf>,
        /// Write new and changed snapshots.
        #[arg(long)]
        update: bool,
        /// Ask, for each new or changed snapshot, whether to accept it.
        #[arg(long)]
        review: bool,
        /// Only scenarios whose path contains this text.
        #[arg(long, value_name = "TEXT")]
        filter: Option<String>,
        /// Run on the reference tier: no path that exists only for speed.
        #[arg(long)]
        reference: bool,
        /// Run again whenever a file of the data folder or the paths changes.
        #[arg(long, conflicts_with = "review")]
        watch: bool,
    },
    /// Play many games and report win rates and speed.
    #[command(after_help = GAME_FLAGS)]
    Sim {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Worker threads (0: one per CPU); results do not depend on it.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Print one JSON object: games, wins and win_rates per seat, draws,
        /// avg_turns, turn_limit, games_per_sec, errors (and search seats'
        /// search_playouts, search_playouts_per_sec).
        #[arg(long)]
        json: bool,
        /// Write one row per game (and, with --cards, per player and card
        /// beside it, FILE.cards.EXT): .parquet, .csv or .jsonl.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Count per-card moves (the rules' `stats:`) and print per-card win
        /// rates with intervals.
        #[arg(long)]
        cards: bool,
        /// Play each seed in every seat rotation; report the seat advantage.
        #[arg(long)]
        swap: bool,
        /// Play only block K of N of the seeds (from 0): the rows of shards
        /// 0/N … N-1/N, concatenated, are the whole run's.
        #[arg(long, value_name = "K/N")]
        shard: Option<crate::lab::shard::Shard>,
    },
    /// Every pairing of entrants (agents or decks), seats swapped: the win
    /// matrix with intervals and a rating per entrant.
    #[command(after_help = GAME_FLAGS)]
    Tournament {
        #[command(flatten)]
        game: GameArgs,
        /// Entrants' decks: the values of the game's one option with a value
        /// per seat (e.g. a deck list), one per entrant.
        #[arg(long, value_delimiter = ',')]
        decks: Vec<String>,
        /// Games per pairing and seating (each seed is played both ways).
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        #[arg(long)]
        json: bool,
        /// Write one row per game: .parquet, .csv or .jsonl.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Rerun a simulation for each value of a card property, rules value or
    /// option (on a data overlay; no file edited): the card's win rate added
    /// (or the seat advantage) per value. Several --vary make a grid.
    #[command(after_help = GAME_FLAGS)]
    Sweep {
        #[command(flatten)]
        game: GameArgs,
        /// CARD.PROP=FROM..TO (or =A,B,C; FROM..TO/STEP), rules.KEY.…=…, or
        /// set.OPTION=IDS,IDS (ids of one value joined by +)
        #[arg(long, required = true)]
        vary: Vec<String>,
        /// Games per value (and seat rotation).
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        #[arg(long)]
        swap: bool,
        #[arg(long)]
        json: bool,
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Tables and an HTML page of plots from rows a lab command wrote.
    Report {
        /// Rows written by --out (.parquet or .jsonl).
        file: PathBuf,
        /// Write one self-contained HTML page with SVG plots.
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
        /// Write each plot alone as DIR/NAME.png (drawn by headless Chromium).
        #[arg(long, value_name = "DIR")]
        png: Option<PathBuf>,
    },
    /// List a game's options: their flags and the values they accept.
    Options { game: String },
    /// Play against bots in the terminal (you are player 1).
    #[command(after_help = GAME_FLAGS)]
    Play {
        #[command(flatten)]
        game: GameArgs,
    },
    /// The playtest table: a local web page to play any game against bots,
    /// with a debug panel, time travel and (with --data) live card edits.
    Serve {
        /// The address to listen on (another host can reach the table only
        /// if this says so).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port (0: any free one).
        #[arg(long, default_value_t = 8030)]
        port: u16,
    },
    /// Print the card-language reference: a topic, or the list of topics.
    Doc { topic: Option<String> },
    /// The games built into fuda, as files.
    Data {
        #[command(subcommand)]
        cmd: DataCmd,
    },
    /// Print the JSON Schema of a kind of data file (rules, card, scenario, mod),
    /// for editors (yaml-language-server).
    Schema { kind: String },
    /// Write a new file to start from.
    New {
        #[command(subcommand)]
        what: New,
    },
    /// Show a card as the loader compiled it: its text, effects and
    /// abilities, and the scenarios that name it.
    Explain { game: String, card: String },
    /// List a game's events: where the rules and cards raise each, the
    /// fields (`event.card`, `event.target`…) those places fill, and the
    /// abilities that wait for it.
    Events { game: String },
    /// Speak the Language Server Protocol on stdin and stdout: `fuda check`'s
    /// errors, completion, hover and definitions in an editor.
    Lsp,
}

#[derive(Subcommand)]
enum DataCmd {
    /// Write the built-in games' rules/ and cards/ into DIR, to edit them
    /// and run with `--data DIR`. DIR must be empty or new, unless --force
    /// (which overwrites the files of the same name, and keeps the others).
    Export {
        dir: PathBuf,
        /// Write into a folder that is not empty.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Subcommand)]
enum New {
    /// A card and a scenario that runs it: in a data folder
    /// `cards/<game>/<id>.yaml` and `tests/scenarios/<game>/cards/<id>.yaml`,
    /// in a mod `cards/<id>.yaml` and `scenarios/<id>.yaml`.
    Card { game: String, id: String },
    /// A mod of a built-in game in the new folder DIR: mod.yaml, a rules.yaml
    /// overlay, a card, and a scenario with its snapshot (it passes
    /// `fuda check --data DIR` and `fuda test DIR` as written).
    Mod { game: String, dir: PathBuf },
}

pub fn main() -> ExitCode {
    let raw: Vec<OsString> = std::env::args_os().collect();
    let (args, flags) = game_flags(raw.clone());
    let mut cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help goes to stdout (a full disk fails the command), errors to stderr.
            if e.use_stderr() {
                let _ = e.print();
            } else {
                crate::out::note(e.print());
            }
            // `fuda run <game> --help`: the game's own options too.
            return match help_game(&raw).filter(|_| e.kind() == ErrorKind::DisplayHelp) {
                Some((src, game)) => on_big_stack(move || {
                    outln!("\nOptions of {game}:");
                    options(&src, &game)
                }),
                None => crate::out::finish(ExitCode::from(e.exit_code().clamp(0, 255) as u8)),
            };
        }
    };
    if let Cmd::Run { game, .. }
    | Cmd::Sim { game, .. }
    | Cmd::Play { game }
    | Cmd::Tournament { game, .. }
    | Cmd::Sweep { game, .. } = &mut cli.cmd
    {
        game.flags = flags;
    }
    on_big_stack(move || command(cli))
}

/// Runs a command on a thread with [`crate::sim::STACK_SIZE`] of stack.
fn on_big_stack(f: impl FnOnce() -> ExitCode + Send + 'static) -> ExitCode {
    match std::thread::Builder::new()
        .name("fuda".into())
        .stack_size(crate::sim::STACK_SIZE)
        .spawn(f)
    {
        // A panic was already printed; 101 is what Rust exits with for one.
        Ok(h) => crate::out::finish(h.join().unwrap_or(ExitCode::from(101))),
        Err(e) => {
            errln!("error: cannot start the main thread: {e}");
            ExitCode::from(1)
        }
    }
}

/// The data folder and game of a help request for a game subcommand
/// (`fuda [--data DIR] run <game> --help`).
fn help_game(args: &[OsString]) -> Option<(Source, String)> {
    let args: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let sub = args
        .iter()
        .position(|a| ["run", "sim", "play", "tournament", "sweep"].contains(a))?;
    let game = args.get(sub + 1).filter(|g| !g.starts_with('-'))?;
    let dir = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--data") {
            Some("") => args.get(i + 1).map(PathBuf::from),
            Some(v) => v.strip_prefix('=').map(PathBuf::from),
            None => None,
        });
    Some((source::open(dir.as_deref()), game.to_string()))
}

/// Takes the game's own flags out of the arguments: the rules declare them
/// (an option's `flag:`), so clap cannot know them. After a game
/// subcommand, a `--name` that is neither the subcommand's nor a global flag
/// is one, with its value (`--name v` or `--name=v`); `prepare` checks it
/// against the rules.
fn game_flags(args: Vec<OsString>) -> (Vec<OsString>, Vec<(String, Option<String>)>) {
    let root = Cli::command();
    let known = |c: &clap::Command, name: &str| {
        ["help", "version"].contains(&name) || c.get_arguments().any(|a| a.get_long() == Some(name))
    };
    let mut out = Vec::new();
    let mut flags = Vec::new();
    let mut sub: Option<&clap::Command> = None;
    let mut it = args.into_iter().peekable();
    out.extend(it.next());
    while let Some(a) = it.next() {
        let Some(s) = a.to_str() else {
            out.push(a);
            continue;
        };
        if s == "--" {
            out.push(a);
            out.extend(it);
            break;
        }
        let game = sub.filter(|c| c.get_arguments().any(|x| x.get_id() == "game"));
        match (game, s.strip_prefix("--")) {
            (Some(c), Some(body)) => {
                let (name, value) = match body.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (body, None),
                };
                if known(c, name) || known(&root, name) {
                    out.push(a);
                    continue;
                }
                let value = value.or_else(|| {
                    let next = it.peek()?.to_str()?;
                    (!next.starts_with("--")).then(|| next.to_string())
                });
                if value.is_some() && !body.contains('=') {
                    it.next();
                }
                flags.push((name.to_string(), value));
            }
            (None, None) if sub.is_none() && !s.starts_with('-') => {
                sub = root.find_subcommand(s);
                out.push(a);
            }
            _ => out.push(a),
        }
    }
    (out, flags)
}

/// The mod `path` lies in: the nearest folder from `path` up that holds
/// `mod.yaml` (`fuda test MOD`, `fuda scenario MOD/x.yaml`).
/// The data a path stands in, when no `--data` is given: the nearest folder
/// around it holding `mod.yaml` (a mod) or `rules/` beside `cards/` (a data
/// folder, as `fuda data export` writes).
fn data_around(path: &Path) -> Option<Source> {
    let full = std::fs::canonicalize(path).ok()?;
    full.ancestors().find_map(|a| {
        if a.join(crate::data::manifest::FILE).is_file() {
            Some(source::open(Some(a)))
        } else if crate::snapshot::data_folder(a) {
            Some(Source::Dir(a.to_path_buf()))
        } else {
            None
        }
    })
}

fn command(cli: Cli) -> ExitCode {
    if let Some(dir) = cli.data.as_deref().filter(|d| !d.is_dir()) {
        errln!(
            "error: --data {}: no such folder (it should hold rules/ and cards/, or mod.yaml)",
            dir.display()
        );
        return ExitCode::from(2);
    }
    // With no `--data`, a scenario plays on the mod or data folder it is
    // in; `fuda test` and `fuda new` with no path, on the one around the
    // current folder.
    let here = Path::new(".");
    let first = match &cli.cmd {
        Cmd::Scenario { file, .. } => Some(file.as_path()),
        Cmd::Test { paths, .. } => Some(paths.first().map_or(here, PathBuf::as_path)),
        Cmd::New {
            what: New::Card { .. },
        } => Some(here),
        _ => None,
    };
    let dir = match (&cli.data, first.and_then(data_around)) {
        (None, Some(m)) => m,
        _ => source::open(cli.data.as_deref()),
    };
    if matches!(
        cli.cmd,
        Cmd::Test { .. }
            | Cmd::New {
                what: New::Card { .. }
            }
    ) {
        // Said every time: a test on other data than meant passes or fails
        // for the wrong reason.
        crate::errln!("data: {}", dir.describe());
    }
    match cli.cmd {
        Cmd::Run {
            game,
            json,
            view,
            save,
            watch: false,
        } => run(&dir, &game, json, view, save.as_deref()),
        Cmd::Run {
            game,
            json,
            view,
            save,
            watch: true,
        } => watching(&dir, &[], || run(&dir, &game, json, view, save.as_deref())),
        Cmd::Replay {
            file,
            json,
            view,
            upto,
            reference,
        } => replay(&dir, &file, json, view, upto, reference),
        Cmd::Check { game } => check(&dir, game.as_deref()),
        Cmd::Options { game } => options(&dir, &game),
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
                outp!("{}", r.render(view.map(|v| v.saturating_sub(1))));
                if let Some(e) = r.error.take() {
                    errln!("{:?}", miette::Report::new(e));
                }
                for e in std::mem::take(&mut r.reports) {
                    errln!("{:?}", miette::Report::new(e));
                }
                if r.failures.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => report(e),
        },
        Cmd::Test {
            paths,
            update,
            review,
            filter,
            reference,
            watch,
        } => {
            if !watch {
                return test(&dir, paths, update, review, filter, reference);
            }
            watching(&dir, &test_paths(&dir, paths.clone()), || {
                test(
                    &dir,
                    paths.clone(),
                    update,
                    false,
                    filter.clone(),
                    reference,
                )
            })
        }
        Cmd::Sim {
            game,
            games,
            jobs,
            json,
            out,
            cards,
            swap,
            shard,
        } => {
            if out.is_none() && !cards && !swap && shard.is_none() {
                return sim(&dir, &game, games, jobs, json);
            }
            let o = lab::LabOut {
                games,
                shard: shard.unwrap_or_default(),
                jobs,
                out,
                cards,
                json,
            };
            lab::sim(&dir, &game, swap, &o)
        }
        Cmd::Tournament {
            game,
            decks,
            games,
            jobs,
            json,
            out,
        } => {
            let o = lab::LabOut {
                games,
                shard: Default::default(),
                jobs,
                out,
                cards: false,
                json,
            };
            lab::tournament(&dir, &game, &decks, &o)
        }
        Cmd::Sweep {
            game,
            vary,
            games,
            jobs,
            swap,
            json,
            out,
        } => {
            let o = lab::LabOut {
                games,
                shard: Default::default(),
                jobs,
                out,
                cards: true,
                json,
            };
            lab::sweep(&dir, &game, &vary, swap, &o)
        }
        Cmd::Report { file, html, png } => lab::report_cmd(&file, html.as_deref(), png.as_deref()),
        Cmd::Play { game } => play_terminal(&dir, &game),
        Cmd::Serve { host, port } => serve(dir, &host, port),
        Cmd::Doc { topic } => doc(topic.as_deref()),
        Cmd::Data {
            cmd: DataCmd::Export { dir, force },
        } => {
            let schemas: Vec<_> = (crate::schema::Kind::ALL.iter())
                .map(|k| {
                    (
                        format!("{}/{}.json", crate::schema::DIR, k.name()),
                        k.json(),
                    )
                })
                .collect();
            crate::data::export::export(&dir, force, &schemas)
        }
        Cmd::Schema { kind } => schema(&kind),
        Cmd::New {
            what: New::Card { game, id },
        } => new_card(&dir, &game, &id),
        Cmd::New {
            what: New::Mod { game, dir },
        } => new_mod(&game, &dir),
        Cmd::Explain { game, card } => explain(&dir, &game, &card),
        Cmd::Lsp => lsp(cli.data.clone()),
        Cmd::Events { game } => match dir.load(&game) {
            Ok(d) => {
                let text = crate::explain::events::events(&d);
                outp!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => report(e),
        },
    }
}

/// `--watch`: runs, then runs again after each change to a data or
/// scenario file until interrupted. A run's own errors (a card that does
/// not load) are printed by it and wait for the next save; what changed and
/// how long the run took go to stderr, so `--json` output stays clean.
fn watching(dir: &Source, paths: &[PathBuf], mut once: impl FnMut() -> ExitCode) -> ExitCode {
    let roots = crate::watch::roots(dir.folder(), paths);
    if roots.is_empty() {
        errln!(
            "error: --watch needs files to watch: the built-in games do not change; \
             give a data folder or a mod with --data DIR (`fuda data export DIR` writes them out)"
        );
        return ExitCode::from(2);
    }
    let w = match crate::watch::Watch::new(&roots) {
        Ok(w) => w,
        Err(e) => {
            errln!("error: cannot watch {}: {e}", dir.describe());
            return ExitCode::from(1);
        }
    };
    let mut runs = 1;
    // Bad usage (exit 2) is the command line's: no save can fix it.
    if once() == ExitCode::from(2) {
        return ExitCode::from(2);
    }
    errln!(
        "-- run 1 done; watching {} for changes (Ctrl-C stops)",
        dir.describe()
    );
    while let Some(changed) = w.next() {
        runs += 1;
        let names: Vec<String> = changed.iter().map(|p| shown(p)).collect();
        errln!("-- run {runs}: {} changed", names.join(", "));
        let start = std::time::Instant::now();
        once();
        errln!(
            "-- run {runs} done in {} ms; watching for changes",
            start.elapsed().as_millis()
        );
    }
    ExitCode::SUCCESS
}

/// A changed file as the user named it: from the current folder, without
/// `./` steps.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let p = path.strip_prefix(&cwd).unwrap_or(path);
    let p: PathBuf = (p.components())
        .filter(|c| *c != std::path::Component::CurDir)
        .collect();
    p.display().to_string()
}

/// `fuda new card <game> <id>`.
fn new_card(dir: &Source, game: &str, id: &str) -> ExitCode {
    let Some(folder) = dir.folder() else {
        errln!(
            "error: fuda new writes into a data folder, and the built-in games are not one: \
             `fuda data export DIR` writes them out, then `fuda --data DIR new card {game} {id}`"
        );
        return ExitCode::from(2);
    };
    match crate::scaffold::new_card(folder, game, id) {
        Ok(w) => {
            say(format_args!("wrote {}", w.card.display()));
            say(format_args!("wrote {}", w.scenario.display()));
            say(format_args!("wrote {}", w.snap.display()));
            say(format_args!(
                "next: edit the card, then `fuda test {}` shows what changed and \
                 `--update` rewrites the snapshot (`--watch` runs it on every save)",
                w.scenario.display()
            ));
            ExitCode::SUCCESS
        }
        Err(r) if r.usage => {
            report(r.errors);
            ExitCode::from(2)
        }
        Err(r) => report(r.errors),
    }
}

/// `fuda new mod <game> DIR`: always of a built-in game (a mod extends
/// nothing else), whatever `--data` says.
fn new_mod(game: &str, dir: &Path) -> ExitCode {
    match crate::scaffold::new_mod(dir, game) {
        Ok(files) => {
            for f in &files {
                say(format_args!("wrote {}", f.display()));
            }
            say(format_args!(
                "next: `fuda check --data {d}` and `fuda test {d}` pass as written; \
                 `fuda --data {d} new card {game} <id>` adds a card",
                d = dir.display()
            ));
            ExitCode::SUCCESS
        }
        Err(r) if r.usage => {
            report(r.errors);
            ExitCode::from(2)
        }
        Err(r) => report(r.errors),
    }
}

/// `fuda explain <game> <card>`.
fn explain(dir: &Source, game: &str, card: &str) -> ExitCode {
    let data = match dir.load(game) {
        Ok(d) => d,
        Err(e) => return report(e),
    };
    let roots = crate::explain::scenario_roots(dir.folder().unwrap_or(Path::new(".")));
    let found = crate::explain::scenarios_naming(&roots, game, card);
    match crate::explain::explain(&data, card, &found) {
        Ok(text) => {
            outp!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => report(e),
    }
}

/// The scenario paths `fuda test` runs: those given, else the data
/// folder's `tests/scenarios`, else the current folder.
fn test_paths(dir: &Source, mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    if paths.is_empty() {
        // A mod's scenarios are in its folder; a data folder's in its tests/scenarios.
        let own = match dir {
            Source::Mod(d) => Some(d.clone()),
            Source::Dir(d) => Some(d.join("tests/scenarios")).filter(|p| p.is_dir()),
            Source::Embedded => Some(PathBuf::from("tests/scenarios")).filter(|p| p.is_dir()),
        };
        paths.push(own.unwrap_or_else(|| PathBuf::from(".")));
    }
    paths
}

fn test(
    dir: &Source,
    paths: Vec<PathBuf>,
    update: bool,
    review: bool,
    filter: Option<String>,
    reference: bool,
) -> ExitCode {
    let paths = test_paths(dir, paths);
    let opts = crate::snapshot::Options {
        update,
        filter,
        tier: crate::scenario::Tier {
            reference,
            logging: true,
        },
    };
    let mut reviewer = crate::human::Reviewer;
    let review = review.then_some(&mut reviewer as &mut dyn crate::snapshot::Review);
    match crate::snapshot::run(dir, &paths, &opts, review, &mut crate::out::Stdout) {
        Ok(s) if s.failed == 0 && s.passed > 0 => ExitCode::SUCCESS,
        Ok(s) if s.failed == 0 => {
            errln!("error: no scenario file found");
            ExitCode::from(1)
        }
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn schema(name: &str) -> ExitCode {
    use crate::schema::Kind;
    match Kind::parse(name) {
        Some(k) => {
            outp!("{}", k.json());
            ExitCode::SUCCESS
        }
        None => {
            let names = Kind::ALL.map(Kind::name);
            let help = did_you_mean(suggest(name, names));
            errln!(
                "error: no schema `{name}`; there are {}{}",
                names.join(", "),
                help.map(|h| format!("; {h}")).unwrap_or_default()
            );
            ExitCode::from(2)
        }
    }
}

fn doc(topic: Option<&str>) -> ExitCode {
    use crate::lang::doc as topics;
    let Some(name) = topic else {
        outp!("{}", topics::topics());
        return ExitCode::SUCCESS;
    };
    match topics::topic(name) {
        Some(text) => {
            outp!("{text}");
            ExitCode::SUCCESS
        }
        None => {
            let help = did_you_mean(suggest(name, topics::topic_names()));
            errln!(
                "error: unknown topic `{name}`{}",
                help.map(|h| format!("; {h}")).unwrap_or_default()
            );
            errp!("{}", topics::topics());
            ExitCode::from(2)
        }
    }
}

/// A line to stdout. A reader that went away (`fuda check | head -1`) is no
/// error of ours: the line is dropped, as the transcript's are.
pub fn say(line: std::fmt::Arguments) {
    outln!("{line}");
}

/// Bad command-line usage: exit 2, as the README promises.
pub fn usage(e: DataError) -> ExitCode {
    errln!("{:?}", miette::Report::new(e));
    ExitCode::from(2)
}

/// Prints data errors, at most [`crate::limits::MAX_ERRORS_PER_FILE`] of
/// one file (each shows its line, and a file may hold a mistake on every
/// word of a megabyte line), then how many more; exit 1.
pub fn report(e: DataErrors) -> ExitCode {
    let mut shown: Vec<(String, usize)> = Vec::new();
    for err in e.errors {
        let name = err.src.name.clone();
        let i = match shown.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                shown.push((name, 0));
                shown.len() - 1
            }
        };
        shown[i].1 += 1;
        if shown[i].1 <= crate::limits::MAX_ERRORS_PER_FILE {
            errln!("{:?}", miette::Report::new(err));
        }
    }
    for (name, n) in shown {
        if let Some(more) = n.checked_sub(crate::limits::MAX_ERRORS_PER_FILE + 1) {
            errln!("… and {} more error(s) in {name}", more + 1);
        }
    }
    ExitCode::from(1)
}

fn check(dir: &Source, game: Option<&str>) -> ExitCode {
    say(format_args!("data: {}", dir.describe()));
    let games = match game {
        Some(g) => vec![g.to_string()],
        None => dir.games(),
    };
    let games = match (games.is_empty(), dir) {
        // A mod whose mod.yaml does not load: loading says why.
        (true, Source::Mod(_)) => vec![String::new()],
        (true, _) => {
            errln!(
                "error: no games in {}: no rules/<game>.yaml",
                dir.describe()
            );
            return ExitCode::from(1);
        }
        (false, _) => games,
    };
    let mut bad = false;
    for g in games {
        match dir.load(&g).and_then(own_flags) {
            Ok(d) => {
                say(format_args!(
                    "{g}: ok ({} cards, {} verbs, {} abilities)",
                    d.defs.len(),
                    d.names.verbs.len(),
                    d.triggers.len()
                ));
                let (n, lowered) = (d.scripts.snippets.len(), d.scripts.lowered);
                if n > 0 {
                    let s = if n == 1 { "" } else { "s" };
                    say(format_args!(
                        "  Rhai: {n} snippet{s}, {lowered} lowered to card text (docs/rhai.md)"
                    ));
                }
                if let Some(l) = &d.layer {
                    say(format_args!("mod {} on {}:", l.name, l.extends));
                    for c in &l.changes {
                        say(format_args!("  {c}"));
                    }
                    if l.changes.is_empty() {
                        say(format_args!("  nothing: it changes no card and no rule"));
                    }
                }
            }
            Err(e) => {
                bad = true;
                let g = if g.is_empty() { "mod" } else { &g };
                errln!("{g}: {} error(s)", e.errors.len());
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

/// A game whose option takes one of fuda's own flags could never be given
/// it: refused by `fuda check`, at the flag.
fn own_flags(data: Data) -> Result<Data, DataErrors> {
    let run = Cli::command();
    let ours: Vec<&str> = (run.find_subcommand("run").into_iter())
        .flat_map(|c| c.get_arguments().filter_map(|a| a.get_long()))
        .chain(["help", "version", "data"])
        .collect();
    let errors: Vec<DataError> = (data.option_decls.iter())
        .filter_map(|o| Some((o, o.flag.as_deref()?)))
        .filter(|(_, f)| ours.contains(f))
        .map(|(o, f)| {
            // The rules file that declares the flag (a mod's, or the game's).
            let declares = |t: &str| t.contains(&format!("flag: {f}"));
            let file = (0..data.sources.files.len() as u32)
                .rfind(|&i| declares(data.sources.text(i)))
                .unwrap_or(0);
            let rules = data.sources.text(file);
            let find = |w: &str, from: usize| crate::data::locate::find_word(rules, w, from);
            let from = find("options", 0).map_or(0, |(a, _)| a);
            let from = find(&o.name, from).map_or(from, |(a, _)| a);
            let (a, b) = find(f, from).unwrap_or((from, from + 1));
            data.sources.error(
                file,
                a as u32,
                b as u32,
                format!("option {}: --{f} is one of fuda's own flags", o.name),
                Some(format!(
                    "`--set {}=…` gives it; or choose another flag",
                    o.name
                )),
            )
        })
        .collect();
    if errors.is_empty() {
        Ok(data)
    } else {
        Err(DataErrors { errors })
    }
}

/// Loads a game and turns command-line choices into a game configuration;
/// on failure, reports it and gives the exit code.
pub fn prepare(
    dir: &Source,
    a: &GameArgs,
    logging: bool,
) -> Result<(Arc<Data>, GameConfig), ExitCode> {
    let data = Arc::new(dir.load(&a.game).map_err(report)?);
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
    prepare_rest(data, a, players, logging)
}

pub fn prepare_rest(
    data: Arc<Data>,
    a: &GameArgs,
    players: u8,
    logging: bool,
) -> Result<(Arc<Data>, GameConfig), ExitCode> {
    let mut agents: Vec<Box<dyn Agent>> = Vec::new();
    for name in &a.agents {
        let parsed = match name.as_str() {
            "human" => Some(Box::new(crate::human::Human) as Box<dyn Agent>),
            other => crate::search::parse(other, &data),
        };
        match parsed {
            Some(k) => agents.push(k),
            None => {
                let mut known = crate::search::names(&data);
                known.insert(2, "human".into());
                let help = did_you_mean(suggest(name, known.iter().map(|s| s.as_str())))
                    .or_else(|| Some(format!("agents: {}", known.join(", "))));
                return Err(usage(DataError::plain(
                    format!("unknown agent \"{name}\""),
                    help,
                )));
            }
        }
    }
    // Seats without a named agent take the last one named; with none named,
    // the rules' default agent (random if they name none).
    let fallback = || {
        (data.default_agent.as_deref())
            .and_then(|a| crate::search::parse(a, &data))
            .unwrap_or_else(|| Box::new(agent::Random::default()))
    };
    let last = agents.last().cloned().unwrap_or_else(fallback);
    agents.resize(players as usize, last);
    // Options the rules refuse are bad usage (2), all of them reported.
    let sets = option_sets(&data, a)?;
    let options = options::resolve(&data, sets).map_err(|e| {
        report(e);
        ExitCode::from(2)
    })?;
    let tier = (!a.reference).then(|| crate::fast::tier(&data));
    Ok((
        data,
        GameConfig {
            players,
            seed: a.seed,
            agents,
            options,
            logging,
            tier,
        },
    ))
}

/// The options chosen on the command line, by the game's flags and `--set`,
/// as (option, card ids); the ids are checked by [`options::resolve`].
fn option_sets(data: &Data, a: &GameArgs) -> Result<Vec<(String, Vec<String>)>, ExitCode> {
    let usage = |message: String, help| usage(DataError::plain(message, help));
    let ids = |v: &str| -> Vec<String> {
        v.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    };
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    for (flag, value) in &a.flags {
        let Some(o) = data
            .option_decls
            .iter()
            .find(|o| o.flag.as_deref() == Some(flag.as_str()))
        else {
            let mut known: Vec<String> = (Cli::command().find_subcommand("run").into_iter())
                .flat_map(|c| c.get_arguments().filter_map(|x| x.get_long()))
                .map(String::from)
                .collect();
            known.extend(data.option_decls.iter().filter_map(|o| o.flag.clone()));
            let help = did_you_mean(
                suggest(flag, known.iter().map(|s| s.as_str())).map(|s| format!("--{s}")),
            )
            .or_else(|| Some(format!("`fuda options {}` lists its options", data.game)));
            return Err(usage(
                format!("unexpected argument `--{flag}` for {}", data.game),
                help,
            ));
        };
        let Some(value) = value else {
            return Err(usage(
                format!("`--{flag}` needs a value (comma-separated card ids)"),
                Some(format!("{} accepts {}", o.name, o.describe(data))),
            ));
        };
        match sets.iter_mut().find(|(k, _)| *k == o.name) {
            Some((_, v)) => v.extend(ids(value)),
            None => sets.push((o.name.clone(), ids(value))),
        }
    }
    for s in &a.set {
        let Some((k, v)) = s.split_once('=') else {
            return Err(usage(format!("--set wants NAME=IDS, got \"{s}\""), None));
        };
        sets.push((k.to_string(), ids(v)));
    }
    Ok(sets)
}

/// `fuda lsp`: the language server on stdio.
#[cfg(feature = "lsp")]
fn lsp(data: Option<std::path::PathBuf>) -> ExitCode {
    crate::lsp::run(data)
}

#[cfg(not(feature = "lsp"))]
fn lsp(_: Option<std::path::PathBuf>) -> ExitCode {
    left_out("lsp", "lsp")
}

#[cfg(not(feature = "table"))]
fn serve(_: Source, _: &str, _: u16) -> ExitCode {
    left_out("serve", "table")
}

/// A command whose cargo feature this build was made without.
#[cfg(not(all(feature = "table", feature = "lsp")))]
fn left_out(cmd: &str, feature: &str) -> ExitCode {
    usage(DataError::plain(
        format!("`fuda {cmd}` is not in this build of fuda"),
        Some(format!(
            "build it with the `{feature}` feature (on by default): cargo install --path . --features {feature}"
        )),
    ))
}

/// `fuda serve`: prints the table's address and serves until stopped.
#[cfg(feature = "table")]
fn serve(dir: Source, host: &str, port: u16) -> ExitCode {
    let watching = dir.folder().is_some();
    match crate::serve::start(dir, host, port) {
        Ok((addr, running)) => {
            say(format_args!("fuda table: http://{addr}/"));
            if watching {
                say(format_args!(
                    "watching the data folder: a saved card or rules file reloads the open games"
                ));
            }
            match running.join() {
                Ok(Ok(())) => ExitCode::SUCCESS,
                Ok(Err(e)) => {
                    errln!("error: {e}");
                    ExitCode::from(1)
                }
                Err(_) => ExitCode::from(101),
            }
        }
        Err(e) => {
            errln!("error: cannot listen on {host}:{port}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `fuda options <game>`: each option, its flag and what it accepts.
fn options(dir: &Source, game: &str) -> ExitCode {
    let data = match dir.load(game) {
        Ok(d) => d,
        Err(e) => return report(e),
    };
    if data.option_decls.is_empty() {
        outln!("{game} has no options");
    }
    for o in &data.option_decls {
        let flag = match &o.flag {
            Some(f) => format!("--{f} IDS, "),
            None => String::new(),
        };
        outln!("{flag}--set {}=IDS", o.name);
        if !o.about.is_empty() {
            outln!("    {}", o.about);
        }
        outln!("    accepts {}", o.describe(&data));
    }
    ExitCode::SUCCESS
}

/// `fuda sim`: plays the games and prints the summary.
fn sim(dir: &Source, a: &GameArgs, games: u64, jobs: usize, json: bool) -> ExitCode {
    let (data, cfg) = match prepare(dir, a, false) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let s = match crate::sim::simulate(&data, &cfg, games, jobs, !json) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    for e in &s.error_messages {
        errln!("error: {e}");
    }
    if json {
        match serde_json::to_string(&s) {
            Ok(line) => say(format_args!("{line}")),
            Err(e) => {
                errln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        let threads = if jobs == 0 {
            "one per CPU".to_string()
        } else {
            format!("{jobs}")
        };
        say(format_args!(
            "{} games of {} ({} players, jobs: {threads})",
            games, data.game, cfg.players
        ));
        for (i, (w, r)) in s.wins.iter().zip(&s.win_rates).enumerate() {
            say(format_args!("  P{} wins {w} ({:.1}%)", i + 1, r * 100.0));
        }
        say(format_args!(
            "  draws {}  average turns {:.1}  {:.0} games/s",
            s.draws, s.avg_turns, s.games_per_sec
        ));
        if let (Some(n), Some(rate)) = (s.search_playouts, s.search_playouts_per_sec) {
            say(format_args!("  search: {n} playouts, {rate:.0} playouts/s"));
        }
        if s.turn_limit > 0 {
            say(format_args!(
                "  {} game(s) reached the turn limit",
                s.turn_limit
            ));
        }
        if s.errors > 0 {
            say(format_args!("  {} game(s) stopped by an error", s.errors));
        }
    }
    if s.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run(dir: &Source, a: &GameArgs, json: bool, view: Option<u8>, save: Option<&Path>) -> ExitCode {
    let (data, cfg) = match prepare(dir, a, true) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut game = Game::new(data.clone(), cfg);
    finish_run(&mut game, json, view, save)
}

/// `fuda play`: the game at the terminal, the transcript printed as it goes
/// (`crate::play`).
fn play_terminal(dir: &Source, a: &GameArgs) -> ExitCode {
    let (data, mut cfg) = match prepare(dir, a, true) {
        Ok(x) => x,
        Err(code) => return code,
    };
    // Seats past the names take the last one (as `prepare` seats them).
    let mut names: Vec<String> = (0..cfg.players as usize)
        .filter_map(|i| a.agents.get(i).or(a.agents.last()).cloned())
        .collect();
    if a.agents.is_empty() {
        // None named: the person at P1, the rules' default agent elsewhere
        // (as `prepare` seated it), by name so a save reopens with them.
        let bot = (data.default_agent.clone())
            .filter(|b| crate::search::parse(b, &data).is_some())
            .unwrap_or_else(|| "random".into());
        names = vec![bot; cfg.players as usize];
        names[0] = "human".into();
        cfg.agents[0] = Box::new(crate::human::Human);
    }
    let people: Vec<bool> = names.iter().map(|n| n == "human").collect();
    let played = crate::play::play(data.clone(), cfg, &people, &names, Vec::new(), false);
    match played.map_err(|e| *e) {
        Ok(o) => {
            print_outcome(&data, &o, false);
            ExitCode::SUCCESS
        }
        Err(crate::engine::Flow::OutOfDecisions) => ExitCode::SUCCESS,
        Err(f) => crate::report::flow(&data, f),
    }
}

/// Plays a prepared game, prints it as a viewer sees it, saves it if asked.
fn finish_run(game: &mut Game, json: bool, view: Option<u8>, save: Option<&Path>) -> ExitCode {
    let data = game.data.clone();
    if let Some(v) = view
        && (v == 0 || v > game.st.nplayers)
    {
        errln!("error: --view {v}: there are {} players", game.st.nplayers);
        return ExitCode::from(2);
    }
    let outcome = game.play().map_err(|e| *e);
    let viewer = view.map(|v| v - 1);
    print_log(game, &game.log, viewer, json);
    if let Some(path) = save
        && let Err(e) = crate::replay::Save::of(game).write(path)
    {
        errln!("error: cannot save the game: {e}");
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
            print_outcome(&data, &o, json);
            ExitCode::SUCCESS
        }
        Err(f) => crate::report::flow(&data, f),
    }
}

fn replay(
    dir: &Source,
    file: &Path,
    json: bool,
    view: Option<u8>,
    upto: Option<usize>,
    reference: bool,
) -> ExitCode {
    let save = match crate::replay::Save::read(file) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let data = match dir.load(&save.game) {
        Ok(d) => Arc::new(d),
        Err(e) => return report(e),
    };
    if format!("{:016x}", data.hash()) != save.data_hash {
        errln!(
            "warning: the game's data changed since this game was saved; the replay may diverge"
        );
    }
    if save.players < data.players.0 || save.players > data.players.1 {
        errln!(
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
    let options = match options::resolve(&data, sets) {
        Ok(o) => o,
        Err(e) => return report(e),
    };
    // Each seat replays its player's answers; `--upto N` keeps the first N.
    let from = file.display().to_string();
    let mut agents = vec![agent::Replay::from(from); save.players as usize];
    for (n, ans) in save
        .answers
        .iter()
        .take(upto.unwrap_or(usize::MAX))
        .enumerate()
    {
        match agents.get_mut((ans.player as usize).wrapping_sub(1)) {
            Some(a) => a.push(n + 1, ans.picks.iter().map(|&i| i as usize).collect()),
            None => {
                errln!(
                    "error: {} records an answer of player {} in a {}-player game",
                    file.display(),
                    ans.player,
                    save.players
                );
                return ExitCode::from(1);
            }
        }
    }
    let tier = (!reference).then(|| crate::fast::tier(&data));
    // Without `--upto`, the save's agents play on from its last answer; a
    // person's seat makes it `fuda play` from there.
    let on = match upto {
        None => play_on(&data, &save, file),
        Some(_) => None,
    };
    if let Some((names, bots)) = on {
        if names.iter().any(|n| n == "human") && !json {
            let people: Vec<bool> = names.iter().map(|n| n == "human").collect();
            let kept = (save.answers.iter())
                .map(|a| (a.player, a.picks.iter().map(|&i| i as usize).collect()))
                .collect();
            let cfg = GameConfig {
                players: save.players,
                seed: save.seed,
                agents: bots,
                options,
                logging: true,
                tier,
            };
            say(format_args!(
                "-- replaying {} answers, then playing on",
                save.answers.len()
            ));
            let played = crate::play::play(data.clone(), cfg, &people, &names, kept, true);
            return match played.map_err(|e| *e) {
                Ok(o) => {
                    print_outcome(&data, &o, false);
                    ExitCode::SUCCESS
                }
                Err(crate::engine::Flow::OutOfDecisions) => ExitCode::SUCCESS,
                Err(f) => crate::report::flow(&data, f),
            };
        }
        if !names.iter().any(|n| n == "human") {
            agents = (agents.into_iter().zip(bots))
                .map(|(a, b)| a.then(b))
                .collect();
        }
    }
    let cfg = GameConfig {
        players: save.players,
        seed: save.seed,
        agents: agents.into_iter().map(|a| Box::new(a) as _).collect(),
        options,
        logging: true,
        tier,
    };
    let mut game = Game::new(data, cfg);
    finish_run(&mut game, json, view, None)
}

/// Seats by name, with their agents.
type Seats = (Vec<String>, Vec<Box<dyn Agent>>);

/// The save's agents, by name and seated, to play on after its answers;
/// none when it records none or names one this data does not know (the
/// replay then stops at the last answer, as it always did).
fn play_on(data: &Data, save: &crate::replay::Save, file: &Path) -> Option<Seats> {
    if save.agents.is_empty() {
        return None;
    }
    if save.agents.len() != save.players as usize {
        errln!(
            "warning: {} records {} agents for {} players; the replay stops at its last answer",
            file.display(),
            save.agents.len(),
            save.players
        );
        return None;
    }
    let mut bots = Vec::new();
    for name in &save.agents {
        let bot = match name.as_str() {
            "human" => Some(Box::new(crate::human::Human) as Box<dyn Agent>),
            other => crate::search::parse(other, data),
        };
        let Some(bot) = bot else {
            errln!(
                "warning: {} records the agent \"{name}\", which this data does not know; the replay stops at its last answer",
                file.display()
            );
            return None;
        };
        bots.push(bot);
    }
    Some((save.agents.clone(), bots))
}

pub fn print_log(game: &Game, log: &[Entry], viewer: Option<u8>, json: bool) {
    use std::io::Write;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for (kind, line, span) in crate::engine::log::render_spans(&game.data, log, viewer) {
        if json {
            let mut v = crate::engine::facts::facts(&game.data, &log[span], viewer);
            v.insert("kind".into(), kind.into());
            v.insert("text".into(), line.into());
            crate::out::note(writeln!(out, "{}", serde_json::Value::Object(v)));
        } else {
            crate::out::note(writeln!(out, "{}", crate::out::printable(&line)));
        }
    }
    crate::out::note(out.flush());
}

pub fn print_outcome(data: &Data, o: &Outcome, json: bool) {
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
            "ended": o.ended.word(),
            "end_rule": o.rule.and_then(|i| data.end_rules.get(i as usize)).map(|(n, _)| n),
            "lost": o.lost.iter().map(|p| p + 1).collect::<Vec<_>>(),
            "tiebreak": o.tiebreaks,
        });
        crate::out::note(writeln!(out, "{v}"));
    } else {
        let line = crate::report::outcome_line(data, o);
        crate::out::note(writeln!(out, "{}", crate::out::printable(&line)));
    }
}
