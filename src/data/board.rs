//! A board declared by the rules: squares with a kind, a name, an optional card
//! and properties, walked as a track that loops in the order the squares are
//! listed. Squares are numbered from 0 in that order.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::value::DefId;

/// A board: the properties every square has, and the squares in track order.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    /// Every square's properties and their start values (`~` for none).
    #[serde(default)]
    pub props: BTreeMap<String, Option<i64>>,
    /// The squares, in track order (numbered from 0); the track loops from
    /// the last back to the first.
    pub squares: Vec<RawSquare>,
}

/// A square of the board.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSquare {
    /// Any word: `square_kind(s)` returns it, `squares("<kind>")` lists the
    /// squares of a kind.
    pub kind: String,
    /// Shown in the transcript (default: the card's name, else the kind).
    #[serde(default)]
    pub name: Option<String>,
    /// A card id the square stands for (read with `square_card`).
    #[serde(default)]
    pub card: Option<String>,
    /// The part of the board the square belongs to (default 1):
    /// `board_sections([1, 2])` keeps only those sections on the track.
    #[serde(default = "one")]
    pub section: i64,
    /// Start values differing from the board's.
    #[serde(default)]
    pub props: BTreeMap<String, Option<i64>>,
}

fn one() -> i64 {
    1
}

/// A board, compiled: property names are in `Names::square_props`.
#[derive(Debug, Default)]
pub struct BoardDecl {
    pub squares: Vec<SquareDecl>,
    /// The events a piece raises as it passes a square and as it stops on
    /// one, found by name once here, not on every square.
    pub passes: Option<u16>,
    pub stops: Option<u16>,
}

#[derive(Debug)]
pub struct SquareDecl {
    /// The kind, as `square_kind` returns it.
    pub kind: Arc<String>,
    pub name: String,
    pub card: Option<DefId>,
    pub section: i64,
    /// Start value of each property (none as `None`).
    pub props: Vec<Option<i64>>,
}
