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

/// The offset of the first flow bracket past [`MAX_YAML_DEPTH`]. Brackets in
/// strings count too: real data nests far less.
fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
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
