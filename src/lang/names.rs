//! The name tables a game declares, against which code is resolved at load time.

use std::collections::HashMap;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Names {
    pub tags: Vec<String>,
    pub props: Vec<String>,
    pub counters: Vec<String>,
    pub globals: Vec<String>,
    pub zones: Vec<String>,
    pub events: Vec<String>,
    pub effects: Vec<String>,
    /// Verb name and its parameter names.
    pub verbs: Vec<(String, Vec<String>)>,
    pub windows: Vec<String>,
    pub defs: Vec<String>,
    /// Script functions and their parameter counts.
    pub scripts: Vec<(String, usize)>,
    pub def_index: HashMap<String, u16>,
    /// The board's square properties.
    pub square_props: Vec<String>,
    /// The rules' named constants and their values.
    pub params: Vec<(String, i64)>,
}

pub fn find(list: &[String], name: &str) -> Option<u16> {
    list.iter().position(|n| n == name).map(|i| i as u16)
}

impl Names {
    pub fn table(&self, t: crate::lang::builtins::NameTable) -> &[String] {
        use crate::lang::builtins::NameTable::*;
        match t {
            Events => &self.events,
            Tags => &self.tags,
            Props => &self.props,
            Effects => &self.effects,
            Windows => &self.windows,
            Zones => &self.zones,
            SquareProps => &self.square_props,
        }
    }

    pub fn def(&self, name: &str) -> Option<u16> {
        self.def_index.get(name).copied()
    }
    pub fn verb(&self, name: &str) -> Option<u16> {
        self.verbs
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| i as u16)
    }
    pub fn script(&self, name: &str) -> Option<u16> {
        self.scripts
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| i as u16)
    }
}
