//! What a scenario expects, checked where it says: conditions at named
//! points (after the Nth decision, a phase's start or end, the end), the
//! options a decision offered, and the game's result. The checks run inside
//! the game (a [`Watch`] and a wrapping [`Agent`]), so they see the state at
//! that moment; each failure keeps the place of its text in the scenario.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::data::Data;
use crate::engine::agent::{Scripted, index, names, pick};
use crate::engine::log::{Entry, pname};
use crate::engine::{Agent, Ended, Flow, Game, Outcome, Picks, Point, Request, Res, Watch};
use crate::lang::ir::Code;
use crate::value::PlayerId;

/// A place in the scenario file: byte offsets of the text it names.
pub type At = (u32, u32);

/// When a group of conditions is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Once `n` decisions were answered: as the next one is asked, or at
    /// the end if none is.
    After(usize),
    /// As a phase starts or ends: in turn `turn`, or the first time.
    Phase {
        phase: u16,
        start: bool,
        turn: Option<u32>,
    },
    /// Where the scenario ends.
    End,
}

/// One condition, with the left side of its comparison (to say what it was).
pub struct Check {
    pub text: String,
    pub code: Code,
    pub left: Option<(String, Code)>,
    pub at: At,
}

pub struct Group {
    pub when: When,
    /// The point in words: "after decision 2", "at the start of main".
    pub label: String,
    pub at: At,
    pub checks: Vec<Check>,
    /// The player the conditions read as `me` (`as: 2`).
    pub me: PlayerId,
    reached: bool,
}

impl Group {
    pub fn new(when: When, label: String, at: At, checks: Vec<Check>) -> Group {
        Group {
            when,
            label,
            at,
            checks,
            me: 0,
            reached: false,
        }
    }
}

/// Options a decision must, or must not, offer.
pub struct Offers {
    /// The decision, counted from 1.
    pub decision: usize,
    pub offered: Vec<(String, At)>,
    pub not_offered: Vec<(String, At)>,
    /// `options:`: the whole list, each option named once.
    pub exact: Option<(Vec<(String, At)>, At)>,
    /// `player:`: who must be asked (from 1).
    pub player: Option<(u8, At)>,
}

/// The result a scenario expects (each part optional).
#[derive(Default)]
pub struct Expected {
    pub at: At,
    pub winners: Option<(Vec<u8>, At)>,
    pub ended: Option<(String, At)>,
    pub turns: Option<(u32, At)>,
    pub scores: Option<(Vec<i64>, At)>,
}

pub struct Failure {
    pub at: At,
    pub message: String,
}

/// Every check of one scenario, and what failed so far.
#[derive(Default)]
pub struct Tester {
    pub groups: Vec<Group>,
    pub offers: Vec<Offers>,
    /// Decisions asked so far.
    pub asked: usize,
    /// Where each scripted answer is written.
    pub answers_at: Vec<At>,
    /// The decision that found no answer: its player, and the player and
    /// prompt in words.
    pub waiting: Option<(PlayerId, String)>,
    /// A scripted answer that matched no option (the scenario stopped there).
    pub wrong: Option<Failure>,
    pub failures: Vec<Failure>,
}

/// The tester, shared by the seats and the watch of one game.
#[derive(Clone, Default)]
pub struct Shared(pub Arc<Mutex<Tester>>);

impl Shared {
    pub fn lock(&self) -> MutexGuard<'_, Tester> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the tester taken out of its lock, so checks that run
    /// code never hold it.
    fn with<T>(&self, f: impl FnOnce(&mut Tester) -> T) -> T {
        let mut t = std::mem::take(&mut *self.lock());
        let r = f(&mut t);
        *self.lock() = t;
        r
    }
}

impl Tester {
    /// Checks the groups due at `when` (a phase point matches its turn, or
    /// the first time it comes when no turn is given).
    fn reach(&mut self, g: &mut Game, due: impl Fn(&When) -> bool) {
        for gr in self.groups.iter_mut().filter(|gr| !gr.reached) {
            if due(&gr.when) {
                gr.reached = true;
                for c in &gr.checks {
                    check(g, c, gr.me, &gr.label, &mut self.failures);
                }
            }
        }
    }

    /// A decision is asked: checks what is due, and what it must offer.
    /// Returns false if the next answer picks no option it offers (that
    /// failure is kept first; the scenario stops there).
    fn asked(&mut self, g: &mut Game, req: &Request, next: Option<&str>) -> bool {
        let n = self.asked;
        self.reach(g, |w| *w == When::After(n));
        self.asked += 1;
        let texts: Vec<(String, String)> = (req.options.iter())
            .map(|o| (o.label(g), o.key(g)))
            .collect();
        let names_one = |i: usize, part: &str| {
            names(&texts[i].0, &texts[i].1, part) || index(&texts, part) == Some(i)
        };
        let offers = |part: &str| (0..texts.len()).any(|i| names_one(i, part));
        let list = || {
            let keys: Vec<&str> = texts.iter().map(|(_, k)| k.as_str()).collect();
            keys.join(" | ")
        };
        let what = format!(
            "decision {} ({}: {})",
            self.asked,
            pname(req.player),
            req.prompt
        );
        for o in self.offers.iter().filter(|o| o.decision == self.asked) {
            if let Some((p, at)) = o.player
                && p != req.player + 1
            {
                self.failures.push(Failure {
                    at,
                    message: format!(
                        "expected decision {} to be P{p}'s; it is {what}",
                        self.asked
                    ),
                });
            }
            for (part, at) in &o.offered {
                if !offers(part) {
                    self.failures.push(Failure {
                        at: *at,
                        message: format!(
                            "expected {what} to offer `{part}`; it offered: {}",
                            list()
                        ),
                    });
                }
            }
            for (part, at) in &o.not_offered {
                if offers(part) {
                    self.failures.push(Failure {
                        at: *at,
                        message: format!(
                            "expected {what} not to offer `{part}`; it offered: {}",
                            list()
                        ),
                    });
                }
            }
            if let Some((parts, at)) = &o.exact {
                // Each part claims the first option it names not yet claimed.
                let mut claimed = vec![false; texts.len()];
                let mut missing = Vec::new();
                for (part, _) in parts {
                    match (0..texts.len()).find(|&i| !claimed[i] && names_one(i, part)) {
                        Some(i) => claimed[i] = true,
                        None => missing.push(format!("`{part}`")),
                    }
                }
                let extra: Vec<String> = (0..texts.len())
                    .filter(|&i| !claimed[i])
                    .map(|i| format!("`{}`", texts[i].1))
                    .collect();
                if !missing.is_empty() || !extra.is_empty() {
                    let mut why = Vec::new();
                    if !missing.is_empty() {
                        why.push(format!("not offered: {}", missing.join(", ")));
                    }
                    if !extra.is_empty() {
                        why.push(format!("offered but not listed: {}", extra.join(", ")));
                    }
                    self.failures.push(Failure {
                        at: *at,
                        message: format!(
                            "expected {what} to offer exactly the options listed ({}); it offered: {}",
                            why.join("; "),
                            list()
                        ),
                    });
                }
            }
        }
        let Some(answer) = next else {
            self.waiting = Some((req.player, format!("{}: {}", pname(req.player), req.prompt)));
            return true;
        };
        let at = self.answers_at.get(n).copied().unwrap_or_default();
        let problem = match pick(&texts, answer) {
            Ok(p) if p.len() < req.min || p.len() > req.max => format!(
                "scripted answer `{answer}` for {what} picks {} option(s); it takes {} to {}",
                p.len(),
                req.min,
                req.max
            ),
            Ok(_) => return true,
            Err(part) => {
                let cands = texts.iter().flat_map(|(l, k)| [l.as_str(), k.as_str()]);
                let closest = crate::suggest::suggest(&part, cands)
                    .map(|c| format!("; the closest is `{c}`"))
                    .unwrap_or_default();
                format!(
                    "scripted answer `{part}` matches no option of {what}; it offered: {}{closest}",
                    list()
                )
            }
        };
        self.wrong = Some(Failure {
            at,
            message: problem,
        });
        false
    }

    /// The scenario ended: checks what is due at the end, and names the
    /// points it never reached.
    pub fn end(&mut self, g: &mut Game) {
        let n = self.asked;
        self.reach(g, |w| {
            matches!(w, When::End) || matches!(w, When::After(k) if *k == n)
        });
        for gr in self.groups.iter().filter(|gr| !gr.reached) {
            let why = match gr.when {
                When::After(_) => format!("only {n} decision(s) were asked"),
                _ => "the scenario ended first".into(),
            };
            self.failures.push(Failure {
                at: gr.at,
                message: format!("the scenario never came to the point {}: {why}", gr.label),
            });
        }
        // Points are reported once.
        for gr in &mut self.groups {
            gr.reached = true;
        }
    }
}

/// Runs one condition; a failure says what was expected and what was found.
fn check(g: &mut Game, c: &Check, me: PlayerId, label: &str, out: &mut Vec<Failure>) {
    let found = match g.exec_code(&c.code, None, me, Vec::new()).map_err(|e| *e) {
        Ok(v) if v.truthy() => return,
        Ok(v) => match &c.left {
            Some((text, code)) => match g.exec_code(code, None, me, Vec::new()) {
                Ok(l) => format!("`{text}` is {}", g.show(&l)),
                Err(_) => format!("it is {}", g.show(&v)),
            },
            None => format!("it is {}", g.show(&v)),
        },
        Err(Flow::Error(e)) => format!("an error: {}", e.message),
        Err(f) => format!("{f:?}"),
    };
    out.push(Failure {
        at: c.at,
        message: format!("expected `{}` {label}; found {found}", c.text),
    });
}

/// A seat answering from the script, the tester looking at each decision
/// as it is asked.
#[derive(Clone)]
pub struct Asked {
    pub script: Scripted,
    pub tester: Shared,
}

impl Agent for Asked {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let next = self.script.0.peek();
        if !self.tester.with(|t| t.asked(g, req, next.as_deref())) {
            g.push(Entry::Text {
                text: format!(
                    "(scripted answer \"{}\" matches no option of {} — {}; the scenario stops here)",
                    next.unwrap_or_default(),
                    pname(req.player),
                    req.prompt
                ),
            });
            return Err(Flow::OutOfDecisions.into());
        }
        self.script.answer(g, req)
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

/// The tester told of phases starting and ending.
pub struct Phases(pub Shared);

impl Watch for Phases {
    fn at(&mut self, g: &mut Game, p: Point) -> Res<()> {
        let turn = g.st.turn;
        self.0.with(|t| {
            t.reach(g, |w| {
                matches!(*w, When::Phase { phase, start, turn: at }
                    if phase == p.phase && start == p.start && at.is_none_or(|a| a == turn))
            })
        });
        Ok(())
    }
}

/// The words a result's `ended:` takes (a game that ended).
pub const ENDED_WORDS: [&str; 3] = ["rule", "lost", "turn_limit"];

impl Expected {
    /// Compares the result with the game's outcome (none: it stopped).
    pub fn compare(&self, data: &Data, outcome: Option<&Outcome>, out: &mut Vec<Failure>) {
        let o = match outcome {
            Some(o) if o.ended != Ended::Unfinished => o,
            _ => {
                let why = match outcome {
                    Some(o) => format!("it ran out of turns after turn {}", o.turns),
                    None => "the scenario stopped first".into(),
                };
                out.push(Failure {
                    at: self.at,
                    message: format!("expected a result; the game did not end: {why}"),
                });
                return;
            }
        };
        if let Some((w, at)) = &self.winners {
            let found: Vec<u8> = o.winners.iter().map(|p| p + 1).collect();
            if *w != found {
                out.push(Failure {
                    at: *at,
                    message: format!("expected winner {}; found {}", players(w), players(&found)),
                });
            }
        }
        let rule = (o.rule)
            .and_then(|i| data.end_rules.get(i as usize))
            .map(|(n, _)| n.as_str());
        if let Some((e, at)) = &self.ended
            && e != o.ended.word()
            && Some(e.as_str()) != rule
        {
            out.push(Failure {
                at: *at,
                message: format!(
                    "expected the game ended by `{e}`; found `{}`",
                    rule.unwrap_or(o.ended.word())
                ),
            });
        }
        if let Some((n, at)) = self.turns
            && n != o.turns
        {
            out.push(Failure {
                at,
                message: format!("expected {n} turn(s); found {}", o.turns),
            });
        }
        if let Some((s, at)) = &self.scores
            && *s != o.scores
        {
            out.push(Failure {
                at: *at,
                message: format!("expected scores {s:?}; found {:?}", o.scores),
            });
        }
    }
}

fn players(ps: &[u8]) -> String {
    let names: Vec<String> = ps.iter().map(|p| format!("P{p}")).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(" and ")
    }
}
