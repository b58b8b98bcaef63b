//! The tree-walking interpreter for compiled effect code.

use std::sync::Arc;

use super::log::Entry;
use super::{Flow, Game, Res};
use crate::data::Data;
use crate::lang::ir::*;
use crate::value::{Args, ObjId, PlayerId, Value, ZoneRef};

/// Iterations a `while` loop may run before it is reported as endless.
const MAX_LOOP: u32 = 100_000;

/// The variables of one running piece of code, and the game data it runs in
/// (borrowed: no reference counting per call, shared by all threads).
pub struct Frame<'a> {
    pub data: &'a Data,
    pub this: Option<ObjId>,
    pub me: PlayerId,
    pub slots: Vec<Value>,
    pub span: Span,
    pub move_name: Option<u16>,
}

impl Game {
    /// Runs code with `this`, `me` and arguments bound; returns what it returns.
    pub fn exec_code(
        &mut self,
        code: &Code,
        this: Option<ObjId>,
        me: PlayerId,
        args: impl IntoIterator<Item = Value>,
    ) -> Res<Value> {
        self.exec_code_with(code, this, me, args, None)
    }

    pub fn exec_code_with(
        &mut self,
        code: &Code,
        this: Option<ObjId>,
        me: PlayerId,
        args: impl IntoIterator<Item = Value>,
        move_name: Option<u16>,
    ) -> Res<Value> {
        let data = self.data.clone();
        self.exec_in(&data, code, this, me, args, move_name)
    }

    /// [`Game::exec_code_with`] for a caller that holds the game data: the
    /// kernel's own paths, which must not touch the shared reference count.
    pub(crate) fn exec_in(
        &mut self,
        data: &Data,
        code: &Code,
        this: Option<ObjId>,
        me: PlayerId,
        args: impl IntoIterator<Item = Value>,
        move_name: Option<u16>,
    ) -> Res<Value> {
        self.tick(code.span)?;
        self.depth += 1;
        if self.depth > 200 {
            self.depth -= 1;
            return self.err(
                code.span,
                "effects nested more than 200 deep (a verb or trigger that calls itself?)",
            );
        }
        // Frames reuse their slot vectors: no allocation per call on the hot path.
        let mut slots = self.pool.pop().unwrap_or_default();
        slots.extend(args);
        let n = code.slots as usize;
        if slots.len() > n {
            slots.truncate(n);
        }
        while slots.len() < n {
            slots.push(Value::None);
        }
        let mut f = Frame {
            data,
            this,
            me,
            slots,
            span: code.span,
            move_name,
        };
        let saved = self.current_card;
        if let Some(c) = this {
            self.current_card = Some(self.st.objs[c as usize].def);
        }
        let r = match code.stmts.as_slice() {
            // Most code is one expression (conditions, picks, bot rules):
            // its value, without a statement and a `Return` unwinding.
            [Stmt::Return(Some(e))] => self.ev(e, &mut f),
            stmts => self.block(stmts, &mut f).map(|()| Value::None),
        };
        f.slots.clear();
        self.pool.push(f.slots);
        self.current_card = saved;
        self.depth -= 1;
        match r {
            Err(Flow::Return(v)) => Ok(v),
            r => r,
        }
    }

    pub fn block(&mut self, stmts: &[Stmt], f: &mut Frame) -> Res<()> {
        for s in stmts {
            self.stmt(s, f)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, f: &mut Frame) -> Res<()> {
        match s {
            Stmt::Expr(e) => {
                self.ev(e, f)?;
            }
            Stmt::Let(slot, e) => {
                let v = self.ev(e, f)?;
                f.slots[*slot as usize] = v;
            }
            Stmt::Assign(place, op, e, span) => {
                f.span = *span;
                let v = self.ev(e, f)?;
                self.assign(place, *op, v, f)?;
            }
            Stmt::If(c, a, b) => {
                if self.ev(c, f)?.truthy() {
                    self.block(a, f)?;
                } else {
                    self.block(b, f)?;
                }
            }
            Stmt::Repeat(n, body) => {
                let n = self.ev(n, f)?;
                let n = self.int(&n, f.span)?;
                if n > MAX_LOOP as i64 {
                    return self.err(f.span, format!("repeat {n} times is more than {MAX_LOOP}"));
                }
                for _ in 0..n.max(0) {
                    self.tick(f.span)?;
                    self.block(body, f)?;
                }
            }
            Stmt::While(cond, body) => {
                let mut n = 0u32;
                while self.ev(cond, f)?.truthy() {
                    n += 1;
                    if n > MAX_LOOP {
                        return self.err(
                            f.span,
                            format!("a `while` loop ran {MAX_LOOP} times (an endless loop?)"),
                        );
                    }
                    self.tick(f.span)?;
                    self.block(body, f)?;
                }
            }
            Stmt::For(slot, list, body) => {
                let list = self.ev(list, f)?;
                for item in self.items(&list, f.span)?.iter() {
                    f.slots[*slot as usize] = item.clone();
                    self.tick(f.span)?;
                    self.block(body, f)?;
                }
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.ev(e, f)?,
                    None => Value::None,
                };
                return Err(Flow::Return(v));
            }
        }
        Ok(())
    }

    fn assign(&mut self, place: &Place, op: AssignOp, v: Value, f: &mut Frame) -> Res<()> {
        let span = f.span;
        let combine = |g: &Game, old: &Value, v: Value| -> Res<Value> {
            match op {
                AssignOp::Set => Ok(v),
                AssignOp::Add => Ok(Value::Int(
                    g.int(old, span)?.saturating_add(g.int(&v, span)?),
                )),
                AssignOp::Sub => Ok(Value::Int(
                    g.int(old, span)?.saturating_sub(g.int(&v, span)?),
                )),
            }
        };
        match place {
            Place::Local(s) => {
                let new = combine(self, &f.slots[*s as usize], v)?;
                f.slots[*s as usize] = new;
            }
            Place::Global(g) => {
                let old = self.st.globals[*g as usize];
                let new = self.int(&combine(self, &Value::Int(old), v)?, f.span)?;
                self.st.globals[*g as usize] = new;
                if old != new {
                    self.push(Entry::Global {
                        counter: *g,
                        old,
                        new,
                    });
                }
            }
            Place::Field(base, field) => {
                let base = self.eval(base, f)?;
                let old = self.field(&base, field, f)?;
                let new = combine(self, &old, v)?;
                self.set_field(&base, field, new, f)?;
            }
        }
        Ok(())
    }

    pub fn set_field(&mut self, base: &Value, field: &Field, new: Value, f: &Frame) -> Res<()> {
        match (base, field) {
            (
                Value::Player(p),
                Field {
                    counter: Some(c), ..
                },
            ) => {
                let new = self.int(&new, f.span)?;
                let old = self.st.counter(*p, *c);
                *self.st.counter_mut(*p, *c) = new;
                if old != new {
                    self.push(Entry::Counter {
                        player: *p,
                        counter: *c,
                        old,
                        new,
                    });
                }
                Ok(())
            }
            (
                Value::Event(i),
                Field {
                    special: Some(Special::Amount),
                    ..
                },
            ) => {
                let new = self.int(&new, f.span)?;
                self.st.events[*i].amount = new;
                Ok(())
            }
            (
                Value::Event(i),
                Field {
                    special: Some(Special::To),
                    ..
                },
            ) => match new {
                Value::Zone(z) => {
                    self.st.events[*i].to = Some(z);
                    Ok(())
                }
                other => self.err(
                    f.span,
                    format!("event.to must be a zone, not {}", other.kind()),
                ),
            },
            (
                Value::Event(i),
                Field {
                    special: Some(Special::Target),
                    ..
                },
            ) => {
                self.st.events[*i].target = new;
                Ok(())
            }
            (b, _) => self.err(
                f.span,
                format!("cannot assign to this field of {}", b.kind()),
            ),
        }
    }

    /// The leaves of an expression tree (constants, locals, `me`, a zone of
    /// the running player), read in place: most operands are one of these, and
    /// the full [`Game::eval`] call costs more than reading them.
    #[inline(always)]
    fn leaf(&self, e: &Expr, f: &Frame) -> Option<Value> {
        Some(match e {
            Expr::Int(i) => Value::Int(*i),
            Expr::Local(s) => f.slots[*s as usize].clone(),
            Expr::Me => Value::Player(f.me),
            Expr::Def(d) => Value::Def(*d),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Zone(z, None) => Value::Zone(ZoneRef {
                zone: *z,
                owner: if self.st.shared(*z) { 0 } else { f.me },
            }),
            _ => return None,
        })
    }

    /// [`Game::eval`], with leaves read in place.
    #[inline(always)]
    fn ev(&mut self, e: &Expr, f: &mut Frame) -> Res<Value> {
        match self.leaf(e, f) {
            Some(v) => Ok(v),
            None => self.eval(e, f),
        }
    }

    /// An operand of a comparison or sum: a leaf, or a counter or property of
    /// one (a card's property compared with a player's counter), read in place.
    #[inline(always)]
    fn operand(&mut self, e: &Expr, f: &mut Frame) -> Res<Value> {
        if let Expr::Field(base, field) = e
            && let Some(b) = self.leaf(base, f)
        {
            match (&b, field.counter, field.prop) {
                (Value::Player(p), Some(c), _) => return Ok(Value::Int(self.st.counter(*p, c))),
                (Value::Card(c), _, Some(pr)) => {
                    return Ok(Value::Int(self.st.prop(&self.data, *c, pr)));
                }
                _ => return self.field(&b, field, f),
            }
        }
        self.ev(e, f)
    }

    pub fn eval(&mut self, e: &Expr, f: &mut Frame) -> Res<Value> {
        Ok(match e {
            Expr::None => Value::None,
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Def(d) => Value::Def(*d),
            Expr::List(_) => return self.eval_cold(e, f),
            Expr::Local(s) => f.slots[*s as usize].clone(),
            Expr::This => f.this.map(Value::Card).unwrap_or(Value::None),
            Expr::Me => Value::Player(f.me),
            Expr::Active => Value::Player(self.st.active),
            Expr::Event => match self.st.events.len() {
                0 => Value::None,
                n => Value::Event(n - 1),
            },
            Expr::MoveName => match f.move_name {
                Some(m) => Value::Str(Arc::from(self.data.moves[m as usize].name.as_str())),
                None => Value::None,
            },
            Expr::Global(g) => Value::Int(self.st.globals[*g as usize]),
            Expr::Zone(z, owner) => {
                let owner = match owner {
                    Some(o) => {
                        let o = self.ev(o, f)?;
                        self.player(&o, f.span)?
                    }
                    None => f.me,
                };
                Value::Zone(ZoneRef {
                    zone: *z,
                    owner: if self.st.shared(*z) { 0 } else { owner },
                })
            }
            Expr::Field(base, field) => {
                let b = self.ev(base, f)?;
                // A player's counter and a card's property: read in place.
                match (&b, field.counter, field.prop) {
                    (Value::Player(p), Some(c), _) => Value::Int(self.st.counter(*p, c)),
                    (Value::Card(c), _, Some(pr)) => Value::Int(self.st.prop(&self.data, *c, pr)),
                    _ => self.field(&b, field, f)?,
                }
            }
            Expr::Is(x, tag, negate) => {
                let v = self.ev(x, f)?;
                let tags = match v {
                    Value::Card(c) => self.st.tags(&self.data, c),
                    Value::Def(d) => self.data.defs[d as usize].tags,
                    Value::None => 0,
                    other => {
                        return self
                            .err(f.span, format!("`is` needs a card, not {}", other.kind()));
                    }
                };
                Value::Bool((tags & crate::value::bit(*tag) != 0) != *negate)
            }
            Expr::Not(x) => Value::Bool(!self.ev(x, f)?.truthy()),
            Expr::Neg(x) => {
                let v = self.ev(x, f)?;
                Value::Int(self.int(&v, f.span)?.saturating_neg())
            }
            Expr::And(a, b) => Value::Bool(self.ev(a, f)?.truthy() && self.ev(b, f)?.truthy()),
            Expr::Or(a, b) => Value::Bool(self.ev(a, f)?.truthy() || self.ev(b, f)?.truthy()),
            Expr::Bin(op, a, b, span) => {
                let a = self.operand(a, f)?;
                let b = self.operand(b, f)?;
                // Numbers compared or added: the common case, without the general path.
                if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
                    let (x, y) = (*x, *y);
                    match op {
                        BinOp::Lt => return Ok(Value::Bool(x < y)),
                        BinOp::Le => return Ok(Value::Bool(x <= y)),
                        BinOp::Gt => return Ok(Value::Bool(x > y)),
                        BinOp::Ge => return Ok(Value::Bool(x >= y)),
                        BinOp::Eq => return Ok(Value::Bool(x == y)),
                        BinOp::Ne => return Ok(Value::Bool(x != y)),
                        BinOp::Add => return Ok(Value::Int(x.saturating_add(y))),
                        BinOp::Sub => return Ok(Value::Int(x.saturating_sub(y))),
                        _ => {}
                    }
                }
                self.binop(*op, a, b, *span)?
            }
            Expr::Where(..) | Expr::Sum(..) | Expr::Any(..) => return self.eval_cold(e, f),
            Expr::Call(b, args, span) => {
                let mut vals = Args::new();
                for a in args {
                    vals.push(self.ev(a, f)?);
                }
                f.span = *span;
                self.call(*b, vals, f)?
            }
            Expr::Verb(..) | Expr::Script(..) | Expr::Rhai(_) => return self.eval_cold(e, f),
        })
    }

    /// The rarer, larger expressions, kept out of `eval` so its frame stays small.
    #[inline(never)]
    fn eval_cold(&mut self, e: &Expr, f: &mut Frame) -> Res<Value> {
        Ok(match e {
            Expr::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.ev(i, f)?);
                }
                Value::list(out)
            }
            Expr::Where(list, slot, cond) => {
                let list = self.ev(list, f)?;
                let mut out;
                if let Value::Zone(z) = list {
                    // Filter a zone's cards without building its list first.
                    self.check_visible(z, f.span)?;
                    let cards: crate::value::Cards = self.cards_of(&list, f)?;
                    out = Vec::new();
                    for (i, &c) in cards.iter().enumerate() {
                        f.slots[*slot as usize] = Value::Card(c);
                        if self.ev(cond, f)?.truthy() {
                            // One allocation, sized for the cards still to test.
                            if out.capacity() == 0 {
                                out.reserve_exact(cards.len() - i);
                            }
                            out.push(Value::Card(c));
                        }
                    }
                } else {
                    let items = self.items(&list, f.span)?;
                    out = Vec::new();
                    for (i, item) in items.iter().enumerate() {
                        f.slots[*slot as usize] = item.clone();
                        if self.ev(cond, f)?.truthy() {
                            if out.capacity() == 0 {
                                out.reserve_exact(items.len() - i);
                            }
                            out.push(item.clone());
                        }
                    }
                }
                Value::list(out)
            }
            Expr::Sum(list, slot, body) => {
                let list = self.ev(list, f)?;
                let mut total = 0;
                for item in self.items(&list, f.span)?.iter() {
                    f.slots[*slot as usize] = item.clone();
                    let v = self.ev(body, f)?;
                    total = self.int(&v, f.span)?.saturating_add(total);
                }
                Value::Int(total)
            }
            Expr::Any(list, slot, body) => {
                let list = self.ev(list, f)?;
                let mut found = false;
                for item in self.items(&list, f.span)?.iter() {
                    f.slots[*slot as usize] = item.clone();
                    if self.ev(body, f)?.truthy() {
                        found = true;
                        break;
                    }
                }
                Value::Bool(found)
            }
            Expr::Verb(v, args, span) => {
                let mut vals = Args::new();
                for a in args {
                    vals.push(self.ev(a, f)?);
                }
                f.span = *span;
                let data = f.data;
                self.exec_in(data, &data.verbs[*v as usize], f.this, f.me, vals, None)?
            }
            Expr::Script(s, args, span) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.ev(a, f)?);
                }
                f.span = *span;
                crate::script::call_fn(self, *s, vals, f.this, f.me, *span)?
            }
            Expr::Rhai(id) => {
                let target = f.slots.first().cloned().unwrap_or_default();
                crate::script::run_snippet(self, *id, f.this, f.me, target)?
            }
            _ => unreachable!("eval handles the other expressions"),
        })
    }

    pub fn int(&self, v: &Value, span: Span) -> Res<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            Value::None => Ok(0),
            other => self.err(span, format!("expected a number, found {}", other.kind())),
        }
    }

    pub fn player(&self, v: &Value, span: Span) -> Res<PlayerId> {
        match v {
            Value::Player(p) => Ok(*p),
            other => self.err(span, format!("expected a player, found {}", other.kind())),
        }
    }

    /// The items of a list-like value: a list, a zone's cards, one card.
    pub fn items(&self, v: &Value, span: Span) -> Res<Arc<Vec<Value>>> {
        Ok(match v {
            Value::List(l) => l.clone(),
            Value::Zone(z) => {
                self.check_visible(*z, span)?;
                let zi = &self.st.zones[self.st.inst(*z)];
                // Ordered zones list their top card first; pile rows keep their order.
                if zi.piles.is_empty() {
                    Arc::new(zi.cards.iter().rev().map(|&c| Value::Card(c)).collect())
                } else {
                    Arc::new(
                        zi.piles
                            .iter()
                            .filter_map(|(_, p)| p.last().map(|&c| Value::Card(c)))
                            .collect(),
                    )
                }
            }
            Value::None => Arc::new(Vec::new()),
            Value::Card(_) | Value::Player(_) | Value::Def(_) => Arc::new(vec![v.clone()]),
            other => return self.err(span, format!("expected a list, found {}", other.kind())),
        })
    }

    /// Bots decide from what their seat may see.
    pub fn check_visible(&self, z: ZoneRef, span: Span) -> Res<()> {
        if let Some(v) = self.viewer
            && !super::log::sees_contents(&self.data, z, Some(v))
        {
            return self.err(
                span,
                format!(
                    "{} is hidden from {}",
                    super::log::zone_label(&self.data, z),
                    super::log::pname(v)
                ),
            );
        }
        Ok(())
    }

    pub fn field(&self, base: &Value, field: &Field, f: &Frame) -> Res<Value> {
        let sp = field.special;
        Ok(match base {
            Value::Player(p) => match (field.counter, sp) {
                (Some(c), _) => Value::Int(self.st.counter(*p, c)),
                (_, Some(Special::Index)) => Value::Int(*p as i64 + 1),
                (_, Some(Special::Turns)) => Value::Int(self.st.turns_taken[*p as usize] as i64),
                (_, Some(Special::Name)) => Value::Str(Arc::from(super::log::pname(*p))),
                _ => return self.err(f.span, "players have counters, `index`, `turns` and `name`"),
            },
            Value::Card(c) => match (field.prop, sp) {
                (Some(pr), _) => Value::Int(self.st.prop(&self.data, *c, pr)),
                (_, Some(Special::Id)) => Value::Def(self.st.objs[*c as usize].def),
                (_, Some(Special::Name)) => {
                    Value::Str(Arc::from(self.data.def_name(self.st.objs[*c as usize].def)))
                }
                (_, Some(Special::Owner)) => Value::Player(self.st.objs[*c as usize].owner),
                (_, Some(Special::Zone)) => Value::Zone(self.st.zone_of(*c)),
                (_, Some(Special::Host)) => self.st.objs[*c as usize]
                    .host
                    .map(Value::Card)
                    .unwrap_or(Value::None),
                _ => {
                    return self.err(
                        f.span,
                        "cards have properties, `id`, `name`, `owner`, `zone` and `host`",
                    );
                }
            },
            Value::Def(d) => match (field.prop, sp) {
                (Some(pr), _) => Value::Int(self.data.defs[*d as usize].props[pr as usize]),
                (_, Some(Special::Id)) => Value::Def(*d),
                (_, Some(Special::Name)) => Value::Str(Arc::from(self.data.def_name(*d))),
                _ => return self.err(f.span, "card ids have properties, `id` and `name`"),
            },
            Value::Event(i) => {
                let e = &self.st.events[*i];
                match sp {
                    Some(Special::Card) => e.card.map(Value::Card).unwrap_or(Value::None),
                    Some(Special::Player) => e.player.map(Value::Player).unwrap_or(Value::None),
                    Some(Special::From) => e.from.map(Value::Zone).unwrap_or(Value::None),
                    Some(Special::To) => e.to.map(Value::Zone).unwrap_or(Value::None),
                    Some(Special::Amount) => Value::Int(e.amount),
                    Some(Special::Source) => e.source.map(Value::Card).unwrap_or(Value::None),
                    Some(Special::Target) => e.target.clone(),
                    Some(Special::Prevented) => Value::Bool(e.prevented),
                    Some(Special::Name) | Some(Special::Cause) => {
                        Value::Str(Arc::from(self.data.event_name(e.name)))
                    }
                    _ => {
                        return self.err(
                            f.span,
                            "events have card, player, from, to, amount, source, target, name",
                        );
                    }
                }
            }
            Value::None => Value::None,
            other => return self.err(f.span, format!("{} has no fields", other.kind())),
        })
    }

    fn binop(&self, op: BinOp, a: Value, b: Value, span: Span) -> Res<Value> {
        use BinOp::*;
        Ok(match op {
            Eq => Value::Bool(self.equal(&a, &b)),
            Ne => Value::Bool(!self.equal(&a, &b)),
            Add => match (&a, &b) {
                (Value::List(_) | Value::Zone(_), Value::List(_) | Value::Zone(_)) => {
                    let (x, y) = (self.items(&a, span)?, self.items(&b, span)?);
                    if x.len() + y.len() > super::MAX_LIST {
                        return self.err(
                            span,
                            format!("a list of more than {} items", super::MAX_LIST),
                        );
                    }
                    Value::list(x.iter().chain(y.iter()).cloned().collect())
                }
                (Value::Str(_), _) | (_, Value::Str(_)) => {
                    let s = format!("{}{}", self.show(&a), self.show(&b));
                    if s.len() > super::MAX_LIST {
                        return self.err(
                            span,
                            format!("a string of more than {} bytes", super::MAX_LIST),
                        );
                    }
                    Value::Str(Arc::from(s))
                }
                _ => Value::Int(self.int(&a, span)?.saturating_add(self.int(&b, span)?)),
            },
            _ => {
                let (x, y) = (self.int(&a, span)?, self.int(&b, span)?);
                match op {
                    Sub => Value::Int(x.saturating_sub(y)),
                    Mul => Value::Int(x.saturating_mul(y)),
                    Div | Rem if y == 0 => return self.err(span, "division by zero"),
                    // i64::MIN / -1 is the one quotient that does not fit: saturate.
                    Div => Value::Int(x.checked_div_euclid(y).unwrap_or(i64::MAX)),
                    Rem => Value::Int(x.checked_rem_euclid(y).unwrap_or(0)),
                    Lt => Value::Bool(x < y),
                    Le => Value::Bool(x <= y),
                    Gt => Value::Bool(x > y),
                    _ => Value::Bool(x >= y),
                }
            }
        })
    }

    pub fn equal(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::None, Value::None) => true,
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Card(x), Value::Card(y)) => x == y,
            (Value::Def(x), Value::Def(y)) => x == y,
            (Value::Card(c), Value::Def(d)) | (Value::Def(d), Value::Card(c)) => {
                self.st.objs[*c as usize].def == *d
            }
            (Value::Player(x), Value::Player(y)) => x == y,
            (Value::Zone(x), Value::Zone(y)) => x == y,
            (Value::List(x), Value::List(y)) => {
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| self.equal(a, b))
            }
            _ => false,
        }
    }

    /// A value as transcript text.
    pub fn show(&self, v: &Value) -> String {
        match v {
            Value::None => "none".into(),
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Str(s) => s.to_string(),
            Value::Card(c) => self
                .data
                .def_name(self.st.objs[*c as usize].def)
                .to_string(),
            Value::Def(d) => self.data.def_name(*d).to_string(),
            Value::Player(p) => super::log::pname(*p),
            Value::Zone(z) => super::log::zone_label(&self.data, *z),
            Value::Event(i) => self.data.event_name(self.st.events[*i].name).to_string(),
            Value::List(l) => l
                .iter()
                .map(|v| self.show(v))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
