//! Turns, phases and priority windows, as the rules declare them.

use super::decide::Choice;
use super::log::Entry;
use super::state::{Event, Until};
use super::{Flow, Game, Res};
use crate::value::{PlayerId, Value};

impl Game {
    /// One turn of the active player, optionally starting at a phase.
    pub fn turn(&mut self, start_phase: Option<u16>) -> Res<()> {
        let data = self.data.clone();
        let p = self.st.active;
        self.st.turn += 1;
        self.steps = 0;
        self.st.turns_taken[p as usize] += 1;
        self.st.end_turn = false;
        self.push(Entry::Turn {
            turn: self.st.turn,
            player: p,
        });
        let r = self.turn_body(start_phase);
        match r {
            Ok(()) | Err(Flow::EndTurn) => {}
            Err(e) => return Err(e),
        }
        self.st.phase = None;
        // "Until end of turn" effects end first, then "at end of turn" abilities.
        self.st.mods.retain(|m| m.until == Until::Forever);
        let mut ev = Event::new(data.turn.end_event);
        ev.player = Some(p);
        self.raise(ev)?;
        if let Some(end) = &data.turn.end {
            self.exec_code(end, None, p, Vec::new())?;
        }
        self.resolve_pending()
    }

    fn turn_body(&mut self, start_phase: Option<u16>) -> Res<()> {
        let data = self.data.clone();
        let p = self.st.active;
        if start_phase.is_none() {
            // The rules' own turn-start code (resets) runs before abilities
            // that wait for the turn to start.
            if let Some(start) = &data.turn.start {
                self.exec_code(start, None, p, Vec::new())?;
            }
            let mut ev = Event::new(data.turn.start_event);
            ev.player = Some(p);
            self.raise(ev)?;
        }
        let first = start_phase.unwrap_or(0) as usize;
        let mut i = first;
        while i < data.turn.phases.len() {
            let phase = &data.turn.phases[i];
            self.tick(phase.body.span)?;
            self.st.phase = Some(i as u16);
            self.st.repeat_phase = false;
            self.push(Entry::Phase {
                phase: i as u16,
                start: true,
            });
            let mut ev = Event::new(phase.start_event);
            ev.player = Some(p);
            self.raise(ev)?;
            self.exec_code(&phase.body, None, p, Vec::new())?;
            let mut ev = Event::new(phase.end_event);
            ev.player = Some(p);
            self.raise(ev)?;
            self.st
                .mods
                .retain(|m| m.until != Until::EndOfPhase(i as u16));
            self.push(Entry::Phase {
                phase: i as u16,
                start: false,
            });
            self.check_end_always()?;
            if !self.st.repeat_phase {
                i += 1;
            }
        }
        Ok(())
    }

    /// A timing point: its abilities resolve, then queued ones.
    fn raise(&mut self, ev: Event) -> Res<()> {
        if self.has_listeners(ev.name, false) {
            self.dispatch(ev)?;
        }
        self.resolve_pending()
    }

    pub fn advance_player(&mut self) -> Res<()> {
        let data = self.data.clone();
        let next = match &data.turn.next {
            Some(code) => {
                let v = self.exec_code(code, None, self.st.active, Vec::new())?;
                self.player(&v, code.span)?
            }
            None => self.next_alive(self.st.active),
        };
        self.st.active = next;
        Ok(())
    }

    /// A priority window: players act or pass until the window's pass rule
    /// closes it; in a stack window, effects wait until everyone passes.
    pub fn window(&mut self, w: u16) -> Res<()> {
        let data = self.data.clone();
        let decl = &data.windows[w as usize];
        self.push(Entry::Window {
            window: w,
            open: true,
        });
        let first = self.st.active;
        let mut cur = first;
        let mut passes = 0;
        let alive = self.turn_order(first, true).len();
        let needed = if decl.all_players { alive } else { 1 };
        loop {
            self.tick(Default::default())?;
            let mut options = self.legal_moves(w, cur)?;
            let pass_index = options.len();
            options.push(Choice::text("pass"));
            let pick = if pass_index == 0 {
                pass_index
            } else {
                let r = self.decide(cur, &decl.name, &decl.name, &options, 1, 1, true)?;
                r.first().copied().unwrap_or(pass_index)
            };
            if pick == pass_index {
                if pass_index == 0 && self.logging {
                    self.push(Entry::Text {
                        text: format!("{} passes (nothing to do)", super::log::pname(cur)),
                    });
                } else if pass_index > 0 {
                    self.push(Entry::Pass { player: cur });
                }
                passes += 1;
                if passes >= needed {
                    if let Some(item) = self.st.stack.pop() {
                        let def = self.st.objs[item.card as usize].def;
                        self.push(Entry::Stack {
                            player: item.me,
                            def,
                            push: false,
                        });
                        self.run_effect(item.card, item.effect, item.me)?;
                        self.resolve_pending()?;
                        self.check_end_always()?;
                        passes = 0;
                        cur = first;
                        continue;
                    }
                    break;
                }
            } else {
                passes = 0;
                let c = &options[pick];
                let m = c.mv.expect("move options carry their move");
                let body = &data.moves[m as usize].body;
                self.exec_code_with(body, None, cur, vec![c.value.clone()], Some(m))?;
                self.resolve_pending()?;
                self.check_end_always()?;
            }
            if decl.all_players {
                cur = self.next_alive(cur);
            }
        }
        self.push(Entry::Window {
            window: w,
            open: false,
        });
        Ok(())
    }

    /// Every move the player may make now in this window.
    pub fn legal_moves(&mut self, w: u16, p: PlayerId) -> Res<Vec<Choice>> {
        let data = self.data.clone();
        let mut out = Vec::with_capacity(8);
        for &m in &data.windows[w as usize].moves {
            let mv = &data.moves[m as usize];
            if let Some(cond) = &mv.cond
                && !self
                    .exec_code_with(cond, None, p, Vec::new(), Some(m))?
                    .truthy()
            {
                continue;
            }
            match &mv.pick {
                None => out.push(Choice {
                    value: Value::None,
                    mv: Some(m),
                }),
                Some(pick) => {
                    let v = self.exec_code_with(pick, None, p, Vec::new(), Some(m))?;
                    for item in self.items(&v, pick.span)?.iter() {
                        out.push(Choice {
                            value: item.clone(),
                            mv: Some(m),
                        });
                    }
                }
            }
        }
        Ok(out)
    }

    fn check_end_always(&mut self) -> Res<()> {
        if self.data.end_always {
            let data = self.data.clone();
            if self
                .exec_code(&data.end_if, None, self.st.active, Vec::new())?
                .truthy()
            {
                return Err(Flow::EndGame);
            }
        }
        Ok(())
    }
}
