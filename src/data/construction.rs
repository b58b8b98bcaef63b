//! Construction rules for card lists: a card may carry a `list:` of card ids and
//! counts (a ready-made deck), and the rules' `construction:` says what a legal
//! list is — its size and how many copies of one card it may hold, copies being
//! counted by a key made of the cards' names (so two printings with different ids
//! share one limit). `fuda check` reports a list that breaks them at the entry.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::locate::{find_word, first_words};
use super::{Data, DataError};
use crate::lang::names::find;
use crate::suggest::{did_you_mean, suggest};
use crate::value::{DefId, bit};

/// `construction:` as written in the rules.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConstruction {
    /// The tag of the cards whose `list:` is checked (a tag of the rules).
    pub lists: String,
    /// Exactly this many cards (or `min` / `max`).
    #[serde(default)]
    pub size: Option<u32>,
    /// At least this many cards (when there is no `size`).
    #[serde(default)]
    pub min: Option<u32>,
    /// At most this many cards (when there is no `size`).
    #[serde(default)]
    pub max: Option<u32>,
    /// Copy limits; a card counts under the first whose `tag` it has.
    #[serde(default)]
    pub limits: Vec<RawLimit>,
}

/// A copy limit: how many cards sharing a key a list may hold.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLimit {
    /// The tag of the cards it is for (none: every card).
    #[serde(default)]
    pub tag: Option<String>,
    /// The card fields making the key: `name`, `subtitle`, `id` (two
    /// printings with one name and subtitle share a limit).
    #[schemars(extend("items" = {"enum": ["name", "subtitle", "id"]}))]
    pub by: Vec<String>,
    /// The most copies of one key.
    pub max: u32,
}

/// The resolved rules.
pub struct Construction {
    pub lists: u16,
    pub min: u32,
    pub max: u32,
    pub limits: Vec<Limit>,
}

pub struct Limit {
    pub tag: Option<u16>,
    pub by: Vec<KeyField>,
    pub max: u32,
}

#[derive(Clone, Copy)]
pub enum KeyField {
    Name,
    Subtitle,
    Id,
}

/// One entry of a card's list: the card, how many, where it is written.
#[derive(Debug, Clone)]
pub struct Listed {
    pub def: DefId,
    pub n: u32,
    pub at: u32,
}

/// A located problem: start, end, message, help.
pub type Found = (usize, usize, String, Option<String>);

/// Resolves `construction:` against the rules' tags; `text` is the rules file.
pub fn resolve(raw: &RawConstruction, tags: &[String], text: &str) -> (Construction, Vec<Found>) {
    let mut errs = Vec::new();
    let from = find_word(text, "construction", 0).map_or(0, |w| w.0);
    let tag = |name: &str, errs: &mut Vec<Found>| {
        let t = find(tags, name);
        if t.is_none() {
            let (a, b) = find_word(text, name, from).unwrap_or((from, from));
            let help = did_you_mean(suggest(name, tags.iter().map(|s| s.as_str())));
            errs.push((a, b, format!("unknown tag \"{name}\""), help));
        }
        t
    };
    let lists = tag(&raw.lists, &mut errs).unwrap_or(u16::MAX);
    let mut limits = Vec::new();
    for l in &raw.limits {
        let t = l.tag.as_deref().and_then(|n| tag(n, &mut errs));
        let mut by = Vec::new();
        for f in &l.by {
            by.push(match f.as_str() {
                "name" => KeyField::Name,
                "subtitle" => KeyField::Subtitle,
                "id" => KeyField::Id,
                other => {
                    let (a, b) = find_word(text, other, from).unwrap_or((from, from));
                    let help = Some("a key is made of `name`, `subtitle` and `id`".into());
                    errs.push((a, b, format!("unknown card field \"{other}\""), help));
                    continue;
                }
            });
        }
        limits.push(Limit {
            tag: t,
            by,
            max: l.max,
        });
    }
    let c = Construction {
        lists,
        min: raw.size.or(raw.min).unwrap_or(0),
        max: raw.size.or(raw.max).unwrap_or(u32::MAX),
        limits,
    };
    (c, errs)
}

/// A card's `list:` with its ids resolved; the card is `text[at..end]`.
pub fn resolve_list(
    raw: &BTreeMap<String, u32>,
    defs: &[String],
    text: &str,
    (at, end): (usize, usize),
) -> (Vec<Listed>, Vec<Found>) {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    if raw.is_empty() {
        return (out, errs);
    }
    let from = find_word(&text[..end.min(text.len())], "list", at).map_or(at, |w| w.1);
    let places = first_words(text, from, end, raw.len(), |w| raw.contains_key(w));
    for (id, &n) in raw {
        let (a, b) = places.get(id.as_str()).copied().unwrap_or((from, from));
        match find(defs, id) {
            Some(def) => out.push(Listed {
                def,
                n,
                at: a as u32,
            }),
            None => {
                let help = did_you_mean(suggest(id, defs.iter().map(|s| s.as_str())));
                errs.push((a, b, format!("unknown card \"{id}\""), help));
            }
        }
    }
    (out, errs)
}

/// Every list of the game against the construction rules.
pub fn check(d: &Data) -> Vec<DataError> {
    let Some(c) = &d.construction else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    for card in d.defs.iter().filter(|x| x.tags & bit(c.lists) != 0) {
        let text = d.sources.text(card.file);
        let total: u32 = card.list.iter().map(|l| l.n).sum();
        if total < c.min || total > c.max {
            let at = card.list.first().map_or(0, |l| l.at as usize);
            let at = text[..at.min(text.len())].rfind("list").unwrap_or(at);
            let want = match (c.min, c.max) {
                (a, b) if a == b => format!("exactly {a}"),
                (a, u32::MAX) => format!("at least {a}"),
                (a, b) => format!("{a} to {b}"),
            };
            errs.push(d.sources.error(
                card.file,
                at as u32,
                (at + 4) as u32,
                format!("`{}` lists {total} cards, {want}", card.id),
                Some("the rules' `construction:` sets the size".into()),
            ));
        }
        // Copies by key, under the first limit each card falls under.
        let mut seen: BTreeMap<(usize, String), (u32, u32, u32)> = BTreeMap::new();
        for l in &card.list {
            let def = &d.defs[l.def as usize];
            let Some((li, limit)) = c
                .limits
                .iter()
                .enumerate()
                .find(|(_, m)| m.tag.is_none_or(|t| def.tags & bit(t) != 0))
            else {
                continue;
            };
            let key: Vec<&str> = limit
                .by
                .iter()
                .map(|f| match f {
                    KeyField::Name => def.name.as_str(),
                    KeyField::Subtitle => def.subtitle.as_str(),
                    KeyField::Id => def.id.as_str(),
                })
                .filter(|s| !s.is_empty())
                .collect();
            // The error points at the entry that goes past the limit.
            let e = seen.entry((li, key.join(" "))).or_insert((0, l.at, 0));
            e.0 += l.n;
            (e.1, e.2) = (l.at, def.id.len() as u32);
        }
        for ((li, key), (n, at, len)) in seen {
            let max = c.limits[li].max;
            if n > max {
                errs.push(d.sources.error(
                    card.file,
                    at,
                    at + len,
                    format!("{n} copies of 『{key}』, at most {max}"),
                    Some(format!("`{}` breaks the rules' copy limit", card.id)),
                ));
            }
        }
    }
    errs
}
