//! A mod's `mod.yaml`: which game it extends, and which of that game's cards
//! its own cards replace (named, so a misspelt id is an error, not a new card).

use std::path::Path;

use serde::Deserialize;

/// The file that makes a folder a mod.
pub const FILE: &str = "mod.yaml";
/// The mod's rules, laid over the game's ([`super::overlay`]).
pub const RULES: &str = "rules.yaml";
/// The mod's cards: every YAML file under it.
pub const CARDS: &str = "cards";

/// Whether a folder is a mod: it holds [`FILE`].
pub fn is_mod(dir: &Path) -> bool {
    dir.join(FILE).is_file()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMod {
    /// The shipped game the mod extends (`fuda data export` lists them).
    pub extends: String,
    /// The mod's name, shown by `fuda check` (default: its folder's).
    #[serde(default)]
    pub name: Option<String>,
    /// What the mod does, in a line.
    #[serde(default)]
    pub description: Option<String>,
    /// Ids of the game's cards that the mod's cards of the same id replace.
    #[serde(default)]
    pub replace: Vec<String>,
}
