//! A seat answered by a Python function, called on the game's thread:
//! `f(request) -> picks`, the request carrying the deciding player's view
//! (the game cannot be asked for it while it waits on the function).

use std::sync::Arc;

use fuda::engine::{Agent, Game, Picks, Request, Res};
use pyo3::prelude::*;

use crate::convert;
use crate::seat::{Asked, fail};

#[derive(Clone)]
pub struct Callback(pub Arc<Py<PyAny>>);

impl Agent for Callback {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let asked = Asked::of(g, req);
        let view = g.view(req.player);
        let picks = Python::attach(|py| -> PyResult<Vec<usize>> {
            let r = convert::request(py, &asked, Some(&view))?;
            let out = self.0.bind(py).call1((r,))?;
            match out.extract::<usize>() {
                Ok(one) => Ok(vec![one]),
                Err(_) => out.extract::<Vec<usize>>(),
            }
        });
        match picks {
            Ok(p) if req.fits(&p) => Ok(p.into_iter().collect()),
            Ok(p) => fail(format!(
                "the Python agent of P{} answered {p:?}: pick {} to {} distinct options of {}",
                req.player + 1,
                req.min,
                req.max,
                req.options.len()
            )),
            Err(e) => fail(format!(
                "the Python agent of P{} failed: {e}",
                req.player + 1
            )),
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}
