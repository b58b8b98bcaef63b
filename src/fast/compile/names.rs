//! `a.name == b.name` and `a.name == "text"` (or `!=`) of values read from
//! frame slots: for cards and card ids, their definitions' names compared
//! in place, no string made, shared or dropped. A definition's name is one
//! string shared by all the definitions of that name
//! ([`crate::data::Data::def_names`]), so two names are equal exactly
//! when their strings are the same one.

use std::sync::Arc;

use super::*;
use crate::value::DefId;

/// The other side of a name comparison.
enum Other {
    /// A name read from this slot.
    Slot(usize),
    /// A string: the definitions whose name it is, and the string.
    Text(Box<[bool]>, Value),
}

impl Compiler<'_> {
    /// The comparison `a <op> b`, where `op` is `==` or `!=`, if it is one of
    /// a slot's `.name` with another's or with a string.
    pub(super) fn name_cmp(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<CondFn> {
        let eq = match op {
            BinOp::Eq => true,
            BinOp::Ne => false,
            _ => return None,
        };
        // The fields as read the general way: `a`'s, then `b`'s.
        let fields = (name_field(a), name_field(b));
        let other = match (a, b) {
            (x, y) if name_field(x).is_some() && name_field(y).is_some() => {
                Other::Slot(self.slot(name_slot(y)?))
            }
            (x, Expr::Str(s)) | (Expr::Str(s), x) if name_field(x).is_some() => {
                let of = (self.data.def_names.iter()).map(|n| **n == **s);
                Other::Text(of.collect(), Value::Str(s.clone()))
            }
            _ => return None,
        };
        // The slot whose name is read first (for a string on the left, the
        // only one read: reading a string has no effect).
        let first = match other {
            Other::Slot(_) => name_slot(a)?,
            Other::Text(..) => name_slot(a).or_else(|| name_slot(b))?,
        };
        let x = self.slot(first);
        let field = fields.0.or(fields.1)?;
        let field_y = fields.1.unwrap_or(field);
        Some(Box::new(move |g, f| {
            let dx = def_of(g, &f.slots[x]);
            let same = match (&other, dx) {
                (Other::Slot(y), dx) => match (dx, def_of(g, &f.slots[*y])) {
                    (Some(dx), Some(dy)) => Arc::ptr_eq(
                        &g.data.def_names[dx as usize],
                        &g.data.def_names[dy as usize],
                    ),
                    _ => names_equal(g, f, x, Some(*y), None, (&field, &field_y))?,
                },
                (Other::Text(of, _), Some(dx)) => of[dx as usize],
                (Other::Text(_, s), None) => names_equal(g, f, x, None, Some(s), (&field, &field))?,
            };
            Ok(same == eq)
        }))
    }
}

/// The field of `x.name`, `x` a local, with no property of that name.
fn name_field(e: &Expr) -> Option<Field> {
    match e {
        Expr::Field(x, field)
            if matches!(**x, Expr::Local(_))
                && field.special == Some(Special::Name)
                && field.prop.is_none() =>
        {
            Some(*field)
        }
        _ => None,
    }
}

/// The local `x` of `x.name`.
fn name_slot(e: &Expr) -> Option<u16> {
    match (e, name_field(e)) {
        (Expr::Field(x, _), Some(_)) => match **x {
            Expr::Local(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// The definition of a card or a card id.
#[inline(always)]
fn def_of(g: &Game, v: &Value) -> Option<DefId> {
    match v {
        Value::Card(c) => Some(g.st.objs[*c as usize].def),
        Value::Def(d) => Some(*d),
        _ => None,
    }
}

/// The comparison read the general way, for a slot that holds neither a
/// card nor a card id: slot `x`'s name read, then slot `y`'s (or the
/// string), then the values' equality.
#[cold]
#[inline(never)]
fn names_equal(
    g: &Game,
    f: &Frame,
    x: usize,
    y: Option<usize>,
    text: Option<&Value>,
    (fx, fy): (&Field, &Field),
) -> Res<bool> {
    let a = g.field(&f.slots[x], fx, f)?;
    let b = match (y, text) {
        (Some(y), _) => g.field(&f.slots[y], fy, f)?,
        (None, Some(s)) => s.clone(),
        (None, None) => Value::None,
    };
    Ok(g.equal(&a, &b))
}
