//! The YAML shapes of rules and card files, as written by their authors.
//! Unknown fields are errors, so typos are caught at load time.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    pub players: RawPlayers,
    /// Folder under `cards/` holding this game's cards (default: the game's name).
    #[serde(default)]
    pub cards: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub properties: BTreeMap<String, i64>,
    #[serde(default)]
    pub counters: BTreeMap<String, RawCounter>,
    #[serde(default)]
    pub globals: BTreeMap<String, i64>,
    pub zones: BTreeMap<String, RawZone>,
    #[serde(default)]
    pub events: Vec<String>,
    #[serde(default)]
    pub effects: Vec<String>,
    #[serde(default)]
    pub options: BTreeMap<String, RawOption>,
    #[serde(default)]
    pub verbs: BTreeMap<String, RawVerb>,
    #[serde(default)]
    pub windows: BTreeMap<String, RawWindow>,
    #[serde(default)]
    pub moves: BTreeMap<String, RawMove>,
    pub setup: String,
    pub turn: RawTurn,
    pub end: RawEnd,
    pub score: String,
    #[serde(default)]
    pub tiebreak: Option<String>,
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    #[serde(default)]
    pub triggers: Vec<RawTrigger>,
    #[serde(default)]
    pub bots: BTreeMap<String, Vec<RawBotRule>>,
    #[serde(default)]
    pub scripts: Vec<String>,
    #[serde(default)]
    pub construction: Option<super::construction::RawConstruction>,
}

/// A game option: a description alone, or a description with the flag and
/// the values it accepts.
#[derive(Debug, Default)]
pub struct RawOption {
    pub about: String,
    /// `--<flag>` on the command line; `--set name=…` works for every option.
    pub flag: Option<String>,
    /// Accepted cards: those with this tag, and those listed (neither: any card).
    pub tag: Option<String>,
    pub cards: Vec<String>,
    /// How many cards: `count` exactly, else `min` to `max`.
    pub count: Option<usize>,
    pub min: Option<usize>,
    pub max: Option<usize>,
    /// Whether a card may be chosen only once.
    pub distinct: bool,
}

/// The long form of [`RawOption`], with its unknown fields refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOptionMap {
    #[serde(default)]
    about: String,
    #[serde(default)]
    flag: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    cards: Vec<String>,
    #[serde(default)]
    count: Option<usize>,
    #[serde(default)]
    min: Option<usize>,
    #[serde(default)]
    max: Option<usize>,
    #[serde(default)]
    distinct: bool,
}

impl<'de> Deserialize<'de> for RawOption {
    // A visitor rather than an untagged enum: a mistake in the long form is
    // reported as itself ("unknown field `flags`"), not as "no variant matched".
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawOption;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a description, or a map with about, flag, tag, cards, count, min, max, distinct")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<RawOption, E> {
                Ok(RawOption {
                    about: s.to_string(),
                    ..RawOption::default()
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, m: A) -> Result<RawOption, A::Error> {
                let r = RawOptionMap::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
                Ok(RawOption {
                    about: r.about,
                    flag: r.flag,
                    tag: r.tag,
                    cards: r.cards,
                    count: r.count,
                    min: r.min,
                    max: r.max,
                    distinct: r.distinct,
                })
            }
        }
        d.deserialize_any(V)
    }
}

fn default_max_turns() -> u32 {
    400
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlayers {
    pub min: u8,
    pub max: u8,
    #[serde(default)]
    pub default: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCounter {
    #[serde(default)]
    pub start: i64,
    #[serde(default)]
    pub visible: Visibility,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    #[default]
    Public,
    Owner,
    Hidden,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    /// `player` (one per player) or `shared`.
    #[serde(default = "default_per")]
    pub per: String,
    #[serde(default)]
    pub contents: Visibility,
    #[serde(default)]
    pub size: Option<Visibility>,
    /// Whether the top card is public even when the contents are not.
    #[serde(default)]
    pub top: bool,
    /// A shared row of piles, one per card id (a market, a supply).
    #[serde(default)]
    pub piles: bool,
    /// Whose abilities a shared zone's cards have (per-player zones: the zone's player).
    #[serde(default)]
    pub controller: Controller,
}

/// Who controls the abilities of cards in a shared zone.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Controller {
    /// The card's owner.
    #[default]
    Owner,
    /// Every player at once: each card's abilities are each player's own, so
    /// one event may trigger them once for each player (turn player first).
    Each,
}

fn default_per() -> String {
    "player".into()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVerb {
    #[serde(default)]
    pub params: Vec<String>,
    #[serde(rename = "do")]
    pub body: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWindow {
    /// `active` (only the active player acts) or `all` (players alternate).
    #[serde(default = "default_window_players")]
    pub players: String,
    pub moves: Vec<String>,
}

fn default_window_players() -> String {
    "active".into()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMove {
    pub label: String,
    #[serde(default)]
    pub pick: Option<String>,
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
    #[serde(rename = "do")]
    pub body: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTurn {
    #[serde(default)]
    pub start: Option<String>,
    pub phases: Vec<RawPhase>,
    #[serde(default)]
    pub end: Option<String>,
    /// Who plays next; default: the next player clockwise.
    #[serde(default)]
    pub next: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPhase {
    pub name: String,
    #[serde(rename = "do", default)]
    pub body: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEnd {
    /// `turn_end` (checked when a turn ends) or `always` (after every action).
    #[serde(default = "default_check")]
    pub check: String,
    #[serde(rename = "if")]
    pub cond: String,
}

fn default_check() -> String {
    "turn_end".into()
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RawTrigger {
    pub on: String,
    #[serde(default)]
    pub zone: Option<String>,
    #[serde(rename = "self", default)]
    pub self_only: bool,
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
    #[serde(default)]
    pub optional: bool,
    /// The card is shown to everyone as it triggers (a player shows a hidden
    /// card to use its ability); otherwise viewers who may not see it read
    /// only that a card triggered.
    #[serde(default)]
    pub reveal: bool,
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(rename = "do", default)]
    pub body: Option<String>,
    #[serde(default)]
    pub rhai: Option<String>,
    /// `now` (resolve as soon as the event happens) or `queued` (at the next check point).
    #[serde(default)]
    pub timing: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBotRule {
    #[serde(default)]
    pub when: Option<String>,
    pub choose: String,
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCard {
    pub id: String,
    /// Required: the name every transcript shows.
    pub name: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub props: BTreeMap<String, i64>,
    #[serde(default)]
    pub effects: BTreeMap<String, String>,
    #[serde(default)]
    pub rhai: BTreeMap<String, String>,
    #[serde(default)]
    pub abilities: Vec<RawTrigger>,
    /// A second name line: with `name`, what copy limits may count by.
    #[serde(default)]
    pub subtitle: Option<String>,
    /// Card ids and counts: a ready-made list such as a deck.
    #[serde(default)]
    pub list: BTreeMap<String, u32>,
}
