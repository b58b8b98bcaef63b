//! Run-time values of effect code.

use std::sync::Arc;

pub type ObjId = u32;
pub type DefId = u16;
pub type PlayerId = u8;

/// Arguments of a kernel operation: inline, no allocation for the usual few.
pub type Args = smallvec::SmallVec<[Value; 4]>;

/// A few cards: inline, no allocation for the usual handful.
pub type Cards = smallvec::SmallVec<[ObjId; 8]>;

/// A zone instance: a declared zone and, for per-player zones, its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZoneRef {
    pub zone: u16,
    pub owner: PlayerId,
}

/// Bit `i` of a 64-bit set (tags, zones); nothing for an index past 63.
pub fn bit(i: impl TryInto<u32>) -> u64 {
    i.try_into()
        .ok()
        .and_then(|i| 1u64.checked_shl(i))
        .unwrap_or(0)
}

#[derive(Debug, Default)]
pub enum Value {
    #[default]
    None,
    Int(i64),
    Bool(bool),
    Str(Arc<String>),
    Card(ObjId),
    Def(DefId),
    Player(PlayerId),
    Zone(ZoneRef),
    /// The event being handled, by depth in the event stack.
    Event(usize),
    List(Arc<Vec<Value>>),
}

impl Clone for Value {
    /// A string or a list shares its text or items; any other value owns
    /// nothing and is its sixteen bytes copied, with no arm a kind.
    #[inline(always)]
    fn clone(&self) -> Value {
        match self {
            Value::Str(s) => Value::Str(Arc::clone(s)),
            Value::List(l) => Value::List(Arc::clone(l)),
            _ => {
                // SAFETY: every other kind is plain (`is_plain` names each
                // variant: one that owns memory must say so there), holding
                // only `Copy` data with no pointer and nothing dropped, so a
                // bitwise copy is a clone.
                debug_assert!(self.is_plain());
                unsafe { std::ptr::read(self) }
            }
        }
    }
}

impl Value {
    /// Empties a slot. Most values own nothing: the drop of a string or a
    /// list is out of line, so code that empties slots holds no drop glue.
    #[inline(always)]
    pub fn clear(&mut self) {
        let v = std::mem::take(self);
        if !v.is_plain() {
            drop_owning(v);
        } else {
            // Nothing to free.
            std::mem::forget(v);
        }
    }

    /// A string value. Strings are rare at run time; holding them behind a
    /// thin pointer keeps `Value` at 16 bytes, so results come back in registers.
    pub fn text(s: impl Into<String>) -> Value {
        Value::Str(Arc::new(s.into()))
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Int(_) => "a number",
            Value::Bool(_) => "true/false",
            Value::Str(_) => "a string",
            Value::Card(_) => "a card",
            Value::Def(_) => "a card id",
            Value::Player(_) => "a player",
            Value::Zone(_) => "a zone",
            Value::Event(_) => "an event",
            Value::List(_) => "a list",
        }
    }

    /// Whether dropping the value frees nothing (every variant named: a new
    /// one that owns memory must say so here).
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        match self {
            Value::Str(_) | Value::List(_) => false,
            Value::None
            | Value::Int(_)
            | Value::Bool(_)
            | Value::Card(_)
            | Value::Def(_)
            | Value::Player(_)
            | Value::Zone(_)
            | Value::Event(_) => true,
        }
    }

    pub fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::List(l) => !l.is_empty(),
            _ => true,
        }
    }

    /// A list value; empty lists share one allocation per thread.
    pub fn list(v: Vec<Value>) -> Value {
        if v.is_empty() {
            thread_local! {
                static EMPTY: Arc<Vec<Value>> = Arc::new(Vec::new());
            }
            return Value::List(EMPTY.with(Arc::clone));
        }
        Value::List(Arc::new(v))
    }
}

// Two words: a `Value`, and a `Res` of one, come back from a call in registers.
const _: () = assert!(std::mem::size_of::<Value>() == 16);

/// The drop of a value that owns memory, out of line ([`Value::clear`]).
#[inline(never)]
fn drop_owning(v: Value) {
    drop(v);
}
