//! Cards read onto the stack before code tests them (a filter's, an
//! `any`'s): a copy, as the list the reference makes is, so the tests may
//! move cards. Up to [`Listed::INLINE`] in an array written in place (a
//! hand or a field, mostly: no allocation, no length checked per card),
//! more in a vector.

use crate::value::ObjId;

pub(super) struct Listed {
    n: usize,
    inline: [ObjId; Listed::INLINE],
    /// All the cards, once there are more than the array holds.
    spill: Vec<ObjId>,
}

impl Listed {
    const INLINE: usize = 32;

    #[inline(always)]
    pub(super) fn new() -> Listed {
        Listed {
            n: 0,
            inline: [0; Listed::INLINE],
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    pub(super) fn as_slice(&self) -> &[ObjId] {
        match self.spill.is_empty() {
            true => &self.inline[..self.n],
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
            true => self.inline[..self.n].sort_unstable(),
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
                *to = c;
            }
            self.n = n + k;
            return;
        }
        self.spilled().extend(cards.iter().rev());
    }

    #[inline(always)]
    pub(super) fn push(&mut self, c: ObjId) {
        if self.spill.is_empty() && self.n < Listed::INLINE {
            self.inline[self.n] = c;
            self.n += 1;
            return;
        }
        self.spilled().push(c);
    }

    /// The vector of all the cards, the array's moved into it first.
    #[cold]
    fn spilled(&mut self) -> &mut Vec<ObjId> {
        if self.spill.is_empty() {
            self.spill.extend_from_slice(&self.inline[..self.n]);
        }
        &mut self.spill
    }
}
