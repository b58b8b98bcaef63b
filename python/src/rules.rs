//! A loaded game (`fuda.load`): its compiled data, kept to start many games
//! without loading again, and what a client needs to read views generically.

use std::path::PathBuf;
use std::sync::Arc;

use fuda::data::source;
use fuda::data::{Data, DataErrors};
use fuda::engine::tier::Tier;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A data error as Python sees it: the diagnostics as `fuda check` prints them.
pub fn data_error(e: DataErrors) -> PyErr {
    let mut text = String::new();
    for d in e.errors {
        text += &format!("{:?}\n", miette::Report::new(d));
    }
    PyValueError::new_err(text.trim_end().to_string())
}

#[pyclass(name = "Rules", module = "fuda", frozen)]
pub struct Rules {
    pub data: Arc<Data>,
    pub tier: Arc<dyn Tier>,
}

impl Rules {
    pub fn load(game: &str, data: Option<PathBuf>) -> PyResult<Rules> {
        let src = source::open(data.as_deref());
        let data = Arc::new(src.load(game).map_err(data_error)?);
        let tier = fuda::fast::tier(&data);
        Ok(Rules { data, tier })
    }
}

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (game, data=None))]
    fn new(game: &str, data: Option<PathBuf>) -> PyResult<Rules> {
        Rules::load(game, data)
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &str {
        &self.data.game
    }

    /// (fewest, most, default) players.
    #[getter]
    fn players(&self) -> (u8, u8, u8) {
        self.data.players
    }

    /// Every card definition as (id, name), in the data's order.
    #[getter]
    fn cards(&self) -> Vec<(String, String)> {
        (self.data.defs.iter())
            .map(|d| (d.id.clone(), d.name.clone()))
            .collect()
    }

    /// The counters every player has, by name.
    #[getter]
    fn counters(&self) -> Vec<String> {
        self.data.counters.iter().map(|c| c.name.clone()).collect()
    }

    /// The options the rules declare, by name.
    #[getter]
    fn options(&self) -> Vec<String> {
        self.data.options.clone()
    }

    /// The rules' bots, by name (each is an agent name too).
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.data.bots.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The file a card is written in, as (path, text): what a sweep copies
    /// into a mod to change one of its properties.
    fn card_source(&self, id: &str) -> PyResult<(String, String)> {
        let d = (self.data.defs.iter().find(|d| d.id == id)).ok_or_else(|| {
            PyValueError::new_err(format!("{} has no card {id:?}", self.data.game))
        })?;
        let s = &self.data.sources;
        Ok((s.path(d.file).to_string(), s.text(d.file).to_string()))
    }

    fn __repr__(&self) -> String {
        format!("fuda.Rules({:?})", self.data.game)
    }
}
