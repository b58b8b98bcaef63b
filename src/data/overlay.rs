//! A mod's rules file laid over the game's: one generic merge, keyed by the
//! names the rules already use, so a mod holds only what it changes.
//!
//! - a mapping merges key by key, recursively (`verbs: {x: …}` adds or
//!   changes the verb `x`; `counters: {c: {start: 2}}` changes one value);
//! - a key given `null` is removed;
//! - a list of named mappings (each with a `name:`, as `turn: phases:` and
//!   `end: rules:`) merges item by item by name; a new name is appended;
//! - anything else (a number, a text, any other list) is replaced whole.

use serde_norway::{Mapping, Value};

/// A mod laid over a game, as `fuda check` reports it.
#[derive(Debug, Clone)]
pub struct Layer {
    pub name: String,
    pub dir: String,
    pub extends: String,
    pub description: Option<String>,
    /// What it does, a line each: `adds card x`, `replaces card y`,
    /// `adds verbs.z`, `changes counters.c.start: 1 → 2`.
    pub changes: Vec<String>,
}

/// Lays `top` over `base`.
pub fn merge(base: &mut Value, top: Value) {
    match (base, top) {
        (Value::Mapping(b), Value::Mapping(t)) => {
            for (k, v) in t {
                if v.is_null() {
                    b.remove(&k);
                    continue;
                }
                match b.get_mut(&k) {
                    Some(old) => merge(old, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (Value::Sequence(b), Value::Sequence(t)) if named(b) && named(&t) => {
            for item in t {
                match b.iter_mut().find(|o| name_of(o) == name_of(&item)) {
                    Some(old) => merge(old, item),
                    None => b.push(item),
                }
            }
        }
        (b, t) => *b = t,
    }
}

/// A list whose every item is a mapping with a `name:` text.
fn named(list: &[Value]) -> bool {
    !list.is_empty() && list.iter().all(|v| name_of(v).is_some())
}

fn name_of(v: &Value) -> Option<&str> {
    v.as_mapping()?.get("name")?.as_str()
}

/// The entry at `key` of a mapping or a named list.
fn child<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    match v {
        Value::Mapping(m) => m.get(key),
        Value::Sequence(s) if named(s) => s.iter().find(|i| name_of(i) == Some(key)),
        _ => None,
    }
}

/// Whether `v` holds something at `path` (keys of mappings, names in
/// named lists): whether a mod's rules give it.
pub fn has(v: &Value, path: &[&str]) -> bool {
    let mut at = v;
    for k in path {
        match child(at, k) {
            Some(next) => at = next,
            None => return false,
        }
    }
    true
}

/// What laying `top` over `base` does, one line per name added, changed or
/// removed (`adds verbs.x`, `changes counters.c.start: 1 → 2`).
pub fn changes(base: &Value, top: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(base, top, "", &mut out);
    out
}

fn walk(base: &Value, top: &Value, path: &str, out: &mut Vec<String>) {
    if base == top {
        return;
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    let entries: Vec<(String, &Value)> = match (base, top) {
        (Value::Mapping(_), Value::Mapping(m)) => {
            (m.iter()).map(|(k, v)| (key_text(k), v)).collect()
        }
        (Value::Sequence(b), Value::Sequence(s)) if named(b) && named(s) => (s.iter())
            .filter_map(|v| Some((name_of(v)?.to_string(), v)))
            .collect(),
        _ => {
            out.push(format!("changes {path}{}", shown(base, top)));
            return;
        }
    };
    for (k, v) in entries {
        match child(base, &k) {
            None if v.is_null() => {}
            None => out.push(format!("adds {}", join(&k))),
            Some(_) if v.is_null() => out.push(format!("removes {}", join(&k))),
            Some(old) => walk(old, v, &join(&k), out),
        }
    }
}

fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        other => scalar(other).unwrap_or_else(|| "?".into()),
    }
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if s.len() <= 40 && !s.contains('\n') => Some(s.clone()),
        _ => None,
    }
}

/// `: old → new` when both are short values.
fn shown(old: &Value, new: &Value) -> String {
    match (scalar(old), scalar(new)) {
        (Some(a), Some(b)) => format!(": {a} → {b}"),
        _ => String::new(),
    }
}

/// The rules' sections keyed by the names they declare.
const NAMED: [&str; 10] = [
    "properties",
    "counters",
    "globals",
    "params",
    "zones",
    "options",
    "verbs",
    "windows",
    "moves",
    "bots",
];

/// The rules' lists of named items, by their place.
const NAMED_LISTS: [[&str; 2]; 2] = [["turn", "phases"], ["end", "rules"]];

/// A name a mod's rules give, checked against the game's: where it is
/// (`counters`, `turn.phases`), the name, and the names there.
pub struct Name {
    pub section: String,
    pub name: String,
    pub known: Vec<String>,
}

/// The names `top` gives in the rules' named sections and lists, each
/// with whether `base` has it: a mod changes names the game has, and adds
/// only under `add:`, so a misspelt name is an error, not a new one.
pub fn names(base: &Value, top: &Value) -> Vec<(Name, bool)> {
    let mut out = Vec::new();
    for sec in NAMED {
        let (Some(Value::Mapping(t)), b) = (child(top, sec), child(base, sec)) else {
            continue;
        };
        let known: Vec<String> = match b {
            Some(Value::Mapping(m)) => keys(m).collect(),
            _ => Vec::new(),
        };
        for k in keys(t) {
            let has = known.contains(&k);
            out.push((
                Name {
                    section: sec.into(),
                    name: k,
                    known: known.clone(),
                },
                has,
            ));
        }
    }
    for [a, b] in NAMED_LISTS {
        let Some(Value::Sequence(t)) = child(top, a).and_then(|v| child(v, b)) else {
            continue;
        };
        let known: Vec<String> = match child(base, a).and_then(|v| child(v, b)) {
            Some(Value::Sequence(s)) => s.iter().filter_map(name_of).map(String::from).collect(),
            _ => Vec::new(),
        };
        for n in t.iter().filter_map(name_of) {
            let has = known.iter().any(|k| k == n);
            out.push((
                Name {
                    section: format!("{a}.{b}"),
                    name: n.into(),
                    known: known.clone(),
                },
                has,
            ));
        }
    }
    out
}

/// A mapping's keys, as text: the top-level names of a mod's rules.
pub fn keys(m: &Mapping) -> impl Iterator<Item = String> + '_ {
    m.keys().map(key_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(s: &str) -> Value {
        serde_norway::from_str(s).unwrap()
    }

    #[test]
    fn mappings_merge_by_key_lists_by_name_and_the_rest_is_replaced() {
        let mut base = yaml(
            "c: {a: {start: 1, visible: public}}\nphases: [{name: x, do: a}, {name: y, do: b}]\ntags: [p, q]\ngone: 1",
        );
        let top = yaml(
            "c: {a: {start: 2}, b: {}}\nphases: [{name: y, do: c}, {name: z, do: d}]\ntags: [r]\ngone: null",
        );
        let report = changes(&base, &top);
        merge(&mut base, top);
        assert_eq!(
            base,
            yaml(
                "c: {a: {start: 2, visible: public}, b: {}}\nphases: [{name: x, do: a}, {name: y, do: c}, {name: z, do: d}]\ntags: [r]"
            )
        );
        assert_eq!(
            report,
            [
                "changes c.a.start: 1 → 2",
                "adds c.b",
                "changes phases.y.do: b → c",
                "adds phases.z",
                "changes tags",
                "removes gone"
            ]
        );
        assert!(has(&base, &["phases", "z", "do"]));
        assert!(!has(&base, &["phases", "w"]));
    }
}
