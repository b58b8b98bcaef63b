//! fuda from Python (`import fuda`): the binding maturin builds. It is a
//! client of the kernel's public API, in its own crate: the kernel stays
//! free of Python.

mod convert;
mod game;
mod rules;
mod seat;
mod sim;

use std::path::PathBuf;

use pyo3::prelude::*;

/// The games a data folder holds (the shipped games if none).
#[pyfunction]
#[pyo3(signature = (data=None))]
fn games(data: Option<PathBuf>) -> Vec<String> {
    fuda::data::source::open(data.as_deref()).games()
}

/// Loads and compiles a game once (`fuda.Game`, `fuda.sim` take it in place
/// of a name).
#[pyfunction]
#[pyo3(signature = (game, data=None))]
fn load(game: &str, data: Option<PathBuf>) -> PyResult<rules::Rules> {
    rules::Rules::load(game, data)
}

#[pymodule]
fn _fuda(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<rules::Rules>()?;
    m.add_class::<game::PyGame>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(game::replay, m)?)?;
    m.add_function(wrap_pyfunction!(sim::sim, m)?)?;
    m.add_function(wrap_pyfunction!(sim::report_text, m)?)?;
    m.add_function(wrap_pyfunction!(sim::standings_text, m)?)?;
    Ok(())
}
