//! The transcript: what happened, stored as facts and rendered per viewer, so a
//! player's view shows only what that player may see.

use crate::data::{Data, Visibility};
use crate::value::{DefId, PlayerId, ZoneRef};

/// Where a card an entry names was when the entry happened: who may read its
/// name follows from this and the zone's visibility rule, not from the kind of
/// line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Shown to everyone (revealed).
    Open,
    /// Shown to one player only (looked at).
    By(PlayerId),
    /// In a zone; `true` if it was the zone's top card.
    In(ZoneRef, bool),
}

/// A piece of a `log(...)` line: text, or a card named per viewer.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    Card(DefId, Place),
}

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
        /// The cards went under the destination's cards (none ends on top).
        bottom: bool,
    },
    Created {
        def: DefId,
        n: usize,
        to: ZoneRef,
        /// Made by the rules' setup (before the first turn), not during play:
        /// the line says which, so a card made mid-game does not read as setup.
        setup: bool,
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
        card: Option<(DefId, Place)>,
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
        def: Option<(DefId, Place)>,
        prompt: String,
    },
    Prevented {
        name: u16,
        card: Option<(DefId, Place)>,
    },
    Stack {
        player: PlayerId,
        def: (DefId, Place),
        push: bool,
    },
    Modify {
        def: (DefId, Place),
        prop: u16,
        delta: i64,
        /// A modifier that ends (its duration is over): `delta` undoes it.
        ends: bool,
    },
    /// A `would` ability changed an event's amount before it happened.
    Would {
        name: u16,
        card: Option<(DefId, Place)>,
        old: i64,
        new: i64,
    },
    Lose {
        player: PlayerId,
    },
    Text {
        text: String,
    },
    /// A line the rules or cards wrote (`log`), naming cards per viewer.
    Said {
        parts: Vec<Part>,
    },
}

pub fn pname(p: PlayerId) -> String {
    format!("P{}", p + 1)
}

/// The length of [`pname`], known without writing it (a log line measured,
/// not built).
pub fn pname_len(p: PlayerId) -> usize {
    2 + (u64::from(p) + 1).ilog10() as usize
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

/// Whether `viewer` may read the name of a card at `place`.
pub fn sees_card(data: &Data, place: Place, viewer: Option<PlayerId>) -> bool {
    match place {
        Place::Open => true,
        Place::By(p) => viewer.is_none_or(|v| v == p),
        Place::In(z, top) => {
            (top && data.zones[z.zone as usize].top) || sees_contents(data, z, viewer)
        }
    }
}

/// A card's name if `viewer` may read it, else `hidden` (what stands for it).
fn name_or<'a>(
    data: &'a Data,
    (def, place): (DefId, Place),
    viewer: Option<PlayerId>,
    hidden: &'a str,
) -> &'a str {
    if sees_card(data, place, viewer) {
        data.def_name(def)
    } else {
        hidden
    }
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

pub(crate) fn count(n: usize) -> String {
    if n == 1 {
        "1 card".into()
    } else {
        format!("{n} cards")
    }
}

/// What moves alike share (a run of them folds into one line).
type MoveKey = (Option<u16>, Option<PlayerId>, ZoneRef, ZoneRef, bool);

/// A move's line. One entry with several cards is a simultaneous move (names
/// joined by " + "); a run of one-card moves folded together uses ", ".
fn move_line(
    data: &Data,
    viewer: Option<PlayerId>,
    (cause, player, from, to, bottom): MoveKey,
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
    } else if let (true, false, Some(&top)) =
        (data.zones[to.zone as usize].top, bottom, cards.last())
    {
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
                bottom,
            } => move_line(
                data,
                viewer,
                (*cause, *player, *from, *to, *bottom),
                cards,
                " + ",
            ),
            Entry::Created { def, n, to, setup } => {
                let what = if sees_contents(data, *to, viewer) {
                    format!("{n} × {}", data.def_name(*def))
                } else {
                    count(*n)
                };
                let when = if *setup { "setup" } else { "create" };
                format!("{when}: {what} into {}", zone_label(data, *to))
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
            Entry::Event { name, player, card } => {
                let who = player.map(pname).unwrap_or_else(|| "game".into());
                match card {
                    Some(c) if sees_card(data, c.1, viewer) => {
                        format!("{who} {} {}", data.event_name(*name), data.def_name(c.0))
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
                    name_or(data, *d, viewer, "card")
                ),
                None => format!("rule triggers ({prompt})"),
            },
            Entry::Prevented { name, card } => match card {
                Some(c) if sees_card(data, c.1, viewer) => format!(
                    "{} of {} is prevented",
                    data.event_name(*name),
                    data.def_name(c.0)
                ),
                _ => format!("{} is prevented", data.event_name(*name)),
            },
            Entry::Stack { player, def, push } => {
                let name = name_or(data, *def, viewer, "a card");
                if *push {
                    format!("{} puts {name} on the stack", pname(*player))
                } else {
                    format!("{name} resolves from the stack")
                }
            }
            Entry::Modify {
                def,
                prop,
                delta,
                ends,
            } => {
                let sign = if *delta >= 0 { "+" } else { "" };
                let ended = if *ends {
                    format!(" (its {:+} ends)", -delta)
                } else {
                    String::new()
                };
                format!(
                    "{} {} {sign}{delta}{ended}",
                    name_or(data, *def, viewer, "a card"),
                    data.names.props[*prop as usize]
                )
            }
            Entry::Would {
                name,
                card,
                old,
                new,
            } => match card {
                Some(c) if sees_card(data, c.1, viewer) => format!(
                    "{} of {} {old} → {new}",
                    data.event_name(*name),
                    data.def_name(c.0)
                ),
                _ => format!("{} {old} → {new}", data.event_name(*name)),
            },
            Entry::Lose { player } => format!("{} loses", pname(*player)),
            Entry::Text { text } => text.clone(),
            Entry::Said { parts } => parts
                .iter()
                .map(|p| match p {
                    Part::Text(t) => t.as_str(),
                    Part::Card(d, place) => name_or(data, (*d, *place), viewer, "a card"),
                })
                .collect(),
        })
    }

    /// Calls `f` with each card the entry names and the places it was seen
    /// at (anyone who may see one of them may read its name): the facts a leak
    /// checker judges a rendered line by, whatever the renderer makes of them.
    pub fn each_named(&mut self, mut f: impl FnMut(&mut DefId, &[Place])) {
        match self {
            Entry::Move {
                cards,
                from,
                to,
                bottom,
                ..
            } => {
                let last = cards.len().saturating_sub(1);
                for (i, d) in cards.iter_mut().enumerate() {
                    f(
                        d,
                        &[
                            Place::In(*from, false),
                            Place::In(*to, i == last && !*bottom),
                        ],
                    );
                }
            }
            Entry::Created { def, to, .. } => f(def, &[Place::In(*to, false)]),
            Entry::Show {
                player,
                cards,
                private,
            } => {
                let place = if *private {
                    Place::By(*player)
                } else {
                    Place::Open
                };
                for d in cards {
                    f(d, &[place]);
                }
            }
            Entry::Event {
                card: Some((d, p)), ..
            }
            | Entry::Trigger {
                def: Some((d, p)), ..
            }
            | Entry::Prevented {
                card: Some((d, p)), ..
            }
            | Entry::Would {
                card: Some((d, p)), ..
            }
            | Entry::Stack { def: (d, p), .. }
            | Entry::Modify { def: (d, p), .. } => f(d, &[*p]),
            Entry::Said { parts } => {
                for part in parts {
                    if let Part::Card(d, p) = part {
                        f(d, &[*p]);
                    }
                }
            }
            _ => {}
        }
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
            Entry::Would { .. } => "would",
            Entry::Lose { .. } => "lose",
            Entry::Text { .. } | Entry::Said { .. } => "text",
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
    render_spans(data, log, viewer)
        .into_iter()
        .map(|(kind, line, _)| (kind, line))
        .collect()
}

/// [`render_all`], each line with the entries it renders (a leak checker
/// compares a line with what those entries name).
pub fn render_spans(
    data: &Data,
    log: &[Entry],
    viewer: Option<PlayerId>,
) -> Vec<(&'static str, String, std::ops::Range<usize>)> {
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
            bottom,
        } = &log[i]
            && cards.len() == 1
        {
            let key = (*cause, *player, *from, *to, *bottom);
            let mut all = cards.clone();
            let mut j = i + 1;
            while let Some(Entry::Move {
                cause: c2,
                player: p2,
                cards: k2,
                from: f2,
                to: t2,
                bottom: b2,
            }) = log.get(j)
            {
                if k2.len() != 1 || (*c2, *p2, *f2, *t2, *b2) != key {
                    break;
                }
                all.extend(k2.iter().copied());
                j += 1;
            }
            out.push(("move", move_line(data, viewer, key, &all, ", "), i..j));
            i = j;
            continue;
        }
        if let Some(line) = log[i].render(data, viewer) {
            out.push((log[i].kind(), line, i..i + 1));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn pname_len_is_the_names_length() {
        for p in 0..=254 {
            assert_eq!(super::pname_len(p), super::pname(p).len(), "P{}", p + 1);
        }
    }
}
