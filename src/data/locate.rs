//! The position pass: finds where a value sits in its YAML file, so errors found
//! after deserialising (an unknown card id, a grammar error in card text) can point
//! at the exact text. serde_norway gives no spans for values, so we search the
//! source, starting from a hint such as the card's own `id:` line.

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
        if prefix.starts_with(key) && prefix[key.len()..].trim_start().starts_with(':') {
            return Some(line_start);
        }
        start = b;
    }
    None
}

/// Maps a code string back into its file, line by line, searching from `from`.
/// Lines that cannot be found (escaped quotes, folded text) fall back to the
/// first line's position.
pub fn code_origin(text: &str, code: &str, from: usize, file: u32) -> Origin {
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
    fn finds_whole_words_only() {
        assert_eq!(find_word("village vilage", "vilage", 0), Some((8, 14)));
    }
}
