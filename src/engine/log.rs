//! The transcript: what happened, stored as facts and rendered per viewer, so a
//! player's view shows only what that player may see.

use crate::data::{Data, Visibility};
use crate::value::{DefId, PlayerId, ZoneRef};

#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Turn {
        turn: u32,
        player: PlayerId,
    },
    Phase {
        phase: u16,
        start: bool,
    },
    Window {
        window: u16,
        open: bool,
    },
    Move {
        cause: Option<u16>,
        player: Option<PlayerId>,
        cards: Vec<DefId>,
        from: ZoneRef,
        to: ZoneRef,
    },
    Created {
        def: DefId,
        n: usize,
        to: ZoneRef,
    },
    Shuffle {
        zone: ZoneRef,
        size: usize,
    },
    Counter {
        player: PlayerId,
        counter: u16,
        old: i64,
        new: i64,
    },
    Global {
        counter: u16,
        old: i64,
        new: i64,
    },
    Show {
        player: PlayerId,
        cards: Vec<DefId>,
        private: bool,
    },
    Event {
        name: u16,
        player: Option<PlayerId>,
        card: Option<DefId>,
        visible: bool,
    },
    Choice {
        player: PlayerId,
        prompt: String,
        label: String,
        public: bool,
    },
    Pass {
        player: PlayerId,
    },
    Trigger {
        player: PlayerId,
        def: Option<DefId>,
        prompt: String,
    },
    Prevented {
        name: u16,
        card: Option<DefId>,
    },
    Stack {
        player: PlayerId,
        def: DefId,
        push: bool,
    },
    Modify {
        def: DefId,
        prop: u16,
        delta: i64,
    },
    Lose {
        player: PlayerId,
    },
    Text {
        text: String,
    },
}

pub fn pname(p: PlayerId) -> String {
    format!("P{}", p + 1)
}

fn sees(
    data: &Data,
    vis: Visibility,
    owner: PlayerId,
    shared: bool,
    viewer: Option<PlayerId>,
) -> bool {
    match (vis, viewer) {
        (_, None) => true,
        (Visibility::Public, _) => true,
        (Visibility::Owner, Some(v)) => !shared && v == owner,
        (Visibility::Hidden, _) => {
            let _ = data;
            false
        }
    }
}

/// Whether `viewer` (None: everyone, omniscient) sees the contents of a zone.
pub fn sees_contents(data: &Data, z: ZoneRef, viewer: Option<PlayerId>) -> bool {
    let d = &data.zones[z.zone as usize];
    sees(data, d.contents, z.owner, d.shared, viewer)
}

pub fn sees_size(data: &Data, z: ZoneRef, viewer: Option<PlayerId>) -> bool {
    let d = &data.zones[z.zone as usize];
    sees(data, d.size, z.owner, d.shared, viewer)
}

pub fn zone_label(data: &Data, z: ZoneRef) -> String {
    let d = &data.zones[z.zone as usize];
    if d.shared {
        d.name.clone()
    } else {
        format!("{}'s {}", pname(z.owner), d.name)
    }
}

fn names(data: &Data, cards: &[DefId], sep: &str) -> String {
    cards
        .iter()
        .map(|&d| data.def_name(d))
        .collect::<Vec<_>>()
        .join(sep)
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 card".into()
    } else {
        format!("{n} cards")
    }
}

/// A move's line. One entry with several cards is a simultaneous move (names
/// joined by " + "); a run of one-card moves folded together uses ", ".
fn move_line(
    data: &Data,
    viewer: Option<PlayerId>,
    (cause, player, from, to): (Option<u16>, Option<PlayerId>, ZoneRef, ZoneRef),
    cards: &[DefId],
    sep: &str,
) -> String {
    let who = player.map(pname).unwrap_or_else(|| "game".into());
    let verb = cause
        .map(|c| data.event_name(c).to_string())
        .unwrap_or_else(|| "move".into());
    let route = format!("({} → {})", zone_label(data, from), zone_label(data, to));
    let sized = sees_size(data, from, viewer) || sees_size(data, to, viewer);
    let n = if sized {
        count(cards.len())
    } else {
        "cards".into()
    };
    let what = if sees_contents(data, from, viewer) || sees_contents(data, to, viewer) {
        names(data, cards, sep)
    } else if let (true, Some(&top)) = (data.zones[to.zone as usize].top, cards.last()) {
        format!("{n}, top: {}", data.def_name(top))
    } else {
        n
    };
    format!("{who} {verb} {what} {route}")
}

impl Entry {
    /// The line a viewer sees, or nothing. `None` viewer sees everything.
    pub fn render(&self, data: &Data, viewer: Option<PlayerId>) -> Option<String> {
        Some(match self {
            Entry::Turn { turn, player } => format!("== turn {turn}: {} ==", pname(*player)),
            Entry::Phase { phase, start } => {
                let name = &data.turn.phases[*phase as usize].name;
                if *start {
                    format!("-- {name} phase --")
                } else {
                    format!("-- end of {name} phase --")
                }
            }
            Entry::Window { window, open } => {
                let name = &data.windows[*window as usize].name;
                if *open {
                    format!("[{name} window opens]")
                } else {
                    format!("[{name} window closes]")
                }
            }
            Entry::Move {
                cause,
                player,
                cards,
                from,
                to,
            } => move_line(data, viewer, (*cause, *player, *from, *to), cards, " + "),
            Entry::Created { def, n, to } => {
                let what = if sees_contents(data, *to, viewer) {
                    format!("{n} × {}", data.def_name(*def))
                } else {
                    count(*n)
                };
                format!("setup: {what} into {}", zone_label(data, *to))
            }
            Entry::Shuffle { zone, size } => {
                if sees_size(data, *zone, viewer) {
                    format!("shuffle {} ({})", zone_label(data, *zone), count(*size))
                } else {
                    format!("shuffle {}", zone_label(data, *zone))
                }
            }
            Entry::Counter {
                player,
                counter,
                old,
                new,
            } => {
                let c = &data.counters[*counter as usize];
                if !sees(data, c.visible, *player, false, viewer) {
                    return None;
                }
                let d = new - old;
                let sign = if d >= 0 { "+" } else { "" };
                format!("{} {} {sign}{d} (= {new})", pname(*player), c.name)
            }
            Entry::Global { counter, old, new } => {
                let d = new - old;
                let sign = if d >= 0 { "+" } else { "" };
                format!(
                    "{} {sign}{d} (= {new})",
                    data.names.globals[*counter as usize]
                )
            }
            Entry::Show {
                player,
                cards,
                private,
            } => {
                if *private && viewer.is_some_and(|v| v != *player) {
                    format!("{} looks at {}", pname(*player), count(cards.len()))
                } else {
                    let verb = if *private { "looks at" } else { "reveals" };
                    format!("{} {verb} {}", pname(*player), names(data, cards, ", "))
                }
            }
            Entry::Event {
                name,
                player,
                card,
                visible,
            } => {
                let who = player.map(pname).unwrap_or_else(|| "game".into());
                match card {
                    Some(c) if *visible || viewer.is_none() => {
                        format!("{who} {} {}", data.event_name(*name), data.def_name(*c))
                    }
                    _ => format!("{who} {}", data.event_name(*name)),
                }
            }
            Entry::Choice {
                player,
                prompt,
                label,
                public,
            } => {
                if !public && viewer.is_some_and(|v| v != *player) {
                    return None;
                }
                format!("{} chooses {label} ({prompt})", pname(*player))
            }
            Entry::Pass { player } => format!("{} passes", pname(*player)),
            Entry::Trigger {
                player,
                def,
                prompt,
            } => match def {
                Some(d) => format!(
                    "{}'s {} triggers ({prompt})",
                    pname(*player),
                    data.def_name(*d)
                ),
                None => format!("rule triggers ({prompt})"),
            },
            Entry::Prevented { name, card } => match card {
                Some(c) => format!(
                    "{} of {} is prevented",
                    data.event_name(*name),
                    data.def_name(*c)
                ),
                None => format!("{} is prevented", data.event_name(*name)),
            },
            Entry::Stack { player, def, push } => {
                if *push {
                    format!(
                        "{} puts {} on the stack",
                        pname(*player),
                        data.def_name(*def)
                    )
                } else {
                    format!("{} resolves from the stack", data.def_name(*def))
                }
            }
            Entry::Modify { def, prop, delta } => {
                let sign = if *delta >= 0 { "+" } else { "" };
                format!(
                    "{} {} {sign}{delta}",
                    data.def_name(*def),
                    data.names.props[*prop as usize]
                )
            }
            Entry::Lose { player } => format!("{} loses", pname(*player)),
            Entry::Text { text } => text.clone(),
        })
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Turn { .. } => "turn",
            Entry::Phase { .. } => "phase",
            Entry::Window { .. } => "window",
            Entry::Move { .. } => "move",
            Entry::Created { .. } => "create",
            Entry::Shuffle { .. } => "shuffle",
            Entry::Counter { .. } | Entry::Global { .. } => "counter",
            Entry::Show { .. } => "show",
            Entry::Event { .. } => "event",
            Entry::Choice { .. } => "choice",
            Entry::Pass { .. } => "pass",
            Entry::Trigger { .. } => "trigger",
            Entry::Prevented { .. } => "prevented",
            Entry::Stack { .. } => "stack",
            Entry::Modify { .. } => "modify",
            Entry::Lose { .. } => "lose",
            Entry::Text { .. } => "text",
        }
    }
}

/// Renders a transcript for a viewer, folding runs of identical moves (five
/// draws in a row) into one line.
pub fn render_all(
    data: &Data,
    log: &[Entry],
    viewer: Option<PlayerId>,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < log.len() {
        // Fold a run of one-card moves alike (five draws in a row).
        if let Entry::Move {
            cause,
            player,
            cards,
            from,
            to,
        } = &log[i]
            && cards.len() == 1
        {
            let key = (*cause, *player, *from, *to);
            let mut all = cards.clone();
            let mut j = i + 1;
            while let Some(Entry::Move {
                cause: c2,
                player: p2,
                cards: k2,
                from: f2,
                to: t2,
            }) = log.get(j)
            {
                if k2.len() != 1 || (*c2, *p2, *f2, *t2) != key {
                    break;
                }
                all.extend(k2.iter().copied());
                j += 1;
            }
            out.push(("move", move_line(data, viewer, key, &all, ", ")));
            i = j;
            continue;
        }
        if let Some(line) = log[i].render(data, viewer) {
            out.push((log[i].kind(), line));
        }
        i += 1;
    }
    out
}
