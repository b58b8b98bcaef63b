//! Saved games: the data's fingerprint, the seed, the options and every
//! answer with the player who gave it. Replaying them gives the same
//! transcript; replaying fewer answers is undo.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::data::Data;
use crate::engine::Game;

/// The save format this build writes and reads. Format 1 (no `format`
/// field) recorded answers without their players; it is refused with a
/// message rather than guessed at (a simultaneous request's answers cannot
/// be given back to the right seats without them).
pub const FORMAT: u32 = 2;

#[derive(Debug, Serialize, Deserialize)]
pub struct Save {
    #[serde(default = "old_format")]
    pub format: u32,
    pub game: String,
    pub players: u8,
    pub seed: u64,
    pub options: BTreeMap<String, Vec<String>>,
    /// `Data::hash` of the data the game was played with, in hex.
    pub data_hash: String,
    /// Every answer, in the order given.
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// Per seat, who answered: "human" or an agent's name, when the saver
    /// knows them (the table does); opening the save seats them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<String>,
}

/// One answer: who gave it (from 1) and the indices of the options picked.
#[derive(Debug, Serialize, Deserialize)]
pub struct Answer {
    pub player: u8,
    pub picks: Vec<u32>,
}

fn old_format() -> u32 {
    1
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
        // `Game::decisions`: the player, a count, then that many picks.
        let mut answers = Vec::new();
        let mut rest = game.decisions.iter().copied();
        while let (Some(p), Some(k)) = (rest.next(), rest.next()) {
            answers.push(Answer {
                player: p as u8 + 1,
                picks: rest.by_ref().take(k as usize).collect(),
            });
        }
        Save {
            format: FORMAT,
            game: data.game.clone(),
            players: game.st.nplayers,
            seed: game.seed,
            options,
            data_hash: format!("{:016x}", data.hash()),
            answers,
            agents: Vec::new(),
        }
    }

    /// Writes the save, never through a symlink or into a special file.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| e.to_string())?;
        crate::data::confine::write_own(path, (text + "\n").as_bytes())
    }

    pub fn read(path: &Path) -> Result<Save, String> {
        let text = crate::data::confine::read_given(path)?;
        let save: Save = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a saved game: {e}", path.display()))?;
        if save.format != FORMAT {
            return Err(format!(
                "{} is a saved game of format {} (this fuda reads format {FORMAT}, whose answers name their players); play the game again with --save",
                path.display(),
                save.format
            ));
        }
        Ok(save)
    }
}
