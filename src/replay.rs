//! Saved games: the data's fingerprint, the seed, the options and every
//! decision. Replaying them gives the same transcript; replaying fewer
//! decisions is undo.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::data::Data;
use crate::engine::Game;

#[derive(Debug, Serialize, Deserialize)]
pub struct Save {
    pub game: String,
    pub players: u8,
    pub seed: u64,
    pub options: BTreeMap<String, Vec<String>>,
    /// `Data::hash` of the data the game was played with, in hex.
    pub data_hash: String,
    /// A count, then that many chosen option indices, per decision.
    pub decisions: Vec<u32>,
}

impl Save {
    pub fn of(game: &Game) -> Save {
        let data: &Data = &game.data;
        let options = game
            .options
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.iter()
                        .map(|&d| data.defs[d as usize].id.clone())
                        .collect(),
                )
            })
            .collect();
        Save {
            game: data.game.clone(),
            players: game.st.nplayers,
            seed: game.seed,
            options,
            data_hash: format!("{:016x}", data.hash()),
            decisions: game.decisions.clone(),
        }
    }

    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string(self).map_err(std::io::Error::other)?;
        std::fs::write(path, text + "\n")
    }

    pub fn read(path: &Path) -> Result<Save, String> {
        let text = crate::data::confine::read_given(path)?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a saved game: {e}", path.display()))
    }
}
