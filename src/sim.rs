//! `fuda sim`: many games, win rates and speed.
//!
//! [`simulate`] plays (games in, [`Summary`] out); the command line loads the
//! game and prints. Game `i` always uses seed `seed + i` and the totals are sums
//! of integers, so every result but the speed is the same for any `--jobs`.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::data::Data;
use crate::engine::{Game, GameConfig};

pub use crate::limits::STACK_SIZE;

/// Totals over many games.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Summary {
    pub games: u64,
    /// Games won outright, per seat (P1 first).
    pub wins: Vec<u64>,
    /// `wins` divided by the games that finished without error.
    pub win_rates: Vec<f64>,
    /// Games with a shared win.
    pub draws: u64,
    /// Turns per game, all players' turns together.
    pub avg_turns: f64,
    /// Games that hit the rules' turn limit.
    pub turn_limit: u64,
    pub games_per_sec: f64,
    /// Playouts (iterations) of search seats, if any searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_playouts: Option<u64>,
    /// Their rate per second of searching, on one thread.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_playouts_per_sec: Option<f64>,
    /// Games stopped by an error (see `error_messages`: each distinct error
    /// once, located).
    pub errors: u64,
    #[serde(skip)]
    pub error_messages: Vec<String>,
}

impl Summary {
    /// Everything but the speed: what must not depend on `--jobs`.
    pub fn same_results(&self, o: &Summary) -> bool {
        self.games == o.games
            && self.wins == o.wins
            && self.win_rates == o.win_rates
            && self.draws == o.draws
            && self.avg_turns == o.avg_turns
            && self.turn_limit == o.turn_limit
            && self.errors == o.errors
            && self.error_messages == o.error_messages
    }
}

/// Integer totals of a range of games; merging is exact, in any order.
struct Tally {
    wins: Vec<u64>,
    draws: u64,
    turns: u64,
    limit: u64,
    /// (game index, message)
    errors: Vec<(u64, String, u64)>,
    /// The configuration of the next game (its seed set per game).
    cfg: GameConfig,
    /// The last game played, renewed for the next (no allocation per game).
    game: Option<Game>,
}

impl Tally {
    fn new(cfg: &GameConfig) -> Tally {
        Tally {
            wins: vec![0; cfg.players as usize],
            draws: 0,
            turns: 0,
            limit: 0,
            errors: Vec::new(),
            cfg: GameConfig {
                logging: false,
                ..cfg.clone()
            },
            game: None,
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        for (a, b) in self.wins.iter_mut().zip(o.wins) {
            *a += b;
        }
        self.draws += o.draws;
        self.turns += o.turns;
        self.limit += o.limit;
        self.errors.extend(o.errors);
        self
    }

    fn add(mut self, data: &Arc<Data>, cfg: &GameConfig, i: u64) -> Tally {
        let seed = cfg.seed.wrapping_add(i);
        self.cfg.seed = seed;
        let g = match &mut self.game {
            Some(g) => {
                g.renew_seed(seed);
                g
            }
            None => self.game.insert(Game::new(data.clone(), self.cfg.clone())),
        };
        match g.play() {
            Ok(o) => {
                self.turns += o.turns as u64;
                self.limit += o.limit as u64;
                match o.winners[..] {
                    [w] => self.wins[w as usize] += 1,
                    _ => self.draws += 1,
                }
            }
            Err(f) => (self.errors).push((i, crate::report::flow_line(data, &f), seed)),
        }
        self
    }
}

/// A bar of `len` games on stderr with an ETA, if `shown` and stderr is a
/// terminal; else none at all: a hidden bar still adds to an atomic the
/// threads share and reads the clock every game.
pub(crate) fn progress_bar(shown: bool, len: u64) -> Option<indicatif::ProgressBar> {
    (shown && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
        let b = indicatif::ProgressBar::new(len);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}",
        ) {
            b.set_style(style);
        }
        b
    })
}

/// Plays `games` games with seeds `cfg.seed`, `cfg.seed + 1`, … on `jobs`
/// threads (0: one per CPU). `progress` shows a bar on stderr if it is a terminal.
pub fn simulate(
    data: &Arc<Data>,
    cfg: &GameConfig,
    games: u64,
    jobs: usize,
    progress: bool,
) -> Result<Summary, String> {
    let bar = progress_bar(progress, games);
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1)
        }
    };
    let start = Instant::now();
    let searched = crate::search::searched();
    if jobs != 1
        && let Some(tier) = &cfg.tier
    {
        tier.compile_all(data);
    }
    let tally = if jobs == 1 {
        (0..games).fold(Tally::new(cfg), |t, i| {
            let t = t.add(data, cfg, i);
            tick();
            t
        })
    } else {
        let pool = pool(jobs)?;
        pool.install(|| {
            (0..games)
                .into_par_iter()
                .fold(
                    || Tally::new(cfg),
                    |t, i| {
                        let t = t.add(data, cfg, i);
                        tick();
                        t
                    },
                )
                .reduce(|| Tally::new(cfg), Tally::merge)
        })
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    // Other simulations in the process may search meanwhile: a rate, not a count to test.
    let (playouts, nanos) = crate::search::searched();
    let (playouts, nanos) = (playouts - searched.0, nanos - searched.1);
    let mut errors = tally.errors;
    errors.sort_by_key(|(i, ..)| *i);
    let ok = (games - errors.len() as u64).max(1) as f64;
    Ok(Summary {
        games,
        win_rates: tally.wins.iter().map(|&w| w as f64 / ok).collect(),
        wins: tally.wins,
        draws: tally.draws,
        avg_turns: tally.turns as f64 / ok,
        turn_limit: tally.limit,
        games_per_sec: games as f64 / secs.max(1e-9),
        search_playouts: (playouts > 0).then_some(playouts),
        search_playouts_per_sec: (playouts > 0)
            .then(|| playouts as f64 / (nanos as f64 / 1e9).max(1e-9)),
        errors: errors.len() as u64,
        error_messages: grouped(errors),
    })
}

/// Each distinct error once, in the order of the games it first stopped,
/// with its first seed and how many more games it stopped.
fn grouped(errors: Vec<(u64, String, u64)>) -> Vec<String> {
    let mut seen: Vec<(String, u64, usize)> = Vec::new();
    for (_, m, seed) in errors {
        match seen.iter_mut().find(|(s, ..)| *s == m) {
            Some((.., n)) => *n += 1,
            None => seen.push((m, seed, 0)),
        }
    }
    (seen.into_iter())
        .map(|(m, seed, more)| match more {
            0 => format!("{m} (seed {seed})"),
            n => format!("{m} (seed {seed}, and {n} more game(s))"),
        })
        .collect()
}

/// The thread pool of `jobs` threads, started on the first call that
/// asks for it and kept for the next: a caller running many simulations
/// (a balancing loop, a benchmark) does not start threads for each.
fn pool(jobs: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == jobs) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(STACK_SIZE)
        .build()
        .map_err(|e| format!("cannot start {jobs} threads: {e}"))?;
    let p = Arc::new(p);
    pools.push((jobs, p.clone()));
    Ok(p)
}
