//! Editor schemas: a JSON Schema of each kind of data file, made from the
//! loader's own serde types (their doc comments are the descriptions), so an
//! editor and `fuda check` cannot disagree on a key. Draft-07, the draft
//! yaml-language-server reads. `docs/schema/` holds them, and each shipped
//! file names its schema in its first line ([`line_for`]).

use std::path::{Component, Path};

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use crate::data::manifest::RawMod;
use crate::data::schema::{RawCard, RawRules};
use crate::scenario::RawScenario;

/// A kind of data file with a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `rules/<game>.yaml`.
    Rules,
    /// A file under `cards/`: one card or a list of cards.
    Card,
    /// A scenario file (`tests/scenarios/…`).
    Scenario,
    /// A mod's `mod.yaml`. (Its `rules.yaml` has no schema: it is merged as
    /// raw YAML before it is read as rules, so any key may be `null`.)
    Mod,
}

/// Where the schemas are kept, from the data folder.
pub const DIR: &str = "docs/schema";

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Rules, Kind::Card, Kind::Scenario, Kind::Mod];

    /// The name `fuda schema` takes, and the file's stem under [`DIR`].
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rules => "rules",
            Kind::Card => "card",
            Kind::Scenario => "scenario",
            Kind::Mod => "mod",
        }
    }

    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind of a file by where it lies in a data folder (`rules/`,
    /// `cards/`, `tests/scenarios/`), or a mod's `mod.yaml`; `path` is
    /// relative to that folder.
    pub fn of(path: &Path) -> Option<Kind> {
        if path.extension().is_none_or(|e| e != "yaml" && e != "yml") {
            return None;
        }
        let mut parts = path.components().map(|c| c.as_os_str().to_str());
        match (parts.next(), parts.next()) {
            (Some(Some("rules")), Some(_)) if path.components().count() == 2 => Some(Kind::Rules),
            (Some(Some("cards")), Some(_)) => Some(Kind::Card),
            (Some(Some("tests")), Some(Some("scenarios"))) => Some(Kind::Scenario),
            _ if path
                .file_name()
                .is_some_and(|n| n == crate::data::manifest::FILE) =>
            {
                Some(Kind::Mod)
            }
            _ => None,
        }
    }

    /// The schema, as pretty JSON ending in a newline.
    pub fn json(self) -> String {
        let g = SchemaSettings::draft07().into_generator();
        let (mut schema, title) = match self {
            Kind::Rules => (g.into_root_schema_for::<RawRules>(), "fuda rules file"),
            Kind::Card => (g.into_root_schema_for::<CardFile>(), "fuda card file"),
            Kind::Scenario => (
                g.into_root_schema_for::<RawScenario>(),
                "fuda scenario file",
            ),
            Kind::Mod => (g.into_root_schema_for::<RawMod>(), "fuda mod file"),
        };
        schema.insert("title".into(), title.into());
        let mut out = serde_json::to_string_pretty(&schema).unwrap_or_default();
        out.push('\n');
        out
    }
}

/// A card file: one card, or a list of them.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum CardFile {
    One(Box<RawCard>),
    Many(Vec<RawCard>),
}

/// The comment that points yaml-language-server at the schema of `kind`, for
/// a file at `path` (relative to the data folder): its first line.
pub fn line_for(kind: Kind, path: &Path) -> String {
    let depth = path.parent().map_or(0, |p| {
        p.components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .count()
    });
    format!(
        "# yaml-language-server: $schema={}{DIR}/{}.json",
        "../".repeat(depth),
        kind.name()
    )
}
