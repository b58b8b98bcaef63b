//! Picks of the shape `<zone> where <test>` ([`super::native::Pick`]),
//! listed or searched in place: no list of the zone made, no code run.

use super::native::{Operand, Pick, Test};
use crate::data::Data;
use crate::engine::frame::Frame;
use crate::engine::request::Choice;
use crate::engine::state::ZoneInst;
use crate::engine::{Game, Res};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{Code, Span};
use crate::value::{ObjId, PlayerId, Value, ZoneRef};

impl Game {
    /// A pick of the shape `<zone> where <test>`, filtered in place: the
    /// zone's cards in the order the interpreter lists them, with no list
    /// built (tests on cards never defer to the code).
    #[inline(always)]
    pub(super) fn pick_native(
        &mut self,
        data: &Data,
        np: &Pick,
        pick: &Code,
        p: PlayerId,
        m: u16,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        let inst = self.pick_zone(np, pick.span, p)?;
        self.pick_cards(data, &np.test, p, m, inst, out);
        Ok(())
    }

    /// The zone instance a native pick reads, after what running the pick
    /// would do first: count a step, check the zone may be seen.
    #[inline(always)]
    pub(super) fn pick_zone(&mut self, np: &Pick, pick: Span, p: PlayerId) -> Res<usize> {
        self.tick(pick)?;
        let z = ZoneRef {
            zone: np.zone,
            owner: if self.st.shared(np.zone) { 0 } else { p },
        };
        self.check_visible(z, pick)?;
        let inst = self.st.inst(z);
        // The walk of the zone, as `where` charges it.
        self.charge(pick, self.st.listed_inst(inst) as u64)?;
        Ok(inst)
    }

    /// The options of a native pick reading zone instance `inst`.
    #[inline(always)]
    pub(super) fn pick_cards(
        &self,
        data: &Data,
        t: &Test,
        p: PlayerId,
        m: u16,
        inst: usize,
        out: &mut Vec<Choice>,
    ) {
        self.pick_each(data, t, p, m, inst, |c| {
            out.push(Choice {
                value: Value::Card(c),
                mv: Some(m),
            });
            false
        });
    }

    /// The cards of the options of a native pick reading zone instance
    /// `inst`, in their order, given to `f` until it says stop (true):
    /// whether it did.
    #[inline(always)]
    pub(super) fn pick_each(
        &self,
        data: &Data,
        t: &Test,
        p: PlayerId,
        m: u16,
        inst: usize,
        mut f: impl FnMut(ObjId) -> bool,
    ) -> bool {
        let zi = &self.st.zones[inst];
        // Ordered zones list their top card first; pile rows keep their order.
        if zi.piles.is_empty() {
            self.filter_cards(data, t, p, m, zi.cards.iter().rev().copied(), f)
        } else if let Test::Cmp(Operand::Prop(pr), op, Operand::Counter(k)) = *t
            && self.st.mods.is_empty()
        {
            // A pile's top card by its pile's definition (no card's property
            // is modified), the counter read once.
            let y = self.st.counter(p, k);
            for (def, pile) in zi.full_piles() {
                let c = pile[pile.len() - 1];
                if op.holds(data.table.prop(def, pr), y) && f(c) {
                    return true;
                }
            }
            false
        } else {
            self.filter_cards(data, t, p, m, zi.tops(), f)
        }
    }

    /// The first option of a native pick reading zone instance `inst`; the
    /// commonest test, a tag over an ordered zone, gets a loop of its own,
    /// inlined where a window looks for its first option every round.
    #[inline(always)]
    pub(super) fn pick_first(
        &self,
        data: &Data,
        t: &Test,
        p: PlayerId,
        m: u16,
        inst: usize,
    ) -> Option<ObjId> {
        let zi = &self.st.zones[inst];
        match *t {
            Test::Is { tag, negate } if zi.piles.is_empty() => {
                let bit = crate::value::bit(tag);
                if !negate && self.st.tags_seen & bit == 0 {
                    return None;
                }
                zi.cards
                    .iter()
                    .rev()
                    .copied()
                    .find(|&c| (self.st.tags(c) & bit != 0) != negate)
            }
            _ => self.pick_first_rest(data, t, p, m, zi),
        }
    }

    /// [`Game::pick_first`] for the other tests. A card's property against
    /// the player's counter over a row of piles reads each pile's
    /// definition (no card's property is modified) and the counter once.
    #[inline(never)]
    fn pick_first_rest(
        &self,
        data: &Data,
        t: &Test,
        p: PlayerId,
        m: u16,
        zi: &ZoneInst,
    ) -> Option<ObjId> {
        match *t {
            Test::Cmp(Operand::Prop(pr), op, Operand::Counter(k))
                if !zi.piles.is_empty() && self.st.mods.is_empty() =>
            {
                let y = self.st.counter(p, k);
                zi.full_piles().find_map(|(def, pile)| {
                    op.holds(data.table.prop(def, pr), y)
                        .then(|| pile[pile.len() - 1])
                })
            }
            _ if let Some((need, not)) = tag_masks(t) => first_in(zi, |c| {
                let tags = self.st.tags(c);
                tags & need == need && tags & not == 0
            }),
            _ => first_in(zi, |c| self.card_test(data, t, p, c, Some(m))),
        }
    }

    /// The first option of a native pick reading zone instance `inst` that
    /// also passes `t`: its index among the options and its card; else
    /// `Err` with the number of options.
    pub(super) fn pick_find(
        &self,
        data: &Data,
        pt: &Test,
        t: Option<&Test>,
        p: PlayerId,
        m: u16,
        inst: usize,
    ) -> Result<(usize, ObjId), usize> {
        let mut n = 0;
        // A card's property against the player's counter: the counter is
        // read once.
        let y = match *pt {
            Test::Cmp(_, _, Operand::Counter(k)) => self.st.counter(p, k),
            _ => 0,
        };
        let zi = &self.st.zones[inst];
        // A row of piles: a pile's top card is tested by its pile's
        // definition where the test reads nothing else of the card.
        if !zi.piles.is_empty() && self.st.mods.is_empty() {
            for (def, pile) in zi.full_piles() {
                let c = pile[pile.len() - 1];
                let listed = match *pt {
                    Test::Cmp(Operand::Prop(pr), op, Operand::Counter(_)) => {
                        op.holds(data.table.prop(def, pr), y)
                    }
                    _ => self.card_test(data, pt, p, c, Some(m)),
                };
                if !listed {
                    continue;
                }
                let hit = match t {
                    None => false,
                    Some(&Test::DefEq { def: e, negate }) => (def == e) != negate,
                    Some(t) => self.card_test(data, t, p, c, Some(m)),
                };
                if hit {
                    return Ok((n, c));
                }
                n += 1;
            }
            return Err(n);
        }
        let found = first_in(zi, |c| {
            let listed = match *pt {
                Test::Cmp(Operand::Prop(pr), op, Operand::Counter(_)) => {
                    op.holds(self.st.prop(data, c, pr), y)
                }
                _ => self.card_test(data, pt, p, c, Some(m)),
            };
            if !listed {
                return false;
            }
            if t.is_some_and(|t| self.card_test(data, t, p, c, Some(m))) {
                return true;
            }
            n += 1;
            false
        });
        found.map(|c| (n, c)).ok_or(n)
    }

    /// The cards that pass a test, as options of move `m`, given to `f`
    /// until it says stop; the commonest tests get a loop of their own.
    #[inline(always)]
    fn filter_cards(
        &self,
        data: &Data,
        t: &Test,
        p: PlayerId,
        m: u16,
        mut cards: impl Iterator<Item = ObjId>,
        mut f: impl FnMut(ObjId) -> bool,
    ) -> bool {
        match *t {
            // A whole zone's cards.
            Test::Const(true) => cards.any(f),
            Test::Is { tag, negate } => {
                let bit = crate::value::bit(tag);
                cards.any(|c| (self.st.tags(c) & bit != 0) != negate && f(c))
            }
            // A card's property against the player's counter: the counter is
            // read once.
            Test::Cmp(Operand::Prop(pr), op, Operand::Counter(k)) => {
                let y = self.st.counter(p, k);
                cards.any(|c| op.holds(self.st.prop(data, c, pr), y) && f(c))
            }
            _ if let Some((need, not)) = tag_masks(t) => cards.any(|c| {
                let tags = self.st.tags(c);
                tags & need == need && tags & not == 0 && f(c)
            }),
            _ => cards.any(|c| self.card_test(data, t, p, c, Some(m)) && f(c)),
        }
    }
}

impl Game {
    /// `first`, `count` or `empty` (`b`) of `z where t`, `t` a test of pure
    /// reads, in frame `f`: charged as the compiled filter charges its walk
    /// (the zone's visibility, then a step an item, at the span the frame
    /// is at), then decided from the cards where they lie, the call's span
    /// left: no list made, no closure run, and `first` and `empty` stop at
    /// the first card that passes (the others' tests cost nothing and cannot
    /// fail).
    #[inline(never)]
    pub(in crate::fast) fn zone_where(
        &mut self,
        f: &mut Frame,
        z: ZoneRef,
        t: &Test,
        b: Builtin,
        span: Span,
    ) -> Res<Value> {
        self.check_visible(z, f.span)?;
        let inst = self.st.inst(z);
        self.charge(f.span, self.st.listed_inst(inst) as u64)?;
        f.span = span;
        // No test reads the move's name: any move index does.
        Ok(match b {
            Builtin::First => {
                (self.pick_first(f.data, t, f.me, 0, inst)).map_or(Value::None, Value::Card)
            }
            Builtin::Empty => Value::Bool(self.pick_first(f.data, t, f.me, 0, inst).is_none()),
            _ => {
                let mut n = 0;
                self.pick_each(f.data, t, f.me, 0, inst, |_| {
                    n += 1;
                    false
                });
                Value::Int(n)
            }
        })
    }
}

/// A test of tags joined by `and` (`it is a and it is not b`)
/// as the tags a card must have and those it must not: one load and two
/// masks a card, not a walk of the test.
fn tag_masks(t: &Test) -> Option<(u64, u64)> {
    match t {
        Test::Is { tag, negate } => {
            let bit = crate::value::bit(*tag);
            (bit != 0).then_some(if *negate { (0, bit) } else { (bit, 0) })
        }
        Test::And(a, b) => {
            let ((x, y), (u, v)) = (tag_masks(a)?, tag_masks(b)?);
            Some((x | u, y | v))
        }
        _ => None,
    }
}

/// The first card of a zone, in the order the interpreter lists them (top
/// card first; pile rows in their order), that passes a test.
#[inline(always)]
fn first_in(zi: &ZoneInst, mut hit: impl FnMut(ObjId) -> bool) -> Option<ObjId> {
    if zi.piles.is_empty() {
        zi.cards.iter().rev().copied().find(|&c| hit(c))
    } else {
        zi.tops().find(|&c| hit(c))
    }
}
