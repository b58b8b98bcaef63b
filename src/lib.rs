//! fuda: a declarative card-game engine.
//!
//! A game is data: `rules/<game>.yaml` declares zones, counters, events, phases,
//! windows and the game's vocabulary (verbs written in the card-text language of
//! `grammar/effect.pest`); `cards/<game>/*.yaml` hold the cards. [`data::load`]
//! reads and compiles them once; [`engine::Game`] runs them. The kernel never names
//! a game: everything game-specific lives in the data directory.

#[macro_use]
pub mod out;

pub mod cli;
pub mod data;
pub mod engine;
pub mod explain;
pub mod fast;
pub mod human;
pub mod lab;
pub mod lang;
pub mod limits;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod memory;
pub mod play;
pub mod replay;
pub mod report;
pub mod sandbox;
pub mod scaffold;
pub mod scenario;
pub mod schema;
pub mod search;
#[cfg(feature = "table")]
pub mod serve;
pub mod sim;
pub mod snapshot;
pub mod suggest;
pub mod value;
pub mod watch;
