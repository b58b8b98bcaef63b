//! Expressions: conditions typed as truth values, values, fields, zones,
//! filters, the pile tests of an end condition, and builtin calls.

use super::*;
use crate::engine::ops::{Op, op_of};

impl Compiler<'_> {
    /// Code whose value is tested for truth.
    pub(super) fn cond(&self, e: &Expr) -> CondFn {
        if let Some((s, mask)) = tag_any(e) {
            let span = first_is(e);
            let s = self.slot(s);
            return Box::new(move |g, f| Ok(tags_of(g, &f.slots[s], f, span)? & mask != 0));
        }
        if let Some(c) = self.known_cond(e) {
            return c;
        }
        match e {
            Expr::Bool(b) => {
                let b = *b;
                Box::new(move |_, _| Ok(b))
            }
            Expr::Is(x, tag, negate, span) => {
                let (mask, negate, span) = (bit(*tag), *negate, *span);
                if let Expr::Local(s) = **x {
                    let s = self.slot(s);
                    return Box::new(move |g, f| {
                        let tags = tags_of(g, &f.slots[s], f, span)?;
                        Ok((tags & mask != 0) != negate)
                    });
                }
                let x = self.val(x);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    Ok((tags_of(g, &v, f, span)? & mask != 0) != negate)
                })
            }
            Expr::Call(Builtin::Empty, a, span)
                if let Some(c) = self.empty_cond(a, *span, false) =>
            {
                c
            }
            Expr::Not(x)
                if let Expr::Call(Builtin::Empty, a, span) = &**x
                    && let Some(c) = self.empty_cond(a, *span, true) =>
            {
                c
            }
            Expr::Not(x) => {
                let x = self.cond(x);
                Box::new(move |g, f| Ok(!x(g, f)?))
            }
            Expr::And(..) => {
                let mut parts = Vec::new();
                conjuncts(e, &mut parts);
                self.all(&parts)
            }
            Expr::Or(a, b) => {
                if let Some(c) = self.pile_or(a, b) {
                    return c;
                }
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(a(g, f)? || b(g, f)?))
            }
            Expr::Bin(op, a, b, span) if let Some(cmp) = CmpOp::of(*op) => {
                let (op, span) = (*op, *span);
                // `empty_piles(zone) >= n`: counted and compared in one step.
                if let Some((Expr::Call(Builtin::EmptyPiles, args, at), cmp, y)) = vs_const(e)
                    && let [z] = args.as_slice()
                {
                    let (z, at) = (self.zone_op(z), *at);
                    return Box::new(move |g, f| {
                        let z = z.zone(g, f, at)?;
                        Ok(cmp.holds(g.empty_piles(z), y))
                    });
                }
                if let Some((a, cmp, b)) = self.num_cmp(e) {
                    return Box::new(move |g, f| Ok(cmp.holds(a.get(g, f)?, b.get(g, f)?)));
                }
                if let Some(c) = self.field_cmp(op, a, b, span) {
                    return c;
                }
                if let Some(c) = self.name_cmp(op, a, b) {
                    return c;
                }
                if let Some(c) = self.zone_cmp(op, a, b, span) {
                    return c;
                }
                if let Some(c) = Self::constant_cmp(op, a, b) {
                    return c;
                }
                if let Some(c) = self.near_cmp(e) {
                    return c;
                }
                let compared = || self.compared(op, cmp, a, b, span);
                self.arith_cmp(cmp, a, b, compared).unwrap_or_else(compared)
            }
            Expr::Any(list, slot, body) => {
                if let Expr::Call(Builtin::Piles, a, span) = &**list
                    && let [zone] = a.as_slice()
                {
                    return self.any_pile(zone, *span, *slot, body);
                }
                if let Some(c) = self.any_in_place(list, *slot, body) {
                    return c;
                }
                let (list, slot, body) = (self.val(list), self.slot(*slot), self.cond(body));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    g.visit(&list, f.span)?;
                    for item in g.items(&list, f.span)?.iter() {
                        f.slots[slot] = item.clone();
                        if body(g, f)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                })
            }
            Expr::Verb(v, args, span) => match self.inline::<KeepTruth>(*v, args, *span) {
                Some(call) => call,
                None => {
                    let v = self.val(e);
                    Box::new(move |g, f| Ok(v(g, f)?.truthy()))
                }
            },
            // `if x`: the local tested in its slot, no copy made.
            Expr::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |_, f| Ok(f.slots[s].truthy()))
            }
            _ => {
                let v = self.val(e);
                Box::new(move |g, f| Ok(v(g, f)?.truthy()))
            }
        }
    }

    /// `a <cmp> b` of two values made by their code; a local or a
    /// constant on the right is compared where it lies (no copy made,
    /// none dropped): `run(c, 1) == false`, `at(l, i) == c`.
    fn compared(&self, op: BinOp, cmp: CmpOp, a: &Expr, b: &Expr, span: Span) -> CondFn {
        let t = Test { op, cmp, span };
        match (a, b) {
            // The local read after the code, as the reference reads it.
            (x, Expr::Local(s)) => {
                let (x, s) = (self.val(x), self.slot(*s));
                return Box::new(move |g, f| {
                    let x = x(g, f)?;
                    t.holds(g, &x, &f.slots[s])
                });
            }
            (x, y) if let Some(y) = constant(y) => {
                let x = self.val(x);
                return Box::new(move |g, f| {
                    let x = x(g, f)?;
                    t.holds(g, &x, &y)
                });
            }
            _ => {}
        }
        let (a, b) = (self.val(a), self.val(b));
        Box::new(move |g, f| {
            let x = a(g, f)?;
            let y = b(g, f)?;
            t.holds(g, &x, &y)
        })
    }

    /// `x.zone == z` or `!=` (either way round) of a local's card and a
    /// zone found in place (`it.zone == set(me)`): the card's zone and the
    /// zone compared, no value made for either. Reading a card's zone
    /// cannot fail, so only the zone's owner can, as it would; a local
    /// holding anything but a card runs as compiled.
    fn zone_cmp(&self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Option<CondFn> {
        let cmp = CmpOp::of(op).filter(|_| matches!(op, BinOp::Eq | BinOp::Ne))?;
        let zone_of = |e: &Expr| match e {
            Expr::Field(x, fl)
                if fl.special == Some(Special::Zone)
                    && fl.prop.is_none()
                    && fl.counter.is_none() =>
            {
                match **x {
                    Expr::Local(s) => Some(s),
                    _ => None,
                }
            }
            _ => None,
        };
        let (s, z) = match (zone_of(a), zone_of(b)) {
            (Some(s), _) => (s, b),
            (_, Some(s)) => (s, a),
            _ => return None,
        };
        let (s, eq) = (self.slot(s), op == BinOp::Eq);
        // A player's zone of a local card's owner (`under(c.owner)`): the
        // owner read in place too, where the local holds a card.
        if let Expr::Zone(z, Some(o)) = z
            && let Expr::Field(x, fl) = &**o
            && let Expr::Local(t) = **x
            && (fl.special, fl.prop, fl.counter) == (Some(Special::Owner), None, None)
            && !self.data.zones[*z as usize].shared
        {
            let (zone, t) = (*z, self.slot(t));
            let compared = self.compared(op, cmp, a, b, span);
            return Some(Box::new(move |g, f| match (&f.slots[s], &f.slots[t]) {
                (Value::Card(c), Value::Card(h)) => {
                    let owner = g.st.objs[*h as usize].owner;
                    Ok((g.st.zone_of(*c) == ZoneRef { zone, owner }) == eq)
                }
                _ => compared(g, f),
            }));
        }
        let z = self.zone_at(z)?;
        let compared = self.compared(op, cmp, a, b, span);
        Some(Box::new(move |g, f| match f.slots[s] {
            Value::Card(c) => Ok((g.st.zone_of(c) == z.get(g, f)?) == eq),
            _ => compared(g, f),
        }))
    }

    /// `empty(x)` (`not empty(x)` if `negate`) tested for its truth, as
    /// [`Compiler::call`] finds its value: a filter's first item, a verb's
    /// returns counted, a zone's size; no value made and tested after.
    fn empty_cond(&self, args: &[Expr], span: Span, negate: bool) -> Option<CondFn> {
        let [x] = args else { return None };
        // Shapes the call decides its own way (a zone's cards tested in
        // place): its value tested here.
        let b = Builtin::Empty;
        if let Some(v) = (self.known_call(b, args, span)).or_else(|| self.board_read(b, args, span))
        {
            return Some(Box::new(move |g, f| Ok(v(g, f)?.truthy() != negate)));
        }
        match x {
            Expr::First(list, slot, cond) => {
                let fl = self.filter_of(list, *slot, cond);
                Some(Box::new(move |g, f| {
                    let found = fl.found(g, f)?;
                    f.span = span;
                    Ok(found == negate)
                }))
            }
            Expr::Verb(v, a, at) => {
                let c = self.counted_verb(Builtin::Empty, *v, a, *at, span)?;
                Some(Box::new(move |g, f| Ok(c(g, f)?.truthy() != negate)))
            }
            z => {
                let z = self.zone_at(z)?;
                Some(Box::new(move |g, f| {
                    let z = z.get(g, f)?;
                    f.span = span;
                    Ok((g.zone_size(z, span)? == 0) != negate)
                }))
            }
        }
    }

    /// `a == b` or `!=` of two constants (a verb's parameter given one):
    /// decided here, as [`Game::equal`] decides it; no step is taken.
    fn constant_cmp(op: BinOp, a: &Expr, b: &Expr) -> Option<CondFn> {
        let same = match (constant(a)?, constant(b)?) {
            (Value::None, Value::None) => true,
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Def(x), Value::Def(y)) => x == y,
            _ => false,
        };
        let holds = match op {
            BinOp::Eq => same,
            BinOp::Ne => !same,
            _ => return None,
        };
        Some(Box::new(move |_, _| Ok(holds)))
    }

    /// The condition of an expression [`Compiler::val`] compiles as
    /// `Bool` of that condition (the same closure, unwrapped).
    pub(super) fn truth(&self, e: &Expr) -> Option<CondFn> {
        match e {
            // As `val` compiles them, unwrapped (an end check is often a
            // conjunction or an alternative of conditions).
            Expr::And(a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                Some(Box::new(move |g, f| Ok(a(g, f)? && b(g, f)?)))
            }
            Expr::Or(a, b) if tag_any(e).is_none() => {
                Some(self.pile_or(a, b).unwrap_or_else(|| {
                    let (a, b) = (self.cond(a), self.cond(b));
                    Box::new(move |g, f| Ok(a(g, f)? || b(g, f)?))
                }))
            }
            Expr::Is(..)
            | Expr::Not(_)
            | Expr::Or(..)
            | Expr::Any(..)
            | Expr::Bin(
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                ..,
            ) => Some(self.cond(e)),
            _ => None,
        }
    }

    /// Code that computes a value.
    pub(super) fn val(&self, e: &Expr) -> ValFn {
        match e {
            Expr::None => Box::new(|_, _| Ok(Value::None)),
            Expr::Int(i) => {
                let i = *i;
                Box::new(move |_, _| Ok(Value::Int(i)))
            }
            Expr::Bool(b) => {
                let b = *b;
                Box::new(move |_, _| Ok(Value::Bool(b)))
            }
            Expr::Str(s) => {
                let s = s.clone();
                Box::new(move |_, _| Ok(Value::Str(s.clone())))
            }
            Expr::Def(d) => {
                let d = *d;
                Box::new(move |_, _| Ok(Value::Def(d)))
            }
            // A list written out of constants is made once, then shared
            // (nothing grows a shared list in place).
            Expr::List(items)
                if !items.is_empty()
                    && let Some(list) = constant_list(items) =>
            {
                Box::new(move |_, _| Ok(list.clone()))
            }
            Expr::List(items) => {
                let items = self.vals(items);
                Box::new(move |g, f| {
                    let mut out = Vec::with_capacity(items.len());
                    for i in items.iter() {
                        out.push(i(g, f)?);
                    }
                    Ok(Value::list(out))
                })
            }
            Expr::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |_, f| Ok(f.slots[s].clone()))
            }
            Expr::This => Box::new(|_, f| Ok(f.this.map(Value::Card).unwrap_or(Value::None))),
            Expr::Me => Box::new(|_, f| Ok(Value::Player(f.me))),
            Expr::Active => Box::new(|g, _| Ok(Value::Player(g.st.active))),
            Expr::Event => Box::new(|g, _| {
                Ok(match g.st.events.len() {
                    0 => Value::None,
                    n => Value::Event(n - 1),
                })
            }),
            Expr::MoveName => Box::new(|_, f| {
                Ok(match f.move_name {
                    Some(m) => Value::text(f.data.moves[m as usize].name.as_str()),
                    None => Value::None,
                })
            }),
            Expr::Global(i) => {
                let i = *i as usize;
                Box::new(move |g, _| Ok(Value::Int(g.st.globals[i])))
            }
            Expr::Zone(z, owner) => self.zone(*z, owner.as_deref()),
            Expr::Field(base, field) => self.field(base, *field),
            Expr::And(a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(Value::Bool(a(g, f)? && b(g, f)?)))
            }
            Expr::Or(a, b) if tag_any(e).is_none() => {
                if let Some(c) = self.pile_or(a, b) {
                    return Box::new(move |g, f| c(g, f).map(Value::Bool));
                }
                let (a, b) = (self.cond(a), self.cond(b));
                Box::new(move |g, f| Ok(Value::Bool(a(g, f)? || b(g, f)?)))
            }
            // The kinds `truth` lists (a body of one of them keeps its
            // condition unwrapped): change both lists together.
            Expr::Is(..)
            | Expr::Not(_)
            | Expr::Or(..)
            | Expr::Any(..)
            | Expr::Bin(
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                ..,
            ) => {
                let c = self.cond(e);
                Box::new(move |g, f| c(g, f).map(Value::Bool))
            }
            Expr::Neg(x) => {
                let x = self.val(x);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    Ok(Value::Int(g.int(&v, f.span)?.saturating_neg()))
                })
            }
            // A sum of zones: its list made once, not grown by each `+`.
            Expr::Bin(BinOp::Add, ..) if let Some(sum) = self.zone_sum(e) => {
                Box::new(move |g, f| sum.list(g, f))
            }
            Expr::Bin(op, a, b, span) => {
                let (op, span, a, b) = (*op, *span, self.val(a), self.val(b));
                let generic: ValFn = Box::new(move |g, f| {
                    let x = a(g, f)?;
                    let y = b(g, f)?;
                    if let (Value::Int(x), Value::Int(y)) = (&x, &y)
                        && let Some(v) = int_op(op, *x, *y)
                    {
                        return Ok(v);
                    }
                    g.binop(op, x, y, span)
                });
                self.arith_val(e, generic)
            }
            Expr::Where(list, slot, cond) => self.filter(list, *slot, cond),
            Expr::First(list, slot, cond) => self.first(list, *slot, cond),
            Expr::Sum(list, slot, body) => {
                let mut zones = Vec::new();
                let prop = match &**body {
                    Expr::Field(x, field) if matches!(**x, Expr::Local(s) if s == *slot) => {
                        field.prop
                    }
                    _ => None,
                };
                let in_zones = prop.is_some() && self.zone_leaves(list, &mut zones);
                let (list, slot, body) = (self.val(list), self.slot(*slot), self.val(body));
                let generic: ValFn = Box::new(move |g, f| {
                    let list = list(g, f)?;
                    g.visit(&list, f.span)?;
                    let mut total = 0i64;
                    let items = g.items(&list, f.span)?;
                    for item in items.iter() {
                        let v = match (prop, item) {
                            // `it.prop` of a card, read as the body reads it.
                            (Some(pr), Value::Card(c)) => g.st.prop(f.data, *c, pr),
                            _ => {
                                f.slots[slot] = item.clone();
                                let v = body(g, f)?;
                                g.int(&v, f.span)?
                            }
                        };
                        total = v.saturating_add(total);
                    }
                    // `it` left holding the last item, as the body leaves it.
                    if let Some(last) = items.last().filter(|_| prop.is_some()) {
                        f.slots[slot] = last.clone();
                    }
                    Ok(Value::Int(total))
                });
                match prop {
                    Some(pr) if in_zones => sum_prop(zones.into_boxed_slice(), pr, generic),
                    _ => generic,
                }
            }
            Expr::Call(b, args, span) => self.call(*b, args, *span),
            Expr::Verb(v, args, span) => {
                if let Some(call) = self.inline::<KeepValue>(*v, args, *span) {
                    return call;
                }
                // A verb not inlined (one calling itself, or nested deep).
                let (v, span, args) = (*v as usize, *span, self.vals(args));
                Box::new(move |g, f| {
                    let mut vals = Args::new();
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    let data = f.data;
                    g.exec_in(data, &data.verbs[v], f.this, f.me, vals, None)
                        .map_err(|e| crate::engine::at_call(e, span))
                })
            }
            Expr::Script(s, args, span) => {
                let (s, span, args) = (*s, *span, self.vals(args));
                Box::new(move |g, f| {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    crate::engine::script::call_fn(g, s, vals, f.this, f.me, span)
                })
            }
            Expr::Rhai(id) => {
                // Scripts see the code's first slot as `target`.
                let (id, first) = (*id, (self.size > 0).then_some(self.base as usize));
                Box::new(move |g, f| {
                    let target = first.map(|s| f.slots[s].clone()).unwrap_or_default();
                    crate::engine::script::run_snippet(g, id, f.this, f.me, target)
                })
            }
        }
    }

    pub(super) fn zone(&self, z: u16, owner: Option<&Expr>) -> ValFn {
        if self.shared(z) {
            // A shared zone has one instance; its owner expression (if any) is
            // still evaluated, and must be a player.
            let zone = Value::Zone(ZoneRef { zone: z, owner: 0 });
            return match owner {
                None => Box::new(move |_, _| Ok(zone.clone())),
                Some(o) => {
                    let o = self.val(o);
                    Box::new(move |g, f| {
                        let o = o(g, f)?;
                        g.player(&o, f.span)?;
                        Ok(zone.clone())
                    })
                }
            };
        }
        match owner {
            None => Box::new(move |_, f| {
                Ok(Value::Zone(ZoneRef {
                    zone: z,
                    owner: f.me,
                }))
            }),
            // `deck(p)`: the player read from its slot in place.
            Some(Expr::Local(s)) => {
                let s = self.slot(*s);
                Box::new(move |g, f| {
                    let owner = g.player(&f.slots[s], f.span)?;
                    Ok(Value::Zone(ZoneRef { zone: z, owner }))
                })
            }
            Some(o) => {
                let o = self.val(o);
                Box::new(move |g, f| {
                    let o = o(g, f)?;
                    let owner = g.player(&o, f.span)?;
                    Ok(Value::Zone(ZoneRef { zone: z, owner }))
                })
            }
        }
    }

    pub(super) fn field(&self, base: &Expr, field: Field) -> ValFn {
        match (base, field.counter, field.prop) {
            (Expr::Me, Some(c), _) => Box::new(move |g, f| Ok(Value::Int(g.st.counter(f.me, c)))),
            // A local card's owner, host, zone or name: read in place, the
            // other kinds of value through [`Game::field`].
            (Expr::Local(s), None, None)
                if let Some(
                    sp @ (Special::Owner | Special::Host | Special::Zone | Special::Name),
                ) = field.special =>
            {
                let s = self.slot(*s);
                Box::new(move |g, f| {
                    if let Value::Card(c) = f.slots[s]
                        && let Some(v) = g.card_special(c, sp)
                    {
                        return Ok(v);
                    }
                    g.field(&f.slots[s], &field, f)
                })
            }
            (Expr::Local(s), ..) => {
                let s = self.slot(*s);
                Box::new(move |g, f| read_field(g, &f.slots[s], &field, f))
            }
            _ => {
                if let Some(v) = self.near_field(base, &field).and_then(Self::near_value) {
                    return v;
                }
                let base = self.val(base);
                Box::new(move |g, f| {
                    let b = base(g, f)?;
                    read_field(g, &b, &field, f)
                })
            }
        }
    }

    /// `any(piles(zone), cond)`: the pile ids read in place, no list made. A
    /// test of `it`'s tags first (`it is a and ...`) reads the definition in
    /// place; the rest runs only for the piles that pass it, and a rest of
    /// the shape `pile_count(zone, it) < n` reads the pile's size in place.
    pub(super) fn any_pile(&self, zone: &Expr, span: Span, slot: u16, body: &Expr) -> CondFn {
        let (mask, body) = match body {
            Expr::And(a, b) => match tag_any(a) {
                Some((s, m)) if s == slot => (Some(m), &**b),
                _ => (None, body),
            },
            _ => (None, body),
        };
        // `pile_count(zone, it) < n`.
        let rest = match body {
            e if let Some((x, op, k)) = vs_const(e) => match x {
                Expr::Call(Builtin::PileCount, args, at) => match args.as_slice() {
                    [Expr::Zone(z, None), Expr::Local(s)] if *s == slot => {
                        Some((*z, self.shared(*z), op, k, *at))
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        // `pile_count` of the zone iterated reads the pile at hand: a zone
        // holds one pile per definition.
        let same = matches!((zone, &rest), (Expr::Zone(z, None), Some((y, ..))) if z == y);
        let rest = match rest {
            Some((zone, shared, op, k, at)) => PileTest::Count(zone, shared, op, k, at),
            None => PileTest::Code(self.cond(body)),
        };
        // Which definitions pass the tag test, found once.
        let pass: Box<[bool]> = (self.data.defs.iter())
            .map(|d| mask.is_none_or(|m| d.tags & m != 0))
            .collect();
        let (zone, slot) = (self.zone_op(zone), self.slot(slot));
        Box::new(move |g, f| {
            let z = zone.zone(g, f, span)?;
            let inst = g.st.inst(z);
            // Charged as the list `piles` makes is when made and walked.
            let n = g.st.zones[inst].piles.len();
            g.charge_passed(span, n)?;
            g.charge(span, n as u64)?;
            if let PileTest::Count(zone, shared, op, y, at) = rest {
                for (d, p) in &g.st.zones[inst].piles {
                    if !pass[*d as usize] {
                        continue;
                    }
                    f.span = at;
                    let len = if same {
                        p.len()
                    } else {
                        let owner = if shared { 0 } else { f.me };
                        g.pile_of(ZoneRef { zone, owner }, *d).len()
                    };
                    if op.holds(len as i64, y) {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            // Piles are only ever added: the first `n` are the ones listed now.
            let n = g.st.zones[inst].piles.len();
            for i in 0..n {
                let d = g.st.zones[inst].piles[i].0;
                if !pass[d as usize] {
                    continue;
                }
                if let PileTest::Code(ref body) = rest {
                    f.slots[slot] = Value::Def(d);
                    if body(g, f)? {
                        return Ok(true);
                    }
                }
            }
            Ok(false)
        })
    }

    /// `empty_piles(z) <op> n or any(piles(z), <tag test> and pile_count(z,
    /// it) <op> k)` of one zone named without an owner: the empty piles are
    /// counted by the moves, the piles walked once, charged as the list
    /// `piles` makes is when made and walked. The span left is the one the
    /// two scans would leave (the `pile_count` call's once a pile passed the
    /// tag test).
    pub(super) fn pile_or(&self, a: &Expr, b: &Expr) -> Option<CondFn> {
        let shape = pile_or(a, b)?;
        let ((cmp, n), mask, (op, k)) = (shape.empty, shape.mask, shape.count);
        let (at_empty, at_piles, at) = (shape.at_empty, shape.at_piles, shape.at_count);
        let ZoneOp::At(zone) = self.zone_op(shape.zone_arg) else {
            return None;
        };
        let pass: Box<[bool]> = (self.data.defs.iter())
            .map(|d| d.tags & mask != 0)
            .collect();
        // The same, a bit per definition.
        let mut pass_bits = vec![0u64; pass.len().div_ceil(64)];
        for (d, _) in pass.iter().enumerate().filter(|p| *p.1) {
            pass_bits[d / 64] |= 1 << (d % 64);
        }
        let only_empty = shape.only_empty();
        Some(Box::new(move |g, f| {
            let z = zone.get(g, f)?;
            let inst = g.st.inst(z);
            let zi = &g.st.zones[inst];
            if cmp.holds(zi.nempty as i64, n) {
                f.span = at_empty;
                return Ok(true);
            }
            let piles = zi.piles.len();
            g.charge_passed(at_piles, piles)?;
            g.charge(at_piles, piles as u64)?;
            let zi = &g.st.zones[inst];
            if only_empty && piles <= 64 {
                debug_assert_eq!(zi.nempty, zi.empty_bits().count_ones());
                debug_assert_eq!(
                    zi.empty_bits(),
                    (zi.piles.iter().enumerate())
                        .fold(0, |m, (i, (_, p))| m | (p.is_empty() as u64) << i)
                );
                let mut bits = zi.empty_bits();
                while bits != 0 {
                    if pass[zi.piles[bits.trailing_zeros() as usize].0 as usize] {
                        f.span = at;
                        return Ok(true);
                    }
                    bits &= bits - 1;
                }
                let seen = (zi.pile_defs.iter().zip(&pass_bits)).any(|(a, b)| a & b != 0);
                f.span = if seen { at } else { at_piles };
                return Ok(false);
            }
            let (mut seen, mut hit) = (false, false);
            for (d, p) in &zi.piles {
                if pass[*d as usize] {
                    seen = true;
                    hit |= op.holds(p.len() as i64, k);
                }
            }
            f.span = if seen { at } else { at_piles };
            Ok(hit)
        }))
    }

    /// `x.field < n` (any order test) of a local's card property or
    /// player counter against a number found in place: the field read
    /// from the slot, no value made. As `binop` orders it: the field read,
    /// then the number, then the field converted (a field that is not a
    /// number converts, or fails, only after the number is read).
    fn field_cmp(&self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Option<CondFn> {
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            return None;
        }
        let (Expr::Field(x, field), cmp) = (a, CmpOp::of(op)?) else {
            return None;
        };
        let (Expr::Local(s), field) = (&**x, *field) else {
            return None;
        };
        let (s, y) = (self.slot(*s), self.int(b)?);
        Some(Box::new(move |g, f| {
            let x = match (&f.slots[s], field.counter, field.prop) {
                (Value::Player(p), Some(c), _) => g.st.counter(*p, c),
                (Value::Card(c), _, Some(pr)) => g.st.prop(f.data, *c, pr),
                _ => {
                    return field_cmp_read(g, f, s, &field, &y, span).map(|(x, y)| cmp.holds(x, y));
                }
            };
            Ok(cmp.holds(x, y.get(g, f)?))
        }))
    }

    /// `any(list, cond)` of a zone or a sum of zones, or of `players()` or
    /// `others()`: the cards or players read in place, no list made.
    fn any_in_place(&self, list: &Expr, slot: u16, body: &Expr) -> Option<CondFn> {
        if let Expr::Zone(..) = list {
            let (zone, test, slot) = (self.val(list), self.item_test(slot, body), self.slot(slot));
            // A test that only reads the game reads the cards where they lie.
            let pure = self.reads_only(body, &mut Vec::new());
            return Some(Box::new(move |g, f| {
                // As `items` reads a zone: checked at the current span,
                // its cards in the order it lists them.
                let z = match zone(g, f)? {
                    Value::Zone(z) => z,
                    other => {
                        g.visit(&other, f.span)?;
                        for item in g.items(&other, f.span)?.iter() {
                            f.slots[slot] = item.clone();
                            if test.any(g, f)? {
                                return Ok(true);
                            }
                        }
                        return Ok(false);
                    }
                };
                // Charged, then checked, as `visit` and `items` do.
                let inst = g.st.inst(z);
                g.charge(f.span, g.st.listed_inst(inst) as u64)?;
                g.check_visible(z, f.span)?;
                if pure && g.st.zones[inst].piles.is_empty() {
                    return Ok(test.first_in_place(g, f, slot, inst)?.is_some());
                }
                let mut cards = Listed::new();
                zone_cards(g, z, &mut cards);
                for &c in cards.as_slice() {
                    if test.card(g, f, slot, c)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }));
        }
        if let Some(sum) = self.zone_sum(list) {
            let (test, slot) = (self.item_test(slot, body), self.slot(slot));
            return Some(Box::new(move |g, f| {
                let mut cards = Listed::new();
                sum.cards(g, f, &mut cards)?;
                g.charge(f.span, cards.len() as u64)?;
                for &c in cards.as_slice() {
                    if test.card(g, f, slot, c)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }));
        }
        let Expr::Call(b @ (Builtin::Players | Builtin::Others), args, span) = list else {
            return None;
        };
        if !args.is_empty() {
            return None;
        }
        let (all, span) = (*b == Builtin::Players, *span);
        let (body, slot) = (self.cond(body), self.slot(slot));
        Some(Box::new(move |g, f| {
            f.span = span;
            let from = if all { g.st.active } else { f.me };
            // Charged as the list `players()` makes is when walked.
            let (ps, len) = players_from(g, from, all);
            g.charge(span, len)?;
            let n = g.st.nplayers as usize;
            for (w, mut bits) in ps.into_iter().enumerate().take(n.div_ceil(64)) {
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    f.slots[slot] = Value::Player(((from as usize + i) % n) as PlayerId);
                    if body(g, f)? {
                        return Ok(true);
                    }
                }
            }
            Ok(false)
        }))
    }

    /// A kernel operation. The ones every turn runs many times (count, top,
    /// move, run, window) take their arguments straight from their closures;
    /// the rest go through [`Game::call`].
    pub(super) fn call(&self, b: Builtin, args: &[Expr], span: Span) -> ValFn {
        if let Some(c) = self.known_call(b, args, span) {
            return c;
        }
        if let Some(c) = self.board_read(b, args, span) {
            return c;
        }
        match (b, args) {
            // Of a filter: its items counted, no list made.
            (Builtin::Count | Builtin::Empty, [Expr::Where(list, slot, cond)]) => {
                let (fl, count) = (self.filter_of(list, *slot, cond), b == Builtin::Count);
                Box::new(move |g, f| {
                    let mut n = 0;
                    fl.run(g, f, |_, _| n += 1)?;
                    f.span = span;
                    Ok(if count {
                        Value::Int(n)
                    } else {
                        Value::Bool(n == 0)
                    })
                })
            }
            // Of a filter's first item: found or not, no list made.
            (Builtin::Count | Builtin::Empty, [Expr::First(list, slot, cond)]) => {
                let (fl, count) = (self.filter_of(list, *slot, cond), b == Builtin::Count);
                Box::new(move |g, f| {
                    let found = fl.found(g, f)?;
                    f.span = span;
                    Ok(if count {
                        Value::Int(found as i64)
                    } else {
                        Value::Bool(!found)
                    })
                })
            }
            (Builtin::Count | Builtin::Empty, [Expr::Verb(v, a, at)])
                if let Some(c) = self.counted_verb(b, *v, a, *at, span) =>
            {
                c
            }
            // Of a zone found in place: its size, no zone value made.
            (Builtin::Count | Builtin::Empty, [z]) if let Some(z) = self.zone_at(z) => {
                let count = b == Builtin::Count;
                Box::new(move |g, f| {
                    let z = z.get(g, f)?;
                    f.span = span;
                    let n = g.zone_size(z, span)?;
                    Ok(if count {
                        Value::Int(n as i64)
                    } else {
                        Value::Bool(n == 0)
                    })
                })
            }
            // Of a local: counted in its slot, no copy made and dropped.
            (Builtin::Count | Builtin::Empty, [Expr::Local(s)]) => {
                let (s, count) = (self.slot(*s), b == Builtin::Count);
                Box::new(move |g, f| {
                    f.span = span;
                    let n = g.count(&f.slots[s], span)?;
                    Ok(if count {
                        Value::Int(n as i64)
                    } else {
                        Value::Bool(n == 0)
                    })
                })
            }
            (Builtin::Count | Builtin::Empty, [x]) => {
                let (x, count) = (self.val(x), b == Builtin::Count);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    f.span = span;
                    let n = g.count(&v, span)?;
                    Ok(if count {
                        Value::Int(n as i64)
                    } else {
                        Value::Bool(n == 0)
                    })
                })
            }
            (Builtin::Top, [z]) => {
                let z = self.val(z);
                Box::new(move |g, f| {
                    let z = z(g, f)?;
                    f.span = span;
                    let z = g.zone_arg(&z, f)?;
                    let cards = &g.st.zones[g.st.inst(z)].cards;
                    Ok(cards.last().map(|&c| Value::Card(c)).unwrap_or(Value::None))
                })
            }
            (Builtin::Move | Builtin::MoveAll, _)
                if let Some(m) = self.mover::<KeepValue>(b, args, span) =>
            {
                m
            }
            (Builtin::Move | Builtin::MoveAll, [cards, zone, rest @ ..])
                if matches!(rest, [] | [Expr::Int(_)]) =>
            {
                let cause = match rest {
                    [Expr::Int(e)] => Some(*e as u16),
                    _ => None,
                };
                let (cards, zone, together) =
                    (self.val(cards), self.val(zone), b == Builtin::MoveAll);
                Box::new(move |g, f| {
                    let cards = cards(g, f)?;
                    let zone = zone(g, f)?;
                    f.span = span;
                    g.move_value(&cards, &zone, cause, false, together, f)
                })
            }
            // A local list indexed by a local or a number: the item read
            // where the list lies, no copy of it made and dropped.
            (Builtin::At, [Expr::Local(l), i @ (Expr::Local(_) | Expr::Int(_))]) => {
                let (l, i) = (self.slot(*l), self.read_int(i));
                Box::new(move |g, f| {
                    f.span = span;
                    let i = match i {
                        Ok(s) => g.index(&f.slots[s], span)?,
                        Err(i) => usize::try_from(i).unwrap_or(usize::MAX),
                    };
                    g.item_at(&f.slots[l], i, span)
                })
            }
            // A list written out and indexed (a table by level): its items
            // made on the stack, no list allocated.
            (Builtin::At, [Expr::List(items), i]) => {
                let (items, i) = (self.vals(items), self.val(i));
                Box::new(move |g, f| {
                    let mut made = Items::new();
                    for x in items.iter() {
                        made.push(x(g, f)?);
                    }
                    let i = i(g, f)?;
                    f.span = span;
                    let i = g.index(&i, span)?;
                    Ok(made.get_mut(i).map(std::mem::take).unwrap_or_default())
                })
            }
            (Builtin::Emit, _) if let Some(e) = self.emitter::<KeepValue>(args, span) => e,
            (Builtin::Run, [card, Expr::Int(effect), rest @ ..])
                if let Some(r) = self.runner::<KeepValue>(card, *effect as u16, rest, span) =>
            {
                r
            }
            (Builtin::Window, [Expr::Int(w)]) => {
                let w = *w as u16;
                Box::new(move |g, f| {
                    f.span = span;
                    g.window_in(f.data, w).map(|()| Value::None)
                })
            }
            // Every player's pick with its prompt: five operands, more than
            // an argument list holds in place, read onto the stack.
            (Builtin::ChooseEach, [_, _, _, _, _]) => {
                let a = self.vals(args);
                Box::new(move |g, f| {
                    let vals = [
                        a[0](g, f)?,
                        a[1](g, f)?,
                        a[2](g, f)?,
                        a[3](g, f)?,
                        a[4](g, f)?,
                    ];
                    f.span = span;
                    g.choose_each(&vals, f)
                })
            }
            // A pick whose prompt is joined by `+`: its parts kept.
            (
                Builtin::Choose | Builtin::ChooseOne | Builtin::ChooseOption | Builtin::Order,
                [lead @ .., last @ Expr::Bin(BinOp::Add, ..)],
            ) if !lead.is_empty() => self.prompted(b, lead, last, span),
            // A pick whose prompt is a string written out: the prompt read
            // where it lies, not copied into the operands.
            (
                Builtin::Choose | Builtin::ChooseOne | Builtin::ChooseOption | Builtin::Order,
                [lead @ .., Expr::Str(text)],
            ) if !lead.is_empty() => self.picked(b, lead, text, span),
            (Builtin::May, [lead @ .., Expr::Str(text)]) if lead.len() <= 1 => {
                self.picked(b, lead, text, span)
            }
            // One or two operands: run straight into the argument list,
            // no loop over them and no push.
            // The built-in's operation chosen here (see `op_of`).
            // A local operand read in its slot (see `Operand`).
            (_, [Expr::Local(s)]) => call1(Slot(self.slot(*s)), op_of(b), b, span),
            (_, [x]) => call1(self.val(x), op_of(b), b, span),
            (_, [x, y]) => {
                let op = op_of(b);
                match (x, y) {
                    (Expr::Local(s), Expr::Local(t)) => {
                        call2(Slot(self.slot(*s)), Slot(self.slot(*t)), op, b, span)
                    }
                    (Expr::Local(s), y) => call2(Slot(self.slot(*s)), self.val(y), op, b, span),
                    (x, Expr::Local(t)) => call2(self.val(x), Slot(self.slot(*t)), op, b, span),
                    (x, y) => call2(self.val(x), self.val(y), op, b, span),
                }
            }
            _ => {
                let (args, op) = (self.vals(args), op_of(b));
                Box::new(move |g, f| {
                    let mut vals = Args::new();
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    g.call_op(op, b, vals, f)
                })
            }
        }
    }
}

/// A comparison of two values, as `binop` makes it.
#[derive(Clone, Copy)]
struct Test {
    op: BinOp,
    cmp: CmpOp,
    span: Span,
}

impl Test {
    #[inline(always)]
    fn holds(self, g: &mut Game, x: &Value, y: &Value) -> Res<bool> {
        if let (Value::Int(x), Value::Int(y)) = (x, y) {
            return Ok(self.cmp.holds(*x, *y));
        }
        // `==` and `!=` are the values' equality, as `binop` makes it.
        if matches!(self.op, BinOp::Eq | BinOp::Ne) {
            return Ok(g.equal_charged(x, y, self.span)? == (self.op == BinOp::Eq));
        }
        self.ordered(g, x, y)
    }

    /// `<`, `<=`, `>`, `>=` of values not both numbers.
    #[cold]
    #[inline(never)]
    fn ordered(self, g: &mut Game, x: &Value, y: &Value) -> Res<bool> {
        Ok(g.binop(self.op, x.clone(), y.clone(), self.span)?.truthy())
    }
}

/// The value of a constant written out (none, a number, a truth, a
/// string, a card id).
fn constant(e: &Expr) -> Option<Value> {
    Some(match e {
        Expr::None => Value::None,
        Expr::Int(i) => Value::Int(*i),
        Expr::Bool(b) => Value::Bool(*b),
        Expr::Str(s) => Value::Str(s.clone()),
        Expr::Def(d) => Value::Def(*d),
        _ => return None,
    })
}

/// The value of a list written out whose items are all constants.
fn constant_list(items: &[Expr]) -> Option<Value> {
    Some(Value::list(
        items.iter().map(constant).collect::<Option<_>>()?,
    ))
}

/// An operand of a compiled call: a local read in its slot, no closure
/// called for the commonest operand, or code run. Each call shape is made
/// for its operands' kinds, so code operands pay nothing for the test.
pub(super) trait Operand: Send + Sync + 'static {
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Value>;
}

/// A local's slot.
pub(super) struct Slot(pub(super) usize);

impl Operand for Slot {
    #[inline(always)]
    fn get(&self, _: &mut Game, f: &mut Frame) -> Res<Value> {
        Ok(f.slots[self.0].clone())
    }
}

impl Operand for ValFn {
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        self(g, f)
    }
}

/// An operand whose kind is tested where it is read: a local's slot read
/// in place, or code run (for calls whose own work dwarfs the test).
pub(super) enum Read {
    Slot(usize),
    Code(ValFn),
}

impl Operand for Read {
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        match self {
            Read::Slot(s) => Ok(f.slots[*s].clone()),
            Read::Code(c) => c(g, f),
        }
    }
}

impl Compiler<'_> {
    /// A local's slot, or a number written out (`e` one of the two).
    fn read_int(&self, e: &Expr) -> Result<usize, i64> {
        match e {
            Expr::Local(s) => Ok(self.slot(*s)),
            Expr::Int(i) => Err(*i),
            _ => unreachable!("a local or a number"),
        }
    }

    /// `e` as a [`Read`].
    pub(super) fn read(&self, e: &Expr) -> Read {
        match e {
            Expr::Local(s) => Read::Slot(self.slot(*s)),
            e => Read::Code(self.val(e)),
        }
    }
}

/// Built-in `b` of one operand, by its operation `op` (see `op_of`), run
/// straight into the argument list.
fn call1<X: Operand>(x: X, op: Op, b: Builtin, span: Span) -> ValFn {
    Box::new(move |g, f| {
        let x = x.get(g, f)?;
        f.span = span;
        g.call_op(op, b, args_of([x, Value::None], 1), f)
    })
}

/// [`call1`] of two operands.
fn call2<X: Operand, Y: Operand>(x: X, y: Y, op: Op, b: Builtin, span: Span) -> ValFn {
    Box::new(move |g, f| {
        let x = x.get(g, f)?;
        let y = y.get(g, f)?;
        f.span = span;
        g.call_op(op, b, args_of([x, y], 2), f)
    })
}

/// The argument list of a call of `n` (1 or 2) operands: `xy` moved in
/// whole, no push each.
#[inline(always)]
fn args_of([x, y]: [Value; 2], n: usize) -> Args {
    Args::from_buf_and_len([x, y, Value::None, Value::None], n)
}

/// [`Compiler::field_cmp`]'s operands of a slot holding neither a card
/// with the property nor a player with the counter: the field read the
/// general way, then the number, then the field converted.
#[cold]
#[inline(never)]
fn field_cmp_read(
    g: &mut Game,
    f: &mut Frame,
    s: usize,
    field: &Field,
    y: &Num,
    span: Span,
) -> Res<(i64, i64)> {
    let x = g.field(&f.slots[s], field, f)?;
    let y = y.get(g, f)?;
    Ok((g.int(&x, span)?, y))
}

/// The players `turn_order_iter(from, all)` lists, taken before any code
/// runs (the code may change who is still in the game): bit `i` for the
/// `i`-th player in turn order from `from`, no list made; and how many.
#[inline(always)]
fn players_from(g: &Game, from: PlayerId, all: bool) -> ([u64; 4], u64) {
    let n = g.st.nplayers as usize;
    let (mut ps, mut len) = ([0u64; 4], 0);
    for i in 0..n {
        let p = (from as usize + i) % n;
        if (all || i != 0) && !g.st.lost[p] {
            ps[i / 64] |= 1 << (i % 64);
            len += 1;
        }
    }
    (ps, len)
}
