//! The game's side of stepping from Python. The kernel calls its agents (a
//! decision is a suspended Rust call stack inside an effect), so a game
//! stepped from Python runs on a stackful coroutine (`corosensei`) on the
//! caller's thread, and its Python seats are [`Stepped`] agents: each
//! suspends the coroutine with its request and is resumed with the answer,
//! serving views and saves of the game meanwhile. A resume is a stack switch
//! (the driver is [`crate::game`]). A thread per game cost two context
//! switches per decision; the kernel's resume points (`engine::resume`)
//! would replay the turn's answers at each step.
//!
//! The two sides lend each other their messages ([`Lent`]) rather than give
//! them: each frees what it made, so the bytes a game holds, counted per
//! game while it runs ([`fuda::engine::ThreadState`]), are its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use corosensei::{Coroutine, Yielder};
use fuda::data::Data;
use fuda::engine::view::View;
use fuda::engine::{Agent, Flow, Game, GameConfig, Kind, Outcome, Picks, Request, Res};
use fuda::replay::Save;
use fuda::search::determinize::Deal;
use rand_chacha::rand_core::SeedableRng;

/// What the Python side asks of the game.
pub enum ToGame {
    /// The waiting request, as its player may read it.
    Request,
    Answer(Vec<usize>),
    View(u8),
    Save,
    /// Deals the cards hidden from a player again (a test of the views:
    /// nothing that player is given may change).
    Redeal(u8, u64),
    /// What a callback seat's function answered, or how it failed.
    Called(Result<Vec<usize>, String>),
    /// The Python side let go of the game: it stops at once.
    Stop,
}

/// What the game tells the Python side.
pub enum FromGame {
    /// A stepped seat waits for an answer (its request is read apart, only
    /// if Python asks: its labels cost more than the rest of a step).
    Waiting,
    Ask(Asked),
    /// A callback seat's request, with the deciding player's view: the
    /// driver calls the seat's Python function on its own stack.
    Call(Asked, View),
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

/// A message lent across a switch: it stays where its maker keeps it, and
/// may be read until the maker runs again (the game's reply until the next
/// resume, Python's message until the game's next suspend).
pub struct Lent<T>(*const T);

impl<T> Clone for Lent<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Lent<T> {}

impl<T> Lent<T> {
    pub fn of(t: &T) -> Lent<T> {
        Lent(t)
    }

    /// # Safety
    /// Only while the lender has not run again since it lent this.
    pub unsafe fn get<'a>(self) -> &'a T {
        unsafe { &*self.0 }
    }
}

/// The coroutine a game runs on: resumed with Python's messages, suspended
/// with the game's replies; it returns once stopped.
pub type Co = Coroutine<Lent<ToGame>, Lent<FromGame>, ()>;

type Yield = Yielder<Lent<ToGame>, Lent<FromGame>>;

/// How a game's stepped seats reach Python: the coroutine's yielder; and
/// the answers of a replayed save, each with its player, taken first.
pub struct Port {
    yielder: AtomicPtr<Yield>,
    queued: Vec<(u8, Vec<usize>)>,
    next: AtomicUsize,
}

impl Port {
    /// Lends `reply` to Python and reads its next message with `read`.
    fn suspend<R>(&self, reply: &FromGame, read: impl FnOnce(&ToGame) -> R) -> R {
        let y = self.yielder.load(Ordering::Relaxed);
        // SAFETY: the yielder is set before the game starts and outlives it
        // (the game is made and dropped inside the coroutine); the agents
        // holding this port are called only by that game, on the coroutine.
        let cmd = unsafe { (*y).suspend(Lent::of(reply)) };
        // SAFETY: Python's message is read before the game suspends again.
        read(unsafe { cmd.get() })
    }
}

/// A seat answered from Python, one request at a time: by the stepping
/// API, or by a callback seat's function (called by the driver).
#[derive(Clone)]
pub struct Stepped {
    port: Arc<Port>,
    callback: bool,
}

/// What a stepped seat does with Python's message (moved once per message:
/// boxing the big reply would only add an allocation).
#[allow(clippy::large_enum_variant)]
enum Next {
    Picks(Picks),
    Reply(FromGame),
    Fail(String),
    Stop,
}

impl Agent for Stepped {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let port = &*self.port;
        let i = port.next.load(Ordering::Relaxed);
        if let Some((player, picks)) = port.queued.get(i) {
            port.next.store(i + 1, Ordering::Relaxed);
            if *player != req.player || !req.fits(picks) {
                return fail(format!(
                    "the saved answer {picks:?} of P{} does not fit this request of P{} ({}): the replay diverged (an edited save, or data changed since)",
                    player + 1,
                    req.player + 1,
                    req.prompt
                ));
            }
            return Ok(picks.iter().copied().collect());
        }
        let first = if self.callback {
            FromGame::Call(Asked::of(g, req), g.view(req.player))
        } else {
            FromGame::Waiting
        };
        // The request as Python read it stays lent until the answer; other
        // replies only until the next resume.
        let (mut asked, mut reply, mut lend_asked) = (None, None, false);
        loop {
            let lent = match (&asked, &reply) {
                (Some(a), _) if lend_asked => a,
                (_, Some(r)) => r,
                _ => &first,
            };
            let next = self.port.suspend(lent, |cmd| self.take(g, req, cmd));
            match next {
                Next::Picks(p) => return Ok(p),
                Next::Fail(message) => return fail(message),
                // Python has let go (the game object dropped): it stops here.
                Next::Stop => return Err(Box::new(Flow::OutOfDecisions)),
                // Asked for the request, or it reads anew after a redeal
                // (Python let go of the old one first).
                Next::Reply(a @ FromGame::Ask(_)) => (asked, lend_asked) = (Some(a), true),
                Next::Reply(r) => (reply, lend_asked) = (Some(r), false),
            }
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

impl Stepped {
    fn take(&self, g: &mut Game, req: &Request, cmd: &ToGame) -> Next {
        let seat = req.player + 1;
        let unfit = |p: &[usize]| {
            format!(
                "pick {} to {} distinct options of {} (indices from 0), not {p:?}",
                req.min,
                req.max,
                req.options.len()
            )
        };
        match cmd {
            ToGame::Answer(p) if req.fits(p) => Next::Picks(p.iter().copied().collect()),
            ToGame::Answer(p) => Next::Reply(FromGame::Refused(format!(
                "{p:?} does not answer this request: {}",
                unfit(p)
            ))),
            ToGame::Called(Ok(p)) if req.fits(p) => Next::Picks(p.iter().copied().collect()),
            ToGame::Called(Ok(p)) => Next::Fail(format!(
                "the Python agent of P{seat} answered {p:?}: {}",
                unfit(p)
            )),
            ToGame::Called(Err(e)) => {
                Next::Fail(format!("the Python agent of P{seat} failed: {e}"))
            }
            ToGame::Stop => Next::Stop,
            ToGame::Request => Next::Reply(FromGame::Ask(Asked::of(g, req))),
            other => Next::Reply(serve(g, Some(req), other)),
        }
    }
}

/// What the Python side may ask while the game waits or is over.
fn serve(g: &mut Game, req: Option<&Request>, cmd: &ToGame) -> FromGame {
    match cmd {
        ToGame::Redeal(p, seed) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(*seed);
            Deal::default().redeal(g, *p, &mut rng);
            match req {
                Some(r) => FromGame::Ask(Asked::of(g, r)),
                None => FromGame::Refused("the game is over".into()),
            }
        }
        ToGame::View(p) => FromGame::View(g.view(*p)),
        ToGame::Save => match serde_json::to_string(&Save::of(g)) {
            Ok(s) => FromGame::Save(s),
            Err(e) => FromGame::Refused(e.to_string()),
        },
        ToGame::Answer(_) | ToGame::Called(_) | ToGame::Request => {
            FromGame::Refused("the game is over: nothing to answer".into())
        }
        ToGame::Stop => unreachable!("a stop is taken before serving"),
    }
}

/// A seat of a game to start: answered from Python (stepped, or by a
/// callback seat's function) or by an agent in Rust.
pub enum Seat {
    Stepped,
    Callback,
    Agent(Box<dyn Agent>),
}

/// A game to start on a coroutine of `stack` bytes. Everything it is given
/// is freed by the game (its options and agents when it ends; the saved
/// answers it replays are read, not taken).
pub fn start(
    data: Arc<Data>,
    mut cfg: GameConfig,
    seats: Vec<Seat>,
    queued: Vec<(u8, Vec<usize>)>,
    stack: usize,
) -> std::io::Result<Co> {
    let stack = corosensei::stack::DefaultStack::new(stack)?;
    Ok(Coroutine::with_stack(stack, move |y: &Yield, _first| {
        let port = Arc::new(Port {
            yielder: AtomicPtr::new(y as *const Yield as *mut Yield),
            queued,
            next: AtomicUsize::new(0),
        });
        cfg.agents = (seats.into_iter())
            .map(|s| match s {
                Seat::Agent(a) => a,
                Seat::Stepped | Seat::Callback => Box::new(Stepped {
                    port: port.clone(),
                    callback: matches!(s, Seat::Callback),
                }),
            })
            .collect();
        let mut g = Game::new(data, cfg);
        let outcome = match g.play() {
            Ok(o) => Ok(o),
            Err(f) if matches!(*f, Flow::OutOfDecisions) => return,
            Err(f) => Err(fuda::report::flow_line(&g.data, &f)),
        };
        // Over: views and saves of the finished game until Python lets go.
        let (over, mut reply) = (FromGame::Over(outcome), None);
        loop {
            let next = port.suspend(reply.as_ref().unwrap_or(&over), |cmd| match cmd {
                ToGame::Stop => None,
                cmd => Some(serve(&mut g, None, cmd)),
            });
            match next {
                Some(r) => reply = Some(r),
                None => return,
            }
        }
    }))
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
