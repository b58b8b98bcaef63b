//! The game state: card objects in zones, counters, the RNG. Plain data of small
//! ids, cheap to clone (a bot can copy it to look ahead).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use super::mods::{Modifier, Until};
use crate::data::Data;
use crate::value::{DefId, ObjId, PlayerId, Value, ZoneRef};

/// A card instance. `Copy`: a state's cards are copied as one block.
#[derive(Debug, Clone, Copy)]
pub struct Obj {
    pub def: DefId,
    pub owner: PlayerId,
    /// Index of the zone instance holding it.
    pub zone: u32,
    /// The definition's tags with those given at run time (`mark`): a tag
    /// test is one load. A definition's own tag is never taken away.
    pub tags: u64,
    /// The card this one is attached to or stored under, if any.
    pub host: Option<ObjId>,
    /// Players shown it where it lies (`look`, `reveal`), bit `p` for player
    /// `p` (the first 8; the others are never told): they know it among hidden
    /// cards until it moves. A byte: the card stays 24 bytes.
    pub seen: u8,
}

/// One zone for one owner. Ordered: the last card is the top.
#[derive(Debug, Default)]
pub struct ZoneInst {
    pub cards: Vec<ObjId>,
    /// For pile zones: one pile per card definition, in the order they were made.
    pub piles: Vec<(DefId, Vec<ObjId>)>,
    /// Kept by the moves, so that no work on a row of piles grows with its
    /// piles but for the ones it visits (a mod may make thousands): bit `i`,
    /// pile `i` holds cards (a walk skips the empty ones a word at a time);
    /// how many piles are empty; how many cards all piles hold; a bit per
    /// definition with a pile; by definition, its pile's index plus one.
    full: Vec<u64>,
    pub nempty: u32,
    in_piles: usize,
    pub pile_defs: Vec<u64>,
    pile_at: Vec<u32>,
    /// The emptied piles of the last game, kept so the next one's piles
    /// reuse their allocations.
    spare: Vec<Vec<ObjId>>,
}

impl Clone for ZoneInst {
    fn clone(&self) -> ZoneInst {
        let mut z = ZoneInst::default();
        z.clone_from(self);
        z
    }

    /// Into this zone's own vectors: a search copies a state per playout.
    fn clone_from(&mut self, src: &ZoneInst) {
        self.cards.clone_from(&src.cards);
        // Most zones hold no piles, and then no pile marks (`clear`).
        if src.piles.is_empty() && self.piles.is_empty() {
            return;
        }
        self.piles.truncate(src.piles.len());
        let kept = self.piles.len();
        for ((d, p), (sd, sp)) in self.piles.iter_mut().zip(&src.piles) {
            *d = *sd;
            p.clone_from(sp);
        }
        self.piles.extend(src.piles[kept..].iter().cloned());
        self.full.clone_from(&src.full);
        self.nempty = src.nempty;
        self.in_piles = src.in_piles;
        self.pile_defs.clone_from(&src.pile_defs);
        self.pile_at.clone_from(&src.pile_at);
        // `spare` holds only allocations, no cards: each copy keeps its own.
    }
}

impl ZoneInst {
    /// No cards, no piles.
    pub fn clear(&mut self) {
        self.cards.clear();
        // Piles are never taken away: a zone with none has no pile marks.
        if self.piles.is_empty() {
            debug_assert!(self.nempty == 0 && self.in_piles == 0 && self.pile_defs.is_empty());
            return;
        }
        // Reversed: the next game's first pile takes this game's first.
        for (_, mut p) in self.piles.drain(..).rev() {
            p.clear();
            self.spare.push(p);
        }
        self.full.clear();
        self.nempty = 0;
        self.in_piles = 0;
        self.pile_defs.clear();
        self.pile_at.clear();
    }

    /// Adds an empty pile of a definition.
    pub fn push_empty_pile(&mut self, def: DefId) {
        let p = self.spare.pop().unwrap_or_default();
        self.push_pile(def, p);
    }

    fn push_pile(&mut self, def: DefId, cards: Vec<ObjId>) {
        let i = self.piles.len();
        if i.is_multiple_of(64) {
            self.full.push(0);
        }
        self.nempty += 1;
        self.in_piles += cards.len();
        self.set_empty(i, cards.is_empty());
        self.piles.push((def, cards));
        let w = def as usize / 64;
        if w >= self.pile_defs.len() {
            self.pile_defs.resize(w + 1, 0);
        }
        self.pile_defs[w] |= 1 << (def % 64);
        if def as usize >= self.pile_at.len() {
            self.pile_at.resize(def as usize + 1, 0);
        }
        self.pile_at[def as usize] = i as u32 + 1;
    }

    #[inline(always)]
    fn set_empty(&mut self, i: usize, empty: bool) {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.full[w] & b == 0;
        self.full[w] = if empty {
            self.full[w] & !b
        } else {
            self.full[w] | b
        };
        self.nempty = self.nempty + empty as u32 - was as u32;
    }

    /// Takes card `c` of definition `def` off its pile if it is the pile's
    /// top card (a gain from a row of piles): true if it was.
    #[inline(always)]
    fn take_pile_top(&mut self, c: ObjId, def: DefId) -> bool {
        let Some(at) = self.pile_index(def) else {
            return false;
        };
        let pile = &mut self.piles[at].1;
        if pile.last() != Some(&c) {
            return false;
        }
        pile.pop();
        let empty = pile.is_empty();
        self.in_piles -= 1;
        self.set_empty(at, empty);
        true
    }

    /// The index of a definition's pile, found without a search.
    #[inline(always)]
    pub fn pile_index(&self, def: DefId) -> Option<usize> {
        match self.pile_at.get(def as usize) {
            Some(&i) if i > 0 => Some(i as usize - 1),
            _ => None,
        }
    }

    /// A definition's pile (none: empty).
    #[inline]
    pub fn pile(&self, def: DefId) -> &[ObjId] {
        self.pile_index(def).map_or(&[], |i| &self.piles[i].1)
    }

    /// How many cards the zone holds, in its list and in its piles.
    #[inline]
    pub fn size(&self) -> usize {
        self.cards.len() + self.in_piles
    }

    /// The piles holding cards, in order, with their definitions.
    #[inline]
    pub fn full_piles(&self) -> FullPiles<'_> {
        let (bits, full) = self
            .full
            .split_first()
            .map_or((0, &[][..]), |(&b, r)| (b, r));
        FullPiles {
            piles: &self.piles,
            full,
            base: 0,
            bits,
        }
    }

    /// The top card of each pile holding cards, in order.
    #[inline]
    pub fn tops(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.full_piles().map(|(_, p)| p[p.len() - 1])
    }

    /// The items a walk of the zone lists: its cards top first (a row of
    /// piles lists none of its own), then its piles' tops.
    #[inline]
    pub fn listing(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.cards.iter().rev().copied().chain(self.tops())
    }

    /// Item `i` of [`ZoneInst::listing`], read in place.
    #[inline]
    pub fn item(&self, i: usize) -> Option<ObjId> {
        match self.cards.len().checked_sub(i + 1) {
            Some(j) => Some(self.cards[j]),
            None => self.tops().nth(i - self.cards.len()),
        }
    }

    /// Bit `i`: pile `i` (of the first 64) is empty.
    #[inline]
    pub fn empty_bits(&self) -> u64 {
        let n = self.piles.len().min(64);
        let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
        !self.full.first().copied().unwrap_or(0) & all
    }
}

/// [`ZoneInst::full_piles`]: the set bits of the pile bits, a word at a time.
pub struct FullPiles<'a> {
    piles: &'a [(DefId, Vec<ObjId>)],
    /// The words after the one being read.
    full: &'a [u64],
    /// The first pile of the word being read, and its bits left.
    base: usize,
    bits: u64,
}

impl<'a> Iterator for FullPiles<'a> {
    type Item = (DefId, &'a [ObjId]);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        while self.bits == 0 {
            let (&w, rest) = self.full.split_first()?;
            (self.full, self.base, self.bits) = (rest, self.base + 64, w);
        }
        let i = self.base + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let (d, p) = &self.piles[i];
        Some((*d, p))
    }
}

/// Something that happened or is about to happen (`would`).
#[derive(Debug, Clone)]
pub struct Event {
    pub name: u16,
    pub would: bool,
    pub card: Option<ObjId>,
    pub player: Option<PlayerId>,
    pub from: Option<ZoneRef>,
    pub to: Option<ZoneRef>,
    pub amount: i64,
    pub source: Option<ObjId>,
    pub target: Value,
    pub prevented: bool,
}

impl Event {
    pub fn new(name: u16) -> Event {
        Event {
            name,
            would: false,
            card: None,
            player: None,
            from: None,
            to: None,
            amount: 0,
            source: None,
            target: Value::None,
            prevented: false,
        }
    }
}

/// A triggered ability waiting for a check point.
#[derive(Debug, Clone)]
pub struct Pending {
    pub trigger: u32,
    pub this: Option<ObjId>,
    pub me: PlayerId,
    pub event: Event,
}

/// A card effect waiting on the stack of a priority window.
#[derive(Debug, Clone, Copy)]
pub struct StackItem {
    pub card: ObjId,
    pub effect: u16,
    pub me: PlayerId,
}

impl Obj {
    /// The card's fields once in zone instance `inst` of player `owner`
    /// (none: a shared zone).
    #[inline(always)]
    fn enter(&mut self, inst: usize, owner: Option<PlayerId>) {
        self.zone = inst as u32;
        // Leaving its zone ends an attachment; a host's own move does not move
        // what is attached to it (rules decide where those cards go).
        self.host = None;
        self.seen = 0;
        // A card that enters a player's zone becomes that player's card.
        if let Some(p) = owner {
            self.owner = p;
        }
    }
}

/// A declared zone's instances and kind, found with one lookup.
#[derive(Debug, Clone, Copy)]
pub struct ZoneLayout {
    /// The first instance.
    pub base: u32,
    /// Masks an owner to its instance's offset: 0 for a shared zone.
    pub owner_mask: u8,
    pub piles: bool,
}

pub struct State {
    pub nplayers: u8,
    pub objs: Vec<Obj>,
    pub zones: Vec<ZoneInst>,
    /// Where each declared zone's instances are, and its kind.
    pub layouts: Vec<ZoneLayout>,
    /// The declared zone and owner of each instance.
    pub inst_ref: Vec<ZoneRef>,
    pub ncounters: usize,
    pub counters: Vec<i64>,
    pub globals: Vec<i64>,
    pub mods: super::mods::Mods,
    pub active: PlayerId,
    pub turn: u32,
    pub turns_taken: Vec<u32>,
    pub phase: Option<u16>,
    pub rng: ChaCha8Rng,
    pub lost: Vec<bool>,
    pub events: Vec<Event>,
    pub pending: Vec<Pending>,
    pub stack: Vec<StackItem>,
    pub end_turn: bool,
    pub repeat_phase: bool,
    /// Bit per declared zone: one instance shared by all players.
    pub shared_zones: u64,
    /// Bit per card definition: some card of it was made in this game (an
    /// ability of a definition with no card can never trigger).
    pub made: Vec<u64>,
    /// The words of `made` with a bit set: a game's few definitions, so a
    /// test or a reset looks at them, not at the whole library.
    pub made_words: Vec<u32>,
    /// Definitions (and words of definition bits) looked at by lookups that
    /// could scan the whole library: a deterministic measure that a game's
    /// work does not grow with unused data (tests/library.rs).
    pub scanned: u64,
    /// Bit per event (below 64): no ability can wait for it, before or
    /// after, with the cards made so far (found once, forgotten when a card
    /// of a new definition is made).
    pub quiet: std::cell::Cell<u64>,
    /// Bit per event (below 64): some ability may wait for it, found once
    /// and kept all game (cards made are never unmade), so a heard event's
    /// next move does not look for listeners again to learn it is not quiet.
    pub heard: std::cell::Cell<u64>,
    /// Bit per event some modifier lasts until (all bits for an event past
    /// 64): its `emit` is never skipped as quiet, since it ends them.
    pub awaited: u64,
    /// Every tag some card has had: a test for one no card ever had finds
    /// no card without looking.
    pub tags_seen: u64,
    /// The board, for a game that has one.
    pub board: super::board::Board,
    /// The cards ever given a host this game.
    pub(crate) hosted: super::hosted::Hosted,
    /// Counts the writes to counters, globals, zones' cards and players'
    /// losses ([`State::touch`]): an answer read from only these holds while
    /// the count stays (a game asks some hundreds of times a game between
    /// actions that changed none of them).
    pub version: u64,
    /// The end check's last answers.
    pub end_kept: EndKept,
}

/// The end check's last answer, as [`Kept`], and its terms' (an `or` or
/// an `and` of up to [`END_TERMS`]), each kept with the numbers it read.
#[derive(Debug, Clone, Copy, Default)]
pub struct EndKept {
    pub whole: Option<Kept>,
    pub terms: [Option<Memo>; END_TERMS],
}

/// The most terms of an end check kept apart.
pub const END_TERMS: usize = 2;

/// The most numbers a [`Memo`] keeps.
pub const MEMO_NUMS: usize = 4;

/// An answer kept with the numbers it was read from (a counter of each
/// player, a zone's size for each) and the player asking: it holds while
/// they are equal and no player lost ([`State::lose`] forgets it). No write
/// need be counted: most actions write some counter or move some card,
/// but not the ones it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memo {
    pub nums: [i64; MEMO_NUMS],
    pub me: PlayerId,
    pub holds: bool,
    pub steps: u64,
}

/// An answer kept with the state it was read from (copied with it): the
/// [`State::version`] and the player asking, the truth and the steps its
/// lists cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kept {
    pub version: u64,
    pub me: PlayerId,
    pub holds: bool,
    pub steps: u64,
}

impl Clone for State {
    fn clone(&self) -> State {
        let mut st = State::empty(self.nplayers, self.rng.clone());
        st.clone_from(self);
        st
    }

    /// Into this state's own vectors (a search copies one per playout: no
    /// allocation once the copy has held a state as big).
    fn clone_from(&mut self, src: &State) {
        // Every field named: one added later must be copied here too.
        let State {
            nplayers,
            objs,
            zones,
            layouts,
            inst_ref,
            ncounters,
            counters,
            globals,
            mods,
            active,
            turn,
            turns_taken,
            phase,
            rng,
            lost,
            events,
            pending,
            stack,
            end_turn,
            repeat_phase,
            shared_zones,
            made,
            made_words,
            scanned,
            quiet,
            heard,
            awaited,
            tags_seen,
            board,
            hosted,
            version,
            end_kept,
        } = src;
        self.nplayers = *nplayers;
        self.objs.clone_from(objs);
        self.zones.clone_from(zones);
        self.layouts.clone_from(layouts);
        self.inst_ref.clone_from(inst_ref);
        self.ncounters = *ncounters;
        self.counters.clone_from(counters);
        self.globals.clone_from(globals);
        self.mods.clone_from(mods);
        self.active = *active;
        self.turn = *turn;
        self.turns_taken.clone_from(turns_taken);
        self.phase = *phase;
        self.rng.clone_from(rng);
        self.lost.clone_from(lost);
        self.events.clone_from(events);
        self.pending.clone_from(pending);
        self.stack.clone_from(stack);
        self.end_turn = *end_turn;
        self.repeat_phase = *repeat_phase;
        self.shared_zones = *shared_zones;
        self.made.clone_from(made);
        self.made_words.clone_from(made_words);
        self.scanned = *scanned;
        self.quiet.set(quiet.get());
        self.heard.set(heard.get());
        self.awaited = *awaited;
        self.tags_seen = *tags_seen;
        self.board.clone_from(board);
        self.hosted.clone_from(hosted);
        self.version = *version;
        self.end_kept = *end_kept;
    }
}

impl State {
    /// A state with nothing in it: what `new` resets and `clone` copies into.
    fn empty(nplayers: u8, rng: ChaCha8Rng) -> State {
        State {
            nplayers,
            objs: Vec::new(),
            zones: Vec::new(),
            layouts: Vec::new(),
            inst_ref: Vec::new(),
            ncounters: 0,
            counters: Vec::new(),
            globals: Vec::new(),
            mods: Default::default(),
            active: 0,
            turn: 0,
            turns_taken: Vec::new(),
            phase: None,
            rng,
            lost: Vec::new(),
            events: Vec::new(),
            pending: Vec::new(),
            stack: Vec::new(),
            end_turn: false,
            repeat_phase: false,
            shared_zones: 0,
            made: Vec::new(),
            made_words: Vec::new(),
            scanned: 0,
            quiet: Default::default(),
            heard: Default::default(),
            awaited: 0,
            tags_seen: 0,
            board: Default::default(),
            hosted: Default::default(),
            version: 0,
            end_kept: EndKept::default(),
        }
    }

    pub fn new(data: &Data, nplayers: u8, seed: u64) -> State {
        let mut st = State::empty(nplayers, ChaCha8Rng::seed_from_u64(seed));
        // Room for a usual game's cards from the start (no regrowing
        // while the setup makes them).
        st.objs.reserve(256);
        st.reset(data, nplayers, seed);
        st
    }

    /// The state of a new game, made in this one's vectors (no allocation
    /// for a game like the last: simulations play thousands).
    pub fn reset(&mut self, data: &Data, nplayers: u8, seed: u64) {
        // Every field named: one added later must be reset here too.
        let State {
            nplayers: np,
            objs,
            zones,
            layouts,
            inst_ref,
            ncounters,
            counters,
            globals,
            mods,
            active,
            turn,
            turns_taken,
            phase,
            rng,
            lost,
            events,
            pending,
            stack,
            end_turn,
            repeat_phase,
            shared_zones,
            made,
            made_words,
            scanned,
            quiet,
            heard,
            awaited,
            tags_seen,
            board,
            hosted,
            version,
            end_kept,
        } = self;
        *version += 1;
        *end_kept = EndKept::default();
        *awaited = 0;
        board.reset(data, nplayers);
        // The layout depends on the data (a game's never changes) and the
        // players only: a game like the last keeps it.
        let same = *np == nplayers && layouts.len() == data.zones.len();
        *np = nplayers;
        objs.clear();
        if !same {
            layouts.clear();
            inst_ref.clear();
        }
        for (z, decl) in data.zones.iter().enumerate().filter(|_| !same) {
            layouts.push(ZoneLayout {
                base: inst_ref.len() as u32,
                owner_mask: if z < 64 && decl.shared { 0 } else { !0 },
                piles: z < 64 && decl.piles,
            });
            let owners = if decl.shared { 1 } else { nplayers };
            for owner in 0..owners {
                inst_ref.push(ZoneRef {
                    zone: z as u16,
                    owner,
                });
            }
        }
        zones.resize_with(inst_ref.len(), ZoneInst::default);
        for zi in zones.iter_mut() {
            zi.clear();
        }
        let n = nplayers as usize;
        *ncounters = data.counters.len();
        counters.clear();
        for _ in 0..n {
            counters.extend(data.counters.iter().map(|c| c.start));
        }
        globals.clone_from(&data.globals_start);
        mods.clear();
        *active = 0;
        *turn = 0;
        turns_taken.clear();
        turns_taken.resize(n, 0);
        *phase = None;
        *rng = ChaCha8Rng::seed_from_u64(seed);
        lost.clear();
        lost.resize(n, false);
        events.clear();
        pending.clear();
        stack.clear();
        hosted.clear();
        *end_turn = false;
        *repeat_phase = false;
        *shared_zones = bits(data.zones.iter().map(|z| z.shared));
        // Only the words this game set: the library's size costs nothing.
        *scanned = 0;
        for w in made_words.drain(..) {
            made[w as usize] = 0;
        }
        quiet.set(0);
        heard.set(0);
        *tags_seen = 0;
    }

    #[inline(always)]
    pub fn inst(&self, z: ZoneRef) -> usize {
        self.at(z).0
    }

    /// Whether zone `z` keeps its cards in piles by card.
    #[inline(always)]
    pub fn is_piles(&self, z: ZoneRef) -> bool {
        self.at(z).1.piles
    }

    /// A zone's instance, with its layout (one lookup).
    #[inline(always)]
    fn at(&self, z: ZoneRef) -> (usize, ZoneLayout) {
        let l = self.layouts[z.zone as usize];
        (l.base as usize + (z.owner & l.owner_mask) as usize, l)
    }

    #[inline(always)]
    pub fn shared(&self, z: u16) -> bool {
        z < 64 && self.shared_zones >> z & 1 != 0
    }

    #[inline(always)]
    pub fn zone_of(&self, c: ObjId) -> ZoneRef {
        self.inst_ref[self.objs[c as usize].zone as usize]
    }

    #[inline(always)]
    pub fn counter(&self, p: PlayerId, c: u16) -> i64 {
        self.counters[p as usize * self.ncounters + c as usize]
    }

    #[inline(always)]
    pub fn counter_mut(&mut self, p: PlayerId, c: u16) -> &mut i64 {
        self.touch();
        &mut self.counters[p as usize * self.ncounters + c as usize]
    }

    /// Global counter `i`, to be written.
    #[inline(always)]
    pub fn global_mut(&mut self, i: u16) -> &mut i64 {
        self.touch();
        &mut self.globals[i as usize]
    }

    /// Counts a write [`State::version`] counts: every writer of a counter,
    /// a global, a zone's cards or a player's loss calls it.
    #[inline(always)]
    pub fn touch(&mut self) {
        self.version += 1;
    }

    /// Player `p` loses (false if they had already): counted as a write,
    /// and the answers kept with numbers forgotten (they do not count it).
    pub fn lose(&mut self, p: PlayerId) -> bool {
        let lost = &mut self.lost[p as usize];
        if *lost {
            return false;
        }
        *lost = true;
        self.touch();
        self.end_kept.terms = [None; END_TERMS];
        true
    }

    /// The cards of a zone, bottom first; for pile zones, the top card of each
    /// non-empty pile.
    pub fn cards(&self, z: ZoneRef) -> Vec<ObjId> {
        let zi = &self.zones[self.inst(z)];
        if zi.piles.is_empty() {
            zi.cards.clone()
        } else {
            zi.tops().collect()
        }
    }

    /// How many items a zone lists: its cards, or its non-empty piles.
    #[inline]
    pub fn listed(&self, z: ZoneRef) -> usize {
        self.listed_inst(self.inst(z))
    }

    /// [`State::listed`] of zone instance `inst`: the items a walk of it
    /// visits (its cards, or its piles' top cards), each a step.
    #[inline]
    pub fn listed_inst(&self, inst: usize) -> usize {
        let zi = &self.zones[inst];
        if zi.piles.is_empty() {
            zi.cards.len()
        } else {
            zi.piles.len() - zi.nempty as usize
        }
    }

    #[inline]
    pub fn size(&self, z: ZoneRef) -> usize {
        self.zones[self.inst(z)].size()
    }

    pub fn new_obj(&mut self, data: &Data, def: DefId, z: ZoneRef) -> ObjId {
        self.new_objs(data, def, z, 1)
    }

    /// Makes `n` cards of a definition on top of a zone (in a zone of piles,
    /// on their definition's pile); returns the first new id (the others
    /// follow).
    pub fn new_objs(&mut self, data: &Data, def: DefId, z: ZoneRef, n: usize) -> ObjId {
        let first = self.objs.len() as ObjId;
        if n == 0 {
            return first;
        }
        let (inst, l) = self.at(z);
        self.touch();
        self.note_made(def);
        let o = Obj {
            def,
            owner: z.owner,
            zone: inst as u32,
            tags: data.defs[def as usize].tags,
            host: None,
            seen: 0,
        };
        self.tags_seen |= o.tags;
        let zi = &mut self.zones[inst];
        if n == 1 && !l.piles {
            // One card (a list of definitions created one by one): a push
            // each, not the loops of a batch.
            self.objs.push(o);
            zi.cards.push(first);
            return first;
        }
        self.objs.resize(first as usize + n, o);
        let ids = first..first + n as ObjId;
        if l.piles {
            match zi.pile_index(def) {
                Some(i) => {
                    zi.piles[i].1.extend(ids);
                    zi.in_piles += n;
                    zi.set_empty(i, false);
                }
                None => {
                    let mut p = zi.spare.pop().unwrap_or_default();
                    p.extend(ids);
                    zi.push_pile(def, p)
                }
            }
        } else {
            zi.cards.extend(ids);
        }
        first
    }

    /// One card of each definition on top of a zone that keeps no piles,
    /// in order: what [`State::new_objs`] of one card each does, the cards
    /// laid out at once (a setup makes a card of each of a list).
    pub fn new_each(&mut self, data: &Data, defs: &[DefId], z: ZoneRef) {
        let (inst, l) = self.at(z);
        debug_assert!(!l.piles);
        let first = self.objs.len() as ObjId;
        self.version += defs.len() as u64;
        self.note_made_each(defs);
        let mut seen = 0;
        self.objs.extend(defs.iter().map(|&def| {
            let tags = data.defs[def as usize].tags;
            seen |= tags;
            Obj {
                def,
                owner: z.owner,
                zone: inst as u32,
                tags,
                host: None,
                seen: 0,
            }
        }));
        self.tags_seen |= seen;
        let ids = first..first + defs.len() as ObjId;
        self.zones[inst].cards.extend(ids);
    }

    /// [`State::note_made`] of each definition in order, `made` grown once
    /// and the quiet mark cleared once: a setup makes a whole library.
    fn note_made_each(&mut self, defs: &[DefId]) {
        let Some(&top) = defs.iter().max() else {
            return;
        };
        let words = top as usize / 64 + 1;
        if words > self.made.len() {
            self.made.resize(words, 0);
        }
        let fresh = defs.iter().fold(false, |f, &def| self.set_made(def) | f);
        if fresh {
            self.quiet.set(0);
        }
    }

    #[inline(always)]
    fn note_made(&mut self, def: DefId) {
        let w = def as usize / 64;
        if w >= self.made.len() {
            self.made.resize(w + 1, 0);
        }
        if self.set_made(def) {
            self.quiet.set(0);
        }
    }

    /// Sets `def`'s made-bit (its word already in `made`), the word noted
    /// when it was empty: true if the bit is new.
    #[inline(always)]
    fn set_made(&mut self, def: DefId) -> bool {
        let (w, bit) = (def as usize / 64, 1u64 << (def % 64));
        let m = &mut self.made[w];
        if *m & bit != 0 {
            return false;
        }
        if *m == 0 {
            self.made_words.push(w as u32);
        }
        *m |= bit;
        true
    }

    /// Whether a card of any definition in the bit set was made: the words
    /// of the game's definitions are looked at, however large the library.
    #[inline]
    pub fn made_any(&self, defs: &[u64]) -> bool {
        (self.made_words.iter()).any(|&w| {
            defs.get(w as usize)
                .is_some_and(|d| d & self.made[w as usize] != 0)
        })
    }

    /// Attaches card `c` to `host`, or detaches it (none).
    pub fn set_host(&mut self, c: ObjId, host: Option<ObjId>) {
        if let Some(h) = host {
            self.hosted.add(c, h);
        }
        self.objs[c as usize].host = host;
    }

    /// What [`State::attached`] is charged for: every card ever given a host.
    #[inline]
    pub fn hosted(&self) -> usize {
        self.hosted.count()
    }

    /// The cards attached to `h`, in no order ([`State::attached`] sorts
    /// them).
    #[inline]
    pub fn attached_unsorted(&self, h: ObjId) -> impl Iterator<Item = ObjId> + '_ {
        (self.hosted.under(h)).filter(move |&c| self.objs[c as usize].host == Some(h))
    }

    /// The cards attached to `h`, in id order.
    pub fn attached(&self, h: ObjId) -> crate::value::Cards {
        // A plain loop: collecting a filter grows the small vector by steps.
        let mut out = crate::value::Cards::new();
        for c in self.attached_unsorted(h) {
            out.push(c);
        }
        if out.len() > 1 {
            out.sort_unstable();
        }
        out
    }

    /// Moves a card to the top (or bottom) of a zone; returns the cards it
    /// passed over, searched or shifted (see [`State::passed`]).
    #[inline(always)]
    pub fn relocate(&mut self, c: ObjId, to: ZoneRef, bottom: bool) -> usize {
        let o = &self.objs[c as usize];
        let zi = &mut self.zones[o.zone as usize];
        // Most moves take the top card: no search, no shifting.
        let taken = if zi.cards.last() == Some(&c) {
            zi.cards.pop();
            0
        } else {
            take_below(zi, c, o.def)
        };
        taken + self.place(c, to, bottom)
    }

    /// The cards [`State::relocate`] of card `c` to the top of a zone
    /// passes over, known before it moves (`at`: where the card is listed,
    /// if known): those above it in its zone or pile, or all of them if it
    /// is not listed there.
    #[inline(always)]
    pub fn passed(&self, c: ObjId, at: Option<(usize, usize)>) -> usize {
        if let Some((inst, i)) = at {
            return self.zones[inst].cards.len() - 1 - i;
        }
        let zi = &self.zones[self.objs[c as usize].zone as usize];
        if zi.cards.last() == Some(&c) {
            return 0;
        }
        self.passed_below(c)
    }

    /// [`State::passed`] of a card that is not the top one: searched.
    #[cold]
    #[inline(never)]
    fn passed_below(&self, c: ObjId) -> usize {
        let o = &self.objs[c as usize];
        let zi = &self.zones[o.zone as usize];
        match zi.cards.iter().rev().position(|&x| x == c) {
            Some(above) => above,
            None => {
                let pile = zi.pile(o.def);
                let above = pile.iter().rev().position(|&x| x == c);
                zi.cards.len() + above.unwrap_or(pile.len())
            }
        }
    }

    /// [`State::relocate`] of card `c`, just found listed at index `i` of
    /// zone instance `inst`: no search.
    #[inline(always)]
    pub fn relocate_at(&mut self, c: ObjId, inst: usize, i: usize, to: ZoneRef) -> usize {
        // (`place` touches the version.)
        remove_at(&mut self.zones[inst].cards, i) + self.place(c, to, false)
    }

    /// [`State::relocate`] (to the top), or [`State::relocate_at`] where
    /// `at` says where the card is listed, with no modifier in play: the
    /// card's fields read and written once. Returns the cards passed over.
    #[inline(always)]
    pub fn shift(&mut self, c: ObjId, at: Option<(usize, usize)>, to: ZoneRef) -> usize {
        self.touch();
        let (inst, l) = self.at(to);
        let o = &mut self.objs[c as usize];
        let (from, def) = (o.zone as usize, o.def);
        o.enter(inst, (l.owner_mask != 0).then_some(to.owner));
        let passed = match at {
            Some((from, i)) => remove_at(&mut self.zones[from].cards, i),
            None => {
                let zi = &mut self.zones[from];
                if zi.cards.last() == Some(&c) {
                    zi.cards.pop();
                    0
                } else if zi.cards.is_empty() && zi.take_pile_top(c, def) {
                    0
                } else {
                    take_below(zi, c, def)
                }
            }
        };
        let zi = &mut self.zones[inst];
        if !l.piles {
            push_card(&mut zi.cards, c);
        } else {
            put_pile_or_bottom(zi, c, def, true, false);
        }
        passed
    }

    /// A zone of cards (no piles): its instance and the owner a card
    /// entering it takes.
    #[inline]
    pub fn card_dest(&self, to: ZoneRef) -> Option<(usize, Option<PlayerId>)> {
        let (inst, l) = self.at(to);
        (!l.piles).then_some((inst, (l.owner_mask != 0).then_some(to.owner)))
    }

    /// [`State::shift`] of card `c`, listed at index `i` of zone instance
    /// `from`, to the top of `dst`, a zone of cards found by
    /// [`State::card_dest`]. Returns the cards passed over.
    #[inline(always)]
    pub fn move_listed(
        &mut self,
        c: ObjId,
        from: usize,
        i: usize,
        dst: usize,
        owner: Option<PlayerId>,
    ) -> usize {
        self.touch();
        self.objs[c as usize].enter(dst, owner);
        let passed = remove_at(&mut self.zones[from].cards, i);
        push_card(&mut self.zones[dst].cards, c);
        passed
    }

    /// [`State::relocate`] of the top card listed in zone instance `from`
    /// (a card listed in a zone is the zone's): the card, or None if it
    /// lists none.
    #[inline(always)]
    pub fn move_top(&mut self, from: usize, to: ZoneRef) -> Option<ObjId> {
        let c = self.zones[from].cards.pop()?;
        self.place(c, to, false);
        Some(c)
    }

    /// `n` [`State::move_top`] calls (zone instance `from` lists at least
    /// `n` cards), the destination found once.
    pub fn move_tops(&mut self, from: usize, to: ZoneRef, n: usize) {
        let (dst, l) = self.at(to);
        if dst == from || l.piles {
            for _ in 0..n {
                self.move_top(from, to);
            }
            return;
        }
        self.touch();
        let owner = (l.owner_mask != 0).then_some(to.owner);
        let at = self.zones[from].cards.len().saturating_sub(n);
        let quiet = self.mods.is_empty();
        if !quiet {
            self.arrive_all(from, at, dst, owner);
        }
        let Ok([src, onto]) = self.zones.get_disjoint_mut([from, dst]) else {
            return;
        };
        let cards = &src.cards[at..];
        if onto.cards.len() + cards.len() > onto.cards.capacity() {
            onto.cards.reserve(32);
        }
        // With no effect lasting while a card stays, a card's fields change
        // as it is pushed: one pass.
        if quiet {
            enter_onto(&mut self.objs, cards, &mut onto.cards, dst, owner);
        } else {
            onto.cards.extend(cards.iter().rev());
        }
        src.cards.truncate(at);
    }

    /// [`State::arrive`] of each card of zone instance `from` from index
    /// `at` up, the top card first, where effects last while a card stays
    /// (with none, the moves change each card's fields as they push it:
    /// [`enter_onto`]).
    fn arrive_all(&mut self, from: usize, at: usize, inst: usize, owner: Option<PlayerId>) {
        for i in (at..self.zones[from].cards.len()).rev() {
            self.arrive(self.zones[from].cards[i], inst, owner);
        }
    }

    /// Puts a card taken out of its zone on top (or at the bottom) of
    /// another; returns the cards it shifted (a put at the bottom).
    #[inline(always)]
    fn place(&mut self, c: ObjId, to: ZoneRef, bottom: bool) -> usize {
        self.touch();
        let (inst, l) = self.at(to);
        let owner = (l.owner_mask != 0).then_some(to.owner);
        let def = self.arrive(c, inst, owner);
        let zi = &mut self.zones[inst];
        if !l.piles && !bottom {
            push_card(&mut zi.cards, c);
            0
        } else {
            put_pile_or_bottom(zi, c, def, l.piles, bottom)
        }
    }

    /// What a card taken out of its zone becomes in zone instance `inst`,
    /// a zone of player `owner` (none: a shared zone); returns its definition.
    #[inline(always)]
    fn arrive(&mut self, c: ObjId, inst: usize, owner: Option<PlayerId>) -> DefId {
        let o = &mut self.objs[c as usize];
        o.enter(inst, owner);
        let def = o.def;
        // So do the effects that last while this card stays where it is.
        if !self.mods.is_empty() {
            self.end_while(c);
        }
        def
    }

    /// Ends the effects that last while a card stays where it is.
    #[inline(never)]
    fn end_while(&mut self, c: ObjId) {
        self.mods.end(super::mods::End::Moved(c), None);
    }

    /// Moves every card of a zone to the top of another, top card first, as
    /// that many [`State::relocate`] calls would, pushing them in that order
    /// onto `out` if given. False (and nothing moved) for a row of piles or a
    /// zone onto itself.
    pub fn move_zone(&mut self, from: ZoneRef, to: ZoneRef, out: Option<&mut Vec<Value>>) -> bool {
        let (src, (dst, l)) = (self.inst(from), self.at(to));
        if src == dst || l.piles || !self.zones[src].piles.is_empty() {
            return false;
        }
        self.touch();
        let owner = (l.owner_mask != 0).then_some(to.owner);
        let quiet = self.mods.is_empty();
        if !quiet {
            self.arrive_all(src, 0, dst, owner);
        }
        let Ok([a, onto]) = self.zones.get_disjoint_mut([src, dst]) else {
            return false;
        };
        if let Some(out) = out {
            out.extend(a.cards.iter().rev().map(|&c| Value::Card(c)));
        }
        // Onto an empty zone the cards keep their buffer (no copy).
        if onto.cards.is_empty() {
            a.cards.reverse();
            std::mem::swap(&mut onto.cards, &mut a.cards);
            if quiet {
                // Through a slice: its bounds stay in registers (the
                // `Vec`'s are read again after each write, in some builds).
                let objs = &mut self.objs[..];
                for &c in &onto.cards {
                    objs[c as usize].enter(dst, owner);
                }
            }
        } else {
            if quiet {
                onto.cards.reserve(a.cards.len());
                enter_onto(&mut self.objs, &a.cards, &mut onto.cards, dst, owner);
            } else {
                onto.cards.extend(a.cards.iter().rev());
            }
            a.cards.clear();
        }
        true
    }

    /// A number in `0..n` from the game's RNG (unbiased, stable across versions).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        below(&mut self.rng, n)
    }

    pub fn shuffle(&mut self, z: ZoneRef) {
        self.touch();
        let inst = self.inst(z);
        let cards = &mut self.zones[inst].cards[..];
        for i in (1..cards.len()).rev() {
            cards.swap(i, below(&mut self.rng, i + 1));
        }
    }

    #[inline(always)]
    pub fn prop(&self, data: &Data, c: ObjId, prop: u16) -> i64 {
        let base = data.table.prop(self.objs[c as usize].def, prop);
        if self.mods.is_empty() {
            return base;
        }
        base + self.mods.sum(c, prop)
    }

    /// [`State::prop`] of each card added to `total` in turn (saturating),
    /// modifiers looked for only when there are any.
    #[inline]
    pub fn add_props<'a>(
        &self,
        data: &Data,
        cards: impl Iterator<Item = &'a ObjId>,
        prop: u16,
        total: i64,
    ) -> i64 {
        if !self.mods.is_empty() {
            return cards.fold(total, |t, &c| self.prop(data, c, prop).saturating_add(t));
        }
        cards.fold(total, |t, &c| {
            let d = self.objs[c as usize].def;
            data.table.prop(d, prop).saturating_add(t)
        })
    }

    #[inline(always)]
    pub fn tags(&self, c: ObjId) -> u64 {
        self.objs[c as usize].tags
    }
}

/// Pushes `cards` onto `onto` top card first (room for them made), each
/// card's fields changed as it enters zone instance `inst` of `owner`
/// ([`Obj::enter`]): the arrival and the push in one pass, where no effect
/// lasts while a card stays.
#[inline(always)]
fn enter_onto(
    objs: &mut [Obj],
    cards: &[ObjId],
    onto: &mut Vec<ObjId>,
    inst: usize,
    owner: Option<PlayerId>,
) {
    for &c in cards.iter().rev() {
        objs[c as usize].enter(inst, owner);
        onto.push(c);
    }
}

/// Pushes a card on a zone's list, room for 32 cards made at once (most
/// zones never need more: fewer regrowths from 4).
#[inline(always)]
fn push_card(cards: &mut Vec<ObjId>, c: ObjId) {
    if cards.len() == cards.capacity() {
        cards.reserve(cards.len().max(32));
    }
    cards.push(c);
}

/// Takes the card at index `i` out of a zone's list: the top one popped,
/// one below it with the cards above shifted down (the lists cards are
/// taken from mid-way are short: a loop beats calling memmove). Returns the
/// cards shifted.
#[inline(always)]
fn remove_at(cards: &mut Vec<ObjId>, i: usize) -> usize {
    if i + 1 == cards.len() {
        cards.pop();
        0
    } else if i < cards.len() {
        for j in i + 1..cards.len() {
            cards[j - 1] = cards[j];
        }
        cards.pop();
        cards.len() - i
    } else {
        0
    }
}

/// Takes a card that is not the top one out of its zone (a card no longer
/// listed there stays out); returns the cards passed over: those above it
/// (searched from the top, then shifted down), or all if it is not there.
#[cold]
#[inline(never)]
fn take_below(zi: &mut ZoneInst, c: ObjId, def: DefId) -> usize {
    if let Some(i) = zi.cards.iter().rposition(|&x| x == c) {
        let above = zi.cards.len() - 1 - i;
        zi.cards.remove(i);
        return above;
    }
    let mut passed = zi.cards.len();
    if let Some(at) = zi.pile_index(def) {
        let pile = &mut zi.piles[at].1;
        if pile.last() == Some(&c) {
            pile.pop();
            zi.in_piles -= 1;
        } else if let Some(i) = pile.iter().rposition(|&x| x == c) {
            passed += pile.len() - 1 - i;
            pile.remove(i);
            zi.in_piles -= 1;
        } else {
            passed += pile.len();
        }
        let empty = zi.piles[at].1.is_empty();
        zi.set_empty(at, empty);
    }
    passed
}

/// [`State::place`] into a pile, or at the bottom of a zone: the cards
/// shifted up (all of the zone's or pile's, at the bottom).
#[inline(never)]
fn put_pile_or_bottom(zi: &mut ZoneInst, c: ObjId, def: DefId, piles: bool, bottom: bool) -> usize {
    if piles {
        match zi.pile_index(def) {
            Some(i) => {
                zi.in_piles += 1;
                let p = &mut zi.piles[i].1;
                let shifted = if bottom {
                    p.insert(0, c);
                    p.len() - 1
                } else {
                    p.push(c);
                    0
                };
                zi.set_empty(i, false);
                shifted
            }
            None => {
                zi.push_pile(def, vec![c]);
                0
            }
        }
    } else {
        zi.cards.insert(0, c);
        zi.cards.len() - 1
    }
}

fn bits(flags: impl Iterator<Item = bool>) -> u64 {
    flags.enumerate().fold(
        0,
        |acc, (i, f)| if f { acc | crate::value::bit(i) } else { acc },
    )
}

/// Lemire's nearly-divisionless method, with rejection, on the raw u64 stream.
pub fn below(rng: &mut impl Rng, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    let n = n as u64;
    loop {
        let x = rng.next_u64();
        let m = (x as u128) * (n as u128);
        let lo = m as u64;
        // The threshold `2^64 mod n` is below n: only a low part under n needs
        // the division (the same draws, far fewer divisions).
        if lo >= n || lo >= threshold(n) {
            return (m >> 64) as usize;
        }
    }
}

/// `2^64 mod n`: rarely needed, kept out of [`below`]'s loop.
#[cold]
#[inline(never)]
fn threshold(n: u64) -> u64 {
    n.wrapping_neg() % n
}

#[cfg(test)]
mod tests {
    /// Copied for every look-ahead and reused game: kept at three words.
    #[test]
    fn a_card_is_24_bytes() {
        assert_eq!(std::mem::size_of::<super::Obj>(), 24);
    }

    /// The counts the moves keep agree with the piles, past a word of pile
    /// bits: sizes, empty piles, the walk's top cards, the lookup by card.
    #[test]
    fn pile_counts_follow_the_moves() {
        let mut z = super::ZoneInst::default();
        let mut id = 0;
        for def in 0..150u16 {
            z.push_empty_pile(def);
        }
        for round in 0..400u32 {
            let def = (round * 37 % 150) as u16;
            if round % 3 == 0 {
                let top = z.pile(def).last().copied();
                if let Some(c) = top {
                    super::take_below(&mut z, c, def);
                }
            } else {
                super::put_pile_or_bottom(&mut z, id, def, true, round % 5 == 0);
                id += 1;
            }
            let tops: Vec<u32> = z
                .piles
                .iter()
                .filter_map(|(_, p)| p.last().copied())
                .collect();
            assert_eq!(z.tops().collect::<Vec<_>>(), tops);
            let empty = z.piles.iter().filter(|(_, p)| p.is_empty()).count();
            assert_eq!(z.nempty as usize, empty);
            assert_eq!(
                z.size(),
                z.piles.iter().map(|(_, p)| p.len()).sum::<usize>()
            );
            assert_eq!(z.pile(def), &z.piles[def as usize].1[..]);
        }
        z.clear();
        assert_eq!((z.size(), z.nempty, z.tops().count()), (0, 0, 0));
    }
}
