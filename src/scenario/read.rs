//! Reading what a scenario scripts and expects (`decisions:` with the
//! options each must offer, `expect:` at its points, `result:`) from the
//! YAML, each part located in the file for its errors and failures.

use serde_norway::Value as Yaml;

use super::expect::{At, Check, ENDED_WORDS, Expected, Group, Offers, When};
use crate::data::locate::code_origin;
use crate::data::{Data, DataError, Sources};
use crate::lang::compile::{Context, compile_expr};
use crate::suggest::{did_you_mean, suggest};

/// What a decision written as a map may say.
const DECISION_KEYS: [&str; 5] = ["answer", "offered", "not_offered", "options", "player"];

/// The scenario file being read, and where its errors go.
pub struct Reader<'a> {
    pub data: &'a Data,
    pub sources: &'a Sources,
    pub fid: u32,
    pub text: &'a str,
    pub errors: Vec<DataError>,
}

/// Scripted answers, where each is written, and what their decisions offer.
#[derive(Default)]
pub struct Decisions {
    pub answers: Vec<String>,
    pub at: Vec<At>,
    pub offers: Vec<Offers>,
}

impl Reader<'_> {
    /// Where a top-level key starts (0 if absent: errors then point at the
    /// file's start).
    pub fn key_at(&self, key: &str) -> usize {
        let line = format!("{key}:");
        if self.text.starts_with(&line) {
            return 0;
        }
        self.text.find(&format!("\n{line}")).map_or(0, |i| i + 1)
    }

    /// The next place `needle` is written at or after `cursor`, which moves
    /// past it (so repeated entries are found in turn).
    fn locate(&self, needle: &str, cursor: &mut usize) -> At {
        match (self.text.get(*cursor..)).and_then(|t| t.find(needle)) {
            Some(i) if !needle.is_empty() => {
                let a = *cursor + i;
                *cursor = a + needle.len();
                (a as u32, *cursor as u32)
            }
            _ => (*cursor as u32, *cursor as u32 + 1),
        }
    }

    fn error(&mut self, at: At, message: String, help: Option<String>) {
        let e = (self.sources).error(self.fid, at.0, at.1.max(at.0 + 1), message, help);
        self.errors.push(e);
    }

    pub fn decisions(&mut self, v: &Yaml) -> Decisions {
        let mut out = Decisions::default();
        let mut cursor = self.key_at("decisions");
        let items = match v {
            Yaml::Null => return out,
            Yaml::Sequence(s) => s,
            _ => {
                let at = self.locate("decisions", &mut cursor);
                self.error(at, "`decisions:` takes a list of answers".into(), None);
                return out;
            }
        };
        for item in items {
            let n = out.answers.len() + 1;
            let (answer, at) = match item {
                Yaml::Mapping(m) => {
                    let mut answer = None;
                    let mut offers = Offers {
                        decision: n,
                        offered: Vec::new(),
                        not_offered: Vec::new(),
                        exact: None,
                        player: None,
                    };
                    for (k, val) in m {
                        let key = k.as_str().unwrap_or("");
                        let at = self.locate(key, &mut cursor);
                        match key {
                            "answer" => match scalar(val) {
                                Some(a) => answer = Some((self.locate(&a, &mut cursor), a)),
                                None => self.error(at, "`answer:` takes one answer".into(), None),
                            },
                            "offered" | "not_offered" | "options" => {
                                let parts = self.strings(val, at, key, &mut cursor);
                                for (part, pat) in &parts {
                                    self.known_label(part, *pat);
                                }
                                match key {
                                    "offered" => offers.offered.extend(parts),
                                    "not_offered" => offers.not_offered.extend(parts),
                                    _ => offers.exact = Some((parts, at)),
                                }
                            }
                            "player" => match val.as_u64() {
                                Some(p) if (1..=self.data.players.1 as u64).contains(&p) => {
                                    offers.player = Some((p as u8, at))
                                }
                                _ => self.error(
                                    at,
                                    "`player:` takes the number of the player asked (1 for P1)"
                                        .into(),
                                    None,
                                ),
                            },
                            _ => self.error(
                                at,
                                format!("unknown key `{key}` in a decision"),
                                did_you_mean(suggest(key, DECISION_KEYS)),
                            ),
                        }
                    }
                    out.offers.push(offers);
                    match answer {
                        Some((at, a)) => (a, at),
                        None => {
                            let at = (cursor as u32, cursor as u32 + 1);
                            self.error(
                                at,
                                format!("decision {n} has no `answer:`"),
                                Some("write the answer: `answer: pass`".into()),
                            );
                            continue;
                        }
                    }
                }
                _ => match scalar(item) {
                    Some(a) => {
                        let at = self.locate(&a, &mut cursor);
                        (a, at)
                    }
                    None => {
                        let at = (cursor as u32, cursor as u32 + 1);
                        self.error(
                            at,
                            format!("decision {n} should be an answer, or `answer:` with `offered:`/`not_offered:`"),
                            None,
                        );
                        continue;
                    }
                },
            };
            out.answers.push(answer);
            out.at.push(at);
        }
        out
    }

    /// A string or a list of strings, each with its place.
    fn strings(&mut self, v: &Yaml, at: At, key: &str, cursor: &mut usize) -> Vec<(String, At)> {
        let items: Vec<&Yaml> = match v {
            Yaml::Sequence(s) => s.iter().collect(),
            other => vec![other],
        };
        let mut out = Vec::new();
        for item in items {
            match scalar(item) {
                Some(s) => {
                    let at = self.locate(&s, cursor);
                    out.push((s, at));
                }
                None => self.error(at, format!("`{key}:` takes text or a list of texts"), None),
            }
        }
        out
    }

    /// Reports an option name that no decision of this game could show: not
    /// `#N`, a number, pass/yes/no, a player, a card, a move (with a card),
    /// nor a text the game's files write (a choice's options).
    fn known_label(&mut self, part: &str, at: At) {
        let data = self.data;
        let mut p = part.trim();
        if let Some(rest) = p.strip_prefix('#') {
            let (n, name) = rest.split_once(' ').unwrap_or((rest, ""));
            if n.parse::<usize>().is_err() {
                self.error(
                    at,
                    format!("`{part}`: `#` takes an option's index (`#0`, `#2 buy moriya`)"),
                    None,
                );
                return;
            }
            p = name.trim();
        }
        let is_card =
            |s: &str| data.names.def(s).is_some() || data.defs.iter().any(|d| d.name == s);
        let player = |s: &str| {
            s.strip_prefix('P')
                .and_then(|n| n.parse::<u8>().ok())
                .is_some_and(|n| n >= 1 && n <= data.players.1)
        };
        let written = |s: &str| data.sources.files.iter().any(|(_, t)| t.contains(s));
        let after_move = data.moves.iter().find_map(|m| {
            p.strip_prefix(m.label.as_str())
                .and_then(|r| r.strip_prefix(' '))
                .map(|r| (m.label.as_str(), r))
        });
        let known = p.is_empty()
            || p.parse::<i64>().is_ok()
            || ["pass", "yes", "no"].contains(&p)
            || player(p)
            || is_card(p)
            || data.moves.iter().any(|m| m.label == p)
            || after_move.is_some_and(|(_, r)| is_card(r) || player(r))
            || written(p);
        if known {
            return;
        }
        let ids = data.defs.iter().map(|d| d.id.as_str());
        let help = match after_move {
            Some((label, rest)) => suggest(rest, ids).map(|c| format!("{label} {c}")),
            None => suggest(p, ids.chain(data.moves.iter().map(|m| m.label.as_str()))),
        };
        self.error(
            at,
            format!("no decision of {} could offer `{part}`: it names no card, move or option of the game", data.game),
            did_you_mean(help),
        );
    }

    /// `expect:`: conditions at the end, or groups at points.
    pub fn expect(&mut self, v: &Yaml) -> Vec<Group> {
        let mut cursor = self.key_at("expect");
        let items = match v {
            Yaml::Null => return Vec::new(),
            Yaml::Sequence(s) => s,
            _ => {
                let at = self.locate("expect", &mut cursor);
                self.error(at, "`expect:` takes a list of conditions".into(), None);
                return Vec::new();
            }
        };
        let mut groups = Vec::new();
        for item in items {
            match item {
                Yaml::String(e) => {
                    let (at, check) = self.check(e, &mut cursor);
                    let checks = check.into_iter().collect();
                    groups.push(Group::new(When::End, "at the end".into(), at, checks));
                }
                Yaml::Mapping(m) => {
                    if let Some(g) = self.point(m, &mut cursor) {
                        groups.push(g);
                    }
                }
                _ => {
                    let at = (cursor as u32, cursor as u32 + 1);
                    self.error(
                        at,
                        "an expectation is a condition, or `at:`/`after:` with `that:`".into(),
                        None,
                    );
                }
            }
        }
        groups
    }

    /// `{at: start of main, turn: 2, that: [...]}` or `{after: 3, that: …}`.
    fn point(&mut self, m: &serde_norway::Mapping, cursor: &mut usize) -> Option<Group> {
        let start = *cursor;
        let (mut when, mut label, mut turn, mut checks) = (None, String::new(), None, Vec::new());
        let mut me = None;
        let mut at = (start as u32, start as u32 + 1);
        for (k, val) in m {
            let key = k.as_str().unwrap_or("");
            let kat = self.locate(key, cursor);
            match key {
                "after" => match val.as_u64() {
                    Some(n) => {
                        when = Some(When::After(n as usize));
                        label = format!("after decision {n}");
                        at = kat;
                    }
                    None => self.error(kat, "`after:` takes a number of decisions".into(), None),
                },
                "at" => {
                    let point = scalar(val).unwrap_or_default();
                    let pat = self.locate(&point, cursor);
                    at = pat;
                    match self.phase_point(&point, pat) {
                        Some(w) => {
                            when = Some(w);
                            label = format!("at {}", words(&point));
                        }
                        None => return None,
                    }
                }
                "turn" => match val.as_u64() {
                    Some(n) => turn = Some((n as u32, kat)),
                    None => self.error(kat, "`turn:` takes a turn number".into(), None),
                },
                "as" => match val.as_u64() {
                    Some(p) if (1..=self.data.players.1 as u64).contains(&p) => me = Some(p as u8),
                    _ => self.error(
                        kat,
                        "`as:` takes the number of the player the conditions read as `me`".into(),
                        None,
                    ),
                },
                "that" => {
                    let items: Vec<&Yaml> = match val {
                        Yaml::Sequence(s) => s.iter().collect(),
                        other => vec![other],
                    };
                    for e in items {
                        match e.as_str() {
                            Some(e) => checks.extend(self.check(e, cursor).1),
                            None => self.error(kat, "`that:` takes conditions".into(), None),
                        }
                    }
                }
                _ => self.error(
                    kat,
                    format!("unknown key `{key}` in an expectation"),
                    did_you_mean(suggest(key, ["at", "after", "turn", "that", "as"])),
                ),
            }
        }
        let Some(mut when) = when else {
            self.error(
                at,
                "an expectation with `that:` needs its point: `at: start of <phase>`, `at: end of <phase>`, `at: end` or `after: <decisions>`".into(),
                None,
            );
            return None;
        };
        if let Some((n, tat)) = turn {
            match &mut when {
                When::Phase { turn, .. } => {
                    *turn = Some(n);
                    label += &format!(" of turn {n}");
                }
                _ => self.error(
                    tat,
                    "`turn:` goes with `at: start of <phase>` or `at: end of <phase>`".into(),
                    None,
                ),
            }
        }
        let mut g = Group::new(when, label, at, checks);
        if let Some(p) = me {
            g.label += &format!(" (as P{p})");
            g.me = p - 1;
        }
        Some(g)
    }

    /// `start of <phase>`, `end of <phase>` or `end`.
    fn phase_point(&mut self, point: &str, at: At) -> Option<When> {
        let point = point.trim();
        if point == "end" {
            return Some(When::End);
        }
        let (start, name) = match (
            point.strip_prefix("start of "),
            point.strip_prefix("end of "),
        ) {
            (Some(n), _) => (true, n.trim()),
            (_, Some(n)) => (false, n.trim()),
            _ => {
                self.error(
                    at,
                    format!("unknown point `{point}`"),
                    Some("write `start of <phase>`, `end of <phase>` or `end` (after N decisions: `after: N`)".into()),
                );
                return None;
            }
        };
        let phases = &self.data.turn.phases;
        match phases.iter().position(|p| p.name == name) {
            Some(i) => Some(When::Phase {
                phase: i as u16,
                start,
                turn: None,
            }),
            None => {
                let help = did_you_mean(suggest(name, phases.iter().map(|p| p.name.as_str())));
                self.error(at, format!("unknown phase \"{name}\""), help);
                None
            }
        }
    }

    /// Compiles one condition found at or after `cursor`.
    fn check(&mut self, e: &str, cursor: &mut usize) -> (At, Option<Check>) {
        let origin = code_origin(self.text, e, *cursor, self.fid);
        let (a, b) = (origin.map(0), origin.map(e.trim_end().len()));
        let at = (a, b.max(a + 1));
        *cursor = (at.1 as usize).min(self.text.len());
        let names = &self.data.names;
        let code = match compile_expr(e, names, &origin, &Context::default()) {
            Ok(c) => c,
            Err(ce) => {
                let err = (self.sources).error(self.fid, ce.start, ce.end, ce.message, ce.help);
                self.errors.push(err);
                return (at, None);
            }
        };
        // The left side is a prefix of the text: the same origin maps it.
        let left = left_side(e).and_then(|l| {
            let c = compile_expr(l, names, &origin, &Context::default()).ok()?;
            Some((l.trim().to_string(), c))
        });
        (
            at,
            Some(Check {
                text: e.trim().to_string(),
                code,
                left,
                at,
            }),
        )
    }

    /// `result: {winner: 1, ended: rule, turns: 3}`.
    pub fn result(&mut self, v: Option<&Yaml>) -> Option<Expected> {
        let v = v?;
        let mut cursor = self.key_at("result");
        let mut out = Expected {
            at: self.locate("result", &mut cursor),
            ..Default::default()
        };
        let Yaml::Mapping(m) = v else {
            self.error(
                out.at,
                "`result:` takes `winner:`, `ended:` and `turns:`".into(),
                None,
            );
            return None;
        };
        for (k, val) in m {
            let key = k.as_str().unwrap_or("");
            let at = self.locate(key, &mut cursor);
            match key {
                "winner" => {
                    let items: Vec<&Yaml> = match val {
                        Yaml::Sequence(s) => s.iter().collect(),
                        other => vec![other],
                    };
                    let ps: Option<Vec<u8>> = items
                        .iter()
                        .map(|p| p.as_u64().filter(|&p| p >= 1).map(|p| p as u8))
                        .collect();
                    match ps {
                        Some(ps) if !ps.is_empty() => out.winners = Some((ps, at)),
                        _ => self.error(
                            at,
                            "`winner:` takes a player number, or a list for a shared win".into(),
                            None,
                        ),
                    }
                }
                "ended" => {
                    let word = scalar(val).unwrap_or_default();
                    let wat = self.locate(&word, &mut cursor);
                    let rules = self.data.end_rules.iter().map(|(n, _)| n.as_str());
                    let known: Vec<&str> = ENDED_WORDS.into_iter().chain(rules).collect();
                    if known.contains(&word.as_str()) {
                        out.ended = Some((word, wat));
                    } else {
                        self.error(
                            wat,
                            format!("`ended:` takes {}, not `{word}`", known.join(", ")),
                            did_you_mean(suggest(&word, known.iter().copied())),
                        );
                    }
                }
                "turns" => match val.as_u64() {
                    Some(n) => out.turns = Some((n as u32, at)),
                    None => self.error(at, "`turns:` takes a number".into(), None),
                },
                "scores" => match val
                    .as_sequence()
                    .map(|s| s.iter().map(|v| v.as_i64()).collect::<Option<Vec<i64>>>())
                {
                    Some(Some(s)) => out.scores = Some((s, at)),
                    _ => self.error(
                        at,
                        "`scores:` takes each player's score, P1 first".into(),
                        None,
                    ),
                },
                _ => self.error(
                    at,
                    format!("unknown key `{key}` in `result:`"),
                    did_you_mean(suggest(key, ["winner", "ended", "turns", "scores"])),
                ),
            }
        }
        Some(out)
    }
}

/// A YAML scalar as an answer's text.
fn scalar(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `start of main` → `the start of main`, for messages.
fn words(point: &str) -> String {
    if point.trim() == "end" {
        "the end".into()
    } else {
        format!("the {}", point.trim())
    }
}

/// The left side of a condition that is one comparison (`count(hand) == 3` →
/// `count(hand)`), to show its value when the condition fails.
fn left_side(e: &str) -> Option<&str> {
    let b = e.as_bytes();
    let (mut depth, mut quoted) = (0i32, false);
    let mut found = None;
    for i in 0..b.len() {
        match b[i] {
            b'"' => quoted = !quoted,
            _ if quoted => {}
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' | b'!' | b'<' | b'>' if depth == 0 => {
                let two = b.get(i + 1) == Some(&b'=');
                let op = b[i] != b'=' && b[i] != b'!' || two;
                if op && found.is_none() {
                    found = Some(i);
                }
            }
            _ => {}
        }
    }
    let i = found?;
    let left = &e[..i];
    // One comparison only: `and`/`or` at the top make the left side no
    // value of its own.
    let joined = |w: &str| e.split_whitespace().any(|t| t == w);
    (!left.trim().is_empty() && !joined("and") && !joined("or")).then_some(left)
}
