//! The rows a lab run writes: one per game ([`GameRow`]) and one per player
//! and card the player touched ([`CardRow`]). Every summary is computed from
//! them, so a file read back gives the same tables.

use std::sync::Arc;

/// What one seat was in a game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatRow {
    /// Who the seat's player is across rotations: its agent and own options.
    pub entrant: String,
    pub agent: String,
    /// The seat's own option values (`name=id,id`), if any.
    pub options: String,
    pub score: i64,
    pub won: bool,
}

/// Written instead of a winner when no single player won.
pub const DRAW: &str = "draw";
/// Written instead of a winner when the game stopped on an error.
pub const ERROR: &str = "error";

#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    /// The game's place in the run (the order rows are written in).
    pub game: u64,
    pub seed: u64,
    /// The variant of a sweep (`card.prop=3`), else empty.
    pub variant: String,
    /// Seats rotated by this many places (`--swap`, tournaments).
    pub rotation: u32,
    /// The game's options shared by all seats (`name=ids; …`).
    pub options: String,
    pub seats: Vec<SeatRow>,
    /// `P1`…, [`DRAW`] or [`ERROR`].
    pub winner: String,
    pub turns: u32,
    /// What ended it (`rule`, `lost`, `turn_limit`) or [`ERROR`].
    pub ended: String,
    /// The error's message, if one stopped the game.
    pub error: String,
}

impl GameRow {
    pub fn finished(&self) -> bool {
        self.winner != ERROR
    }

    /// The winning seat's index, if one player won.
    pub fn winner_seat(&self) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.won)
            .filter(|_| self.seats.iter().filter(|s| s.won).count() == 1)
    }
}

/// Its names are shared (`Arc<str>`): a run has a row per game, player and
/// card, and a name per row would cost an allocation each.
#[derive(Debug, Clone, PartialEq)]
pub struct CardRow {
    pub game: u64,
    pub seed: u64,
    pub variant: Arc<str>,
    /// The seat, from 1.
    pub player: u32,
    pub entrant: Arc<str>,
    pub card: Arc<str>,
    pub gained: u32,
    pub played: u32,
    pub drawn: u32,
    /// Copies in the player's own zones when the game ended.
    pub final_deck: u32,
    pub won: bool,
}

/// The rows of a run.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    pub games: Vec<GameRow>,
    pub cards: Vec<CardRow>,
}
