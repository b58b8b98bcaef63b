//! Moves, runs and emits compiled with their zones and cards found in
//! place where the code says where they are.

use super::expr::{Operand, Read};
use super::ran::Ran;
use super::*;

impl Compiler<'_> {
    /// A zone expression that needs no code run to find its zone.
    pub(super) fn zone_at(&self, e: &Expr) -> Option<ZoneAt> {
        let Expr::Zone(z, owner) = e else { return None };
        let z = *z;
        Some(match owner.as_deref() {
            None if self.shared(z) => ZoneAt::Fixed(ZoneRef { zone: z, owner: 0 }),
            None | Some(Expr::Me) if !self.shared(z) => ZoneAt::Mine(z),
            Some(Expr::Local(s)) if !self.shared(z) => ZoneAt::Slot(z, self.slot(*s)),
            _ => return None,
        })
    }

    /// The cards of a move that need no code run to find them.
    pub(super) fn card_at(&self, e: &Expr) -> Option<CardAt> {
        match e {
            Expr::Local(s) => Some(CardAt::Slot(self.slot(*s))),
            Expr::Call(Builtin::Top, a, span) => match a.as_slice() {
                [z] => Some(CardAt::Top(self.zone_at(z)?, *span)),
                _ => None,
            },
            e => Some(CardAt::Zone(self.zone_at(e)?)),
        }
    }

    /// `move(cards, zone, cause)` with operands read in place: one card
    /// to the top of a zone with nothing logged or listening moves here.
    pub(super) fn mover<K: Keep>(
        &self,
        b: Builtin,
        args: &[Expr],
        span: Span,
    ) -> Option<Native<K::Out>> {
        let (cards, zone, cause) = match args {
            [c, z] => (c, z, None),
            [c, z, Expr::Int(e)] => (c, z, Some(*e as u16)),
            _ => return None,
        };
        let at = self.zone_at(zone);
        let (cards, together) = (self.card_at(cards)?, b == Builtin::MoveAll);
        Some(match cards {
            // `move(card, zone)`: the usual move of one card in place.
            CardAt::Slot(s) => {
                let zone = at?;
                Box::new(move |g, f| {
                    let to = zone.get(g, f)?;
                    f.span = span;
                    match f.slots[s] {
                        Value::Card(c) if g.quiet_move(cause) => {
                            g.quiet_relocate(c, to, cause, span)?;
                            Ok(K::keep(Value::Card(c)))
                        }
                        Value::Zone(z) => {
                            zone_move::<K>(g, f, &Value::Zone(z), to, cause, together)
                        }
                        _ => g
                            .move_value(&f.slots[s], &Value::Zone(to), cause, false, together, f)
                            .map(K::keep),
                    }
                })
            }
            // `move(top(zone), zone)`: the top card popped and pushed.
            CardAt::Top(z, top) => {
                let zone = at?;
                Box::new(move |g, f| {
                    let from = z.get(g, f)?;
                    f.span = top;
                    let to = zone.get(g, f)?;
                    f.span = span;
                    let from = g.st.inst(from);
                    if g.quiet_move(cause)
                        && let Some(c) = g.quiet_top(from, to, cause)
                    {
                        return Ok(K::keep(Value::Card(c)));
                    }
                    let top = g.st.zones[from].cards.last();
                    let cards = top.map_or(Value::None, |&c| Value::Card(c));
                    g.move_value(&cards, &Value::Zone(to), cause, false, together, f)
                        .map(K::keep)
                })
            }
            // A whole zone's move: a destination the code computes
            // (`z(next_player(p))`) is run after the zone is found, as
            // the call's operands run; one that is no zone is refused by
            // `move_value`, as the reference refuses it. (A card's move
            // reads its card first: there the destination must be in place.)
            CardAt::Zone(z) => {
                let zone = match at {
                    Some(z) => ZoneOp::At(z),
                    None => ZoneOp::Code(self.val(zone)),
                };
                Box::new(move |g, f| {
                    let from = Value::Zone(z.get(g, f)?);
                    let to = dest(&zone, g, f)?;
                    f.span = span;
                    match to {
                        Ok(to) => zone_move::<K>(g, f, &from, to, cause, together),
                        Err(v) => g
                            .move_value(&from, &v, cause, false, together, f)
                            .map(K::keep),
                    }
                })
            }
        })
    }

    /// `run(card, effect)`, or `run(card, effect, player, target)` (the
    /// target and the player optional): the operands straight into the
    /// card's frame, no argument list, checked as the built-in checks them.
    pub(super) fn runner<K: Keep>(
        &self,
        card: &Expr,
        effect: u16,
        rest: &[Expr],
        span: Span,
    ) -> Option<Native<K::Out>> {
        // `run(it, effect)`: the card read in place, no player or target
        // to find (the most common spelling, and a card with no such
        // effect runs nothing).
        if let (Expr::Local(s), []) = (card, rest) {
            let s = self.slot(*s);
            // Where a definition's effect only reads, it runs in place.
            let ran = self.ran_table(effect);
            return Some(Box::new(move |g, f| {
                f.span = span;
                let c = match f.slots[s] {
                    Value::Card(c) => c,
                    Value::None => return Ok(K::keep(Value::None)),
                    ref other => {
                        return g.err(span, format!("run needs a card, not {}", other.kind()));
                    }
                };
                let def = g.st.objs[c as usize].def;
                match ran.as_ref().and_then(|t| t.get(def as usize)) {
                    Some(Ran::Nothing) => return Ok(K::keep(Value::None)),
                    Some(Ran::Here(h)) => return h.run(g, f, c, def, span).map(K::keep),
                    Some(Ran::Framed) | None => {}
                }
                match g.effect_of(f.data, c, effect) {
                    Some(code) => g
                        .exec_in(f.data, code, Some(c), f.me, [Value::None], None)
                        .map(K::keep),
                    None => Ok(K::keep(Value::None)),
                }
            }));
        }
        let card: Result<usize, ValFn> = match card {
            Expr::Local(s) => Ok(self.slot(*s)),
            other => Err(self.val(other)),
        };
        // `me` runs it as the running player, read from the frame; a
        // local target is read in its slot.
        let who = |w: &Expr| (!matches!(w, Expr::Me)).then(|| self.val(w));
        let (who, target) = match rest {
            [] => (None, None),
            [w] => (who(w), None),
            [w, t] => (who(w), Some(self.read(t))),
            _ => return None,
        };
        Some(Box::new(move |g, f| {
            let c = match &card {
                Ok(s) => match f.slots[*s] {
                    Value::Card(c) => Ok(c),
                    ref other => Err(other.clone()),
                },
                Err(v) => match v(g, f)? {
                    Value::Card(c) => Ok(c),
                    other => Err(other),
                },
            };
            let who = match &who {
                Some(w) => Some(w(g, f)?),
                None => None,
            };
            let target = match &target {
                Some(t) => t.get(g, f)?,
                None => Value::None,
            };
            f.span = span;
            let c = match c {
                Ok(c) => c,
                Err(Value::None) => return Ok(K::keep(Value::None)),
                Err(other) => {
                    return g.err(span, format!("run needs a card, not {}", other.kind()));
                }
            };
            let me = match &who {
                Some(p) => g.player(p, span)?,
                None => f.me,
            };
            match g.effect_of(f.data, c, effect) {
                Some(code) => g
                    .exec_in(f.data, code, Some(c), me, [target], None)
                    .map(K::keep),
                None => Ok(K::keep(Value::None)),
            }
        }))
    }

    /// `emit(event, card)`, with up to a player, an amount and a target
    /// after: the event built in place (no argument list), its operands
    /// read as the built-in reads them.
    pub(super) fn emitter<K: Keep>(&self, args: &[Expr], span: Span) -> Option<Native<K::Out>> {
        let [Expr::Int(name), card, rest @ ..] = args else {
            return None;
        };
        if rest.len() > 3 {
            return None;
        }
        let (name, card) = (*name as u16, self.read(card));
        let rest: Box<[Read]> = rest.iter().map(|e| self.read(e)).collect();
        // Whether an ability in the data may change or prevent the event.
        let would = self.data.index.listened(name, true);
        Some(Box::new(move |g, f| {
            let card = card.get(g, f)?;
            let mut more = [Value::None, Value::None, Value::None];
            for (m, a) in more.iter_mut().zip(rest.iter()) {
                *m = a.get(g, f)?;
            }
            f.span = span;
            let [player, amount, target] = more;
            let counted = !matches!(amount, Value::None);
            let amount = if counted { g.int(&amount, span)? } else { 0 };
            // Nothing logged or listening: the event happens, unseen, its
            // amount as given.
            if !would && g.quiet_move(Some(name)) {
                return Ok(K::keep(match counted {
                    true => Value::Int(amount),
                    false => Value::Bool(true),
                }));
            }
            let mut ev = Event::new(name);
            ev.card = match card {
                Value::Card(c) => Some(c),
                _ => None,
            };
            ev.player = Some(match player {
                Value::Player(p) => p,
                _ => f.me,
            });
            (ev.amount, ev.target, ev.source) = (amount, target, f.this);
            // The event as it happened: its amount when one was given, else
            // whether it happened.
            Ok(K::keep(match g.emit(ev, counted, f)? {
                Some(ev) if counted => Value::Int(ev.amount),
                Some(_) => Value::Bool(true),
                None if counted => Value::Int(0),
                None => Value::Bool(false),
            }))
        }))
    }

    /// A statement that is one call, run for its effect: its value is
    /// never built when the call needs none.
    pub(super) fn effect(&self, e: &Expr) -> StmtFn {
        if let Some(s) = self.known_effect(e) {
            return s;
        }
        match e {
            Expr::Verb(v, args, span) => {
                if let Some(call) = self.inline::<KeepNothing>(*v, args, *span) {
                    return call;
                }
            }
            Expr::Call(b @ (Builtin::Move | Builtin::MoveAll), args, span) => {
                if let Some(m) = self.mover::<KeepNothing>(*b, args, *span) {
                    return m;
                }
            }
            Expr::Call(b @ (Builtin::Mark | Builtin::Unmark), args, span) => {
                if let Some(m) = self.marker(*b, args, *span) {
                    return m;
                }
            }
            Expr::Call(Builtin::Run, args, span) => {
                if let [card, Expr::Int(effect), rest @ ..] = args.as_slice()
                    && let Some(r) = self.runner::<KeepNothing>(card, *effect as u16, rest, *span)
                {
                    return r;
                }
            }
            // `create(...)` whose cards are not used: no list made.
            Expr::Call(Builtin::Create, args, span) => {
                let (args, span) = (self.vals(args), *span);
                return Box::new(move |g, f| {
                    let mut vals = Args::new();
                    for a in args.iter() {
                        vals.push(a(g, f)?);
                    }
                    f.span = span;
                    g.create(&vals, f).map(drop)
                });
            }
            Expr::Call(Builtin::Emit, args, span) => {
                if let Some(e) = self.emitter::<KeepNothing>(args, *span) {
                    return e;
                }
            }
            Expr::Call(Builtin::Log, args, span) => {
                if let [x] = args.as_slice() {
                    return self.logger(x, *span);
                }
            }
            _ => {}
        }
        let e = self.val(e);
        Box::new(move |g, f| e(g, f).map(drop))
    }

    pub(super) fn shared(&self, z: u16) -> bool {
        bit(z) != 0 && self.data.zones[z as usize].shared
    }

    pub(super) fn zone_op(&self, e: &Expr) -> ZoneOp {
        match e {
            Expr::Zone(_, None) if let Some(z) = self.zone_at(e) => ZoneOp::At(z),
            _ => ZoneOp::Code(self.val(e)),
        }
    }

    /// The zones of `a + b + ...`, each named or owned by a local, in order.
    pub(super) fn zone_leaves(&self, e: &Expr, out: &mut Vec<ZoneOp>) -> bool {
        match e {
            Expr::Zone(_, o) if matches!(o.as_deref(), None | Some(Expr::Local(_))) => {
                out.push(self.zone_op(e));
                true
            }
            Expr::Bin(BinOp::Add, a, b, _) => self.zone_leaves(a, out) && self.zone_leaves(b, out),
            _ => false,
        }
    }
}

/// A move's destination: its zone, or the value found where a zone was
/// wanted (for `move_value` to refuse).
#[inline(always)]
fn dest(zone: &ZoneOp, g: &mut Game, f: &mut Frame) -> Res<Result<ZoneRef, Value>> {
    Ok(match zone {
        ZoneOp::At(z) => Ok(z.get(g, f)?),
        ZoneOp::Code(c) => match c(g, f)? {
            Value::Zone(z) => Ok(z),
            v => Err(v),
        },
    })
}
