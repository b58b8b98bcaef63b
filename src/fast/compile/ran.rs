//! A card's effect run as a value (`run(it, effect)`) whose code is one
//! `return e` that only reads the game: compiled into the caller for each
//! definition that has one, run among the caller's slots with no frame of
//! its own. Nothing in it can see the difference: it is entered and left
//! as [`Game::framed`] enters a card's frame (a step and a level at the
//! effect's span, the card current for errors, `this` the card, no move),
//! and its slots are left empty as a frame's are.

use std::ops::Range;

use super::*;
use crate::value::DefId;

/// What one definition's effect is to a caller that runs it as a value.
pub(super) enum Ran {
    /// The definition has no such effect: it runs nothing.
    Nothing,
    /// Run in a frame of its own.
    Framed,
    /// Compiled into the caller.
    Here(Here),
}

/// A definition's effect compiled into the caller.
pub(super) struct Here {
    body: Body,
    /// The effect code's span: where its frame would be entered.
    at: Span,
    /// The caller's slots the effect's own are.
    slots: Range<usize>,
}

impl Compiler<'_> {
    /// Effect `effect` of each definition, compiled into this code past its
    /// slots where it is one `return e` that only reads; None if no
    /// definition's is.
    pub(super) fn ran_table(&self, effect: u16) -> Option<Box<[Ran]>> {
        let base = self.base + self.size;
        let mut any = false;
        let table = (self.data.defs.iter())
            .map(|d| {
                let Some(code) = d.effects.get(effect as usize).and_then(|e| e.as_ref()) else {
                    return Ran::Nothing;
                };
                let [Stmt::Return(Some(e))] = code.stmts.as_slice() else {
                    return Ran::Framed;
                };
                if base + code.slots > 1024 || !self.reads_only(e, &mut Vec::new()) {
                    return Ran::Framed;
                }
                let inner = Compiler {
                    data: self.data,
                    base,
                    size: code.slots,
                    need: self.need,
                    chain: self.chain.clone(),
                    remap: Vec::new(),
                };
                self.need.set(self.need.get().max(base + code.slots));
                any = true;
                Ran::Here(Here {
                    body: inner.body::<KeepValue>(&code.stmts),
                    at: code.span,
                    slots: base as usize..(base + code.slots) as usize,
                })
            })
            .collect();
        any.then_some(table)
    }
}

impl Here {
    /// Runs the effect for card `c` (of definition `def`), called at `span`.
    #[inline(never)]
    pub(super) fn run(
        &self,
        g: &mut Game,
        f: &mut Frame,
        c: ObjId,
        def: DefId,
        span: Span,
    ) -> Res<Value> {
        g.enter(self.at)?;
        let card = g.current_card.replace(def);
        let this = f.this.replace(c);
        let move_name = f.move_name.take();
        f.span = self.at;
        let r = self.body.run(g, f);
        f.this = this;
        f.move_name = move_name;
        f.span = span;
        g.current_card = card;
        g.leave();
        for s in &mut f.slots[self.slots.clone()] {
            *s = Value::None;
        }
        r
    }
}
