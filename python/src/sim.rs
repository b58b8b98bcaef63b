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
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule, PyTuple};

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
    // On a thread of the command's stack size, as `fuda sim` plays (with
    // `jobs=1` the runner plays on the thread that calls it: not Python's).
    let run = py
        .detach(|| {
            std::thread::scope(|s| {
                std::thread::Builder::new()
                    .name("fuda sim".into())
                    .stack_size(fuda::sim::STACK_SIZE)
                    .spawn_scoped(s, || fuda::lab::sim::sim(data, &cfg, &names, &how))
                    .map_err(|e| format!("cannot start the simulation's thread: {e}"))?
                    .join()
                    .map_err(|_| "the simulation's thread panicked".to_string())?
            })
        })
        .map_err(PyRuntimeError::new_err)?;
    let table = games_table(&run.rows.games);
    let games = arrow(py, &table)?;
    if !cards {
        return Ok(games);
    }
    let cards = arrow(py, &cards_table(&run.rows.cards))?;
    Ok(PyTuple::new(py, [games, cards])?.into_any())
}

/// A lab table as a pyarrow Table, column for column. Each column is copied
/// into Arrow buffers here and handed over whole: a Python object per value
/// (lists for `pyarrow.table`) would cost more than the games' rows.
fn arrow<'py>(py: Python<'py>, t: &Table) -> PyResult<Bound<'py, PyAny>> {
    let pa = py.import("pyarrow")?;
    let mut names = Vec::with_capacity(t.cols.len());
    let mut arrays = Vec::with_capacity(t.cols.len());
    for (name, col) in &t.cols {
        names.push(name.as_str());
        arrays.push(match col {
            Col::Int(v) => {
                let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_ne_bytes()).collect();
                array(&pa, "int64", v.len(), &[&bytes])?
            }
            Col::Bool(v) => {
                // Bit-packed, least significant bit first.
                let mut bits = vec![0u8; v.len().div_ceil(8)];
                for (i, _) in v.iter().enumerate().filter(|(_, b)| **b) {
                    bits[i / 8] |= 1 << (i % 8);
                }
                array(&pa, "bool_", v.len(), &[&bits])?
            }
            Col::Text(v) => {
                // `string` has 32-bit offsets: a column past 2 GiB of text
                // is split into chunks.
                let mut chunks = Vec::new();
                let (mut offsets, mut data) = (vec![0i32], Vec::new());
                for s in v {
                    if i32::try_from(data.len() + s.len()).is_err() && offsets.len() > 1 {
                        chunks.push(text(&pa, &offsets, &data)?);
                        (offsets, data) = (vec![0], Vec::new());
                    }
                    data.extend_from_slice(s.as_bytes());
                    let end = i32::try_from(data.len()).map_err(|_| {
                        PyValueError::new_err(format!("a value of column {name} is over 2 GiB"))
                    })?;
                    offsets.push(end);
                }
                let last = text(&pa, &offsets, &data)?;
                if chunks.is_empty() {
                    last
                } else {
                    chunks.push(last);
                    pa.call_method1("chunked_array", (chunks,))?
                }
            }
        });
    }
    let kw = PyDict::new(py);
    kw.set_item("names", names)?;
    (pa.getattr("Table")?).call_method("from_arrays", (arrays,), Some(&kw))
}

/// A `string` array from its offsets and bytes.
fn text<'py>(
    pa: &Bound<'py, PyModule>,
    offsets: &[i32],
    data: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    let offsets: Vec<u8> = offsets.iter().flat_map(|x| x.to_ne_bytes()).collect();
    array(pa, "string", offsets.len() / 4 - 1, &[&offsets, data])
}

/// An array of `len` values of pyarrow type `ty` without nulls, from its
/// buffers (after the validity bitmap), each copied into memory pyarrow
/// allocates (aligned as Arrow wants).
fn array<'py>(
    pa: &Bound<'py, PyModule>,
    ty: &str,
    len: usize,
    buffers: &[&[u8]],
) -> PyResult<Bound<'py, PyAny>> {
    let py = pa.py();
    let mut bufs = vec![py.None().into_bound(py)];
    for b in buffers {
        let buf = pa.call_method1("allocate_buffer", (b.len(),))?;
        // Its items are `b` (signed chars); written as bytes.
        let bytes = (py
            .import("builtins")?
            .getattr("memoryview")?
            .call1((&buf,))?)
        .call_method1("cast", ("B",))?;
        PyBuffer::<u8>::get(&bytes)?.copy_from_slice(py, b)?;
        bufs.push(buf);
    }
    let ty = pa.call_method0(ty)?;
    let kw = PyDict::new(py);
    kw.set_item("null_count", 0)?;
    (pa.getattr("Array")?).call_method("from_buffers", (ty, len, bufs), Some(&kw))
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
