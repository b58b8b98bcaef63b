//! What the table sends: a seat's message, built only from the kernel's view
//! for that seat (zones, counters), its transcript as that seat may read
//! it, the board (public) and the request it is asked; and the debug
//! message, the whole state, for the table's owner.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::{Value as Json, json};

use crate::data::Data;
use crate::engine::log::{Entry, render_spans, sees_contents, zone_label};
use crate::engine::{Game, Kind, Request};
use crate::value::{PlayerId, Value, ZoneRef};

/// A transcript as one viewer may read it: (kind, line) pairs.
pub type Log = Arc<Vec<(&'static str, Arc<str>)>>;

/// One viewer's transcript, rendered as the game goes: each time only from
/// the last line on (a line may still grow: five draws in a row are one).
#[derive(Default)]
pub struct Transcript {
    lines: Vec<(&'static str, Arc<str>, Range<usize>)>,
}

impl Transcript {
    pub fn update(&mut self, data: &Data, log: &[Entry], viewer: Option<PlayerId>) -> Log {
        let mut from = self.lines.pop().map_or(0, |l| l.2.start);
        if from > log.len() {
            self.lines.clear();
            from = 0;
        }
        for (k, line, r) in render_spans(data, &log[from..], viewer) {
            self.lines
                .push((k, Arc::from(line), r.start + from..r.end + from));
        }
        Arc::new(self.lines.iter().map(|(k, l, _)| (*k, l.clone())).collect())
    }
}

/// What a connection is sent: the message, and the transcript, of which
/// only the lines it has not had yet go out.
pub struct Sent {
    pub head: Json,
    pub log: Log,
}

impl Sent {
    /// The message for a connection that was sent `before`: `log_from`
    /// says how many of its lines stand.
    pub fn text(&self, before: &Log) -> String {
        let k = (before.iter().zip(self.log.iter()))
            .take_while(|(a, b)| a.0 == b.0 && (Arc::ptr_eq(&a.1, &b.1) || a.1 == b.1))
            .count();
        let mut head = self.head.clone();
        if let Json::Object(o) = &mut head {
            o.insert("log_from".into(), json!(k));
            let lines = self.log[k..].iter().map(|(kind, l)| json!([kind, &**l]));
            o.insert("log".into(), Json::Array(lines.collect()));
        }
        head.to_string()
    }
}

/// A card definition as the table shows it: name, properties that differ
/// from their defaults (a cost, a strength), subtitle and text.
pub fn card(data: &Data, def: usize) -> Json {
    let d = &data.defs[def];
    let props: Vec<(String, i64)> = (data.names.props.iter().zip(&d.props))
        .zip(&data.prop_defaults)
        .filter(|((_, v), dflt)| v != dflt)
        .map(|((n, v), _)| (n.clone(), *v))
        .collect();
    json!({ "id": d.id, "name": d.name, "subtitle": d.subtitle, "text": d.text, "props": props })
}

/// The definitions by display name (the kernel's view names cards so).
fn by_name(data: &Data) -> HashMap<&str, usize> {
    let mut m = HashMap::new();
    for (i, d) in data.defs.iter().enumerate() {
        m.entry(d.name.as_str()).or_insert(i);
    }
    m
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Pick => "pick",
        Kind::Option => "option",
        Kind::Order => "order",
        Kind::YesNo => "yesno",
        Kind::Window(_) => "window",
    }
}

/// The request as its decider reads it: a card it may not see is only
/// "a face-down card", with no card details.
pub fn request(g: &Game, req: &Request) -> Json {
    let options: Vec<Json> = (req.options.iter())
        .map(|o| {
            let label = o.label_for(g, req.player);
            let def = match &o.value {
                Value::Card(c) if label == o.label(g) => Some(g.st.objs[*c as usize].def),
                Value::Def(d) => Some(*d),
                _ => None,
            };
            json!({ "label": label, "card": def.map(|d| card(&g.data, d as usize)) })
        })
        .collect();
    json!({
        "seat": req.player + 1,
        "prompt": req.prompt,
        "name": req.name,
        "kind": kind(req.kind),
        "min": req.min,
        "max": req.max,
        "options": options,
    })
}

/// The board, public to all: squares in track order with their
/// properties, and the pieces on them.
pub fn board(g: &Game) -> Json {
    let b = &g.st.board;
    let names = &g.data.names.square_props;
    let squares: Vec<Json> = (b.track.iter())
        .map(|&s| {
            let decl = &g.data.board.squares[s as usize];
            let props: Vec<(String, String)> = (0..b.nprops)
                .filter_map(|p| {
                    let v = b.prop(s as usize, p);
                    (!matches!(v, Value::None)).then(|| (names[p].clone(), g.show_square_value(v)))
                })
                .collect();
            let pieces: Vec<usize> = (0..b.pieces.len())
                .filter(|&p| b.pieces[p] == s && !g.st.lost[p])
                .map(|p| p + 1)
                .collect();
            json!({
                "square": s, "name": decl.name, "kind": decl.kind.as_str(),
                "section": decl.section, "props": props, "pieces": pieces,
            })
        })
        .collect();
    Json::Array(squares)
}

/// Seat `me`'s message: its view, its transcript, the board, and its
/// request if it is the one asked.
pub fn seat(g: &Game, me: PlayerId, req: Option<&Request>) -> Json {
    let data = &g.data;
    let v = g.view(me);
    let names = by_name(data);
    let cards = |list: &[String]| -> Vec<Json> {
        list.iter()
            .map(|n| match names.get(n.as_str()) {
                Some(&d) => card(data, d),
                None => json!({ "name": n }),
            })
            .collect()
    };
    let zones: Vec<Json> = (v.zones.iter())
        .map(|z| {
            json!({
                "zone": z.zone,
                "size": z.size,
                "cards": z.cards.as_deref().map(|list| {
                    let mut shown = cards(list);
                    // A card's state (the rules' `shown:`) beside its details.
                    for (c, s) in shown.iter_mut().zip(z.states.iter().flatten()) {
                        if !s.is_empty() {
                            c["state"] = json!(s);
                        }
                    }
                    // The card it is attached to, as this seat sees it.
                    for (c, h) in shown.iter_mut().zip(z.hosts.iter().flatten()) {
                        if let Some(h) = h {
                            c["host"] = json!(h.label(&z.zone));
                        }
                    }
                    shown
                }),
                "top": z.top.as_ref().map(|t| cards(std::slice::from_ref(t))),
                "piles": z.piles.as_ref().map(|ps| ps.iter().map(|(id, n)| {
                    let d = data.names.def_index.get(id).map(|&d| card(data, d as usize));
                    json!({ "card": d, "count": n })
                }).collect::<Vec<_>>()),
            })
        })
        .collect();
    let mine = req.filter(|r| r.player == me);
    json!({
        "type": "seat",
        "seat": me + 1,
        "players": g.st.nplayers,
        "game": data.game,
        "title": data.title,
        "active": v.active,
        "turn": v.turn,
        "phase": v.phase,
        "counters": v.counters,
        "zones": zones,
        "board": if data.board.squares.is_empty() { Json::Null } else { board(g) },
        "waiting": req.map(|r| r.player + 1),
        "request": mine.map(|r| request(g, r)),
    })
}

/// The whole state, for the debug panel: every zone's cards with who may
/// see them, every counter, the RNG's position and the full transcript.
pub fn debug(g: &Game) -> Json {
    let data = &g.data;
    let n = g.st.nplayers;
    let zones: Vec<Json> = (g.st.inst_ref.iter().enumerate())
        .map(|(i, r)| {
            let z = ZoneRef {
                zone: r.zone,
                owner: r.owner,
            };
            let visible: Vec<u8> = (0..n)
                .filter(|&p| sees_contents(data, z, Some(p)))
                .map(|p| p + 1)
                .collect();
            let cards: Vec<Json> = (g.st.zones[i].cards.iter().rev())
                .map(|&c| {
                    let o = &g.st.objs[c as usize];
                    let seen: Vec<u8> = (0..n.min(8))
                        .filter(|p| o.seen & (1 << p) != 0)
                        .map(|p| p + 1)
                        .collect();
                    json!({ "name": data.defs[o.def as usize].name, "id": data.defs[o.def as usize].id, "seen": seen })
                })
                .collect();
            let piles: Vec<(String, usize)> = (g.st.zones[i].piles.iter())
                .map(|(d, p)| (data.defs[*d as usize].name.clone(), p.len()))
                .collect();
            json!({ "zone": zone_label(data, z), "visible": visible, "cards": cards, "piles": piles })
        })
        .collect();
    json!({
        "type": "debug",
        "state": g.dump(None),
        "zones": zones,
        "rng": g.st.rng.get_word_pos().to_string(),
        "seed": g.seed,
    })
}
