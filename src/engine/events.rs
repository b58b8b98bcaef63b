//! Event dispatch: finds the abilities waiting for an event through the trigger
//! index, orders them (active player first, each player orders its own) and
//! resolves them now or queues them for the next check point.

use super::log::Entry;
use super::state::{Event, Pending};
use super::{Game, Res};
use crate::data::Data;
use crate::value::{ObjId, PlayerId};

/// Abilities an event found: trigger, card, and the player it acts for.
type Found = smallvec::SmallVec<[(u32, Option<ObjId>, PlayerId); 4]>;

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
        self.dispatch_in(&data, ev)
    }

    /// [`Game::dispatch`] for a caller that holds the game data.
    pub(crate) fn dispatch_in(&mut self, data: &Data, ev: Event) -> Res<Event> {
        let Some(slot) = data.index.slot(ev.name, ev.would) else {
            return Ok(ev);
        };
        let default_me = ev.player.unwrap_or(self.st.active);
        let mut found = Found::new();
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
            let owners = if self.st.shared(*zone) {
                1
            } else {
                self.st.nplayers
            };
            for p in self
                .turn_order_iter(self.st.active, true)
                .filter(|&p| p < owners)
            {
                let inst = self.st.inst(crate::value::ZoneRef {
                    zone: *zone,
                    owner: p,
                });
                for &c in &self.st.zones[inst].cards {
                    let def = self.st.objs[c as usize].def;
                    for &t in list {
                        if data.triggers[t as usize].def == Some(def) {
                            found.push((t, Some(c), self.st.objs[c as usize].owner));
                        }
                    }
                }
            }
        }
        self.st.events.push(ev);
        let r = self.handle_found(data, found);
        let ev = self.st.events.pop().expect("event pushed above");
        r.map(|_| ev)
    }

    fn handle_found(&mut self, data: &Data, found: Found) -> Res<()> {
        if found.is_empty() {
            return Ok(());
        }
        // Keep those whose condition holds now.
        let mut live = Vec::with_capacity(found.len());
        for (t, this, me) in found {
            if self.condition(data, t, this, me)? {
                live.push((t, this, me));
            }
        }
        if live.is_empty() {
            return Ok(());
        }
        let ordered = self.order_triggers(live)?;
        for (t, this, me) in ordered {
            let trig = &data.triggers[t as usize];
            if trig.queued {
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
                self.resolve_trigger(data, t, this, me, true)?;
            }
        }
        Ok(())
    }

    fn condition(&mut self, data: &Data, t: u32, this: Option<ObjId>, me: PlayerId) -> Res<bool> {
        match &data.triggers[t as usize].cond {
            Some(c) => Ok(self.exec_in(data, c, this, me, [], None)?.truthy()),
            None => Ok(true),
        }
    }

    /// Resolves one ability; rechecks that it still applies (a reaction's card
    /// may have left the zone since) and asks first if it is optional.
    fn resolve_trigger(
        &mut self,
        data: &Data,
        t: u32,
        this: Option<ObjId>,
        me: PlayerId,
        recheck: bool,
    ) -> Res<()> {
        let trig = &data.triggers[t as usize];
        if recheck {
            if let (Some(c), Some(z)) = (this, trig.zone)
                && self.st.zone_of(c).zone != z
            {
                return Ok(());
            }
            if !self.condition(data, t, this, me)? {
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
                .decide_in(data, me, &trig.prompt, &prompt, &opts, 1, 1, false)?
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
        self.exec_in(data, &trig.body, this, me, [], None)?;
        Ok(())
    }

    /// Active player's abilities first, then clockwise; a player with several
    /// different abilities picks their order.
    fn order_triggers(
        &mut self,
        live: Vec<(u32, Option<ObjId>, PlayerId)>,
    ) -> Res<Vec<(u32, Option<ObjId>, PlayerId)>> {
        if live.len() == 1 {
            return Ok(live);
        }
        let mut out = Vec::with_capacity(live.len());
        for p in self.turn_order(self.st.active, true) {
            let mut mine: Vec<_> = live.iter().copied().filter(|(_, _, me)| *me == p).collect();
            while mine.len() > 1 {
                let same = mine.iter().all(|(t, c, _)| {
                    *t == mine[0].0
                        && c.map(|c| self.st.objs[c as usize].def)
                            == mine[0].1.map(|c| self.st.objs[c as usize].def)
                });
                if same {
                    break;
                }
                let opts: Vec<_> = mine
                    .iter()
                    .map(|(t, c, _)| {
                        let trig = &self.data.triggers[*t as usize];
                        let label = match c {
                            Some(c) => format!(
                                "{}: {}",
                                self.data.def_name(self.st.objs[*c as usize].def),
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
                out.push(mine.remove(pick.first().copied().unwrap_or(0)));
            }
            out.extend(mine);
        }
        // Rules' own abilities for players who have lost, or none: keep them too.
        for x in live {
            if !out.iter().any(|y| y.0 == x.0 && y.1 == x.1 && y.2 == x.2) {
                out.push(x);
            }
        }
        Ok(out)
    }

    /// A check point: resolves queued abilities in order, including any they queue.
    pub fn resolve_pending(&mut self) -> Res<()> {
        if self.st.pending.is_empty() {
            return Ok(());
        }
        let data = self.data.clone();
        while !self.st.pending.is_empty() {
            let batch = std::mem::take(&mut self.st.pending);
            let live = batch.iter().map(|p| (p.trigger, p.this, p.me)).collect();
            let ordered = self.order_triggers(live)?;
            for (t, this, me) in ordered {
                let Some(p) = batch
                    .iter()
                    .find(|p| p.trigger == t && p.this == this && p.me == me)
                else {
                    continue;
                };
                self.st.events.push(p.event.clone());
                let r = self.resolve_trigger(&data, t, this, me, false);
                self.st.events.pop();
                r?;
            }
        }
        Ok(())
    }
}
