//! The balance lab: many games played as data (one row per game, one per
//! player and card), and what the rows say with their uncertainty — win
//! rates with intervals, per-card figures, tournaments with ratings,
//! parameter sweeps and an HTML report. A client of the kernel's public API
//! ([`crate::engine::Game`]); nothing here knows a game.
//!
//! Other front ends (the Python package) run a simulation with
//! [`sim::sim`] and take its rows as columns ([`table::games_table`],
//! [`table::cards_table`]) or files ([`table::write_rows`]).
//!
//! Per-card counts come from the kernel ([`crate::engine::counts`]): the
//! rules' `stats:` name the events whose moves make a card gained, played or
//! drawn; the final deck is every card in a player's own zones at the end.

pub mod cards;
pub mod figure;
pub mod grid;
pub mod interval;
pub mod play;
pub mod report;
pub mod rows;
pub mod shard;
pub mod sim;
pub mod summary;
pub mod svg;
pub mod sweep;
pub mod table;
pub mod tournament;
