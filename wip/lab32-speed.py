import re
def sub(p, old, new, count=1):
    s=open(p).read()
    assert s.count(old)==count, (p, old[:60], s.count(old))
    s=s.replace(old,new)
    open(p,'w').write(s)

# counts.rs: the doc, and the helpers quiet paths call.
sub('src/engine/counts.rs', '''//! once per card, for the card's owner after the move. Off unless asked
//! ([`Game::count_moves`]); while on, those events are never quiet, so every
//! tier moves such cards through the kernel's one move path, which counts.
''', '''//! once per card, for the card's owner after the move. Off unless asked
//! ([`Game::count_moves`]). The kernel's move path counts
//! ([`Game::move_card`]'s `after_move`); so does every quiet move of the
//! speed tier ([`Game::quiet_move`]'s callers), right after it, for the
//! cards it moved: counting keeps moves quiet, a pointer test when off.
//! Compiled blocks that move cards in place without asking about each move
//! ([`Game::quiet_events`]) run as compiled code while a counted event is
//! among theirs.
''')
sub('src/engine/counts.rs', '''use crate::data::{Data, STAT_KINDS};
use crate::value::{DefId, PlayerId};
''', '''use super::Game;
use crate::data::{Data, STAT_KINDS};
use crate::value::{DefId, ObjId, PlayerId, ZoneRef};
''')
s=open('src/engine/counts.rs').read()
s+='''
impl Game {
    /// After a quiet move of card `c` caused by `cause`: counted, if counting.
    #[inline(always)]
    pub(crate) fn count_moved(&mut self, cause: Option<u16>, c: ObjId) {
        if let (Some(counts), Some(e)) = (&mut self.counts, cause) {
            let o = &self.st.objs[c as usize];
            counts.add(e, o.owner, o.def);
        }
    }

    /// How many cards a quiet move of a whole zone (or of `n` top cards)
    /// from `from` moves, to count after it: 0 when not counting.
    #[inline(always)]
    pub(crate) fn count_size(&self, cause: Option<u16>, from: usize) -> usize {
        if self.counting(cause) {
            self.st.zones[from].cards.len()
        } else {
            0
        }
    }

    /// Whether moves caused by `cause` are counted now.
    #[inline(always)]
    pub(crate) fn counting(&self, cause: Option<u16>) -> bool {
        matches!((&self.counts, cause), (Some(c), Some(e)) if c.counts_event(e))
    }

    /// After a quiet move of `n` cards onto the top of `to` (a zone of
    /// cards, not piles): the top `n` cards there counted.
    #[inline(always)]
    pub(crate) fn count_tops(&mut self, cause: Option<u16>, to: ZoneRef, n: usize) {
        if n > 0 {
            self.count_tops_of(cause, self.st.inst(to), n);
        }
    }

    #[inline(never)]
    fn count_tops_of(&mut self, cause: Option<u16>, inst: usize, n: usize) {
        let (Some(counts), Some(e)) = (&mut self.counts, cause) else {
            return;
        };
        let cards = &self.st.zones[inst].cards;
        for &c in &cards[cards.len().saturating_sub(n)..] {
            let o = &self.st.objs[c as usize];
            counts.add(e, o.owner, o.def);
        }
    }

    /// Whether a compiled block raising `events` may move cards in place
    /// unasked: not while one of them is counted.
    #[inline(always)]
    pub(crate) fn uncounted(&self, events: &[u16]) -> bool {
        self.counts
            .as_ref()
            .is_none_or(|c| !events.iter().any(|&e| c.counts_event(e)))
    }
}
'''
open('src/engine/counts.rs','w').write(s)

# ops.rs: quiet events no longer exclude counted ones; blocks do.
sub('src/engine/ops.rs', '''        let quiet = !self.has_listeners(e, true)
            && !self.has_listeners(e, false)
            && !self.counts.as_ref().is_some_and(|c| c.counts_event(e));''', '''        let quiet = !self.has_listeners(e, true) && !self.has_listeners(e, false);''')
sub('src/engine/ops.rs', '''        mask != 0 && self.st.quiet.get() & mask == mask && self.st.awaited & mask == 0
            || events.iter().all(|&e| self.quiet_event(e))''', '''        (mask != 0 && self.st.quiet.get() & mask == mask && self.st.awaited & mask == 0
            || events.iter().all(|&e| self.quiet_event(e)))
            && self.uncounted(events)''')
sub('src/engine/ops.rs', '''            self.st.relocate(*c, *to, false);
            return Ok(Value::Card(*c));''', '''            self.st.relocate(*c, *to, false);
            self.count_moved(cause, *c);
            return Ok(Value::Card(*c));''')
sub('src/engine/ops.rs', '''            let mut list = self.spare_list();
            if let Some(items) = Arc::get_mut(&mut list)
                && self.st.move_zone(*from, *to, Some(items))
            {
                return Ok(self.keep_list(list));
            }''', '''            let n = self.count_size(cause, self.st.inst(*from));
            let mut list = self.spare_list();
            if let Some(items) = Arc::get_mut(&mut list)
                && self.st.move_zone(*from, *to, Some(items))
            {
                self.count_tops(cause, *to, n);
                return Ok(self.keep_list(list));
            }''')

# moves.rs
sub('src/fast/compile/moves.rs', '''                    Value::Card(c) if g.quiet_move(cause) => {
                        g.st.relocate(c, to, false);
                        Ok(K::keep(Value::Card(c)))''', '''                    Value::Card(c) if g.quiet_move(cause) => {
                        g.st.relocate(c, to, false);
                        g.count_moved(cause, c);
                        Ok(K::keep(Value::Card(c)))''')
sub('src/fast/compile/moves.rs', '''                if g.quiet_move(cause)
                    && let Some(c) = g.st.move_top(from, to)
                {
                    return Ok(K::keep(Value::Card(c)));''', '''                if g.quiet_move(cause)
                    && let Some(c) = g.st.move_top(from, to)
                {
                    g.count_moved(cause, c);
                    return Ok(K::keep(Value::Card(c)));''')

# toploop.rs
sub('src/fast/compile/toploop.rs', '''                g.budget.spend(k as u64 * (1 + self.calls as u64));
                g.st.move_tops(src, dst, k);''', '''                g.budget.spend(k as u64 * (1 + self.calls as u64));
                g.st.move_tops(src, dst, k);
                if g.counting(self.cause) {
                    g.count_tops(self.cause, dst, k);
                }''')
sub('src/fast/compile/toploop.rs', '''                if g.quiet_move(self.cause) && g.st.move_top(src, dst).is_some() {
                    f.span = self.span;
                    break 'one;
                }''', '''                if g.quiet_move(self.cause)
                    && let Some(c) = g.st.move_top(src, dst)
                {
                    g.count_moved(self.cause, c);
                    f.span = self.span;
                    break 'one;
                }''')
sub('src/fast/compile/toploop.rs', '''        if !g.quiet_move(w.cause) || op.holds(g.st.size(b) as i64, k) {
            return false;
        }
        if !g.st.move_zone(b, a, None) {
            return false;
        }''', '''        if !g.quiet_move(w.cause) || op.holds(g.st.size(b) as i64, k) {
            return false;
        }
        let n = g.count_size(w.cause, g.st.inst(b));
        if !g.st.move_zone(b, a, None) {
            return false;
        }
        g.count_tops(w.cause, a, n);''')
# quiet_run: a counted run onto piles (or onto itself) goes card by card.
sub('src/fast/compile/toploop.rs', '''        if g.viewer.is_some() || !g.quiet_move(self.cause) || !g.st.zones[src].piles.is_empty() {
            return None;
        }''', '''        if g.viewer.is_some() || !g.quiet_move(self.cause) || !g.st.zones[src].piles.is_empty() {
            return None;
        }
        // Counted moves are counted on top of a zone of cards.
        if g.counting(self.cause) && g.st.card_dest(dst).is_none_or(|(d, _)| d == src) {
            return None;
        }''')
sub('src/fast/compile/toploop.rs', '''    pub(super) fn quiet_run(&self, g: &Game, src: usize, left: i64) -> Option<usize> {''', '''    pub(super) fn quiet_run(&self, g: &Game, src: usize, dst: ZoneRef, left: i64) -> Option<usize> {''')
sub('src/fast/compile/toploop.rs', '''                && let Some(k) = self.quiet_run(g, src, n - i)''', '''                && let Some(k) = self.quiet_run(g, src, dst, n - i)''')

# stmt.rs
sub('src/fast/compile/stmt.rs', '''                                if g.quiet_move(*cause) {
                                    g.st.relocate(c, to, false);''', '''                                if g.quiet_move(*cause) {
                                    g.st.relocate(c, to, false);
                                    g.count_moved(*cause, c);''')
# leaf.rs
sub('src/fast/compile/leaf.rs', '''                    f.span = *span;
                    g.st.relocate(c, to, false);
                }''', '''                    f.span = *span;
                    g.st.relocate(c, to, false);
                    g.count_moved(*cause, c);
                }''')
sub('src/fast/compile/leaf.rs', '''        (Some(a), Some(b)) => g.quiet_move(cause) && g.st.move_zone(a, b, None),''', '''        (Some(a), Some(b)) if g.quiet_move(cause) => {
            let n = g.count_size(cause, g.st.inst(a));
            let moved = g.st.move_zone(a, b, None);
            if moved {
                g.count_tops(cause, b, n);
            }
            moved
        }
        _ => false,''')
sub('src/fast/compile/leaf.rs', '''    if !K::VALUE
        && let Value::Zone(from) = *cards
        && g.quiet_move(cause)
        && g.st.move_zone(from, to, None)
    {
        return Ok(K::keep(Value::None));
    }''', '''    if !K::VALUE
        && let Value::Zone(from) = *cards
        && g.quiet_move(cause)
    {
        let n = g.count_size(cause, g.st.inst(from));
        if g.st.move_zone(from, to, None) {
            g.count_tops(cause, to, n);
            return Ok(K::keep(Value::None));
        }
    }''')
sub('src/fast/compile/leaf.rs', '''    let Ok(to) = to.get(g, f) else { return false };
    if !g.st.move_zone(z, to, None) {
        return false;
    }''', '''    let Ok(to) = to.get(g, f) else { return false };
    let counted = g.count_size(cause, g.st.inst(z));
    if !g.st.move_zone(z, to, None) {
        return false;
    }
    g.count_tops(cause, to, counted);''')
