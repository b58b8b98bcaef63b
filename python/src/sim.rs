//! `fuda.sim`: many games played in Rust (the GIL released) by the balance
//! lab's runner (`fuda::lab::sim`), their rows as pyarrow Tables: the same
//! rows, columns and game numbers as `fuda sim --out`, shard for shard.

use std::path::PathBuf;

use fuda::engine::GameConfig;
use fuda::lab::cards::card_stats;
use fuda::lab::report::{cards_text, summary_text};
use fuda::lab::rows::Rows;
use fuda::lab::shard::Shard;
use fuda::lab::sim::SimRun;
use fuda::lab::summary::summarize;
use fuda::lab::table::{Col, Table, card_row, cards_table, game_row, games_table};
use fuda::lab::tournament::standings;
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

/// Rows given as JSON lists of column maps (`Table.to_pylist()`).
fn rows_of(games: &str, cards: &str) -> PyResult<Rows> {
    let maps = |s: &str| -> PyResult<Vec<serde_json::Map<String, serde_json::Value>>> {
        serde_json::from_str(s).map_err(|e| PyValueError::new_err(format!("rows: {e}")))
    };
    Ok(Rows {
        games: maps(games)?.iter().map(game_row).collect(),
        cards: maps(cards)?.iter().map(card_row).collect(),
    })
}

/// What `fuda report FILE` prints for these rows: each variant's summary,
/// then the per-card table when there are card rows.
#[pyfunction]
pub fn report_text(games: &str, cards: &str) -> PyResult<String> {
    let rows = rows_of(games, cards)?;
    let mut out: String = summarize(&rows.games).iter().map(summary_text).collect();
    out += &cards_text(&card_stats(&rows), 20);
    Ok(out)
}

/// What `fuda tournament` prints for these rows: the win matrix and the
/// ratings, from two-player games in row order.
#[pyfunction]
pub fn standings_text(games: &str) -> PyResult<String> {
    let rows = rows_of(games, "[]")?;
    Ok(fuda::lab::report::standings_text(&standings(&rows.games)))
}
