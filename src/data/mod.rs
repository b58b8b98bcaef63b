//! A game as data: rules and cards, loaded from YAML and compiled once.

pub mod board;
pub mod card_table;
pub mod confine;
pub mod construction;
pub mod counts;
pub mod diag;
pub mod export;
pub mod files;
pub mod kinds;
pub mod load;
pub mod locate;
pub mod lower;
pub mod manifest;
pub mod memo;
pub mod options;
pub mod overlay;
pub mod schema;
pub mod scripts;
pub mod sight;
pub mod source;
pub mod unsaved;
pub mod would;
pub mod yaml;
mod yamlread;
pub mod yamltext;

use std::sync::Arc;

use crate::lang::ir::Code;
use crate::lang::names::Names;
use crate::value::DefId;
pub use diag::{DataError, DataErrors, Sources};
pub use schema::Visibility;

/// A loaded, compiled game.
pub struct Data {
    pub game: String,
    pub title: String,
    pub names: Names,
    pub players: (u8, u8, u8),
    pub prop_defaults: Vec<i64>,
    /// The rules' `shown:`: tags (as bits) and properties a card's view
    /// shows with it.
    pub shown_tags: u64,
    pub shown_props: Vec<u16>,
    pub counters: Vec<CounterDecl>,
    pub globals_start: Vec<i64>,
    pub zones: Vec<ZoneDecl>,
    /// Option names, as `option("name")` finds them.
    pub options: Vec<String>,
    /// The same options, with what each accepts.
    pub option_decls: Vec<options::OptionDecl>,
    pub verbs: Vec<Code>,
    pub windows: Vec<WindowDecl>,
    pub moves: Vec<MoveDecl>,
    pub setup: Code,
    pub turn: TurnDecl,
    pub end_always: bool,
    pub end_if: Code,
    /// The named end rules (`end: rules:`), whose `or` is `end_if`: read
    /// once a game ended, to say which rule ended it.
    pub end_rules: Vec<(String, Code)>,
    pub score: Code,
    pub tiebreak: Option<Code>,
    pub max_turns: u32,
    pub triggers: Vec<Trigger>,
    pub index: TriggerIndex,
    pub defs: Vec<CardDef>,
    /// The definitions' properties and effects laid out for play's reads.
    pub table: card_table::CardTable,
    /// Definitions by tag, found at load: a game asking for a tag's cards
    /// does not look at the rest of the library.
    pub defs_by_tag: Vec<Box<[DefId]>>,
    /// Each definition's name as code reads it (`.name`): one string shared
    /// by every read, and by every definition of the same name, so a read
    /// makes no string and two names are equal exactly when their strings
    /// are the same one.
    pub def_names: Vec<Arc<String>>,
    pub bots: Vec<(String, Vec<BotRule>)>,
    /// The agent of a seat the command line names none for (`default_agent:`).
    pub default_agent: Option<String>,
    /// The events of each counted kind ([`STAT_KINDS`]): the rules' `stats:`.
    pub stats: [Vec<u16>; 3],
    pub scripts: scripts::Scripts,
    pub sources: Sources,
    /// The board, if the game has one (else no square).
    pub board: board::BoardDecl,
    /// The rules' `construction:`, checked by `fuda check`.
    pub construction: Option<construction::Construction>,
    /// How many pieces of code [`Data::number_codes`] numbered.
    pub code_count: u32,
    /// The verb each probing copy after the named verbs copies (`probe.rs`).
    pub probe_of: Vec<u16>,
    /// The mod laid over the game, if one is.
    pub layer: Option<overlay::Layer>,
}

/// The kinds of moves the balance lab counts, in the order of [`Data::stats`].
pub const STAT_KINDS: [&str; 3] = ["gained", "played", "drawn"];

pub struct CounterDecl {
    pub name: String,
    pub start: i64,
    pub visible: Visibility,
}

pub struct ZoneDecl {
    pub name: String,
    pub shared: bool,
    pub contents: Visibility,
    pub size: Visibility,
    pub top: bool,
    pub piles: bool,
    pub controller: schema::Controller,
}

pub struct WindowDecl {
    pub name: String,
    pub all_players: bool,
    /// Closes only after a round (each player once, from the first) in
    /// which every player passed, not on any passes in a row.
    pub rounds: bool,
    pub moves: Vec<u16>,
    /// By bot: what it decides in this window with, found at load.
    pub bots: Vec<WindowBot>,
}

/// One bot in one window.
pub struct WindowBot {
    /// The rules that may decide here (no `when`, or this window's name), in
    /// order.
    pub rules: Vec<u32>,
}

pub struct MoveDecl {
    pub name: String,
    pub label: String,
    pub pick: Option<Code>,
    pub cond: Option<Code>,
    pub body: Code,
}

/// An event the turn raises, with its bit in the quiet set
/// ([`crate::value::bit`], found once: raised several times a turn).
#[derive(Debug, Clone, Copy)]
pub struct TurnEvent {
    pub id: u16,
    pub bit: u64,
}

impl TurnEvent {
    pub fn new(id: u16) -> TurnEvent {
        TurnEvent {
            id,
            bit: crate::value::bit(id),
        }
    }
}

pub struct PhaseDecl {
    pub name: String,
    pub body: Code,
    pub start_event: TurnEvent,
    pub end_event: TurnEvent,
}

pub struct TurnDecl {
    pub start: Option<Code>,
    pub phases: Vec<PhaseDecl>,
    pub end: Option<Code>,
    pub next: Option<Code>,
    pub start_event: TurnEvent,
    pub end_event: TurnEvent,
}

pub struct CardDef {
    pub id: String,
    pub name: String,
    pub text: String,
    pub tags: u64,
    pub props: Vec<i64>,
    /// Indexed by the rules' effect names.
    pub effects: Vec<Option<Code>>,
    pub file: u32,
    pub subtitle: String,
    /// Its `list:` ([`construction`]).
    pub list: Vec<construction::Listed>,
}

/// An ability that waits for an event: a card's, or the rules' own.
pub struct Trigger {
    pub def: Option<DefId>,
    pub event: u16,
    pub would: bool,
    pub zone: Option<u16>,
    pub self_only: bool,
    pub cond: Option<Code>,
    /// `cond` is [`Code::plain`]: the kernel asks a tier to decide it.
    pub plain_cond: bool,
    pub optional: bool,
    /// The card is revealed as it triggers ([`schema::RawTrigger::reveal`]).
    pub reveal: bool,
    pub prompt: String,
    pub queued: bool,
    pub body: Code,
}

/// Triggers by event, so an event only looks at abilities that wait for it.
#[derive(Default)]
pub struct TriggerIndex {
    /// Indexed by `event * 2 + would`.
    pub slots: Vec<EventSlot>,
}

#[derive(Default, Clone)]
pub struct EventSlot {
    pub rules: Vec<u32>,
    pub self_only: Vec<u32>,
    /// Card abilities live in a zone, grouped by that zone.
    pub zoned: Vec<Zoned>,
    /// Whether any ability waits for the event (the rules' or a card's).
    pub any: bool,
    /// Bit per card definition with an ability here (self or zoned): with no
    /// card of these in the game, only the rules' abilities can trigger.
    pub defs: Vec<u64>,
}

impl EventSlot {
    /// The one ability of the rules' that waits here when no card's can: its
    /// event is handled with no finding.
    #[inline]
    pub fn only_rule(&self) -> Option<u32> {
        match self.rules[..] {
            [t] if self.self_only.is_empty() && self.zoned.is_empty() => Some(t),
            _ => None,
        }
    }
}

/// The card abilities waiting for an event in one zone, with what finding
/// them needs to know of the zone (read once, when the index is built).
#[derive(Default, Clone)]
pub struct Zoned {
    pub zone: u16,
    /// The abilities, grouped by card definition (in the order of the
    /// triggers within a definition's group).
    pub list: Vec<u32>,
    /// By card definition, its group of `list` (start, end): a card found
    /// listening reads its abilities with no walk over the others'.
    pub span: Vec<(u32, u32)>,
    /// Bit per card definition with an ability in `list`.
    pub defs: Vec<u64>,
    /// The zone has one instance, not one per player.
    pub shared: bool,
    /// Shared, and a card's abilities there are each player's.
    pub each: bool,
}

impl TriggerIndex {
    #[inline]
    pub fn slot(&self, event: u16, would: bool) -> Option<&EventSlot> {
        self.slots.get(event as usize * 2 + would as usize)
    }

    /// Whether any ability waits for the event, whatever cards are in the game.
    #[inline]
    pub fn listened(&self, event: u16, would: bool) -> bool {
        self.slot(event, would).is_some_and(|s| s.any)
    }
}

pub struct BotRule {
    pub when: Option<String>,
    pub choose: Code,
    pub cond: Option<Code>,
    /// Whether `cond` looks at the option (`it`): if not, it is checked once
    /// per decision.
    pub cond_reads_it: bool,
}

/// Every piece of code a [`Data`] holds, by shared or unique reference
/// (`$iter`, `$as`, `$m`): one list for both, so numbering misses none.
macro_rules! codes_of {
    ($d:expr, $iter:ident, $as:ident $(, $m:tt)?) => {{
        let d = $d;
        let t = & $($m)? d.turn;
        let moves = (d.moves.$iter())
            .flat_map(|m| [m.pick.$as(), m.cond.$as(), Some(& $($m)? m.body)]);
        let triggers = (d.triggers.$iter()).flat_map(|t| [t.cond.$as(), Some(& $($m)? t.body)]);
        let bots = (d.bots.$iter()).flat_map(|(_, rules)| {
            (rules.$iter()).flat_map(|r| [Some(& $($m)? r.choose), r.cond.$as()])
        });
        let effects = (d.defs.$iter()).flat_map(|d| d.effects.$iter().map(Option::$as));
        [
            Some(& $($m)? d.setup),
            Some(& $($m)? d.end_if),
            Some(& $($m)? d.score),
            d.tiebreak.$as(),
            t.start.$as(),
            t.end.$as(),
            t.next.$as(),
        ]
        .into_iter()
        .chain(t.phases.$iter().map(|p| Some(& $($m)? p.body)))
        .chain(d.verbs.$iter().map(Some))
        .chain(d.end_rules.$iter().map(|(_, c)| Some(c)))
        .chain(moves)
        .chain(triggers)
        .chain(bots)
        .chain(effects)
        .flatten()
    }};
}

mod probe;

impl Data {
    /// The definitions with tag number `tag` (`defs(tag)`); none for a
    /// number that names no tag.
    #[inline]
    pub fn tagged(&self, tag: i64) -> &[DefId] {
        usize::try_from(tag)
            .ok()
            .and_then(|t| self.defs_by_tag.get(t))
            .map_or(&[], |d| &d[..])
    }

    /// Every piece of code the game holds: the rules', the moves', the
    /// triggers', the cards' effects and the bots'.
    pub fn codes(&self) -> impl Iterator<Item = &Code> {
        codes_of!(self, iter, as_ref)
    }

    /// Numbers every piece of code ([`Code::id`]) in [`Data::codes`]' order:
    /// tables kept beside the data (a tier's compiled code) are indexed so.
    pub(crate) fn number_codes(&mut self) {
        let mut n = 0;
        for code in codes_of!(&mut *self, iter_mut, as_mut, mut) {
            code.id = n;
            n += 1;
        }
        self.code_count = n;
    }

    /// A definition's name as a value (a string shared, none made).
    #[inline]
    pub fn name_value(&self, d: DefId) -> crate::value::Value {
        match self.def_names.get(d as usize) {
            Some(name) => crate::value::Value::Str(name.clone()),
            None => crate::value::Value::text("?"),
        }
    }

    pub fn def_name(&self, d: DefId) -> &str {
        self.defs
            .get(d as usize)
            .map(|d| d.name.as_str())
            .unwrap_or("?")
    }
    /// A card definition's id, as data and the command line name it.
    pub fn def_id(&self, d: DefId) -> &str {
        self.names
            .defs
            .get(d as usize)
            .map(|d| d.as_str())
            .unwrap_or("?")
    }
    pub fn event_name(&self, e: u16) -> &str {
        self.names
            .events
            .get(e as usize)
            .map(|s| s.as_str())
            .unwrap_or("?")
    }
    pub fn zone_shared(&self, z: u16) -> bool {
        self.zones[z as usize].shared
    }
    /// A fingerprint of every file the game was loaded from (FNV-1a), so a saved
    /// game can tell whether its data changed.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (_, text) in &self.sources.files {
            for b in text.bytes().chain([0]) {
                h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    }

    pub fn bot(&self, name: &str) -> Option<usize> {
        self.bots.iter().position(|(n, _)| n == name)
    }
}
