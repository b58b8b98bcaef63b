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
        // An answer naming one option whole may contain commas; otherwise
        // commas separate several picks.
        let whole = texts.iter().any(|(l, k)| *l == answer || *k == answer);
        let parts: Vec<&str> = if answer.trim().is_empty() {
            Vec::new()
        } else if whole {
            vec![answer.as_str()]
        } else {
            answer.split(',').map(str::trim).collect()
        };
        let mut out = Picks::new();
        for part in parts {
            let found = (0..texts.len())
                .filter(|i| !out.contains(i))
                .find(|&i| names(&texts[i].0, &texts[i].1, part));
            let found = found.or_else(|| {
                part.strip_prefix('#')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&i| i < texts.len())
            });
            match found {
                Some(i) => out.push(i),
                None => {
                    // Each option as a script writes it, with the name shown
                    // in the transcript beside it.
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
            }
        }
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
