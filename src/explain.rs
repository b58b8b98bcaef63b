//! `fuda explain <game> <card-id>`: a card as the loader compiled it, in
//! words a card author reads: its text, tags and properties, each effect
//! and ability (the event it waits for, where the card must be, its
//! condition, whether it asks, when it resolves) with the verbs and kernel
//! operations its code calls, and the scenario files that name it.

pub mod events;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::data::{Data, DataError, DataErrors, Trigger};
use crate::lang::ir::{Code, Expr, Place, Span, Stmt};
use crate::suggest::{did_you_mean, suggest};

/// The explanation of card `id`, or an error naming the nearest id.
pub fn explain(data: &Data, id: &str, scenarios: &[PathBuf]) -> Result<String, DataErrors> {
    // A card's id, or its display name as transcripts show it.
    let by_name = || {
        (data.defs.iter())
            .position(|d| d.name == id)
            .map(|d| d as u16)
    };
    let Some(d) = data.names.def_index.get(id).copied().or_else(by_name) else {
        let ids = data.defs.iter().map(|d| d.id.as_str());
        let help = did_you_mean(suggest(id, ids))
            .or_else(|| Some(format!("`fuda check {}` counts its cards", data.game)));
        let e = DataError::plain(format!("{} has no card `{id}`", data.game), help);
        return Err(DataErrors { errors: vec![e] });
    };
    let def = &data.defs[d as usize];
    let mut s = String::new();
    let _ = writeln!(s, "{} ({}), a {} card", def.name, def.id, data.game);
    let text = data.sources.text(def.file);
    let line = crate::data::locate::find_word(text, &def.id, 0)
        .map(|(a, _)| crate::data::load::line_col(text, a))
        .map(|(l, c)| format!(":{l}:{c}"))
        .unwrap_or_default();
    let _ = writeln!(s, "  file:  {}{line}", data.sources.path(def.file));
    if !def.subtitle.is_empty() {
        let _ = writeln!(s, "  subtitle: {}", def.subtitle);
    }
    if !def.text.is_empty() {
        let _ = writeln!(s, "  text:  {}", def.text.trim());
    }
    let tags: Vec<&str> = (data.names.tags.iter().enumerate())
        .filter(|(i, _)| *i < 64 && def.tags & (1u64 << i) != 0)
        .map(|(_, t)| t.as_str())
        .collect();
    let _ = writeln!(s, "  tags:  {}", list(&tags));
    let props: Vec<String> = (data.names.props.iter().enumerate())
        .filter_map(|(i, p)| {
            let v = *def.props.get(i)?;
            (v != data.prop_defaults.get(i).copied().unwrap_or(0)).then(|| format!("{p} {v}"))
        })
        .collect();
    let _ = writeln!(
        s,
        "  props: {} (any other at the rules' default)",
        list(&props)
    );
    if !def.list.is_empty() {
        let _ = writeln!(s, "  a list of {} card entries", def.list.len());
    }
    for (i, code) in def.effects.iter().enumerate() {
        let Some(code) = code else { continue };
        let name = data.names.effects.get(i).map_or("?", |n| n.as_str());
        let _ = writeln!(s, "\neffect `{name}` (the rules say when it runs):");
        body(&mut s, data, code);
    }
    let abilities = data.triggers.iter().filter(|t| t.def == Some(d));
    for (n, t) in abilities.enumerate() {
        ability(&mut s, data, n + 1, t);
    }
    let _ = writeln!(s);
    if scenarios.is_empty() {
        let _ = writeln!(
            s,
            "no scenario names it (`fuda new card {} <id>` shows how one starts)",
            data.game
        );
    } else {
        let _ = writeln!(s, "scenarios naming it:");
        for p in scenarios {
            let _ = writeln!(s, "  {}", p.display());
        }
    }
    Ok(s)
}

fn list(items: &[impl AsRef<str>]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items
            .iter()
            .map(|x| x.as_ref())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn ability(s: &mut String, data: &Data, n: usize, t: &Trigger) {
    let event = data
        .names
        .events
        .get(t.event as usize)
        .map_or("?", |e| e.as_str());
    let _ = writeln!(s, "\nability {n}");
    let when = if t.would {
        format!("would {event}: before it happens, so it may change or prevent it")
    } else {
        format!("{event}: after it happened")
    };
    let _ = writeln!(s, "  on:       {when}");
    if t.self_only {
        let _ = writeln!(s, "  self:     only an event of this card itself");
    }
    if let Some(z) = t.zone {
        let z = data.names.zones.get(z as usize).map_or("?", |z| z.as_str());
        let _ = writeln!(s, "  zone:     while this card is in {z}");
    }
    if let Some(c) = &t.cond {
        let _ = writeln!(s, "  if:       {}", one_line(&source(data, c.span)));
    }
    if t.optional {
        let _ = writeln!(s, "  optional: its player is asked \"{}\"", t.prompt);
    } else if t.prompt != event && t.prompt != format!("would {event}") {
        let _ = writeln!(s, "  prompt:   \"{}\"", t.prompt);
    }
    let timing = if t.queued {
        "queued: resolves at the next check point"
    } else {
        "now: resolves as soon as the event happens"
    };
    let _ = writeln!(s, "  timing:   {timing}");
    if t.reveal {
        let _ = writeln!(
            s,
            "  reveal:   the card is shown to everyone as it triggers"
        );
    }
    let _ = writeln!(s, "  do:");
    body(s, data, &t.body);
}

/// A piece of code's text as written, indented, then what it calls.
fn body(s: &mut String, data: &Data, code: &Code) {
    for line in source(data, code.span).lines() {
        let _ = writeln!(s, "    {line}");
    }
    let mut c = Calls::default();
    c.block(data, &code.stmts);
    if !c.verbs.is_empty() {
        let _ = writeln!(
            s,
            "  verbs of the rules:  {}",
            list(&Vec::from_iter(c.verbs))
        );
    }
    if !c.ops.is_empty() {
        let _ = writeln!(s, "  kernel operations:   {}", list(&Vec::from_iter(c.ops)));
    }
    if !c.scripts.is_empty() {
        let _ = writeln!(
            s,
            "  scripts:             {}",
            list(&Vec::from_iter(c.scripts))
        );
    }
}

fn source(data: &Data, span: Span) -> String {
    let text = data.sources.text(span.file);
    let (a, b) = (span.start as usize, span.end as usize);
    match text.get(a..b.min(text.len())) {
        Some(t) if a < b => dedent(t),
        _ => "(no text)".into(),
    }
}

/// Code taken from a YAML block, its common indentation removed.
fn dedent(t: &str) -> String {
    let t = t.trim_matches('\n');
    let cut = (t.lines().skip(1))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut lines = t.lines();
    let mut out = lines.next().unwrap_or("").trim().to_string();
    for l in lines {
        out.push('\n');
        out += l.get(cut..).unwrap_or(l.trim_start()).trim_end();
    }
    out
}

/// Code on one line; a YAML quoted string's escaped line ends (`\`) go.
fn one_line(t: &str) -> String {
    t.replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The names code calls: the rules' verbs, kernel operations, scripts.
#[derive(Default)]
struct Calls {
    verbs: BTreeSet<String>,
    ops: BTreeSet<&'static str>,
    scripts: BTreeSet<String>,
}

impl Calls {
    fn block(&mut self, data: &Data, stmts: &[Stmt]) {
        for st in stmts {
            match st {
                Stmt::Expr(e) | Stmt::Let(_, e) | Stmt::Return(Some(e)) => self.expr(data, e),
                Stmt::Return(None) => {}
                Stmt::Assign(p, _, e, _) => {
                    if let Place::Field(b, _) = p {
                        self.expr(data, b);
                    }
                    self.expr(data, e);
                }
                Stmt::If(c, a, b) => {
                    self.expr(data, c);
                    self.block(data, a);
                    self.block(data, b);
                }
                Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                    self.expr(data, c);
                    self.block(data, b);
                }
            }
        }
    }

    fn expr(&mut self, data: &Data, e: &Expr) {
        match e {
            Expr::Call(b, ..) => {
                self.ops.insert(b.name());
            }
            Expr::Verb(v, ..) => {
                if let Some((name, _)) = data.names.verbs.get(data.verb_named(*v)) {
                    self.verbs.insert(name.clone());
                }
            }
            Expr::Script(f, ..) => {
                if let Some((name, _)) = data.names.scripts.get(*f as usize) {
                    self.scripts.insert(name.clone());
                }
            }
            Expr::Rhai(_) => {
                self.scripts.insert("(Rhai)".into());
            }
            _ => {}
        }
        for c in e.children() {
            self.expr(data, c);
        }
    }
}

/// The scenario files under `roots` for `game` that name card `id` (as a
/// whole word), sorted.
pub fn scenarios_naming(roots: &[PathBuf], game: &str, id: &str) -> Vec<PathBuf> {
    let files = crate::snapshot::collect(roots);
    let names_game = |l: &str| {
        let v = l
            .strip_prefix("game:")
            .map(|v| v.split('#').next().unwrap_or("").trim());
        v == Some(game)
    };
    files
        .into_iter()
        .filter(|p| {
            let Ok(text) = crate::data::confine::read_given(p) else {
                return false;
            };
            text.lines().any(names_game) && crate::data::locate::find_word(&text, id, 0).is_some()
        })
        .collect()
}

/// Where `fuda explain` looks for scenarios: the data folder's
/// `tests/scenarios`, else the data folder itself.
pub fn scenario_roots(dir: &Path) -> Vec<PathBuf> {
    let own = dir.join("tests/scenarios");
    vec![if own.is_dir() { own } else { dir.to_path_buf() }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedent_keeps_relative_indentation() {
        assert_eq!(
            dedent("draw(1)\n      if x {\n        y\n      }\n"),
            "draw(1)\nif x {\n  y\n}"
        );
    }
}
