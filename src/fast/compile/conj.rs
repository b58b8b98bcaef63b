//! Conjunctions as one loop over their parts (`a and b and c` is one
//! closure call and one per part, not one per `and`), and the test of a
//! filter's item whose leading tag tests read a card's tags in place.

use super::*;
use crate::engine::state::ZoneInst;

/// The parts of `a and b and ...`, in order.
pub(super) fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        e => out.push(e),
    }
}

/// The test of a `where` or `any` item bound in a slot: for a card, its
/// leading tag tests (`it is a and it is not b and ...`) read its tags, no
/// closure run, then the other parts in order; for any other value, the
/// whole condition as compiled.
pub(super) struct ItemTest {
    tags: Tags,
    rest: Option<CondFn>,
    whole: CondFn,
    /// The slots of a part kept across a filter's items ([`super::invariant`]).
    pub(super) kept: Option<usize>,
    /// Whether the kept part is the whole condition (no part reads the item).
    pub(super) only_kept: bool,
}

impl ItemTest {
    /// The first card of zone instance `inst` (no piles), top first, that
    /// passes, with the number of cards from it to the bottom: read where
    /// they lie, for a test that only reads the game (the zone is as it was
    /// when its cards were charged). A filter's probe and an `any` use it.
    #[inline(always)]
    pub(super) fn first_in_place(
        &self,
        g: &mut Game,
        f: &mut Frame,
        slot: usize,
        inst: usize,
    ) -> Res<Option<(ObjId, usize)>> {
        for i in (0..g.st.zones[inst].cards.len()).rev() {
            let c = g.st.zones[inst].cards[i];
            if self.card(g, f, slot, c)? {
                return Ok(Some((c, i + 1)));
            }
        }
        Ok(None)
    }

    /// Whether card `c` passes, bound in the item's `slot` once its
    /// leading tag tests pass: they read its tags, not the slot, and no
    /// code reads the slot of a card they turn away.
    #[inline(always)]
    pub(super) fn card(&self, g: &mut Game, f: &mut Frame, slot: usize, c: ObjId) -> Res<bool> {
        if !self.tags.pass(g.st.tags(c)) {
            return Ok(false);
        }
        // A card over a card stored: no old value to drop.
        match &mut f.slots[slot] {
            Value::Card(old) => *old = c,
            s => *s = Value::Card(c),
        }
        match &self.rest {
            Some(rest) => rest(g, f),
            None => Ok(true),
        }
    }

    /// The number of cards of zone instance `zi`, in the order it lists
    /// them (top first), that the leading tag tests turn away before the
    /// first they do not (none, with none leading): no code runs for them.
    /// None where they turn away every card.
    #[inline(always)]
    pub(super) fn lead_in(&self, g: &Game, zi: &ZoneInst) -> Option<usize> {
        if !zi.piles.is_empty() {
            return zi.tops().position(|c| self.tags.pass(g.st.tags(c)));
        }
        let cards = &zi.cards;
        for i in (0..cards.len()).rev() {
            if self.tags.pass(g.st.tags(cards[i])) {
                return Some(cards.len() - 1 - i);
            }
        }
        None
    }

    /// Whether the value bound in the item's slot passes.
    #[inline(always)]
    pub(super) fn any(&self, g: &mut Game, f: &mut Frame) -> Res<bool> {
        (self.whole)(g, f)
    }
}

impl Compiler<'_> {
    /// `a and b and ...` as one loop, its comparisons of numbers read in
    /// place tested in it.
    pub(super) fn all(&self, parts: &[&Expr]) -> CondFn {
        let parts: Box<[Conjunct]> = parts.iter().map(|p| self.part(p)).collect();
        if let [Conjunct::Code(_)] | [Conjunct::Code(_), Conjunct::Code(_)] = &*parts {
            return all_of(parts.into_vec().into_iter().map(Conjunct::code).collect());
        }
        Box::new(move |g, f| {
            for p in parts.iter() {
                if !p.holds(g, f)? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// The test of an item bound in `slot`.
    pub(super) fn item_test(&self, slot: u16, cond: &Expr) -> ItemTest {
        let mut parts = Vec::new();
        conjuncts(cond, &mut parts);
        self.item_test_with(slot, &parts, |_, p| self.cond(p))
    }

    /// The test of an item bound in `slot` whose condition is `parts`,
    /// each compiled by `part` (given its index).
    pub(super) fn item_test_with(
        &self,
        slot: u16,
        parts: &[&Expr],
        part: impl Fn(usize, &Expr) -> CondFn,
    ) -> ItemTest {
        let lead = parts
            .iter()
            .map_while(|p| tag_test(p, slot))
            .collect::<Box<[_]>>();
        let n = lead.len();
        let rest = (n < parts.len())
            .then(|| all_of((n..parts.len()).map(|i| part(i, parts[i])).collect()));
        ItemTest {
            rest,
            tags: Tags::of(&lead),
            whole: all_of((0..parts.len()).map(|i| part(i, parts[i])).collect()),
            kept: None,
            only_kept: false,
        }
    }
}

/// Conditions that must all hold, tested in order, as one loop.
fn all_of(mut parts: Vec<CondFn>) -> CondFn {
    match parts.len() {
        0 => Box::new(|_, _| Ok(true)),
        1 => parts.pop().expect("one part"),
        2 => {
            let (b, a) = (parts.pop().expect("two"), parts.pop().expect("two"));
            Box::new(move |g, f| Ok(a(g, f)? && b(g, f)?))
        }
        _ => {
            let parts = parts.into_boxed_slice();
            Box::new(move |g, f| {
                for p in parts.iter() {
                    if !p(g, f)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            })
        }
    }
}

/// A filter item's leading tag tests (`it is a and it is not b and it is c
/// or it is d ...`) as masks: the tags a card must all have, those it must
/// have none of, and each set it must have one of.
struct Tags {
    all: u64,
    none: u64,
    any: Box<[u64]>,
}

impl Tags {
    /// The tests, each a mask any of whose tags passes, negated or not.
    fn of(tests: &[(u64, bool)]) -> Tags {
        let mut t = Tags {
            all: 0,
            none: 0,
            any: Box::new([]),
        };
        let mut any = Vec::new();
        for &(m, negate) in tests {
            match (negate, m.count_ones()) {
                // None of them: no tag of any negated set.
                (true, _) => t.none |= m,
                (false, 1) => t.all |= m,
                (false, _) => any.push(m),
            }
        }
        t.any = any.into_boxed_slice();
        t
    }

    /// Whether a card with `tags` passes every test.
    #[inline(always)]
    fn pass(&self, tags: u64) -> bool {
        tags & self.all == self.all
            && tags & self.none == 0
            && self.any.iter().all(|&m| tags & m != 0)
    }
}
