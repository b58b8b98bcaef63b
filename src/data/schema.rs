//! The YAML shapes of rules and card files, as written by their authors.
//! Unknown fields are errors, so typos are caught at load time. The doc
//! comments are also the descriptions of `fuda schema` (an editor shows them
//! to card authors): say what a key does and, for text, what it holds.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

/// A game's rules file, `rules/<game>.yaml`: what its cards may name (tags,
/// properties, counters, zones, events, effects) and how it is played (setup,
/// turns, windows, the end, the score, bots).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    /// The game's name: the file is `rules/<name>.yaml`, and commands take it
    /// (`fuda run <name>`).
    pub name: String,
    /// A longer title, for people.
    #[serde(default)]
    pub title: Option<String>,
    /// How many players the game takes: `{min, max, default}`.
    pub players: RawPlayers,
    /// Folder under `cards/` holding this game's cards (default: the game's name).
    #[serde(default)]
    pub cards: Option<String>,
    /// Every tag a card may have or be given with `mark` (at most 64); card
    /// text tests them with `it is <tag>`.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Number properties every card has, each with its default: `cost: 0`.
    /// A card sets its own under `props:`; card text reads `it.cost`.
    #[serde(default)]
    pub properties: BTreeMap<String, i64>,
    /// A card's state a player is shown wherever they see the card itself
    /// (views, `fuda play`, the table); a hidden card shows none of it.
    #[serde(default)]
    pub shown: RawShown,
    /// Per-player numbers (`actions`, `hp`): name: `{start, visible}`. Card
    /// text writes them bare for `me` (`actions += 1`), else `p.hp`.
    #[serde(default)]
    pub counters: BTreeMap<String, RawCounter>,
    /// Game-wide numbers, each with its start value; card text writes them bare.
    #[serde(default)]
    pub globals: BTreeMap<String, i64>,
    /// Named values the rules read as constants (`hand_size: 5`; code
    /// writes `draw(hand_size)`, a counter `start: hand_size`): the values a
    /// mod changes by name (`params: {hand_size: 6}`), not literals in code.
    #[serde(default)]
    pub params: BTreeMap<String, i64>,
    /// The zones cards may be in (at most 64): name: declaration.
    pub zones: BTreeMap<String, RawZone>,
    /// Names of the game's events, which `emit` and moves raise and abilities
    /// wait for with `on:` (`turn_start`, `turn_end`, `<phase>_start` and
    /// `<phase>_end` exist without being listed).
    #[serde(default)]
    pub events: Vec<String>,
    /// Names cards may give effects under (`effects:` / `rhai:` of a card);
    /// the rules run one with `run(card, "<name>")`.
    #[serde(default)]
    pub effects: Vec<String>,
    /// The game's options, lists of card ids chosen before the game (a market,
    /// decks): name: a description, or `{about, flag, tag, cards, count, min,
    /// max, distinct}`. Code reads one with `option("<name>")`.
    #[serde(default)]
    pub options: BTreeMap<String, RawOption>,
    /// The game's vocabulary: named pieces of card text with parameters,
    /// called like operations (`draw(2)`): name: `{params, do}`.
    #[serde(default)]
    pub verbs: BTreeMap<String, RawVerb>,
    /// Points where players act, opened by `window("<name>")`: name:
    /// `{players, moves}`.
    #[serde(default)]
    pub windows: BTreeMap<String, RawWindow>,
    /// What a player may do in a window: name: `{label, pick, if, do}`.
    #[serde(default)]
    pub moves: BTreeMap<String, RawMove>,
    /// Card text run once before the first turn (deal, shuffle, set the first
    /// player with `set_active`).
    pub setup: String,
    /// The turn: code at its start and end, its phases, and who plays next.
    pub turn: RawTurn,
    /// When the game ends: `{check, if}`, or `{check, rules: [{name, if}]}`.
    pub end: RawEnd,
    /// Each player's score, an expression in card text (`me` is the player);
    /// the highest wins.
    pub score: String,
    /// Compared when scores tie, an expression in card text (`me` is the player).
    #[serde(default)]
    pub tiebreak: Option<String>,
    /// A game stops after this many turns (default 400).
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    /// The rules' own abilities: the keys of a card's ability (`on`, `if`,
    /// `do`, …) without `self` and `zone`.
    #[serde(default)]
    pub triggers: Vec<RawTrigger>,
    /// Bots written as data: name: a list of rules, the first that fits
    /// decides. `--agents <name>` plays by them.
    #[serde(default)]
    pub bots: BTreeMap<String, Vec<RawBotRule>>,
    /// The agent a seat plays when the command line names none: a bot of
    /// `bots:`, `random` or `first` (default: random).
    #[serde(default)]
    pub default_agent: Option<String>,
    /// What the balance lab counts per card (`fuda sim --cards`): the
    /// events whose moves make a card gained, played or drawn.
    #[serde(default)]
    pub stats: RawStats,
    /// Rhai files under `rules/` whose functions card text may call.
    #[serde(default)]
    pub scripts: Vec<String>,
    /// The board of a game played on one: square properties and the squares,
    /// in track order.
    #[serde(default)]
    pub board: Option<super::board::RawBoard>,
    /// What a legal card list (a ready-made deck) is; `fuda check` checks
    /// every list of the game against it.
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
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawOptionMap {
    /// The description `fuda options` shows.
    #[serde(default)]
    about: String,
    /// A command-line flag of the game's own: `flag: decks` accepts
    /// `--decks a,b` (`--set <option>=a,b` works for every option).
    #[serde(default)]
    flag: Option<String>,
    /// Accepted cards: those with this tag, and those of `cards` (neither:
    /// any card of the game).
    #[serde(default)]
    tag: Option<String>,
    /// Accepted card ids, with those of `tag`.
    #[serde(default)]
    cards: Vec<String>,
    /// Exactly this many cards.
    #[serde(default)]
    count: Option<usize>,
    /// At least this many cards (when there is no `count`).
    #[serde(default)]
    min: Option<usize>,
    /// At most this many cards (when there is no `count`).
    #[serde(default)]
    max: Option<usize>,
    /// `true`: a card may be given only once.
    #[serde(default)]
    distinct: bool,
}

// The two forms `RawOption`'s visitor reads, for the schema only.
/// A game option: its description alone, or the long form with the flag and
/// the cards it accepts.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum RawOptionForms {
    /// The option's description alone.
    About(String),
    Long(RawOptionMap),
}

impl JsonSchema for RawOption {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RawOption".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        RawOptionForms::json_schema(g)
    }
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

#[derive(Debug, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
/// A card's state shown with the card: `{tags: [activated], properties: [power]}`.
pub struct RawShown {
    /// Tags (of `tags:`) shown on a card that has them, as `mark` gives them.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Properties (of `properties:`) shown when `modify` changed them from
    /// the card's own value.
    #[serde(default)]
    pub properties: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// How many players the game takes.
pub struct RawPlayers {
    /// The fewest players.
    pub min: u8,
    /// The most players.
    pub max: u8,
    /// How many play when the command line does not say (default: `min`).
    #[serde(default)]
    pub default: Option<u8>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A per-player counter.
pub struct RawCounter {
    /// Its value at the start of the game (default 0): a number, or the
    /// name of one of the rules' `params`.
    #[serde(default)]
    pub start: Start,
    /// Who sees its value (default `public`).
    #[serde(default)]
    pub visible: Visibility,
}

/// A start value: a number, or a parameter's name.
#[derive(Debug, Deserialize, JsonSchema, Clone, PartialEq, Eq)]
#[serde(untagged)]
pub enum Start {
    Value(i64),
    Param(String),
}

impl Default for Start {
    fn default() -> Start {
        Start::Value(0)
    }
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
/// Who sees something: everyone, its player only, or nobody.
pub enum Visibility {
    /// Everyone.
    #[default]
    Public,
    /// Only the player it belongs to (the zone's or the counter's player).
    Owner,
    /// Nobody.
    Hidden,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A zone: whose it is, who sees its cards, how its cards are kept.
pub struct RawZone {
    /// `player` (one zone per player, the default) or `shared` (one zone).
    #[serde(default = "default_per")]
    #[schemars(extend("enum" = ["player", "shared"]))]
    pub per: String,
    /// Who sees the cards in it (default `public`).
    #[serde(default)]
    pub contents: Visibility,
    /// Who sees how many cards it holds (default: `public` for a hidden
    /// zone, else the same as `contents`).
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
#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Default)]
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

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A verb of the game's vocabulary.
pub struct RawVerb {
    /// Parameter names, bound in `do` to the values of a call: `draw(2)`
    /// with `params: [n]` binds `n` to 2.
    #[serde(default)]
    pub params: Vec<String>,
    /// The code, in card text; it runs for the calling player (`me`) and
    /// `return` gives the verb's value.
    #[serde(rename = "do")]
    pub body: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A window: a point where players act.
pub struct RawWindow {
    /// `active` (only the active player acts, the default) or `all` (players
    /// act in turn until all pass in a row).
    #[serde(default = "default_window_players")]
    #[schemars(extend("enum" = ["active", "all"]))]
    pub players: String,
    /// With `players: all`, when it closes: `passes` (the default: when
    /// every player has passed in a row) or `round` (players act once each
    /// per round, from the first; it closes after a round in which every
    /// player passed).
    #[serde(default = "default_window_close")]
    #[schemars(extend("enum" = ["passes", "round"]))]
    pub close: String,
    /// The moves offered in it: names of the rules' `moves:`.
    pub moves: Vec<String>,
}

fn default_window_players() -> String {
    "active".into()
}

fn default_window_close() -> String {
    "passes".into()
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A move: one thing a player may do in a window.
pub struct RawMove {
    /// What the player and the transcript read (`play` reads `play <card>`
    /// with a pick); a scenario's answers name moves by it.
    pub label: String,
    /// An expression in card text listing what to choose from (a zone such
    /// as `hand`, or a filtered list): each item is one option, bound to
    /// `it` in `do`. Without it the move is one option.
    #[serde(default)]
    pub pick: Option<String>,
    /// A condition in card text: the move is offered only while it holds.
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
    /// The code, in card text, run when the move is taken.
    #[serde(rename = "do")]
    pub body: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A turn: its start, its phases in order, its end.
pub struct RawTurn {
    /// Code in card text run at the start of each turn, before `turn_start`
    /// abilities.
    #[serde(default)]
    pub start: Option<String>,
    /// The phases, in order; each raises `<name>_start` and `<name>_end`.
    pub phases: Vec<RawPhase>,
    /// Code in card text run at the end of each turn, after `turn_end` abilities.
    #[serde(default)]
    pub end: Option<String>,
    /// Who plays next, an expression in card text giving a player; default:
    /// the next player clockwise.
    #[serde(default)]
    pub next: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A phase of the turn.
pub struct RawPhase {
    /// The phase's name: scenarios start at it (`phase:`), events
    /// `<name>_start` and `<name>_end` are raised around it.
    pub name: String,
    /// The code, in card text, the phase runs (often `window("<name>")`).
    #[serde(rename = "do", default)]
    pub body: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// When the game ends.
pub struct RawEnd {
    /// `turn_end` (checked when a turn ends, the default) or `always` (at
    /// every check point too: each move, resolved ability, phase and
    /// `resolve_triggers()`).
    #[serde(default = "default_check")]
    #[schemars(extend("enum" = ["turn_end", "always"]))]
    pub check: String,
    /// The condition in card text that ends the game, or `rules:` (the
    /// conditions named, any one ends it).
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
    /// Named end rules, in order: the first that holds names the end.
    #[serde(default)]
    pub rules: Vec<RawEndRule>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A named end condition.
pub struct RawEndRule {
    /// The name the result line shows (`ended by the end rule <name>`) and a
    /// scenario's `result: {ended: <name>}` checks.
    pub name: String,
    /// The condition in card text that ends the game.
    #[serde(rename = "if")]
    pub cond: String,
}

fn default_check() -> String {
    "turn_end".into()
}

#[derive(Debug, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
/// A triggered ability: it waits for an event, then runs its code.
pub struct RawTrigger {
    /// The event it waits for: `gain`, or `would gain` to act before it
    /// happens (and maybe `prevent()` it). An event of the rules' `events:`,
    /// or `turn_start`, `turn_end`, `<phase>_start`, `<phase>_end`.
    pub on: String,
    /// A zone name of the rules: the card must be in it when the event
    /// happens ("while this is in play").
    #[serde(default)]
    pub zone: Option<String>,
    /// `true`: the event must be about this card (`event.card` is it),
    /// wherever it is: "when you gain this".
    #[serde(rename = "self", default)]
    pub self_only: bool,
    /// A condition in card text: the ability triggers only if it holds
    /// (`event` is the event, `this` the card, `me` its controller).
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
    /// `true`: the controller is asked (yes/no) before it resolves.
    #[serde(default)]
    pub optional: bool,
    /// The card is shown to everyone as it triggers (a player shows a hidden
    /// card to use its ability); otherwise viewers who may not see it read
    /// only that a card triggered.
    #[serde(default)]
    pub reveal: bool,
    /// The text of the optional question and of the transcript line
    /// (default: the `on` text).
    #[serde(default)]
    pub prompt: Option<String>,
    /// The code, in card text (`do` or `rhai`: exactly one).
    #[serde(rename = "do", default)]
    pub body: Option<String>,
    /// The code, in Rhai (`do` or `rhai`: exactly one).
    #[serde(default)]
    pub rhai: Option<String>,
    /// `now` (resolve as soon as the event happens, the default; `would`
    /// abilities need it) or `queued` (at the next check point).
    #[serde(default)]
    #[schemars(extend("enum" = ["now", "queued", null]))]
    pub timing: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// One rule of a bot: the first that fits a decision decides it.
pub struct RawBotRule {
    /// A window's name or a decision's prompt the rule is for (none: any
    /// decision).
    #[serde(default)]
    pub when: Option<String>,
    /// A test in card text on each option (`it` the option's card or
    /// string, `move` the move's name; `"pass"` picks passing).
    pub choose: String,
    /// A condition in card text on the state: the rule fits only if it holds.
    #[serde(rename = "if", default)]
    pub cond: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// A card: its id and name, what the rules' properties and tags are for it,
/// its effects and abilities.
pub struct RawCard {
    /// The id card text uses as `@id`, scenarios and the command line as it
    /// is; unique in the game.
    pub id: String,
    /// Required: the name every transcript shows.
    pub name: String,
    /// The printed text, for people (not run).
    #[serde(default)]
    pub text: Option<String>,
    /// Tags the rules declare (`tags:` of the rules); `it is <tag>` tests them.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Numbers for properties the rules declare (`properties:`), e.g.
    /// `{cost: 3}`; one not given has the rules' default.
    #[serde(default)]
    pub props: BTreeMap<String, i64>,
    /// Named pieces of card text (`play: draw(1)`); the names are the rules'
    /// `effects:`, run by the rules with `run(card, "<name>")`.
    #[serde(default)]
    pub effects: BTreeMap<String, String>,
    /// Like `effects`, written in Rhai; one language per effect.
    #[serde(default)]
    pub rhai: BTreeMap<String, String>,
    /// Triggered abilities.
    #[serde(default)]
    pub abilities: Vec<RawTrigger>,
    /// A second name line: with `name`, what copy limits may count by.
    #[serde(default)]
    pub subtitle: Option<String>,
    /// Card ids and counts: a ready-made list such as a deck.
    #[serde(default)]
    pub list: BTreeMap<String, u32>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
/// Which moves the balance lab counts: each list names events of `events:`;
/// a card moved with one of them as its cause counts once.
pub struct RawStats {
    /// Events whose moves give a player a card (e.g. a purchase).
    #[serde(default)]
    pub gained: Vec<String>,
    /// Events whose moves put a card into play.
    #[serde(default)]
    pub played: Vec<String>,
    /// Events whose moves draw a card.
    #[serde(default)]
    pub drawn: Vec<String>,
}
