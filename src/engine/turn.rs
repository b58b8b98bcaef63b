//! Turns, phases and priority windows, as the rules declare them.

use super::decide::Act;
use super::frame::{Charge, Enter};
use super::log::Entry;
use super::mods::End;
use super::request::Choice;
use super::state::Event;
use super::{Flow, Game, Res};
use crate::data::{Data, TurnEvent};
use crate::lang::ir::Code;
use crate::value::{PlayerId, Value};

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
            self.end_mods(End::Turn);
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
        // The phases the kernel opens the windows of (asked once a turn).
        let opens = self.tier().map(|t| t.phase_windows());
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
            match opens.and_then(|o| o.get(i)?.as_deref()) {
                Some(ws) => self.open_windows(data, &phase.body, ws, p)?,
                None => drop(self.exec_hook(data, &phase.body, p)?),
            }
            self.raise(data, phase.end_event, p)?;
            if !self.st.mods.is_empty() {
                self.end_mods(End::Phase(i as u16));
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
    /// closes it (all pass in a row, or a round in which all passed). Effects put on the stack (`stack(...)`) wait: when every
    /// player has passed in a row, the newest resolves and the active player
    /// acts again; the window closes on passes with the stack empty.
    pub fn window(&mut self, w: u16) -> Res<()> {
        let data = self.data.clone();
        self.window_in(&data, w)
    }

    /// A phase's code that only opens windows `ws`, run as its hook would
    /// run it: its step and level, no slots (the windows read none).
    #[inline(always)]
    fn open_windows(&mut self, data: &Data, body: &Code, ws: &[u16], p: PlayerId) -> Res<()> {
        let e = Enter::rules(data, body, p);
        self.framed(
            Charge::Step,
            e,
            0,
            |_| {},
            |g, _| ws.iter().try_for_each(|&w| g.window_in(data, w)),
        )
    }

    /// [`Game::window`] for a caller that holds the game data: the tier may
    /// run the window its own way.
    #[inline(always)]
    pub(crate) fn window_in(&mut self, data: &Data, w: u16) -> Res<()> {
        self.window_by(data, w, |g| g.tier().and_then(|t| t.window(g, data, w)))
    }

    /// Window `w` opened, its rounds run by `rounds` if it runs them, else
    /// listed (a tier that opens windows itself passes its own `rounds`).
    #[inline(always)]
    pub(crate) fn window_by(
        &mut self,
        data: &Data,
        w: u16,
        rounds: impl FnOnce(&mut Game) -> Option<Res<()>>,
    ) -> Res<()> {
        self.push_with(|| Entry::Window {
            window: w,
            open: true,
        });
        match rounds(self) {
            Some(r) => r?,
            None => self.window_listed(data, w)?,
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
        // Where the current player stands in its round, and whether anyone
        // acted in it (a window closed by rounds).
        let (mut pos, mut acted) = (0, false);
        let tier = self.tier();
        loop {
            self.tick(Default::default())?;
            options.clear();
            // A data bot may decide before the moves are listed.
            let act = match self.data_bot(cur) {
                Some(b)
                    if let Some(t) = tier
                        && let Some(act) = t.bot_round(self, data, w, cur, b, options) =>
                {
                    act?
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
                    let done = if decl.rounds {
                        pos + 1 >= needed && !acted
                    } else {
                        passes >= needed
                    };
                    if done {
                        if !self.st.stack.is_empty() {
                            self.resolve_stacked(data)?;
                            (passes, pos, acted) = (0, 0, false);
                            cur = first;
                            continue;
                        }
                        break;
                    }
                }
                Act::Move(m, it) => {
                    passes = 0;
                    acted = true;
                    let body = &data.moves[m as usize].body;
                    self.exec_move(data, body, cur, it, m)?;
                    self.resolve_pending()?;
                    self.check_end_always(data)?;
                }
            }
            if decl.all_players {
                cur = self.next_alive(cur);
            }
            pos += 1;
            if pos >= needed {
                (pos, acted) = (0, false);
            }
        }
        Ok(())
    }

    /// Ends the modifiers `ends` picks, each with a line undoing it (the
    /// end-of-turn -2 of a +2).
    #[inline(never)]
    pub(crate) fn end_mods(&mut self, end: End) {
        if !self.logging {
            return self.st.mods.end(end, None);
        }
        let mut over = Vec::new();
        self.st.mods.end(end, Some(&mut over));
        for m in over {
            let def = self.named(m.obj);
            self.push(Entry::Modify {
                def,
                prop: m.prop,
                delta: -m.delta,
                ends: true,
            });
        }
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
        if let Some(t) = self.tier() {
            return t.legal_moves(self, data, w, p, out);
        }
        for &m in &data.windows[w as usize].moves {
            self.move_options(data, m, p, out)?;
        }
        Ok(())
    }

    /// The options of move `m` for player `p`, if it may be made: its
    /// condition and its pick run.
    pub(crate) fn move_options(
        &mut self,
        data: &Data,
        m: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        if !self.move_allowed(data, m, p)? {
            return Ok(());
        }
        self.pick_options(data, m, p, out)
    }

    /// Whether move `m`'s condition holds for player `p` (a move without
    /// one may always be made).
    #[inline(always)]
    pub(crate) fn move_allowed(&mut self, data: &Data, m: u16, p: PlayerId) -> Res<bool> {
        match &data.moves[m as usize].cond {
            Some(cond) => Ok(self.exec_in(data, cond, None, p, [], Some(m))?.truthy()),
            None => Ok(true),
        }
    }

    /// The options of move `m`'s pick (its condition held): one with no pick.
    pub(crate) fn pick_options(
        &mut self,
        data: &Data,
        m: u16,
        p: PlayerId,
        out: &mut Vec<Choice>,
    ) -> Res<()> {
        let Some(pick) = &data.moves[m as usize].pick else {
            out.push(Choice {
                value: Value::None,
                mv: Some(m),
            });
            return Ok(());
        };
        let v = self.exec_in(data, pick, None, p, [], Some(m))?;
        // A pick of a whole zone (`pick: hand`) lists its cards, a step each,
        // read in place: no copy of them made first.
        if let Value::Zone(z) = v {
            self.charge_copy(&v, pick.span)?;
            let options = self
                .zone_values(z)
                .map(|value| Choice { value, mv: Some(m) });
            out.extend(options);
            return Ok(());
        }
        for item in self.items_copied(&v, pick.span)?.iter() {
            out.push(Choice {
                value: item.clone(),
                mv: Some(m),
            });
        }
        Ok(())
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
