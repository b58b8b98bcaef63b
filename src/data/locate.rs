//! The position pass: finds where a value sits in its YAML file, so errors found
//! after deserialising (an unknown card id, a grammar error in card text) can point
//! at the exact text. serde_norway gives no spans for values, so we search the
//! source, starting from a hint such as the card's own `id:` line.

use std::collections::HashMap;

use crate::lang::compile::Origin;

/// Byte offset of a 1-based line and column.
pub fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return off + col.saturating_sub(1).min(l.len());
        }
        off += l.len();
    }
    text.len()
}

/// Where `needle` first occurs as a whole word at or after `from`.
pub fn find_word(text: &str, needle: &str, from: usize) -> Option<(usize, usize)> {
    if needle.is_empty() {
        return None;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut start = from.min(text.len());
    while let Some(i) = text.get(start..).and_then(|t| t.find(needle)) {
        let a = start + i;
        let b = a + needle.len();
        let before = text[..a].chars().next_back();
        let after = text[b..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            return Some((a, b));
        }
        start = b;
    }
    None
}

/// Where the card or entry keyed `key: value` starts, as a search hint.
pub fn find_key(text: &str, key: &str, value: &str, from: usize) -> Option<usize> {
    let mut start = from.min(text.len());
    while let Some((a, b)) = find_word(text, value, start) {
        let line_start = text[..a].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let prefix = text[line_start..a].trim_start_matches([' ', '-']);
        if prefix.starts_with(key) && prefix[key.len()..].trim_start().starts_with(':')
            || keyed(&text[line_start..a], key)
        {
            return Some(line_start);
        }
        start = b;
    }
    None
}

/// Whether `before`, a line's text up to a value, ends with `key:` as a
/// key: at the line's start (after spaces and list dashes) or in a flow
/// mapping (after `{` or `,`), the key and the value plain or quoted.
fn keyed(before: &str, key: &str) -> bool {
    let Some(b) = before
        .trim_end_matches(['"', '\''])
        .trim_end_matches(' ')
        .strip_suffix(':')
    else {
        return false;
    };
    let b = b.trim_end_matches(' ');
    let (b, quote) = match b.strip_suffix(['"', '\'']) {
        Some(inner) => (inner, b.chars().next_back()),
        None => (b, None),
    };
    let Some(lead) = b.strip_suffix(key) else {
        return false;
    };
    let lead = match quote {
        Some(q) => match lead.strip_suffix(q) {
            Some(l) => l,
            None => return false,
        },
        None => lead,
    };
    let lead = lead.trim_end_matches(' ');
    lead.trim_start_matches([' ', '-']).is_empty() || lead.ends_with(['{', ','])
}

/// Every `key: value` entry of `text`, by value, in file order: where the
/// value starts and where its line starts. One pass over the text, so
/// placing each of a file's thousands of cards costs what reading the file
/// once costs, where a search per card from the last one found would go to
/// the end of the file for every card spelt as the search does not expect.
pub fn key_lines<'t>(text: &'t str, key: &str) -> HashMap<&'t str, Vec<(usize, usize)>> {
    let mut out: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    let (mut line_start, mut seen) = (0, 0);
    let mut start = 0;
    while let Some((k, b)) = find_word(text, key, start) {
        start = b;
        if let Some(i) = text[seen..k].rfind('\n') {
            line_start = seen + i + 1;
        }
        seen = k;
        let rest = &text[b..];
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
        let Some(v) = rest.trim_start_matches(' ').strip_prefix(':') else {
            continue;
        };
        let v = v.trim_start_matches(' ');
        let value = match v.strip_prefix(['"', '\'']) {
            Some(inner) => inner.find(['"', '\'', '\n']).map(|e| &inner[..e]),
            None => {
                let end = v.find([',', '}', ']', '\n', '\r']).unwrap_or(v.len());
                let v = &v[..end];
                Some(v.find(" #").map_or(v, |c| &v[..c]).trim_end())
            }
        };
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            continue;
        };
        let a = value.as_ptr() as usize - text.as_ptr() as usize;
        if keyed(&text[line_start..a], key) {
            out.entry(value).or_default().push((a, line_start));
        }
    }
    out
}

/// Where each `name` first follows a space and precedes a colon (` name:`,
/// as `text.find(" name:")` finds it), for every name, in one pass.
pub fn spaced_keys(text: &str) -> HashMap<String, usize> {
    let bytes = text.as_bytes();
    let mut out = HashMap::new();
    for (p, _) in text.match_indices(' ') {
        let rest = &bytes[p + 1..];
        let len = rest
            .iter()
            .position(|b| b" :\n\r".contains(b))
            .unwrap_or(rest.len());
        if len > 0 && rest.get(len) == Some(&b':') {
            // Ended at an ASCII byte: a char boundary.
            let name = &text[p + 1..p + 1 + len];
            out.entry(name.to_string()).or_insert(p);
        }
    }
    out
}

/// The first place in `text[from..end]` of each word `wanted` takes, words
/// split at spaces and YAML's punctuation; the scan stops once `n` are
/// found. One pass however many words are asked for.
pub fn first_words(
    text: &str,
    from: usize,
    end: usize,
    n: usize,
    wanted: impl Fn(&str) -> bool,
) -> HashMap<&str, (usize, usize)> {
    let split = |b: u8| b" \t\r\n:,{}[]\"'#".contains(&b);
    let (bytes, end) = (text.as_bytes(), end.min(text.len()));
    let mut out = HashMap::new();
    let mut i = from.min(end);
    while i < end && out.len() < n {
        while i < end && split(bytes[i]) {
            i += 1;
        }
        let s = i;
        while i < end && !split(bytes[i]) {
            i += 1;
        }
        // Split only at ASCII bytes: `s..i` are char boundaries.
        let w = &text[s..i];
        if s < i && wanted(w) {
            out.entry(w).or_insert((s, i));
        }
    }
    out
}

/// The line of the first entry of `lines` ([`key_lines`]) for `value` whose
/// value is at or after `from`.
pub fn line_of(
    lines: &HashMap<&str, Vec<(usize, usize)>>,
    value: &str,
    from: usize,
) -> Option<usize> {
    let at = lines.get(value)?;
    at.get(at.partition_point(|&(a, _)| a < from))
        .map(|&(_, line)| line)
}

/// Maps a code string back into its file, searching from `from`: through
/// the YAML scalar that holds it ([`scalar_at`]) when it is found, else line
/// by line ([`line_origin`]).
pub fn code_origin(text: &str, code: &str, from: usize, file: u32) -> Origin {
    match scalar_at(text, code, from) {
        Some((lines, _)) => Origin { file, lines },
        None => line_origin(text, code, from, file),
    }
}

/// Maps a code string back into its file line by line, one entry a line
/// found, searching from `from`. Lines that cannot be found (escaped quotes,
/// folded text) fall back to the first line's position.
pub fn line_origin(text: &str, code: &str, from: usize, file: u32) -> Origin {
    let mut lines = Vec::new();
    let mut search = from.min(text.len());
    let mut code_off = 0usize;
    for line in code.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start();
        if !trimmed.is_empty() {
            // Escaped quotes differ between the file and the parsed string: fall
            // back to the part of the line before the first quote.
            let head = trimmed.split(['"', '\\']).next().unwrap_or(trimmed);
            let found = text
                .get(search..)
                .and_then(|t| t.find(trimmed))
                .or_else(|| {
                    (head.len() >= 3)
                        .then(|| text.get(search..).and_then(|t| t.find(head)))
                        .flatten()
                });
            if let Some(i) = found {
                let file_off = search + i;
                let lead = content.len() - trimmed.len();
                lines.push(((code_off + lead) as u32, file_off as u32));
                search = file_off + trimmed.len();
            }
        }
        code_off += line.len();
    }
    if lines.is_empty() {
        lines.push((0, from as u32));
    }
    Origin { file, lines }
}

/// Where the YAML scalar whose parsed value is `value` sits in `text`, at or
/// after `from`: the points where the offsets of the two part (a folded
/// line break, indentation, an escape, `''` in single quotes), as
/// `(offset in value, offset in file)`, and where the scalar's text ends in
/// the file. A value read from YAML differs from its text there, so a plain
/// search misses it; this walks both in step. `None` when no place matches
/// within a bounded amount of work.
pub fn scalar_at(text: &str, value: &str, from: usize) -> Option<(Vec<(u32, u32)>, usize)> {
    let lead = value.len() - value.trim_start().len();
    let body = value.trim();
    let first = body.chars().next()?;
    // Work bounded as a few passes over the file: a value that matches
    // nearly everywhere (a long run of one letter) is given up on.
    let mut work = 4 * text.len() + 4 * body.len();
    let b = text.as_bytes();
    let mut p = from.min(text.len());
    while p < text.len() {
        let at = &text[p..];
        // Where no match can start, a character costs a unit of work and
        // nothing else: skipped at once to the next that may.
        let skip = at.find([first, '\\']).unwrap_or(at.len());
        if skip > 0 {
            let n = at[..skip].chars().count();
            work = work.checked_sub(n)?;
            p += skip;
            continue;
        }
        let c = at.chars().next()?;
        let before = text[..p].chars().next_back();
        let style = match before {
            Some('\'') => Style::Single,
            Some('"') => Style::Double,
            _ => Style::Plain,
        };
        if (c == first || (c == '\\' && style == Style::Double))
            && let Some((mut points, end)) = walk(text, p, body, lead, style, &mut work)
        {
            let ends = match style {
                Style::Single => b.get(end) == Some(&b'\''),
                Style::Double => b.get(end) == Some(&b'"'),
                Style::Plain => {
                    let rest = text[end..].split('\n').next().unwrap_or("");
                    let rest = rest.trim_start_matches([' ', '\t', '\r']);
                    rest.is_empty() || rest.starts_with(['#', ',', ']', '}'])
                }
            };
            if ends {
                if lead > 0 {
                    points.insert(0, (0, p as u32));
                }
                return Some((points, end));
            }
        }
        if work == 0 {
            return None;
        }
        work -= 1;
        p += c.len_utf8();
    }
    None
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Plain,
    Single,
    Double,
}

/// Walks `value` (its first `lead` bytes of space left out) and the file
/// from `p` in step; see [`scalar_at`].
fn walk(
    text: &str,
    p: usize,
    value: &str,
    lead: usize,
    style: Style,
    work: &mut usize,
) -> Option<(Vec<(u32, u32)>, usize)> {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let mut points = vec![(lead as u32, p as u32)];
    let (mut i, mut j) = (0, p);
    while i < value.len() {
        *work = work.checked_sub(1)?;
        let c = value[i..].chars().next()?;
        let f = text[j..].chars().next()?;
        let (di, dj) = if is_space(c) && is_space(f) {
            // A folded line break, indentation: runs of space on both sides.
            let di = value[i..].find(|x| !is_space(x)).unwrap_or(value.len() - i);
            let mut dj = 0;
            loop {
                let rest = &text[j + dj..];
                match rest.chars().next() {
                    Some(x) if is_space(x) => dj += 1,
                    // An escaped line break in double quotes is no character.
                    Some('\\') if style == Style::Double && rest[1..].starts_with('\n') => dj += 2,
                    _ => break,
                }
            }
            (di, dj)
        } else if c == '\'' && style == Style::Single && text[j..].starts_with("''") {
            (1, 2)
        } else if c == f {
            (c.len_utf8(), c.len_utf8())
        } else if f == '\\' && style == Style::Double {
            let (e, n) = escape(&text[j + 1..])?;
            if e != c {
                return None;
            }
            (c.len_utf8(), 1 + n)
        } else {
            return None;
        };
        i += di;
        j += dj;
        if di != dj {
            points.push(((lead + i) as u32, j as u32));
        }
    }
    Some((points, j))
}

/// The character a YAML double-quoted escape (after its `\\`) stands for,
/// and the bytes it takes.
fn escape(s: &str) -> Option<(char, usize)> {
    let hex = |n: usize| {
        let h = s.get(1..1 + n)?;
        char::from_u32(u32::from_str_radix(h, 16).ok()?).map(|c| (c, 1 + n))
    };
    let c = match s.chars().next()? {
        '0' => '\0',
        'a' => '\u{7}',
        'b' => '\u{8}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{b}',
        'f' => '\u{c}',
        'r' => '\r',
        'e' => '\u{1b}',
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        'x' => return hex(2),
        'u' => return hex(4),
        'U' => return hex(8),
        c @ (' ' | '"' | '/' | '\\') => c,
        _ => return None,
    };
    Some((c, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_block_scalar_lines() {
        let text = "id: a\neffects:\n  play: |\n    draw(1)\n    actions += 2\n";
        let code = "draw(1)\nactions += 2\n";
        let o = code_origin(text, code, 0, 0);
        let at = o.map(code.find("actions").unwrap()) as usize;
        assert_eq!(&text[at..at + 7], "actions");
    }

    #[test]
    fn maps_folded_quoted_and_escaped_scalars() {
        let at = |text: &str, value: &str, word: &str| {
            let (points, _) = scalar_at(text, value, 0).unwrap();
            let o = Origin {
                file: 0,
                lines: points,
            };
            let i = o.map(value.find(word).unwrap()) as usize;
            text[i..].split_whitespace().next().unwrap().to_string()
        };
        let plain = "id: a\nplay: draw(1) +\n   zork(2)\n";
        assert_eq!(at(plain, "draw(1) + zork(2)", "zork"), "zork(2)");
        let single = "play: 'log(\"it''s\"); zork(1)'\n";
        assert_eq!(at(single, "log(\"it's\"); zork(1)", "zork"), "zork(1)'");
        let double = "tags: [a, \"\\e[2J x\\ty\"]\n";
        assert_eq!(at(double, "\u{1b}[2J x\ty", "y"), "y\"]");
        assert_eq!(
            scalar_at(double, "\u{1b}[2J x\ty", 0).unwrap().1,
            double.len() - 3
        );
    }

    #[test]
    fn finds_whole_words_only() {
        assert_eq!(find_word("village vilage", "vilage", 0), Some((8, 14)));
    }

    #[test]
    fn finds_keys_in_block_flow_and_quoted_spellings() {
        let text =
            "- id: a\n  name: A\n- {name: B, id: b}\n- {\"id\": 'c', x: 1}\n- id: d # note\n";
        let lines = key_lines(text, "id");
        let line = |v: &str| line_of(&lines, v, 0).map(|at| &text[at..at + 3]);
        assert_eq!(line("a"), Some("- i"));
        assert_eq!(line("b"), Some("- {"));
        assert_eq!(line("c"), Some("- {"));
        assert_eq!(line("d"), Some("- i"));
        assert_eq!(line("A"), None, "a value of another key");
        // A second card of one id is found past the first's value.
        let twice = "- id: a\n- id: a\n";
        assert_eq!(line_of(&key_lines(twice, "id"), "a", 1), Some(0));
        assert_eq!(line_of(&key_lines(twice, "id"), "a", 7), Some(8));
        // find_key takes the flow spelling too.
        assert_eq!(find_key(text, "id", "b", 0), Some(18));
    }

    #[test]
    fn spaced_keys_are_where_find_finds_them() {
        let text = "verbs:\n  foobar: {do: x}\n  foo:\n    do: y\n  - { foo: 1}\n";
        let keys = spaced_keys(text);
        for name in ["foobar", "foo", "do"] {
            assert_eq!(
                keys.get(name).copied(),
                text.find(&format!(" {name}:")),
                "{name}"
            );
        }
        assert_eq!(keys.get("verbs"), None, "not after a space");
    }

    #[test]
    fn first_words_stops_at_the_end_given() {
        let text = "list: {a-b: 2, c: 1}\n- id: next\n  list: {c: 3}\n";
        let end = text.find("- id").unwrap();
        let found = first_words(text, 5, end, 3, |w| ["a-b", "c", "next"].contains(&w));
        assert_eq!(found.get("a-b"), Some(&(7, 10)));
        assert_eq!(found.get("c"), Some(&(15, 16)));
        assert_eq!(found.get("next"), None, "past the card's end");
    }
}
