//! A transcript line's facts as structured fields (`--json`): who, what,
//! which cards (ids and names), from and to, amounts and the cause, so a tool
//! reads a game without parsing the prose. A viewer gets only what its line
//! shows: a card it may not see has no id or name.

use serde_json::{Map, Value, json};

use super::log::{Entry, Part, Place, sees_card, sees_contents, sees_size, zone_label};
use crate::data::{Data, Visibility};
use crate::value::{DefId, PlayerId, ZoneRef};

/// A card as the fields give it, or `null` for one the viewer may not see.
fn card(data: &Data, def: DefId, place: Place, viewer: Option<PlayerId>) -> Value {
    if sees_card(data, place, viewer) {
        json!({"id": data.def_id(def), "name": data.def_name(def)})
    } else {
        Value::Null
    }
}

fn player(p: PlayerId) -> Value {
    json!(p + 1)
}

fn zone(data: &Data, z: ZoneRef) -> Value {
    let d = &data.zones[z.zone as usize];
    let mut m = json!({"zone": d.name, "label": zone_label(data, z)});
    if !d.shared {
        m["owner"] = player(z.owner);
    }
    m
}

/// The fields of the line rendering `entries` (several for a folded run of
/// moves) for `viewer` (None: everything). The line's own `kind` and `text`
/// are the caller's.
pub fn facts(data: &Data, entries: &[Entry], viewer: Option<PlayerId>) -> Map<String, Value> {
    let mut m = Map::new();
    let Some(first) = entries.first() else {
        return m;
    };
    let mut put = |k: &str, v: Value| {
        m.insert(k.into(), v);
    };
    match first {
        Entry::Turn { turn, player: p } => {
            put("turn", json!(turn));
            put("player", player(*p));
        }
        Entry::Phase { phase, start } => {
            put("phase", json!(data.turn.phases[*phase as usize].name));
            put("start", json!(start));
        }
        Entry::Window { window, open } => {
            put("window", json!(data.windows[*window as usize].name));
            put("open", json!(open));
        }
        Entry::Move {
            cause,
            player: p,
            from,
            to,
            bottom,
            ..
        } => {
            let mut cards = Vec::new();
            for e in entries {
                if let Entry::Move { cards: cs, .. } = e {
                    cards.extend(cs.iter().copied());
                }
            }
            put("player", p.map_or(Value::Null, player));
            put(
                "cause",
                cause.map_or(Value::Null, |c| json!(data.event_name(c))),
            );
            put("from", zone(data, *from));
            put("to", zone(data, *to));
            if sees_size(data, *from, viewer) || sees_size(data, *to, viewer) {
                put("count", json!(cards.len()));
            }
            if sees_contents(data, *from, viewer) || sees_contents(data, *to, viewer) {
                let shown = cards.iter().map(|&d| card(data, d, Place::Open, viewer));
                put("cards", Value::Array(shown.collect()));
            } else if let (true, false, Some(&top)) =
                (data.zones[to.zone as usize].top, *bottom, cards.last())
            {
                put("top", card(data, top, Place::Open, viewer));
            }
            put("bottom", json!(bottom));
        }
        Entry::Created { def, n, to, setup } => {
            put("card", card(data, *def, Place::In(*to, false), viewer));
            put("count", json!(n));
            put("to", zone(data, *to));
            put("setup", json!(setup));
        }
        Entry::Shuffle { zone: z, size } => {
            put("zone", zone(data, *z));
            if sees_size(data, *z, viewer) {
                put("count", json!(size));
            }
        }
        Entry::Counter {
            player: p,
            counter,
            old,
            new,
        } => {
            let c = &data.counters[*counter as usize];
            put("player", player(*p));
            put("counter", json!(c.name));
            let hidden = match c.visible {
                Visibility::Public => false,
                Visibility::Owner => viewer.is_some_and(|v| v != *p),
                Visibility::Hidden => viewer.is_some(),
            };
            if !hidden {
                put("old", json!(old));
                put("new", json!(new));
                put("amount", json!(new - old));
            }
        }
        Entry::Global { counter, old, new } => {
            put("counter", json!(data.names.globals[*counter as usize]));
            put("old", json!(old));
            put("new", json!(new));
            put("amount", json!(new - old));
        }
        Entry::Show {
            player: p,
            cards,
            private,
        } => {
            let place = if *private { Place::By(*p) } else { Place::Open };
            put("player", player(*p));
            put("private", json!(private));
            put("count", json!(cards.len()));
            let shown = cards.iter().map(|&d| card(data, d, place, viewer));
            put("cards", Value::Array(shown.collect()));
        }
        Entry::Event {
            name,
            player: p,
            card: c,
        } => {
            put("event", json!(data.event_name(*name)));
            put("player", p.map_or(Value::Null, player));
            if let Some((d, place)) = c {
                put("card", card(data, *d, *place, viewer));
            }
        }
        Entry::Choice {
            player: p,
            prompt,
            label,
            ..
        } => {
            put("player", player(*p));
            put("prompt", json!(prompt));
            put("choice", json!(label));
        }
        Entry::Pass { player: p } | Entry::Lose { player: p } => put("player", player(*p)),
        Entry::Trigger {
            player: p,
            def,
            prompt,
        } => {
            put("player", player(*p));
            put("prompt", json!(prompt));
            if let Some((d, place)) = def {
                put("card", card(data, *d, *place, viewer));
            }
        }
        Entry::Prevented { name, card: c } => {
            put("event", json!(data.event_name(*name)));
            if let Some((d, place)) = c {
                put("card", card(data, *d, *place, viewer));
            }
        }
        Entry::Stack {
            player: p,
            def: (d, place),
            push,
        } => {
            put("player", player(*p));
            put("card", card(data, *d, *place, viewer));
            put("push", json!(push));
        }
        Entry::Modify {
            def: (d, place),
            prop,
            delta,
            ends,
        } => {
            put("card", card(data, *d, *place, viewer));
            put("property", json!(data.names.props[*prop as usize]));
            put("amount", json!(delta));
            put("ends", json!(ends));
        }
        Entry::Would {
            name,
            card: c,
            old,
            new,
        } => {
            put("event", json!(data.event_name(*name)));
            if let Some((d, place)) = c {
                put("card", card(data, *d, *place, viewer));
            }
            put("old", json!(old));
            put("new", json!(new));
            put("amount", json!(new - old));
        }
        Entry::Text { .. } => {}
        Entry::Said { parts } => {
            let named: Vec<Value> = (parts.iter())
                .filter_map(|p| match p {
                    Part::Card(d, place) => Some(card(data, *d, *place, viewer)),
                    Part::Text(_) => None,
                })
                .collect();
            if !named.is_empty() {
                put("cards", Value::Array(named));
            }
        }
    }
    m
}
