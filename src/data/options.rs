//! A game's options: what its rules let players choose before a game, and the
//! values each accepts. The rules declare them, so the command line, saves and
//! scenarios check choices against the rules and no game's option names live in
//! the kernel.

use std::collections::HashMap;

use super::{Data, DataError, DataErrors};
use crate::suggest::{did_you_mean, suggest};
use crate::value::{DefId, bit};

/// One option, as the rules declare it.
pub struct OptionDecl {
    pub name: String,
    pub about: String,
    /// `--<flag>` on the command line.
    pub flag: Option<String>,
    /// Accepted cards: with this tag, and those listed; neither: any card.
    pub tag: Option<u16>,
    pub cards: Vec<DefId>,
    /// How many cards may be chosen.
    pub min: usize,
    pub max: usize,
    pub distinct: bool,
}

impl OptionDecl {
    pub fn accepts(&self, data: &Data, d: DefId) -> bool {
        let tagged = self
            .tag
            .is_some_and(|t| data.defs[d as usize].tags & bit(t) != 0);
        (self.tag.is_none() && self.cards.is_empty()) || tagged || self.cards.contains(&d)
    }

    /// What it accepts, in words: "cards tagged x", "a or b", "any card";
    /// then how many.
    pub fn describe(&self, data: &Data) -> String {
        let mut what = Vec::new();
        if let Some(t) = self.tag {
            what.push(format!("cards tagged {}", data.names.tags[t as usize]));
        }
        if !self.cards.is_empty() {
            let ids: Vec<&str> = self.cards.iter().map(|&d| data.def_id(d)).collect();
            what.push(ids.join(", "));
        }
        let what = match what.is_empty() {
            true => "any card".to_string(),
            false => what.join(" or "),
        };
        let count = match (self.min, self.max) {
            (a, b) if a == b => format!("exactly {a}"),
            (0, usize::MAX) => "any number".into(),
            (a, usize::MAX) => format!("at least {a}"),
            (0, b) => format!("at most {b}"),
            (a, b) => format!("{a} to {b}"),
        };
        let distinct = if self.distinct { ", each once" } else { "" };
        format!("{what}; {count}{distinct}")
    }
}

/// Resolves chosen options (name, card ids) against the rules: each name must
/// be an option, each id a card the option accepts, in the number it accepts.
pub fn resolve(
    data: &Data,
    sets: Vec<(String, Vec<String>)>,
) -> Result<HashMap<String, Vec<DefId>>, DataErrors> {
    let mut errors = Vec::new();
    let mut options = HashMap::new();
    for (k, ids) in sets {
        let Some(decl) = data.option_decls.iter().find(|o| o.name == k) else {
            let help =
                did_you_mean(suggest(&k, data.options.iter().map(|s| s.as_str()))).or_else(|| {
                    Some(format!(
                        "options of {}: {}",
                        data.game,
                        data.options.join(", ")
                    ))
                });
            errors.push(DataError::plain(
                format!("{} has no option \"{k}\"", data.game),
                help,
            ));
            continue;
        };
        let accepted = || {
            (0..data.defs.len() as DefId)
                .filter(|&d| decl.accepts(data, d))
                .map(|d| data.def_id(d))
        };
        let mut defs = Vec::new();
        for id in ids {
            let Some(d) = data.names.def(&id) else {
                let help = suggest(&id, accepted())
                    .or_else(|| suggest(&id, data.names.defs.iter().map(|s| s.as_str())));
                errors.push(DataError::plain(
                    format!("unknown card \"{id}\" in option {k}"),
                    did_you_mean(help),
                ));
                continue;
            };
            let again = defs.contains(&d);
            if !decl.accepts(data, d) {
                if again {
                    defs.push(d);
                    continue; // reported once is enough
                }
                let help = did_you_mean(suggest(&id, accepted()))
                    .unwrap_or_else(|| format!("{k} accepts {}", decl.describe(data)));
                errors.push(DataError::plain(
                    format!("\"{id}\" cannot be chosen for option {k}"),
                    Some(help),
                ));
            } else if decl.distinct && again {
                errors.push(DataError::plain(
                    format!("\"{id}\" is chosen twice for option {k}"),
                    Some(format!("{k} accepts {}", decl.describe(data))),
                ));
            }
            defs.push(d);
        }
        if defs.len() < decl.min || defs.len() > decl.max {
            errors.push(DataError::plain(
                format!("option {k} has {} card(s)", defs.len()),
                Some(format!("{k} accepts {}", decl.describe(data))),
            ));
        }
        options.insert(k, defs);
    }
    if errors.is_empty() {
        Ok(options)
    } else {
        Err(DataErrors { errors })
    }
}
