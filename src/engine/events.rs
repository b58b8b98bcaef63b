//! Event dispatch: finds the abilities waiting for an event through the trigger
//! index, orders them (active player first, each player orders its own) and
//! resolves them now or queues them for the next check point.

use super::log::{Entry, Place, sees_card};
use super::request::{Choice, Kind, Request};
use super::state::{Event, Obj, Pending};
use super::{Game, Res};
use crate::data::{Data, EventSlot, Zoned};
use crate::lang::ir::Code;
use crate::value::{ObjId, PlayerId, ZoneRef};

/// An ability that is due: its trigger, its card, the player it belongs to.
type Due = (u32, Option<ObjId>, PlayerId);

/// Abilities found for one event: inline, no allocation for the usual few.
type Found = smallvec::SmallVec<[Due; 4]>;

/// Whether an ability about to resolve asks its condition again.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Recheck {
    /// Not asked: a queued ability, asked when it was found.
    No,
    /// Asked again (and its card looked for in its zone): something may
    /// have run since it was found.
    Yes,
    /// The tier decided it held a moment ago and nothing ran since: the
    /// answer stands, charged as asking it again is (a step and a level).
    Held,
}

/// Whether card `c`'s definition has its bit in `defs` (most cards wait
/// for nothing: one bit says so). Tested in a walk with no call in it, so
/// what it reads stays in registers.
#[inline(always)]
fn listens(objs: &[Obj], defs: &[u64], c: ObjId) -> bool {
    let def = objs[c as usize].def;
    (defs.get(def as usize / 64)).is_some_and(|w| w >> (def % 64) & 1 != 0)
}

impl Game {
    /// Whether some ability may trigger on the event: a rules' ability, or one
    /// of a card definition with a card in the game (dispatching finds nothing
    /// otherwise).
    #[inline]
    pub fn has_listeners(&self, event: u16, would: bool) -> bool {
        self.data
            .index
            .slot(event, would)
            .is_some_and(|s| !s.rules.is_empty() || self.st.made_any(&s.defs))
    }

    /// Handles one event and returns it as the abilities left it (a `would`
    /// event may come back prevented or changed).
    pub fn dispatch(&mut self, ev: Event) -> Res<Event> {
        let data = self.data.clone();
        self.dispatch_in(&data, ev)
    }

    /// [`Game::dispatch`] for a caller that holds the game data: an event
    /// only one ability of the rules' waits for takes a path of its own
    /// (none of the finding's frame), any other one finds its abilities.
    #[inline]
    pub(crate) fn dispatch_in(&mut self, data: &Data, ev: Event) -> Res<Event> {
        let Some(slot) = data.index.slot(ev.name, ev.would) else {
            return Ok(ev);
        };
        if let Some(t) = slot.only_rule() {
            return self.dispatch_rule(data, t, ev);
        }
        self.dispatch_found(data, slot, ev)
    }

    /// [`Game::dispatch_in`] for a caller that drops the event it gets back:
    /// the rules-only path drops it where it is handled, never copied back.
    #[inline]
    pub(crate) fn dispatch_done(&mut self, data: &Data, ev: Event) -> Res<()> {
        let Some(slot) = data.index.slot(ev.name, ev.would) else {
            return Ok(());
        };
        if let Some(t) = slot.only_rule() {
            return self.rule_done(data, t, ev);
        }
        self.dispatch_found(data, slot, ev).map(drop)
    }

    /// [`Game::dispatch_rule`] with the event dropped once handled.
    #[inline(never)]
    fn rule_done(&mut self, data: &Data, t: u32, ev: Event) -> Res<()> {
        let me = ev.player.unwrap_or(self.st.active);
        self.with_event(ev, |g| g.handle_one(data, (t, None, me))).0
    }

    /// One ability of the rules' and no card's: handled as one found
    /// would be, with no list of found ones made.
    #[inline(never)]
    fn dispatch_rule(&mut self, data: &Data, t: u32, ev: Event) -> Res<Event> {
        let me = ev.player.unwrap_or(self.st.active);
        let (r, ev) = self.with_event(ev, |g| g.handle_one(data, (t, None, me)));
        r.map(|_| ev)
    }

    /// The abilities waiting for `ev` in its slot, found (inlined: no
    /// frame of its own) and handled.
    #[inline(never)]
    fn dispatch_found(&mut self, data: &Data, slot: &EventSlot, ev: Event) -> Res<Event> {
        let found = self.found_in(slot, &ev);
        if found.is_empty() {
            return Ok(ev);
        }
        let (r, ev) = self.with_event(ev, |g| g.handle_found(data, &found));
        r.map(|_| ev)
    }

    /// Runs `body` with `ev` the event its code sees (`event`, the newest
    /// of the stack), the one way an event is entered; it is left whatever
    /// `body` returns, and given back as the abilities left it.
    #[inline]
    fn with_event<R>(&mut self, ev: Event, body: impl FnOnce(&mut Game) -> R) -> (R, Event) {
        self.st.events.push(ev);
        let r = body(self);
        let ev = self.st.events.pop().expect("event pushed above");
        (r, ev)
    }

    /// Handles events that happen together (cards moved at once): their
    /// abilities gather into one batch, ordered as one.
    pub fn dispatch_together(&mut self, data: &Data, evs: Vec<Event>) -> Res<()> {
        let mut due = Found::new();
        let mut event_of = Vec::new();
        for (i, ev) in evs.iter().enumerate() {
            let found = self.find_abilities(ev);
            if found.is_empty() {
                continue;
            }
            self.with_event(ev.clone(), |g| g.sort_found(data, &found, &mut due))
                .0?;
            event_of.resize(due.len(), i);
        }
        self.resolve_due(&due, |g, k| {
            let (t, this, me) = due[k];
            let ev = evs[event_of[k]].clone();
            g.with_event(ev, |g| g.resolve_trigger(data, t, this, me, Recheck::Yes))
                .0
        })
    }

    /// The abilities waiting for an event, found through the trigger index.
    fn find_abilities(&self, ev: &Event) -> Found {
        match self.data.index.slot(ev.name, ev.would) {
            Some(slot) => self.found_in(slot, ev),
            None => Found::new(),
        }
    }

    /// [`Game::find_abilities`] in the event's slot of the index.
    #[inline(always)]
    fn found_in(&self, slot: &EventSlot, ev: &Event) -> Found {
        let data = &self.data;
        let mut found = Found::new();
        let default_me = ev.player.unwrap_or(self.st.active);
        for &t in &slot.rules {
            found.push((t, None, default_me));
        }
        if let Some(c) = ev.card
            && !slot.self_only.is_empty()
        {
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
        for z in &slot.zoned {
            // No card of these definitions in the game: none in the zone.
            if !self.st.made_any(&z.defs) {
                continue;
            }
            // A shared zone has one instance (owner 0), visited once whoever is
            // still in the game; a card's abilities there are its owner's or
            // each player's.
            if z.shared {
                let inst = self.st.inst(ZoneRef {
                    zone: z.zone,
                    owner: 0,
                });
                self.found_at(&mut found, z, inst, None);
                continue;
            }
            // A player's zone, once per player still in it, in turn order from
            // the active player (counted round, no division a player); a card's
            // abilities there are that player's.
            let (n, active) = (self.st.nplayers as usize, self.st.active as usize);
            let active = if active < n {
                active
            } else {
                active.checked_rem(n).unwrap_or(0)
            };
            for i in 0..n {
                let p = match active + i {
                    q if q >= n => q - n,
                    q => q,
                };
                if self.st.lost[p] {
                    continue;
                }
                let p = p as PlayerId;
                let inst = self.st.inst(ZoneRef {
                    zone: z.zone,
                    owner: p,
                });
                self.found_at(&mut found, z, inst, Some(p));
            }
        }
        found
    }

    /// The abilities of `z` of the cards in zone instance `inst`, whose
    /// player is `holder` (a shared zone's: none, each card's owner).
    #[inline(always)]
    fn found_at(&self, found: &mut Found, z: &Zoned, inst: usize, holder: Option<PlayerId>) {
        let objs = &self.st.objs[..];
        let mut cards = self.st.zones[inst].cards.iter();
        while let Some(&c) = cards.find(|&&c| listens(objs, &z.defs, c)) {
            let me = holder.unwrap_or(objs[c as usize].owner);
            self.found_card(found, z, c, me);
        }
    }

    /// The abilities of `z` of card `c`, found listening (its definition's
    /// group of the list): out of line, so the walk over the zone's cards
    /// (most of which listen to nothing) keeps what it reads in registers.
    #[inline(never)]
    fn found_card(&self, found: &mut Found, z: &Zoned, c: ObjId, me: PlayerId) {
        let def = self.st.objs[c as usize].def;
        let (from, to) = z.span[def as usize];
        for &t in &z.list[from as usize..to as usize] {
            if z.each {
                for q in self.turn_order_iter(self.st.active, true) {
                    found.push((t, Some(c), q));
                }
            } else {
                found.push((t, Some(c), me));
            }
        }
    }

    /// The abilities found are read in place, not moved (most events find
    /// one whose condition fails).
    #[inline]
    fn handle_found(&mut self, data: &Data, found: &[Due]) -> Res<()> {
        if let [due] = *found {
            return self.handle_one(data, due);
        }
        let mut now = Found::new();
        self.sort_found(data, found, &mut now)?;
        self.resolve_due(&now, |g, i| {
            let (t, this, me) = now[i];
            g.resolve_trigger(data, t, this, me, Recheck::Yes)
        })
    }

    /// [`Game::handle_found`] of one ability found: resolved right after
    /// its condition is asked, nothing run between (inlined: most events
    /// of some games find one rules' ability whose condition fails).
    #[inline(always)]
    fn handle_one(&mut self, data: &Data, (t, this, me): Due) -> Res<()> {
        match self.due_now(data, t, this, me)? {
            Some(decided) => {
                let recheck = if decided { Recheck::Held } else { Recheck::Yes };
                self.resolve_trigger(data, t, this, me, recheck)
            }
            None => Ok(()),
        }
    }

    /// Keeps the abilities whose condition holds for the current event: queued
    /// ones wait, unordered, for the next check point (which orders them); the
    /// others go to `now`.
    #[inline]
    fn sort_found(&mut self, data: &Data, found: &[Due], now: &mut Found) -> Res<()> {
        for &(t, this, me) in found {
            if self.due_now(data, t, this, me)?.is_some() {
                now.push((t, this, me));
            }
        }
        Ok(())
    }

    /// Whether an ability found is due now: its condition holds and it is
    /// not queued (a queued one whose condition holds waits, with the
    /// current event, for the next check point). Some(whether the tier
    /// decided the condition) where it is due.
    #[inline(always)]
    fn due_now(
        &mut self,
        data: &Data,
        t: u32,
        this: Option<ObjId>,
        me: PlayerId,
    ) -> Res<Option<bool>> {
        let (holds, decided) = self.condition(data, t, this, me)?;
        if !holds {
            return Ok(None);
        }
        if !data.triggers[t as usize].queued {
            return Ok(Some(decided));
        }
        let event = self.st.events.last().cloned().expect("the event is pushed");
        self.st.pending.push(Pending {
            trigger: t,
            this,
            me,
            event,
        });
        Ok(None)
    }

    /// Resolves abilities due now: one directly, several in order.
    fn resolve_due(
        &mut self,
        due: &[Due],
        mut resolve: impl FnMut(&mut Game, usize) -> Res<()>,
    ) -> Res<()> {
        match due.len() {
            0 => Ok(()),
            1 => resolve(self, 0),
            _ => self.resolve_in_order(due, resolve),
        }
    }

    /// Whether the ability's condition holds, and whether the tier decided
    /// it (read only, a step and a level) rather than its code ran. Inlined
    /// where abilities found are sorted: most conditions are decided.
    #[inline(always)]
    fn condition(
        &mut self,
        data: &Data,
        t: u32,
        this: Option<ObjId>,
        me: PlayerId,
    ) -> Res<(bool, bool)> {
        let trig = &data.triggers[t as usize];
        let Some(c) = &trig.cond else {
            return Ok((true, false));
        };
        // A condition the tier decides without running it costs what its
        // frame would: a step and a level.
        if trig.plain_cond
            && let Some(tier) = self.tier()
            && let Some(holds) = tier.decides(self, t, this, me)
        {
            self.enter(c.span)?;
            self.leave();
            return Ok((holds, true));
        }
        self.run_condition(data, c, this, me)
    }

    /// [`Game::condition`] run as code (out of line: the rare case).
    #[inline(never)]
    fn run_condition(
        &mut self,
        data: &Data,
        c: &Code,
        this: Option<ObjId>,
        me: PlayerId,
    ) -> Res<(bool, bool)> {
        Ok((self.exec_in(data, c, this, me, [], None)?.truthy(), false))
    }

    /// Resolves one ability; rechecks that it still applies (a reaction's card
    /// may have left the zone since) and asks first if it is optional.
    fn resolve_trigger(
        &mut self,
        data: &Data,
        t: u32,
        this: Option<ObjId>,
        me: PlayerId,
        recheck: Recheck,
    ) -> Res<()> {
        let trig = &data.triggers[t as usize];
        if recheck != Recheck::No {
            if let (Some(c), Some(z)) = (this, trig.zone)
                && self.st.zone_of(c).zone != z
            {
                return Ok(());
            }
            match (recheck, &trig.cond) {
                (Recheck::Held, Some(c)) => {
                    debug_assert_eq!(
                        self.tier().and_then(|tier| tier.decides(self, t, this, me)),
                        Some(true),
                        "a condition held a moment ago changed with nothing run"
                    );
                    self.enter(c.span)?;
                    self.leave();
                }
                _ if !self.condition(data, t, this, me)?.0 => return Ok(()),
                _ => {}
            }
        }
        if trig.optional {
            let prompt = match this {
                Some(_) => format!("use {}", self.ability_label(t, this)),
                None => trig.prompt.clone(),
            };
            let opts = [Choice::text("yes"), Choice::text("no")];
            let req = Request {
                data,
                player: me,
                together: &[],
                kind: Kind::YesNo,
                name: &trig.prompt,
                prompt: &prompt,
                options: &opts,
                min: 1,
                max: 1,
                public: false,
            };
            if self.ask(req)?.as_slice() != [0] {
                return Ok(());
            }
        }
        if self.logging {
            let mut def = this.map(|c| self.named(c));
            if let Some((d, place)) = &mut def
                && trig.reveal
                && !(0..self.st.nplayers).all(|v| sees_card(data, *place, Some(v)))
            {
                self.push(Entry::Show {
                    player: me,
                    cards: vec![*d],
                    private: false,
                });
                *place = Place::Open;
            }
            let prompt = trig.prompt.clone();
            self.push(Entry::Trigger {
                player: me,
                def,
                prompt,
            });
        }
        self.exec_code(&trig.body, this, me, Vec::new())?;
        // A resolved ability is a check point: a game it won ends here.
        self.check_end_always(data)
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
            let mut mine: Vec<usize> = (0..due.len()).filter(|&i| due[i].2 == p).collect();
            while !mine.is_empty() && !self.alike(due, &mine) {
                let i = mine.remove(self.pick_next(p, due, &mine)?);
                done[i] = true;
                resolve(self, i)?;
            }
            // One ability of one kind of card, or what is left of several:
            // no order to choose, each in the order they came.
            for i in mine {
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

    /// An ability as players see it: "card: prompt".
    fn ability_label(&self, t: u32, this: Option<ObjId>) -> String {
        let prompt = &self.data.triggers[t as usize].prompt;
        match this {
            Some(c) => format!(
                "{}: {prompt}",
                self.data.def_name(self.st.objs[c as usize].def)
            ),
            None => prompt.clone(),
        }
    }

    /// Asks `p` which of its abilities resolves next; an index into `idx`.
    fn pick_next(&mut self, p: PlayerId, due: &[Due], idx: &[usize]) -> Res<usize> {
        // A step an ability listed, at the first one's code: thousands to
        // order cost what listing them costs.
        let span = self.data.triggers[due[idx[0]].0 as usize].body.span;
        self.charge(span, idx.len() as u64)?;
        let opts: Vec<_> = idx
            .iter()
            .map(|&i| Choice::text(&self.ability_label(due[i].0, due[i].1)))
            .collect();
        let data = self.data.clone();
        let pick = self.ask(Request {
            data: &data,
            player: p,
            together: &[],
            kind: Kind::Option,
            name: "order triggers",
            prompt: "which ability resolves next",
            options: &opts,
            min: 1,
            max: 1,
            public: false,
        })?;
        Ok(pick.first().copied().unwrap_or(0))
    }

    /// A check point: resolves queued abilities in order, including any they queue.
    #[inline]
    pub fn resolve_pending(&mut self) -> Res<()> {
        if self.st.pending.is_empty() {
            return Ok(());
        }
        self.resolve_queued()
    }

    #[inline(never)]
    fn resolve_queued(&mut self) -> Res<()> {
        let data = self.data.clone();
        let data = &*data;
        while !self.st.pending.is_empty() {
            self.tick(Default::default())?;
            let batch = std::mem::take(&mut self.st.pending);
            let due: Vec<Due> = batch.iter().map(|p| (p.trigger, p.this, p.me)).collect();
            self.resolve_in_order(&due, |g, i| {
                let p = &batch[i];
                let ev = p.event.clone();
                g.with_event(ev, |g| {
                    g.resolve_trigger(data, p.trigger, p.this, p.me, Recheck::No)
                })
                .0
            })?;
        }
        Ok(())
    }
}
