//! Kernel values as Python data: plain dicts and lists, shaped as their JSON
//! (`View` as `--view` and its serde form hold it), players counted from 1.

use fuda::data::Data;
use fuda::engine::Outcome;
use fuda::engine::view::View;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::seat::Asked;

/// A request: who answers, its kind, prompt, options (label, and card id if
/// the player may see it) and how many to pick; with `view`, the deciding
/// player's view too (a callback seat's request).
pub fn request<'py>(
    py: Python<'py>,
    a: &Asked,
    view: Option<&View>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", a.player + 1)?;
    d.set_item(
        "together",
        a.together.iter().map(|&p| p as u32 + 1).collect::<Vec<_>>(),
    )?;
    d.set_item("kind", a.kind)?;
    d.set_item("window", a.window.as_deref())?;
    d.set_item("name", &a.name)?;
    d.set_item("prompt", &a.prompt)?;
    let options = PyList::empty(py);
    for (label, card) in &a.options {
        let o = PyDict::new(py);
        o.set_item("label", label)?;
        o.set_item("card", card.as_deref())?;
        options.append(o)?;
    }
    d.set_item("options", options)?;
    d.set_item("min", a.min)?;
    d.set_item("max", a.max)?;
    d.set_item("public", a.public)?;
    if let Some(v) = view {
        d.set_item("view", self::view(py, v)?)?;
    }
    Ok(d)
}

/// A player's view: exactly the fields of the kernel's `View`, nothing more.
pub fn view<'py>(py: Python<'py>, v: &View) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", v.player)?;
    d.set_item("active", v.active)?;
    d.set_item("turn", v.turn)?;
    d.set_item("phase", v.phase.as_deref())?;
    d.set_item("counters", v.counters.clone())?;
    let zones = PyList::empty(py);
    for z in &v.zones {
        let zd = PyDict::new(py);
        zd.set_item("zone", &z.zone)?;
        zd.set_item("size", z.size)?;
        zd.set_item("cards", z.cards.clone())?;
        zd.set_item("top", z.top.as_deref())?;
        zd.set_item("piles", z.piles.clone())?;
        // As the serde form: present only where a listed card has one.
        if let Some(st) = &z.states {
            zd.set_item("states", st.clone())?;
        }
        if let Some(hs) = &z.hosts {
            let list = PyList::empty(py);
            for h in hs {
                match h {
                    Some(h) => {
                        let hd = PyDict::new(py);
                        hd.set_item("zone", &h.zone)?;
                        hd.set_item("name", h.name.as_deref())?;
                        hd.set_item("index", h.index)?;
                        list.append(hd)?;
                    }
                    None => list.append(py.None())?,
                }
            }
            zd.set_item("hosts", list)?;
        }
        zones.append(zd)?;
    }
    d.set_item("zones", zones)?;
    if let Some(b) = &v.board {
        d.set_item("board", b)?;
    }
    Ok(d)
}

/// A game's result, players from 1.
pub fn outcome<'py>(py: Python<'py>, data: &Data, o: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let one = |v: &[u8]| v.iter().map(|&p| p as u32 + 1).collect::<Vec<_>>();
    d.set_item("winners", one(&o.winners))?;
    d.set_item("scores", o.scores.clone())?;
    d.set_item("turns", o.turns)?;
    d.set_item("turns_taken", o.turns_taken.clone())?;
    d.set_item("ended", o.ended.word())?;
    let rule = o.rule.map(|r| data.end_rules[r as usize].0.as_str());
    d.set_item("rule", rule)?;
    d.set_item("lost", one(&o.lost))?;
    d.set_item("tiebreaks", o.tiebreaks.clone())?;
    Ok(d)
}
