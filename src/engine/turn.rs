//! Turns, phases and priority windows, as the rules declare them.

use super::decide::{Act, Plan};
use super::log::Entry;
use super::request::Choice;
use super::state::{Event, Until, ZoneInst};
use super::{Flow, Game, Res};
use crate::data::{Data, PhaseDecl, TurnEvent, native};
use crate::lang::ir::Code;
use crate::value::{ObjId, PlayerId, Value, ZoneRef};

impl Game {
    /// One turn of the active player, optionally starting at a phase.
    pub fn turn(&mut self, start_phase: Option<u16>) -> Res<()> {
        let data = self.data.clone();
        self.turn_in(&data, start_phase)
    }

    /// [`Game::turn`] for a caller that holds the game data: games played on
    /// several threads share it, and a reference count changed every turn
    /// is a cache line the threads pass back and forth.
    pub(crate) fn turn_in(&mut self, data: &Data, start_phase: Option<u16>) -> Res<()> {
        let p = self.st.active;
        self.st.turn += 1;
        self.budget.new_turn();
        self.st.turns_taken[p as usize] += 1;
        self.st.end_turn = false;
        let turn = self.st.turn;
        self.push_with(|| Entry::Turn { turn, player: p });
        let r = self.turn_body(data, start_phase);
        if let Err(e) = r
            && !matches!(*e, Flow::EndTurn)
        {
            return Err(e);
        }
        self.st.phase = None;
        // "Until end of turn" effects end first, then "at end of turn" abilities.
        if !self.st.mods.is_empty() {
            self.st
                .mods
                .retain(|m| matches!(m.until, Until::Forever | Until::While(_)));
        }
        self.raise(data, data.turn.end_event, p)?;
        if let Some(end) = &data.turn.end {
            self.exec_hook(data, end, p)?;
        }
        self.resolve_pending()
    }

    fn turn_body(&mut self, data: &Data, start_phase: Option<u16>) -> Res<()> {
        let p = self.st.active;
        if start_phase.is_none() {
            // The rules' own turn-start code (resets) runs before abilities
            // that wait for the turn to start.
            if let Some(start) = &data.turn.start {
                self.exec_hook(data, start, p)?;
            }
            self.raise(data, data.turn.start_event, p)?;
        }
        let first = start_phase.unwrap_or(0) as usize;
        let mut i = first;
        while i < data.turn.phases.len() {
            let phase = &data.turn.phases[i];
            self.tick(phase.body.span)?;
            self.st.phase = Some(i as u16);
            self.st.repeat_phase = false;
            self.push_with(|| Entry::Phase {
                phase: i as u16,
                start: true,
            });
            if self.watch.is_some() {
                self.watched(super::Point {
                    phase: i as u16,
                    start: true,
                })?;
            }
            self.raise(data, phase.start_event, p)?;
            self.run_phase(data, phase, p)?;
            self.raise(data, phase.end_event, p)?;
            if !self.st.mods.is_empty() {
                self.st
                    .mods
                    .retain(|m| m.until != Until::EndOfPhase(i as u16));
            }
            self.push_with(|| Entry::Phase {
                phase: i as u16,
                start: false,
            });
            if self.watch.is_some() {
                self.watched(super::Point {
                    phase: i as u16,
                    start: false,
                })?;
            }
            self.check_end_always(data)?;
            if !self.st.repeat_phase {
                i += 1;
            }
        }
        Ok(())
    }

    /// A phase's code. A body of `window(...)` calls only opens its windows
    /// with the step and depth of running it, and no frame: the windows
    /// read nothing of one.
    #[inline(always)]
    fn run_phase(&mut self, data: &Data, phase: &PhaseDecl, p: PlayerId) -> Res<()> {
        let Some(windows) = phase.windows.as_ref().filter(|_| !self.reference) else {
            return self.exec_hook(data, &phase.body, p).map(drop);
        };
        let e = super::frame::Enter {
            data,
            this: None,
            me: p,
            span: phase.body.span,
            move_name: None,
        };
        self.framed(
            super::frame::Charge::Step,
            e,
            0,
            |_| {},
            |g, _| windows.iter().try_for_each(|&w| g.window_in(data, w)),
        )
    }

    /// A timing point of player `p`: its abilities resolve, then queued ones.
    /// The event is built only when something listens; an event known quiet
    /// (see [`Game::quiet_event`]) is one bit test.
    #[inline(always)]
    fn raise(&mut self, data: &Data, e: TurnEvent, p: PlayerId) -> Res<()> {
        if self.st.quiet.get() & e.bit == 0 {
            self.raise_heard(data, e.id, p)?;
        }
        self.resolve_pending()
    }

    /// [`Game::raise`] of an event not known quiet (out of line: the turn
    /// raises eight a turn, most of them quiet).
    #[inline(never)]
    fn raise_heard(&mut self, data: &Data, name: u16, p: PlayerId) -> Res<()> {
        if self.has_listeners(name, false) {
            let mut ev = Event::new(name);
            ev.player = Some(p);
            self.dispatch_in(data, ev).map(drop)
        } else {
            // Learnt once: the next raise is the bit test.
            self.quiet_event(name);
            Ok(())
        }
    }

    pub(crate) fn advance_player(&mut self, data: &Data) -> Res<()> {
        let next = match &data.turn.next {
            Some(code) => {
                let v = self.exec_hook(data, code, self.st.active)?;
                self.player(&v, code.span)?
            }
            None => self.next_alive(self.st.active),
        };
        self.st.active = next;
        Ok(())
    }

    /// A priority window: players act or pass until the window's pass rule
    /// closes it. Effects put on the stack (`stack(...)`) wait: when every
    /// player has passed in a row, the newest resolves and the active player
    /// acts again; the window closes on passes with the stack empty.
    pub fn window(&mut self, w: u16) -> Res<()> {
        let data = self.data.clone();
        self.window_in(&data, w)
    }

    /// [`Game::window`] for a caller that holds the game data (in line: a
    /// quick window is opened by one call, its rounds').
    #[inline(always)]
    pub(crate) fn window_in(&mut self, data: &Data, w: u16) -> Res<()> {
        let decl = &data.windows[w as usize];
        self.push_with(|| Entry::Window {
            window: w,
            open: true,
        });
        // One player's window, a data bot's seat, one move with a native
        // pick: the bot may decide before the move's options are listed.
        if !decl.all_players
            && let Some(tier) = self.tier()
            && let Some(m) = decl.quick
            && self.budget.depth() < super::decide::MAX_DEPTH
            && let p = self.st.active
            && let Some(b) = self.data_bot(p)
            && let Some(wb) = decl.bots.get(b)
        {
            let mut plan = Game::bot_plan(data, m, p, b, wb);
            tier.quick_rounds(self, data, &mut plan)?;
        } else {
            self.window_listed(data, w)?;
        }
        self.push_with(|| Entry::Window {
            window: w,
            open: false,
        });
        Ok(())
    }

    /// A window whose options are listed, in rounds: windows reuse one
    /// options list (a window opened inside another's move gets a new one).
    #[inline(never)]
    fn window_listed(&mut self, data: &Data, w: u16) -> Res<()> {
        let mut options = std::mem::take(&mut self.spare_options);
        let r = self.window_rounds(data, w, &mut options);
        options.clear();
        self.spare_options = options;
        r
    }

    fn window_rounds(&mut self, data: &Data, w: u16, options: &mut Vec<Choice>) -> Res<()> {
        let decl = &data.windows[w as usize];
        let first = self.st.active;
        let mut cur = first;
        let mut passes = 0;
        let needed = if decl.all_players {
            self.turn_order_iter(first, true).count()
        } else {
            1
        };
        // One move with a native pick: a data bot may decide before it is
        // listed (see `bot_round`; one player's window: `quick_rounds`).
        let quick = (decl.quick)
            .filter(|_| self.budget.depth() < super::decide::MAX_DEPTH && !self.reference);
        let mut plan: Option<Plan> = None;
        loop {
            self.tick(Default::default())?;
            options.clear();
            let act = match self.data_bot(cur) {
                Some(b)
                    if let Some(m) = quick
                        && let Some(wb) = decl.bots.get(b) =>
                {
                    if !plan.as_ref().is_some_and(|pl| pl.p == cur && pl.b == b) {
                        plan = Some(Game::bot_plan(data, m, cur, b, wb));
                    }
                    let Some(pl) = &mut plan else {
                        unreachable!("planned above")
                    };
                    self.bot_round(data, pl, options)?
                }
                _ => {
                    self.legal_moves_into(data, w, cur, options)?;
                    if options.is_empty() {
                        Act::Nothing
                    } else {
                        let i = self.decide_window(data, cur, w, options)?;
                        Act::of(options, i)
                    }
                }
            };
            match act {
                Act::Nothing | Act::Pass => {
                    if self.logging {
                        if matches!(act, Act::Nothing) {
                            self.push(Entry::Text {
                                text: format!("{} passes (nothing to do)", super::log::pname(cur)),
                            });
                        } else {
                            self.push(Entry::Pass { player: cur });
                        }
                    }
                    passes += 1;
                    if passes >= needed {
                        if !self.st.stack.is_empty() {
                            self.resolve_stacked(data)?;
                            passes = 0;
                            cur = first;
                            continue;
                        }
                        break;
                    }
                }
                Act::Move(m, it) => {
                    passes = 0;
                    let body = &data.moves[m as usize].body;
                    self.exec_move(data, body, cur, it, m)?;
                    self.resolve_pending()?;
                    self.check_end_always(data)?;
                }
            }
            if decl.all_players {
                cur = self.next_alive(cur);
            }
        }
        Ok(())
    }

    /// Every player passed in a row: the newest effect on the stack resolves.
    #[inline(never)]
    pub(crate) fn resolve_stacked(&mut self, data: &Data) -> Res<()> {
        let Some(item) = self.st.stack.pop() else {
            return Ok(());
        };
        let def = self.named(item.card);
        self.push(Entry::Stack {
            player: item.me,
            def,
            push: false,
        });
        self.run_effect_in(data, item.card, item.effect, item.me, Value::None)?;
        self.resolve_pending()?;
        self.check_end_always(data)
    }

    /// Every move the player may make now in this window.
    pub fn legal_moves(&mut self, w: u16, p: PlayerId) -> Res<Vec<Choice>> {
        let data = self.data.clone();
        let mut out = Vec::with_capacity(8);
        self.legal_moves_into(&data, w, p, &mut out)?;
        Ok(out)
    }

    fn legal_moves_into(
        &mut self,
        data: &Data,
        w: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        for &m in &data.windows[w as usize].moves {
            let mv = &data.moves[m as usize];
            if let Some(cond) = &mv.cond
                && !self.holds(data, cond, mv.cond_test.as_ref(), p, &Value::None, Some(m))?
            {
                continue;
            }
            match &mv.pick {
                None => out.push(Choice {
                    value: Value::None,
                    mv: Some(m),
                }),
                Some(pick) => {
                    if let Some(np) = &mv.pick_native
                        && self.budget.depth() < super::decide::MAX_DEPTH
                        && !self.reference
                    {
                        self.pick_native(data, np, pick, p, m, out)?;
                        continue;
                    }
                    let v = self.exec_in(data, pick, None, p, [], Some(m))?;
                    for item in self.items(&v, pick.span)?.iter() {
                        out.push(Choice {
                            value: item.clone(),
                            mv: Some(m),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// A pick of the shape `<zone> where <test>`, filtered in place: the
    /// zone's cards in the order the interpreter lists them, with no list
    /// built (tests on cards never defer to the code).
    fn pick_native(
        &mut self,
        data: &Data,
        np: &native::Pick,
        pick: &Code,
        p: PlayerId,
        m: u16,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        let inst = self.pick_zone(np, pick, p)?;
        self.pick_cards(data, &np.test, p, m, inst, out);
        Ok(())
    }

    /// The zone instance a native pick reads, after what running the pick
    /// would do first: count a step, check the zone may be seen.
    #[inline(always)]
    pub(crate) fn pick_zone(&mut self, np: &native::Pick, pick: &Code, p: PlayerId) -> Res<usize> {
        self.tick(pick.span)?;
        let z = ZoneRef {
            zone: np.zone,
            owner: if self.st.shared(np.zone) { 0 } else { p },
        };
        self.check_visible(z, pick.span)?;
        Ok(self.st.inst(z))
    }

    /// The options of a native pick reading zone instance `inst`.
    #[inline(always)]
    pub(crate) fn pick_cards(
        &self,
        data: &Data,
        t: &native::Test,
        p: PlayerId,
        m: u16,
        inst: usize,
        out: &mut Vec<Choice>,
    ) {
        let zi = &self.st.zones[inst];
        // Ordered zones list their top card first; pile rows keep their order.
        if zi.piles.is_empty() {
            self.filter_cards(data, t, p, m, zi.cards.iter().rev().copied(), out);
        } else if let native::Test::Cmp(native::Operand::Prop(pr), op, native::Operand::Counter(k)) =
            *t
            && self.st.mods.is_empty()
        {
            // A pile's top card by its pile's definition (no card's property
            // is modified), the counter read once.
            let y = self.st.counter(p, k);
            for &(def, ref pile) in &zi.piles {
                if let Some(&c) = pile.last()
                    && op.holds(data.defs[def as usize].props[pr as usize], y)
                {
                    out.push(Choice {
                        value: Value::Card(c),
                        mv: Some(m),
                    });
                }
            }
        } else {
            let tops = zi.piles.iter().filter_map(|(_, pile)| pile.last().copied());
            self.filter_cards(data, t, p, m, tops, out);
        }
    }

    /// The first option of a native pick reading zone instance `inst`; the
    /// commonest test, a tag over an ordered zone, gets a loop of its own,
    /// inlined where a window looks for its first option every round.
    #[inline(always)]
    pub(crate) fn pick_first(
        &self,
        data: &Data,
        t: &native::Test,
        p: PlayerId,
        m: u16,
        inst: usize,
    ) -> Option<ObjId> {
        let zi = &self.st.zones[inst];
        match *t {
            native::Test::Is { tag, negate } if zi.piles.is_empty() => {
                let bit = crate::value::bit(tag);
                if !negate && self.st.tags_seen & bit == 0 {
                    return None;
                }
                zi.cards
                    .iter()
                    .rev()
                    .copied()
                    .find(|&c| (self.st.tags(c) & bit != 0) != negate)
            }
            _ => self.pick_first_rest(data, t, p, m, zi),
        }
    }

    /// [`Game::pick_first`] for the other tests. A card's property against
    /// the player's counter over a row of piles reads each pile's
    /// definition (no card's property is modified) and the counter once.
    #[inline(never)]
    fn pick_first_rest(
        &self,
        data: &Data,
        t: &native::Test,
        p: PlayerId,
        m: u16,
        zi: &ZoneInst,
    ) -> Option<ObjId> {
        use native::{Operand, Test};
        match *t {
            Test::Cmp(Operand::Prop(pr), op, Operand::Counter(k))
                if !zi.piles.is_empty() && self.st.mods.is_empty() =>
            {
                let y = self.st.counter(p, k);
                zi.piles.iter().find_map(|&(def, ref pile)| {
                    let &c = pile.last()?;
                    op.holds(data.defs[def as usize].props[pr as usize], y)
                        .then_some(c)
                })
            }
            _ => first_in(zi, |c| self.card_test(data, t, p, c, Some(m))),
        }
    }

    /// The first option of a native pick reading zone instance `inst` that
    /// also passes `t`: its index among the options and its card; else
    /// `Err` with the number of options.
    pub(crate) fn pick_find(
        &self,
        data: &Data,
        pt: &native::Test,
        t: Option<&native::Test>,
        p: PlayerId,
        m: u16,
        inst: usize,
    ) -> Result<(usize, ObjId), usize> {
        use native::{Operand, Test};
        let mut n = 0;
        // A card's property against the player's counter: the counter is
        // read once.
        let y = match *pt {
            Test::Cmp(_, _, Operand::Counter(k)) => self.st.counter(p, k),
            _ => 0,
        };
        let zi = &self.st.zones[inst];
        // A row of piles: a pile's top card is tested by its pile's
        // definition where the test reads nothing else of the card.
        if !zi.piles.is_empty() && self.st.mods.is_empty() {
            for &(def, ref pile) in &zi.piles {
                let Some(&c) = pile.last() else { continue };
                let d = &data.defs[def as usize];
                let listed = match *pt {
                    Test::Cmp(Operand::Prop(pr), op, Operand::Counter(_)) => {
                        op.holds(d.props[pr as usize], y)
                    }
                    _ => self.card_test(data, pt, p, c, Some(m)),
                };
                if !listed {
                    continue;
                }
                let hit = match t {
                    None => false,
                    Some(&Test::DefEq { def: e, negate }) => (def == e) != negate,
                    Some(t) => self.card_test(data, t, p, c, Some(m)),
                };
                if hit {
                    return Ok((n, c));
                }
                n += 1;
            }
            return Err(n);
        }
        let found = first_in(zi, |c| {
            let listed = match *pt {
                Test::Cmp(Operand::Prop(pr), op, Operand::Counter(_)) => {
                    op.holds(self.st.prop(data, c, pr), y)
                }
                _ => self.card_test(data, pt, p, c, Some(m)),
            };
            if !listed {
                return false;
            }
            if t.is_some_and(|t| self.card_test(data, t, p, c, Some(m))) {
                return true;
            }
            n += 1;
            false
        });
        found.map(|c| (n, c)).ok_or(n)
    }

    /// The cards that pass a test, as options of move `m`; the commonest
    /// tests get a loop of their own.
    #[inline(always)]
    fn filter_cards(
        &self,
        data: &Data,
        t: &native::Test,
        p: PlayerId,
        m: u16,
        cards: impl Iterator<Item = ObjId>,
        out: &mut Vec<Choice>,
    ) {
        use native::{Operand, Test};
        let choice = |c| Choice {
            value: Value::Card(c),
            mv: Some(m),
        };
        match *t {
            Test::Is { tag, negate } => {
                let bit = crate::value::bit(tag);
                for c in cards {
                    if (self.st.tags(c) & bit != 0) != negate {
                        out.push(choice(c));
                    }
                }
            }
            // A card's property against the player's counter: the counter is
            // read once.
            Test::Cmp(Operand::Prop(pr), op, Operand::Counter(k)) => {
                let y = self.st.counter(p, k);
                for c in cards {
                    if op.holds(self.st.prop(data, c, pr), y) {
                        out.push(choice(c));
                    }
                }
            }
            _ => {
                for c in cards {
                    if self.card_test(data, t, p, c, Some(m)) {
                        out.push(choice(c));
                    }
                }
            }
        }
    }

    /// The end check of rules that check it after every action.
    #[inline(always)]
    pub(crate) fn check_end_always(&mut self, data: &Data) -> Res<()> {
        if data.end_always {
            return self.check_end_now(data);
        }
        Ok(())
    }

    #[inline(never)]
    fn check_end_now(&mut self, data: &Data) -> Res<()> {
        if self.end_check(data)? {
            return Err(Flow::EndGame.into());
        }
        Ok(())
    }
}

/// The first card of a zone, in the order the interpreter lists them (top
/// card first; pile rows in their order), that passes a test.
#[inline(always)]
fn first_in(zi: &ZoneInst, mut hit: impl FnMut(ObjId) -> bool) -> Option<ObjId> {
    if zi.piles.is_empty() {
        zi.cards.iter().rev().copied().find(|&c| hit(c))
    } else {
        zi.piles
            .iter()
            .filter_map(|(_, pile)| pile.last().copied())
            .find(|&c| hit(c))
    }
}
