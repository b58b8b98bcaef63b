//! The cards ever given a host this game: `attached(card)` looks at these,
//! not at every card. One may have left its host since (entering a zone
//! ends an attachment); its `host` says so.

use crate::value::ObjId;

/// In the order first attached, with a bit per card id saying a card is
/// listed: an attach costs the same however many came before (a list kept
/// in id order shifted its tail, quadratic for a deck attached top first).
#[derive(Debug, Default)]
pub struct Hosted {
    cards: Vec<ObjId>,
    listed: Vec<u64>,
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
    }
}

impl Hosted {
    /// Lists card `c`, if it is not yet.
    #[inline]
    pub fn add(&mut self, c: ObjId) {
        let (w, bit) = (c as usize / 64, 1u64 << (c % 64));
        if w >= self.listed.len() {
            self.listed.resize(w + 1, 0);
        }
        if self.listed[w] & bit == 0 {
            self.listed[w] |= bit;
            self.cards.push(c);
        }
    }

    pub fn clear(&mut self) {
        self.cards.clear();
        self.listed.clear();
    }

    /// How many cards are listed: what a look for a host's cards visits.
    #[inline]
    pub fn count(&self) -> usize {
        self.cards.len()
    }

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.cards.iter().copied()
    }
}
