//! `fuda.Game`: one game stepped from Python. The game runs on its own
//! thread ([`crate::seat`]); every call here sends it a message and waits
//! for the reply with the GIL released.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use fuda::data::options;
use fuda::engine::{Agent, Game, GameConfig, Outcome};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::callback::Callback;
use crate::convert;
use crate::rules::{Rules, data_error};
use crate::seat::{Asked, FromGame, Link, Stepped, ToGame};

#[pyclass(name = "Game", module = "fuda")]
pub struct PyGame {
    rules: Py<Rules>,
    players: u8,
    seed: u64,
    tx: Sender<ToGame>,
    rx: Mutex<Receiver<FromGame>>,
    /// The request waiting for an answer from Python.
    pending: Option<Asked>,
    /// Set once the game ended: its outcome or the error that stopped it.
    over: Option<Result<Outcome, String>>,
}

/// The rules a `game` argument names: a loaded [`Rules`], or a game's name
/// (loaded from `data`, the shipped games if none).
pub fn rules_of(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    data: Option<PathBuf>,
) -> PyResult<Py<Rules>> {
    if let Ok(r) = game.extract::<Py<Rules>>() {
        return Ok(r);
    }
    let name: String = game.extract()?;
    Py::new(py, Rules::load(&name, data)?)
}

/// Options given as {name: [card ids]} (or a comma-separated string).
pub fn options_of(
    rules: &Rules,
    given: Option<&Bound<'_, PyDict>>,
) -> PyResult<HashMap<String, Vec<fuda::value::DefId>>> {
    let mut sets = Vec::new();
    for (k, v) in given.into_iter().flat_map(|d| d.iter()) {
        let ids: Vec<String> = match v.cast::<PyString>() {
            Ok(s) => (s.to_str()?.split(','))
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect(),
            Err(_) => v.extract()?,
        };
        sets.push((k.extract::<String>()?, ids));
    }
    options::resolve(&rules.data, sets).map_err(data_error)
}

/// The number of players: given, else the rules' default, within their range.
pub fn players_of(rules: &Rules, players: Option<u8>) -> PyResult<u8> {
    let (min, max, default) = rules.data.players;
    let n = players.unwrap_or(default);
    if n < min || n > max {
        return Err(PyValueError::new_err(format!(
            "players={n}: {} is for {min} to {max} players",
            rules.data.game
        )));
    }
    Ok(n)
}

/// An agent by name, as `fuda run --agents` reads it.
pub fn named_agent(rules: &Rules, name: &str) -> PyResult<Box<dyn Agent>> {
    fuda::search::parse(name, &rules.data).ok_or_else(|| {
        let bots: Vec<&str> = rules.data.bots.iter().map(|(n, _)| n.as_str()).collect();
        PyValueError::new_err(format!(
            "unknown agent {name:?}: first, random, ismcts[:N|:Nms][:bot], or a bot of {}: {}",
            rules.data.game,
            bots.join(", ")
        ))
    })
}

impl PyGame {
    /// Starts the game's thread and waits for its first request (or its end).
    #[allow(clippy::too_many_arguments)]
    fn start(
        py: Python<'_>,
        rules: Py<Rules>,
        players: u8,
        seed: u64,
        options: HashMap<String, Vec<fuda::value::DefId>>,
        seats: Vec<Option<Bound<'_, PyAny>>>,
        queued: VecDeque<(u8, Vec<usize>)>,
        reference: bool,
    ) -> PyResult<PyGame> {
        let (tx, from_py) = channel();
        let (to_py, rx) = channel();
        let link = Arc::new(Link {
            to_py,
            from_py: Mutex::new(from_py),
            queued: Mutex::new(queued),
        });
        let r = rules.get();
        let mut agents: Vec<Box<dyn Agent>> = Vec::new();
        for (i, seat) in seats.into_iter().enumerate() {
            agents.push(match seat {
                None => Box::new(Stepped(link.clone())),
                Some(s) if s.is_none() => Box::new(Stepped(link.clone())),
                Some(s) => match s.extract::<String>() {
                    Ok(name) => named_agent(r, &name)?,
                    Err(_) if s.is_callable() => Box::new(Callback(Arc::new(s.unbind()))),
                    Err(_) => {
                        return Err(PyValueError::new_err(format!(
                            "agents[{i}]: an agent is None (stepped from Python), a name or a function"
                        )));
                    }
                },
            });
        }
        agents.resize_with(players as usize, || Box::new(Stepped(link.clone())));
        let cfg = GameConfig {
            players,
            seed,
            agents,
            options,
            logging: false,
            tier: (!reference).then(|| r.tier.clone()),
        };
        let game = Game::new(r.data.clone(), cfg);
        std::thread::Builder::new()
            .name("fuda game".into())
            .stack_size(fuda::sim::STACK_SIZE)
            .spawn(move || crate::seat::play(game, link))
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the game's thread: {e}")))?;
        let mut g = PyGame {
            rules,
            players,
            seed,
            tx,
            rx: Mutex::new(rx),
            pending: None,
            over: None,
        };
        let first = g.wait(py)?;
        g.step(first)?;
        Ok(g)
    }

    /// The game thread's next message (the GIL released meanwhile).
    fn wait(&self, py: Python<'_>) -> PyResult<FromGame> {
        let rx = &self.rx;
        py.detach(|| rx.lock().unwrap_or_else(|e| e.into_inner()).recv())
            .map_err(|_| PyRuntimeError::new_err("the game's thread stopped"))
    }

    fn ask(&self, py: Python<'_>, cmd: ToGame) -> PyResult<FromGame> {
        self.tx
            .send(cmd)
            .map_err(|_| PyRuntimeError::new_err("the game's thread stopped"))?;
        self.wait(py)
    }

    /// Takes in the game's next request or its end.
    fn step(&mut self, m: FromGame) -> PyResult<()> {
        match m {
            FromGame::Ask(a) => self.pending = Some(a),
            FromGame::Over(o) => self.over = Some(o),
            FromGame::Refused(why) => return Err(PyValueError::new_err(why)),
            _ => {
                return Err(PyRuntimeError::new_err(
                    "the game's thread answered out of turn",
                ));
            }
        }
        Ok(())
    }
}

#[pymethods]
impl PyGame {
    /// A new game. `agents` names each seat's agent: None (answered from
    /// Python with `request`/`answer`; the default), a name (`random`,
    /// `first`, a bot of the rules, `ismcts:N`) or a function
    /// `f(request) -> picks` called on the game's thread.
    #[new]
    #[pyo3(signature = (game, seed=1, players=None, options=None, agents=None, data=None, reference=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        seed: u64,
        players: Option<u8>,
        options: Option<&Bound<'_, PyDict>>,
        agents: Option<Vec<Bound<'_, PyAny>>>,
        data: Option<PathBuf>,
        reference: bool,
    ) -> PyResult<PyGame> {
        let rules = rules_of(py, game, data)?;
        let r = rules.get();
        let players = players_of(r, players)?;
        let options = options_of(r, options)?;
        let seats: Vec<_> = agents.unwrap_or_default().into_iter().map(Some).collect();
        if seats.len() > players as usize {
            return Err(PyValueError::new_err(format!(
                "{} agents for {players} players",
                seats.len()
            )));
        }
        PyGame::start(
            py,
            rules,
            players,
            seed,
            options,
            seats,
            VecDeque::new(),
            reference,
        )
    }

    /// The request waiting for an answer (a dict: player, kind, prompt,
    /// options with labels, min, max…), or None once the game is over.
    fn request<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.pending
            .as_ref()
            .map(|a| convert::request(py, a, None))
            .transpose()
    }

    /// Answers the waiting request with the indices of the options picked
    /// (an int for one); the game runs on to its next request.
    fn answer(&mut self, py: Python<'_>, picks: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.pending.is_none() {
            return Err(PyRuntimeError::new_err(
                "the game is over: nothing to answer",
            ));
        }
        let picks = match picks.extract::<usize>() {
            Ok(one) => vec![one],
            Err(_) => picks.extract::<Vec<usize>>()?,
        };
        let next = self.ask(py, ToGame::Answer(picks))?;
        if let FromGame::Refused(why) = next {
            return Err(PyValueError::new_err(why));
        }
        self.pending = None;
        self.step(next)
    }

    /// What `player` (from 1) may see now, as `fuda run --view` shows it.
    fn view<'py>(&self, py: Python<'py>, player: u8) -> PyResult<Bound<'py, PyDict>> {
        if player == 0 || player > self.players {
            return Err(PyValueError::new_err(format!(
                "player {player}: there are {} players (from 1)",
                self.players
            )));
        }
        match self.ask(py, ToGame::View(player - 1))? {
            FromGame::View(v) => convert::view(py, &v),
            _ => Err(PyRuntimeError::new_err(
                "the game's thread answered out of turn",
            )),
        }
    }

    /// Whether the game is over.
    #[getter]
    fn done(&self) -> bool {
        self.over.is_some()
    }

    /// The result once the game is over (winners, scores, turns, ended…),
    /// else None; a game stopped by an error raises it.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match &self.over {
            None => Ok(None),
            Some(Ok(o)) => convert::outcome(py, &self.rules.get().data, o).map(Some),
            Some(Err(e)) => Err(PyRuntimeError::new_err(e.clone())),
        }
    }

    /// The game so far as `fuda run --save` writes it (JSON text): its data's
    /// fingerprint, seed, options and every answer.
    fn save(&self, py: Python<'_>) -> PyResult<String> {
        match self.ask(py, ToGame::Save)? {
            FromGame::Save(s) => Ok(s),
            FromGame::Refused(why) => Err(PyRuntimeError::new_err(why)),
            _ => Err(PyRuntimeError::new_err(
                "the game's thread answered out of turn",
            )),
        }
    }

    /// For tests of hidden information: deals the cards hidden from
    /// `player` (from 1) again among their places, as a search's
    /// determinization does, and takes in the request as it reads now.
    /// Nothing that player is given (views, the request) may change.
    fn _redeal_hidden(&mut self, py: Python<'_>, player: u8, seed: u64) -> PyResult<()> {
        if self.pending.is_none() || player == 0 || player > self.players {
            return Err(PyValueError::new_err("no request waits, or no such player"));
        }
        let m = self.ask(py, ToGame::Redeal(player - 1, seed))?;
        self.pending = None;
        self.step(m)
    }

    #[getter]
    fn players(&self) -> u8 {
        self.players
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<Rules> {
        self.rules.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        let r = self.rules.get();
        format!(
            "fuda.Game({:?}, seed={}, players={}{})",
            r.data.game,
            self.seed,
            self.players,
            if self.over.is_some() { ", done" } else { "" }
        )
    }
}

/// `fuda.replay(save, upto=None, data=None)`: the saved game (JSON text, or
/// the path of a save file) played again to its last answer (or the first
/// `upto`), then stepped from Python like any game.
#[pyfunction]
#[pyo3(signature = (save, upto=None, data=None, reference=false))]
pub fn replay(
    py: Python<'_>,
    save: &str,
    upto: Option<usize>,
    data: Option<PathBuf>,
    reference: bool,
) -> PyResult<PyGame> {
    let text = if save.trim_start().starts_with('{') {
        save.to_string()
    } else {
        std::fs::read_to_string(save).map_err(|e| PyValueError::new_err(format!("{save}: {e}")))?
    };
    let s: fuda::replay::Save = serde_json::from_str(&text)
        .map_err(|e| PyValueError::new_err(format!("not a saved game: {e}")))?;
    if s.format != fuda::replay::FORMAT {
        return Err(PyValueError::new_err(format!(
            "a saved game of format {} (this fuda reads format {})",
            s.format,
            fuda::replay::FORMAT
        )));
    }
    let rules = Py::new(py, Rules::load(&s.game, data)?)?;
    let r = rules.get();
    if format!("{:016x}", r.data.hash()) != s.data_hash {
        let warn = py.import("warnings")?;
        warn.call_method1(
            "warn",
            ("the game's data changed since this game was saved; the replay may diverge",),
        )?;
    }
    let players = players_of(r, Some(s.players))?;
    let sets: BTreeMap<String, Vec<String>> = s.options.clone();
    let options = options::resolve(&r.data, sets.into_iter().collect()).map_err(data_error)?;
    let mut queued = VecDeque::new();
    for a in s.answers.iter().take(upto.unwrap_or(usize::MAX)) {
        if a.player == 0 || a.player > players {
            return Err(PyValueError::new_err(format!(
                "the save records an answer of player {} in a {players}-player game",
                a.player
            )));
        }
        queued.push_back((a.player - 1, a.picks.iter().map(|&i| i as usize).collect()));
    }
    PyGame::start(
        py,
        rules,
        players,
        s.seed,
        options,
        Vec::new(),
        queued,
        reference,
    )
}
