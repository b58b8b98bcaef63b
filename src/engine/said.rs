//! The text of a `log(...)` line, built with the cards it names kept as cards:
//! each viewer's line names a card only if that viewer may see it where it
//! is, as a move's line does. `log("against " + t.name)` joins strings as
//! `+` always does; the `.name` of a card and a card joined to a string stay
//! cards until the line is rendered.

use super::log::{Entry, Part};
use super::{Game, MAX_LIST, Res};
use crate::lang::ir::Span;
use crate::value::Value;

/// The bytes of a list logged alone that cost nothing.
const LOGGED_FREE: usize = 1024;

/// A value on its way into a log line: one value not yet joined to a string
/// (`1 + 2` still adds), or text already joined, with its length so far.
pub enum Said {
    One(Value),
    Parts(Vec<Part>, usize),
}

impl Game {
    /// `a + b` inside a log line: the operator's own meaning unless a side is
    /// text, then the two joined (with the string limit `+` has).
    pub(crate) fn said_add(&mut self, a: Said, b: Said, span: Span) -> Res<Said> {
        match (a, b) {
            (Said::One(x), Said::One(y))
                if !matches!(x, Value::Str(_)) && !matches!(y, Value::Str(_)) =>
            {
                self.binop(crate::lang::ir::BinOp::Add, x, y, span)
                    .map(Said::One)
            }
            (a, b) => {
                let (mut parts, n) = self.said_parts(a);
                let (more, m) = self.said_parts(b);
                if n + m > MAX_LIST {
                    return self.text_too_long(span);
                }
                // Charged as the string `+` would make.
                self.charge_text(n + m, span)?;
                parts.extend(more);
                Ok(Said::Parts(parts, n + m))
            }
        }
    }

    /// The `.name` of a card inside a log line: the card, named per viewer.
    pub(crate) fn said_name(&self, c: crate::value::ObjId) -> Said {
        let (def, place) = self.named(c);
        let n = self.data.def_name(def).len();
        Said::Parts(vec![Part::Card(def, place)], n)
    }

    /// A value's parts as `show` writes it, each card where it lies now.
    fn said_parts(&self, s: Said) -> (Vec<Part>, usize) {
        match s {
            Said::Parts(p, n) => (p, n),
            Said::One(v) => {
                let mut parts = Vec::new();
                let n = self.value_parts(&v, &mut parts);
                (parts, n)
            }
        }
    }

    /// Appends `v` as `show` writes it, each card as a card where it lies
    /// now; returns the text's length.
    pub(crate) fn value_parts(&self, v: &Value, out: &mut Vec<Part>) -> usize {
        match v {
            Value::Card(c) => {
                let (def, place) = self.named(*c);
                out.push(Part::Card(def, place));
                self.data.def_name(def).len()
            }
            Value::List(l) if l.iter().any(|v| matches!(v, Value::Card(_))) => {
                let mut n = 0;
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        out.push(Part::Text(", ".into()));
                        n += 2;
                    }
                    n += self.value_parts(v, out);
                }
                n
            }
            v => {
                let t = self.show(v);
                let n = t.len();
                out.push(Part::Text(t));
                n
            }
        }
    }

    /// A list logged alone pays for its text past the first KiB, as a
    /// string `+` makes does, whether or not a transcript is kept (a `+`
    /// in the line was charged as it joined).
    pub(crate) fn charge_logged(&mut self, v: &Value, span: Span) -> Res<()> {
        if let Value::List(_) = v {
            let n = self.shown_len(v);
            self.charge_text(n.saturating_sub(LOGGED_FREE), span)?;
        }
        Ok(())
    }

    /// [`Game::log_said`] of a line after [`Game::charge_logged`].
    pub(crate) fn log_line(&mut self, s: Said, span: Span) -> Res<()> {
        if let Said::One(v) = &s {
            self.charge_logged(v, span)?;
        }
        self.log_said(s);
        Ok(())
    }

    /// Adds the line to the transcript.
    pub(crate) fn log_said(&mut self, s: Said) {
        if self.logging {
            let (parts, _) = self.said_parts(s);
            self.push(Entry::Said { parts });
        }
    }
}
