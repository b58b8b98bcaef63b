//! Zones and cards an operation names, found without running code where
//! the code says where they are (a shared zone, one of the running
//! player's, a slot's card, the top card of a zone).

use super::*;

/// A zone operand: one the code names without an owner (`supply`, `hand`)
/// is found in place (it cannot fail), no closure run.
pub(super) enum ZoneOp {
    At(ZoneAt),
    Code(ValFn),
}

impl ZoneOp {
    #[inline(always)]
    pub(super) fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        match self {
            ZoneOp::At(z) => Ok(Value::Zone(z.get(g, f)?)),
            ZoneOp::Code(c) => c(g, f),
        }
    }

    /// The zone of a builtin's only argument, read after `f.span` is set
    /// to the call's.
    #[inline(always)]
    pub(super) fn zone(&self, g: &mut Game, f: &mut Frame, span: Span) -> Res<ZoneRef> {
        match self {
            ZoneOp::At(z) => {
                f.span = span;
                z.get(g, f)
            }
            ZoneOp::Code(c) => {
                let v = c(g, f)?;
                f.span = span;
                g.zone_arg(&v, f)
            }
        }
    }
}

/// A zone expression whose zone is found without running code: a shared
/// zone, one of the running player's, or one of the player in a slot.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum ZoneAt {
    Fixed(ZoneRef),
    Mine(u16),
    Slot(u16, usize),
}

impl ZoneAt {
    #[inline(always)]
    pub(super) fn get(self, g: &Game, f: &Frame) -> Res<ZoneRef> {
        Ok(match self {
            ZoneAt::Fixed(z) => z,
            ZoneAt::Mine(zone) => ZoneRef { zone, owner: f.me },
            ZoneAt::Slot(zone, s) => ZoneRef {
                zone,
                owner: g.player(&f.slots[s], f.span)?,
            },
        })
    }
}

impl ZoneAt {
    /// The zone for player `me` where no slot names the owner (a
    /// [`Straight`] body's moves: never a slot's zone, see `Straight::find`).
    #[inline(always)]
    pub(super) fn mine(self, me: PlayerId) -> ZoneRef {
        match self {
            ZoneAt::Fixed(z) => z,
            ZoneAt::Mine(zone) | ZoneAt::Slot(zone, _) => ZoneRef { zone, owner: me },
        }
    }

    /// [`ZoneAt::get`] with no error made: none where it fails.
    #[inline(always)]
    pub(super) fn find(self, f: &Frame) -> Option<ZoneRef> {
        Some(match self {
            ZoneAt::Fixed(z) => z,
            ZoneAt::Mine(zone) => ZoneRef { zone, owner: f.me },
            ZoneAt::Slot(zone, s) => match f.slots[s] {
                Value::Player(owner) => ZoneRef { zone, owner },
                _ => return None,
            },
        })
    }
}

/// The cards a move takes, found without running code: a slot's value,
/// the top card of a zone (`top(deck)`, with the span of the `top` call) or
/// a whole zone.
#[derive(Clone, Copy)]
pub(super) enum CardAt {
    Slot(usize),
    Top(ZoneAt, Span),
    Zone(ZoneAt),
}
