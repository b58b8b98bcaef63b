//! A prompt joined by `+` (`"discard " + n + " cards"`) as the last operand of a
//! pick: each `+` checks and charges the string it would make, as
//! [`Game::binop`] does, but the parts are kept, not joined, and the text
//! is made only for an agent that reads it ([`Game::choose_parts`]): an
//! agent that picks without reading makes no string to drop.

use super::expr::{Operand, Slot};
use super::*;
use smallvec::SmallVec;
use std::sync::Arc;

impl Compiler<'_> {
    /// `b(lead.., last)`, `last` a chain of `+` (`a + b + c`, read from the
    /// left): its operands run in turn, each `+` as [`Game::binop`] does it
    /// (a join when either side is a string, else an addition or a
    /// concatenation) but a join kept as its parts. A string is passed as
    /// its parts, any other value as the operand.
    pub(super) fn prompted(&self, b: Builtin, lead: &[Expr], last: &Expr, span: Span) -> ValFn {
        let mut ops = Vec::new();
        let mut e = last;
        while let Expr::Bin(BinOp::Add, x, y, at) = e {
            ops.push((self.val(y), *at));
            e = x;
        }
        ops.reverse();
        let (lead, first, ops) = (self.vals(lead), self.val(e), ops.into_boxed_slice());
        Box::new(move |g, f| {
            let mut a = Args::new();
            for x in lead.iter() {
                a.push(x(g, f)?);
            }
            let mut x = first(g, f)?;
            // The parts, and their length once they are a string.
            let mut parts: SmallVec<[Value; 4]> = SmallVec::new();
            let mut len = None;
            for (y, at) in ops.iter() {
                let y = y(g, f)?;
                let n = match len {
                    Some(n) => n + g.shown_len(&y),
                    None if !matches!(x, Value::Str(_)) && !matches!(y, Value::Str(_)) => {
                        x = g.binop(BinOp::Add, x, y, *at)?;
                        continue;
                    }
                    None => {
                        let n = g.shown_len(&x) + g.shown_len(&y);
                        parts.push(std::mem::take(&mut x));
                        n
                    }
                };
                if n > crate::engine::MAX_LIST {
                    return g.text_too_long(*at);
                }
                // Charged as the string `+` would make.
                g.charge_text(n, *at)?;
                parts.push(y);
                len = Some(n);
            }
            f.span = span;
            if len.is_none() {
                a.push(x);
                return g.call_op(Game::choose_op, b, a, f);
            }
            g.choose_parts(b, a, &parts, f)
        })
    }

    /// `b(lead.., "text")`: a pick whose prompt is a string written out,
    /// passed as the one part of a joined prompt ([`Game::choose_parts`]):
    /// read where it lies, never copied into the operands and dropped.
    /// The one operand before it (the options, or who answers `may`) a
    /// local read in its slot.
    pub(super) fn picked(
        &self,
        b: Builtin,
        lead: &[Expr],
        text: &Arc<String>,
        span: Span,
    ) -> ValFn {
        let parts = [Value::Str(text.clone())];
        match lead {
            [] => Box::new(move |g, f| {
                f.span = span;
                g.choose_parts(b, Args::new(), &parts, f)
            }),
            [Expr::Local(s)] => pick1(Slot(self.slot(*s)), b, parts, span),
            [x] => pick1(self.val(x), b, parts, span),
            _ => {
                let lead = self.vals(lead);
                Box::new(move |g, f| {
                    let mut a = Args::new();
                    for x in lead.iter() {
                        a.push(x(g, f)?);
                    }
                    f.span = span;
                    g.choose_parts(b, a, &parts, f)
                })
            }
        }
    }
}

/// [`Compiler::picked`] of one operand before the prompt.
fn pick1<X: Operand>(x: X, b: Builtin, parts: [Value; 1], span: Span) -> ValFn {
    Box::new(move |g, f| {
        let x = x.get(g, f)?;
        f.span = span;
        let a = Args::from_buf_and_len([x, Value::None, Value::None, Value::None], 1);
        g.choose_parts(b, a, &parts, f)
    })
}
