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
pub(crate) use super::frame::{Charge, Enter, Need, Returns};
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
    /// Arguments past the code's own slots are dropped.
    pub(crate) fn exec_in(
        &mut self,
        data: &Data,
        code: &Code,
        this: Option<ObjId>,
        me: PlayerId,
        args: impl IntoIterator<Item = Value>,
        move_name: Option<u16>,
    ) -> Res<Value> {
        let (native, n) = compiled(self.tier(), data, code);
        let e = Enter {
            data,
            this,
            me,
            span: code.span,
            move_name,
        };
        let own = code.slots as usize;
        let bind = |s: &mut [Value]| {
            for (s, a) in s[..own].iter_mut().zip(args) {
                *s = a;
            }
        };
        let need = Need { n, own };
        self.framed(Charge::Step, e, need, bind, |g, f| {
            g.run_body(native, code, f)
        })
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
        let (native, n) = compiled(self.tier(), data, code);
        let e = Enter {
            data,
            this: None,
            me,
            span: code.span,
            move_name: Some(m),
        };
        let has_it = code.slots > 0;
        let bind = |s: &mut [Value]| {
            if has_it {
                s[0] = it;
            }
        };
        let need = Need {
            n,
            own: code.slots as usize,
        };
        self.framed(Charge::Step, e, need, bind, |g, f| {
            g.run_body(native, code, f)
        })
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
        let old = std::mem::replace(self.st.global_mut(i), new);
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

    /// `at`'s index `v`: a number, a negative one past the end.
    pub(crate) fn index(&self, v: &Value, span: Span) -> Res<usize> {
        Ok(usize::try_from(self.int(v, span)?).unwrap_or(usize::MAX))
    }

    /// A value as a number (every kernel operation's reading of one): the
    /// usual kinds inline, the error out of line.
    #[inline(always)]
    pub fn int(&self, v: &Value, span: Span) -> Res<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            Value::None => Ok(0),
            other => self.not_int(other, span),
        }
    }

    #[cold]
    #[inline(never)]
    fn not_int(&self, other: &Value, span: Span) -> Res<i64> {
        self.err(span, format!("expected a number, found {}", other.kind()))
    }

    #[inline]
    pub fn player(&self, v: &Value, span: Span) -> Res<PlayerId> {
        match v {
            Value::Player(p) => Ok(*p),
            other => self.err(span, format!("expected a player, found {}", other.kind())),
        }
    }

    /// The items of a list-like value: a list, a zone's cards, one card. A
    /// list's are shared; a zone's are copied, with no allocation for a
    /// handful (a zone is read for every option listed).
    pub fn items(&self, v: &Value, span: Span) -> Res<Items> {
        Ok(match v {
            Value::List(l) => Items::Shared(l.clone()),
            Value::Zone(z) => {
                self.check_visible(*z, span)?;
                Items::Copied(self.zone_values(*z).collect())
            }
            Value::None => Items::Copied(Default::default()),
            Value::Card(_) | Value::Player(_) | Value::Def(_) => {
                Items::Copied(smallvec::smallvec![v.clone()])
            }
            other => return self.err(span, format!("expected a list, found {}", other.kind())),
        })
    }

    /// [`Game::items`] for code that takes them all (a `for`, a choice, a
    /// draw): a zone's cards are copied, a step each, charged first (a
    /// list's are shared, paid for when it was made).
    pub(crate) fn items_copied(&mut self, v: &Value, span: Span) -> Res<Items> {
        self.charge_copy(v, span)?;
        self.items(v, span)
    }

    /// The steps of [`Game::items_copied`], for code that copies the items
    /// itself.
    pub(crate) fn charge_copy(&mut self, v: &Value, span: Span) -> Res<()> {
        if let Value::Zone(z) = v {
            self.check_visible(*z, span)?;
            self.charge(span, self.st.listed(*z) as u64)?;
        }
        Ok(())
    }

    /// Item `i` of a list-like value, as [`Game::items`] lists them, read in
    /// place: `first` and `at` of a big zone copy nothing.
    pub fn item_at(&self, v: &Value, i: usize, span: Span) -> Res<Value> {
        Ok(match v {
            Value::List(l) => l.get(i).cloned(),
            Value::Zone(z) => {
                self.check_visible(*z, span)?;
                self.st.zones[self.st.inst(*z)].item(i).map(Value::Card)
            }
            Value::None => None,
            Value::Card(_) | Value::Player(_) | Value::Def(_) => (i == 0).then(|| v.clone()),
            other => return self.err(span, format!("expected a list, found {}", other.kind())),
        }
        .unwrap_or(Value::None))
    }

    /// A zone's cards as values, in the order the interpreter lists them:
    /// ordered zones top card first, pile rows in their order (each pile's
    /// top card).
    pub(crate) fn zone_values(&self, z: ZoneRef) -> impl Iterator<Item = Value> + '_ {
        self.st.zones[self.st.inst(z)].listing().map(Value::Card)
    }

    /// `a + b` of lists and zones: `a`'s list grown in place when nothing
    /// else holds it (a chain of `+` makes one list), else one new list. A
    /// zone's cards go into the game's spare list, kept again as the result
    /// (a sum of zones is mostly filtered and dropped at once).
    fn concat(&mut self, a: Value, b: &Value, span: Span) -> Res<Value> {
        // Seen in order: a hidden `a` is the error, before anything of `b`.
        if let Value::Zone(z) = a {
            self.check_visible(z, span)?;
        }
        let y = self.items(b, span)?;
        let a_list = matches!(a, Value::List(_));
        let mut list = match a {
            Value::List(l) => l,
            Value::Zone(z) => {
                let mut l = self.spare_list();
                if let Some(v) = Arc::get_mut(&mut l) {
                    v.extend(self.zone_values(z));
                } else {
                    l = Arc::new(self.zone_values(z).collect());
                }
                l
            }
            other => return self.err(span, format!("expected a list, found {}", other.kind())),
        };
        if list.len() + y.len() > super::MAX_LIST {
            return self.err(
                span,
                format!("a list of more than {} items", super::MAX_LIST),
            );
        }
        self.let_go_of_spare(&list);
        // Items copied cost a step each: a zone's cards, `b`'s list, and
        // `a`'s when something else holds it.
        let mut copied = if let Value::List(_) | Value::Zone(_) = b {
            y.len()
        } else {
            0
        };
        if !a_list || Arc::get_mut(&mut list).is_none() {
            copied += list.len();
        }
        self.charge(span, copied as u64)?;
        if list.len() >= crate::limits::MEMORY_CHECK_STEPS as usize {
            // A big copy already made: weighed now, not at the next check.
            self.check_memory(span)?;
        }
        match Arc::get_mut(&mut list) {
            Some(v) => v.extend(y.iter().cloned()),
            None => {
                let mut v = Vec::with_capacity(list.len() + y.len());
                v.extend(list.iter().cloned());
                v.extend(y.iter().cloned());
                list = Arc::new(v);
            }
        }
        Ok(self.keep_list(list))
    }

    /// `a + b` where one is a string: `a`'s string grown in place when
    /// nothing else holds it (a chain of `+` makes one string).
    fn join(&mut self, a: Value, b: &Value, span: Span) -> Res<Value> {
        let mut s = match a {
            Value::Str(s) => s,
            other => Arc::new(self.show(&other)),
        };
        match Arc::get_mut(&mut s) {
            Some(t) => self.show_into(b, t),
            None => {
                let mut t = String::with_capacity(s.len() + 16);
                t.push_str(&s);
                self.show_into(b, &mut t);
                s = Arc::new(t);
            }
        }
        if s.len() > super::MAX_LIST {
            return self.text_too_long(span);
        }
        self.charge_text(s.len(), span)?;
        Ok(Value::Str(s))
    }

    /// The error of a `+` whose string would pass [`super::MAX_LIST`] bytes
    /// (also raised where the string is only measured).
    pub(crate) fn text_too_long<T>(&self, span: Span) -> Res<T> {
        self.err(
            span,
            format!("a string of more than {} bytes", super::MAX_LIST),
        )
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

    /// A card's `id`, `name`, `owner`, `zone` or `host` (None for another
    /// field): read by [`Game::field`], and in place by the speed tier.
    #[inline(always)]
    pub(crate) fn card_special(&self, c: ObjId, sp: Special) -> Option<Value> {
        let o = &self.st.objs[c as usize];
        Some(match sp {
            Special::Id => Value::Def(o.def),
            Special::Name => self.data.name_value(o.def),
            Special::Owner => Value::Player(o.owner),
            Special::Zone => Value::Zone(self.st.zone_of(c)),
            Special::Host => o.host.map_or(Value::None, Value::Card),
            _ => return None,
        })
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
                (_, Some(sp)) if let Some(v) = self.card_special(*c, sp) => v,
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
                (_, Some(Special::Name)) => self.data.name_value(*d),
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

    pub(crate) fn binop(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> Res<Value> {
        use BinOp::*;
        Ok(match op {
            Eq => Value::Bool(self.equal_charged(&a, &b, span)?),
            Ne => Value::Bool(!self.equal_charged(&a, &b, span)?),
            Add => match (&a, &b) {
                (Value::List(_) | Value::Zone(_), Value::List(_) | Value::Zone(_)) => {
                    return self.concat(a, &b, span);
                }
                (Value::Str(_), _) | (_, Value::Str(_)) => return self.join(a, &b, span),
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

    /// Two values' equality (`==`): the usual kinds inline, lists out of
    /// line.
    #[inline(always)]
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
            (Value::List(x), Value::List(y)) => self.equal_lists(x, y),
            _ => false,
        }
    }

    #[inline(never)]
    fn equal_lists(&self, x: &[Value], y: &[Value]) -> bool {
        self.equal_counting(x, y, &mut 0)
    }

    /// [`Game::equal`], paying for the items of lists it compared (nested
    /// ones too) as a move pays for the cards it passes over, past 64.
    #[inline(always)]
    pub(crate) fn equal_charged(&mut self, a: &Value, b: &Value, span: Span) -> Res<bool> {
        match (a, b) {
            (Value::List(x), Value::List(y)) => self.equal_lists_charged(x, y, span),
            _ => Ok(self.equal(a, b)),
        }
    }

    #[inline(never)]
    fn equal_lists_charged(&mut self, x: &[Value], y: &[Value], span: Span) -> Res<bool> {
        let mut n = 0;
        let eq = self.equal_counting(x, y, &mut n);
        self.charge_passed(span, n)?;
        Ok(eq)
    }

    /// Two lists' equality, adding to `n` the items compared.
    pub(crate) fn equal_counting(&self, x: &[Value], y: &[Value], n: &mut usize) -> bool {
        if x.len() != y.len() {
            return false;
        }
        x.iter().zip(y.iter()).all(|(a, b)| {
            *n += 1;
            match (a, b) {
                (Value::List(a), Value::List(b)) => self.equal_counting(a, b, n),
                _ => self.equal(a, b),
            }
        })
    }

    /// A value as transcript text.
    pub fn show(&self, v: &Value) -> String {
        let mut s = String::new();
        self.show_into(v, &mut s);
        s
    }

    /// The length of [`Game::show`]'s text, measured, not made.
    pub(crate) fn shown_len(&self, v: &Value) -> usize {
        match v {
            Value::Str(s) => s.len(),
            Value::Card(c) => self.data.def_name(self.st.objs[*c as usize].def).len(),
            Value::Def(d) => self.data.def_name(*d).len(),
            Value::Int(i) => int_len(*i),
            Value::List(l) => {
                let items: usize = l.iter().map(|v| self.shown_len(v)).sum();
                items + 2 * l.len().saturating_sub(1)
            }
            v => self.show(v).len(),
        }
    }

    /// [`Game::show`] appended to `out`.
    pub fn show_into(&self, v: &Value, out: &mut String) {
        use std::fmt::Write;
        match v {
            Value::None => out.push_str("none"),
            Value::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Value::Str(s) => out.push_str(s),
            Value::Card(c) => out.push_str(self.data.def_name(self.st.objs[*c as usize].def)),
            Value::Def(d) => out.push_str(self.data.def_name(*d)),
            Value::Player(p) => out.push_str(&super::log::pname(*p)),
            Value::Zone(z) => out.push_str(&super::log::zone_label(&self.data, *z)),
            Value::Event(i) => out.push_str(self.data.event_name(self.st.events[*i].name)),
            Value::List(l) => {
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.show_into(v, out);
                }
            }
        }
    }
}

/// The items of a list-like value ([`Game::items`]).
pub enum Items {
    Shared(Arc<Vec<Value>>),
    Copied(smallvec::SmallVec<[Value; 8]>),
}

impl std::ops::Deref for Items {
    type Target = [Value];

    #[inline(always)]
    fn deref(&self) -> &[Value] {
        match self {
            Items::Shared(l) => l,
            Items::Copied(v) => v,
        }
    }
}

/// The digits of `i` as `{i}` writes it, with its sign.
fn int_len(i: i64) -> usize {
    let (mut n, mut u) = (1 + usize::from(i < 0), i.unsigned_abs());
    while u >= 10 {
        u /= 10;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::int_len;

    #[test]
    fn int_len_counts_as_display_writes() {
        for i in [
            0,
            7,
            -7,
            9,
            10,
            -10,
            99,
            100,
            12345,
            -99999,
            i64::MAX,
            i64::MIN,
        ] {
            assert_eq!(int_len(i), i.to_string().len(), "{i}");
        }
    }
}
