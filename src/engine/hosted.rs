//! The cards given a host this game: `attached(card)` looks at those that
//! may still have one, not at every card. One may have left its host since
//! (entering a zone ends an attachment, and the moves do not come here);
//! its `host` says so. An attach drops those now and then, so the list
//! stays within about twice the attachments in play. How many cards were
//! ever given a host is kept apart: it is what a look is charged.

use crate::value::ObjId;

/// The cards that may have a host, in no order (a look sorts what it
/// finds), a bit per card id saying it is listed there, a bit per card id
/// ever given a host, and how many were.
#[derive(Debug, Default)]
pub struct Hosted {
    cards: Vec<ObjId>,
    listed: Vec<u64>,
    ever: Vec<u64>,
    count: usize,
    /// The list's length when it was last swept.
    swept: usize,
}

impl Clone for Hosted {
    fn clone(&self) -> Hosted {
        let mut h = Hosted::default();
        h.clone_from(self);
        h
    }

    /// Into this list's own vectors: a search copies a state per playout.
    fn clone_from(&mut self, src: &Hosted) {
        self.cards.clone_from(&src.cards);
        self.listed.clone_from(&src.listed);
        self.ever.clone_from(&src.ever);
        (self.count, self.swept) = (src.count, src.swept);
    }
}

/// Sets card `c`'s bit in `bits`; whether it was clear.
#[inline]
fn set(bits: &mut Vec<u64>, c: ObjId) -> bool {
    let (w, bit) = (c as usize / 64, 1u64 << (c % 64));
    if w >= bits.len() {
        bits.resize(w + 1, 0);
    }
    let clear = bits[w] & bit == 0;
    bits[w] |= bit;
    clear
}

impl Hosted {
    /// Card `c` is given a host; `has` says whether a card has one now.
    /// Once the list doubled since its last sweep, the cards that lost their
    /// host leave it: an attach costs the same on average however many
    /// came before.
    #[inline]
    pub fn add(&mut self, c: ObjId, has: impl Fn(ObjId) -> bool) {
        if self.cards.len() >= 2 * self.swept + 8 {
            let listed = &mut self.listed;
            self.cards.retain(|&x| {
                let keep = has(x);
                if !keep {
                    listed[x as usize / 64] &= !(1u64 << (x % 64));
                }
                keep
            });
            self.swept = self.cards.len();
        }
        if set(&mut self.listed, c) {
            self.cards.push(c);
        }
        if set(&mut self.ever, c) {
            self.count += 1;
        }
    }

    pub fn clear(&mut self) {
        self.cards.clear();
        self.listed.clear();
        self.ever.clear();
        (self.count, self.swept) = (0, 0);
    }

    /// How many cards were ever given a host: what a look for a host's
    /// cards is charged (as when it visited every one of them).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.cards.iter().copied()
    }
}
