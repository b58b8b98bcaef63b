//! Card definitions laid out for the reads a game makes while it plays: a
//! card's property and whether its definition has an effect are read for
//! every card played, and a flat table answers each with one index where
//! [`CardDef`] needs two vectors (and two bounds checks).

use super::CardDef;
use crate::value::DefId;

/// Built once at load from the definitions, which stay the record: every
/// entry is a copy of one of theirs (tests/games.rs checks the built-in
/// games). Laid out a property (an effect) at a time, so code reading one
/// property of many cards reads one column.
pub struct CardTable {
    ndefs: usize,
    /// `props[prop * ndefs + def]`.
    props: Box<[i64]>,
    /// `effects[effect * ndefs + def]`: the definition has that effect.
    effects: Box<[bool]>,
}

impl CardTable {
    /// The table of `defs`, which hold `nprops` properties and `neffects`
    /// effect slots each (as the loader makes them).
    pub fn new(defs: &[CardDef], nprops: usize, neffects: usize) -> CardTable {
        let props = (0..nprops).flat_map(|p| defs.iter().map(move |d| d.props[p]));
        let effects = (0..neffects).flat_map(|e| defs.iter().map(move |d| d.effects[e].is_some()));
        CardTable {
            ndefs: defs.len(),
            props: props.collect(),
            effects: effects.collect(),
        }
    }

    /// Definition `def`'s property `prop`.
    #[inline(always)]
    pub fn prop(&self, def: DefId, prop: u16) -> i64 {
        self.props[prop as usize * self.ndefs + def as usize]
    }

    /// Property `prop` of each definition, by definition: found once by
    /// code reading it of many cards.
    #[inline(always)]
    pub fn column(&self, prop: u16) -> &[i64] {
        let at = prop as usize * self.ndefs;
        &self.props[at..at + self.ndefs]
    }

    /// Whether each definition has effect `effect`, by definition (none
    /// for an effect the rules do not name).
    #[inline(always)]
    pub fn effect(&self, effect: u16) -> &[bool] {
        let at = effect as usize * self.ndefs;
        self.effects.get(at..at + self.ndefs).unwrap_or_default()
    }
}
