//! `fuda sim`: many games, win rates and speed.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;

use crate::cli::{GameArgs, prepare, report};
use crate::engine::{Game, Outcome};

/// Totals over many games.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Summary {
    pub games: u64,
    pub wins: Vec<f64>,
    pub draws: u64,
    pub avg_turns: f64,
    pub games_per_sec: f64,
    pub errors: u64,
}

pub fn sim(dir: &Path, a: &GameArgs, games: u64, jobs: usize, json: bool) -> ExitCode {
    let (data, cfg) = match prepare(dir, a, false) {
        Ok(x) => x,
        Err(e) => return report(e),
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start {jobs} threads: {e}");
            return ExitCode::from(1);
        }
    };
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) && !json {
        indicatif::ProgressBar::new(games)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let start = Instant::now();
    let seeds: Vec<u64> = (0..games).map(|i| cfg.seed.wrapping_add(i)).collect();
    let results: Vec<Result<Outcome, String>> = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| {
                let cfg = crate::engine::GameConfig {
                    players: cfg.players,
                    seed,
                    agents: cfg.agents.clone(),
                    options: cfg.options.clone(),
                    logging: false,
                };
                let mut g = Game::new(data.clone(), cfg);
                let r = g.play().map_err(|f| format!("seed {seed}: {f:?}"));
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut s = Summary {
        games,
        wins: vec![0.0; cfg.players as usize],
        ..Default::default()
    };
    let mut turns = 0u64;
    for r in &results {
        match r {
            Ok(o) => {
                turns += o.turns as u64;
                if o.winners.len() == 1 {
                    s.wins[o.winners[0] as usize] += 1.0;
                } else {
                    s.draws += 1;
                }
            }
            Err(e) => {
                s.errors += 1;
                eprintln!("error: {e}");
            }
        }
    }
    let ok = (games - s.errors).max(1) as f64;
    for w in &mut s.wins {
        *w /= ok;
    }
    s.avg_turns = turns as f64 / ok;
    s.games_per_sec = games as f64 / secs.max(1e-9);
    if json {
        println!("{}", serde_json::to_string(&s).unwrap_or_default());
    } else {
        println!(
            "{} games of {} ({} players, {} job(s))",
            games, data.game, cfg.players, jobs
        );
        for (i, w) in s.wins.iter().enumerate() {
            println!("  P{} wins {:.1}%", i + 1, w * 100.0);
        }
        println!(
            "  shared wins {}  average turns {:.1}  {:.0} games/s",
            s.draws, s.avg_turns, s.games_per_sec
        );
    }
    if s.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
