//! A player's view of the game: built from each zone's visibility rule, it holds
//! nothing that player may not see. Agents and `--view` read only this.

use serde::Serialize;

use super::Game;
use super::log::{count, pname, sees_contents, sees_size, zone_label};
use crate::data::{Data, Visibility};
use crate::value::{ObjId, PlayerId, ZoneRef};

#[derive(Debug, Serialize)]
pub struct View {
    pub player: u8,
    pub active: u8,
    pub turn: u32,
    pub phase: Option<String>,
    pub counters: Vec<(String, String, i64)>,
    pub zones: Vec<ZoneView>,
    /// The board as `show_board()` writes it, for a game with one (public).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct ZoneView {
    pub zone: String,
    pub size: Option<usize>,
    pub cards: Option<Vec<String>>,
    /// Per card of `cards`, in its order: the state the rules' `shown:`
    /// shows with it ([`Game::shown_state`]); absent where no card has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<Vec<Vec<String>>>,
    pub top: Option<String>,
    pub piles: Option<Vec<(String, usize)>>,
    /// Per card of `cards`, in its order: the card it is attached to or
    /// stored under (`attach`), as this viewer may see it; absent where no
    /// card has one. Without it a support on one of two spells says neither.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosts: Option<Vec<Option<Host>>>,
}

/// The card another is attached to, as a viewer may see it.
#[derive(Debug, Clone, Serialize)]
pub struct Host {
    /// Its zone's label.
    pub zone: String,
    /// Its name, and its place in its zone's `cards` (top first; none in a
    /// zone of piles), where the viewer sees that zone's cards (for a
    /// face-down host, neither).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
}

impl Host {
    /// `on NAME`, with its zone where it is not the card's own (`here`).
    pub fn label(&self, here: &str) -> String {
        match (&self.name, self.zone == here) {
            (Some(n), true) => format!("on {n}"),
            (Some(n), false) => format!("on {n} in {}", self.zone),
            (None, _) => format!("on a face-down card in {}", self.zone),
        }
    }
}

impl Game {
    pub fn view(&self, me: PlayerId) -> View {
        let d = &self.data;
        let v = Some(me);
        let mut counters = Vec::new();
        for p in 0..self.st.nplayers {
            for (i, c) in d.counters.iter().enumerate() {
                let ok = match c.visible {
                    Visibility::Public => true,
                    Visibility::Owner => p == me,
                    Visibility::Hidden => false,
                };
                if ok {
                    counters.push((pname(p), c.name.clone(), self.st.counter(p, i as u16)));
                }
            }
        }
        let mut zones = Vec::new();
        for r in &self.st.inst_ref {
            let z = ZoneRef {
                zone: r.zone,
                owner: r.owner,
            };
            let decl = &d.zones[z.zone as usize];
            let inst = &self.st.zones[self.st.inst(z)];
            let see = sees_contents(d, z, v);
            let name = |c: &u32| d.def_name(self.st.objs[*c as usize].def).to_string();
            let listed = see && !decl.piles;
            let states: Vec<Vec<String>> = match listed {
                true => inst
                    .cards
                    .iter()
                    .rev()
                    .map(|&c| self.shown_state(c))
                    .collect(),
                false => Vec::new(),
            };
            let hosts: Vec<Option<Host>> = match listed {
                true => inst
                    .cards
                    .iter()
                    .rev()
                    .map(|&c| self.host_seen(c, v))
                    .collect(),
                false => Vec::new(),
            };
            zones.push(ZoneView {
                zone: zone_label(d, z),
                size: sees_size(d, z, v).then(|| self.st.size(z)),
                cards: listed.then(|| inst.cards.iter().rev().map(name).collect()),
                states: states.iter().any(|s| !s.is_empty()).then_some(states),
                top: (decl.top || see)
                    .then(|| inst.cards.last().map(name))
                    .flatten(),
                piles: (see && decl.piles).then(|| {
                    inst.piles
                        .iter()
                        .map(|(def, p)| (d.defs[*def as usize].id.clone(), p.len()))
                        .collect()
                }),
                hosts: hosts.iter().any(Option::is_some).then_some(hosts),
            });
        }
        View {
            player: me + 1,
            active: self.st.active + 1,
            turn: self.st.turn,
            phase: self
                .st
                .phase
                .map(|p| d.turn.phases[p as usize].name.clone()),
            counters,
            zones,
            board: self.board_line(),
        }
    }
}

impl Game {
    /// The card `c` is attached to, as `viewer` may see it.
    fn host_seen(&self, c: ObjId, viewer: Option<PlayerId>) -> Option<Host> {
        let h = self.st.objs[c as usize].host?;
        let (d, z) = (&self.data, self.st.zone_of(h));
        let see = sees_contents(d, z, viewer);
        // Its place among the zone's cards as listed (a pile zone lists none).
        let cards = &self.st.zones[self.st.objs[h as usize].zone as usize].cards;
        Some(Host {
            zone: zone_label(d, z),
            name: see.then(|| d.def_name(self.st.objs[h as usize].def).to_string()),
            index: (cards.iter().rev().position(|&x| x == h)).filter(|_| see),
        })
    }

    /// A card's state as the rules' `shown:` shows it: the shown tags it
    /// has, and each shown property `modify` changed (`power 5`). For a
    /// card the asker may see: the caller checks that.
    pub fn shown_state(&self, c: ObjId) -> Vec<String> {
        let d = &self.data;
        let o = &self.st.objs[c as usize];
        let mut s: Vec<String> = (d.names.tags.iter().enumerate())
            .filter(|(t, _)| d.shown_tags & o.tags & crate::value::bit(*t) != 0)
            .map(|(_, n)| n.clone())
            .collect();
        for &p in &d.shown_props {
            let now = self.st.prop(d, c, p);
            if now != d.defs[o.def as usize].props[p as usize] {
                s.push(format!("{} {now}", d.names.props[p as usize]));
            }
        }
        s
    }
}

/// A card's name with its state, if it has one: `name [activated]`.
pub fn with_state(name: &str, state: &[String]) -> String {
    match state.is_empty() {
        true => name.to_string(),
        false => format!("{name} [{}]", state.join(", ")),
    }
}

impl ZoneView {
    /// Its `i`th listed card with its state and its host: `name [state] (on host)`.
    pub fn card_label(&self, i: usize) -> String {
        let no_state = Vec::new();
        let Some(n) = self.cards.as_ref().and_then(|c| c.get(i)) else {
            return String::new();
        };
        let st = (self.states.as_ref())
            .and_then(|s| s.get(i))
            .unwrap_or(&no_state);
        let s = with_state(n, st);
        match self
            .hosts
            .as_ref()
            .and_then(|h| h.get(i))
            .and_then(Option::as_ref)
        {
            Some(h) => format!("{s} ({})", h.label(&self.zone)),
            None => s,
        }
    }
}

impl View {
    pub fn render(&self, _data: &Data) -> String {
        let mut s = format!(
            "view of P{} — turn {}, P{} active",
            self.player, self.turn, self.active
        );
        if let Some(p) = &self.phase {
            s += &format!(", {p} phase");
        }
        s += "\n";
        let counters: Vec<String> = self
            .counters
            .iter()
            .map(|(p, c, v)| format!("{p}.{c}={v}"))
            .collect();
        s += &format!("  counters: {}\n", counters.join(" "));
        for z in &self.zones {
            s += &format!("  {}", z.zone);
            if let Some(n) = z.size {
                s += &format!(" [{n}]");
            }
            if let Some(c) = &z.cards {
                let shown: Vec<String> = (0..c.len()).map(|i| z.card_label(i)).collect();
                s += &format!(": {}", shown.join(", "));
            } else if let Some(t) = &z.top {
                s += &format!(" top: {t}");
            }
            if let Some(p) = &z.piles {
                let ps: Vec<String> = p.iter().map(|(id, n)| format!("{id}×{n}")).collect();
                s += &format!(": {}", ps.join(" "));
            }
            s += "\n";
        }
        if let Some(b) = &self.board {
            s += &format!("  {b}\n");
        }
        s
    }
}

impl Game {
    /// A compact listing of the state as a viewer sees it (None: everything):
    /// non-zero counters and non-empty zones, top card first.
    pub fn dump(&self, viewer: Option<PlayerId>) -> String {
        let d = &self.data;
        let mut s = String::new();
        for p in 0..self.st.nplayers {
            let cs: Vec<String> = d
                .counters
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    self.st.counter(p, *i as u16) != 0
                        && match c.visible {
                            Visibility::Public => true,
                            Visibility::Owner => viewer.is_none_or(|v| v == p),
                            Visibility::Hidden => viewer.is_none(),
                        }
                })
                .map(|(i, c)| format!("{}={}", c.name, self.st.counter(p, i as u16)))
                .collect();
            let lost = if self.st.lost[p as usize] {
                " (lost)"
            } else {
                ""
            };
            s += &format!("{}{lost}: {}\n", pname(p), cs.join(" "));
        }
        for (inst, r) in self.st.inst_ref.iter().enumerate() {
            let z = ZoneRef {
                zone: r.zone,
                owner: r.owner,
            };
            let zi = &self.st.zones[inst];
            if self.st.size(z) == 0 {
                continue;
            }
            let name = |c: &u32| d.defs[self.st.objs[*c as usize].def as usize].id.clone();
            let see = sees_contents(d, z, viewer);
            let body = if see && !zi.piles.is_empty() {
                zi.piles
                    .iter()
                    .map(|(def, p)| format!("{}×{}", d.defs[*def as usize].id, p.len()))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else if see {
                zi.cards
                    .iter()
                    .rev()
                    .map(name)
                    .collect::<Vec<_>>()
                    .join(", ")
            } else if sees_size(d, z, viewer) {
                count(self.st.size(z))
            } else {
                continue;
            };
            s += &format!("  {}: {body}\n", zone_label(d, z));
        }
        if let Some(b) = self.board_line() {
            s += &format!("  {b}\n");
        }
        s
    }
}
