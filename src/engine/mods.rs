//! The modifiers in play (`modify`), indexed by card and by what ends them:
//! reading a card's property, a card moving, a turn, phase or event ending
//! each touch only the modifiers concerned, however many a mod makes.

use ahash::AHashMap as HashMap;
use smallvec::SmallVec;

use crate::value::ObjId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    Forever,
    EndOfTurn,
    EndOfPhase(u16),
    /// While a source card stays where it is (a support's bonus to its host).
    While(ObjId),
    /// Until the event happens to the modified card (`emit(event, card)`):
    /// "until the end of the battle it takes part in".
    Event(u16),
}

/// A change to a card's property (`modify`), lasting until a timing point.
#[derive(Debug, Clone, Copy)]
pub struct Modifier {
    pub obj: ObjId,
    pub prop: u16,
    pub delta: i64,
    pub until: Until,
    /// A second end, whichever comes first (`until` again when there is one).
    pub or: Until,
}

impl Modifier {
    /// Whether either of its ends is one `at` names.
    #[inline]
    pub fn ends(&self, at: impl Fn(Until) -> bool) -> bool {
        at(self.until) || at(self.or)
    }
}

/// What ends modifiers: each end a modifier names is one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// The turn: those until the end of the turn or of any phase.
    Turn,
    Phase(u16),
    /// Card `c` moved: those lasting while it stays where it is.
    Moved(ObjId),
    /// Event `e` happened to card `c`: that card's modifiers until it.
    Event(u16, ObjId),
}

/// Up to this many, modifiers are found by looking at each (cheaper than
/// a table for the few most games have); past it, through the indices.
const SMALL: usize = 32;

impl End {
    const TURN: usize = 0;
    const PHASE: usize = 1;
    const MOVED: usize = 2;
    const EVENT: usize = 3;

    /// Which count of [`Mods`]'s `waiting` this end looks at.
    #[inline(always)]
    fn kind(self) -> usize {
        match self {
            End::Turn => End::TURN,
            End::Phase(_) => End::PHASE,
            End::Moved(_) => End::MOVED,
            End::Event(..) => End::EVENT,
        }
    }
}

/// In the order made. Small, the ended ones leave at once; indexed, an
/// ended one stays in `all`, dead, until more than half are dead, when the
/// list and its indices are rebuilt (so each modifier is looked at a
/// bounded number of times over its life).
#[derive(Default)]
pub struct Mods {
    all: Vec<(Modifier, bool)>,
    live: usize,
    /// Live modifiers by the kind of end that ends them ([`End::kind`]):
    /// an end of a kind none waits for looks at none. While none waits
    /// for an event, no event is awaited.
    waiting: [usize; 4],
    /// None while small: most games never make one.
    index: Option<Box<Index>>,
    /// Bit `c % 64` for each card `c` a live modifier changes (while
    /// indexed, maybe more): most reads of a property are of a card with
    /// none, found with no look at the list.
    cards: u64,
    /// The same for the cards whose move or event ends a live modifier
    /// ([`End::Moved`], [`End::Event`]): most cards moving or hearing an
    /// event end none.
    keys: u64,
}

#[derive(Clone, Default)]
struct Index {
    /// Indices into `all` of each card's modifiers.
    by_card: HashMap<ObjId, SmallVec<[u32; 2]>>,
    /// Indices into `all` waiting for each end (some since ended another way).
    by_end: HashMap<End, Vec<u32>>,
}

impl std::fmt::Debug for Mods {
    /// The live modifiers, in the order made.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Clone for Mods {
    fn clone(&self) -> Mods {
        let mut m = Mods::default();
        m.clone_from(self);
        m
    }

    /// Into this set's own tables: a search copies a state per playout.
    fn clone_from(&mut self, src: &Mods) {
        self.all.clone_from(&src.all);
        self.live = src.live;
        self.waiting = src.waiting;
        self.index.clone_from(&src.index);
        self.cards = src.cards;
        self.keys = src.keys;
    }
}

/// The end a modifier's `Until` names, if it ever ends.
fn end_of(u: Until, card: ObjId) -> Option<End> {
    match u {
        Until::Forever => None,
        Until::EndOfTurn => Some(End::Turn),
        Until::EndOfPhase(p) => Some(End::Phase(p)),
        Until::While(c) => Some(End::Moved(c)),
        Until::Event(e) => Some(End::Event(e, card)),
    }
}

/// Whether a modifier with this `Until` ends at `end`.
fn ends_at(u: Until, end: End, card: ObjId) -> bool {
    match (u, end) {
        (Until::EndOfTurn | Until::EndOfPhase(_), End::Turn) => true,
        (Until::EndOfPhase(p), End::Phase(q)) => p == q,
        (Until::While(c), End::Moved(d)) => c == d,
        (Until::Event(e), End::Event(f, c)) => e == f && c == card,
        _ => false,
    }
}

impl Mods {
    /// No modifier in play.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The live modifiers, in the order made.
    pub fn iter(&self) -> impl Iterator<Item = &Modifier> {
        self.all.iter().filter(|(_, live)| *live).map(|(m, _)| m)
    }

    pub fn clear(&mut self) {
        self.all.clear();
        self.live = 0;
        self.waiting = [0; 4];
        self.index = None;
        self.cards = 0;
        self.keys = 0;
    }

    pub fn push(&mut self, m: Modifier) {
        let i = self.all.len() as u32;
        if let Some(x) = &mut self.index {
            x.add(i, &m);
        }
        self.live += 1;
        self.cards |= card_bit(m.obj);
        self.keys |= key_bits(&m);
        count(&mut self.waiting, &m, 1);
        self.all.push((m, true));
        if self.index.is_none() && self.all.len() > SMALL {
            self.reindex();
        }
    }

    /// The sum of card `c`'s live modifiers of property `prop`.
    #[inline(always)]
    pub fn sum(&self, c: ObjId, prop: u16) -> i64 {
        if self.cards & card_bit(c) == 0 {
            return 0;
        }
        self.sum_listed(c, prop)
    }

    /// [`Mods::sum`] of a card that may have modifiers (out of line: the
    /// callers keep only the bit's test).
    #[inline(never)]
    fn sum_listed(&self, c: ObjId, prop: u16) -> i64 {
        let Some(x) = &self.index else {
            return (self.all.iter())
                .filter(|(m, live)| *live && m.obj == c && m.prop == prop)
                .map(|(m, _)| m.delta)
                .sum();
        };
        self.sum_indexed(x, c, prop)
    }

    #[inline(never)]
    fn sum_indexed(&self, x: &Index, c: ObjId, prop: u16) -> i64 {
        let Some(ix) = x.by_card.get(&c) else {
            return 0;
        };
        ix.iter()
            .map(|&i| &self.all[i as usize])
            .filter(|(m, live)| *live && m.prop == prop)
            .map(|(m, _)| m.delta)
            .sum()
    }

    /// Whether a live modifier lasts until an event.
    #[inline]
    pub fn await_events(&self) -> bool {
        self.waiting[End::EVENT] > 0
    }

    /// Ends the live modifiers `end` ends, pushed onto `over` (if given) in
    /// the order made.
    pub fn end(&mut self, end: End, mut over: Option<&mut Vec<Modifier>>) {
        if self.waiting[end.kind()] == 0 {
            return;
        }
        if let End::Moved(c) | End::Event(_, c) = end
            && self.keys & card_bit(c) == 0
        {
            return;
        }
        let Some(x) = &mut self.index else {
            let mut ended = 0;
            for m in &mut self.all {
                if kill(m, end, over.as_deref_mut(), &mut self.waiting) {
                    ended += 1;
                }
            }
            if ended > 0 {
                self.live -= ended;
                self.all.retain(|(_, live)| *live);
                self.rebit();
            }
            return;
        };
        let mut ix = x.by_end.remove(&end).unwrap_or_default();
        if end == End::Turn {
            let phases: Vec<End> = (x.by_end.keys())
                .filter(|e| matches!(e, End::Phase(_)))
                .copied()
                .collect();
            for p in phases {
                ix.extend(x.by_end.remove(&p).unwrap_or_default());
            }
            ix.sort_unstable();
        }
        for i in ix {
            if kill(
                &mut self.all[i as usize],
                end,
                over.as_deref_mut(),
                &mut self.waiting,
            ) {
                self.live -= 1;
            }
        }
        let dead = self.all.len() - self.live;
        if dead > 64 && dead > self.live {
            self.compact();
        }
    }

    /// `cards` and `keys` found again from the live modifiers.
    fn rebit(&mut self) {
        (self.cards, self.keys) = (self.all.iter())
            .filter(|(_, live)| *live)
            .fold((0, 0), |(c, k), (m, _)| {
                (c | card_bit(m.obj), k | key_bits(m))
            });
    }

    /// Drops the dead modifiers and the indices left pointing at them.
    #[cold]
    fn compact(&mut self) {
        self.all.retain(|(_, live)| *live);
        self.reindex();
    }

    /// The indices of `all` (none while it is small).
    #[cold]
    fn reindex(&mut self) {
        self.rebit();
        self.index = (self.all.len() > SMALL).then(|| {
            let mut x = Box::<Index>::default();
            for (i, (m, _)) in self.all.iter().enumerate() {
                x.add(i as u32, m);
            }
            x
        });
    }
}

/// Card `c`'s bit in [`Mods`]'s `cards`.
#[inline(always)]
fn card_bit(c: ObjId) -> u64 {
    1 << (c % 64)
}

/// The bits in [`Mods`]'s `keys` of the cards whose move or event ends `m`:
/// the card of each end it names ([`end_of`]), as [`Mods::end`] tests it.
#[inline(always)]
fn key_bits(m: &Modifier) -> u64 {
    let key = |u| match end_of(u, m.obj) {
        Some(End::Moved(c) | End::Event(_, c)) => card_bit(c),
        _ => 0,
    };
    key(m.until) | key(m.or)
}

/// Ends a modifier if it is live and `end` ends it, pushed onto `over`
/// and taken off `waiting`; whether it ended.
#[inline(always)]
fn kill(
    (m, live): &mut (Modifier, bool),
    end: End,
    over: Option<&mut Vec<Modifier>>,
    waiting: &mut [usize; 4],
) -> bool {
    if !*live || !(ends_at(m.until, end, m.obj) || ends_at(m.or, end, m.obj)) {
        return false;
    }
    *live = false;
    count(waiting, m, usize::MAX);
    if let Some(o) = over {
        o.push(*m);
    }
    true
}

/// Adds 1 (or, as `usize::MAX`, takes 1) to the count of each kind of end
/// `m` waits for.
#[inline(always)]
fn count(waiting: &mut [usize; 4], m: &Modifier, one: usize) {
    for (k, w) in waiting.iter_mut().enumerate() {
        if m.ends(|u| until_kinds(u) >> k & 1 != 0) {
            *w = w.wrapping_add(one);
        }
    }
}

/// The kinds of [`End`] that can end `u` (a bit per [`End::kind`]).
#[inline(always)]
fn until_kinds(u: Until) -> u8 {
    match u {
        Until::Forever => 0,
        Until::EndOfTurn => 1 << End::TURN,
        Until::EndOfPhase(_) => 1 << End::TURN | 1 << End::PHASE,
        Until::While(_) => 1 << End::MOVED,
        Until::Event(_) => 1 << End::EVENT,
    }
}

impl Index {
    fn add(&mut self, i: u32, m: &Modifier) {
        self.by_card.entry(m.obj).or_default().push(i);
        let a = end_of(m.until, m.obj);
        let b = end_of(m.or, m.obj).filter(|b| Some(*b) != a);
        for e in a.into_iter().chain(b) {
            self.by_end.entry(e).or_default().push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{End, Modifier, Mods, Until};

    fn m(obj: u32, until: Until, or: Until) -> Modifier {
        Modifier {
            obj,
            prop: 0,
            delta: 1,
            until,
            or,
        }
    }

    /// Every end finds exactly the modifiers a scan of all of them would,
    /// in the order made, through compactions, with many modifiers alive.
    #[test]
    fn ends_find_what_a_scan_finds() {
        let mut mods = Mods::default();
        let mut all: Vec<(Modifier, bool)> = Vec::new();
        let untils = |k: u32| match k % 6 {
            0 => Until::Forever,
            1 => Until::EndOfTurn,
            2 => Until::EndOfPhase((k / 6 % 3) as u16),
            3 => Until::While(k / 6 % 5),
            _ => Until::Event((k / 6 % 2) as u16),
        };
        for round in 0..3000u32 {
            let x = round.wrapping_mul(2654435761);
            let (u, o) = (untils(x >> 3), untils(x >> 11));
            let card = x >> 20 & 7;
            mods.push(m(card, u, o));
            all.push((m(card, u, o), true));
            let end = match x >> 24 & 7 {
                0 => Some(End::Turn),
                1 => Some(End::Phase((x >> 27 & 3) as u16)),
                2 => Some(End::Moved(x >> 27 & 7)),
                3 => Some(End::Event((x >> 27 & 1) as u16, x >> 28 & 7)),
                _ => None,
            };
            if let Some(end) = end {
                let mut got = Vec::new();
                mods.end(end, Some(&mut got));
                let mut want = Vec::new();
                for (m, live) in all.iter_mut().filter(|(_, l)| *l) {
                    if super::ends_at(m.until, end, m.obj) || super::ends_at(m.or, end, m.obj) {
                        *live = false;
                        want.push(format!("{m:?}"));
                    }
                }
                let got: Vec<String> = got.iter().map(|m| format!("{m:?}")).collect();
                assert_eq!(got, want, "round {round}: {end:?}");
            }
            for c in 0..8 {
                let want: i64 = all.iter().filter(|(m, l)| *l && m.obj == c).count() as i64;
                assert_eq!(mods.sum(c, 0), want, "round {round}");
            }
            let events = all
                .iter()
                .any(|(m, l)| *l && m.ends(|u| matches!(u, Until::Event(_))));
            assert_eq!(mods.await_events(), events);
        }
        assert!(mods.all.len() < all.len(), "never compacted");
    }

    /// The cards' bits of a small list never hide a modifier: cards 64
    /// apart share a bit, and the bits are found again after an end and
    /// when the list leaves its indices.
    #[test]
    fn card_bits_hide_no_modifier() {
        let mut mods = Mods::default();
        mods.push(m(3, Until::EndOfTurn, Until::EndOfTurn));
        mods.push(m(67, Until::Forever, Until::Forever));
        let sums = |mods: &Mods, cs: [u32; 3]| cs.map(|c| mods.sum(c, 0));
        assert_eq!(sums(&mods, [3, 67, 131]), [1, 1, 0]);
        mods.end(End::Turn, None);
        assert_eq!(sums(&mods, [3, 67, 131]), [0, 1, 0]);
        for c in 0..100 {
            mods.push(m(c, Until::EndOfTurn, Until::EndOfTurn));
        }
        assert!(mods.index.is_some());
        assert_eq!(sums(&mods, [3, 67, 99]), [1, 2, 1]);
        mods.end(End::Turn, None);
        assert!(mods.index.is_none(), "small again");
        assert_eq!(sums(&mods, [3, 67, 99]), [0, 1, 0]);
        mods.push(m(5, Until::Forever, Until::Forever));
        assert_eq!(sums(&mods, [5, 69, 67]), [1, 0, 1]);
        // The cards whose move or event ends one: 70 (the source card of
        // card 1's) and 8 (the card of an event's); 6 shares 70's bit.
        mods.push(m(1, Until::While(70), Until::Forever));
        mods.push(m(8, Until::Event(2), Until::Forever));
        let ended = |mods: &mut Mods, end| {
            let mut over = Vec::new();
            mods.end(end, Some(&mut over));
            over.iter().map(|m| m.obj).collect::<Vec<_>>()
        };
        assert_eq!(ended(&mut mods, End::Moved(6)), [0u32; 0]);
        assert_eq!(ended(&mut mods, End::Event(2, 72)), [0u32; 0]);
        assert_eq!(ended(&mut mods, End::Moved(70)), [1]);
        assert_eq!(ended(&mut mods, End::Event(2, 8)), [8]);
        assert_eq!(mods.keys, 0);
    }
}
