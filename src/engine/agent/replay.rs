//! Replayed answers (a saved game): each seat gives back the answers
//! recorded for its player, in order.

use std::collections::VecDeque;

use super::Agent;
use crate::engine::log::pname;
use crate::engine::request::{Picks, Request};
use crate::engine::{Flow, Game, Res};

/// The answers recorded for one seat; when they run out the game stops
/// ([`Flow::OutOfDecisions`]: undo is a replay of fewer answers).
#[derive(Clone, Default)]
pub struct Replay(pub VecDeque<Picks>);

impl Agent for Replay {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let Some(picks) = self.0.pop_front() else {
            return Err(Flow::OutOfDecisions.into());
        };
        if !req.fits(&picks) {
            return g.err(
                Default::default(),
                format!(
                    "the replay diverged at {} — {}: the recorded answer does not fit its options",
                    pname(req.player),
                    req.prompt
                ),
            );
        }
        Ok(picks)
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}
