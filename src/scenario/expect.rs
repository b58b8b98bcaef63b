//! What a scenario expects, checked where it says: conditions at named
//! points (after the Nth decision, a phase's start or end, the end), the
//! options a decision offered, and the game's result. The checks run inside
//! the game (a [`Watch`] and a wrapping [`Agent`]), so they see the state at
//! that moment; each failure keeps the place of its text in the scenario.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::data::Data;
use crate::engine::agent::{Scripted, names};
use crate::engine::log::pname;
use crate::engine::{Agent, Ended, Flow, Game, Outcome, Picks, Point, Request, Res, Watch};
use crate::lang::ir::Code;

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
    reached: bool,
}

impl Group {
    pub fn new(when: When, label: String, at: At, checks: Vec<Check>) -> Group {
        Group {
            when,
            label,
            at,
            checks,
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
}

/// The result a scenario expects (each part optional).
#[derive(Default)]
pub struct Expected {
    pub at: At,
    pub winners: Option<(Vec<u8>, At)>,
    pub ended: Option<(String, At)>,
    pub turns: Option<(u32, At)>,
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
    /// The decision that found no answer: its player and prompt.
    pub waiting: Option<String>,
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
                    check(g, c, &gr.label, &mut self.failures);
                }
            }
        }
    }

    fn asked(&mut self, g: &mut Game, req: &Request, left: usize) {
        let n = self.asked;
        self.reach(g, |w| *w == When::After(n));
        self.asked += 1;
        let texts: Vec<(String, String)> = (req.options.iter())
            .map(|o| (o.label(g), o.key(g)))
            .collect();
        let offers = |part: &str| texts.iter().any(|(l, k)| names(l, k, part));
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
        }
        if left == 0 {
            self.waiting = Some(format!("{}: {}", pname(req.player), req.prompt));
        }
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
fn check(g: &mut Game, c: &Check, label: &str, out: &mut Vec<Failure>) {
    let found = match g.exec_code(&c.code, None, 0, Vec::new()).map_err(|e| *e) {
        Ok(v) if v.truthy() => return,
        Ok(v) => match &c.left {
            Some((text, code)) => match g.exec_code(code, None, 0, Vec::new()) {
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
        let left = self.script.0.left();
        self.tester.with(|t| t.asked(g, req, left));
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
