//! Running compiled effect code: frames, and the value operations its
//! closures share (fields, numbers, lists, equality, display).

use std::sync::Arc;

use super::log::Entry;
use super::tier::{Compiled, Tier};
use super::{Game, Res};
use crate::data::Data;
use crate::lang::ir::*;
use crate::value::{ObjId, PlayerId, Value, ZoneRef};

pub use super::frame::Frame;
pub(crate) use super::frame::{Slots, returned};
pub(crate) use crate::limits::MAX_LOOP;

/// `code` as the tier compiled it and the frame slots it needs; with no
/// tier (or code the tier leaves), nothing compiled and the code's own
/// slots.
#[inline(always)]
pub(crate) fn compiled<'t>(
    tier: Option<&'t dyn Tier>,
    data: &Data,
    code: &Code,
) -> (Option<&'t dyn Compiled>, usize) {
    match tier.and_then(|t| t.code(data, code)) {
        Some((c, n)) => (Some(c), n),
        None => (None, code.slots as usize),
    }
}

impl Game {
    /// A `repeat` count, 0 to [`MAX_LOOP`]: a negative one is an error, not
    /// a silent nothing (`draw(-3)`).
    #[inline]
    pub(crate) fn repeat_count(&self, n: i64, span: Span) -> Res<i64> {
        if (0..=MAX_LOOP as i64).contains(&n) {
            return Ok(n);
        }
        if n < 0 {
            return self.err(span, format!("repeat {n} times: a count must be 0 or more"));
        }
        self.err(span, format!("repeat {n} times is more than {MAX_LOOP}"))
    }
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
        self.enter(code.span)?;
        let (native, n) = compiled(self.tier(), data, code);
        if n == 0 {
            // No slots (so no arguments kept): no frame storage to set up.
            drop(args);
            let mut f = Frame {
                data,
                this,
                me,
                slots: &mut [],
                span: code.span,
                move_name,
            };
            return self.run_entered(native, code, &mut f);
        }
        let mut buf = Slots::new();
        let slots = buf.get(n);
        // Arguments past the code's own slots are dropped.
        for (s, a) in slots[..code.slots as usize].iter_mut().zip(args) {
            *s = a;
        }
        let mut f = Frame {
            data,
            this,
            me,
            slots,
            span: code.span,
            move_name,
        };
        let r = self.run_entered(native, code, &mut f);
        buf.empty(n);
        r
    }

    /// Runs compiled code in its frame, entered by the caller: the frame's
    /// card is the current card meanwhile, and the depth is left again.
    #[inline(always)]
    fn run_entered(
        &mut self,
        native: Option<&dyn Compiled>,
        code: &Code,
        f: &mut Frame,
    ) -> Res<Value> {
        let saved = self.current_card;
        if let Some(c) = f.this {
            self.current_card = Some(self.st.objs[c as usize].def);
        }
        let r = self.run_body(native, code, f);
        self.current_card = saved;
        self.leave();
        returned(r)
    }

    /// [`Game::exec_in`] of a window move's body, `it` its one argument:
    /// no iterator of arguments to set up and drain. Not inlined: the
    /// window loop stays small.
    #[inline(never)]
    pub(crate) fn exec_move(
        &mut self,
        data: &Data,
        code: &Code,
        me: PlayerId,
        it: Value,
        m: u16,
    ) -> Res<Value> {
        self.enter(code.span)?;
        let (native, n) = compiled(self.tier(), data, code);
        let mut buf = Slots::new();
        let slots = buf.get(n);
        if let Some(s) = slots[..code.slots as usize].first_mut() {
            *s = it;
        }
        let mut f = Frame {
            data,
            this: None,
            me,
            slots,
            span: code.span,
            move_name: Some(m),
        };
        let saved = self.current_card;
        let r = self.run_body(native, code, &mut f);
        self.current_card = saved;
        self.leave();
        buf.empty(n);
        returned(r)
    }

    /// Runs code in its frame on the game's tier: walked by the reference
    /// evaluator, else as compiled. A `return` is left to the caller.
    #[inline(always)]
    pub(crate) fn run_body(
        &mut self,
        native: Option<&dyn Compiled>,
        code: &Code,
        f: &mut Frame,
    ) -> Res<Value> {
        match native {
            None => self.walk(&code.stmts, f).map(|()| Value::None),
            Some(b) => b.run(self, f),
        }
    }

    /// Sets a global counter; a change is logged. With
    /// [`Game::set_counter`], the one place counters change.
    #[inline(always)]
    pub(crate) fn set_global(&mut self, i: u16, new: i64) {
        let old = std::mem::replace(&mut self.st.globals[i as usize], new);
        if old != new {
            self.push_with(|| Entry::Global {
                counter: i,
                old,
                new,
            });
        }
    }

    /// Sets a player's counter; a change is logged.
    #[inline(always)]
    pub(crate) fn set_counter(&mut self, p: PlayerId, c: u16, new: i64) {
        let old = self.st.counter(p, c);
        *self.st.counter_mut(p, c) = new;
        if old != new {
            self.push_with(|| Entry::Counter {
                player: p,
                counter: c,
                old,
                new,
            });
        }
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
                self.set_counter(*p, *c, new);
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

    #[inline]
    pub fn int(&self, v: &Value, span: Span) -> Res<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            Value::None => Ok(0),
            other => self.err(span, format!("expected a number, found {}", other.kind())),
        }
    }

    #[inline]
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
    #[inline(always)]
    pub fn check_visible(&self, z: ZoneRef, span: Span) -> Res<()> {
        match self.viewer {
            Some(v) => self.visible_to(v, z, span),
            None => Ok(()),
        }
    }

    #[inline(never)]
    fn visible_to(&self, v: PlayerId, z: ZoneRef, span: Span) -> Res<()> {
        if !super::log::sees_contents(&self.data, z, Some(v)) {
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
                (_, Some(Special::Name)) => Value::text(super::log::pname(*p)),
                _ => return self.err(f.span, "players have counters, `index`, `turns` and `name`"),
            },
            Value::Card(c) => match (field.prop, sp) {
                (Some(pr), _) => Value::Int(self.st.prop(&self.data, *c, pr)),
                (_, Some(Special::Id)) => Value::Def(self.st.objs[*c as usize].def),
                (_, Some(Special::Name)) => {
                    Value::text(self.data.def_name(self.st.objs[*c as usize].def))
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
                (_, Some(Special::Name)) => Value::text(self.data.def_name(*d)),
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
                        Value::text(self.data.event_name(e.name))
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

    pub(crate) fn binop(&self, op: BinOp, a: Value, b: Value, span: Span) -> Res<Value> {
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
                    Value::text(s)
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
