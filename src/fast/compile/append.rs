//! `x = x + list`: a list collected item by item in a local (`out = out +
//! [c]` in a `for` loop), grown in place. Made as `+` makes it, each round
//! would copy the whole list and allocate two: collecting n items cost n²
//! copies where a `where` filter costs n. The steps stay the reference's:
//! `+` pays for the items it copies, `x`'s too (the local holds it, so the
//! reference always copies them), and anything but a list on either side
//! runs `+` as compiled.

use std::sync::Arc;

use super::near::Plain;
use super::*;

impl Compiler<'_> {
    /// `x = x + rhs` for the local `x` (`s`), if the assignment is one.
    pub(super) fn append(&self, s: u16, rhs: &Expr, span: Span) -> Option<StmtFn> {
        let Expr::Bin(BinOp::Add, a, b, plus) = rhs else {
            return None;
        };
        if !matches!(**a, Expr::Local(x) if x == s) {
            return None;
        }
        let (s, plus) = (self.slot(s), *plus);
        // A list written out of operands read in place (`[c]` of a local),
        // none of them `x` (taken while they are read), is read straight
        // onto the end of `x`.
        if let Expr::List(items) = &**b
            && let Some(near) = items
                .iter()
                .map(|i| {
                    self.near(i)?
                        .plain()
                        .filter(|p| !matches!(p, Plain::Slot(x) if *x == s))
                })
                .collect()
        {
            return Some(grow(s, near, plus, span));
        }
        // A list written out is made straight into the items; other code
        // makes its value (a code can write no local: `x` is read after).
        let items = match &**b {
            Expr::List(items) => Ok(self.vals(items)),
            b => Err(self.val(b)),
        };
        Some(Box::new(move |g, f| {
            f.span = span;
            let y = match &items {
                Ok(items) => {
                    let mut y = Items::new();
                    for i in items.iter() {
                        y.push(i(g, f)?);
                    }
                    y
                }
                Err(b) => match b(g, f)? {
                    Value::List(l) => l.iter().cloned().collect(),
                    y => {
                        let x = f.slots[s].clone();
                        f.slots[s] = g.binop(BinOp::Add, x, y, plus)?;
                        return Ok(());
                    }
                },
            };
            if !grown(g, f, s, y.len(), plus)? {
                let x = f.slots[s].clone();
                f.slots[s] = g.binop(BinOp::Add, x, Value::list(y.into_vec()), plus)?;
                return Ok(());
            }
            let Value::List(x) = &mut f.slots[s] else {
                unreachable!("a list, grown")
            };
            Arc::make_mut(x).extend(y);
            Ok(())
        }))
    }
}

/// Whether slot `s` holds a list `k` more items may join, paid for as `+`
/// pays (the items copied, a memory check past a long list) and let go of
/// as the game's spare, so it grows in place. False (nothing paid) where
/// `+` must run as compiled, with its errors: not a list, or too long.
#[inline(always)]
fn grown(g: &mut Game, f: &mut Frame, s: usize, k: usize, plus: Span) -> Res<bool> {
    let n = match &f.slots[s] {
        Value::List(x) if x.len() + k <= crate::limits::MAX_LIST => x.len(),
        _ => return Ok(false),
    };
    g.charge(plus, (n + k) as u64)?;
    if n >= crate::limits::MEMORY_CHECK_STEPS as usize {
        g.check_memory(plus)?;
    }
    if let Value::List(x) = &f.slots[s] {
        g.let_go_of_spare(x);
    }
    Ok(true)
}

/// `x = x + [a, b, ..]` of operands read in place, none of which can fail:
/// the items pushed onto `x` (slot `s`) as they are read, no list made for
/// them; as [`Compiler::append`] pays for it.
fn grow(s: usize, items: Box<[Plain]>, plus: Span, span: Span) -> StmtFn {
    Box::new(move |g, f| {
        f.span = span;
        if !grown(g, f, s, items.len(), plus)? {
            let x = f.slots[s].clone();
            let y = items.iter().map(|i| i.value(g, f)).collect();
            f.slots[s] = g.binop(BinOp::Add, x, Value::list(y), plus)?;
            return Ok(());
        }
        let Value::List(mut x) = std::mem::take(&mut f.slots[s]) else {
            unreachable!("a list, grown")
        };
        let v = Arc::make_mut(&mut x);
        for i in items.iter() {
            v.push(i.value(g, f));
        }
        f.slots[s] = Value::List(x);
        Ok(())
    })
}
