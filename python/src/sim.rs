//! `fuda.sim`: many games played in Rust (the GIL released) by the balance
//! lab's runner (`fuda::lab::sim`), their rows as pyarrow Tables: the same
//! rows, columns and game numbers as `fuda sim --out`, shard for shard.

use std::path::PathBuf;

use fuda::engine::GameConfig;
use fuda::lab::shard::Shard;
use fuda::lab::sim::SimRun;
use fuda::lab::table::{Col, Table, cards_table, games_table};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::game::{named_agent, options_of, players_of, rules_of};

/// Plays `games` seeds from `seed` (with `swap`, each in every seat
/// rotation; with `shard=(k, n)`, block k of n of those seeds) on `jobs`
/// threads (0: one per CPU). Returns the games' rows as a pyarrow Table;
/// with `cards=True`, a pair `(games, cards)`: the per-player, per-card
/// counts of the rules' `stats:` as well.
#[pyfunction]
#[pyo3(signature = (game, games=100, agents=None, seed=1, shard=None, swap=false, cards=false, players=None, options=None, data=None, jobs=0, reference=false))]
#[allow(clippy::too_many_arguments)]
pub fn sim<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    games: u64,
    agents: Option<Vec<String>>,
    seed: u64,
    shard: Option<(u64, u64)>,
    swap: bool,
    cards: bool,
    players: Option<u8>,
    options: Option<&Bound<'py, PyDict>>,
    data: Option<PathBuf>,
    jobs: usize,
    reference: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules_of(py, game, data)?;
    let r = rules.get();
    let players = players_of(r, players)?;
    let shard = match shard {
        None => Shard::default(),
        Some((index, count)) if index < count => Shard { index, count },
        Some((k, n)) => {
            return Err(PyValueError::new_err(format!(
                "shard=({k}, {n}): block k of n, 0 <= k < n"
            )));
        }
    };
    // As `fuda sim --agents`: seats past the names take the last one; none
    // named, the rules' default agent (else random).
    let names = agents.unwrap_or_default();
    let mut cfg = GameConfig {
        players,
        seed,
        agents: Vec::new(),
        options: options_of(r, options)?,
        logging: false,
        tier: (!reference).then(|| r.tier.clone()),
    };
    cfg.agents = (fuda::lab::sim::seats(&r.data, &cfg, &names).iter())
        .map(|s| named_agent(r, &s.agent))
        .collect::<PyResult<_>>()?;
    let how = SimRun {
        games,
        shard,
        swap,
        cards,
        jobs,
        progress: false,
    };
    let data = r.data.clone();
    let run = py
        .detach(|| fuda::lab::sim::sim(data, &cfg, &names, &how))
        .map_err(PyRuntimeError::new_err)?;
    let table = games_table(&run.rows.games);
    let games = arrow(py, &table)?;
    if !cards {
        return Ok(games);
    }
    let cards = arrow(py, &cards_table(&run.rows.cards))?;
    Ok(PyTuple::new(py, [games, cards])?.into_any())
}

/// A lab table as a pyarrow Table, column for column.
fn arrow<'py>(py: Python<'py>, t: &Table) -> PyResult<Bound<'py, PyAny>> {
    let cols = PyDict::new(py);
    for (name, col) in &t.cols {
        match col {
            Col::Int(v) => cols.set_item(name, v)?,
            Col::Text(v) => cols.set_item(name, v)?,
            Col::Bool(v) => cols.set_item(name, v)?,
        }
    }
    py.import("pyarrow")?.call_method1("table", (cols,))
}
