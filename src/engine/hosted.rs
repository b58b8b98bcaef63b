//! The cards given a host this game, listed under their hosts:
//! `attached(card)` walks the cards listed under that card, not every
//! card. One may have left its host since (entering a zone ends an
//! attachment, and the moves do not come here); its `host` says so, and it
//! stays listed until it is given another host. How many cards were ever
//! given a host is kept apart: it is what a look is charged.

use crate::value::ObjId;

/// No card.
const NONE: ObjId = ObjId::MAX;

/// By card id: the first card listed under it, the next card listed under
/// the same host, and the host it is listed under (none: [`NONE`]); a bit
/// per card id ever given a host, and how many were. Empty in a game that
/// attaches nothing.
#[derive(Debug, Default)]
pub struct Hosted {
    under: Vec<ObjId>,
    next: Vec<ObjId>,
    host: Vec<ObjId>,
    ever: Vec<u64>,
    count: usize,
}

impl Clone for Hosted {
    fn clone(&self) -> Hosted {
        let mut h = Hosted::default();
        h.clone_from(self);
        h
    }

    /// Into this list's own vectors: a search copies a state per playout.
    fn clone_from(&mut self, src: &Hosted) {
        self.under.clone_from(&src.under);
        self.next.clone_from(&src.next);
        self.host.clone_from(&src.host);
        self.ever.clone_from(&src.ever);
        self.count = src.count;
    }
}

impl Hosted {
    /// Card `c` is given host `h`: listed under it (taken from under the
    /// host it was listed under, if another).
    pub fn add(&mut self, c: ObjId, h: ObjId) {
        let n = c.max(h) as usize + 1;
        if self.host.len() < n {
            for v in [&mut self.under, &mut self.next, &mut self.host] {
                v.resize(n, NONE);
            }
        }
        let old = self.host[c as usize];
        if old != h {
            if old != NONE {
                self.unlist(c, old);
            }
            self.next[c as usize] = self.under[h as usize];
            self.under[h as usize] = c;
            self.host[c as usize] = h;
        }
        let (w, bit) = (c as usize / 64, 1u64 << (c % 64));
        if w >= self.ever.len() {
            self.ever.resize(w + 1, 0);
        }
        if self.ever[w] & bit == 0 {
            self.ever[w] |= bit;
            self.count += 1;
        }
    }

    /// Takes card `c` from the cards listed under `h`.
    fn unlist(&mut self, c: ObjId, h: ObjId) {
        let after = self.next[c as usize];
        if self.under[h as usize] == c {
            self.under[h as usize] = after;
            return;
        }
        let mut x = self.under[h as usize];
        while x != NONE {
            if self.next[x as usize] == c {
                self.next[x as usize] = after;
                return;
            }
            x = self.next[x as usize];
        }
    }

    pub fn clear(&mut self) {
        self.under.clear();
        self.next.clear();
        self.host.clear();
        self.ever.clear();
        self.count = 0;
    }

    /// How many cards were ever given a host: what a look for a host's
    /// cards is charged (as when it visited every one of them).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The cards listed under `h`, in no order: those attached to it now,
    /// and any that have left it since.
    #[inline]
    pub fn under(&self, h: ObjId) -> Under<'_> {
        Under {
            next: &self.next,
            at: self.under.get(h as usize).copied().unwrap_or(NONE),
        }
    }
}

/// The cards listed under a host ([`Hosted::under`]): the list followed
/// link by link to its end, the card [`NONE`] (no `Option` made and taken
/// apart a card, as `successors` did).
pub struct Under<'a> {
    next: &'a [ObjId],
    at: ObjId,
}

impl Iterator for Under<'_> {
    type Item = ObjId;

    #[inline(always)]
    fn next(&mut self) -> Option<ObjId> {
        let c = self.at;
        if c == NONE {
            return None;
        }
        self.at = self.next[c as usize];
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn under(h: &Hosted, host: ObjId) -> Vec<ObjId> {
        let mut v: Vec<ObjId> = h.under(host).collect();
        v.sort();
        v
    }

    #[test]
    fn a_card_is_listed_under_its_last_host_once() {
        let mut h = Hosted::default();
        assert_eq!(under(&h, 3), Vec::<ObjId>::new());
        for c in [5, 6, 7] {
            h.add(c, 3);
        }
        h.add(6, 3);
        assert_eq!(under(&h, 3), [5, 6, 7]);
        // Given another host: taken from under the first, from the middle,
        // the head and the tail of its list.
        h.add(6, 9);
        h.add(7, 9);
        assert_eq!((under(&h, 3), under(&h, 9)), (vec![5], vec![6, 7]));
        h.add(5, 9);
        assert_eq!((under(&h, 3), under(&h, 9)), (vec![], vec![5, 6, 7]));
        // A host listed under another, and a card listed under itself.
        h.add(9, 2);
        h.add(2, 2);
        assert_eq!((under(&h, 2), under(&h, 9)), (vec![2, 9], vec![5, 6, 7]));
        assert_eq!(h.count(), 5);
        let copy = h.clone();
        h.clear();
        assert_eq!((under(&h, 9), h.count()), (vec![], 0));
        assert_eq!((under(&copy, 9), copy.count()), (vec![5, 6, 7], 5));
    }
}
