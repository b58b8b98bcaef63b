//! The game's side of stepping from Python. The kernel calls its agents (a
//! decision is a suspended Rust call stack inside an effect), so a game
//! stepped from Python runs on its own thread and its Python-stepped seats
//! are [`Stepped`] agents: each request is sent to the Python side and the
//! seat waits for the answer, serving views and saves of the game meanwhile.
//! (Resume points, `engine::resume`, would replay the turn's answers at each
//! step instead: a thread costs one channel round trip per decision.)

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

use fuda::engine::view::View;
use fuda::engine::{Agent, Flow, Game, Kind, Outcome, Picks, Request, Res};
use fuda::replay::Save;
use fuda::search::determinize::Deal;
use rand_chacha::rand_core::SeedableRng;

/// What the Python side asks of the game thread.
pub enum ToGame {
    Answer(Vec<usize>),
    View(u8),
    Save,
    /// Deals the cards hidden from a player again (a test of the views:
    /// nothing that player is given may change).
    Redeal(u8, u64),
}

/// What the game thread tells the Python side.
pub enum FromGame {
    Ask(Asked),
    View(View),
    Save(String),
    /// An answer refused (it does not fit the request), and why.
    Refused(String),
    /// The game ended: its outcome, or the error that stopped it.
    Over(Result<Outcome, String>),
}

/// A request as the deciding player may read it (labels per viewer: a card
/// it may not see is "a face-down card", and names no card id).
pub struct Asked {
    pub player: u8,
    pub together: Vec<u8>,
    pub kind: &'static str,
    pub window: Option<String>,
    pub name: String,
    pub prompt: String,
    /// Each option's label and, if the player may see it, its card's id.
    pub options: Vec<(String, Option<String>)>,
    pub min: usize,
    pub max: usize,
    pub public: bool,
}

impl Asked {
    pub fn of(g: &Game, req: &Request) -> Asked {
        let p = req.player;
        let options = (req.options.iter())
            .map(|c| {
                let label = c.label_for(g, p);
                // The card is named only if the player's label names it.
                let card = match &c.value {
                    fuda::value::Value::Card(o) if label == c.label(g) => {
                        Some(g.data.def_id(g.st.objs[*o as usize].def).to_string())
                    }
                    fuda::value::Value::Def(d) => Some(g.data.def_id(*d).to_string()),
                    _ => None,
                };
                (label, card)
            })
            .collect();
        let (kind, window) = match req.kind {
            Kind::Pick => ("pick", None),
            Kind::Option => ("option", None),
            Kind::Order => ("order", None),
            Kind::YesNo => ("yesno", None),
            Kind::Window(w) => ("window", Some(g.data.windows[w as usize].name.clone())),
        };
        Asked {
            player: p,
            together: req.together.to_vec(),
            kind,
            window,
            name: req.name.to_string(),
            prompt: req.prompt.to_string(),
            options,
            min: req.min,
            max: req.max,
            public: req.public,
        }
    }
}

/// One game's channel between its thread and the Python side.
pub struct Link {
    pub to_py: Sender<FromGame>,
    pub from_py: Mutex<Receiver<ToGame>>,
    /// Answers given before Python steps (a replayed save), each with its
    /// player: every stepped seat takes them first, in order.
    pub queued: Mutex<VecDeque<(u8, Vec<usize>)>>,
}

impl Link {
    /// Serves what the Python side may ask while the game waits or is over.
    pub fn serve(&self, g: &mut Game, req: Option<&Request>, cmd: ToGame) -> bool {
        let reply = match cmd {
            ToGame::Redeal(p, seed) => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                Deal::default().redeal(g, p, &mut rng);
                match req {
                    Some(r) => FromGame::Ask(Asked::of(g, r)),
                    None => FromGame::Refused("the game is over".into()),
                }
            }
            ToGame::View(p) => FromGame::View(g.view(p)),
            ToGame::Save => match serde_json::to_string(&Save::of(g)) {
                Ok(s) => FromGame::Save(s),
                Err(e) => FromGame::Refused(e.to_string()),
            },
            ToGame::Answer(_) => FromGame::Refused("the game is over: nothing to answer".into()),
        };
        self.to_py.send(reply).is_ok()
    }
}

/// A seat answered from Python, one request at a time.
#[derive(Clone)]
pub struct Stepped(pub Arc<Link>);

impl Agent for Stepped {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let link = &*self.0;
        let queued = link
            .queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        if let Some((player, picks)) = queued {
            if player != req.player || !req.fits(&picks) {
                let message = format!(
                    "the saved answer {picks:?} of P{} does not fit this request of P{} ({}): the replay diverged (an edited save, or data changed since)",
                    player + 1,
                    req.player + 1,
                    req.prompt
                );
                return fail(message);
            }
            return Ok(picks.into_iter().collect());
        }
        // Python has gone (the game object dropped): the game stops here.
        let gone = || Box::new(Flow::OutOfDecisions);
        link.to_py
            .send(FromGame::Ask(Asked::of(g, req)))
            .map_err(|_| gone())?;
        let rx = link.from_py.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match rx.recv().map_err(|_| gone())? {
                ToGame::Answer(picks) if req.fits(&picks) => {
                    return Ok(picks.into_iter().collect());
                }
                ToGame::Answer(picks) => {
                    let why = format!(
                        "{picks:?} does not answer this request: pick {} to {} distinct options of {} (indices from 0)",
                        req.min,
                        req.max,
                        req.options.len()
                    );
                    link.to_py
                        .send(FromGame::Refused(why))
                        .map_err(|_| gone())?;
                }
                other => {
                    if !link.serve(g, Some(req), other) {
                        return Err(gone());
                    }
                }
            }
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

/// Plays the game on this thread, then serves views and saves of the
/// finished game until the Python side lets go.
pub fn play(mut g: Game, link: Arc<Link>) {
    let outcome = match g.play() {
        Ok(o) => Ok(o),
        Err(f) if matches!(*f, Flow::OutOfDecisions) => return,
        Err(f) => Err(fuda::report::flow_line(&g.data, &f)),
    };
    if link.to_py.send(FromGame::Over(outcome)).is_err() {
        return;
    }
    let rx = link.from_py.lock().unwrap_or_else(|e| e.into_inner());
    while let Ok(cmd) = rx.recv() {
        if !link.serve(&mut g, None, cmd) {
            return;
        }
    }
}

/// A game-stopping error raised by a seat (no place in the data to point at).
pub fn fail<T>(message: String) -> Res<T> {
    Err(Box::new(Flow::Error(fuda::engine::RunError {
        message,
        span: Default::default(),
        card: None,
        site: None,
        card_file: None,
    })))
}
