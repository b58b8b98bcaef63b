//! `fuda.sim`: many games played in Rust (the GIL released), one row per
//! game as a pyarrow Table. Game `i` of a run has seed `seed + i`, as in
//! `fuda sim`; `first` starts the run at game `first`, so a run split into
//! ranges (`fuda.cluster`) gives exactly the rows of one run.

use std::path::PathBuf;
use std::sync::Arc;

use fuda::data::Data;
use fuda::engine::{Agent, Game, GameConfig};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::game::{named_agent, options_of, players_of, rules_of};

/// One game's row.
struct Row {
    game: u64,
    seed: u64,
    /// `P1`…, `draw` (a shared win) or `error`.
    winner: String,
    turns: u32,
    ended: String,
    error: String,
    scores: Vec<i64>,
    won: Vec<bool>,
}

fn play(data: &Arc<Data>, cfg: &GameConfig, slot: &mut Option<Game>, game: u64) -> Row {
    let seed = cfg.seed.wrapping_add(game);
    let g = match slot {
        Some(g) => {
            g.renew_seed(seed);
            g
        }
        None => slot.insert(Game::new(
            data.clone(),
            GameConfig {
                seed,
                ..cfg.clone()
            },
        )),
    };
    let n = cfg.players as usize;
    match g.play() {
        Ok(o) => Row {
            game,
            seed,
            winner: match o.winners[..] {
                [w] => format!("P{}", w + 1),
                _ => "draw".into(),
            },
            turns: o.turns,
            ended: o.ended.word().into(),
            error: String::new(),
            scores: o.scores.clone(),
            won: (0..n as u8).map(|p| o.winners.contains(&p)).collect(),
        },
        Err(f) => Row {
            game,
            seed,
            winner: "error".into(),
            turns: g.st.turn,
            ended: "error".into(),
            error: fuda::report::flow_line(data, &f),
            scores: vec![0; n],
            won: vec![false; n],
        },
    }
}

/// Plays games `first..first + games` (seeds `seed + i`) on `jobs` threads
/// (0: one per CPU); returns their rows as a pyarrow Table in game order:
/// `game`, `seed`, `winner`, `turns`, `ended`, `error`, and per seat
/// `pN_agent`, `pN_score`, `pN_won`.
#[pyfunction]
#[pyo3(signature = (game, games=100, agents=None, seed=1, first=0, players=None, options=None, data=None, jobs=0, reference=false))]
#[allow(clippy::too_many_arguments)]
pub fn sim<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    games: u64,
    agents: Option<Vec<String>>,
    seed: u64,
    first: u64,
    players: Option<u8>,
    options: Option<&Bound<'py, PyDict>>,
    data: Option<PathBuf>,
    jobs: usize,
    reference: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules_of(py, game, data)?;
    let r = rules.get();
    let players = players_of(r, players)?;
    // As `fuda sim --agents`: seats past the names take the last one; none
    // named, the rules' default agent (else random).
    let mut names = agents.unwrap_or_default();
    if names.is_empty() {
        names.push(
            r.data
                .default_agent
                .clone()
                .unwrap_or_else(|| "random".into()),
        );
    }
    let last = names[names.len() - 1].clone();
    names.resize(players as usize, last);
    let seats: Vec<Box<dyn Agent>> = (names.iter())
        .map(|n| named_agent(r, n))
        .collect::<PyResult<_>>()?;
    let cfg = GameConfig {
        players,
        seed,
        agents: seats,
        options: options_of(r, options)?,
        logging: false,
        tier: (!reference).then(|| r.tier.clone()),
    };
    let data = r.data.clone();
    let rows = py.detach(|| -> Result<Vec<Row>, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .stack_size(fuda::sim::STACK_SIZE)
            .build()
            .map_err(|e| format!("cannot start {jobs} threads: {e}"))?;
        if jobs != 1
            && let Some(t) = &cfg.tier
        {
            t.compile_all(&data);
        }
        Ok(pool.install(|| {
            (first..first + games)
                .into_par_iter()
                .map_init(|| None, |slot, i| play(&data, &cfg, slot, i))
                .collect()
        }))
    });
    let rows = rows.map_err(PyRuntimeError::new_err)?;
    let cols = PyDict::new(py);
    cols.set_item("game", rows.iter().map(|r| r.game).collect::<Vec<_>>())?;
    cols.set_item("seed", rows.iter().map(|r| r.seed).collect::<Vec<_>>())?;
    cols.set_item(
        "winner",
        rows.iter().map(|r| r.winner.as_str()).collect::<Vec<_>>(),
    )?;
    cols.set_item("turns", rows.iter().map(|r| r.turns).collect::<Vec<_>>())?;
    cols.set_item(
        "ended",
        rows.iter().map(|r| r.ended.as_str()).collect::<Vec<_>>(),
    )?;
    cols.set_item(
        "error",
        rows.iter().map(|r| r.error.as_str()).collect::<Vec<_>>(),
    )?;
    for (p, name) in names.iter().enumerate() {
        let n = rows.len();
        cols.set_item(format!("p{}_agent", p + 1), vec![name.as_str(); n])?;
        cols.set_item(
            format!("p{}_score", p + 1),
            rows.iter().map(|r| r.scores[p]).collect::<Vec<_>>(),
        )?;
        cols.set_item(
            format!("p{}_won", p + 1),
            rows.iter().map(|r| r.won[p]).collect::<Vec<_>>(),
        )?;
    }
    py.import("pyarrow")?.call_method1("table", (cols,))
}
