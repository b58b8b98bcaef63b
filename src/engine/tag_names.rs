//! Tags named at run time. `x is tag` names its tag in the code, checked at
//! load; `has_tag(x, name)` takes the name as a value, so one verb can test a
//! tag its caller chooses ("search for a card of this kind") or each tag of a
//! list ("do these two cards share one of these tags").

use super::{Game, Res};
use crate::lang::ir::Span;
use crate::lang::names::find;
use crate::value::{Value, bit};

impl Game {
    /// `has_tag(x, name)`: whether the card or card id has the tag; false for
    /// none. An unknown tag name is an error with the nearest declared one.
    pub(crate) fn has_tag(&self, x: &Value, name: &Value, sp: Span) -> Res<Value> {
        let Value::Str(name) = name else {
            return self.err(
                sp,
                format!("has_tag: the tag is named by a string, not {}", name.kind()),
            );
        };
        let Some(tag) = find(&self.data.names.tags, name) else {
            let near =
                crate::suggest::suggest(name, self.data.names.tags.iter().map(|s| s.as_str()));
            let hint = near.map_or(String::new(), |n| format!(" (did you mean \"{n}\"?)"));
            return self.err(sp, format!("has_tag: unknown tag \"{name}\"{hint}"));
        };
        let tags = match x {
            Value::Card(c) => self.st.tags(*c),
            Value::Def(d) => self.data.defs[*d as usize].tags,
            Value::None => 0,
            other => {
                return self.err(sp, format!("has_tag needs a card, not {}", other.kind()));
            }
        };
        Ok(Value::Bool(tags & bit(tag) != 0))
    }
}
