//! YAML under limits. The parser slows as the square of flow nesting, and
//! aliases replay their anchor's nodes each time they appear: a small file can
//! ask for minutes or gigabytes. Both are measured before the data is built.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use crate::limits::{MAX_YAML_DEPTH, MAX_YAML_NODES};

/// Where and why a YAML text goes past a limit, if it does.
pub fn over_limits(text: &str) -> Option<(usize, String)> {
    if let Some(at) = too_deep(text) {
        return Some((
            at,
            format!("YAML nested more than {MAX_YAML_DEPTH} brackets deep"),
        ));
    }
    if !may_alias(text) {
        return None;
    }
    let nodes = Cell::new(0);
    let de = serde_norway::Deserializer::from_str(text);
    match (Count { nodes: &nodes }).deserialize(de) {
        Err(e) if e.to_string().contains(TOO_MANY) => Some((
            e.location().map_or(0, |l| l.index()),
            format!("{TOO_MANY} {MAX_YAML_NODES} nodes once its aliases are expanded"),
        )),
        // Other errors are the real parse's to report.
        _ => None,
    }
}

const TOO_MANY: &str = "YAML too big: more than";

/// The offset of the first flow bracket past [`MAX_YAML_DEPTH`]. Brackets
/// in quoted strings, comments, block scalars and plain words (`a[b`) open
/// nothing and are not counted; a bracket that may open a collection is.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    // Depth grows only at a bracket: with no more brackets than the limit
    // (every card file), it cannot pass it.
    if b.iter().filter(|&&c| c == b'[' || c == b'{').count() <= MAX_YAML_DEPTH {
        return None;
    }
    let mut depth = 0usize;
    let mut i = 0;
    // The last byte that was not a space on this line, if any: whether a
    // scalar or a collection may start here.
    let mut last: Option<u8> = None;
    // Whether a space came after `last` (`a: [` opens, `a:[` is a word).
    let mut gap = false;
    let mut indent = 0usize;
    while i < b.len() {
        let c = b[i];
        let starts = match last {
            None => true,
            Some(b'[' | b'{' | b',') => depth > 0,
            Some(b':' | b'-' | b'?') => gap || depth > 0,
            _ => false,
        };
        if !matches!(c, b' ' | b'\t' | b'\r') {
            gap = false;
        }
        match c {
            b'\n' => {
                last = None;
                indent = b[i + 1..].iter().take_while(|&&x| x == b' ').count();
            }
            b' ' | b'\t' | b'\r' => gap = true,
            b'#' if i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n') => {
                i = line_end(b, i);
                continue;
            }
            b'"' | b'\'' if starts => {
                i = quote_end(b, i);
                last = Some(c);
                continue;
            }
            b'|' | b'>' if starts && depth == 0 => {
                i = block_end(b, i, indent);
                last = None;
                continue;
            }
            b'[' | b'{' if starts || depth > 0 => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Some(i);
                }
                last = Some(c);
            }
            b']' | b'}' if depth > 0 => {
                depth -= 1;
                last = Some(c);
            }
            _ => last = Some(c),
        }
        i += 1;
    }
    None
}

/// The offset of the line end at or after `i`.
fn line_end(b: &[u8], i: usize) -> usize {
    (b[i..].iter().position(|&x| x == b'\n')).map_or(b.len(), |n| i + n)
}

/// The offset just past the quoted string opening at `i` (`\"` escapes in
/// double quotes, `''` in single quotes).
fn quote_end(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' if q == b'"' => j += 1,
            x if x == q && q == b'\'' && b.get(j + 1) == Some(&q) => j += 1,
            x if x == q => return j + 1,
            _ => {}
        }
        j += 1;
    }
    b.len()
}

/// The offset of the line after the block scalar (`|`, `>`) opening at `i`
/// on a line indented `indent`: its lines are blank or indented as its
/// first, which is indented more.
fn block_end(b: &[u8], i: usize, indent: usize) -> usize {
    let mut at = line_end(b, i);
    let mut inner: Option<usize> = None;
    while at < b.len() {
        let line = at + 1;
        let end = line_end(b, line);
        let spaces = b[line..end].iter().take_while(|&&x| x == b' ').count();
        let blank = b[line + spaces..end]
            .iter()
            .all(|x| x.is_ascii_whitespace());
        if !blank {
            let need = *inner.get_or_insert(spaces);
            if spaces < need || spaces <= indent {
                return at;
            }
        }
        at = end;
    }
    b.len()
}

/// Whether the text may hold an anchor (`&name`), without which there is no
/// alias: most files are spared the counting pass.
fn may_alias(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        b[i] == b'&'
            && (i == 0
                || matches!(
                    b[i - 1],
                    b' ' | b'\t' | b'\n' | b'[' | b'{' | b',' | b':' | b'-'
                ))
            && b.get(i + 1)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    })
}

/// Counts the nodes of a document as the deserializer replays them.
#[derive(Clone, Copy)]
struct Count<'a> {
    nodes: &'a Cell<usize>,
}

impl Count<'_> {
    fn add<E: de::Error>(&self, n: usize) -> Result<(), E> {
        self.nodes.set(self.nodes.get() + n);
        if self.nodes.get() > MAX_YAML_NODES {
            return Err(E::custom(TOO_MANY));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Count<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.add(1)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.add(1)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.add(1)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.add(1)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        // A long string counts as many nodes: an alias to it copies it.
        self.add(1 + s.len() / 64)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.add(1)
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.add(1)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        self.add(1)?;
        while a.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        self.add(1)?;
        while a.next_entry_seed(self, self)?.is_some() {}
        Ok(())
    }
    fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        use serde::de::VariantAccess;
        let ((), v) = a.variant_seed(self)?;
        v.newtype_variant_seed(self)
    }
}

#[cfg(test)]
mod tests {
    use super::too_deep;

    fn deep(head: &str) -> String {
        format!("{head}{}", "[".repeat(300))
    }

    #[test]
    fn brackets_that_open_collections_count_and_others_do_not() {
        // Collections, in block and flow context, after a block scalar ends.
        assert!(too_deep(&deep("a: ")).is_some());
        assert!(too_deep(&deep("- ")).is_some());
        assert!(too_deep(&deep("a: [\"x]\", ")).is_some());
        assert!(too_deep(&deep("a: |\n  [[[\nb: ")).is_some());
        assert!(too_deep(&deep("- a: >\n    text\n  b: ")).is_some());
        assert!(too_deep(&deep("a: 'it''s' #\nb: ")).is_some());
        // Strings, comments, block scalars and plain words.
        assert!(too_deep(&format!("{}\"", deep("a: \"\\\" "))).is_none());
        assert!(too_deep(&format!("{}'", deep("a: 'it''s "))).is_none());
        assert!(too_deep(&deep("a: 1 # ")).is_none());
        assert!(too_deep(&deep("a: |\n  text\n\n  ")).is_none());
        assert!(too_deep(&deep("a: it's ")).is_none());
        assert!(too_deep(&deep("a: x")).is_none());
        assert!(too_deep(&deep("a: x, ")).is_none());
        assert!(too_deep(&deep("a: x-")).is_none());
    }
}
