//! A decision as a value: who answers, what kind of choice it is, the legal
//! answers and a way to see what the deciding player sees. The kernel builds
//! one on the stack for each choice and hands it to the seat's
//! [`Agent`](super::agent::Agent); nothing in it is formatted or allocated
//! until an agent reads it (bots decide thousands of games a second). Only a
//! data bot's window speed paths decide without one (`decide.rs`): they
//! record their answer the same way.

use super::Game;
use super::view::View;
use crate::data::Data;
use crate::value::{PlayerId, Value};

/// The indices of the options an agent picked.
pub type Picks = smallvec::SmallVec<[usize; 4]>;

/// One option of a decision: a value, and the window move it makes if any.
/// Its text is built only when someone reads it (logs, scripts, people).
#[derive(Debug, Clone)]
pub struct Choice {
    pub value: Value,
    pub mv: Option<u16>,
}

/// The "pass" option of every window.
pub(crate) static PASS: std::sync::LazyLock<Choice> =
    std::sync::LazyLock::new(|| Choice::text("pass"));

impl Choice {
    pub fn text(s: &str) -> Choice {
        Choice {
            value: Value::text(s),
            mv: None,
        }
    }

    fn describe(&self, g: &Game, ids: bool) -> String {
        let v = match &self.value {
            Value::Card(c) => {
                let d = &g.data.defs[g.st.objs[*c as usize].def as usize];
                if ids { d.id.clone() } else { d.name.clone() }
            }
            Value::Def(d) => {
                let d = &g.data.defs[*d as usize];
                if ids { d.id.clone() } else { d.name.clone() }
            }
            Value::None => String::new(),
            other => g.show(other),
        };
        match self.mv {
            Some(m) if v.is_empty() => g.data.moves[m as usize].label.clone(),
            Some(m) => format!("{} {v}", g.data.moves[m as usize].label),
            None => v,
        }
    }

    /// What a person reads (display names).
    pub fn label(&self, g: &Game) -> String {
        self.describe(g, false)
    }

    /// What player `p` reads: a card it may not see where it lies (a zone
    /// whose contents are hidden from it, even its own) is only "a face-down
    /// card", so choosing among such cards tells the chooser nothing — unless
    /// it was shown that card there (`look`, `reveal`).
    pub fn label_for(&self, g: &Game, p: PlayerId) -> String {
        if let Value::Card(c) = &self.value {
            let o = &g.st.objs[*c as usize];
            let z = g.st.inst_ref[o.zone as usize];
            if o.seen & 1u8.checked_shl(p.into()).unwrap_or(0) == 0
                && !super::log::sees_contents(&g.data, z, Some(p))
            {
                return match self.mv {
                    Some(m) => format!("{} a face-down card", g.data.moves[m as usize].label),
                    None => "a face-down card".into(),
                };
            }
        }
        self.label(g)
    }

    /// What a script writes (card ids).
    pub fn key(&self, g: &Game) -> String {
        self.describe(g, true)
    }
}

/// What kind of answer a request wants: how many options, in what sense.
/// Told apart only for people and remote agents; every kind is answered
/// the same way (indices into the options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Some of the options (cards, values): `min` to `max` of them.
    Pick,
    /// One of several texts.
    Option,
    /// All the options, in the order wanted.
    Order,
    /// Yes (option 0) or no (option 1).
    YesNo,
    /// A priority window: a move, or pass (the last option).
    Window(u16),
}

/// One player's part of a decision. A request asked of several players at
/// once ([`Game::ask_together`]) gives each its own part, with `together`
/// naming them all: every part is answered before any answer takes effect,
/// so no decider sees another's answer.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The definitions the options refer to.
    pub data: &'a Data,
    /// Who answers this part.
    pub player: PlayerId,
    /// The players asked at once, this one among them; empty when the
    /// decision is this player's alone.
    pub together: &'a [PlayerId],
    pub kind: Kind,
    /// What bots' `when:` matches: the rules' name for the decision.
    pub name: &'a str,
    /// What a person reads.
    pub prompt: &'a str,
    /// The legal options; an answer picks `min` to `max` distinct indices.
    pub options: &'a [Choice],
    pub min: usize,
    pub max: usize,
    /// Whether every player sees the answer (else only the decider).
    pub public: bool,
}

impl Request<'_> {
    /// What the deciding player sees now: built when asked for, from each
    /// zone's visibility rule.
    pub fn view(&self, g: &Game) -> View {
        g.view(self.player)
    }

    /// The priority window deciding, if it is one.
    pub fn window(&self) -> Option<u16> {
        match self.kind {
            Kind::Window(w) => Some(w),
            _ => None,
        }
    }

    /// Whether `picks` is a legal answer: `min` to `max` distinct options.
    #[inline]
    pub fn fits(&self, picks: &[usize]) -> bool {
        let (k, n) = (picks.len(), self.options.len());
        if k < self.min || k > self.max {
            return false;
        }
        match picks {
            [] => true,
            [i] => *i < n,
            // Each in range and none twice: marked as seen, not searched
            // (an order of thousands of options).
            _ => {
                let mut seen = vec![false; n];
                picks
                    .iter()
                    .all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
            }
        }
    }
}
