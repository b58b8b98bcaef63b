//! One table: a game on its own thread, its seats and their tokens, and
//! every answer given so far. A game is its data, seed and answers, so a
//! branch, a look into the past and a reload of edited data are all the
//! same thing: a new game replaying some of those answers.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};
use tokio::sync::watch;

use super::message::{self, Log, Sent, Transcript};
use super::seat::{self, Msg, Seat};
use crate::data::Data;
use crate::engine::{Agent, Flow, Game, GameConfig, Picks, Request};

/// How a table was set up.
#[derive(Clone)]
pub struct Setup {
    pub game: String,
    pub seed: u64,
    /// Per seat: "human", or an agent's name.
    pub seats: Vec<String>,
    /// The rules' options, as card ids (resolved again on edited data).
    pub options: Vec<(String, Vec<String>)>,
}

/// One answer given, with what was asked.
#[derive(Clone)]
pub struct Rec {
    pub seat: u8,
    pub picks: Picks,
    pub prompt: String,
    /// The options as the decider read them.
    pub options: Vec<String>,
    pub person: bool,
}

impl Rec {
    fn json(&self, n: usize) -> Json {
        let picked: Vec<&str> = (self.picks.iter())
            .filter_map(|&i| self.options.get(i).map(String::as_str))
            .collect();
        json!({ "n": n, "seat": self.seat + 1, "prompt": self.prompt, "picked": picked, "person": self.person })
    }
}

/// What changes as the table plays.
pub struct Live {
    pub data: Arc<Data>,
    /// The live game's number: a replaced game's thread writes nothing.
    generation: u64,
    pub answers: Vec<Rec>,
    /// Each person's seat's way to the game thread.
    inbox: Vec<Option<Sender<Msg>>>,
    /// The last messages of the live game, and of a look into the past.
    seats: Vec<Shown>,
    debug: Shown,
    /// Before which answer, and what was shown then.
    past: Option<(usize, Vec<Shown>, Shown)>,
    /// The person's seat being asked, if one is: only it may answer.
    asked: Option<usize>,
    pub save: Option<Json>,
    over: Option<Json>,
    /// The last reload's report: the same course, or where it diverged.
    divergence: Option<Json>,
    /// The data error of the last reload, as `fuda check` prints it.
    data_error: Option<String>,
}

pub struct Table {
    pub id: String,
    pub setup: Setup,
    /// The owner's token: a seat, and the debug panel and time travel.
    pub owner: String,
    /// Per seat: its token, for a person's seat.
    pub tokens: Vec<Option<String>>,
    pub seat_tx: Vec<watch::Sender<Option<Arc<Sent>>>>,
    pub debug_tx: watch::Sender<Option<Arc<Sent>>>,
    live: Mutex<Live>,
}

/// A message with its transcript, once the game has shown itself.
type Shown = Option<(Json, Log)>;

/// A game thread's tie to its table.
pub struct Link {
    table: Arc<Table>,
    generation: u64,
    /// A look into the past: stop at the first decision not replayed.
    preview: bool,
    /// The decisions of the game being replayed (a reload), to compare.
    expected: Option<Vec<Rec>>,
    /// Answers given in this game.
    count: AtomicUsize,
    /// The replay stopped: every seat plays live from here.
    over: AtomicBool,
    /// When a bot's decision last showed the table.
    last: Mutex<Option<Instant>>,
    /// Each seat's transcript, then the whole one.
    transcripts: Mutex<Vec<Transcript>>,
}

/// How often bots' decisions show the table.
const PACE: Duration = Duration::from_millis(100);

fn token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

impl Table {
    pub fn new(id: String, setup: Setup, data: Arc<Data>) -> Arc<Table> {
        let n = setup.seats.len();
        let tokens: Vec<Option<String>> = (setup.seats.iter())
            .map(|s| (s == "human").then(token))
            .collect();
        Arc::new(Table {
            id,
            owner: token(),
            tokens,
            seat_tx: (0..n).map(|_| watch::channel(None).0).collect(),
            debug_tx: watch::channel(None).0,
            setup,
            live: Mutex::new(Live {
                data,
                generation: 0,
                answers: Vec::new(),
                inbox: Vec::new(),
                seats: vec![None; n],
                debug: None,
                past: None,
                asked: None,
                save: None,
                over: None,
                divergence: None,
                data_error: None,
            }),
        })
    }

    pub fn live(&self) -> MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The seat a token holds (the owner holds the first person's seat).
    pub fn seat_of(&self, token: &str) -> Option<usize> {
        if token == self.owner {
            return self.tokens.iter().position(Option::is_some);
        }
        (self.tokens.iter()).position(|t| t.as_deref() == Some(token))
    }

    /// Starts a game replaying `prefix` (answers of every seat, in order):
    /// live, replacing the game in play, or a look into the past.
    pub fn start(
        self: &Arc<Self>,
        data: Arc<Data>,
        prefix: &[Rec],
        expected: Option<Vec<Rec>>,
        preview: bool,
    ) {
        let n = self.setup.seats.len();
        let options = match crate::data::options::resolve(&data, self.setup.options.clone()) {
            Ok(o) => o,
            Err(e) => {
                self.live().data_error = Some(super::errors_text(e));
                return self.push();
            }
        };
        let mut agents: Vec<Box<dyn Agent>> = Vec::new();
        let generation;
        {
            let mut live = self.live();
            if !preview {
                live.generation += 1;
                live.data = data.clone();
                live.answers.clear();
                live.inbox.clear();
                live.over = None;
                live.past = None;
                live.asked = None;
                // The last game's messages are not this one's.
                live.seats = vec![None; n];
                live.debug = None;
            }
            generation = live.generation;
            let link = Arc::new(Link {
                table: self.clone(),
                generation,
                preview,
                expected,
                count: AtomicUsize::new(0),
                over: AtomicBool::new(false),
                last: Mutex::new(None),
                transcripts: Mutex::new((0..=n).map(|_| Transcript::default()).collect()),
            });
            for (seat, name) in self.setup.seats.iter().enumerate() {
                let prefix: VecDeque<Picks> = (prefix.iter())
                    .filter(|r| r.seat as usize == seat)
                    .map(|r| r.picks.clone())
                    .collect();
                let (bot, inbox) = if name == "human" {
                    let (tx, rx) = channel();
                    if !preview {
                        live.inbox.push(Some(tx));
                    }
                    (None, Some(Arc::new(Mutex::new(rx))))
                } else {
                    if !preview {
                        live.inbox.push(None);
                    }
                    (crate::search::parse(name, &data), None)
                };
                agents.push(Box::new(Seat {
                    seat,
                    prefix,
                    bot,
                    inbox,
                    link: link.clone(),
                }));
            }
            let cfg = GameConfig {
                players: n as u8,
                seed: self.setup.seed,
                agents,
                options,
                logging: true,
                tier: Some(crate::fast::tier(&data)),
            };
            let spawned = std::thread::Builder::new()
                .name(format!("table {}", self.id))
                .stack_size(crate::sim::STACK_SIZE)
                .spawn(move || {
                    let mut g = Game::new(data, cfg);
                    let r = g.play();
                    link.finish(&mut g, r);
                });
            if let Err(e) = spawned {
                live.over = Some(json!({ "error": format!("cannot start the game: {e}") }));
            } else {
                // The game shows itself when it first decides.
                return;
            }
        }
        self.push();
    }

    /// Sends every connection its message, with the table's own news.
    pub fn push(&self) {
        let live = self.live();
        let decisions: Vec<Json> = (live.answers.iter().enumerate())
            .map(|(i, r)| r.json(i))
            .collect();
        let news = json!({
            "over": live.over,
            "divergence": live.divergence,
            "data_error": live.data_error,
            "past": live.past.as_ref().map(|p| p.0),
            "answers": live.answers.len(),
        });
        let (seats, debug) = match &live.past {
            Some((_, s, d)) => (s, d),
            None => (&live.seats, &live.debug),
        };
        let with = |m: &Shown, extra: &[(&str, &Json)]| {
            m.as_ref().map(|(head, log)| {
                let mut head = head.clone();
                if let Json::Object(o) = &mut head {
                    for (k, v) in extra {
                        o.insert(k.to_string(), (*v).clone());
                    }
                }
                Arc::new(Sent {
                    head,
                    log: log.clone(),
                })
            })
        };
        let decisions = Json::Array(decisions);
        let d = with(debug, &[("table", &news), ("decisions", &decisions)]);
        let seats: Vec<_> = seats.iter().map(|m| with(m, &[("table", &news)])).collect();
        // The owner's full state first: when a seat hears of a decision,
        // the state behind it is already there. Nothing before the game
        // shows itself.
        if d.is_some() {
            self.debug_tx.send_replace(d);
        }
        for (tx, m) in self.seat_tx.iter().zip(seats) {
            if m.is_some() {
                tx.send_replace(m);
            }
        }
    }

    /// A person's answer, sent to the game thread; `at`, when given, must
    /// be the number of answers so far (the request it answers).
    pub fn answer(&self, seat: usize, at: Option<usize>, picks: Picks) -> bool {
        let mut live = self.live();
        let stale = at.is_some_and(|a| a != live.answers.len());
        if live.asked != Some(seat) || live.past.is_some() || stale {
            return false;
        }
        match live.inbox.get(seat) {
            Some(Some(tx)) if tx.send(Msg::Answer(picks)).is_ok() => {
                live.asked = None;
                true
            }
            _ => false,
        }
    }

    /// Looks at the table as it was before answer `k`; `None` returns.
    pub fn travel(self: &Arc<Self>, k: Option<usize>) {
        let Some(k) = k else {
            self.live().past = None;
            return self.push();
        };
        let (data, prefix) = {
            let live = self.live();
            let k = k.min(live.answers.len());
            (live.data.clone(), live.answers[..k].to_vec())
        };
        self.start(data, &prefix, None, true);
    }

    /// Plays on from before answer `k`: a new game replaying the first `k`.
    pub fn branch(self: &Arc<Self>, k: usize) {
        let (data, prefix) = {
            let live = self.live();
            let k = k.min(live.answers.len());
            (live.data.clone(), live.answers[..k].to_vec())
        };
        self.start(data, &prefix, None, false);
    }

    /// The data changed: replays the game on it and reports the first
    /// decision that differs; or shows the data error.
    pub fn reload(self: &Arc<Self>, data: Result<Arc<Data>, String>) {
        let data = match data {
            Ok(d) => d,
            Err(e) => {
                self.live().data_error = Some(e);
                return self.push();
            }
        };
        let answers = {
            let mut live = self.live();
            live.data_error = None;
            live.divergence = None;
            live.answers.clone()
        };
        self.start(data, &answers, Some(answers.clone()), false);
    }
}

impl seat::Link for Link {
    fn replay_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    fn preview(&self) -> bool {
        self.preview
    }

    fn replayed(&self, g: &Game, req: &Request, picks: &Picks) -> bool {
        self.replayed_in(g, req, picks)
    }

    fn publish(&self, g: &Game, req: Option<&Request>) {
        self.show(g, req)
    }

    fn publish_now(&self, g: &Game) {
        self.show_now(g)
    }

    fn record(&self, g: &Game, req: &Request, picks: &Picks) {
        let person = self.table.setup.seats[req.player as usize] == "human";
        self.record_rec(Self::rec(g, req, picks, person));
    }
}

impl Link {
    fn current(&self, live: &Live) -> bool {
        live.generation == self.generation
    }

    fn rec(g: &Game, req: &Request, picks: &Picks, person: bool) -> Rec {
        Rec {
            seat: req.player,
            picks: picks.clone(),
            prompt: req.prompt.to_string(),
            options: (req.options.iter())
                .map(|o| o.label_for(g, req.player))
                .collect(),
            person,
        }
    }

    /// A replayed answer: whether it still fits, and, replaying a reload,
    /// whether the decision is the one made before. If not, the replay
    /// stops here and the difference is reported.
    fn replayed_in(&self, g: &Game, req: &Request, picks: &Picks) -> bool {
        let person = self.table.setup.seats[req.player as usize] == "human";
        let now = Self::rec(g, req, picks, person);
        let i = self.count.load(Ordering::Relaxed);
        let before = self.expected.as_ref().and_then(|e| e.get(i));
        let same = match before {
            Some(b) => b.seat == now.seat && b.prompt == now.prompt && b.options == now.options,
            None => true,
        };
        if same && req.fits(picks) {
            self.record_rec(now);
            if let Some(e) = &self.expected
                && i + 1 == e.len()
            {
                self.report(json!({ "same": true, "decisions": e.len() }));
            }
            return true;
        }
        self.over.store(true, Ordering::Relaxed);
        let reason = if !same {
            "different options"
        } else {
            "the answer given before is no longer legal"
        };
        let before = before.map(|b| {
            json!({ "seat": b.seat + 1, "prompt": b.prompt, "options": b.options, "picked": b.json(i)["picked"] })
        });
        self.report(json!({
            "same": false,
            "decision": i + 1,
            "reason": reason,
            "before": before,
            "now": { "seat": now.seat + 1, "prompt": now.prompt, "options": now.options },
        }));
        false
    }

    fn report(&self, j: Json) {
        let mut live = self.table.live();
        if self.current(&live) && self.expected.is_some() && !self.preview {
            live.divergence = Some(j);
        }
    }

    fn record_rec(&self, r: Rec) {
        self.count.fetch_add(1, Ordering::Relaxed);
        if self.preview {
            return;
        }
        let mut live = self.table.live();
        if self.current(&live) {
            live.answers.push(r);
        }
    }

    /// Shows a bot's turn as it goes, at most every [`PACE`] (each message
    /// holds the whole transcript; a person's decision shows all at once).
    fn show_now(&self, g: &Game) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_none_or(|t| t.elapsed() >= PACE) {
            *last = Some(Instant::now());
            drop(last);
            self.show(g, None);
        }
    }

    /// Shows the game as it stands to every seat (`req`: the decision
    /// being asked).
    fn show(&self, g: &Game, req: Option<&Request>) {
        let (seats, debug) = {
            let mut ts = self.transcripts.lock().unwrap_or_else(|e| e.into_inner());
            let n = g.st.nplayers;
            let seats: Vec<Shown> = (0..n)
                .map(|p| {
                    let log = ts[p as usize].update(&g.data, &g.log, Some(p));
                    Some((message::seat(g, p, req), log))
                })
                .collect();
            let log = ts[n as usize].update(&g.data, &g.log, None);
            (seats, Some((message::debug(g), log)))
        };
        {
            let mut live = self.table.live();
            if self.preview {
                let k = self.count.load(Ordering::Relaxed);
                live.past = Some((k, seats, debug));
            } else if self.current(&live) {
                let person = req.filter(|r| self.table.tokens[r.player as usize].is_some());
                live.asked = person.map(|r| r.player as usize);
                live.seats = seats;
                live.debug = debug;
                let mut save = crate::replay::Save::of(g);
                save.agents = self.table.setup.seats.clone();
                live.save = serde_json::to_value(save).ok();
            } else {
                return;
            }
        }
        self.table.push();
    }

    /// The game ended (or stopped).
    fn finish(&self, g: &mut Game, r: crate::engine::Res<crate::engine::Outcome>) {
        let over = match r {
            Ok(o) => json!({
                "text": crate::report::outcome_line(&g.data, &o),
                "winners": o.winners.iter().map(|w| w + 1).collect::<Vec<_>>(),
                "scores": o.scores,
            }),
            Err(f) => match *f {
                // Replaced, or a look into the past: nothing more to show.
                Flow::OutOfDecisions => return,
                Flow::Error(e) => json!({ "error": e.message }),
                other => json!({ "error": format!("the game stopped: {other:?}") }),
            },
        };
        if self.preview {
            self.show(g, None);
            return;
        }
        {
            let mut live = self.table.live();
            if !self.current(&live) {
                return;
            }
            live.over = Some(over);
            if let Some(e) = &self.expected {
                let k = self.count.load(Ordering::Relaxed);
                if k < e.len() && live.divergence.is_none() {
                    live.divergence = Some(json!({
                        "same": false, "decision": k + 1,
                        "reason": "the game ended here; before, it went on",
                    }));
                }
            }
        }
        self.show(g, None);
    }
}
