//! `fuda.Game`: one game stepped from Python. The game runs on a stackful
//! coroutine on the caller's thread ([`crate::seat`]); every call here
//! resumes it with a message, the GIL released and the game's share of the
//! kernel's thread-locals swapped in ([`ThreadState`]), until it suspends
//! with its reply. A coroutine cannot move between threads, so a `Game`
//! belongs to the Python thread that made it: used from another thread, it
//! raises `RuntimeError` (PyO3's `unsendable` would raise its
//! `PanicException`, which `except Exception` does not catch).

use std::collections::{BTreeMap, HashMap};
use std::mem::ManuallyDrop;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use corosensei::CoroutineResult;
use fuda::data::options;
use fuda::engine::{Agent, GameConfig, Outcome, ThreadState};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString};

use crate::convert;
use crate::rules::{Rules, data_error};
use crate::seat::{Asked, Co, FromGame, Lent, Seat, ToGame};

#[pyclass(name = "Game", module = "fuda")]
pub struct PyGame {
    /// The thread that made the game, the only one that runs it.
    thread: std::thread::ThreadId,
    rules: Py<Rules>,
    players: u8,
    seed: u64,
    co: ManuallyDrop<Co>,
    /// The game's share of the thread-locals while it is suspended.
    state: ThreadState,
    /// Each callback seat's function, by player.
    callbacks: Vec<Option<Py<PyAny>>>,
    /// Whether a request waits for an answer from Python.
    waiting: bool,
    /// That request once read: lent by the game, valid while it is
    /// suspended at that request.
    pending: Option<Lent<Asked>>,
    /// Set once the game ended: its outcome or the error that stopped it.
    over: Option<Result<Outcome, String>>,
}

// SAFETY: the coroutine, its thread state and what it lends (`co`,
// `state`, `pending`) are touched only on `thread`: every method that does
// checks `here` first, and a game dropped on another thread leaks them
// (see `Drop`). The other fields are plain data.
unsafe impl Send for PyGame {}
unsafe impl Sync for PyGame {}

/// A closure run at once on this thread with the GIL released: what it
/// holds (the coroutine, its thread state, lent messages) never leaves the
/// thread, which `detach`'s `Send` bound cannot see.
struct Here<T>(T);

// SAFETY: see `Here`: `detach` runs the closure on the calling thread.
unsafe impl<T> Send for Here<T> {}

impl<T> Here<T> {
    fn take(self) -> T {
        self.0
    }
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
    /// Starts the game on its coroutine and takes in its first request (or
    /// its end).
    #[allow(clippy::too_many_arguments)]
    fn start(
        py: Python<'_>,
        rules: Py<Rules>,
        players: u8,
        seed: u64,
        options: HashMap<String, Vec<fuda::value::DefId>>,
        given: Vec<Bound<'_, PyAny>>,
        queued: Vec<(u8, Vec<usize>)>,
        reference: bool,
    ) -> PyResult<PyGame> {
        let r = rules.get();
        let mut seats = Vec::new();
        let mut callbacks = Vec::new();
        for (i, s) in given.into_iter().enumerate() {
            callbacks.push(None);
            seats.push(if s.is_none() {
                Seat::Stepped
            } else if let Ok(name) = s.extract::<String>() {
                Seat::Agent(named_agent(r, &name)?)
            } else if s.is_callable() {
                callbacks[i] = Some(s.unbind());
                Seat::Callback
            } else {
                return Err(PyValueError::new_err(format!(
                    "agents[{i}]: an agent is None (stepped from Python), a name or a function"
                )));
            });
        }
        seats.resize_with(players as usize, || Seat::Stepped);
        callbacks.resize_with(players as usize, || None);
        let cfg = GameConfig {
            players,
            seed,
            agents: Vec::new(),
            options,
            logging: false,
            tier: (!reference).then(|| r.tier.clone()),
        };
        let co = crate::seat::start(r.data.clone(), cfg, seats, queued, fuda::sim::STACK_SIZE)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot make the game's stack: {e}")))?;
        let mut g = PyGame {
            thread: std::thread::current().id(),
            rules,
            players,
            seed,
            co: ManuallyDrop::new(co),
            state: ThreadState::default(),
            callbacks,
            waiting: false,
            pending: None,
            over: None,
        };
        // The first resume starts the game (its message is not read).
        let first = g.resume(py, ToGame::Save)?;
        g.step(first)?;
        Ok(g)
    }

    /// Resumes the game with `cmd` until it suspends with a reply, which is
    /// lent until the next resume; a callback seat's request is answered on
    /// the way (its function called here, with the GIL).
    fn resume(&mut self, py: Python<'_>, cmd: ToGame) -> PyResult<Lent<FromGame>> {
        self.here()?;
        let mut cmd = cmd;
        loop {
            if self.co.done() {
                return Err(PyRuntimeError::new_err("the game has stopped"));
            }
            let run = Here((&mut self.co, &mut self.state, Lent::of(&cmd)));
            let r = py.detach(move || {
                let (co, state, cmd) = run.take();
                state.swap();
                let r = catch_unwind(AssertUnwindSafe(|| co.resume(cmd)));
                state.swap();
                Here(r)
            });
            let lent = match r.take() {
                Ok(CoroutineResult::Yield(lent)) => lent,
                Ok(CoroutineResult::Return(())) => {
                    return Err(PyRuntimeError::new_err("the game has stopped"));
                }
                Err(panic) => {
                    let why = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    let why = format!("fuda stopped on an internal error (a bug): {why}");
                    (self.waiting, self.pending) = (false, None);
                    self.over = Some(Err(why.clone()));
                    return Err(PyRuntimeError::new_err(why));
                }
            };
            // SAFETY: the game is suspended at `lent` until the next resume.
            match unsafe { lent.get() } {
                FromGame::Call(asked, view) => cmd = ToGame::Called(self.call(py, asked, view)),
                _ => return Ok(lent),
            }
        }
    }

    /// A callback seat's answer: its function called with the request and
    /// the deciding player's view.
    fn call(
        &self,
        py: Python<'_>,
        asked: &Asked,
        view: &fuda::engine::view::View,
    ) -> Result<Vec<usize>, String> {
        let f = self.callbacks[asked.player as usize]
            .as_ref()
            .ok_or("no function answers this seat")?;
        let picks = (|| -> PyResult<Vec<usize>> {
            let r = convert::request(py, asked, Some(view))?;
            picks_of(&f.bind(py).call1((r,))?)
        })();
        picks.map_err(|e| e.to_string())
    }

    /// Takes in the game's next request or its end.
    fn step(&mut self, m: Lent<FromGame>) -> PyResult<()> {
        // SAFETY: lent by the game, which has not run since.
        match unsafe { m.get() } {
            FromGame::Waiting => (self.waiting, self.pending) = (true, None),
            FromGame::Ask(a) => (self.waiting, self.pending) = (true, Some(Lent::of(a))),
            FromGame::Over(o) => {
                (self.waiting, self.pending) = (false, None);
                self.over = Some(o.clone());
            }
            FromGame::Refused(why) => return Err(PyValueError::new_err(why.clone())),
            _ => {
                return Err(PyRuntimeError::new_err("the game answered out of turn"));
            }
        }
        Ok(())
    }

    /// The request waiting, if any (read from the game the first time).
    fn pending(&mut self, py: Python<'_>) -> PyResult<Option<&Asked>> {
        if !self.waiting {
            return Ok(None);
        }
        if self.pending.is_none() {
            let m = self.resume(py, ToGame::Request)?;
            self.step(m)?;
        }
        // SAFETY: the game stays suspended at this request until it is
        // answered, and every resume that moves it on clears `pending`.
        Ok(self.pending.map(|a| unsafe { a.get() }))
    }

    /// Whether this is the game's thread (else a `RuntimeError`).
    fn here(&self) -> PyResult<()> {
        if std::thread::current().id() != self.thread {
            return Err(PyRuntimeError::new_err(
                "a fuda.Game is stepped on the Python thread that made it (its game runs on a coroutine of that thread); make one per thread",
            ));
        }
        Ok(())
    }
}

/// Stops the game at once (its stepped seat answers with the end of the
/// game's decisions), freeing its coroutine and everything on its stack.
impl Drop for PyGame {
    fn drop(&mut self) {
        self.pending = None;
        if std::thread::current().id() != self.thread {
            // Its stack holds a game of the thread that made it: it cannot
            // be resumed or unwound here, so it stays (leaked).
            return;
        }
        let stop = ToGame::Stop;
        // A stop ends the game at the seat that waits; should the game ask
        // again anyway, the coroutine's own drop unwinds its stack.
        for _ in 0..4 {
            if self.co.done() {
                break;
            }
            self.state.swap();
            let r = catch_unwind(AssertUnwindSafe(|| self.co.resume(Lent::of(&stop))));
            self.state.swap();
            if r.is_err() {
                break;
            }
        }
        self.state.swap();
        // SAFETY: dropped once, here, and never used again.
        unsafe { ManuallyDrop::drop(&mut self.co) };
        self.state.swap();
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
        let n = agents.as_ref().map_or(0, |a| a.len());
        if n > players as usize {
            return Err(PyValueError::new_err(format!(
                "{n} agents for {players} players"
            )));
        }
        PyGame::start(
            py,
            rules,
            players,
            seed,
            options,
            agents.unwrap_or_default(),
            Vec::new(),
            reference,
        )
    }

    /// The request waiting for an answer (a dict: player, kind, prompt,
    /// options with labels, min, max…), or None once the game is over.
    fn request<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.pending(py)?
            .map(|a| convert::request(py, a, None))
            .transpose()
    }

    /// Answers the waiting request with the indices of the options picked
    /// (an int for one); the game runs on to its next request.
    fn answer(&mut self, py: Python<'_>, picks: &Bound<'_, PyAny>) -> PyResult<()> {
        if !self.waiting {
            return Err(PyRuntimeError::new_err(
                "the game is over: nothing to answer",
            ));
        }
        let picks = picks_of(picks)?;
        // The request is lent until the game runs on; a refused answer
        // leaves it waiting, as it was.
        let asked = self.pending.take();
        let next = self.resume(py, ToGame::Answer(picks))?;
        // SAFETY: lent by the game, which has not run since.
        if let FromGame::Refused(why) = unsafe { next.get() } {
            self.pending = asked;
            return Err(PyValueError::new_err(why.clone()));
        }
        self.step(next)
    }

    /// What `player` (from 1) may see now, as `fuda run --view` shows it.
    fn view<'py>(&mut self, py: Python<'py>, player: u8) -> PyResult<Bound<'py, PyDict>> {
        if player == 0 || player > self.players {
            return Err(PyValueError::new_err(format!(
                "player {player}: there are {} players (from 1)",
                self.players
            )));
        }
        let reply = self.resume(py, ToGame::View(player - 1))?;
        // SAFETY: lent by the game, which has not run since.
        match unsafe { reply.get() } {
            FromGame::View(v) => convert::view(py, v),
            _ => Err(PyRuntimeError::new_err("the game answered out of turn")),
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
    fn save<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let reply = self.resume(py, ToGame::Save)?;
        // SAFETY: lent by the game, which has not run since.
        match unsafe { reply.get() } {
            FromGame::Save(s) => Ok(PyString::new(py, s)),
            FromGame::Refused(why) => Err(PyRuntimeError::new_err(why.clone())),
            _ => Err(PyRuntimeError::new_err("the game answered out of turn")),
        }
    }

    /// For tests of hidden information: deals the cards hidden from
    /// `player` (from 1) again among their places, as a search's
    /// determinization does, and takes in the request as it reads now.
    /// Nothing that player is given (views, the request) may change.
    fn _redeal_hidden(&mut self, py: Python<'_>, player: u8, seed: u64) -> PyResult<()> {
        if !self.waiting || player == 0 || player > self.players {
            return Err(PyValueError::new_err("no request waits, or no such player"));
        }
        // The game reads the request anew: the one lent goes.
        self.pending = None;
        let m = self.resume(py, ToGame::Redeal(player - 1, seed))?;
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
    let mut queued = Vec::new();
    for a in s.answers.iter().take(upto.unwrap_or(usize::MAX)) {
        if a.player == 0 || a.player > players {
            return Err(PyValueError::new_err(format!(
                "the save records an answer of player {} in a {players}-player game",
                a.player
            )));
        }
        queued.push((a.player - 1, a.picks.iter().map(|&i| i as usize).collect()));
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

/// An answer's picks: an int for one, or a list of ints. Told apart first,
/// since a failed extraction builds a Python exception.
fn picks_of(picks: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    if picks.is_instance_of::<PyInt>() {
        Ok(vec![picks.extract::<usize>()?])
    } else {
        picks.extract::<Vec<usize>>()
    }
}
