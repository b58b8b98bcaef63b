//! `log(text)` while no transcript is kept: the text's parts still run
//! (their errors and effects stay), but a `+` that would join strings only
//! adds up their lengths against the string limit, so no string is built
//! to be dropped. Names read in place (cards', ids', players') are
//! measured, not copied or written.

use super::*;
use crate::engine::said::Said;

/// A part of the text: a value, or a string known only by its length.
enum Part {
    Val(Value),
    Len(usize),
}

type PartFn = Native<Part>;
type SaidFn = Native<Said>;

impl Compiler<'_> {
    /// `log(x)` as a statement.
    pub(super) fn logger(&self, x: &Expr, span: Span) -> StmtFn {
        let (said, measured) = (self.said(x), self.measured(x));
        Box::new(move |g, f| {
            if g.logging {
                let s = said(g, f)?;
                f.span = span;
                return g.log_line(s, span);
            }
            let part = measured(g, f)?;
            f.span = span;
            match part {
                Part::Val(v) => g.charge_logged(&v, span),
                Part::Len(_) => Ok(()),
            }
        })
    }

    /// The text as the transcript keeps it, cards kept as cards (see
    /// [`Said`]): the reference tier's `said`.
    fn said(&self, e: &Expr) -> SaidFn {
        match e {
            Expr::Bin(BinOp::Add, a, b, span) => {
                let (a, b, span) = (self.said(a), self.said(b), *span);
                Box::new(move |g, f| {
                    let x = a(g, f)?;
                    let y = b(g, f)?;
                    g.said_add(x, y, span)
                })
            }
            Expr::Field(x, field)
                if field.special == Some(Special::Name) && field.prop.is_none() =>
            {
                let (x, field) = (self.val(x), *field);
                Box::new(move |g, f| {
                    Ok(match x(g, f)? {
                        Value::Card(c) => g.said_name(c),
                        b => Said::One(g.field(&b, &field, f)?),
                    })
                })
            }
            _ => {
                let v = self.val(e);
                Box::new(move |g, f| v(g, f).map(Said::One))
            }
        }
    }

    fn measured(&self, e: &Expr) -> PartFn {
        match e {
            Expr::Str(s) => {
                let n = s.len();
                Box::new(move |_, _| Ok(Part::Len(n)))
            }
            Expr::Bin(BinOp::Add, a, b, span) => {
                let (a, b, span) = (self.measured(a), self.measured(b), *span);
                Box::new(move |g, f| {
                    let (x, y) = (a(g, f)?, b(g, f)?);
                    match (x, y) {
                        // `Game::binop` joins when either side is a string.
                        (Part::Val(x), Part::Val(y))
                            if !matches!(x, Value::Str(_)) && !matches!(y, Value::Str(_)) =>
                        {
                            g.binop(BinOp::Add, x, y, span).map(Part::Val)
                        }
                        (x, y) => {
                            let n = shown_len(g, &x) + shown_len(g, &y);
                            if n > crate::engine::MAX_LIST {
                                return g.text_too_long(span);
                            }
                            // Charged as the string `+` would make.
                            g.charge_text(n, span)?;
                            Ok(Part::Len(n))
                        }
                    }
                })
            }
            // `Game::field` reads a card's or id's name when it has no
            // property of that name.
            Expr::Field(x, field)
                if field.special == Some(Special::Name) && field.prop.is_none() =>
            {
                let (x, field) = (self.val(x), *field);
                Box::new(move |g, f| {
                    let b = x(g, f)?;
                    Ok(match b {
                        Value::Card(c) => {
                            Part::Len(g.data.def_name(g.st.objs[c as usize].def).len())
                        }
                        Value::Def(d) => Part::Len(g.data.def_name(d).len()),
                        // A player's name, when no counter is so named.
                        Value::Player(p) if field.counter.is_none() => {
                            Part::Len(crate::engine::log::pname_len(p))
                        }
                        b => Part::Val(g.field(&b, &field, f)?),
                    })
                })
            }
            _ => {
                let v = self.val(e);
                Box::new(move |g, f| v(g, f).map(Part::Val))
            }
        }
    }
}

/// The length of a part as [`Game::show`] writes it.
fn shown_len(g: &Game, p: &Part) -> usize {
    match p {
        Part::Len(n) => *n,
        Part::Val(v) => g.shown_len(v),
    }
}
