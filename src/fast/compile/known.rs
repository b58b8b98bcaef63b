//! Calls whose operands are known at load time: a declared option read by
//! its index, and the players listed with no list built.

use super::*;
use crate::fast::native;

/// Calls whose operands are known at load time: a declared option read by
/// its index, and the players listed with no list built.
impl Compiler<'_> {
    pub(super) fn known_call(&self, b: Builtin, args: &[Expr], span: Span) -> Option<ValFn> {
        let players = |e: &Expr| matches!(e, Expr::Call(Builtin::Players, a, _) if a.is_empty());
        Some(match (b, args) {
            (Builtin::Option, [Expr::Str(name)]) => {
                let i = self.data.options.iter().position(|o| **o == ***name)?;
                Box::new(move |g, f| {
                    f.span = span;
                    Ok(g.option_vals[i].clone())
                })
            }
            (Builtin::First, [Expr::Call(Builtin::Option, o, _)])
                if let [Expr::Str(name)] = o.as_slice() =>
            {
                let i = self.data.options.iter().position(|o| **o == ***name)?;
                Box::new(move |g, f| {
                    f.span = span;
                    match &g.option_vals[i] {
                        Value::None => Ok(Value::None),
                        Value::List(l) => Ok(l.first().cloned().unwrap_or(Value::None)),
                        v => {
                            let mut a = Args::new();
                            a.push(v.clone());
                            g.call(b, a, f)
                        }
                    }
                })
            }
            // Of a zone's cards that pass a test of pure reads: decided in
            // place, `first` and `empty` stopping at the first that passes.
            (
                Builtin::First | Builtin::Count | Builtin::Empty,
                [Expr::Where(list, slot, cond) | Expr::First(list, slot, cond)],
            ) if let (Some(at), Some(t)) =
                (self.zone_at(list), native::where_test(cond, *slot)) =>
            {
                // A probe's count is 1 or 0: whether it is not empty.
                if b == Builtin::Count && matches!(args[0], Expr::First(..)) {
                    return Some(Box::new(move |g, f| {
                        let z = at.get(g, f)?;
                        let empty = g.zone_where(f, z, &t, Builtin::Empty, span)?;
                        Ok(Value::Int(!empty.truthy() as i64))
                    }));
                }
                Box::new(move |g, f| {
                    let z = at.get(g, f)?;
                    g.zone_where(f, z, &t, b, span)
                })
            }
            (Builtin::Count, [p]) if players(p) => Box::new(move |g, f| {
                f.span = span;
                Ok(Value::Int(
                    g.turn_order_iter(g.st.active, true).count() as i64
                ))
            }),
            // `first(random_pick(players(), 1))`: one draw, as random_pick makes it.
            (Builtin::First, [Expr::Call(Builtin::RandomPick, r, _)])
                if let [p, Expr::Int(1)] = r.as_slice()
                    && players(p) =>
            {
                Box::new(move |g, f| {
                    f.span = span;
                    let ps: smallvec::SmallVec<[PlayerId; 8]> =
                        g.turn_order_iter(g.st.active, true).collect();
                    if ps.is_empty() {
                        return Ok(Value::None);
                    }
                    let i = g.st.below(ps.len());
                    Ok(Value::Player(ps[i]))
                })
            }
            // `first(random_pick(defs(tag), 1))`: one draw from the tag's
            // definitions, with the charges and the draw of the two calls,
            // and no list made for either.
            (Builtin::First, [Expr::Call(Builtin::RandomPick, r, pick_at)])
                if let [Expr::Call(Builtin::Defs, t, defs_at), Expr::Int(1)] = r.as_slice()
                    && let [Expr::Int(tag)] = t.as_slice() =>
            {
                let (tag, pick_at, defs_at) = (*tag, *pick_at, *defs_at);
                Box::new(move |g, f| {
                    let data = f.data;
                    let defs = data.tagged(tag);
                    g.st.scanned += defs.len() as u64;
                    g.charge_passed(defs_at, defs.len())?;
                    f.span = span;
                    if defs.is_empty() {
                        // random_pick of nothing: its (empty) charge, no draw.
                        g.charge(pick_at, 0)?;
                        return Ok(Value::None);
                    }
                    let i = g.st.below(defs.len());
                    Ok(Value::Def(defs[i]))
                })
            }
            // `contains(x, @card)` of none (an unset option): no list read.
            (Builtin::Contains, [x, Expr::Def(d)]) => {
                let (x, d) = (self.val(x), *d);
                Box::new(move |g, f| {
                    let x = x(g, f)?;
                    f.span = span;
                    if let Value::None = x {
                        return Ok(Value::Bool(false));
                    }
                    let mut a = Args::new();
                    a.push(x);
                    a.push(Value::Def(d));
                    g.call(b, a, f)
                })
            }
            // The builtins of most calls that need no frame of their own:
            // as the kernel runs them, with no argument list made.
            (Builtin::NextPlayer, [p]) => {
                let p: Option<ValFn> = (!matches!(p, Expr::Me)).then(|| self.val(p));
                Box::new(move |g, f| {
                    let v = match &p {
                        Some(p) => p(g, f)?,
                        None => Value::Player(f.me),
                    };
                    f.span = span;
                    let p = g.player(&v, span)?;
                    Ok(Value::Player(g.next_alive(p)))
                })
            }
            // `first(choose(..))`: the first pick, no list made of the picks.
            (Builtin::First, [Expr::Call(Builtin::Choose, c, at)]) => {
                let (c, at) = (self.vals(c), *at);
                Box::new(move |g, f| {
                    let mut a = Args::new();
                    for x in c.iter() {
                        a.push(x(g, f)?);
                    }
                    f.span = at;
                    let v = g.choose_first(a, f)?;
                    f.span = span;
                    Ok(v)
                })
            }
            // Of a filter's first item: that item, no list made.
            (Builtin::First, [Expr::First(list, slot, cond)]) => {
                let fl = self.filter_of(list, *slot, cond);
                Box::new(move |g, f| {
                    let v = fl.first(g, f)?;
                    f.span = span;
                    Ok(v.unwrap_or_default())
                })
            }
            (Builtin::First, [x]) => {
                let x = self.val(x);
                Box::new(move |g, f| {
                    let v = x(g, f)?;
                    f.span = span;
                    Ok(match v {
                        Value::None => Value::None,
                        v => g.item_at(&v, 0, span)?,
                    })
                })
            }
            _ => return None,
        })
    }

    /// Calls in statement position on a zone found in place, operands read
    /// with no closure where they can be (a zone that is not found runs
    /// the general way): `create(card, zone, n?)` makes its cards straight
    /// into the zone, `shuffle(zone)`, `set_active(p)`.
    pub(super) fn known_effect(&self, e: &Expr) -> Option<StmtFn> {
        let Expr::Call(b, args, span) = e else {
            return None;
        };
        let span = *span;
        Some(match (b, args.as_slice()) {
            (Builtin::Create, [d, z, n @ ..]) => {
                let at = self.zone_at(z)?;
                let n = n.first().map(|n| self.operand(n, true));
                // A card read from its slot after the count's code ran
                // could see that code's work: read first then.
                let late = !matches!(n, Some(Operand::Code(_)));
                let d = self.operand(d, late);
                let all = self.vals(args);
                Box::new(move |g, f| {
                    let code = match &d {
                        Operand::Code(d) => Some(d(g, f)?),
                        _ => None,
                    };
                    let Some(z) = at.find(f) else {
                        let mut vals = Args::new();
                        vals.push(d.read(&code, f).clone());
                        for a in all[1..].iter() {
                            vals.push(a(g, f)?);
                        }
                        f.span = span;
                        return g.create(&vals, f).map(drop);
                    };
                    let count = match &n {
                        Some(Operand::Code(n)) => Some(n(g, f)?),
                        _ => None,
                    };
                    f.span = span;
                    let d = g.def_arg(d.read(&code, f), f)?;
                    let n = n.as_ref().map(|n| n.read(&count, f));
                    g.create_n(d, z, n, f).map(drop)
                })
            }
            (Builtin::Shuffle, [z]) => {
                let at = self.zone_at(z)?;
                let general = self.vals(args);
                Box::new(move |g, f| {
                    let Some(z) = at.find(f) else {
                        let v = general[0](g, f)?;
                        f.span = span;
                        let z = g.zone_arg(&v, f)?;
                        return g.shuffle_charged(z, span);
                    };
                    f.span = span;
                    g.shuffle_charged(z, span)
                })
            }
            (Builtin::SetActive, [p]) => {
                let p = self.val(p);
                Box::new(move |g, f| {
                    let p = p(g, f)?;
                    f.span = span;
                    g.set_active(&p, span)
                })
            }
            _ => return None,
        })
    }

    /// An operand read with no closure run: a constant, or a local's slot
    /// where `slot` allows it.
    pub(super) fn operand(&self, e: &Expr, slot: bool) -> Operand {
        match e {
            Expr::Def(d) => Operand::Const(Value::Def(*d)),
            Expr::Int(k) => Operand::Const(Value::Int(*k)),
            Expr::Local(s) if slot => Operand::Slot(self.slot(*s)),
            e => Operand::Code(self.val(e)),
        }
    }

    /// The board's readers (`square_get`, `square_card`, `square_kind`),
    /// their operands read in place: no argument list made, no dispatch by
    /// operation. A slot is read in place only where no code of a later
    /// operand runs first.
    pub(super) fn board_read(&self, b: Builtin, args: &[Expr], span: Span) -> Option<ValFn> {
        if let Some(v) = self.near_call(b, args, span).and_then(Self::near_value) {
            return Some(v);
        }
        let board = !self.data.board.squares.is_empty();
        let code = |o: &Operand, g: &mut Game, f: &mut Frame| match o {
            Operand::Code(c) => c(g, f).map(Some),
            _ => Ok(None),
        };
        Some(match (b, args) {
            // `squares(kind)`: the list laid with the track, no argument list made.
            (Builtin::Squares, [Expr::Str(k)]) if board => {
                let k = k.clone();
                Box::new(move |g, f| {
                    f.span = span;
                    Ok(g.squares_list(Some(k.as_str())))
                })
            }
            (Builtin::SquareGet, [s, p]) => {
                let p = self.operand(p, true);
                let s = self.operand(s, !matches!(p, Operand::Code(_)));
                Box::new(move |g, f| {
                    let sv = code(&s, g, f)?;
                    let pv = code(&p, g, f)?;
                    f.span = span;
                    g.square_get(s.read(&sv, f), p.read(&pv, f), span)
                })
            }
            (Builtin::SquareCard | Builtin::SquareKind, [s]) => {
                let (s, card) = (self.operand(s, true), b == Builtin::SquareCard);
                Box::new(move |g, f| {
                    let sv = code(&s, g, f)?;
                    f.span = span;
                    match card {
                        true => g.square_card(s.read(&sv, f), span),
                        false => g.square_kind(s.read(&sv, f), span),
                    }
                })
            }
            _ => return None,
        })
    }

    /// `x == none` and `x != none` of a local: its slot read, no values compared.
    pub(super) fn known_cond(&self, e: &Expr) -> Option<CondFn> {
        let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, _) = e else {
            return None;
        };
        let (Expr::Local(s), Expr::None) = (&**a, &**b) else {
            return None;
        };
        let (s, eq) = (self.slot(*s), *op == BinOp::Eq);
        Some(Box::new(move |_, f| {
            Ok(matches!(f.slots[s], Value::None) == eq)
        }))
    }

    /// `for p in players() {..}`: the players taken in a list on the stack.
    pub(super) fn for_players(&self, slot: u16, span: Span, body: &[Stmt]) -> StmtFn {
        let (slot, body) = (self.slot(slot), self.block(body));
        Box::new(move |g, f| {
            f.span = span;
            let ps: smallvec::SmallVec<[PlayerId; 8]> =
                g.turn_order_iter(g.st.active, true).collect();
            for p in ps {
                f.slots[slot] = Value::Player(p);
                g.tick(f.span)?;
                body(g, f)?;
            }
            Ok(())
        })
    }
}

/// A call's operand: a constant, a frame slot, or code run before the call
/// (its value kept by the caller and passed to [`Operand::read`]).
pub(super) enum Operand {
    Const(Value),
    Slot(usize),
    Code(ValFn),
}

impl Operand {
    #[inline(always)]
    pub(super) fn read<'a>(&'a self, code: &'a Option<Value>, f: &'a Frame) -> &'a Value {
        match (self, code) {
            (Operand::Const(v), _) => v,
            (Operand::Slot(s), _) => &f.slots[*s],
            (Operand::Code(_), Some(v)) => v,
            (Operand::Code(_), None) => &Value::None,
        }
    }
}
