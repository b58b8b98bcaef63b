//! A mod's `mod.yaml`: which game it extends, and which of that game's cards
//! its own cards replace (named, so a misspelt id is an error, not a new card).

use std::path::Path;

use schemars::JsonSchema;
use serde::Deserialize;

/// The file that makes a folder a mod.
pub const FILE: &str = "mod.yaml";
/// The mod's rules, laid over the game's ([`super::overlay`]).
pub const RULES: &str = "rules.yaml";
/// The mod's cards: every YAML file under it.
pub const CARDS: &str = "cards";

/// Whether a folder is a mod: it holds [`FILE`], in any form (a
/// `mod.yaml` that is a folder or a named pipe is a mod whose manifest
/// cannot be read, and loading says so).
pub fn is_mod(dir: &Path) -> bool {
    dir.join(FILE).symlink_metadata().is_ok()
}

/// A mod's `mod.yaml`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMod {
    /// The built-in game the mod is laid over (`fuda check` lists them). A
    /// mod extends a game built into fuda, never another folder.
    pub extends: String,
    /// The mod's name, shown by `fuda check` (default: its folder's).
    #[serde(default)]
    pub name: Option<String>,
    /// What the mod does, in a line.
    #[serde(default)]
    pub description: Option<String>,
    /// Ids of the game's cards that the mod's cards of the same id replace.
    /// A mod's card with a game card's id is an error unless named here, and
    /// an id here that the game has no card of is an error: a misspelt id
    /// never silently becomes a new card.
    #[serde(default)]
    pub replace: Vec<String>,
}
