//! A seat at the table as the kernel sees it: one [`Agent`] that first gives
//! back the answers of a replay (a branch, a reloaded game), then answers as
//! its bot does, or waits for the person at the seat. Every answer is
//! recorded with what was asked, and every decision shows the table to all
//! connections (so a bot's moves appear as they happen).

use std::collections::VecDeque;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};

use crate::engine::{Agent, Flow, Game, Picks, Request, Res};

/// The table a seat's game shows itself to and records its answers in.
pub trait Link: Send + Sync {
    /// Whether the replay stopped (a divergence): seats then play live.
    fn replay_over(&self) -> bool;
    /// A replayed answer: whether it still holds (else the replay stops).
    fn replayed(&self, g: &Game, req: &Request, picks: &Picks) -> bool;
    /// A look into the past: stop at the first decision not replayed.
    fn preview(&self) -> bool;
    /// Shows the game to every seat, `req` being asked.
    fn publish(&self, g: &Game, req: Option<&Request>);
    /// Shows a bot's turn as it goes (not at every decision).
    fn publish_now(&self, g: &Game);
    /// An answer given live.
    fn record(&self, g: &Game, req: &Request, picks: &Picks);
}

/// What a person's browser sends to the game thread.
pub enum Msg {
    Answer(Picks),
}

pub struct Seat {
    pub seat: usize,
    /// Answers to give back first.
    pub prefix: VecDeque<Picks>,
    /// None: a person, answering through `inbox`.
    pub bot: Option<Box<dyn Agent>>,
    pub inbox: Option<Arc<Mutex<Receiver<Msg>>>>,
    pub link: Arc<dyn Link>,
}

impl Agent for Seat {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        if self.link.replay_over() {
            self.prefix.clear();
        }
        if let Some(p) = self.prefix.pop_front() {
            if self.link.replayed(g, req, &p) {
                return Ok(p);
            }
            self.prefix.clear();
        }
        if self.link.preview() {
            // Time travel: the table as it was at this decision, then stop.
            self.link.publish(g, Some(req));
            return Err(Flow::OutOfDecisions.into());
        }
        let picks = match &mut self.bot {
            Some(b) => {
                self.link.publish_now(g);
                b.answer(g, req)?
            }
            None => {
                self.link.publish(g, Some(req));
                let inbox = self.inbox.as_ref().ok_or(Flow::OutOfDecisions)?;
                loop {
                    // The sender dropped: this game was replaced (a branch,
                    // a reload) or the table closed.
                    let msg = inbox.lock().map_err(|_| Flow::OutOfDecisions)?.recv();
                    match msg {
                        Ok(Msg::Answer(p)) if req.fits(&p) => break p,
                        Ok(Msg::Answer(_)) => self.link.publish(g, Some(req)),
                        Err(_) => return Err(Flow::OutOfDecisions.into()),
                    }
                }
            }
        };
        self.link.record(g, req, &picks);
        Ok(picks)
    }

    fn seat(&mut self, seed: u64, seat: usize) {
        if let Some(b) = &mut self.bot {
            b.seat(seed, seat);
        }
    }

    /// A searching bot forks the game: the kernel keeps its resume points.
    fn forks(&self) -> bool {
        self.bot.as_ref().is_some_and(|b| b.forks())
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(Seat {
            seat: self.seat,
            prefix: self.prefix.clone(),
            bot: self.bot.clone(),
            inbox: self.inbox.clone(),
            link: self.link.clone(),
        })
    }
}
