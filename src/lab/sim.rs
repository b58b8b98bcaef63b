//! A simulation as data, for any front end (the command line, the Python
//! package): the game's data and configuration in, the per-game rows out
//! ([`Run::rows`]; [`super::table`] turns them into columns or writes them).

use std::sync::Arc;

use super::play::{self, Run, Seat, Variant};
use super::shard::Shard;
use crate::data::Data;
use crate::engine::GameConfig;

/// How to play a simulation.
#[derive(Debug, Clone)]
pub struct SimRun {
    /// Seeds per seating: `cfg.seed`, `cfg.seed + 1`, …
    pub games: u64,
    /// Which block of those seeds to play ([`Shard::default`]: all).
    pub shard: Shard,
    /// Every seed in every seat rotation (the seat advantage apart).
    pub swap: bool,
    /// Count per-card moves (the rules' `stats:`): card rows.
    pub cards: bool,
    /// Worker threads; the rows are the same for any number.
    pub jobs: usize,
    /// A progress bar on a terminal's stderr.
    pub progress: bool,
}

/// Plays `how.games` seeds from `cfg.seed` (the shard's block of them) with
/// `cfg`'s agents and options; `agents` names each seat's agent for the
/// rows (a seat past the list takes its last name; none: the rules'
/// default agent). The rows of shards 0..N, concatenated, are the rows of
/// the whole run.
pub fn sim(
    data: Arc<Data>,
    cfg: &GameConfig,
    agents: &[String],
    how: &SimRun,
) -> Result<Run, String> {
    let seats = seats(&data, cfg, agents);
    let n = if how.swap { seats.len() } else { 1 };
    let seatings = (0..n).map(|r| play::rotate(cfg, &seats, r)).collect();
    let variants = [Variant {
        label: String::new(),
        data,
        seatings,
    }];
    let plan = play::Plan {
        seed: cfg.seed,
        games: how.games,
        shard: how.shard,
    };
    play::run(&variants, plan, how.jobs, how.cards, how.progress)
}

/// Options with one value per seat (declared with as many values as
/// players): each seat's own, rotated with its player.
pub fn seat_options(data: &Data, players: u8) -> Vec<String> {
    (data.option_decls.iter())
        .filter(|o| o.min == o.max && o.max == players as usize)
        .map(|o| o.name.clone())
        .collect()
}

/// The seats of `cfg`: each one's agent name (from `agents`) and own options.
pub fn seats(data: &Data, cfg: &GameConfig, agents: &[String]) -> Vec<Seat> {
    let n = cfg.players as usize;
    let per = seat_options(data, cfg.players);
    let fallback = data
        .default_agent
        .clone()
        .unwrap_or_else(|| "random".into());
    (0..n)
        .map(|s| {
            let agent = (agents.get(s).or(agents.last()))
                .cloned()
                .unwrap_or_else(|| fallback.clone());
            let options: Vec<(String, u16)> = (per.iter())
                .filter_map(|name| {
                    Some((
                        name.clone(),
                        *cfg.options.get(name).filter(|v| v.len() == n)?.get(s)?,
                    ))
                })
                .collect();
            let mut entrant = agent.clone();
            for (_, d) in &options {
                entrant += &format!("+{}", data.def_id(*d));
            }
            Seat {
                entrant: entrant.into(),
                agent,
                options,
            }
        })
        .collect()
}
