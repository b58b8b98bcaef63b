//! Replayed answers (a saved game): each seat gives back the answers
//! recorded for its player, in order; then, if given one, an agent plays on.

use std::collections::VecDeque;

use super::Agent;
use crate::engine::log::pname;
use crate::engine::request::{Picks, Request};
use crate::engine::{Flow, Game, Res};

/// The answers recorded for one seat, each with its number among all the
/// game's answers (from 1); when they run out the game stops
/// ([`Flow::OutOfDecisions`]: undo is a replay of fewer answers), or the
/// agent [`Replay::then`] gave answers from there (a saved game played on).
#[derive(Clone, Default)]
pub struct Replay {
    answers: VecDeque<(usize, Picks)>,
    then: Option<Box<dyn Agent>>,
    /// Where the answers were read from, for the message when one does not
    /// fit (an edited save).
    from: String,
}

impl Replay {
    /// No answers yet; `from` names where they come from (a save file).
    pub fn from(from: impl Into<String>) -> Replay {
        Replay {
            answers: VecDeque::new(),
            then: None,
            from: from.into(),
        }
    }

    /// Plays on with `agent` once the recorded answers run out.
    pub fn then(mut self, agent: Box<dyn Agent>) -> Replay {
        self.then = Some(agent);
        self
    }

    /// Answer number `n` of the game (from 1), this seat's next.
    pub fn push(&mut self, n: usize, picks: Picks) {
        self.answers.push_back((n, picks));
    }
}

impl Agent for Replay {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let Some((n, picks)) = self.answers.pop_front() else {
            return match &mut self.then {
                Some(a) => a.answer(g, req),
                None => Err(Flow::OutOfDecisions.into()),
            };
        };
        if !req.fits(&picks) {
            let from = if self.from.is_empty() {
                String::new()
            } else {
                format!("{}: ", self.from)
            };
            return g.err(
                Default::default(),
                format!(
                    "{from}answer {n} ({}: {:?}) does not fit its request ({} — choose {} to {} of {} options): the replay diverged there (an edited save, or data changed since it was saved)",
                    pname(req.player),
                    picks.as_slice(),
                    req.prompt,
                    req.min,
                    req.max,
                    req.options.len()
                ),
            );
        }
        Ok(picks)
    }

    // Only the seat is passed on: a data bot or a blind agent answering
    // through the kernel would bypass the recorded answers.
    fn seat(&mut self, seed: u64, seat: usize) {
        if let Some(a) = &mut self.then {
            a.seat(seed, seat);
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}
