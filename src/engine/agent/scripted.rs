//! Scripted answers (scenarios): each answer names options by key, label,
//! yes/no or `#index`; commas separate several picks.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::Agent;
use crate::engine::log::{Entry, pname};
use crate::engine::request::{Picks, Request};
use crate::engine::{Flow, Game, Res};

/// The answers of a scenario, shared by every scripted seat: each takes the
/// next one when asked, so they are written in the order the game asks.
#[derive(Clone, Default)]
pub struct Script(Arc<Mutex<VecDeque<String>>>);

impl Script {
    pub fn new(answers: impl IntoIterator<Item = String>) -> Script {
        Script(Arc::new(Mutex::new(answers.into_iter().collect())))
    }

    /// Answers not asked for yet.
    pub fn left(&self) -> usize {
        self.queue().len()
    }

    /// The next answer, left in place.
    pub fn peek(&self) -> Option<String> {
        self.queue().front().cloned()
    }

    fn next(&self) -> Option<String> {
        self.queue().pop_front()
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<String>> {
        // A panic elsewhere leaves the answers as they were.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Whether an answer's part names an option (by its label or key, whole or
/// as their last words: `omiki` names `play omiki`).
pub fn names(label: &str, key: &str, part: &str) -> bool {
    let ends = |s: &str| {
        s.strip_suffix(part)
            .is_some_and(|head| head.ends_with(' ') && !part.is_empty())
    };
    label == part || key == part || ends(label) || ends(key)
}

/// The options an answer picks, given each option's label and key: an
/// answer naming one option whole may contain commas; otherwise commas
/// separate several picks. A part names an option by its label or key
/// ([`names`]), or by index: `#2`, or `#2 buy moriya` (index 2, which must
/// be that option: two options with one label told apart). `Err` is the
/// first part that names no option left.
pub fn pick(texts: &[(String, String)], answer: &str) -> Result<Picks, String> {
    let whole = texts.iter().any(|(l, k)| *l == answer || *k == answer);
    let parts: Vec<&str> = if answer.trim().is_empty() {
        Vec::new()
    } else if whole {
        vec![answer]
    } else {
        answer.split(',').map(str::trim).collect()
    };
    let mut out = Picks::new();
    for part in parts {
        let found = (0..texts.len())
            .filter(|i| !out.contains(i))
            .find(|&i| names(&texts[i].0, &texts[i].1, part))
            .or_else(|| index(texts, part));
        match found {
            Some(i) => out.push(i),
            None => return Err(part.to_string()),
        }
    }
    Ok(out)
}

/// `#N` or `#N name`: the option at index N (from 0), named so if a name follows.
pub fn index(texts: &[(String, String)], part: &str) -> Option<usize> {
    let rest = part.strip_prefix('#')?;
    let (n, name) = rest.split_once(' ').unwrap_or((rest, ""));
    let i = n.parse::<usize>().ok().filter(|&i| i < texts.len())?;
    let name = name.trim();
    (name.is_empty() || names(&texts[i].0, &texts[i].1, name)).then_some(i)
}

/// A seat answered from a [`Script`].
#[derive(Clone, Default)]
pub struct Scripted(pub Script);

impl Agent for Scripted {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        let (player, prompt) = (req.player, req.prompt);
        let Some(answer) = self.0.next() else {
            g.push(Entry::Text {
                text: format!(
                    "(no scripted answer for {} — {prompt}; the scenario stops here)",
                    pname(player)
                ),
            });
            return Err(Flow::OutOfDecisions.into());
        };
        let texts: Vec<(String, String)> = (req.options.iter())
            .map(|o| (o.label(g), o.key(g)))
            .collect();
        let out = match pick(&texts, &answer) {
            Ok(out) => out,
            Err(part) => {
                let list = (texts.iter())
                    .map(|(l, k)| match l == k {
                        true => k.clone(),
                        false => format!("{k} ({l})"),
                    })
                    .collect::<Vec<_>>()
                    .join(" | ");
                return g.err(
                    Default::default(),
                    format!(
                        "scripted answer \"{part}\" matches no option of {} ({prompt}); options: {list}",
                        pname(player)
                    ),
                );
            }
        };
        if out.len() < req.min || out.len() > req.max {
            return g.err(
                Default::default(),
                format!(
                    "scripted answer \"{answer}\" picks {} option(s); {prompt} needs {} to {}",
                    out.len(),
                    req.min,
                    req.max
                ),
            );
        }
        Ok(out)
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}
