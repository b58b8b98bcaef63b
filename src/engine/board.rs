//! The board at play: square properties, the track in use, where each piece
//! stands, and dice fixed in advance. Squares are numbers (their place in the
//! rules' list), so code passes them around like any value. Plain data: the
//! operations on it are in `board_ops`.

use std::sync::Arc;

use super::board_index::{Index, IndexKey};
use crate::data::Data;
use crate::value::Value;

/// The board's state in one game.
#[derive(Debug, Default)]
pub struct Board {
    /// Square `s`'s property `p` at `s * nprops + p`: written only by
    /// [`Board::set_prop`], which keeps `index`.
    props: Vec<Value>,
    pub nprops: usize,
    /// The squares in play, in track order.
    pub track: Vec<u32>,
    /// Each square's place in `track` (`u32::MAX`: not on the track).
    pub place: Vec<u32>,
    /// Each player's square.
    pub pieces: Vec<u32>,
    /// Die results fixed in advance (a scenario's `dice:`), used before the RNG.
    pub dice: std::collections::VecDeque<i64>,
    /// `squares()` and `squares(kind)` for each kind, made when the track is:
    /// rules ask for them on every decision, the lists never change between.
    pub lists: Vec<(Option<Arc<String>>, Value)>,
    /// The squares holding each plain value of each property.
    index: Index,
    /// Each list of `lists` as a set of squares (`index`'s layout).
    masks: Vec<u64>,
    /// Each square's list of its kind in `lists` (0: off the track).
    kind_list: Vec<u32>,
    /// Each square's place in its kind's list.
    kind_pos: Vec<u32>,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut b = Board::default();
        b.clone_from(self);
        b
    }

    /// Into this board's own vectors (a search copies one per playout).
    fn clone_from(&mut self, src: &Board) {
        let Board {
            props,
            nprops,
            track,
            place,
            pieces,
            dice,
            lists,
            index,
            masks,
            kind_list,
            kind_pos,
        } = src;
        self.props.clone_from(props);
        self.nprops = *nprops;
        self.track.clone_from(track);
        self.place.clone_from(place);
        self.pieces.clone_from(pieces);
        self.dice.clone_from(dice);
        self.lists.clone_from(lists);
        self.index.clone_from(index);
        self.masks.clone_from(masks);
        self.kind_list.clone_from(kind_list);
        self.kind_pos.clone_from(kind_pos);
    }
}

impl Board {
    /// The board of a new game: every square on the track, every piece on square 0.
    pub fn reset(&mut self, data: &Data, nplayers: u8) {
        let squares = &data.board.squares;
        self.nprops = data.names.square_props.len();
        self.props.clear();
        for sq in squares {
            self.props
                .extend(sq.props.iter().map(|v| v.map_or(Value::None, Value::Int)));
        }
        self.track.clear();
        self.track.extend(0..squares.len() as u32);
        self.place.clear();
        self.place.extend(0..squares.len() as u32);
        self.pieces.clear();
        self.pieces.resize(nplayers as usize, 0);
        self.dice.clear();
        self.index.reset(self.nprops, squares.len());
        self.list_squares(data);
    }

    /// The track laid again of the squares in `sections` (sorted), a piece
    /// off it moved to its first square: false (nothing changed) where no
    /// square is in them.
    pub fn lay_sections(&mut self, data: &Data, sections: &[i64]) -> bool {
        let squares = &data.board.squares;
        let track: Vec<u32> = (0..squares.len() as u32)
            .filter(|&s| sections.binary_search(&squares[s as usize].section).is_ok())
            .collect();
        if track.is_empty() {
            return false;
        }
        self.place.fill(u32::MAX);
        for (i, &s) in track.iter().enumerate() {
            self.place[s as usize] = i as u32;
        }
        for p in self.pieces.iter_mut() {
            if self.place[*p as usize] == u32::MAX {
                *p = track[0];
            }
        }
        self.track = track;
        self.list_squares(data);
        true
    }

    /// Every square's properties (square `s`'s property `p` at `s * nprops + p`).
    #[inline(always)]
    pub fn props(&self) -> &[Value] {
        &self.props
    }

    /// Square `s`'s property `p` (a name the loader resolved, so in range).
    #[inline(always)]
    pub fn prop(&self, s: usize, p: usize) -> &Value {
        &self.props[s * self.nprops + p]
    }

    /// Square `s`'s property `p` set to `v`, the index kept.
    pub fn set_prop(&mut self, s: usize, p: usize, v: Value) {
        let i = s * self.nprops + p;
        self.index.remove(p, s, &self.props[i]);
        self.index.add(p, s, &v);
        self.props[i] = v;
    }

    /// `items where square_get(it, p) == k` (`!=` where not `eq`), for
    /// `items` one of the board's `lists`: each square that passes given
    /// to `hit` in the list's order, with the number of items from it on.
    /// None (nothing given) where `items` is no such list or `p` is not
    /// indexed.
    #[inline(always)]
    pub fn found(
        &mut self,
        p: usize,
        k: IndexKey,
        eq: bool,
        items: &[Value],
        hit: &mut dyn FnMut(&Value, usize),
    ) -> Option<()> {
        let l = self.list_of(items)?;
        self.index.make(p, &self.props, self.nprops);
        let set = self.index.squares(p, k)?;
        let words = self.index.words();
        let mask = &self.masks[l * words..(l + 1) * words];
        // The whole track's list is in track order, a kind's in its own.
        let place = if l == 0 { &self.place } else { &self.kind_pos };
        for (w, &m) in mask.iter().enumerate() {
            let held = set.get(w).copied().unwrap_or(0);
            let mut bits = m & if eq { held } else { !held };
            while bits != 0 {
                let s = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let i = place[s] as usize;
                hit(&items[i], items.len() - i);
            }
        }
        Some(())
    }

    /// Which of `lists` `items` is (the same list, not an equal one): the
    /// whole track's or the list of its first square's kind. None where the
    /// track is not in the squares' order (bits are walked in that order).
    #[inline(always)]
    fn list_of(&self, items: &[Value]) -> Option<usize> {
        let (Some(Value::Int(s)), false) = (items.first(), self.masks.is_empty()) else {
            return None;
        };
        let kind = *self.kind_list.get(usize::try_from(*s).ok()?)? as usize;
        for l in [0, kind] {
            if let (_, Value::List(list)) = &self.lists[l]
                && std::ptr::eq(list.as_ptr(), items.as_ptr())
                && list.len() == items.len()
            {
                return Some(l);
            }
        }
        None
    }

    /// The track's squares, all and by kind (see `lists`).
    fn list_squares(&mut self, data: &Data) {
        self.lists.clear();
        let squares = &data.board.squares;
        if squares.is_empty() {
            return;
        }
        let all = self.track.iter().map(|&s| Value::Int(s as i64)).collect();
        self.lists.push((None, Value::list(all)));
        // Each kind once, in the order the squares first name it, with its
        // squares in track order: one pass over each (a board may have
        // thousands of kinds).
        let mut kinds: std::collections::HashMap<&str, usize> = Default::default();
        let mut named: Vec<(&std::sync::Arc<String>, Vec<Value>)> = Vec::new();
        for sq in squares {
            kinds.entry(sq.kind.as_str()).or_insert_with(|| {
                named.push((&sq.kind, Vec::new()));
                named.len() - 1
            });
        }
        for &s in &self.track {
            named[kinds[squares[s as usize].kind.as_str()]]
                .1
                .push(Value::Int(s as i64));
        }
        for (kind, list) in named {
            self.lists.push((Some(kind.clone()), Value::list(list)));
        }
        self.mask_lists(squares.len());
    }

    /// `masks`, `kind_list` and `kind_pos` of the lists made, for
    /// [`Board::found`]: none where the track is not in the squares' order.
    fn mask_lists(&mut self, n: usize) {
        let words = n.div_ceil(64);
        self.masks.clear();
        self.kind_list.clear();
        self.kind_list.resize(n, 0);
        self.kind_pos.clear();
        self.kind_pos.resize(n, u32::MAX);
        if !self.track.is_sorted() {
            return;
        }
        for (l, (_, list)) in self.lists.iter().enumerate() {
            self.masks.resize((l + 1) * words, 0);
            let Value::List(list) = list else {
                continue;
            };
            for (i, v) in list.iter().enumerate() {
                let Value::Int(s) = *v else {
                    continue;
                };
                let s = s as usize;
                self.masks[l * words + s / 64] |= 1 << (s % 64);
                if l > 0 {
                    self.kind_list[s] = l as u32;
                    self.kind_pos[s] = i as u32;
                }
            }
        }
    }
}
