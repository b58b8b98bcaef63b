//! `list where cond`: the items that pass, listed, or only counted where
//! the list is only counted (`count(x where ..)`, `empty(x where ..)`). A
//! zone's cards, a sum of zones' and a card's attached cards are read in
//! place onto the stack, no list made first.

use std::sync::Arc;

use super::*;

/// A compiled `list where cond`.
pub(in crate::fast) struct Filter {
    src: Source,
    slot: usize,
    test: ItemTest,
    /// The test as one loop over a list's items, where it is one
    /// comparison read in place (and no part is kept).
    scan: Option<Scan>,
    /// Whether the test only reads the game: a zone's cards cannot change
    /// while they are tested, so a probe (up to the first that passes)
    /// reads them where they lie, no copy. A filter that tests them all
    /// copies them: a copy walks them faster than a look-up each.
    pure: bool,
}

/// Where a filter's items come from.
enum Source {
    /// `zone + zone + ...`.
    Sum(ZoneSum),
    /// `attached(card)`, with the call's span.
    Attached(ValFn, Span),
    /// A zone found in place (`hand`, `set(me)`, `field(p)`).
    Zone(ZoneAt),
    /// Any other list, or a zone.
    Code(ValFn),
}

impl Compiler<'_> {
    pub(super) fn filter_of(&self, list: &Expr, slot: u16, cond: &Expr) -> Filter {
        let src = match list {
            Expr::Call(Builtin::Attached, a, span) if let [x] = a.as_slice() => {
                Source::Attached(self.val(x), *span)
            }
            _ => match (self.zone_sum(list), self.zone_at(list)) {
                (Some(sum), _) => Source::Sum(sum),
                (None, Some(z)) => Source::Zone(z),
                _ => Source::Code(self.val(list)),
            },
        };
        let test = self.item_test_kept(slot, cond);
        let scan = (test.kept.is_none())
            .then(|| self.near_scan(cond, self.slot(slot)))
            .flatten();
        let pure = !test.only_kept && self.reads_only(cond, &mut Vec::new());
        Filter {
            src,
            test,
            scan,
            slot: self.slot(slot),
            pure,
        }
    }

    /// `list where cond` as a list.
    pub(super) fn filter(&self, list: &Expr, slot: u16, cond: &Expr) -> ValFn {
        let fl = self.filter_of(list, slot, cond);
        Box::new(move |g, f| {
            spare(g, |g, out| {
                fl.run(g, f, |v, left| {
                    // At most one allocation, sized for the items still to test.
                    if out.is_empty() {
                        out.reserve(left);
                    }
                    out.push(v.clone());
                })
            })
        })
    }

    /// [`Expr::First`]: a list of the first item that passes, or an empty one.
    pub(super) fn first(&self, list: &Expr, slot: u16, cond: &Expr) -> ValFn {
        let fl = self.filter_of(list, slot, cond);
        Box::new(move |g, f| {
            spare(g, |g, out| {
                out.extend(fl.first(g, f)?);
                Ok(())
            })
        })
    }
}

/// A list `fill` makes, in the game's spare list: a list dropped before
/// the next is made (most are) is refilled with no allocation.
#[inline(always)]
fn spare(g: &mut Game, fill: impl FnOnce(&mut Game, &mut Vec<Value>) -> Res<()>) -> Res<Value> {
    let mut list = g.spare_list();
    let mut out = Arc::get_mut(&mut list)
        .map(std::mem::take)
        .unwrap_or_default();
    fill(g, &mut out)?;
    if let Some(v) = Arc::get_mut(&mut list) {
        *v = out;
    }
    Ok(g.keep_list(list))
}

impl Filter {
    /// Runs the filter as `where` does: `hit` sees each item that passes,
    /// with the number of items it and those after it make.
    #[inline(always)]
    pub(in crate::fast) fn run(
        &self,
        g: &mut Game,
        f: &mut Frame,
        hit: impl FnMut(&Value, usize),
    ) -> Res<()> {
        self.run_past(g, f, 0, hit)
    }

    /// [`Filter::run`] where the first `skip` cards its zone lists are
    /// known to be turned away by the leading tag tests ([`Filter::lead`]):
    /// charged the same, their tests not made again.
    #[inline(always)]
    pub(in crate::fast) fn run_past(
        &self,
        g: &mut Game,
        f: &mut Frame,
        skip: usize,
        hit: impl FnMut(&Value, usize),
    ) -> Res<()> {
        match self.test.kept {
            None => self.items::<false>(g, f, skip, hit),
            Some(_) => self.kept_items(g, f, skip, hit),
        }
    }

    /// What the leading tag tests make of the cards a move's pick for
    /// player `me` reads (a zone, or a sum of zones, named without a slot
    /// or code), walked in the order they are listed.
    #[inline(always)]
    pub(in crate::fast) fn lead(&self, g: &Game, me: PlayerId) -> Lead<'_> {
        match &self.src {
            Source::Zone(z @ (ZoneAt::Fixed(_) | ZoneAt::Mine(_))) => {
                let z = z.mine(me);
                match self.test.lead_in(g, &g.st.zones[g.st.inst(z)]) {
                    Some(skip) => Lead::Past(skip),
                    None => Lead::Zone(z),
                }
            }
            Source::Sum(sum) => match sum.turned_away(g, me, &self.test) {
                Some(n) => Lead::Sum(sum, n),
                None => Lead::Past(0),
            },
            _ => Lead::Past(0),
        }
    }

    /// The first item that passes, as [`Expr::First`] finds it: the items
    /// after it untested.
    pub(in crate::fast) fn first(&self, g: &mut Game, f: &mut Frame) -> Res<Option<Value>> {
        let mut found = None;
        let r = self.items::<true>(g, f, 0, |v, _| found = Some(v.clone()));
        if self.test.kept.is_some() {
            self.test.done(f);
        }
        r.map(|()| found)
    }

    /// Whether an item passes, as [`Filter::first`] finds one (no copy of
    /// it made).
    pub(in crate::fast) fn found(&self, g: &mut Game, f: &mut Frame) -> Res<bool> {
        let mut found = false;
        let r = self.items::<true>(g, f, 0, |_, _| found = true);
        if self.test.kept.is_some() {
            self.test.done(f);
        }
        r.map(|()| found)
    }

    /// [`Filter::items`] of a filter with a kept part, its slots emptied
    /// after (out of line: most filters have none).
    #[inline(never)]
    fn kept_items(
        &self,
        g: &mut Game,
        f: &mut Frame,
        skip: usize,
        hit: impl FnMut(&Value, usize),
    ) -> Res<()> {
        let r = self.items::<false>(g, f, skip, hit);
        self.test.done(f);
        r
    }

    /// [`Filter::run_past`], a kept part's slots left as they are; with
    /// `FIRST`, only up to the first item that passes (item by item, no
    /// shortcut that tests them all).
    #[inline(always)]
    fn items<const FIRST: bool>(
        &self,
        g: &mut Game,
        f: &mut Frame,
        skip: usize,
        mut hit: impl FnMut(&Value, usize),
    ) -> Res<()> {
        let mut cards = Listed::new();
        match &self.src {
            Source::Sum(sum) => {
                sum.cards(g, f, &mut cards)?;
                // Charged as the list `+` makes is when walked.
                g.charge(f.span, cards.len() as u64)?;
            }
            Source::Attached(x, span) => {
                // As the call: its operand, then its span; no card, no cards.
                let v = x(g, f)?;
                f.span = *span;
                if let Value::Card(h) = v {
                    g.charge_passed(*span, g.st.hosted())?;
                    // Onto the stack, sorted there: no list of them made.
                    for c in g.st.attached_unsorted(h) {
                        cards.push(c);
                    }
                    if cards.len() > 1 {
                        cards.sort();
                    }
                    g.charge(*span, cards.len() as u64)?;
                }
            }
            // As the zone's value would be read, below.
            Source::Zone(z) => {
                let z = z.get(g, f)?;
                g.check_visible(z, f.span)?;
                let inst = g.st.inst(z);
                g.charge(f.span, g.st.listed_inst(inst) as u64)?;
                if FIRST && self.pure && g.st.zones[inst].piles.is_empty() {
                    if let Some((c, from)) = self.test.first_in_place(g, f, self.slot, inst)? {
                        hit(&Value::Card(c), from);
                    }
                    return Ok(());
                }
                inst_cards(g, inst, &mut cards);
            }
            Source::Code(list) => match list(g, f)? {
                Value::Zone(z) => {
                    g.check_visible(z, f.span)?;
                    g.charge(f.span, g.st.listed(z) as u64)?;
                    zone_cards(g, z, &mut cards);
                }
                list => {
                    g.visit(&list, f.span)?;
                    let items = g.items(&list, f.span)?;
                    if let Some(scan) = &self.scan
                        && !FIRST
                    {
                        return scan(g, f, self.slot, &items, &mut hit);
                    }
                    for (i, item) in items.iter().enumerate() {
                        f.slots[self.slot] = item.clone();
                        if self.test.any(g, f)? {
                            hit(item, items.len() - i);
                            if FIRST {
                                break;
                            }
                        }
                    }
                    return Ok(());
                }
            },
        }
        let cards = cards.as_slice();
        if self.test.only_kept && !FIRST {
            return self.test.cards_kept(g, f, self.slot, cards, hit);
        }
        for (i, &c) in cards[skip..].iter().enumerate() {
            if self.test.card(g, f, self.slot, c)? {
                hit(&Value::Card(c), cards.len() - skip - i);
                if FIRST {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// What the leading tag tests of a move's pick make of its cards
/// ([`Filter::lead`]).
pub(in crate::fast) enum Lead<'a> {
    /// The number of cards they turn away before the first that could pass
    /// (none known for a sum, or a pick of anything else).
    Past(usize),
    /// They turn away every card of this zone, or it lists none: the pick
    /// lists nothing.
    Zone(ZoneRef),
    /// The same for each zone of this sum, which lists this many cards.
    Sum(&'a ZoneSum, usize),
}

impl Lead<'_> {
    /// What reading the cards of a pick for player `me` that lists nothing
    /// charges, and how it fails, as [`Filter::run`] reads them at the
    /// pick's `span`: the zone's visibility and a step a card; a sum's zones
    /// as `+` reads them. Nothing for a pick that may list cards.
    #[inline(always)]
    pub(in crate::fast) fn charge(
        &self,
        g: &mut Game,
        data: &Data,
        me: PlayerId,
        m: u16,
        span: Span,
    ) -> Res<()> {
        match *self {
            Lead::Past(_) => Ok(()),
            Lead::Zone(z) => {
                g.check_visible(z, span)?;
                g.charge(span, g.st.listed(z) as u64)
            }
            Lead::Sum(sum, _) => sum_walk(sum, g, data, me, m, span),
        }
    }

    /// The steps [`Lead::charge`] takes where nothing it reads can fail: no
    /// zone hidden (no viewer) and, for a sum, no list too long (a step a
    /// card for each `+`'s copy, one for the walk). None for a pick that
    /// may list cards, or that must be read as the walk reads it.
    #[inline(always)]
    pub(in crate::fast) fn steps(&self, g: &Game) -> Option<u64> {
        if g.viewer.is_some() {
            return None;
        }
        match *self {
            Lead::Past(_) => None,
            Lead::Zone(z) => Some(g.st.listed(z) as u64),
            Lead::Sum(_, n) => (n <= crate::engine::MAX_LIST).then_some(2 * n as u64),
        }
    }
}

/// [`Lead::charge`] of a sum, in a frame with no slots, as the pick's own
/// frame is at its start (out of line: most picks read a zone).
#[inline(never)]
fn sum_walk(sum: &ZoneSum, g: &mut Game, data: &Data, me: PlayerId, m: u16, span: Span) -> Res<()> {
    let mut f = Frame {
        data,
        this: None,
        me,
        slots: &mut [],
        span,
        move_name: Some(m),
    };
    let n = sum.count(g, &mut f)?;
    g.charge(span, n as u64)
}

/// A zone's cards in the order its list holds them: an ordered zone's top
/// card first, a row of piles each pile's top card.
#[inline(always)]
pub(super) fn zone_cards(g: &Game, z: ZoneRef, out: &mut Listed) {
    inst_cards(g, g.st.inst(z), out)
}

/// [`zone_cards`] of zone instance `inst`, found already.
#[inline(always)]
fn inst_cards(g: &Game, inst: usize, out: &mut Listed) {
    let zi = &g.st.zones[inst];
    if zi.piles.is_empty() {
        out.extend_rev(&zi.cards);
    } else {
        for c in zi.tops() {
            out.push(c);
        }
    }
}
