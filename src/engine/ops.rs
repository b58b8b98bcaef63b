//! The kernel operations behind [`Builtin`]: moves, shuffles, decisions, events.

use std::sync::Arc;

use super::exec::Frame;
use super::log::Entry;
use super::request::{Choice, Kind, Request};
use super::state::{Event, Modifier, StackItem, Until};
use super::{Flow, Game, Res};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{Field, Span, Special};
use crate::value::{Args, Cards, ObjId, PlayerId, Value, ZoneRef};

/// Who answers a pick: a player given as the first operand (taken off
/// the operands), else `me`, the caller.
#[inline]
fn picker(a: &mut Args, me: PlayerId) -> PlayerId {
    match a.first() {
        Some(&Value::Player(p)) => {
            a.remove(0);
            p
        }
        _ => me,
    }
}

/// What a built-in runs with its arguments evaluated (see [`op_of`]).
pub(crate) type Op = fn(&mut Game, Builtin, &mut Args, &mut Frame) -> Res<Value>;

/// The operation of built-in `b`, chosen once where a call is compiled:
/// the ones calls reach most (picks, `at`, `contains`, marks, modifiers,
/// attached cards, the board's) a small function of their own, so a call
/// pays no entry into the whole match of [`Game::call_with`]; the rest
/// that match.
pub(crate) fn op_of(b: Builtin) -> Op {
    match b {
        Builtin::Choose
        | Builtin::ChooseOne
        | Builtin::May
        | Builtin::ChooseOption
        | Builtin::Order => Game::choose_op,
        Builtin::At => Game::at_op,
        Builtin::Contains => Game::contains_op,
        Builtin::Mark | Builtin::Unmark => Game::mark_op,
        Builtin::Modify => Game::modify_op,
        Builtin::Attached => Game::attached_op,
        Builtin::Roll
        | Builtin::Piece
        | Builtin::Advance
        | Builtin::PlacePiece
        | Builtin::Squares
        | Builtin::NextSquare
        | Builtin::SquareKind
        | Builtin::SquareName
        | Builtin::SquareCard
        | Builtin::SquareGet
        | Builtin::SquareSet
        | Builtin::BoardSections
        | Builtin::ShowBoard => Game::board_call,
        _ => Game::call_with,
    }
}

impl Game {
    pub fn call(&mut self, b: Builtin, a: Args, f: &mut Frame) -> Res<Value> {
        self.call_op(Game::call_with, b, a, f)
    }

    /// A call of built-in `b` by its operation `op` (see [`op_of`]).
    #[inline(always)]
    pub(crate) fn call_op(&mut self, op: Op, b: Builtin, mut a: Args, f: &mut Frame) -> Res<Value> {
        let r = op(self, b, &mut a, f);
        release(a);
        r
    }

    pub(crate) fn call_with(&mut self, b: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let sp = f.span;
        Ok(match b {
            Builtin::Roll
            | Builtin::Piece
            | Builtin::Advance
            | Builtin::PlacePiece
            | Builtin::Squares
            | Builtin::NextSquare
            | Builtin::SquareKind
            | Builtin::SquareName
            | Builtin::SquareCard
            | Builtin::SquareGet
            | Builtin::SquareSet
            | Builtin::BoardSections
            | Builtin::ShowBoard => return self.board_call(b, a, f),
            Builtin::Move | Builtin::MoveAll => {
                let cause = match a.get(2) {
                    Some(Value::Int(e)) => Some(*e as u16),
                    _ => None,
                };
                let bottom = matches!(a.get(3), Some(Value::Str(s)) if &**s == "bottom");
                self.move_value(&a[0], &a[1], cause, bottom, b == Builtin::MoveAll, f)?
            }
            Builtin::Shuffle => {
                let z = self.zone_arg(&a[0], f)?;
                self.shuffle_charged(z, sp)?;
                Value::None
            }
            Builtin::Top | Builtin::Bottom => {
                let z = self.zone_arg(&a[0], f)?;
                let cards = &self.st.zones[self.st.inst(z)].cards;
                match (b, a.get(1)) {
                    (Builtin::Bottom, _) => cards
                        .first()
                        .map(|&c| Value::Card(c))
                        .unwrap_or(Value::None),
                    (_, None) => cards.last().map(|&c| Value::Card(c)).unwrap_or(Value::None),
                    (_, Some(n)) => {
                        let n = (self.int(n, sp)?.max(0) as usize).min(cards.len());
                        // A list a built-in makes pays for its items past 64.
                        self.charge_passed(sp, n)?;
                        let cards = &self.st.zones[self.st.inst(z)].cards;
                        Value::list(
                            cards
                                .iter()
                                .rev()
                                .take(n)
                                .map(|&c| Value::Card(c))
                                .collect(),
                        )
                    }
                }
            }
            Builtin::Count | Builtin::Empty => {
                let n = self.count(&a[0], sp)?;
                if b == Builtin::Count {
                    Value::Int(n as i64)
                } else {
                    Value::Bool(n == 0)
                }
            }
            // `first` and `contains` of none (an unset option): no list made.
            Builtin::First => match &a[0] {
                Value::None => Value::None,
                v => self.item_at(v, 0, sp)?,
            },
            Builtin::At => return self.at_op(b, a, f),
            Builtin::Contains => return self.contains_op(b, a, f),
            Builtin::Pile | Builtin::PileCount => {
                let z = self.zone_arg(&a[0], f)?;
                let d = self.def_arg(&a[1], f)?;
                let pile = self.pile_of(z, d);
                if b == Builtin::Pile {
                    pile.last().map(|&c| Value::Card(c)).unwrap_or(Value::None)
                } else {
                    Value::Int(pile.len() as i64)
                }
            }
            Builtin::Piles => {
                let z = self.zone_arg(&a[0], f)?;
                let inst = self.st.inst(z);
                // A list a built-in makes pays for its items as a move pays
                // for the cards it passes over: big ones cost what they cost.
                self.charge_passed(sp, self.st.zones[inst].piles.len())?;
                let zi = &self.st.zones[inst];
                Value::list(zi.piles.iter().map(|(d, _)| Value::Def(*d)).collect())
            }
            Builtin::SetActive => {
                self.set_active(&a[0], sp)?;
                Value::None
            }
            Builtin::EmptyPiles => {
                let z = self.zone_arg(&a[0], f)?;
                Value::Int(self.empty_piles(z))
            }
            Builtin::Choose
            | Builtin::ChooseOne
            | Builtin::May
            | Builtin::ChooseOption
            | Builtin::Order => return self.choose_op(b, a, f),
            Builtin::ChooseEach => self.choose_each(a, f)?,
            Builtin::Reveal | Builtin::Look => {
                let cards = self.cards_walked(&a[0], f)?;
                let who = match b {
                    Builtin::Look => 1u8.checked_shl(f.me.into()).unwrap_or(0),
                    _ => u8::MAX,
                };
                for &c in &cards {
                    self.st.objs[c as usize].seen |= who;
                }
                if !cards.is_empty() && self.logging {
                    let defs = cards
                        .iter()
                        .map(|&c| self.st.objs[c as usize].def)
                        .collect();
                    self.push(Entry::Show {
                        player: f.me,
                        cards: defs,
                        private: b == Builtin::Look,
                    });
                }
                Value::list(cards.into_iter().map(Value::Card).collect())
            }
            Builtin::Emit => {
                let name = self.int(&a[0], sp)? as u16;
                let mut ev = Event::new(name);
                ev.card = match a.get(1) {
                    Some(Value::Card(c)) => Some(*c),
                    _ => None,
                };
                ev.player = Some(match a.get(2) {
                    Some(Value::Player(p)) => *p,
                    _ => f.me,
                });
                let counted = a.get(3).is_some_and(|v| !matches!(v, Value::None));
                ev.amount = if counted { self.int(&a[3], sp)? } else { 0 };
                ev.target = a.get(4).cloned().unwrap_or(Value::None);
                ev.source = f.this;
                // The event as it happened: its amount (possibly changed by `would`
                // abilities) when one was given, else whether it happened.
                match self.emit(ev, counted, f)? {
                    Some(ev) if counted => Value::Int(ev.amount),
                    Some(_) => Value::Bool(true),
                    None if counted => Value::Int(0),
                    None => Value::Bool(false),
                }
            }
            Builtin::Prevent => {
                match self.st.events.last_mut() {
                    Some(e) if e.would => e.prevented = true,
                    _ => {
                        return self.err(
                            sp,
                            "prevent() works only while a `would` event is being handled",
                        );
                    }
                }
                Value::None
            }
            Builtin::Run | Builtin::Stack => {
                let Value::Card(c) = a[0] else {
                    return match a[0] {
                        Value::None => Ok(Value::None),
                        ref other => self.err(
                            sp,
                            format!("{} needs a card, not {}", b.name(), other.kind()),
                        ),
                    };
                };
                let effect = self.int(&a[1], sp)? as u16;
                let me = match a.get(2) {
                    Some(p) => self.player(p, sp)?,
                    None => f.me,
                };
                if b == Builtin::Stack {
                    self.st.stack.push(StackItem {
                        card: c,
                        effect,
                        me,
                    });
                    let def = self.named(c);
                    self.push(Entry::Stack {
                        player: me,
                        def,
                        push: true,
                    });
                    Value::None
                } else {
                    let target = a.get(3).cloned().unwrap_or(Value::None);
                    self.run_effect_in(f.data, c, effect, me, target)?
                }
            }
            Builtin::Players => self.player_list(self.st.active, true),
            Builtin::Others => self.player_list(f.me, false),
            Builtin::NextPlayer => {
                let p = self.player(&a[0], sp)?;
                Value::Player(self.next_alive(p))
            }
            Builtin::Player => {
                let n = self.int(&a[0], sp)?;
                if n < 1 || n > self.st.nplayers as i64 {
                    return self.err(
                        sp,
                        format!(
                            "there is no player {n} in a {}-player game",
                            self.st.nplayers
                        ),
                    );
                }
                Value::Player((n - 1) as PlayerId)
            }
            Builtin::Create => {
                let (first, n) = self.create(a, f)?;
                let mut made = self.spare_list();
                if let Some(items) = Arc::get_mut(&mut made) {
                    items.extend((first..first + n as ObjId).map(Value::Card));
                }
                self.keep_list(made)
            }
            Builtin::Attach => {
                let host = match &a[1] {
                    Value::Card(h) => Some(*h),
                    Value::None => None,
                    other => {
                        return self.err(
                            sp,
                            format!("attach needs a host card, not {}", other.kind()),
                        );
                    }
                };
                for c in self.cards_walked(&a[0], f)? {
                    self.st.set_host(c, host);
                }
                Value::None
            }
            Builtin::Attached => return self.attached_op(b, a, f),
            Builtin::Mark | Builtin::Unmark => return self.mark_op(b, a, f),
            Builtin::Modify => return self.modify_op(b, a, f),
            Builtin::EndTurn => {
                // The jump skips what was still waiting for a check point.
                self.st.pending.clear();
                self.st.end_turn = true;
                return Err(Flow::EndTurn.into());
            }
            Builtin::RepeatPhase => {
                self.st.repeat_phase = true;
                Value::None
            }
            Builtin::Log => {
                let v = std::mem::take(&mut a[0]);
                self.log_line(super::said::Said::One(v), sp)?;
                Value::None
            }
            Builtin::Option => {
                if let Value::Str(name) = &a[0]
                    && let Some(i) = self.data.options.iter().position(|o| **o == **name)
                {
                    return Ok(self.option_vals[i].clone());
                }
                let found = match &a[0] {
                    Value::Str(name) => self.options.get(&**name),
                    other => self.options.get(&self.show(other)),
                };
                match found {
                    Some(defs) => Value::list(defs.iter().map(|&d| Value::Def(d)).collect()),
                    None => Value::None,
                }
            }
            Builtin::HasTag => self.has_tag(&a[0], &a[1], sp)?,
            Builtin::Defs => {
                let tag = self.int(&a[0], sp)?;
                let data = Arc::clone(&self.data);
                let defs = data.tagged(tag);
                self.st.scanned += defs.len() as u64;
                self.charge_passed(sp, defs.len())?;
                Value::list(defs.iter().map(|&d| Value::Def(d)).collect())
            }
            Builtin::Listed => {
                let def = match &a[0] {
                    Value::Card(c) => Some(self.st.objs[*c as usize].def),
                    Value::Def(d) => Some(*d),
                    _ => None,
                };
                let data = Arc::clone(&self.data);
                let list = def.map_or(&[][..], |d| &data.defs[d as usize].list[..]);
                let n: u64 = list.iter().map(|l| u64::from(l.n)).sum();
                if n > super::MAX_LIST as u64 {
                    return self.err(sp, format!("a list of more than {} items", super::MAX_LIST));
                }
                self.st.scanned += list.len() as u64;
                self.charge_passed(sp, n as usize)?;
                let mut out = Vec::with_capacity(n as usize);
                for l in list {
                    out.extend((0..l.n).map(|_| Value::Def(l.def)));
                }
                Value::list(out)
            }
            Builtin::RandomPick => {
                let items = self.items_copied(&a[0], sp)?;
                let n = (self.int(&a[1], sp)?.max(0) as usize).min(items.len());
                // One item: no copy of the list to take it from.
                if n == 1 {
                    let i = self.st.below(items.len());
                    return Ok(Value::list(vec![items[i].clone()]));
                }
                // A step an item copied to draw from, and an item each draw
                // moves up.
                if let Value::List(_) = a[0] {
                    self.charge(sp, items.len() as u64)?;
                }
                let mut items = items.to_vec();
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    let i = self.st.below(items.len());
                    self.charge(sp, (items.len() - 1 - i) as u64)?;
                    out.push(items.remove(i));
                }
                Value::list(out)
            }
            Builtin::Random => {
                let (lo, hi) = (self.int(&a[0], sp)?, self.int(&a[1], sp)?);
                if hi < lo {
                    return self.err(sp, "random(lo, hi) needs lo <= hi");
                }
                // The range may span all of i64: count it in i128, draw in u64 steps.
                let span = (hi as i128 - lo as i128 + 1).min(usize::MAX as i128) as usize;
                Value::Int((lo as i128 + self.st.below(span) as i128).min(hi as i128) as i64)
            }
            Builtin::Sum | Builtin::Any => unreachable!("compiled as special forms"),
            Builtin::Min | Builtin::Max => {
                let (x, y) = (self.int(&a[0], sp)?, self.int(&a[1], sp)?);
                Value::Int(if b == Builtin::Min {
                    x.min(y)
                } else {
                    x.max(y)
                })
            }
            Builtin::Window => {
                let w = self.int(&a[0], sp)? as u16;
                self.window_in(f.data, w)?;
                Value::None
            }
            Builtin::ResolveTriggers => {
                self.resolve_pending()?;
                self.check_end_always(f.data)?;
                Value::None
            }
            Builtin::Lose => {
                let p = self.player(&a[0], sp)?;
                if self.st.lose(p) {
                    self.push(Entry::Lose { player: p });
                }
                if self.over() {
                    return Err(Flow::EndGame.into());
                }
                Value::None
            }
            Builtin::Get | Builtin::Set => {
                let name = self.show(&a[1]);
                let field = self.field_by_name(&name, sp)?;
                if b == Builtin::Get {
                    self.field(&a[0], &field, f)?
                } else {
                    let v = a.pop().unwrap_or_default();
                    self.set_field(&a[0], &field, v, f)?;
                    Value::None
                }
            }
            Builtin::ZoneOf => {
                let z = self.int(&a[0], sp)? as u16;
                let owner = match a.get(1) {
                    Some(p) => self.player(p, sp)?,
                    None => f.me,
                };
                Value::Zone(ZoneRef {
                    zone: z,
                    owner: if self.st.shared(z) { 0 } else { owner },
                })
            }
        })
    }

    /// `shuffle(z)`: a step a card shuffled, charged first, as a walk.
    pub(crate) fn shuffle_charged(&mut self, z: ZoneRef, span: Span) -> Res<()> {
        self.charge(span, self.st.zones[self.st.inst(z)].cards.len() as u64)?;
        self.shuffle_zone(z);
        Ok(())
    }

    pub(crate) fn shuffle_zone(&mut self, z: ZoneRef) {
        self.st.shuffle(z);
        if self.logging {
            self.push(Entry::Shuffle {
                zone: z,
                size: self.st.size(z),
            });
        }
    }

    pub(crate) fn set_active(&mut self, p: &Value, sp: crate::lang::ir::Span) -> Res<()> {
        let p = self.player(p, sp)?;
        self.st.active = p;
        if self.logging {
            self.push(Entry::Text {
                text: format!("{} is the active player", super::log::pname(p)),
            });
        }
        Ok(())
    }

    /// `create(@card, zone, n?)`: the first new card and how many were made
    /// (they follow it), for callers that want their list.
    pub(crate) fn create(&mut self, a: &Args, f: &Frame) -> Res<(ObjId, usize)> {
        let d = self.def_arg(&a[0], f)?;
        let z = self.zone_arg(&a[1], f)?;
        self.create_n(d, z, a.get(2), f)
    }

    /// [`Game::create`] of a card and zone already read.
    pub(crate) fn create_n(
        &mut self,
        d: u16,
        z: ZoneRef,
        n: Option<&Value>,
        f: &Frame,
    ) -> Res<(ObjId, usize)> {
        let sp = f.span;
        let n = match n {
            Some(v) => self.int(v, sp)?,
            None => 1,
        };
        if !(0..=100_000).contains(&n) {
            return self.err(sp, format!("create: {n} cards is out of range"));
        }
        if self.st.objs.len() + n as usize > super::MAX_OBJECTS {
            return self.err(
                sp,
                format!(
                    "create: the game would hold more than {} cards",
                    super::MAX_OBJECTS
                ),
            );
        }
        let first = self.st.new_objs(&self.data, d, z, n as usize);
        if n > 0 {
            let setup = self.st.turn == 0;
            self.push_with(|| Entry::Created {
                def: d,
                n: n as usize,
                to: z,
                setup,
            });
        }
        Ok((first, n as usize))
    }

    /// `for d in items { create(d, z) }` at once where it can run as one:
    /// every item a card id (or a card, read as its id), a zone that keeps
    /// no piles, room for all the loop's steps (a step an item, charged
    /// here) and cards. False, with nothing done, where it cannot: the
    /// loop then runs one item at a time.
    pub(crate) fn create_each(&mut self, items: &[Value], z: ZoneRef) -> bool {
        let n = items.len();
        if !self.budget.room(n as u64)
            || self.st.objs.len() + n > super::MAX_OBJECTS
            || self.st.is_piles(z)
        {
            return false;
        }
        let mut defs: smallvec::SmallVec<[u16; 64]> = smallvec::SmallVec::with_capacity(n);
        for v in items {
            defs.push(match v {
                Value::Def(d) => *d,
                Value::Card(c) => self.st.objs[*c as usize].def,
                _ => return false,
            });
        }
        self.budget.spend(n as u64);
        self.st.new_each(&self.data, &defs, z);
        if self.logging {
            let setup = self.st.turn == 0;
            for &def in &defs {
                self.keep(Entry::Created {
                    def,
                    n: 1,
                    to: z,
                    setup,
                });
            }
        }
        true
    }

    fn field_by_name(&self, name: &str, sp: crate::lang::ir::Span) -> Res<Field> {
        let f = Field::named(&self.data.names, name);
        if f.counter.is_none() && f.prop.is_none() && f.special.is_none() {
            return self.err(sp, format!("unknown field \"{name}\""));
        }
        Ok(f)
    }

    pub fn run_effect(&mut self, c: ObjId, effect: u16, me: PlayerId) -> Res<Value> {
        self.run_effect_with(c, effect, me, Value::None)
    }

    /// Runs a card's named effect; card effects see the value passed as `target`.
    pub fn run_effect_with(
        &mut self,
        c: ObjId,
        effect: u16,
        me: PlayerId,
        target: Value,
    ) -> Res<Value> {
        let data = self.data.clone();
        self.run_effect_in(&data, c, effect, me, target)
    }

    pub(crate) fn run_effect_in(
        &mut self,
        data: &crate::data::Data,
        c: ObjId,
        effect: u16,
        me: PlayerId,
        target: Value,
    ) -> Res<Value> {
        match self.effect_of(data, c, effect) {
            Some(code) => self.exec_in(data, code, Some(c), me, [target], None),
            None => Ok(Value::None),
        }
    }

    /// Gives card `c` the tags of `bit` (`mark`), or takes them away but
    /// for its definition's own (`unmark`).
    #[inline]
    pub(crate) fn set_tag(&mut self, c: ObjId, bit: u64, on: bool) {
        let o = &mut self.st.objs[c as usize];
        if on {
            o.tags |= bit;
            self.st.tags_seen |= bit;
        } else {
            o.tags &= !bit | self.data.defs[o.def as usize].tags
        }
    }

    /// A card's effect of kind `effect`, if its definition has one.
    #[inline(always)]
    pub(crate) fn effect_of<'d>(
        &self,
        data: &'d crate::data::Data,
        c: ObjId,
        effect: u16,
    ) -> Option<&'d crate::lang::ir::Code> {
        let def = &data.defs[self.st.objs[c as usize].def as usize];
        def.effects.get(effect as usize).and_then(|e| e.as_ref())
    }

    /// Players from `from` clockwise: including `from` or starting after it.
    pub fn turn_order(&self, from: PlayerId, include: bool) -> Vec<PlayerId> {
        self.turn_order_iter(from, include).collect()
    }

    /// [`Game::turn_order`] without building a list.
    pub fn turn_order_iter(
        &self,
        from: PlayerId,
        include: bool,
    ) -> impl Iterator<Item = PlayerId> + '_ {
        let n = self.st.nplayers as usize;
        (0..n)
            .map(move |i| ((from as usize + i) % n) as PlayerId)
            .filter(move |&p| (include || p != from) && !self.st.lost[p as usize])
    }

    /// `players()` and `others()`: filled into the spare list, which an end
    /// check reading them after every action gives back at once.
    fn player_list(&mut self, from: PlayerId, include: bool) -> Value {
        let mut list = self.spare_list();
        // A new list, or the spare one (held by nothing else).
        if let Some(v) = Arc::get_mut(&mut list) {
            v.extend(self.turn_order_iter(from, include).map(Value::Player));
        }
        self.keep_list(list)
    }

    pub fn next_alive(&self, p: PlayerId) -> PlayerId {
        let n = self.st.nplayers as usize;
        (1..=n)
            .map(|i| ((p as usize + i) % n) as PlayerId)
            .find(|&q| !self.st.lost[q as usize])
            .unwrap_or(p)
    }

    /// [`Game::cards_of`] for an effect on each card: a zone's cards cost
    /// a step each ([`State::listed`](super::state::State::listed)), as a
    /// walk, charged first (a list's items were paid for when it was made).
    pub(crate) fn cards_walked(&mut self, v: &Value, f: &Frame) -> Res<Cards> {
        if let Value::Zone(z) = v {
            self.charge(f.span, self.st.listed(*z) as u64)?;
        }
        self.cards_of(v, f)
    }

    pub fn cards_of(&self, v: &Value, f: &Frame) -> Res<Cards> {
        match v {
            Value::Card(c) => Ok(smallvec::smallvec![*c]),
            Value::None => Ok(Cards::new()),
            Value::Zone(z) => {
                let zi = &self.st.zones[self.st.inst(*z)];
                Ok(if zi.piles.is_empty() {
                    // Top card first.
                    let mut out = Cards::from_slice(&zi.cards);
                    out.reverse();
                    out
                } else {
                    zi.tops().collect()
                })
            }
            Value::List(l) => {
                let mut out = Cards::new();
                for x in l.iter() {
                    match x {
                        Value::Card(c) => out.push(*c),
                        Value::None => {}
                        other => {
                            return self.err(
                                f.span,
                                format!("expected cards, found {} in the list", other.kind()),
                            );
                        }
                    }
                }
                Ok(out)
            }
            other => self.err(f.span, format!("expected cards, found {}", other.kind())),
        }
    }

    /// `count(x)`: a zone's size (if the viewer may know it) or a list's length.
    pub(crate) fn count(&self, v: &Value, span: crate::lang::ir::Span) -> Res<usize> {
        match v {
            Value::Zone(z) => self.zone_size(*z, span),
            Value::List(l) => Ok(l.len()),
            // What `items` would list, counted with none listed.
            Value::None => Ok(0),
            Value::Card(_) | Value::Player(_) | Value::Def(_) => Ok(1),
            other => Ok(self.items(other, span)?.len()),
        }
    }

    /// A zone's size, if the viewer (a bot's seat, when one decides) may know it.
    #[inline(always)]
    pub(crate) fn zone_size(&self, z: ZoneRef, span: crate::lang::ir::Span) -> Res<usize> {
        if let Some(viewer) = self.viewer {
            self.size_seen_by(viewer, z, span)?;
        }
        Ok(self.st.size(z))
    }

    #[inline(never)]
    fn size_seen_by(&self, viewer: PlayerId, z: ZoneRef, span: crate::lang::ir::Span) -> Res<()> {
        if super::log::sees_size(&self.data, z, Some(viewer)) {
            return Ok(());
        }
        self.err(
            span,
            format!(
                "the size of {} is hidden",
                super::log::zone_label(&self.data, z)
            ),
        )
    }

    /// `move(cards, zone, cause)`: one card in, that card out (no list to
    /// allocate); else the list of cards moved.
    #[inline(always)]
    pub(crate) fn move_value(
        &mut self,
        cards: &Value,
        zone: &Value,
        cause: Option<u16>,
        bottom: bool,
        together: bool,
        f: &Frame,
    ) -> Res<Value> {
        // The usual move: one card to the top of a zone, nothing logged and
        // no ability waiting for it, so nothing but the card moves.
        if let (Value::Card(c), Value::Zone(to)) = (cards, zone)
            && !bottom
            && self.quiet_move(cause)
        {
            self.quiet_relocate(*c, *to, cause, f.span)?;
            return Ok(Value::Card(*c));
        }
        self.move_value_slow(cards, zone, cause, bottom, together, f)
    }

    /// Whether a move seen by nothing: not logged, no ability waiting for
    /// its cause.
    #[inline(always)]
    pub(crate) fn quiet_move(&self, cause: Option<u16>) -> bool {
        !self.logging && !self.reference && cause.is_none_or(|e| self.quiet_event(e))
    }

    /// Whether no ability waits for the event, before or after: kept in
    /// the state once found.
    #[inline(always)]
    pub(crate) fn quiet_event(&self, e: u16) -> bool {
        let bit = crate::value::bit(e);
        (self.st.quiet.get() & bit != 0 || self.st.heard.get() & bit == 0 && self.find_quiet(e))
            && !self.awaited(e)
    }

    /// Whether every one of `events` is quiet: all at once by `mask`, their
    /// bits ([`event_mask`]) where all have one and all are known quiet,
    /// else one by one.
    #[inline(always)]
    pub(crate) fn quiet_events(&self, events: &[u16], mask: u64) -> bool {
        mask != 0 && self.st.quiet.get() & mask == mask && self.st.awaited & mask == 0
            || events.iter().all(|&e| self.quiet_event(e))
    }

    /// [`Game::quiet_event`] not yet known: learnt either way (an event past
    /// the 64 bits is looked up each time).
    #[cold]
    #[inline(never)]
    fn find_quiet(&self, e: u16) -> bool {
        let bit = crate::value::bit(e);
        let quiet = !self.has_listeners(e, true) && !self.has_listeners(e, false);
        let known = if quiet {
            &self.st.quiet
        } else {
            &self.st.heard
        };
        known.set(known.get() | bit);
        quiet
    }

    #[inline(never)]
    fn move_value_slow(
        &mut self,
        cards: &Value,
        zone: &Value,
        cause: Option<u16>,
        bottom: bool,
        together: bool,
        f: &Frame,
    ) -> Res<Value> {
        // A step a card of a zone or item of a list, charged first, as a
        // walk of them (one card is paid by the call's step); the speed
        // tier's moves of whole zones in place charge the same.
        self.visit(cards, f.span)?;
        // A whole zone onto another with nothing logged or listening.
        if let (Value::Zone(from), Value::Zone(to)) = (cards, zone)
            && !bottom
            && self.quiet_move(cause)
        {
            let mut list = self.spare_list();
            if let Some(items) = Arc::get_mut(&mut list)
                && self.quiet_zone(*from, *to, Some(items), cause)
            {
                return Ok(self.keep_list(list));
            }
            self.spare_list = Some(list);
        }
        if let Value::Card(c) = *cards {
            let to = self.zone_arg(zone, f)?;
            return Ok(match self.move_card(c, to, cause, bottom, f)? {
                true => Value::Card(c),
                false => Value::list(Vec::new()),
            });
        }
        let list = self.cards_of(cards, f)?;
        let to = self.zone_arg(zone, f)?;
        let moved = self.move_cards(&list, to, cause, bottom, together, f)?;
        let mut list = self.spare_list();
        if let Some(items) = Arc::get_mut(&mut list) {
            items.extend(moved.into_iter().map(Value::Card));
        }
        Ok(self.keep_list(list))
    }

    #[inline]
    pub(crate) fn zone_arg(&self, v: &Value, f: &Frame) -> Res<ZoneRef> {
        match v {
            Value::Zone(z) => Ok(*z),
            other => self.expected(f, "a zone", other),
        }
    }

    #[inline]
    pub(crate) fn def_arg(&self, v: &Value, f: &Frame) -> Res<u16> {
        match v {
            Value::Def(d) => Ok(*d),
            Value::Card(c) => Ok(self.st.objs[*c as usize].def),
            other => self.expected(f, "a card id like @name", other),
        }
    }

    /// The pile of a definition in a pile zone (none: empty).
    #[inline]
    pub(crate) fn pile_of(&self, z: ZoneRef, d: u16) -> &[ObjId] {
        self.st.zones[self.st.inst(z)].pile(d)
    }

    /// `empty_piles(zone)`.
    #[inline]
    pub(crate) fn empty_piles(&self, z: ZoneRef) -> i64 {
        self.st.zones[self.st.inst(z)].nempty as i64
    }

    #[cold]
    #[inline(never)]
    fn expected<T>(&self, f: &Frame, what: &str, found: &Value) -> Res<T> {
        self.err(f.span, format!("expected {what}, found {}", found.kind()))
    }

    /// The `player` of a move's `would` event: the owner of the player zone
    /// involved (the destination first), else the player running the code.
    fn mover(&self, from: ZoneRef, to: ZoneRef, me: PlayerId) -> PlayerId {
        if !self.st.shared(to.zone) {
            to.owner
        } else if !self.st.shared(from.zone) {
            from.owner
        } else {
            me
        }
    }

    /// [`Game::move_cards`] for one card: whether it moved.
    pub fn move_card(
        &mut self,
        c: ObjId,
        to: ZoneRef,
        cause: Option<u16>,
        bottom: bool,
        f: &Frame,
    ) -> Res<bool> {
        let from = self.st.zone_of(c);
        let mut dest = to;
        if let Some(cause) = cause
            && self.has_listeners(cause, true)
        {
            match self.would_move(c, from, to, cause, f)? {
                Some(d) => dest = d,
                None => return Ok(false),
            }
        }
        let passed = self.st.relocate(c, dest, bottom);
        self.charge_passed(f.span, passed)?;
        if self.logging
            || self.counts.is_some()
            || cause.is_some_and(|e| self.has_listeners(e, false))
        {
            self.after_move(&[(c, from, dest)], cause, f)?;
        }
        Ok(true)
    }

    /// The `would` event of a move: where the card goes, or None if it stays
    /// (the move was prevented, or a reaction moved the card meanwhile).
    #[inline(never)]
    fn would_move(
        &mut self,
        c: ObjId,
        from: ZoneRef,
        to: ZoneRef,
        cause: u16,
        f: &Frame,
    ) -> Res<Option<ZoneRef>> {
        let mut ev = Event::new(cause);
        ev.would = true;
        ev.card = Some(c);
        ev.player = Some(self.mover(from, to, f.me));
        ev.from = Some(from);
        ev.to = Some(to);
        ev.source = f.this;
        let ev = self.dispatch_in(f.data, ev)?;
        if ev.prevented {
            let card = Some(self.named(c));
            self.push(Entry::Prevented { name: cause, card });
            return Ok(None);
        }
        // A card that left its zone meanwhile (a reaction moved it) stays put.
        if self.st.zone_of(c) != from {
            return Ok(None);
        }
        Ok(Some(ev.to.unwrap_or(to)))
    }

    /// Moves cards one at a time (or together), with `would` and after events.
    pub fn move_cards(
        &mut self,
        cards: &[ObjId],
        to: ZoneRef,
        cause: Option<u16>,
        bottom: bool,
        together: bool,
        f: &Frame,
    ) -> Res<Cards> {
        let mut moved = Cards::new();
        // Cards moved together with no `would` ability: no code runs until all
        // have moved, so whether anything follows the moves is known now.
        let keep = together
            && (self.logging
                || self.counts.is_some()
                || cause
                    .is_some_and(|e| self.has_listeners(e, true) || self.has_listeners(e, false)));
        let mut batch: smallvec::SmallVec<[(ObjId, ZoneRef, ZoneRef); 8]> =
            smallvec::SmallVec::new();
        for &c in cards {
            let from = self.st.zone_of(c);
            let mut dest = to;
            if let Some(cause) = cause
                && self.has_listeners(cause, true)
            {
                match self.would_move(c, from, to, cause, f)? {
                    Some(d) => dest = d,
                    None => continue,
                }
            }
            let passed = self.st.relocate(c, dest, bottom);
            moved.push(c);
            self.charge_passed(f.span, passed)?;
            if together {
                if keep {
                    batch.push((c, from, dest));
                }
            } else if self.logging
                || self.counts.is_some()
                || cause.is_some_and(|e| self.has_listeners(e, false))
            {
                self.after_move(&[(c, from, dest)], cause, f)?;
            }
        }
        if !batch.is_empty() {
            self.after_move(&batch, cause, f)?;
        }
        if moved.len() >= crate::limits::MEMORY_CHECK_STEPS as usize {
            // Many cards moved (and logged) for a step: weighed now, not at
            // the next check.
            self.check_memory(f.span)?;
        }
        Ok(moved)
    }

    fn after_move(
        &mut self,
        batch: &[(ObjId, ZoneRef, ZoneRef)],
        cause: Option<u16>,
        f: &Frame,
    ) -> Res<()> {
        if self.logging {
            let (first, from, to) = batch[0];
            // The line credits the card's owner, which the move has made the
            // owner of the player zone it entered, else of the one it left;
            // between shared zones, the player whose card it stays (not the
            // player whose code moved it: P1's effect destroys P2's card).
            let player = self.st.objs[first as usize].owner;
            let cards = batch
                .iter()
                .map(|(c, _, _)| self.st.objs[*c as usize].def)
                .collect();
            let player = Some(player);
            let last = batch[batch.len() - 1].0;
            let bottom = !self.is_top(last);
            self.push(Entry::Move {
                cause,
                player,
                cards,
                from,
                to,
                bottom,
            });
        }
        let Some(cause) = cause else { return Ok(()) };
        if let Some(counts) = &mut self.counts {
            // Credited like the log line: to the card's owner after the move.
            for &(c, _, _) in batch {
                let o = &self.st.objs[c as usize];
                counts.add(cause, o.owner, o.def);
            }
        }
        if !self.has_listeners(cause, false) {
            return Ok(());
        }
        let event = |&(c, from, to): &(ObjId, ZoneRef, ZoneRef)| {
            let mut ev = Event::new(cause);
            ev.card = Some(c);
            ev.player = Some(if !self.st.shared(to.zone) {
                to.owner
            } else {
                from.owner
            });
            ev.from = Some(from);
            ev.to = Some(to);
            ev.source = f.this;
            ev
        };
        // Cards moved together: their abilities are due together.
        match batch {
            [one] => self.dispatch_in(f.data, event(one)).map(|_| ()),
            _ => {
                let evs = batch.iter().map(event).collect();
                self.dispatch_together(f.data, evs)
            }
        }
    }

    /// Raises a rules event: `would` first (it may be prevented or changed), then
    /// the event itself. Returns the event as it happened, or None if prevented.
    /// An event with an amount that `would` abilities bring to zero or less does
    /// not happen (damage reduced to 0 is no damage).
    pub fn emit(&mut self, mut ev: Event, counted: bool, f: &Frame) -> Res<Option<Event>> {
        // Any `would` ability in the data (even with no card of it in the game)
        // makes a counted event with nothing left not happen.
        if self.data.index.listened(ev.name, true) {
            ev.would = true;
            let before = ev.amount;
            ev = self.dispatch_in(f.data, ev)?;
            if self.logging && ev.amount != before {
                let card = ev.card.map(|c| self.named(c));
                self.push(Entry::Would {
                    name: ev.name,
                    card,
                    old: before,
                    new: ev.amount,
                });
            }
            if ev.prevented || counted && ev.amount <= 0 {
                let card = ev.card.map(|c| self.named(c));
                self.push(Entry::Prevented {
                    name: ev.name,
                    card,
                });
                return Ok(None);
            }
            ev.would = false;
        }
        if self.logging {
            let card = ev.card.map(|c| self.named(c));
            self.push(Entry::Event {
                name: ev.name,
                player: ev.player,
                card,
            });
        }
        if self.has_listeners(ev.name, false) {
            ev = self.dispatch_in(f.data, ev)?;
        }
        // Then the card's effects that lasted until this event end.
        if let Some(c) = ev.card
            && self.awaited(ev.name)
        {
            self.end_on_event(ev.name, c);
        }
        Ok(Some(ev))
    }

    /// Whether a modifier may last until event `e` (then its `emit` is
    /// never skipped as quiet: it ends them).
    #[inline(always)]
    pub(crate) fn awaited(&self, e: u16) -> bool {
        let w = self.st.awaited;
        w != 0 && (e >= 64 || w & crate::value::bit(e) != 0)
    }

    /// Ends card `c`'s modifiers that lasted until event `e`.
    #[inline(never)]
    fn end_on_event(&mut self, e: u16, c: ObjId) {
        self.end_mods(super::mods::End::Event(e, c));
        if !self.st.mods.await_events() {
            self.st.awaited = 0;
        }
    }

    /// A duration of `modify`: a word, a phase's or an event's name, or a
    /// card (while it stays where it is).
    fn duration(&self, v: &Value, sp: crate::lang::ir::Span) -> Res<Until> {
        let s = match v {
            Value::Str(s) => s.as_str(),
            Value::Card(source) => return Ok(Until::While(*source)),
            other => {
                return self.err(
                    sp,
                    format!(
                        "modify: the duration must be a string, a card or a list of two, not {}",
                        other.kind()
                    ),
                );
            }
        };
        let data = &self.data;
        Ok(match s {
            "forever" => Until::Forever,
            "turn" => Until::EndOfTurn,
            "phase" => Until::EndOfPhase(self.st.phase.unwrap_or(0)),
            name => {
                if let Some(i) = data.turn.phases.iter().position(|p| p.name == name) {
                    Until::EndOfPhase(i as u16)
                } else if let Some(e) = data.names.events.iter().position(|e| e == name) {
                    Until::Event(e as u16)
                } else {
                    return self.err(
                        sp,
                        format!(
                            "modify: unknown duration \"{name}\" (turn, phase, forever, a phase or an event name)"
                        ),
                    );
                }
            }
        })
    }

    /// `first(choose(..))`: `choose`'s first pick (none for none), asked
    /// and charged as `choose` is, with no list made of the picks.
    pub(crate) fn choose_first(&mut self, mut a: Args, f: &mut Frame) -> Res<Value> {
        let who = picker(&mut a, f.me);
        self.choose_builtin(Builtin::Choose, who, a, f, true, None)
    }

    /// `choose`, `choose_one`, `may`, `choose_option`, `order`: who picks
    /// (a player given first, else the caller), then the pick.
    pub(crate) fn choose_op(&mut self, b: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        // `may(p)` alone: `p` is the prompt, not who answers.
        let who = if b != Builtin::May || a.len() == 2 {
            picker(a, f.me)
        } else {
            f.me
        };
        self.choose_builtin(b, who, std::mem::take(a), f, false, None)
    }

    /// [`Game::choose_op`] of `choose`, `choose_one`, `choose_option`,
    /// `order` or `may` whose last operand, a prompt joined by `+` (and
    /// charged as joined) or a string written out, comes as its `parts`,
    /// what [`Game::show`] writes of each in
    /// a row: the text is made only for an agent that reads it. Where the
    /// parts are not the prompt (a player given first or not changes which
    /// operand is), the text is made and passed as the operand it is.
    pub(crate) fn choose_parts(
        &mut self,
        b: Builtin,
        mut a: Args,
        parts: &[Value],
        f: &mut Frame,
    ) -> Res<Value> {
        let who = picker(&mut a, f.me);
        let prompt = match b {
            Builtin::Choose => 3,
            // `may(p, prompt)`: who answers taken off, none left before it.
            Builtin::May => 0,
            _ => 1,
        };
        if a.len() != prompt {
            a.push(Value::text(self.joined(parts)));
            return self.choose_builtin(b, who, a, f, false, None);
        }
        self.choose_builtin(b, who, a, f, false, Some(parts))
    }

    /// The text of a string joined by `+` from `parts`.
    fn joined(&self, parts: &[Value]) -> String {
        let mut s = String::new();
        for p in parts {
            self.show_into(p, &mut s);
        }
        s
    }

    /// `at(list, i)`.
    pub(crate) fn at_op(&mut self, _: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let i = self.index(&a[1], f.span)?;
        self.item_at(&a[0], i, f.span)
    }

    /// `contains(list, x)`; of none (an unset option) false, no list read.
    pub(crate) fn contains_op(&mut self, _: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let sp = f.span;
        if matches!(a[0], Value::None) {
            return Ok(Value::Bool(false));
        }
        self.visit(&a[0], sp)?;
        let items = self.items(&a[0], sp)?;
        // Lists in the list compared with a list: their items paid for.
        if let Value::List(y) = &a[1] {
            let mut n = 0;
            let hit = (items.iter()).any(|x| match x {
                Value::List(x) => self.equal_counting(x, y, &mut n),
                _ => false,
            });
            self.charge_passed(sp, n)?;
            return Ok(Value::Bool(hit));
        }
        Ok(Value::Bool(items.iter().any(|x| self.equal(x, &a[1]))))
    }

    /// `attached(card)`: the cards attached to it, newest last.
    pub(crate) fn attached_op(&mut self, _: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let Value::Card(h) = a[0] else {
            return Ok(Value::list(Vec::new()));
        };
        // Every card ever attached is looked at, paid for as a move
        // pays for the cards it passes over.
        self.charge_passed(f.span, self.st.hosted())?;
        // Read into the spare list: mostly filtered and dropped at once.
        let mut list = self.spare_list();
        if let Some(v) = Arc::get_mut(&mut list) {
            v.extend(self.st.attached(h).into_iter().map(Value::Card));
        }
        Ok(self.keep_list(list))
    }

    /// `mark(cards, tag)` and `unmark(cards, tag)`.
    pub(crate) fn mark_op(&mut self, b: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let tag = self.int(&a[1], f.span)?;
        let bit = crate::value::bit(tag);
        for c in self.cards_walked(&a[0], f)? {
            self.set_tag(c, bit, b == Builtin::Mark);
        }
        Ok(Value::None)
    }

    /// `modify(cards, prop, delta, until)`: a modifier on each card.
    pub(crate) fn modify_op(&mut self, _: Builtin, a: &mut Args, f: &mut Frame) -> Res<Value> {
        let sp = f.span;
        let prop = self.int(&a[1], sp)? as u16;
        let delta = self.int(&a[2], sp)?;
        let (until, or) = match a.get(3) {
            None => (Until::Forever, Until::Forever),
            // Two ends: whichever comes first.
            Some(Value::List(l)) if l.len() == 2 => {
                (self.duration(&l[0], sp)?, self.duration(&l[1], sp)?)
            }
            Some(Value::List(_)) => {
                return self.err(
                    sp,
                    "modify: a list of durations holds two (whichever ends first)",
                );
            }
            Some(v) => {
                let u = self.duration(v, sp)?;
                (u, u)
            }
        };
        for u in [until, or] {
            if let Until::Event(e) = u {
                self.st.awaited |= if e < 64 { crate::value::bit(e) } else { !0 };
            }
        }
        for c in self.cards_walked(&a[0], f)? {
            self.st.mods.push(Modifier {
                obj: c,
                prop,
                delta,
                until,
                or,
            });
            self.push(Entry::Modify {
                def: self.named(c),
                prop,
                delta,
                ends: false,
            });
        }
        Ok(Value::None)
    }

    /// The choices; `first`: only the first pick is kept (see
    /// [`Game::choose_first`]); `parts`: the prompt, the operand after
    /// `a`'s, as [`Game::choose_parts`] keeps it.
    fn choose_builtin(
        &mut self,
        b: Builtin,
        who: PlayerId,
        a: Args,
        f: &mut Frame,
        first: bool,
        parts: Option<&[Value]>,
    ) -> Res<Value> {
        let sp = f.span;
        // The options listed, from a zone or a list: a step each.
        if b != Builtin::May
            && let Some(x) = a.first()
        {
            self.charge_copy(x, sp)?;
            if let Value::List(l) = x {
                self.charge(sp, l.len() as u64)?;
            }
        }
        // A prompt given as a string is read where it is (no copy).
        let prompt_at = |g: &Game, i: usize| -> std::borrow::Cow<'_, str> {
            match a.get(i) {
                Some(Value::Str(s)) => std::borrow::Cow::Borrowed(s.as_str()),
                Some(v) => g.show(v).into(),
                // A prompt of one string part is that string (no copy).
                None if let Some([Value::Str(s)]) = parts => std::borrow::Cow::Borrowed(s.as_str()),
                None if let Some(p) = parts => g.joined(p).into(),
                None => b.name().into(),
            }
        };
        let ask = |g: &mut Game, kind, prompt: &str, options: &[Choice], min, max| {
            g.ask(Request {
                data: f.data,
                player: who,
                together: &[],
                kind,
                name: prompt,
                prompt,
                options,
                min,
                max,
                public: false,
            })
        };
        match b {
            Builtin::May => {
                let r = match self.ask_blind(who, YES_NO.len(), 1, 1) {
                    Some(r) => r,
                    None => ask(self, Kind::YesNo, &prompt_at(self, 0), &YES_NO[..], 1, 1)?,
                };
                Ok(Value::Bool(r.first() == Some(&0)))
            }
            Builtin::ChooseOption => {
                let items = self.items(&a[0], sp)?;
                if items.is_empty() {
                    return Ok(Value::None);
                }
                let r = match self.ask_blind(who, items.len(), 1, 1) {
                    Some(r) => r,
                    None => {
                        // An option that is a string is its own text: shared,
                        // not shown into a new one.
                        let opts: smallvec::SmallVec<[Choice; 8]> = (items.iter())
                            .map(|v| match v {
                                Value::Str(_) => Choice {
                                    value: v.clone(),
                                    mv: None,
                                },
                                v => Choice::text(&self.show(v)),
                            })
                            .collect();
                        ask(self, Kind::Option, &prompt_at(self, 1), &opts, 1, 1)?
                    }
                };
                Ok(r.first().map(|&i| items[i].clone()).unwrap_or(Value::None))
            }
            _ => {
                // An ordered zone's cards are read where they lie (its
                // visibility checked above): an agent that picks without
                // reading takes its picks with none copied.
                let (mut items, n) = match &a[0] {
                    Value::Zone(z) if self.st.zones[self.st.inst(*z)].piles.is_empty() => {
                        (None, self.st.listed(*z))
                    }
                    v => {
                        let items = self.items(v, sp)?;
                        let n = items.len();
                        (Some(items), n)
                    }
                };
                // The range, and the argument that is the prompt.
                let (min, max, prompt) = match b {
                    Builtin::Choose => {
                        let (min, max) = (self.int(&a[1], sp)?, self.int(&a[2], sp)?);
                        if min < 0 {
                            return self
                                .err(sp, format!("choose: the minimum {min} must be 0 or more"));
                        }
                        if min > max {
                            return self.err(
                                sp,
                                format!("choose: the minimum {min} is more than the maximum {max}"),
                            );
                        }
                        let (min, max) = (min as usize, max as usize);
                        (min.min(n), max.min(n), 3)
                    }
                    Builtin::Order => (n, n, 1),
                    _ => (1.min(n), 1.min(n), 1),
                };
                if max == 0 {
                    return Ok(if b == Builtin::ChooseOne || first {
                        Value::None
                    } else {
                        Value::list(Vec::new())
                    });
                }
                // An agent that does not read: no options made to ask it.
                let r = match self.ask_blind(who, n, min, max.max(min)) {
                    Some(r) => r,
                    None => {
                        let all = match &items {
                            Some(all) => all,
                            None => items.insert(self.items(&a[0], sp)?),
                        };
                        let opts: smallvec::SmallVec<[Choice; 8]> =
                            all.iter().map(|v| self.choice_of(v)).collect();
                        let kind = if b == Builtin::Order {
                            Kind::Order
                        } else {
                            Kind::Pick
                        };
                        ask(
                            self,
                            kind,
                            &prompt_at(self, prompt),
                            &opts,
                            min,
                            max.max(min),
                        )?
                    }
                };
                // Pick `i`: of the items, else the zone's `i`th card from the top.
                let picked = |g: &Game, i: usize| match (&items, &a[0]) {
                    (Some(all), _) => all[i].clone(),
                    (None, Value::Zone(z)) => {
                        let cards = &g.st.zones[g.st.inst(*z)].cards;
                        Value::Card(cards[cards.len() - 1 - i])
                    }
                    _ => unreachable!("items are copied unless an ordered zone is read"),
                };
                if b == Builtin::ChooseOne || first {
                    return Ok(r.first().map_or(Value::None, |&i| picked(self, i)));
                }
                Ok(Value::list(r.iter().map(|&i| picked(self, i)).collect()))
            }
        }
    }

    /// `choose_each(zone, min, max, to, prompt?)`: every player still in the
    /// game picks `min` to `max` cards of their own `zone`, all asked at once
    /// ([`Game::ask_together`]: no one sees another's picks, nor their
    /// effect); then each player's picks move together to that player's
    /// own `to`, in turn order from the active player. The picked cards.
    /// A draft asks this every round: an agent that picks without reading
    /// ([`Game::ask_blind`]) is asked with no options made and its picks
    /// read in its zone in place, the prompt is read in place, and the
    /// picks move as `move_together` moves a list (a step each, then the
    /// cards) with no list made for them.
    pub(crate) fn choose_each(&mut self, a: &[Value], f: &Frame) -> Res<Value> {
        let sp = f.span;
        let from = self.zone_arg(&a[0], f)?;
        let min = self.int(&a[1], sp)?.max(0) as usize;
        let max = self.int(&a[2], sp)?.max(0) as usize;
        let to = self.zone_arg(&a[3], f)?;
        let zones = &f.data.zones;
        if zones[from.zone as usize].shared || zones[to.zone as usize].shared {
            return self.err(
                sp,
                "choose_each picks from each player's own zone into each player's own zone: both must be zones every player has (`per: player`)",
            );
        }
        let shown;
        let prompt: &str = match a.get(4) {
            Some(Value::Str(s)) => s.as_str(),
            Some(v) => {
                shown = self.show(v);
                &shown
            }
            None => Builtin::ChooseEach.name(),
        };
        let own = |z: ZoneRef, p| ZoneRef {
            zone: z.zone,
            owner: p,
        };
        // Players with nothing to pick are not asked. Every zone is paid for
        // (as `items_copied` pays) before anyone is asked.
        let order: smallvec::SmallVec<[PlayerId; 8]> =
            self.turn_order_iter(self.st.active, true).collect();
        // Each player asked: their number of options, the end of their
        // picks in `picked`.
        let mut asked: smallvec::SmallVec<[(PlayerId, usize, usize); 8]> =
            smallvec::SmallVec::new();
        for p in order {
            let z = own(from, p);
            self.charge_copy(&Value::Zone(z), sp)?;
            let n = self.st.listed(z);
            if n > 0 && max > 0 {
                asked.push((p, n, 0));
            }
        }
        let max = max.max(min);
        // All players' picks as cards, read before any of them moves (a
        // range each). Agents that pick without reading answer with no
        // options made, in turn, their picks read in their zones in place;
        // from the first that reads, the players left are asked together
        // with their options (nothing has changed meanwhile), their zones'
        // cards listed in one list (a range each).
        let mut picked: smallvec::SmallVec<[ObjId; 8]> = smallvec::SmallVec::new();
        let mut blind = 0;
        for k in 0..asked.len() {
            let (p, n, _) = asked[k];
            let Some(r) = self.ask_blind(p, n, min, max) else {
                break;
            };
            let zi = &self.st.zones[self.st.inst(own(from, p))];
            for &i in &r {
                if let Some(c) = zi.item(i) {
                    picked.push(c);
                }
            }
            asked[k].2 = picked.len();
            blind += 1;
        }
        if blind < asked.len() {
            let players: smallvec::SmallVec<[PlayerId; 8]> = asked.iter().map(|a| a.0).collect();
            let rest = &mut asked[blind..];
            let mut listed: smallvec::SmallVec<[ObjId; 32]> = smallvec::SmallVec::new();
            for &(p, _, _) in rest.iter() {
                listed.extend(self.st.zones[self.st.inst(own(from, p))].listing());
            }
            let options: smallvec::SmallVec<[Choice; 32]> = (listed.iter())
                .map(|&c| Choice {
                    value: Value::Card(c),
                    mv: None,
                })
                .collect();
            let mut at = 0;
            let parts: smallvec::SmallVec<[Request; 4]> = (rest.iter())
                .map(|&(player, n, _)| {
                    let options = &options[at..at + n];
                    at += n;
                    Request {
                        data: f.data,
                        player,
                        together: &players,
                        kind: Kind::Pick,
                        name: prompt,
                        prompt,
                        options,
                        min,
                        max,
                        public: false,
                    }
                })
                .collect();
            let answers = self.ask_together(&parts)?;
            drop(parts);
            let mut start = 0;
            for (a, r) in rest.iter_mut().zip(&answers) {
                let mine = &listed[start..start + a.1];
                start += a.1;
                picked.extend(r.iter().map(|&i| mine[i]));
                a.2 = picked.len();
            }
        }
        let mut start = 0;
        for &(p, _, end) in &asked {
            let cards = &picked[start..end];
            start = end;
            if cards.is_empty() {
                continue;
            }
            // What `move_value` does with the picks as a list: a step an
            // item, then the cards (all from a zone) moved together.
            self.charge(sp, cards.len() as u64)?;
            match *cards {
                [c] => _ = self.move_card(c, own(to, p), None, false, f)?,
                _ => _ = self.move_cards(cards, own(to, p), None, false, true, f)?,
            }
        }
        // The picks in the spare list: a draft's statement drops them at once.
        let mut list = self.spare_list();
        if let Some(items) = Arc::get_mut(&mut list) {
            items.extend(picked.iter().map(|&c| Value::Card(c)));
        }
        Ok(self.keep_list(list))
    }

    pub fn choice_of(&self, v: &Value) -> Choice {
        Choice {
            value: v.clone(),
            mv: None,
        }
    }
}

/// The options of a yes/no question, made once.
static YES_NO: std::sync::LazyLock<[Choice; 2]> =
    std::sync::LazyLock::new(|| [Choice::text("yes"), Choice::text("no")]);

/// Drops a call's arguments: plain values (numbers, cards, zones...) held
/// inline need no work, so the usual case skips the element-wise drop.
#[inline(always)]
fn release(a: Args) {
    if !a.spilled() && a.iter().all(Value::is_plain) {
        std::mem::forget(a);
    }
}

/// The bits of `events` for [`Game::quiet_events`]: 0 unless every one
/// has a bit.
pub(crate) fn event_mask(events: &[u16]) -> u64 {
    (events.iter())
        .try_fold(0, |m, &e| {
            (crate::value::bit(e) != 0).then(|| m | crate::value::bit(e))
        })
        .unwrap_or(0)
}

impl Field {
    /// The field `name` means in any table (none if it is no field).
    pub(crate) fn named(n: &crate::lang::names::Names, name: &str) -> Field {
        Field {
            name: 0,
            counter: crate::lang::names::find(&n.counters, name),
            prop: crate::lang::names::find(&n.props, name),
            special: Special::parse(name),
        }
    }
}
