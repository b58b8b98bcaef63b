//! Where things are in a text, as the protocol says it: lines and UTF-16
//! columns (an editor counts `御` as one unit, a byte offset as three), and
//! file names as `file:` URIs.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};

/// The position of byte offset `off` of `text`.
pub fn position(text: &str, off: usize) -> Position {
    let off = floor(text, off);
    let line_start = text[..off].rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: text[..line_start].matches('\n').count() as u32,
        character: text[line_start..off].encode_utf16().count() as u32,
    }
}

pub fn range(text: &str, start: usize, end: usize) -> Range {
    Range {
        start: position(text, start),
        end: position(text, end.max(start)),
    }
}

/// The byte offset of a position (clamped to its line and the text).
pub fn offset(text: &str, p: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..p.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let mut units = 0;
    for (i, c) in text[line_start..].char_indices() {
        if units >= p.character as usize || c == '\n' {
            return line_start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The file a `file:` URI names.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` is not ours; `file:///path` has an empty host.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let s = path.to_str()?;
    if !s.starts_with('/') {
        return None;
    }
    let mut out = String::from("file://");
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    Uri::from_str(&out).ok()
}

/// The name (letters, digits, `_`) around byte offset `off`: its start and end.
pub fn word_at(text: &str, off: usize) -> (usize, usize) {
    let off = floor(text, off);
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start = text[..off]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(off, |(i, _)| i);
    let end = text[off..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(i, _)| off + i);
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let text = "a: 御神酒\n  do: gian(x)\n𝄞x";
        let at = text.find("gian").unwrap();
        let p = position(text, at);
        assert_eq!((p.line, p.character), (1, 6));
        assert_eq!(offset(text, p), at);
        // A character beyond the basic plane is two units.
        let x = text.rfind('x').unwrap();
        assert_eq!(position(text, x).character, 2);
        assert_eq!(offset(text, Position::new(2, 2)), x);
        assert_eq!(position(text, text.find('酒').unwrap()).character, 5);
    }

    #[test]
    fn uris_round_trip() {
        let p = Path::new("/tmp/a b/御.yaml");
        let uri = uri_of(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%E5%BE%A1.yaml");
        assert_eq!(path_of(&uri).unwrap(), p);
    }
}
