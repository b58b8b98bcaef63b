//! The shapes of the scenario keys that `read.rs` and `place.rs` read by hand
//! from YAML values (to locate each part for its errors): described here as
//! types for `fuda schema scenario` alone, so an editor knows them too.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

/// `zones:`: shared zones by name, and `p1:`, `p2:`… each holding that
/// player's zones.
pub struct Zones;

impl JsonSchema for Zones {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Zones".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let cards = g.subschema_for::<Cards>();
        json_schema!({
            "type": "object",
            "patternProperties": {
                "^p[0-9]+$": {
                    "description": "That player's zones: zone name: cards.",
                    "type": "object",
                    "additionalProperties": cards,
                }
            },
            "additionalProperties": cards,
        })
    }
}

/// The cards a scenario places in one zone.
pub struct Cards;

impl JsonSchema for Cards {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cards".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Card ids, top card first; an entry may add tags (`spell+activated`) and attach to an entry of the same list by its number from 1 (`charm^1`), of another zone of the same player (`gem^play.1`) or of another player's zone (`gem^p2.play.1`). A zone of piles takes `id: count` instead.",
            "anyOf": [
                {"type": "array", "items": {"type": "string"}},
                {"type": "object", "additionalProperties": {"type": "integer"}},
                {"type": "null"}
            ]
        })
    }
}

/// One scripted answer.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum Decision {
    /// The answer as the decision's options read: a move's label with its
    /// card (`play omiki`), a card id, `pass`, `yes`/`no`, or a number.
    Text(String),
    Number(f64),
    Flag(bool),
    Checked(Answer),
}

/// An answer with what its decision must and must not offer.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct Answer {
    /// The answer, as a decision's options read (`buy yasaka_kanako`, `pass`).
    answer: Scalar,
    /// Options the decision must offer, as they read.
    #[serde(default)]
    offered: Option<Texts>,
    /// Options the decision must not offer, as they read.
    #[serde(default)]
    not_offered: Option<Texts>,
    /// Every option the decision offers, each named once, in any order.
    #[serde(default)]
    options: Option<Texts>,
    /// The player asked (1 for P1).
    #[serde(default)]
    player: Option<u8>,
}

/// A text, a number or a yes/no.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum Scalar {
    Text(String),
    Number(f64),
    Flag(bool),
}

/// One text or a list of texts.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum Texts {
    One(String),
    Many(Vec<String>),
}

/// One expectation.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum Expectation {
    /// A condition in card text (`me` is P1), checked where the scenario
    /// ends: `count(hand) == 5`.
    AtEnd(String),
    Point(Point),
}

/// Conditions checked at a named point of the game.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct Point {
    /// Where: `start of <phase>` (before its start-of-phase abilities),
    /// `end of <phase>` (after its end-of-phase abilities) or `end`.
    #[serde(default)]
    at: Option<String>,
    /// Once this many decisions were answered, as the next is asked (`0`:
    /// before the first).
    #[serde(default)]
    after: Option<u32>,
    /// With `at: start of`/`end of <phase>`: in this turn (as the transcript
    /// counts turns); without it, the first time.
    #[serde(default)]
    turn: Option<u32>,
    /// The player the conditions read as `me` (default 1).
    #[serde(default, rename = "as")]
    as_player: Option<u8>,
    /// The conditions, in card text (`me` is P1): one or a list.
    that: Texts,
}

/// The game's result.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct Outcome {
    /// The winning player's number, or a list (`[1, 2]`) for a shared win.
    #[serde(default)]
    winner: Option<Winners>,
    /// What ended the game: the name of the rules' end rule that held,
    /// `rule` (the rules' `end:` held), `lost` (every player but one lost) or
    /// `turn_limit` (the rules' `max_turns`).
    #[serde(default)]
    ended: Option<String>,
    /// The turns played in the whole game.
    #[serde(default)]
    turns: Option<u32>,
    /// Each player's score by the rules' `score:`, P1 first.
    #[serde(default)]
    scores: Option<Vec<i64>>,
}

/// A player number, or several.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum Winners {
    One(u8),
    Shared(Vec<u8>),
}
