//! Checks on a YAML file's text that the YAML reader does not make, or makes
//! without a useful place: bytes that are not UTF-8, a tab in indentation, and
//! a key given twice in one block mapping (the reader keeps the last one
//! silently, or points at the mapping's first line).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;

use super::diag::{DataError, Sources};

/// Reads a YAML file into `sources`; bytes that are not UTF-8 are an error at
/// the first of them.
pub fn read(sources: &mut Sources, path: &Path, errs: &mut Vec<DataError>) -> Option<u32> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let message = format!("cannot read {}: {e}", path.display());
            errs.push(DataError::plain(message, None));
            return None;
        }
    };
    add(sources, path.display().to_string(), bytes, errs)
}

/// Adds a file's bytes to `sources` under `name` (as [`read`] does).
pub fn add(
    sources: &mut Sources,
    name: String,
    bytes: Vec<u8>,
    errs: &mut Vec<DataError>,
) -> Option<u32> {
    match decode(bytes) {
        Ok(text) => Some(sources.add(name, text)),
        Err((text, at)) => {
            let file = sources.add(name, text);
            errs.push(sources.error(
                file,
                at as u32,
                at as u32 + 1,
                "the file is not valid UTF-8 here",
                Some("save the file as UTF-8".into()),
            ));
            None
        }
    }
}

/// Each key given twice in one mapping of the file, as an error at the second.
pub fn check(sources: &Sources, file: u32) -> Vec<DataError> {
    let text = sources.text(file);
    duplicate_keys(text)
        .into_iter()
        .map(|d| {
            let line = text[..d.first].matches('\n').count() + 1;
            sources.error(
                file,
                d.at as u32,
                (d.at + d.key.len()) as u32,
                format!("key `{}` is given twice in one mapping", d.key),
                Some(format!("the first `{}` is on line {line}; keep one", d.key)),
            )
        })
        .collect()
}

/// A YAML reader's message made plain where it is about a tab: YAML indents
/// with spaces only. Returns the message and help to show, and where.
pub fn explain_tab(text: &str, offset: usize) -> Option<(String, String, usize)> {
    let at = tab_in_indent(text, offset).or_else(|| {
        // The reader may stop on the line after the tab's.
        let prev = text[..offset.min(text.len())].trim_end_matches(|c| c != '\n');
        let prev = prev.strip_suffix('\n')?;
        tab_in_indent(text, prev.len())
    })?;
    Some((
        "a tab in the indentation".into(),
        "YAML indents with spaces only: replace the tab with spaces".into(),
        at,
    ))
}

/// The text of a file, or where its bytes stop being UTF-8 (with the text
/// up to there, for the error's context). A leading byte-order mark, which
/// YAML allows, is dropped.
pub fn decode(bytes: Vec<u8>) -> Result<String, (String, usize)> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(match s.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => s,
        }),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Err((String::from_utf8_lossy(e.as_bytes()).into_owned(), at))
        }
    }
}

/// The first tab in the indentation of the line holding `offset`, if any.
pub fn tab_in_indent(text: &str, offset: usize) -> Option<usize> {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = &text[start..];
    let indent = line.len() - line.trim_start_matches([' ', '\t', '-']).len();
    line[..indent].find('\t').map(|i| start + i)
}

/// A key given twice in one block mapping: (its second occurrence, its first).
pub struct Duplicate {
    pub key: String,
    pub at: usize,
    pub first: usize,
}

/// Keys given twice in one block mapping. Block mappings are followed by
/// indentation; flow mappings (`{a: 1}`) and block scalars (`|`) are skipped.
pub fn duplicate_keys(text: &str) -> Vec<Duplicate> {
    let mut out = Vec::new();
    // Open mappings: their column and the keys seen so far (hashed: a mod's
    // mapping of 100,000 keys must not cost 100,000² comparisons).
    let mut open: Vec<(usize, HashMap<&str, usize>)> = Vec::new();
    // Inside a block scalar: the column of the key that opened it.
    let mut scalar: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[indent..];
        if let Some(col) = scalar {
            if rest.is_empty() || indent > col {
                continue;
            }
            scalar = None;
        }
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        if rest.starts_with("---") || rest.starts_with("...") {
            open.clear();
            continue;
        }
        // `- ` items open a new mapping at the column after the dashes.
        let mut col = indent;
        let mut item = false;
        let mut r = rest;
        while let Some(after) = r.strip_prefix("- ").or_else(|| (r == "-").then_some("")) {
            let skipped = r.len() - after.len();
            let after_trim = after.trim_start_matches(' ');
            col += skipped + (after.len() - after_trim.len());
            r = after_trim;
            item = true;
        }
        let Some((key, value)) = split_key(r) else {
            if item {
                open.retain(|(c, _)| *c < col);
            }
            continue;
        };
        if item {
            open.retain(|(c, _)| *c < col);
            open.push((col, HashMap::new()));
        } else {
            open.retain(|(c, _)| *c <= col);
            if open.last().is_none_or(|(c, _)| *c < col) {
                open.push((col, HashMap::new()));
            }
        }
        let at = start + (body.len() - r.len());
        let keys = &mut open.last_mut().expect("pushed above").1;
        match keys.entry(key) {
            Entry::Occupied(first) => out.push(Duplicate {
                key: key.to_string(),
                at,
                first: *first.get(),
            }),
            Entry::Vacant(v) => {
                v.insert(at);
            }
        }
        let v = value.trim_start();
        if v.starts_with('|') || v.starts_with('>') {
            scalar = Some(col);
        }
    }
    out
}

/// `key: value` (or `key:` at the end of the line) on a line of a block
/// mapping: the key, unquoted, and the rest.
fn split_key(r: &str) -> Option<(&str, &str)> {
    if r.starts_with(['{', '[', '#', '|', '>', '&', '*', '!', '%', '@', '`']) {
        return None;
    }
    let (key, rest) = if let Some(q) = r.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let end = r[1..].find(q)? + 1;
        (&r[1..end], r[end + 1..].trim_start_matches(' '))
    } else {
        let mut i = 0;
        loop {
            let j = r[i..].find(':')? + i;
            let next = r[j + 1..].chars().next();
            if next.is_none_or(|c| c == ' ') {
                break (r[..j].trim_end(), &r[j..]);
            }
            i = j + 1;
        }
    };
    if key.contains(" #") {
        return None;
    }
    let value = rest.strip_prefix(':')?;
    (value.is_empty() || value.starts_with(' ')).then_some((key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dups(t: &str) -> Vec<(String, usize, usize)> {
        duplicate_keys(t)
            .into_iter()
            .map(|d| (d.key, d.at, d.first))
            .collect()
    }

    #[test]
    fn finds_a_key_given_twice_where_it_is() {
        let t = "id: a\nname: A\nid: b\n";
        assert_eq!(dups(t), vec![("id".into(), 14, 0)]);
    }

    #[test]
    fn nested_mappings_and_list_items_are_their_own() {
        let t = "effects:\n  play: x\n  setup: y\nrhai:\n  play: z\n- id: a\n  name: A\n- id: b\n  name: B\n";
        assert!(dups(t).is_empty());
        let t = "effects:\n  play: x\n  play: y\n";
        assert_eq!(dups(t), vec![("play".into(), 21, 11)]);
        let t = "- id: a\n  name: A\n  name: B\n";
        assert_eq!(dups(t), vec![("name".into(), 20, 10)]);
    }

    #[test]
    fn block_scalars_and_flow_maps_are_not_keys() {
        let t = "do: |\n  a: 1\n  a: 2\nif: \"x: y\"\nprops: {cost: 1, cost: 2}\n";
        assert!(dups(t).is_empty());
    }

    #[test]
    fn decodes_with_a_bom_and_finds_bad_bytes() {
        assert_eq!(decode(b"\xef\xbb\xbfid: a".to_vec()).unwrap(), "id: a");
        assert_eq!(decode(b"id: a\n\xff".to_vec()).unwrap_err().1, 6);
    }

    #[test]
    fn sees_a_tab_in_indentation() {
        let t = "a:\n\tb: 1\n";
        assert_eq!(tab_in_indent(t, 4), Some(3));
        assert_eq!(tab_in_indent("a: 1\tb", 5), None);
    }
}
