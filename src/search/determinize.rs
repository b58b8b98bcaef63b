//! Determinization from a seat's view: the cards the seat may not see are
//! dealt again among the places that hold them.
//!
//! A card is hidden from seat `p` where the kernel's views hide it: in a
//! zone whose contents `p` may not see, unless it is the zone's open top
//! card or `p` was shown it there (its `seen` mark). Every such card keeps
//! its place (zone, position, attachments, marks of who saw it) and takes a
//! new identity: the identities of all hidden cards, sorted, are shuffled
//! with the searcher's own generator and dealt back in place order. Which
//! hidden card lies where is never read, only the multiset of them, so two
//! games that differ in where their hidden cards lie give the same copies.
//! The game's own generator is replaced too: its future draws are unknown.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::data::Data;
use crate::engine::Game;
use crate::engine::log::sees_contents;
use crate::engine::state::State;
use crate::engine::state::below;
use crate::value::{DefId, ObjId, PlayerId, ZoneRef};

/// Buffers kept from copy to copy.
#[derive(Default)]
pub struct Deal {
    slots: Vec<ObjId>,
    ids: Vec<(DefId, u64)>,
    /// The last deal's identities as found, and sorted: the playouts of a
    /// decision find the same ones, and the sort is most of a deal.
    found: Vec<(DefId, u64)>,
    sorted: Vec<(DefId, u64)>,
}

/// The cards hidden from `p`, in place order (zone instance, bottom first).
pub fn hidden(d: &Data, st: &State, p: PlayerId, out: &mut Vec<ObjId>) {
    out.clear();
    for (inst, r) in st.inst_ref.iter().enumerate() {
        let z = ZoneRef {
            zone: r.zone,
            owner: r.owner,
        };
        let decl = &d.zones[z.zone as usize];
        // A pile holds one definition: its cards have no identity to hide.
        if decl.piles || sees_contents(d, z, Some(p)) {
            continue;
        }
        let cards = &st.zones[inst].cards;
        let open_top = decl.top as usize;
        for &c in &cards[..cards.len() - open_top.min(cards.len())] {
            if st.objs[c as usize].seen & 1u8.checked_shl(p.into()).unwrap_or(0) == 0 {
                out.push(c);
            }
        }
    }
}

impl Deal {
    /// Deals the cards hidden from `p` again, and reseeds the game's
    /// generator, from `rng`.
    pub fn redeal(&mut self, g: &mut Game, p: PlayerId, rng: &mut ChaCha8Rng) {
        hidden(&g.data, &g.st, p, &mut self.slots);
        self.ids.clear();
        let objs = &mut g.st.objs;
        (self.ids).extend(self.slots.iter().map(|&c| {
            let o = &objs[c as usize];
            (o.def, o.tags)
        }));
        if self.ids != self.found {
            self.found.clone_from(&self.ids);
            self.ids.sort_unstable();
            self.sorted.clone_from(&self.ids);
        } else {
            self.ids.clone_from(&self.sorted);
        }
        for i in (1..self.ids.len()).rev() {
            self.ids.swap(i, below(rng, i + 1));
        }
        for (&c, &(def, tags)) in self.slots.iter().zip(&self.ids) {
            let o = &mut objs[c as usize];
            (o.def, o.tags) = (def, tags);
        }
        g.st.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
    }
}
