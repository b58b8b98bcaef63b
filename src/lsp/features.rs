//! Completion, hover, definitions and references in an open file, read
//! from the game it belongs to.

use std::path::Path;

use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, Location, MarkupContent, MarkupKind,
};

use super::meaning::{self, Meaning, Spot};
use super::text;
use crate::data::Data;
use crate::data::locate::find_word;
use crate::lang::builtins::Builtin;

/// What may be written at `off`: after `@` the card ids; after `.` the
/// properties; after `on:` the events; after `zone:` the zones; after
/// `tags:` the tags; in a scenario's `decisions:` the options a decision
/// can show ([`decision_labels`]); elsewhere (card text, conditions, rules
/// code) the kernel operations, the verbs and every declared name.
pub fn complete(data: &Data, text: &str, off: usize) -> Vec<CompletionItem> {
    let (start, _) = text::word_at(text, off);
    let prefix = &text[start..off.max(start)];
    let before = &text[..start];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let key = line.trim_start_matches([' ', '-']);
    let n = &data.names;
    let mut out = Vec::new();
    let names = |out: &mut Vec<CompletionItem>, list: &[String], kind, what: &str| {
        out.extend(list.iter().map(|x| item(x, kind, what.to_string(), None)));
    };
    if before.ends_with('@') {
        out.extend(data.defs.iter().map(|d| {
            let detail = format!("{} — {}", d.name, d.text);
            item(
                &d.id,
                CompletionItemKind::REFERENCE,
                detail,
                Some(card_doc(data, d)),
            )
        }));
    } else if let Some(typed) = decision_typed(before, line) {
        out = decision_labels(data, typed);
    } else if before.ends_with('.') {
        names(&mut out, &n.props, CompletionItemKind::PROPERTY, "property");
    } else if key.starts_with("on:") {
        names(&mut out, &n.events, CompletionItemKind::EVENT, "event");
    } else if key.starts_with("zone:") || key.starts_with("from:") || key.starts_with("to:") {
        names(&mut out, &n.zones, CompletionItemKind::MODULE, "zone");
    } else if key.starts_with("tags:") {
        names(&mut out, &n.tags, CompletionItemKind::CONSTANT, "tag");
    } else {
        // In a verb's entry, its parameters first.
        if let Some(v) = meaning::verb_around(data, text, start) {
            let (name, params) = &n.verbs[v];
            for (i, p) in params.iter().enumerate() {
                out.push(item(
                    p,
                    CompletionItemKind::VARIABLE,
                    format!("parameter of verb {name}({})", params.join(", ")),
                    Some(param_doc(data, v, i)),
                ));
            }
        }
        out.extend(Builtin::ALL.iter().map(|b| {
            let doc = format!("{}\n\n{}", b.doc(), super::features::named_params(*b));
            item(
                b.name(),
                CompletionItemKind::FUNCTION,
                b.signature(),
                Some(doc),
            )
        }));
        for (v, (name, params)) in n.verbs.iter().enumerate() {
            let sig = format!("{name}({})", params.join(", "));
            let doc = verb_doc(data, v).map(|(_, d)| d);
            out.push(item(
                name,
                CompletionItemKind::METHOD,
                format!("verb {sig}"),
                doc,
            ));
        }
        names(&mut out, &n.zones, CompletionItemKind::MODULE, "zone");
        names(
            &mut out,
            &n.counters,
            CompletionItemKind::VARIABLE,
            "counter (per player)",
        );
        names(
            &mut out,
            &n.globals,
            CompletionItemKind::VARIABLE,
            "counter (shared)",
        );
        names(&mut out, &n.props, CompletionItemKind::PROPERTY, "property");
        names(&mut out, &n.tags, CompletionItemKind::CONSTANT, "tag");
        names(&mut out, &n.events, CompletionItemKind::EVENT, "event");
    }
    out.retain(|i| i.label.starts_with(prefix));
    out
}

/// In a scenario's `decisions:` list (the last top-level key before the
/// line), on an answer (`- …`, `answer:`, `offered:`, `not_offered:`,
/// `options:`): the words of the answer typed before the current word.
fn decision_typed<'a>(before: &str, line: &'a str) -> Option<&'a str> {
    let top = (before.lines().rev().skip(1))
        .find(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))?;
    if !top.starts_with("decisions:") {
        return None;
    }
    let mut rest = line.trim_start();
    let mut item = false;
    if let Some(r) = rest.strip_prefix('-') {
        (rest, item) = (r.trim_start(), true);
    }
    let key = ["answer:", "offered:", "not_offered:", "options:"]
        .iter()
        .find_map(|k| rest.strip_prefix(k));
    if let Some(r) = key {
        rest = r.trim_start();
    } else if !item || rest.contains(':') {
        return None;
    }
    // Inside a flow list or quotes, the current answer only.
    let rest = rest.rsplit([',', '[']).next().unwrap_or(rest);
    Some(rest.trim_start_matches([' ', '"', '\'']))
}

/// What a decision of the game can show, as the scenario reader accepts it
/// (`scenario::read`'s known labels): after a move's label, the cards and
/// players it may name; else the moves, the cards, the players and
/// pass/yes/no.
fn decision_labels(data: &Data, typed: &str) -> Vec<CompletionItem> {
    let cards = data.defs.iter().map(|d| {
        item(
            &d.id,
            CompletionItemKind::REFERENCE,
            format!("{} — {}", d.name, d.text),
            Some(card_doc(data, d)),
        )
    });
    let players = (1..=data.players.1).map(|p| {
        item(
            &format!("P{p}"),
            CompletionItemKind::VALUE,
            "player".into(),
            None,
        )
    });
    let after_move =
        (data.moves.iter()).any(|m| typed.trim_end() == m.label && typed.ends_with(' '));
    if after_move {
        return cards.chain(players).collect();
    }
    let mut labels: Vec<&str> = data.moves.iter().map(|m| m.label.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    let moves = labels.into_iter().map(|label| {
        item(
            label,
            CompletionItemKind::EVENT,
            format!("move of {} (then a card or player)", data.game),
            None,
        )
    });
    let words =
        ["pass", "yes", "no"].map(|w| item(w, CompletionItemKind::KEYWORD, "answer".into(), None));
    moves.chain(cards).chain(players).chain(words).collect()
}

/// Which parameters name something the rules declare.
pub fn named_params(b: Builtin) -> String {
    (b.params().split(", ").enumerate())
        .filter_map(|(i, p)| {
            let t = b.name_table(i)?;
            Some(format!(
                "`{}` names a rules {}.",
                p.trim_end_matches('?'),
                t.what()
            ))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn item(
    label: &str,
    kind: CompletionItemKind,
    detail: String,
    doc: Option<String>,
) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail),
        documentation: doc.map(|d| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: d,
            })
        }),
        ..CompletionItem::default()
    }
}

/// A card for a reader: name, id, text, tags, the properties it sets.
fn card_doc(data: &Data, d: &crate::data::CardDef) -> String {
    let n = &data.names;
    let tags: Vec<&str> = (n.tags.iter().enumerate())
        .filter(|(i, _)| *i < 64 && d.tags & (1 << i) != 0)
        .map(|(_, t)| t.as_str())
        .collect();
    let props: Vec<String> = (n.props.iter().zip(&d.props).enumerate())
        .filter(|(i, (_, v))| data.prop_defaults.get(*i) != Some(*v))
        .map(|(_, (p, v))| format!("{p}: {v}"))
        .collect();
    let mut s = format!("**{}** `@{}`\n\n{}\n", d.name, d.id, d.text);
    if !tags.is_empty() {
        s.push_str(&format!("\ntags: {}\n", tags.join(", ")));
    }
    if !props.is_empty() {
        s.push_str(&format!("\nproperties: {}\n", props.join(", ")));
    }
    s
}

/// What a verb's parameter is, and what the verb's code uses it as when
/// the code shows it (what `fuda check` holds its callers to).
fn param_doc(data: &Data, v: usize, i: usize) -> String {
    let (name, params) = &data.names.verbs[v];
    let used = match crate::data::kinds::param_use(data, v, i) {
        Some(kind) => format!(": its code uses it as {kind}, so a call must give {kind}"),
        None => String::new(),
    };
    format!("parameter `{}` of verb `{name}`{used}", params[i])
}

/// A verb's entry in the rules and its doc comment.
fn verb_doc(data: &Data, v: usize) -> Option<(String, String)> {
    let spot = meaning::verb_spot(data, v)?;
    Some(meaning::entry_text(
        data.sources.text(spot.file),
        spot.start,
    ))
}

/// The hover text of the name at `off`, with its range.
pub fn hover(data: &Data, text: &str, off: usize) -> Option<(usize, usize, String)> {
    let (start, end, meanings) = meaning::at(data, text, off);
    let parts: Vec<String> = meanings.iter().filter_map(|m| describe(data, *m)).collect();
    (!parts.is_empty()).then(|| (start, end, parts.join("\n\n---\n\n")))
}

fn describe(data: &Data, m: Meaning) -> Option<String> {
    let n = &data.names;
    let yaml = |body: &str| format!("```yaml\n{body}\n```");
    let declared = |section: &str, name: &str, what: &str| {
        let spot = meaning::declared(data, section, name)?;
        let (body, doc) = meaning::entry_text(data.sources.text(spot.file), spot.start);
        let body = if section == "events" {
            name.to_string()
        } else {
            body
        };
        Some(format!("{what} `{name}`\n\n{}\n\n{doc}", yaml(body.trim())))
    };
    match m {
        Meaning::Op(b) => Some(format!(
            "```\n{}\n```\nkernel operation\n\n{}\n\n{}",
            b.signature(),
            b.doc(),
            named_params(b)
        )),
        Meaning::Verb(v) => {
            let (name, params) = n.verbs.get(v)?;
            let (body, doc) = verb_doc(data, v).unwrap_or_default();
            Some(format!(
                "```\n{name}({})\n```\nverb of {}\n\n{doc}\n\n{}",
                params.join(", "),
                data.game,
                yaml(&body)
            ))
        }
        Meaning::Param(v, i) => {
            let (name, params) = n.verbs.get(v)?;
            Some(format!(
                "```\n{name}({})\n```\n{}",
                params.join(", "),
                param_doc(data, v, i)
            ))
        }
        Meaning::Card(d) => data.defs.get(d).map(|d| card_doc(data, d)),
        Meaning::Zone(z) => declared("zones", &n.zones[z], "zone"),
        Meaning::Counter(c) => declared("counters", &n.counters[c], "counter"),
        Meaning::Global(g) => declared("globals", &n.globals[g], "shared counter"),
        Meaning::Event(e) => {
            let sites = crate::explain::events::sites(data);
            let raised: Vec<String> = (sites.get(e)?.iter())
                .map(|s| format!("- `{}` in {} ({})", s.how, s.owner, s.at))
                .collect();
            let raised = if raised.is_empty() {
                "raised by no card text (the turn or a script may raise it)".to_string()
            } else {
                format!("raised by:\n{}", raised.join("\n"))
            };
            Some(format!("event `{}`\n\n{raised}", n.events[e]))
        }
        Meaning::Tag(t) => Some(format!("tag `{}`", n.tags[t])),
        Meaning::Prop(p) => Some(format!(
            "property `{}` (default {})",
            n.props[p],
            data.prop_defaults.get(p).copied().unwrap_or(0)
        )),
    }
}

/// Where the name at `off` is defined: a verb's entry in the rules, a
/// card's file, the zone's or counter's declaration, the places that raise
/// an event.
pub fn definition(data: &Data, text: &str, off: usize) -> Vec<Location> {
    let (_, _, meanings) = meaning::at(data, text, off);
    let n = &data.names;
    let spots: Vec<Spot> = (meanings.iter())
        .flat_map(|m| match *m {
            Meaning::Verb(v) => meaning::verb_spot(data, v).into_iter().collect(),
            Meaning::Param(v, i) => meaning::param_spot(data, v, i).into_iter().collect(),
            Meaning::Card(d) => meaning::card_spot(data, d).into_iter().collect(),
            Meaning::Zone(z) => meaning::declared(data, "zones", &n.zones[z])
                .into_iter()
                .collect(),
            Meaning::Counter(c) => (meaning::declared(data, "counters", &n.counters[c]))
                .into_iter()
                .collect(),
            Meaning::Global(g) => (meaning::declared(data, "globals", &n.globals[g]))
                .into_iter()
                .collect(),
            Meaning::Event(e) => {
                let sites = crate::explain::events::sites(data);
                let raised: Vec<Spot> = (sites.get(e).into_iter().flatten())
                    .map(|s| Spot {
                        file: s.span.file,
                        start: s.span.start as usize,
                        end: s.span.end as usize,
                    })
                    .collect();
                if raised.is_empty() {
                    meaning::declared(data, "events", &n.events[e])
                        .into_iter()
                        .collect()
                } else {
                    raised
                }
            }
            Meaning::Op(_) | Meaning::Tag(_) | Meaning::Prop(_) => Vec::new(),
        })
        .collect();
    spots.iter().filter_map(|s| location(data, s)).collect()
}

fn location(data: &Data, s: &Spot) -> Option<Location> {
    let text = data.sources.text(s.file);
    Some(Location {
        uri: file_uri(data.sources.path(s.file), text)?,
        range: text::range(text, s.start, s.end),
    })
}

/// The URI of a file the data was read from. A built-in game's file (a
/// mod's base) is in the binary, not on disk: an editor is shown a copy,
/// written read-only under the user's cache folder.
fn file_uri(name: &str, text: &str) -> Option<lsp_types::Uri> {
    let path = Path::new(name);
    if path.is_absolute() {
        return text::uri_of(path);
    }
    let cache = (std::env::var_os("XDG_CACHE_HOME").map(std::path::PathBuf::from))
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    let copy = cache
        .join(format!("fuda-{}", env!("CARGO_PKG_VERSION")))
        .join("built-in")
        .join(path);
    // Never through a symlink or into a special file (`confine`).
    use crate::data::confine::{read_own, write_own};
    if read_own(&copy).ok().flatten().as_deref() != Some(text) {
        let _ = std::fs::remove_file(&copy);
        std::fs::create_dir_all(copy.parent()?).ok()?;
        write_own(&copy, text.as_bytes()).ok()?;
        let mut perms = std::fs::metadata(&copy).ok()?.permissions();
        perms.set_readonly(true);
        let _ = std::fs::set_permissions(&copy, perms);
    }
    text::uri_of(&copy)
}

/// Every place that names the card at `off`: the cards', rules' and
/// scripts' files, and the scenarios of the game under `scenarios`.
pub fn references(data: &Data, text: &str, off: usize, scenarios: &Path) -> Vec<Location> {
    let (_, _, meanings) = meaning::at(data, text, off);
    let Some(d) = meanings.iter().find_map(|m| match m {
        Meaning::Card(d) => Some(*d),
        _ => None,
    }) else {
        return Vec::new();
    };
    let id = &data.defs[d].id;
    let mut out = Vec::new();
    let mut every = |path: &Path, t: &str| {
        let Some(uri) = path.to_str().and_then(|p| file_uri(p, t)) else {
            return;
        };
        let mut from = 0;
        while let Some((a, b)) = find_word(t, id, from) {
            out.push(Location {
                uri: uri.clone(),
                range: text::range(t, a, b),
            });
            from = b;
        }
    };
    for (path, t) in &data.sources.files {
        every(Path::new(path), t);
    }
    let roots = crate::explain::scenario_roots(scenarios);
    for p in crate::explain::scenarios_naming(&roots, &data.game, id) {
        if let Ok(t) = crate::data::confine::read_given(&p) {
            every(&p.canonicalize().unwrap_or(p), &t);
        }
    }
    out
}
