//! Search: an agent that plays any game well by playing copies of it
//! forward, seeing only what its seat sees. A client of the kernel's public
//! API: it reads views and plays copies, never the real game's hidden cards.
//!
//! How a copy is made (the kernel is a tree-walker: a decision asked inside
//! an effect is a suspended Rust call stack, which cannot be copied): the
//! kernel keeps a resume point for a game with a forking seat — its state
//! before the setup and at the top of each turn, and how many answers had
//! been given ([`crate::engine::resume`]). A playout copies that state into
//! a game kept for the search (no allocation per playout beyond the
//! state's copy), replays the real game's answers since the point, which
//! brings the copy's own call stack to the decision being searched, and
//! there deals the cards hidden from the seat again
//! ([`determinize`]) and reseeds the copy's generator. Only then does the
//! search choose: the tree for the decisions it knows, the rollout policy
//! after. A fork costs one state (plus the current turn's answers), not the
//! game so far; the replay costs the current turn's work so far.

pub mod answers;
pub mod determinize;
pub mod ismcts;
pub mod playout;
pub mod tree;

pub use ismcts::{Budget, Ismcts, searched};

use crate::data::Data;
use crate::engine::agent::{self, Agent};

/// Playouts per decision when `ismcts` names no budget.
pub const DEFAULT_ITERATIONS: u32 = 1000;

/// The names [`parse`] takes, for help texts: the search's as a pattern.
pub fn names(data: &Data) -> Vec<String> {
    (["first", "random", "ismcts[:N|:Nms][:bot]"]
        .iter()
        .map(|s| s.to_string()))
    .chain(data.bots.iter().map(|(n, _)| n.clone()))
    .collect()
}

/// An agent by name: the kernel's (`first`, `random`, a data bot) or a
/// search: `ismcts`, `ismcts:N` (N playouts per decision), `ismcts:Nms`
/// (N milliseconds), each optionally followed by `:<bot>` for the rollout
/// policy (a data bot; `random` by default) and `:margin` for rewards that
/// also count the score margin, in either order.
pub fn parse(name: &str, data: &Data) -> Option<Box<dyn Agent>> {
    let Some(rest) = name.strip_prefix("ismcts") else {
        return agent::parse(name, data);
    };
    let mut parts = rest.split(':');
    if parts.next() != Some("") {
        return None;
    }
    let budget = match parts.next() {
        None => Budget::Iterations(DEFAULT_ITERATIONS),
        Some(b) => match b.strip_suffix("ms") {
            Some(ms) => Budget::Millis(ms.parse().ok().filter(|&m| m > 0)?),
            None => Budget::Iterations(b.parse().ok().filter(|&n| n > 0)?),
        },
    };
    let (mut policy, mut margin) = (None, false);
    let mut named = false;
    for part in parts {
        match part {
            "margin" if !margin => margin = true,
            _ if named || part == "margin" => return None,
            "random" => named = true,
            bot => (policy, named) = (Some(data.bot(bot)?), true),
        }
    }
    Some(Box::new(Ismcts::new(budget, policy, 0).with_margin(margin)))
}
