//! A logged game on the speed tier, for the tests that read transcripts.

use std::collections::HashMap;
use std::sync::Arc;

use fuda::data::Data;
use fuda::engine::log::Entry;
use fuda::engine::{Game, GameConfig, agent};

/// Plays a logged game of `agent` in every seat and returns its log.
pub fn play(data: &Arc<Data>, players: u8, seed: u64, agent: &str) -> Vec<Entry> {
    let agents = (0..players)
        .map(|_| agent::parse(agent, data).expect("agent exists"))
        .collect();
    let mut g = Game::new(
        data.clone(),
        GameConfig {
            players,
            seed,
            agents,
            options: HashMap::new(),
            logging: true,
            tier: Some(fuda::fast::tier(data)),
        },
    );
    g.play()
        .unwrap_or_else(|e| panic!("{} {players}p seed {seed}: {e:?}", data.game));
    std::mem::take(&mut g.log)
}
