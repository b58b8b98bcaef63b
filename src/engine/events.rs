//! Event dispatch: finds the abilities waiting for an event through the trigger
//! index, orders them (active player first, each player orders its own) and
//! resolves them now or queues them for the next check point.

use super::log::Entry;
use super::state::{Event, Pending};
use super::{Game, Res};
use crate::data::schema::Controller;
use crate::value::{ObjId, PlayerId};

/// An ability that is due: its trigger, its card, the player it belongs to.
type Due = (u32, Option<ObjId>, PlayerId);

impl Game {
    pub fn has_listeners(&self, event: u16, would: bool) -> bool {
        self.data
            .index
            .slot(event, would)
            .is_some_and(|s| !s.rules.is_empty() || !s.self_only.is_empty() || !s.zoned.is_empty())
    }

    /// Handles one event and returns it as the abilities left it (a `would`
    /// event may come back prevented or changed).
    pub fn dispatch(&mut self, ev: Event) -> Res<Event> {
        let data = self.data.clone();
        let Some(slot) = data.index.slot(ev.name, ev.would) else {
            return Ok(ev);
        };
        let default_me = ev.player.unwrap_or(self.st.active);
        let mut found: Vec<Due> = Vec::new();
        for &t in &slot.rules {
            found.push((t, None, default_me));
        }
        if let Some(c) = ev.card {
            let def = self.st.objs[c as usize].def;
            for &t in &slot.self_only {
                if data.triggers[t as usize].def == Some(def) {
                    // "When you buy/gain/trash this": the player the event is about
                    // (a card still in a shared pile has no meaningful owner).
                    let me = ev.player.unwrap_or(self.st.objs[c as usize].owner);
                    found.push((t, Some(c), me));
                }
            }
        }
        for (zone, list) in &slot.zoned {
            let shared = self.st.shared(*zone);
            let owners = if shared { 1 } else { self.st.nplayers };
            let active_controls =
                shared && data.zones[*zone as usize].controller == Controller::Active;
            for p in self
                .turn_order(self.st.active, true)
                .into_iter()
                .filter(|&p| p < owners)
            {
                let inst = self.st.inst(crate::value::ZoneRef {
                    zone: *zone,
                    owner: p,
                });
                for &c in &self.st.zones[inst].cards {
                    let def = self.st.objs[c as usize].def;
                    // A card's abilities are those of the player whose zone holds
                    // it; in a shared zone, its owner's or the turn player's.
                    let me = if !shared {
                        p
                    } else if active_controls {
                        self.st.active
                    } else {
                        self.st.objs[c as usize].owner
                    };
                    for &t in list {
                        if data.triggers[t as usize].def == Some(def) {
                            found.push((t, Some(c), me));
                        }
                    }
                }
            }
        }
        self.st.events.push(ev);
        let r = self.handle_found(found);
        let ev = self.st.events.pop().expect("event pushed above");
        r.map(|_| ev)
    }

    fn handle_found(&mut self, found: Vec<Due>) -> Res<()> {
        let data = self.data.clone();
        // Keep those whose condition holds now; queued ones wait, unordered,
        // for the next check point, which orders them.
        let mut now = Vec::with_capacity(found.len());
        for (t, this, me) in found {
            if !self.condition(t, this, me)? {
                continue;
            }
            if data.triggers[t as usize].queued {
                let event = self
                    .st
                    .events
                    .last()
                    .cloned()
                    .expect("dispatch pushed the event");
                self.st.pending.push(Pending {
                    trigger: t,
                    this,
                    me,
                    event,
                });
            } else {
                now.push((t, this, me));
            }
        }
        match now.as_slice() {
            [] => Ok(()),
            &[(t, this, me)] => self.resolve_trigger(t, this, me, true),
            _ => self.resolve_in_order(&now, |g, i| {
                let (t, this, me) = now[i];
                g.resolve_trigger(t, this, me, true)
            }),
        }
    }

    fn condition(&mut self, t: u32, this: Option<ObjId>, me: PlayerId) -> Res<bool> {
        let data = self.data.clone();
        match &data.triggers[t as usize].cond {
            Some(c) => Ok(self.exec_code(c, this, me, Vec::new())?.truthy()),
            None => Ok(true),
        }
    }

    /// Resolves one ability; rechecks that it still applies (a reaction's card
    /// may have left the zone since) and asks first if it is optional.
    fn resolve_trigger(
        &mut self,
        t: u32,
        this: Option<ObjId>,
        me: PlayerId,
        recheck: bool,
    ) -> Res<()> {
        let data = self.data.clone();
        let trig = &data.triggers[t as usize];
        if recheck {
            if let (Some(c), Some(z)) = (this, trig.zone)
                && self.st.zone_of(c).zone != z
            {
                return Ok(());
            }
            if !self.condition(t, this, me)? {
                return Ok(());
            }
        }
        if trig.optional {
            let prompt = match this {
                Some(c) => format!(
                    "use {}: {}",
                    self.data.def_name(self.st.objs[c as usize].def),
                    trig.prompt
                ),
                None => trig.prompt.clone(),
            };
            let opts = vec![
                super::decide::Choice::text("yes"),
                super::decide::Choice::text("no"),
            ];
            if self
                .decide(me, &trig.prompt, &prompt, &opts, 1, 1, false)?
                .as_slice()
                != [0]
            {
                return Ok(());
            }
        }
        if self.logging {
            let def = this.map(|c| self.st.objs[c as usize].def);
            let prompt = trig.prompt.clone();
            self.push(Entry::Trigger {
                player: me,
                def,
                prompt,
            });
        }
        self.exec_code(&trig.body, this, me, Vec::new())?;
        Ok(())
    }

    /// Resolves abilities due together: the active player's first, then
    /// clockwise. A player with several different abilities picks the next one
    /// each time, after everything before it has resolved, so the choice sees
    /// the state those left.
    fn resolve_in_order(
        &mut self,
        due: &[Due],
        mut resolve: impl FnMut(&mut Game, usize) -> Res<()>,
    ) -> Res<()> {
        let mut done = vec![false; due.len()];
        for p in self.turn_order(self.st.active, true) {
            loop {
                let mine: Vec<usize> = (0..due.len())
                    .filter(|&i| !done[i] && due[i].2 == p)
                    .collect();
                let Some(&first) = mine.first() else { break };
                let i = if self.alike(due, &mine) {
                    first
                } else {
                    mine[self.pick_next(p, due, &mine)?]
                };
                done[i] = true;
                resolve(self, i)?;
            }
        }
        // Abilities of players out of the game: last, as they came.
        for (i, _) in done.iter().enumerate().filter(|(_, d)| !**d) {
            resolve(self, i)?;
        }
        Ok(())
    }

    /// Whether the abilities are one ability of one kind of card (no order to choose).
    fn alike(&self, due: &[Due], idx: &[usize]) -> bool {
        let def = |c: Option<ObjId>| c.map(|c| self.st.objs[c as usize].def);
        let (t0, c0, _) = due[idx[0]];
        idx.iter()
            .all(|&i| due[i].0 == t0 && def(due[i].1) == def(c0))
    }

    /// Asks `p` which of its abilities resolves next; an index into `idx`.
    fn pick_next(&mut self, p: PlayerId, due: &[Due], idx: &[usize]) -> Res<usize> {
        let opts: Vec<_> = idx
            .iter()
            .map(|&i| {
                let (t, c, _) = due[i];
                let trig = &self.data.triggers[t as usize];
                let label = match c {
                    Some(c) => format!(
                        "{}: {}",
                        self.data.def_name(self.st.objs[c as usize].def),
                        trig.prompt
                    ),
                    None => trig.prompt.clone(),
                };
                super::decide::Choice::text(&label)
            })
            .collect();
        let pick = self.decide(
            p,
            "order triggers",
            "which ability resolves next",
            &opts,
            1,
            1,
            false,
        )?;
        Ok(pick.first().copied().unwrap_or(0))
    }

    /// A check point: resolves queued abilities in order, including any they queue.
    pub fn resolve_pending(&mut self) -> Res<()> {
        while !self.st.pending.is_empty() {
            self.tick(Default::default())?;
            let batch = std::mem::take(&mut self.st.pending);
            let due: Vec<Due> = batch.iter().map(|p| (p.trigger, p.this, p.me)).collect();
            self.resolve_in_order(&due, |g, i| {
                let p = &batch[i];
                g.st.events.push(p.event.clone());
                let r = g.resolve_trigger(p.trigger, p.this, p.me, false);
                g.st.events.pop();
                r
            })?;
        }
        Ok(())
    }
}
