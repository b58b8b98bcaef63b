//! Squares found by a property's value: for each square property, the
//! squares holding each value of a plain kind (none, a number, a truth, a
//! player) as a set of bits, kept by the board's writes. A scan
//! `squares(kind) where square_get(it, prop) == x` reads its hits off the
//! set, not off every square: what a board game asks of its board on every
//! decision ("the squares p owns").

use crate::value::{PlayerId, Value};

/// A value a set is kept for: one equal to a value only of its own kind
/// and payload (as [`crate::engine::Game::equal`] decides it), so the
/// squares equal to it are exactly the squares holding it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IndexKey {
    None,
    Int(i64),
    Bool(bool),
    Player(PlayerId),
}

impl IndexKey {
    #[inline(always)]
    pub fn of(v: &Value) -> Option<IndexKey> {
        Some(match v {
            Value::None => IndexKey::None,
            Value::Int(n) => IndexKey::Int(*n),
            Value::Bool(b) => IndexKey::Bool(*b),
            Value::Player(p) => IndexKey::Player(*p),
            _ => return None,
        })
    }

    /// Whether `x` equals it.
    #[inline(always)]
    pub fn same(self, x: &Value) -> bool {
        match (self, x) {
            (IndexKey::None, Value::None) => true,
            (IndexKey::Int(k), Value::Int(n)) => k == *n,
            (IndexKey::Bool(k), Value::Bool(b)) => k == *b,
            (IndexKey::Player(k), Value::Player(p)) => k == *p,
            _ => false,
        }
    }
}

/// Most values one property keeps sets for in a game (a set is kept once
/// made, empty or not): past it (a property holding many numbers) the
/// property is no longer indexed this game, and its scans read every square
/// as before. Bounds the index's memory and the look-up of a value's set.
const MAX_KEYS: usize = 16;

/// The sets of every square property, each made when a scan first asks
/// for it in a game: a property no scan reads this way costs its writes
/// nothing.
#[derive(Debug, Default)]
pub struct Index {
    /// `u64`s a set of squares takes.
    words: usize,
    props: Vec<Sets>,
}

/// One property's sets.
#[derive(Debug, Default)]
struct Sets {
    state: State,
    /// The values some square held since the sets were made, in no order.
    keys: Vec<IndexKey>,
    /// Key `i`'s squares: bit `s % 64` of word `i * words + s / 64`.
    bits: Vec<u64>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
enum State {
    /// Not asked for this game: no sets kept.
    #[default]
    Unmade,
    /// Kept by every write.
    On,
    /// The property held too many values (see [`MAX_KEYS`]): not indexed.
    Off,
}

impl Clone for Sets {
    fn clone(&self) -> Sets {
        let mut s = Sets::default();
        s.clone_from(self);
        s
    }

    /// Into its own vectors (a search copies the board per playout).
    fn clone_from(&mut self, src: &Sets) {
        self.state = src.state;
        self.keys.clone_from(&src.keys);
        self.bits.clone_from(&src.bits);
    }
}

impl Clone for Index {
    fn clone(&self) -> Index {
        let mut i = Index::default();
        i.clone_from(self);
        i
    }

    fn clone_from(&mut self, src: &Index) {
        self.words = src.words;
        self.props.clone_from(&src.props);
    }
}

impl Index {
    /// A new game's index of `nprops` properties of `nsquares` squares:
    /// no sets made yet.
    pub fn reset(&mut self, nprops: usize, nsquares: usize) {
        self.words = nsquares.div_ceil(64);
        self.props.resize_with(nprops, Sets::default);
        for sets in &mut self.props {
            sets.state = State::Unmade;
            sets.keys.clear();
            sets.bits.clear();
        }
    }

    /// Square `s`'s property `p` now holds `v` (it held none of the sets').
    #[inline]
    pub fn add(&mut self, p: usize, s: usize, v: &Value) {
        let words = self.words;
        let sets = &mut self.props[p];
        let Some(k) = IndexKey::of(v).filter(|_| sets.state == State::On) else {
            return;
        };
        let i = match sets.keys.iter().position(|&x| x == k) {
            Some(i) => i,
            None if sets.keys.len() == MAX_KEYS => {
                *sets = Sets {
                    state: State::Off,
                    ..Sets::default()
                };
                return;
            }
            None => {
                sets.keys.push(k);
                sets.bits.resize(sets.bits.len() + words, 0);
                sets.keys.len() - 1
            }
        };
        sets.bits[i * words + s / 64] |= 1 << (s % 64);
    }

    /// Square `s`'s property `p` no longer holds `v`.
    #[inline]
    pub fn remove(&mut self, p: usize, s: usize, v: &Value) {
        let words = self.words;
        let sets = &mut self.props[p];
        let Some(k) = IndexKey::of(v).filter(|_| sets.state == State::On) else {
            return;
        };
        if let Some(i) = sets.keys.iter().position(|&x| x == k) {
            sets.bits[i * words + s / 64] &= !(1 << (s % 64));
        }
    }

    /// `u64`s a set of squares takes.
    #[inline(always)]
    pub fn words(&self) -> usize {
        self.words
    }

    /// Property `p`'s sets made from the board's properties
    /// (`props[s * nprops + p]`) where no scan asked for them yet this game.
    #[inline(always)]
    pub fn make(&mut self, p: usize, props: &[Value], nprops: usize) {
        if self.props.get(p).is_some_and(|s| s.state == State::Unmade) {
            self.make_now(p, props, nprops);
        }
    }

    #[inline(never)]
    fn make_now(&mut self, p: usize, props: &[Value], nprops: usize) {
        self.props[p].state = State::On;
        for (s, v) in props.iter().skip(p).step_by(nprops).enumerate() {
            self.add(p, s, v);
        }
    }

    /// The squares whose property `p` holds `k`: none where `p`'s sets are
    /// not kept, an empty slice where no square holds it.
    #[inline(always)]
    pub fn squares(&self, p: usize, k: IndexKey) -> Option<&[u64]> {
        let sets = self.props.get(p).filter(|s| s.state == State::On)?;
        Some(match sets.keys.iter().position(|&x| x == k) {
            Some(i) => &sets.bits[i * self.words..(i + 1) * self.words],
            None => &[],
        })
    }
}
