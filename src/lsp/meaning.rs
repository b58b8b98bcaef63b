//! What a name in an open file stands for in its game: a kernel operation,
//! a verb, a verb's parameter (in that verb's entry), a card, a zone, a
//! counter, an event, a tag or a property; and where the rules declare it.

use crate::data::Data;
use crate::data::locate::{find_key, find_word};
use crate::lang::builtins::Builtin;

use super::text::word_at;

/// One thing a name may stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    Op(Builtin),
    Verb(usize),
    /// A verb's parameter (the verb, the parameter's index).
    Param(usize, usize),
    Card(usize),
    Zone(usize),
    Counter(usize),
    Global(usize),
    Event(usize),
    Tag(usize),
    Prop(usize),
}

/// A place in the data's sources: file and byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    pub file: u32,
    pub start: usize,
    pub end: usize,
}

/// The name at `off` of `text`, its range, and what it may stand for:
/// after `@` (or as a card's `id:`) a card; before `(` an operation or
/// verb; else any declared name it matches.
pub fn at(data: &Data, text: &str, off: usize) -> (usize, usize, Vec<Meaning>) {
    let (start, end) = word_at(text, off);
    let word = &text[start..end];
    if word.is_empty() {
        return (start, end, Vec::new());
    }
    let n = &data.names;
    let pos = |list: &[String]| list.iter().position(|x| x == word);
    let card = n.def(word).map(|d| Meaning::Card(d as usize));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = text[line_start..start].trim_start_matches([' ', '-']);
    if text[..start].ends_with('@') || prefix.starts_with("id:") {
        return (start, end, card.into_iter().collect());
    }
    let call = text[end..].trim_start().starts_with('(');
    // In a verb's entry, its parameter hides any other name it matches.
    if let Some(v) = verb_around(data, text, start)
        && let Some(i) = (n.verbs[v].1.iter()).position(|p| p == word)
        && !call
    {
        return (start, end, vec![Meaning::Param(v, i)]);
    }
    let mut out: Vec<Meaning> = Vec::new();
    out.extend(Builtin::lookup(word).map(Meaning::Op));
    out.extend(n.verb(word).map(|v| Meaning::Verb(v as usize)));
    if !call {
        out.extend(pos(&n.zones).map(Meaning::Zone));
        out.extend(pos(&n.counters).map(Meaning::Counter));
        out.extend(pos(&n.globals).map(Meaning::Global));
        out.extend(pos(&n.events).map(Meaning::Event));
        out.extend(pos(&n.tags).map(Meaning::Tag));
        out.extend(pos(&n.props).map(Meaning::Prop));
        out.extend(card);
    }
    (start, end, out)
}

/// Where a card is defined: its `id:` in its file.
pub fn card_spot(data: &Data, def: usize) -> Option<Spot> {
    let d = data.defs.get(def)?;
    let text = data.sources.text(d.file);
    let line = find_key(text, "id", &d.id, 0)?;
    let (start, end) = find_word(text, &d.id, line)?;
    Some(Spot {
        file: d.file,
        start,
        end,
    })
}

/// Where the rules declare `name` under the top-level key `section`: the
/// entry's key (a mod's rules before the game's, as the mod wins).
pub fn declared(data: &Data, section: &str, name: &str) -> Option<Spot> {
    (0..data.sources.files.len() as u32)
        .rev()
        .find_map(|f| entry(data.sources.text(f), section, name, 0).map(|(s, e)| (f, s, e)))
        .map(|(file, start, end)| Spot { file, start, end })
}

/// A verb's entry, in the file its code was read from.
pub fn verb_spot(data: &Data, v: usize) -> Option<Spot> {
    let name = &data.names.verbs.get(v)?.0;
    let code = data.verbs.get(v)?;
    let text = data.sources.text(code.span.file);
    let (start, end) = entry(text, "verbs", name, 0)?;
    Some(Spot {
        file: code.span.file,
        start,
        end,
    })
}

/// The verb whose entry in `text` (a rules file, or a mod's `add:`) holds
/// `off`, by the indentation of its lines.
pub fn verb_around(data: &Data, text: &str, off: usize) -> Option<usize> {
    (data.names.verbs.iter()).position(|(name, _)| {
        entry(text, "verbs", name, 0).is_some_and(|(key, _)| {
            let line_start = text[..key].rfind('\n').map_or(0, |i| i + 1);
            let (body, _) = entry_text(text, key);
            (line_start..=line_start + body.len()).contains(&off)
        })
    })
}

/// Where verb `v` names its parameter `i`: the word in its `params:`.
pub fn param_spot(data: &Data, v: usize, i: usize) -> Option<Spot> {
    let key = verb_spot(data, v)?;
    let text = data.sources.text(key.file);
    let (body, _) = entry_text(text, key.start);
    let line_start = text[..key.start].rfind('\n').map_or(0, |i| i + 1);
    let params = line_start + body.find("params:")?;
    let name = &data.names.verbs.get(v)?.1.get(i)?;
    let (start, end) = find_word(text, name, params)?;
    (end <= line_start + body.len()).then_some(Spot {
        file: key.file,
        start,
        end,
    })
}

/// In `text`, the key `name` of the top-level mapping `section` (or the
/// word, in a one-line `section: [a, b]`), else of `section` inside a mod's
/// `add:` (where a mod declares the names it adds).
pub fn entry(text: &str, section: &str, name: &str, from: usize) -> Option<(usize, usize)> {
    top_entry(text, section, name, from).or_else(|| match section {
        "add" => None,
        _ => added(text, section, name),
    })
}

/// The key `name` among the first-level children of `add:`'s `section`.
fn added(text: &str, section: &str, name: &str) -> Option<(usize, usize)> {
    let (key, _) = top_entry(text, "add", section, 0)?;
    let indent = key - text[..key].rfind('\n').map_or(0, |i| i + 1);
    let mut at = key + text[key..].find('\n')? + 1;
    let mut child = None;
    for line in text[at..].split_inclusive('\n') {
        let here = at;
        at += line.len();
        let body = line.trim_start();
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let ind = line.len() - body.len();
        if ind <= indent {
            return None;
        }
        if *child.get_or_insert(ind) != ind {
            continue;
        }
        if body.strip_prefix(name).is_some_and(|r| r.starts_with(':')) {
            return Some((here + ind, here + ind + name.len()));
        }
    }
    None
}

fn top_entry(text: &str, section: &str, name: &str, from: usize) -> Option<(usize, usize)> {
    let mut at = from;
    let mut inside = false;
    for line in text[from.min(text.len())..].split_inclusive('\n') {
        let here = at;
        at += line.len();
        let top = !line.starts_with([' ', '\t', '#', '\n', '\r']);
        if top {
            inside = false;
            if let Some(rest) = line.strip_prefix(section).and_then(|r| r.strip_prefix(':')) {
                inside = true;
                if rest.trim_start().starts_with('[') || rest.trim_start().starts_with('{') {
                    let off = here + section.len() + 1;
                    return find_word(line, name, section.len() + 1)
                        .map(|(a, b)| (here + a, here + b))
                        .filter(|(a, _)| *a >= off);
                }
            }
            continue;
        }
        if !inside {
            continue;
        }
        let body = line.trim_start();
        let body = body.strip_prefix("- name:").map_or(body, str::trim_start);
        if body
            .strip_prefix(name)
            .is_some_and(|r| r.starts_with(':') || r.starts_with(['\n', '\r']) || r.is_empty())
        {
            let a = here + (line.len() - line.trim_start().len());
            let a = text[a..].find(name).map_or(a, |i| a + i);
            return Some((a, a + name.len()));
        }
    }
    None
}

/// The whole entry whose key starts at `key`: its line, the more indented
/// lines after it, and the comment lines just above it.
pub fn entry_text(text: &str, key: usize) -> (String, String) {
    let line_start = text[..key].rfind('\n').map_or(0, |i| i + 1);
    let indent = key - line_start;
    let mut body = String::new();
    for (i, line) in text[line_start..].split_inclusive('\n').enumerate() {
        let deeper = line.len() - line.trim_start().len() > indent || line.trim().is_empty();
        if i > 0 && !deeper {
            break;
        }
        body.push_str(line);
    }
    // Comments just above the key, or on the lines right after it.
    let mut doc: Vec<&str> = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|l| l.starts_with('#'))
        .collect();
    doc.reverse();
    let after = body
        .lines()
        .skip(1)
        .map(str::trim)
        .take_while(|l| l.starts_with('#'));
    let inline = body
        .lines()
        .next()
        .and_then(|l| l.split_once(" #"))
        .map(|(_, c)| c);
    let doc: Vec<&str> = (doc.into_iter().chain(after))
        .map(|l| l.trim_start_matches('#').trim())
        .chain(inline.map(str::trim))
        .collect();
    (body.trim_end().to_string(), doc.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = "zones:\n  deck: {per: player}\n  hand: {per: player}\nevents: [draw, gain]\nverbs:\n  # Draws n.\n  draw:\n    params: [n]\n    do: x\n  refill:\n    do: y\n";

    #[test]
    fn entries_are_found_under_their_section() {
        let (a, b) = entry(RULES, "zones", "hand", 0).unwrap();
        assert_eq!(&RULES[a..b], "hand");
        let (a, _) = entry(RULES, "events", "gain", 0).unwrap();
        assert_eq!(&RULES[a..a + 4], "gain");
        let (a, _) = entry(RULES, "verbs", "draw", 0).unwrap();
        assert!(RULES[..a].ends_with("  "));
        assert_eq!(entry(RULES, "verbs", "hand", 0), None);
        let (body, doc) = entry_text(RULES, a);
        assert_eq!(body, "  draw:\n    params: [n]\n    do: x");
        assert_eq!(doc, "Draws n.");
    }
}
