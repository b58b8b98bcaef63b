//! Decisions: every choice goes through [`Game::decide`], which asks the seat's
//! agent with the legal options. Agents: first, random, scripted, data bots, human.

use std::io::{BufRead, Write};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::log::Entry;
use super::state::below;
use super::{Flow, Game, Res};
use crate::data::Data;
use crate::value::{PlayerId, Value};

/// The indices an agent picked.
pub type Picks = smallvec::SmallVec<[usize; 4]>;

/// One option of a decision: a value, and the window move it makes if any.
/// Its text is built only when someone reads it (logs, scripts, people), so
/// bots deciding thousands of games a second never format strings.
#[derive(Debug, Clone)]
pub struct Choice {
    pub value: Value,
    pub mv: Option<u16>,
}

impl Choice {
    pub fn text(s: &str) -> Choice {
        Choice {
            value: Value::Str(std::sync::Arc::from(s)),
            mv: None,
        }
    }

    fn describe(&self, g: &Game, ids: bool) -> String {
        let v = match &self.value {
            Value::Card(c) => {
                let d = &g.data.defs[g.st.objs[*c as usize].def as usize];
                if ids { d.id.clone() } else { d.name.clone() }
            }
            Value::Def(d) => {
                let d = &g.data.defs[*d as usize];
                if ids { d.id.clone() } else { d.name.clone() }
            }
            Value::None => String::new(),
            other => g.show(other),
        };
        match self.mv {
            Some(m) if v.is_empty() => g.data.moves[m as usize].label.clone(),
            Some(m) => format!("{} {v}", g.data.moves[m as usize].label),
            None => v,
        }
    }

    /// What a person reads (display names).
    pub fn label(&self, g: &Game) -> String {
        self.describe(g, false)
    }

    /// What a script writes (card ids).
    pub fn key(&self, g: &Game) -> String {
        self.describe(g, true)
    }
}

#[derive(Clone)]
pub enum AgentKind {
    First,
    Random(Box<ChaCha8Rng>),
    Scripted,
    /// A bot written as data in the rules, by index.
    Bot(usize),
    Human,
    /// Replays recorded decisions (a saved game).
    Replay,
}

impl AgentKind {
    /// Parses an agent name: first, random, scripted, human, or a rules bot.
    pub fn parse(name: &str, data: &crate::data::Data) -> Option<AgentKind> {
        Some(match name {
            "first" => AgentKind::First,
            "random" => AgentKind::Random(Box::new(ChaCha8Rng::seed_from_u64(0))),
            "scripted" => AgentKind::Scripted,
            "human" => AgentKind::Human,
            other => AgentKind::Bot(data.bot(other)?),
        })
    }

    /// Random agents get their own stream, derived from the game seed and seat.
    pub fn seed(&mut self, seed: u64, seat: usize) {
        if let AgentKind::Random(rng) = self {
            **rng = ChaCha8Rng::seed_from_u64(
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seat as u64 + 1),
            );
        }
    }
}

impl Game {
    /// Asks `player` to pick between `min` and `max` options.
    #[allow(clippy::too_many_arguments)]
    pub fn decide(
        &mut self,
        player: PlayerId,
        kind: &str,
        prompt: &str,
        options: &[Choice],
        min: usize,
        max: usize,
        public: bool,
    ) -> Res<Picks> {
        let data = self.data.clone();
        self.decide_in(&data, player, kind, prompt, options, min, max, public)
    }

    /// [`Game::decide`] for a caller that holds the game data.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn decide_in(
        &mut self,
        data: &Data,
        player: PlayerId,
        kind: &str,
        prompt: &str,
        options: &[Choice],
        min: usize,
        max: usize,
        public: bool,
    ) -> Res<Picks> {
        let n = options.len();
        let (min, max) = (min.min(n), max.min(n));
        let picked: Picks = match &mut self.agents[player as usize] {
            AgentKind::First => (0..min.max(1).min(max)).collect(),
            AgentKind::Random(rng) => {
                let k = min + below(&mut **rng, max - min + 1);
                let mut pool: Picks = (0..n).collect();
                let mut out: Picks = (0..k)
                    .map(|_| pool.remove(below(&mut **rng, pool.len())))
                    .collect();
                out.sort_unstable();
                out
            }
            AgentKind::Scripted => self
                .scripted(player, prompt, options, min, max)?
                .into_iter()
                .collect(),
            AgentKind::Bot(b) => {
                let b = *b;
                self.bot_decide(data, b, player, kind, options, min, max)?
            }
            AgentKind::Replay => self.replayed(player, prompt, n, min, max)?,
            AgentKind::Human => human(self, player, prompt, options, min, max)
                .into_iter()
                .collect(),
        };
        // Window moves speak for themselves (the move's own events are logged).
        if self.logging && !public {
            let label = if picked.is_empty() {
                "nothing".to_string()
            } else {
                picked
                    .iter()
                    .map(|&i| options[i].label(self))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            self.push(Entry::Choice {
                player,
                prompt: prompt.to_string(),
                label,
                public,
            });
        }
        self.decisions.push(picked.len() as u32);
        self.decisions.extend(picked.iter().map(|&i| i as u32));
        Ok(picked)
    }

    /// The next recorded decision; it must fit this decision's options.
    fn replayed(
        &mut self,
        player: PlayerId,
        prompt: &str,
        n: usize,
        min: usize,
        max: usize,
    ) -> Res<Picks> {
        let Some(k) = self.replay.pop_front() else {
            return Err(Flow::OutOfDecisions);
        };
        let mut picks = Picks::new();
        for _ in 0..k {
            match self.replay.pop_front() {
                Some(i) if (i as usize) < n => picks.push(i as usize),
                _ => {
                    return self.err(
                        Default::default(),
                        format!(
                            "the replay diverged at {} — {prompt}: recorded options do not fit",
                            super::log::pname(player)
                        ),
                    );
                }
            }
        }
        if picks.len() < min || picks.len() > max {
            return self.err(
                Default::default(),
                format!(
                    "the replay diverged at {} — {prompt}",
                    super::log::pname(player)
                ),
            );
        }
        Ok(picks)
    }

    fn scripted(
        &mut self,
        player: PlayerId,
        prompt: &str,
        options: &[Choice],
        min: usize,
        max: usize,
    ) -> Res<Vec<usize>> {
        let Some(answer) = self.script.pop_front() else {
            self.push(Entry::Text {
                text: format!(
                    "(no scripted answer for {} — {prompt}; the scenario stops here)",
                    super::log::pname(player)
                ),
            });
            return Err(Flow::OutOfDecisions);
        };
        let mut out = Vec::new();
        // An answer naming one option whole may contain commas; otherwise
        // commas separate several picks.
        let whole = options
            .iter()
            .any(|o| o.label(self) == answer || o.key(self) == answer);
        let parts: Vec<&str> = if answer.trim().is_empty() {
            Vec::new()
        } else if whole {
            vec![answer.as_str()]
        } else {
            answer.split(',').map(str::trim).collect()
        };
        for part in parts {
            let texts: Vec<(String, String)> = options
                .iter()
                .map(|o| (o.label(self), o.key(self)))
                .collect();
            let found = (0..options.len()).filter(|i| !out.contains(i)).find(|&i| {
                let o = Labels {
                    label: &texts[i].0,
                    key: &texts[i].1,
                };
                o.label == part
                    || o.key == part
                    || o.label.ends_with(&format!(" {part}"))
                    || o.key.ends_with(&format!(" {part}"))
            });
            let found = found.or_else(|| {
                part.strip_prefix('#')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&i| i < options.len())
            });
            match found {
                Some(i) => out.push(i),
                None => {
                    let list = texts
                        .iter()
                        .map(|(_, k)| k.as_str())
                        .collect::<Vec<_>>()
                        .join(" | ");
                    return self.err(
                        Default::default(),
                        format!("scripted answer \"{part}\" matches no option of {} ({prompt}); options: {list}", super::log::pname(player)),
                    );
                }
            }
        }
        if out.len() < min || out.len() > max {
            return self.err(
                Default::default(),
                format!("scripted answer \"{answer}\" picks {} option(s); {prompt} needs {min} to {max}", out.len()),
            );
        }
        Ok(out)
    }

    /// A data bot: the first rule whose condition holds and which matches an
    /// option picks it; otherwise the first option (or nothing, if allowed).
    #[allow(clippy::too_many_arguments)]
    fn bot_decide(
        &mut self,
        data: &Data,
        b: usize,
        player: PlayerId,
        kind: &str,
        options: &[Choice],
        min: usize,
        max: usize,
    ) -> Res<Picks> {
        let saved = self.viewer.replace(player);
        let r = (|| {
            let mut out = Picks::new();
            for rule in &data.bots[b].1 {
                if rule.when.as_deref().is_some_and(|w| w != kind) {
                    continue;
                }
                // A condition that does not look at the option is checked once.
                let reads_it = rule.cond.as_ref().is_some_and(|c| c.reads_slot(0));
                if let Some(c) = rule.cond.as_ref().filter(|_| !reads_it)
                    && !self
                        .exec_in(data, c, None, player, [Value::None], None)?
                        .truthy()
                {
                    continue;
                }
                for (i, o) in options.iter().enumerate() {
                    if out.len() >= max || out.contains(&i) {
                        continue;
                    }
                    if let Some(c) = rule.cond.as_ref().filter(|_| reads_it)
                        && !self
                            .exec_in(data, c, None, player, [o.value.clone()], o.mv)?
                            .truthy()
                    {
                        continue;
                    }
                    let hit =
                        self.exec_in(data, &rule.choose, None, player, [o.value.clone()], o.mv)?;
                    let hit = match hit {
                        Value::Str(s) => match &o.value {
                            Value::Str(v) => s == *v,
                            _ => {
                                o.mv.is_some_and(|m| {
                                    s.starts_with(data.moves[m as usize].label.as_str())
                                }) && (*s == *o.key(self) || *s == *o.label(self))
                            }
                        },
                        v => v.truthy(),
                    };
                    if hit {
                        out.push(i);
                        if max == 1 {
                            return Ok(out);
                        }
                    }
                }
            }
            let mut i = 0;
            while out.len() < min {
                if !out.contains(&i) {
                    out.push(i);
                }
                i += 1;
            }
            Ok(out)
        })();
        self.viewer = saved;
        r
    }
}

fn human(
    game: &Game,
    player: PlayerId,
    prompt: &str,
    options: &[Choice],
    min: usize,
    max: usize,
) -> Vec<usize> {
    let view = game.view(player);
    let mut err = std::io::stderr();
    let _ = writeln!(err, "\n{}", view.render(&game.data));
    let _ = writeln!(
        err,
        "{} — {prompt} (choose {min} to {max}, numbers separated by spaces):",
        super::log::pname(player)
    );
    for (i, o) in options.iter().enumerate() {
        let _ = writeln!(err, "  {i}: {}", o.label(game));
    }
    let stdin = std::io::stdin();
    loop {
        let _ = write!(err, "> ");
        let _ = err.flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
            return (0..min).collect();
        }
        let picked: Option<Vec<usize>> = line
            .split_whitespace()
            .map(|t| t.parse().ok().filter(|&i| i < options.len()))
            .collect();
        if let Some(p) = picked
            && p.len() >= min
            && p.len() <= max
        {
            return p;
        }
        let _ = writeln!(err, "please enter {min} to {max} option numbers");
    }
}

struct Labels<'a> {
    label: &'a str,
    key: &'a str,
}
