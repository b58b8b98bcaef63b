//! Cards read onto the stack before code tests them (a filter's, an
//! `any`'s): a copy, as the list the reference makes is, so the tests may
//! move cards. Up to [`Listed::INLINE`] in an array written in place (a
//! hand or a field, mostly: no allocation, no length checked per card),
//! more in a vector. The array is not cleared first: most filters read a
//! few cards, and clearing it cost more than copying them.

use std::mem::MaybeUninit;

use crate::value::ObjId;

pub(super) struct Listed {
    n: usize,
    /// The first `n` written, the rest never read.
    inline: [MaybeUninit<ObjId>; Listed::INLINE],
    /// All the cards, once there are more than the array holds.
    spill: Vec<ObjId>,
}

impl Listed {
    const INLINE: usize = 32;

    #[inline(always)]
    pub(super) fn new() -> Listed {
        Listed {
            n: 0,
            inline: [MaybeUninit::uninit(); Listed::INLINE],
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    pub(super) fn as_slice(&self) -> &[ObjId] {
        match self.spill.is_empty() {
            true => written(&self.inline, self.n),
            false => &self.spill,
        }
    }

    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Sorts the cards by id (a host's attached cards are listed so).
    #[inline(always)]
    pub(super) fn sort(&mut self) {
        match self.spill.is_empty() {
            true => {
                let n = self.n;
                // SAFETY: the first `n` are written (`push`, `extend_rev`),
                // `n` <= INLINE.
                let cards = unsafe {
                    std::slice::from_raw_parts_mut(self.inline.as_mut_ptr().cast::<ObjId>(), n)
                };
                sort_few(cards)
            }
            false => self.spill.sort_unstable(),
        }
    }

    /// Adds `cards` last first (a zone's list holds its top card last).
    #[inline(always)]
    pub(super) fn extend_rev(&mut self, cards: &[ObjId]) {
        let (n, k) = (self.n, cards.len());
        if self.spill.is_empty()
            && let Some(to) = self.inline.get_mut(n..n + k)
        {
            for (to, &c) in to.iter_mut().zip(cards.iter().rev()) {
                *to = MaybeUninit::new(c);
            }
            self.n = n + k;
            return;
        }
        self.spilled().extend(cards.iter().rev());
    }

    #[inline(always)]
    pub(super) fn push(&mut self, c: ObjId) {
        if self.spill.is_empty() && self.n < Listed::INLINE {
            self.inline[self.n] = MaybeUninit::new(c);
            self.n += 1;
            return;
        }
        self.spilled().push(c);
    }

    /// The vector of all the cards, the array's moved into it first.
    #[cold]
    fn spilled(&mut self) -> &mut Vec<ObjId> {
        if self.spill.is_empty() {
            self.spill.extend_from_slice(written(&self.inline, self.n));
        }
        &mut self.spill
    }
}

/// The first `n` cards of the array, all written.
#[inline(always)]
fn written(inline: &[MaybeUninit<ObjId>; Listed::INLINE], n: usize) -> &[ObjId] {
    // SAFETY: `Listed` writes its array's first `n` before it counts them
    // (`push`, `extend_rev`), and `n` <= INLINE; `MaybeUninit<u32>` has
    // `u32`'s layout.
    unsafe { std::slice::from_raw_parts(inline.as_ptr().cast(), n.min(Listed::INLINE)) }
}

/// Sorts `cards` by id: a few (a host's attached cards, mostly two or
/// three) by insertion in place; more by the library's sort. Ids are
/// distinct, so both give the one order. Out of line: the filters it is
/// called from are inlined into many callers (inlined, it grew their code
/// and cost games that attach nothing).
#[inline(never)]
pub(super) fn sort_few(cards: &mut [ObjId]) {
    if cards.len() > 8 {
        return cards.sort_unstable();
    }
    for i in 1..cards.len() {
        let c = cards[i];
        let mut j = i;
        while j > 0 && cards[j - 1] > c {
            cards[j] = cards[j - 1];
            j -= 1;
        }
        cards[j] = c;
    }
}
