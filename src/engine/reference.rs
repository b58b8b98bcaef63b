//! The reference evaluator: what card code means. A plain walk of the IR
//! (`lang::ir`) over the kernel's operations (`Game::call`, the value
//! operations of `exec.rs`), with no shape recognised and nothing cached.
//! Under the reference tier ([`Game::reference`]) every piece of code runs
//! here; the speed tier (`native`) must do exactly what this does, steps,
//! spans and errors included (`tests/differential.rs` holds it to that).
//!
//! `f.span` is the span errors of the running code point at: the code's own
//! until a call, an assignment or a verb sets it to theirs.

use super::exec::{Frame, MAX_LOOP};
use super::said::Said;
use super::{Flow, Game, Res};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{AssignOp, BinOp, Expr, Place, Span, Special, Stmt};
use crate::value::{Args, Value, ZoneRef, bit};

impl Game {
    /// Runs statements in order; a `return` stops them as
    /// [`Flow::Return`], for the caller to catch.
    pub(crate) fn walk(&mut self, stmts: &[Stmt], f: &mut Frame) -> Res<()> {
        stmts.iter().try_for_each(|s| self.stmt(s, f))
    }

    fn stmt(&mut self, s: &Stmt, f: &mut Frame) -> Res<()> {
        match s {
            // `log(text)` as a statement keeps the cards it names (the speed
            // tier's `logger` does the same).
            Stmt::Expr(Expr::Call(Builtin::Log, args, span)) if self.logging && args.len() == 1 => {
                let said = self.said(&args[0], f)?;
                f.span = *span;
                self.log_line(said, *span)
            }
            Stmt::Expr(e) => self.eval(e, f).map(drop),
            Stmt::Let(slot, e) => {
                f.slots[*slot as usize] = self.eval(e, f)?;
                Ok(())
            }
            Stmt::Assign(place, op, e, span) => self.assign(place, *op, e, *span, f),
            Stmt::If(c, then, els) => {
                if self.truth(c, f)? {
                    self.walk(then, f)
                } else {
                    self.walk(els, f)
                }
            }
            Stmt::Repeat(n, body) => {
                let n = self.eval(n, f)?;
                let n = self.int(&n, f.span)?;
                if n > MAX_LOOP as i64 {
                    return self.err(f.span, format!("repeat {n} times is more than {MAX_LOOP}"));
                }
                for _ in 0..n.max(0) {
                    self.tick(f.span)?;
                    self.walk(body, f)?;
                }
                Ok(())
            }
            Stmt::While(c, body) => {
                let mut n = 0u32;
                while self.truth(c, f)? {
                    n += 1;
                    if n > MAX_LOOP {
                        return self.err(
                            f.span,
                            format!("a `while` loop ran {MAX_LOOP} times (an endless loop?)"),
                        );
                    }
                    self.tick(f.span)?;
                    self.walk(body, f)?;
                }
                Ok(())
            }
            Stmt::For(slot, list, body) => {
                let list = self.eval(list, f)?;
                for item in self.items_copied(&list, f.span)?.iter() {
                    f.slots[*slot as usize] = item.clone();
                    self.tick(f.span)?;
                    self.walk(body, f)?;
                }
                Ok(())
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e, f)?,
                    None => Value::None,
                };
                Err(Flow::Return(v).into())
            }
        }
    }

    fn assign(
        &mut self,
        place: &Place,
        op: AssignOp,
        e: &Expr,
        span: Span,
        f: &mut Frame,
    ) -> Res<()> {
        f.span = span;
        let v = self.eval(e, f)?;
        match place {
            Place::Local(s) => {
                let s = *s as usize;
                f.slots[s] = self.combine(op, &f.slots[s], v, span)?;
                Ok(())
            }
            Place::Global(i) => {
                let old = Value::Int(self.st.globals[*i as usize]);
                let new = self.combine(op, &old, v, span)?;
                let new = self.int(&new, span)?;
                self.set_global(*i, new);
                Ok(())
            }
            Place::Field(base, field) => {
                let b = self.eval(base, f)?;
                let old = self.field(&b, field, f)?;
                let new = self.combine(op, &old, v, span)?;
                self.set_field(&b, field, new, f)
            }
        }
    }

    /// The value of `old op= v`.
    fn combine(&self, op: AssignOp, old: &Value, v: Value, span: Span) -> Res<Value> {
        match op {
            AssignOp::Set => Ok(v),
            _ => Ok(Value::Int(
                op.apply(self.int(old, span)?, self.int(&v, span)?),
            )),
        }
    }

    /// Code tested for truth.
    fn truth(&mut self, e: &Expr, f: &mut Frame) -> Res<bool> {
        Ok(self.eval(e, f)?.truthy())
    }

    /// `x is tag` (negated or not), failing at the test's `span`.
    fn is(&mut self, x: &Expr, tag: u16, negate: bool, span: Span, f: &mut Frame) -> Res<bool> {
        let tags = match self.eval(x, f)? {
            Value::Card(c) => self.st.tags(c),
            Value::Def(d) => f.data.defs[d as usize].tags,
            Value::None => 0,
            other => return self.err(span, format!("`is` needs a card, not {}", other.kind())),
        };
        Ok((tags & bit(tag) != 0) != negate)
    }

    /// The items of `list` for which `cond` holds, each bound in `slot`
    /// while tested (a zone's cards only if the viewer may see them); only
    /// the first of them if `first` ([`Expr::First`]).
    fn filter(
        &mut self,
        list: &Expr,
        slot: u16,
        cond: &Expr,
        first: bool,
        f: &mut Frame,
    ) -> Res<Vec<Value>> {
        let list = self.eval(list, f)?;
        let items: Vec<Value> = match list {
            Value::Zone(z) => {
                self.check_visible(z, f.span)?;
                let cards = self.cards_of(&list, f)?;
                // A step a card, as a list's items.
                self.charge(f.span, cards.len() as u64)?;
                cards.into_iter().map(Value::Card).collect()
            }
            _ => {
                self.visit(&list, f.span)?;
                self.items(&list, f.span)?.to_vec()
            }
        };
        let mut out = Vec::new();
        for item in items {
            f.slots[slot as usize] = item.clone();
            if self.truth(cond, f)? {
                out.push(item);
                if first {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// A `log` line's text, its cards kept (see [`Said`]).
    fn said(&mut self, e: &Expr, f: &mut Frame) -> Res<Said> {
        Ok(match e {
            Expr::Bin(BinOp::Add, a, b, span) => {
                let x = self.said(a, f)?;
                let y = self.said(b, f)?;
                self.said_add(x, y, *span)?
            }
            Expr::Field(x, field)
                if field.special == Some(Special::Name) && field.prop.is_none() =>
            {
                match self.eval(x, f)? {
                    Value::Card(c) => self.said_name(c),
                    b => Said::One(self.field(&b, field, f)?),
                }
            }
            _ => Said::One(self.eval(e, f)?),
        })
    }

    fn eval(&mut self, e: &Expr, f: &mut Frame) -> Res<Value> {
        Ok(match e {
            Expr::None => Value::None,
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Def(d) => Value::Def(*d),
            Expr::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i, f)?);
                }
                Value::list(out)
            }
            Expr::Local(s) => f.slots[*s as usize].clone(),
            Expr::This => f.this.map(Value::Card).unwrap_or(Value::None),
            Expr::Me => Value::Player(f.me),
            Expr::Active => Value::Player(self.st.active),
            Expr::Event => match self.st.events.len() {
                0 => Value::None,
                n => Value::Event(n - 1),
            },
            Expr::MoveName => match f.move_name {
                Some(m) => Value::text(f.data.moves[m as usize].name.as_str()),
                None => Value::None,
            },
            Expr::Global(i) => Value::Int(self.st.globals[*i as usize]),
            Expr::Zone(z, owner) => {
                let owner = match owner {
                    Some(o) => {
                        let o = self.eval(o, f)?;
                        self.player(&o, f.span)?
                    }
                    None => f.me,
                };
                // A shared zone has one instance (its owner, if named, must
                // still be a player).
                let owner = if self.st.shared(*z) { 0 } else { owner };
                Value::Zone(ZoneRef { zone: *z, owner })
            }
            Expr::Field(base, field) => {
                let b = self.eval(base, f)?;
                self.field(&b, field, f)?
            }
            Expr::Is(x, tag, negate, span) => Value::Bool(self.is(x, *tag, *negate, *span, f)?),
            Expr::Not(x) => Value::Bool(!self.truth(x, f)?),
            Expr::Neg(x) => {
                let v = self.eval(x, f)?;
                Value::Int(self.int(&v, f.span)?.saturating_neg())
            }
            Expr::And(a, b) => Value::Bool(self.truth(a, f)? && self.truth(b, f)?),
            Expr::Or(a, b) => Value::Bool(self.truth(a, f)? || self.truth(b, f)?),
            Expr::Bin(op, a, b, span) => {
                let x = self.eval(a, f)?;
                let y = self.eval(b, f)?;
                self.binop(*op, x, y, *span)?
            }
            Expr::Where(list, slot, cond) => Value::list(self.filter(list, *slot, cond, false, f)?),
            Expr::First(list, slot, cond) => Value::list(self.filter(list, *slot, cond, true, f)?),
            Expr::Sum(list, slot, body) => {
                let list = self.eval(list, f)?;
                self.visit(&list, f.span)?;
                let mut total = 0i64;
                for item in self.items(&list, f.span)?.iter() {
                    f.slots[*slot as usize] = item.clone();
                    let v = self.eval(body, f)?;
                    total = self.int(&v, f.span)?.saturating_add(total);
                }
                Value::Int(total)
            }
            Expr::Any(list, slot, cond) => {
                let list = self.eval(list, f)?;
                self.visit(&list, f.span)?;
                for item in self.items(&list, f.span)?.iter() {
                    f.slots[*slot as usize] = item.clone();
                    if self.truth(cond, f)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(false)
            }
            Expr::Call(b, args, span) => {
                let mut vals = Args::new();
                for a in args {
                    vals.push(self.eval(a, f)?);
                }
                f.span = *span;
                self.call(*b, vals, f)?
            }
            Expr::Verb(v, args, span) => {
                let mut vals = Args::new();
                for a in args {
                    vals.push(self.eval(a, f)?);
                }
                f.span = *span;
                let data = f.data;
                self.exec_in(data, &data.verbs[*v as usize], f.this, f.me, vals, None)
                    .map_err(|e| super::at_call(e, *span))?
            }
            Expr::Script(s, args, span) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a, f)?);
                }
                f.span = *span;
                super::script::call_fn(self, *s, vals, f.this, f.me, *span)?
            }
            // Scripts see the code's first slot as `target`.
            Expr::Rhai(id) => {
                let target = f.slots.first().cloned().unwrap_or_default();
                super::script::run_snippet(self, *id, f.this, f.me, target)?
            }
        })
    }
}
