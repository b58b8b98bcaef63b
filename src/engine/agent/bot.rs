//! A bot written as data in the rules: its rules weigh the options in order.

use super::Agent;
use crate::engine::request::{Picks, Request};
use crate::engine::{Game, Res};

/// The rules bot at this index of `Data::bots`. Windows are decided by its
/// rules in place (`Game::decide_window`, or the tier's quick windows)
/// before any request is made; every other decision comes here.
#[derive(Clone, Copy)]
pub struct DataBot(pub usize);

impl Agent for DataBot {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        g.bot_decide(self.0, req)
    }

    fn data_bot(&self) -> Option<usize> {
        Some(self.0)
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(*self)
    }
}
