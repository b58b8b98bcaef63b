//! Statements: blocks, assignments, loops (the top-card loop recognised by
//! what it does), and the numbers and comparisons they test.

use super::*;

impl Compiler<'_> {
    pub(super) fn vals(&self, args: &[Expr]) -> Box<[ValFn]> {
        args.iter().map(|a| self.val(a)).collect()
    }

    pub(super) fn block(&self, stmts: &[Stmt]) -> StmtFn {
        block_of(self.leaves(stmts))
    }

    pub(super) fn leaves(&self, stmts: &[Stmt]) -> Vec<Leaf> {
        let mut out = Vec::with_capacity(stmts.len());
        let mut i = 0;
        while i < stmts.len() {
            if let Some(l) = self.counted(&stmts[i..]) {
                out.push(l);
                i += 2;
                continue;
            }
            self.leaf(&stmts[i], &mut out);
            i += 1;
        }
        out
    }

    /// `let i = 0; while i < n { <top-card loop body>; i += 1 }`, where the
    /// body neither reads `i` nor writes `n`, does what `repeat n { .. }`
    /// does for a count of `0..=MAX_LOOP`: it runs as the [`TopLoop`] with
    /// the increment's span left after each iteration, `i` set to the count
    /// at the end. Any other count (too large, not a number) runs the two
    /// statements as compiled.
    fn counted(&self, stmts: &[Stmt]) -> Option<Leaf> {
        let [Stmt::Let(i, Expr::Int(0)), Stmt::While(cond, body), ..] = stmts else {
            return None;
        };
        let Expr::Bin(BinOp::Lt, x, n, _) = cond else {
            return None;
        };
        let [
            inner @ ..,
            Stmt::Assign(Place::Local(j), AssignOp::Add, Expr::Int(1), end),
        ] = body.as_slice()
        else {
            return None;
        };
        let n = match (&**x, &**n) {
            (Expr::Local(x), Expr::Int(k)) if x == i => Ok(*k),
            (Expr::Local(x), Expr::Local(s)) if x == i && s != i && !writes(inner, *s) => {
                Err(self.slot(*s))
            }
            _ => return None,
        };
        if j != i || writes(inner, *i) || inner.iter().any(|s| s.reads_slot(*i)) {
            return None;
        }
        let mut each = self.top_loop(inner)?;
        each.end = Some(*end);
        // The two statements as compiled, one at a time (not recognised again).
        let mut plain = Vec::with_capacity(2);
        stmts[..2].iter().for_each(|s| self.leaf(s, &mut plain));
        let (i, generic) = (self.slot(*i), block_of(plain));
        Some(Leaf::Code(Box::new(move |g, f| {
            let n = match n {
                Ok(k) => k,
                Err(s) => match f.slots[s] {
                    Value::Int(k) => k,
                    _ => return generic(g, f),
                },
            };
            if n > MAX_LOOP as i64 {
                return generic(g, f);
            }
            each.run(g, f, n)?;
            f.slots[i] = Value::Int(n.max(0));
            Ok(())
        })))
    }

    /// A statement as leaves of its block.
    pub(super) fn leaf(&self, s: &Stmt, out: &mut Vec<Leaf>) {
        let l = match s {
            Stmt::Expr(e) => self.leaf_effect(e),
            Stmt::Assign(Place::Field(base, field), op, rhs, span)
                if matches!(**base, Expr::Me)
                    && let Some(c) = field.counter
                    && let Some(num) = self.counter_num(rhs, *span) =>
            {
                Leaf::Counter {
                    c,
                    op: *op,
                    num,
                    span: *span,
                }
            }
            Stmt::If(c, a, b) if let Some((s, mask, negate)) = local_tag(c) => {
                let at = out.len();
                out.push(Leaf::Jump(0));
                a.iter().for_each(|s| self.leaf(s, out));
                // Where the `else` leaves start.
                let mut els = out.len();
                if !b.is_empty() {
                    out.push(Leaf::Jump(0));
                    els = out.len();
                    b.iter().for_each(|s| self.leaf(s, out));
                    out[els - 1] = Leaf::Jump((out.len() - els) as u32);
                }
                out[at] = Leaf::IfTag {
                    slot: self.slot(s),
                    mask,
                    negate,
                    skip: (els - at - 1) as u32,
                    span: first_is(c),
                };
                return;
            }
            Stmt::For(slot, Expr::Where(list, it, cond), body)
                if let Some(zone) = self.zone_at(list)
                    && let Some(test) = tag_test(cond, *it)
                    && let Some(mv) = self.move_of(body, self.slot(*slot)) =>
            {
                Leaf::WholeMove {
                    zone,
                    test,
                    mv,
                    slots: (self.slot(*it), self.slot(*slot)),
                    code: self.stmt(s),
                }
            }
            Stmt::Repeat(Expr::Int(k), body) if let Some(each) = self.top_loop(body) => {
                Leaf::Top(*k, Box::new(each))
            }
            s => Leaf::Code(self.stmt(s)),
        };
        out.push(l);
    }

    /// A call run for its effect as a leaf.
    pub(super) fn leaf_effect(&self, e: &Expr) -> Leaf {
        match e {
            Expr::Verb(v, args, span) => match self.inlined::<KeepNothing>(*v, args, *span, true) {
                Some(Inlined::Leaves(body, at)) => {
                    return Leaf::Call {
                        body,
                        span: *span,
                        at,
                    };
                }
                Some(Inlined::Code(c)) => return Leaf::Code(c),
                None => {}
            },
            Expr::Call(Builtin::Move | Builtin::MoveAll, args, span) => {
                let (card, zone, cause) = match args.as_slice() {
                    [c, z] => (c, z, None),
                    [c, z, Expr::Int(e)] => (c, z, Some(*e as u16)),
                    _ => return Leaf::Code(self.effect(e)),
                };
                match (self.card_at(card), self.zone_at(zone)) {
                    (Some(CardAt::Slot(slot)), Some(to)) => {
                        return Leaf::Move {
                            slot,
                            to,
                            cause,
                            span: *span,
                            code: self.effect(e),
                        };
                    }
                    (Some(CardAt::Zone(from)), Some(to)) => {
                        return Leaf::Zones {
                            from,
                            to,
                            cause,
                            span: *span,
                            code: self.effect(e),
                        };
                    }
                    _ => {}
                }
            }
            Expr::Call(Builtin::Emit, args, _) => {
                if let [Expr::Int(name), Expr::Local(s)] = args.as_slice()
                    && !self.data.index.listened(*name as u16, true)
                {
                    return Leaf::Emit {
                        slot: self.slot(*s),
                        name: *name as u16,
                        code: self.effect(e),
                    };
                }
            }
            Expr::Call(Builtin::Run, args, span) => {
                if let [Expr::Local(s), Expr::Int(effect)] = args.as_slice() {
                    return Leaf::Run {
                        slot: self.slot(*s),
                        effect: *effect as u16,
                        span: *span,
                    };
                }
            }
            _ => {}
        }
        Leaf::Code(self.effect(e))
    }

    pub(super) fn stmt(&self, s: &Stmt) -> StmtFn {
        match s {
            Stmt::Expr(e) => self.effect(e),
            Stmt::Let(slot, e) => {
                let (slot, e) = (self.slot(*slot), self.val(e));
                Box::new(move |g, f| {
                    f.slots[slot] = e(g, f)?;
                    Ok(())
                })
            }
            Stmt::Assign(place, op, e, span) => self.assign(place, *op, e, *span),
            // A comparison of numbers read in place: no closure for the test.
            Stmt::If(c, a, b) if let Some((x, cmp, y)) = self.num_cmp(c) => {
                let (a, b) = (self.block(a), self.block(b));
                Box::new(move |g, f| {
                    if cmp.holds(x.get(g, f)?, y.get(g, f)?) {
                        a(g, f)
                    } else {
                        b(g, f)
                    }
                })
            }
            Stmt::If(c, a, b) if let Some(i) = self.near_if(c, a, b) => i,
            Stmt::If(c, a, b) if b.is_empty() => {
                let (c, a) = (self.cond(c), self.block(a));
                Box::new(move |g, f| if c(g, f)? { a(g, f) } else { Ok(()) })
            }
            Stmt::If(c, a, b) => {
                let (c, a, b) = (self.cond(c), self.block(a), self.block(b));
                Box::new(move |g, f| if c(g, f)? { a(g, f) } else { b(g, f) })
            }
            Stmt::Repeat(n, body) if let Some(each) = self.top_loop(body) => {
                // A constant count is read with no closure run.
                let n = match n {
                    Expr::Int(k) => Ok(*k),
                    n => Err(self.val(n)),
                };
                Box::new(move |g, f| {
                    let n = match &n {
                        Ok(k) => *k,
                        Err(n) => {
                            let n = n(g, f)?;
                            g.int(&n, f.span)?
                        }
                    };
                    let n = g.repeat_count(n, f.span)?;
                    each.run(g, f, n)
                })
            }
            Stmt::Repeat(n, body) => {
                let (n, body) = (self.val(n), self.block(body));
                Box::new(move |g, f| {
                    let n = n(g, f)?;
                    let n = g.int(&n, f.span)?;
                    for _ in 0..g.repeat_count(n, f.span)? {
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::While(cond, body) => {
                let (cond, body) = (self.cond(cond), self.block(body));
                Box::new(move |g, f| {
                    let mut n = 0u32;
                    while cond(g, f)? {
                        n += 1;
                        if n > MAX_LOOP {
                            return g.err(
                                f.span,
                                format!("a `while` loop ran {MAX_LOOP} times (an endless loop?)"),
                            );
                        }
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            // `for x in list where cond`: the items that pass, kept inline.
            // Over a zone found in place: the cards that pass kept as ids;
            // a tag test and a one-card move of `x` run in place.
            Stmt::For(slot, Expr::Where(list, it, cond), body)
                if let Some(z) = self.zone_at(list) =>
            {
                let slot = self.slot(*slot);
                let test = match tag_test(cond, *it) {
                    Some((mask, negate)) => Err((mask, negate)),
                    None => Ok(self.cond(cond)),
                };
                let each = self.move_of(body, slot).ok_or_else(|| self.block(body));
                let it = self.slot(*it);
                Box::new(move |g, f| {
                    let z = z.get(g, f)?;
                    g.check_visible(z, f.span)?;
                    if let (Err(t), Ok(m)) = (&test, &each)
                        && whole_move(g, f, z, *t, m, (it, slot))
                    {
                        return Ok(());
                    }
                    g.charge(f.span, g.st.listed(z) as u64)?;
                    let mut pass = Cards::new();
                    for c in g.cards_of(&Value::Zone(z), f)? {
                        f.slots[it] = Value::Card(c);
                        let ok = match &test {
                            Err((mask, negate)) => (g.st.tags(c) & mask != 0) != *negate,
                            Ok(cond) => cond(g, f)?,
                        };
                        if ok {
                            pass.push(c);
                        }
                    }
                    for c in pass {
                        f.slots[slot] = Value::Card(c);
                        g.tick(f.span)?;
                        match &each {
                            Ok((zone, cause, together, span)) => {
                                let to = zone.get(g, f)?;
                                f.span = *span;
                                if g.quiet_move(*cause) {
                                    g.quiet_relocate(c, to, *cause, *span)?;
                                } else {
                                    let (c, to) = (Value::Card(c), Value::Zone(to));
                                    g.move_value(&c, &to, *cause, false, *together, f)?;
                                }
                            }
                            Err(body) => body(g, f)?,
                        }
                    }
                    Ok(())
                })
            }
            Stmt::For(slot, Expr::Where(list, it, cond), body) => {
                let (slot, body) = (self.slot(*slot), self.block(body));
                let (list, it, cond) = (self.val(list), self.slot(*it), self.cond(cond));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    let mut items = Items::new();
                    filter_items(g, f, &list, it, &cond, &mut items)?;
                    for item in items {
                        f.slots[slot] = item;
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::For(slot, Expr::Call(Builtin::Players, a, span), body) if a.is_empty() => {
                self.for_players(*slot, *span, body)
            }
            // `for x in list { if a <cmp> b { .. } }`: the test read in place.
            Stmt::For(slot, list, body)
                if let [Stmt::If(c, a, b)] = body.as_slice()
                    && let Some(each) = self.near_for(c, self.slot(*slot), a, b) =>
            {
                let list = self.val(list);
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    let items = g.items_copied(&list, f.span)?;
                    each(g, f, &items)
                })
            }
            // `for d in list { create(d, zone) }`: a card of each item made
            // at once ([`Game::create_each`]) where it can, else one by one.
            Stmt::For(slot, list, body)
                if let [Stmt::Expr(Expr::Call(Builtin::Create, a, span))] = body.as_slice()
                    && let [Expr::Local(d), z] = a.as_slice()
                    && d == slot
                    && let Some(at) = self.zone_at(z)
                    && !matches!(at, ZoneAt::Slot(_, s) if s == self.slot(*slot)) =>
            {
                let (slot, span) = (self.slot(*slot), *span);
                let (list, body) = (self.val(list), self.block(body));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    let items = g.items_copied(&list, f.span)?;
                    if let [.., last] = &items[..]
                        && let Some(z) = at.find(f)
                        && g.create_each(&items, z)
                    {
                        f.slots[slot] = last.clone();
                        f.span = span;
                        return Ok(());
                    }
                    for item in items.iter() {
                        f.slots[slot] = item.clone();
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::For(slot, list, body) => {
                let (slot, list, body) = (self.slot(*slot), self.val(list), self.block(body));
                Box::new(move |g, f| {
                    let list = list(g, f)?;
                    for item in g.items_copied(&list, f.span)?.iter() {
                        f.slots[slot] = item.clone();
                        g.tick(f.span)?;
                        body(g, f)?;
                    }
                    Ok(())
                })
            }
            Stmt::Return(e) => match e {
                Some(e) => {
                    let e = self.val(e);
                    Box::new(move |g, f| Err(Flow::Return(e(g, f)?).into()))
                }
                None => Box::new(|_, _| Err(Flow::Return(Value::None).into())),
            },
        }
    }

    pub(super) fn assign(&self, place: &Place, op: AssignOp, rhs: &Expr, span: Span) -> StmtFn {
        if let (Place::Local(s), AssignOp::Set) = (place, op)
            && let Some(grow) = self.append(*s, rhs, span)
        {
            return grow;
        }
        let e = self.val(rhs);
        if op != AssignOp::Set
            && let Some(x) = self.arith(rhs)
        {
            match place {
                // `n += k` of a local holding a number, `k` read in place.
                Place::Local(s) => {
                    let (s, generic) = (self.slot(*s), self.assign_with(place, op, rhs, e, span));
                    return Box::new(move |g, f| {
                        f.span = span;
                        if let Value::Int(old) = f.slots[s]
                            && let Some(v) = x.get(g, f)
                        {
                            f.slots[s] = Value::Int(op.apply(old, v));
                            return Ok(());
                        }
                        generic(g, f)
                    });
                }
                // `p.counter += k` of a local holding a player.
                Place::Field(base, field)
                    if let (Expr::Local(b), Some(c)) = (&**base, field.counter) =>
                {
                    let (b, generic) = (self.slot(*b), self.assign_with(place, op, rhs, e, span));
                    return Box::new(move |g, f| {
                        f.span = span;
                        if let Value::Player(p) = f.slots[b]
                            && let Some(v) = x.get(g, f)
                        {
                            g.set_counter(p, c, op.apply(g.st.counter(p, c), v));
                            return Ok(());
                        }
                        generic(g, f)
                    });
                }
                _ => {}
            }
        }
        self.assign_with(place, op, rhs, e, span)
    }

    /// [`Compiler::assign`] of `rhs`, whose value `e` makes, as the
    /// reference runs it: the value, then the place's old value, combined.
    fn assign_with(&self, place: &Place, op: AssignOp, rhs: &Expr, e: ValFn, span: Span) -> StmtFn {
        match place {
            Place::Local(s) => {
                let s = self.slot(*s);
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    f.slots[s] = combine(g, op, &f.slots[s], v, span)?;
                    Ok(())
                })
            }
            Place::Global(i) => {
                let i = *i;
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    let old = g.st.globals[i as usize];
                    let new = g.int(&combine(g, op, &Value::Int(old), v, span)?, span)?;
                    g.set_global(i, new);
                    Ok(())
                })
            }
            // The running player's own counter (`total += 2`): no base to evaluate.
            Place::Field(base, field) if matches!(**base, Expr::Me) && field.counter.is_some() => {
                let (field, c) = (*field, field.counter.unwrap_or_default());
                if let Some(num) = self.counter_num(rhs, span) {
                    return Box::new(move |g, f| {
                        f.span = span;
                        let v = num.get(g, f)?;
                        let old = g.st.counter(f.me, c);
                        let new = op.apply(old, v);
                        g.set_counter(f.me, c, new);
                        Ok(())
                    });
                }
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    let old = g.st.counter(f.me, c);
                    let new = match (op, &v) {
                        (AssignOp::Set, Value::Int(v)) => *v,
                        (AssignOp::Add, Value::Int(v)) => old.saturating_add(*v),
                        (AssignOp::Sub, Value::Int(v)) => old.saturating_sub(*v),
                        _ => {
                            let new = combine(g, op, &Value::Int(old), v, span)?;
                            return g.set_field(&Value::Player(f.me), &field, new, f);
                        }
                    };
                    g.set_counter(f.me, c, new);
                    Ok(())
                })
            }
            Place::Field(base, field) => {
                let (base, field) = (self.val(base), *field);
                Box::new(move |g, f| {
                    f.span = span;
                    let v = e(g, f)?;
                    let b = base(g, f)?;
                    let old = g.field(&b, &field, f)?;
                    let new = combine(g, op, &old, v, span)?;
                    g.set_field(&b, &field, new, f)
                })
            }
        }
    }

    /// The number assigned to a counter, found in place: the value is
    /// converted to one anyway.
    pub(super) fn counter_num(&self, rhs: &Expr, span: Span) -> Option<Num> {
        match rhs {
            Expr::Field(b, pf)
                if let Some(pr) = pf.prop
                    && let Expr::Local(s) = **b =>
            {
                Some(Num::SlotProp(self.slot(s), pr, *pf, span))
            }
            rhs => self.int(rhs),
        }
    }

    /// Code that always makes a number (or fails), compiled to return it
    /// unboxed: constants, the running player's counters, globals, counts.
    pub(super) fn int(&self, e: &Expr) -> Option<Num> {
        Some(match e {
            Expr::Int(i) => Num::Const(*i),
            Expr::Global(i) => Num::Global(*i as usize),
            Expr::Field(base, field) if matches!(**base, Expr::Me) && field.counter.is_some() => {
                Num::Counter(field.counter.unwrap_or_default())
            }
            Expr::Call(Builtin::Count, args, span) if args.len() == 1 => {
                if let Some(z) = self.zone_at(&args[0]) {
                    return Some(Num::Count(z, *span));
                }
                let span = *span;
                // A filter's or a verb's items counted where they can be,
                // no list made (`count(hosts(c)) > 0`).
                if matches!(args[0], Expr::Where(..) | Expr::First(..) | Expr::Verb(..)) {
                    let c = self.call(Builtin::Count, args, span);
                    return Some(Num::Code(Box::new(move |g, f| {
                        let n = c(g, f)?;
                        g.int(&n, span)
                    })));
                }
                // A local counted in its slot, no copy made and dropped.
                if let Expr::Local(s) = args[0] {
                    let s = self.slot(s);
                    return Some(Num::Code(Box::new(move |g, f| {
                        f.span = span;
                        Ok(g.count(&f.slots[s], span)? as i64)
                    })));
                }
                let x = self.val(&args[0]);
                Num::Code(Box::new(move |g, f| {
                    let v = x(g, f)?;
                    f.span = span;
                    Ok(g.count(&v, span)? as i64)
                }))
            }
            _ => return None,
        })
    }

    /// `a <op> b` of two numbers found in place, a constant on the right
    /// however it is written (`0 == count(a)` is `count(a) == 0`: reading a
    /// constant has no effect, so the order of reading is free).
    pub(super) fn num_cmp(&self, e: &Expr) -> Option<(Num, CmpOp, Num)> {
        let Expr::Bin(op, a, b, _) = e else {
            return None;
        };
        let (a, op, b) = (self.int(a)?, CmpOp::of(*op)?, self.int(b)?);
        Some(match (a, b) {
            (a @ Num::Const(_), b) if !matches!(b, Num::Const(_)) => (b, op.flip(), a),
            (a, b) => (a, op, b),
        })
    }

    /// A loop body that is `move(x, zone, cause)` of the loop's card `x`
    /// (frame slot `slot`) to a zone found in place: the zone, the cause,
    /// whether moved together, the call's span.
    pub(super) fn move_of(
        &self,
        body: &[Stmt],
        slot: usize,
    ) -> Option<(ZoneAt, Option<u16>, bool, Span)> {
        let [Stmt::Expr(Expr::Call(b @ (Builtin::Move | Builtin::MoveAll), args, span))] = body
        else {
            return None;
        };
        let (card, zone, cause) = match args.as_slice() {
            [c, z] => (c, z, None),
            [c, z, Expr::Int(e)] => (c, z, Some(*e as u16)),
            _ => return None,
        };
        match card {
            Expr::Local(s) if self.slot(*s) == slot => {}
            _ => return None,
        }
        Some((self.zone_at(zone)?, cause, *b == Builtin::MoveAll, *span))
    }

    /// A loop body `if count(a) <op> k { refill }; move(top(a), b, cause)`
    /// (the test optional), or the move after statements that do nothing
    /// while `a` has a card ([`Compiler::idle_while_full`]), with both zones
    /// found in place.
    pub(super) fn top_loop(&self, body: &[Stmt]) -> Option<TopLoop> {
        let (test, mv, pre) = match body {
            [mv] => (None, mv, &[][..]),
            [Stmt::If(c, then, els), mv] if els.is_empty() && self.num_cmp(c).is_some() => {
                (Some((c, then)), mv, &[][..])
            }
            [pre @ .., mv] => (None, mv, pre),
            _ => return None,
        };
        let Stmt::Expr(Expr::Call(Builtin::Move | Builtin::MoveAll, args, span)) = mv else {
            return None;
        };
        let (top, to, cause) = match args.as_slice() {
            [t, z] => (t, z, None),
            [t, z, Expr::Int(e)] => (t, z, Some(*e as u16)),
            _ => return None,
        };
        let Expr::Call(Builtin::Top, a, _) = top else {
            return None;
        };
        let [a] = a.as_slice() else { return None };
        let (from, to) = (self.zone_at(a)?, self.zone_at(to)?);
        let calls = self.idle_while_full(pre, from)?;
        let test = match test {
            None => None,
            Some((c, then)) => {
                let (Num::Count(z, span), op, Num::Const(k)) = self.num_cmp(c)? else {
                    return None;
                };
                (z == from).then_some(())?;
                Some((op, k, span, self.block(then)))
            }
        };
        let swap = match body {
            [Stmt::If(_, then, _), _] => self.swap(then, from),
            _ => None,
        };
        Some(TopLoop {
            from,
            to,
            cause,
            span: *span,
            test,
            swap,
            mv: self.stmt(mv),
            body: self.block(body),
            end: None,
            calls,
        })
    }

    /// Statements that do nothing while zone `a` has a card but take
    /// steps: each `if <a is empty> { .. }` (no step) or a call of a verb
    /// with no arguments and no locals whose body is one such `if` (a step
    /// and a level: a refill however it is named): how many such calls;
    /// None if any statement is of another kind.
    fn idle_while_full(&self, pre: &[Stmt], a: ZoneAt) -> Option<u32> {
        let idle =
            |s: &Stmt| matches!(s, Stmt::If(c, _, els) if els.is_empty() && self.empty_test(c, a));
        let mut calls = 0;
        for s in pre {
            match s {
                s if idle(s) => {}
                Stmt::Expr(Expr::Verb(v, args, _)) if args.is_empty() => {
                    let code = &self.data.verbs[*v as usize];
                    match code.stmts.as_slice() {
                        [s] if code.slots == 0 && idle(s) => calls += 1,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        Some(calls)
    }

    /// Whether test `c` is false while zone `a` has a card, reading nothing
    /// that can fail: `count(a) == 0` however it is written (`count(a) < 1`,
    /// `0 == count(a)`), alone or `and` a comparison of counts.
    fn empty_test(&self, c: &Expr, a: ZoneAt) -> bool {
        let sure = |n: &Num| match n {
            Num::Const(_) => true,
            Num::Count(z, _) => !matches!(z, ZoneAt::Slot(..)),
            _ => false,
        };
        match c {
            Expr::And(x, y) => {
                let plain =
                    |e: &Expr| matches!(self.num_cmp(e), Some((x, _, y)) if sure(&x) && sure(&y));
                self.empty_test(x, a) && plain(y) || plain(x) && self.empty_test(y, a)
            }
            c => match self.num_cmp(c) {
                Some((Num::Count(z, _), op, Num::Const(k))) if z == a => match op {
                    CmpOp::Eq | CmpOp::Le => k <= 0,
                    CmpOp::Lt => k <= 1,
                    _ => false,
                },
                _ => false,
            },
        }
    }

    /// A refill `if count(b) <op> k { .. }; move_together(b, a, cause);
    /// shuffle(a)` of zone `a`, both zones found in place.
    pub(super) fn swap(&self, then: &[Stmt], a: ZoneAt) -> Option<Swap> {
        let [
            Stmt::If(c, _, els),
            Stmt::Expr(Expr::Call(Builtin::MoveAll, args, _)),
            Stmt::Expr(Expr::Call(Builtin::Shuffle, sh, shuffle)),
        ] = then
        else {
            return None;
        };
        let (Num::Count(b, _), op, Num::Const(k)) = self.num_cmp(c)? else {
            return None;
        };
        let (x, to, cause) = match args.as_slice() {
            [x, z] => (x, z, None),
            [x, z, Expr::Int(e)] => (x, z, Some(*e as u16)),
            _ => return None,
        };
        let [z] = sh.as_slice() else { return None };
        let same = |e: &Expr, at: ZoneAt| self.zone_at(e) == Some(at);
        (els.is_empty() && same(x, b) && same(to, a) && same(z, a)).then_some(Swap {
            from: b,
            test: (op, k),
            cause,
            shuffle: *shuffle,
        })
    }
}

/// Whether any of `stmts` writes local `slot`.
fn writes(stmts: &[Stmt], slot: u16) -> bool {
    stmts.iter().any(|s| s.binds_slot(slot))
}
