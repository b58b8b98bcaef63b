//! `fuda play`: a game at the terminal that a person can follow. Every
//! seat's moves are printed as they happen (each seat prints the
//! transcript's new lines, as the person may read them, before it answers);
//! a person's decision shows a short status and the options with their
//! cards' properties and text; besides option numbers the person may type
//! `help`, `state`, `undo`, `save FILE` and `quit`. Undo plays the game
//! again from its seed with the answers before the person's previous
//! decision: the other seats answer as they did (same seed, same answers).
//! End of input stops the game where it stands. At a terminal the lines
//! are edited ([`input`]).
//!
//! Hot seat: with several people at one terminal, each has their own
//! transcript (rendered for their seat, from where they last read it) and
//! their own undo; between two people the screen is cleared and the next
//! one presses Enter, so nothing of one person's hand stays on screen for
//! the next.

mod input;

use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::data::Data;
use crate::engine::log::{pname, render_spans};
use crate::engine::view::with_state;
use crate::engine::{Agent, Flow, Game, GameConfig, Outcome, Picks, Request, Res};
use crate::replay::Save;
use crate::value::{PlayerId, Value};
use input::{Input, MAX_LINE_BYTES};

const HELP: &str = "\
  numbers   the options to pick, separated by spaces (e.g. `0` or `2 0 1`)
  state     everything you can see: every zone and counter
  undo      back to your previous decision (the game is replayed up to it)
  save FILE write the game so far to FILE (`fuda replay FILE` reads it)
  quit, q   stop here (you are offered a save)
  help      this list";

/// Why the person stopped the game.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    Quit,
    Undo,
    EndOfInput,
}

/// What every seat of one game shares: who holds the terminal, how much of
/// the transcript each seat has read, and whether a person stopped.
struct Shared {
    /// The person at the terminal; none before the first handover.
    viewer: Option<PlayerId>,
    /// Per seat, how many transcript entries it has been shown.
    shown: Vec<usize>,
    /// Replaying after an undo: the transcript is passed over, not printed.
    quiet: bool,
    stop: Option<Stop>,
    /// Several people: the terminal is handed over between them.
    hot_seat: bool,
    /// Per seat, "human" or the agent's name: a save records them.
    agents: Vec<String>,
}

type Link = Arc<Mutex<Shared>>;

fn lock(l: &Link) -> MutexGuard<'_, Shared> {
    l.lock().unwrap_or_else(|e| e.into_inner())
}

/// Prints the transcript's lines the person at the terminal has not read,
/// as their seat reads them.
fn catch_up(g: &Game, s: &mut Shared) {
    let Some(viewer) = s.viewer else {
        return;
    };
    let seen = &mut s.shown[viewer as usize];
    let from = (*seen).min(g.log.len());
    if !s.quiet {
        for (_, line, _) in render_spans(&g.data, &g.log[from..], Some(viewer)) {
            crate::outln!("{line}");
        }
    }
    *seen = g.log.len();
}

/// Lines printed by the handover: enough to scroll a tall terminal's
/// screen away where clearing it is not understood.
const HANDOVER_LINES: usize = 60;

/// Hands the terminal to `to`: the screen is cleared (and scrolled away),
/// then `to` presses Enter. Why the game stops instead, if it does.
fn hand_over(to: PlayerId) -> Option<Stop> {
    // Our own escape (clear, cursor home), past the escaping of `outp!`,
    // and only to a terminal.
    let mut out = std::io::stdout();
    if out.is_terminal() {
        crate::out::note(out.write_all(b"\x1b[2J\x1b[H"));
    }
    crate::outp!("{}", "\n".repeat(HANDOVER_LINES));
    let prompt = format!(
        "-- pass the terminal to {}. {}, press Enter: ",
        pname(to),
        pname(to)
    );
    match input::read(&prompt) {
        Input::Line(_) => None,
        // Ctrl-C quits here as at an answer's prompt (offering a save).
        Input::Interrupt => Some(Stop::Quit),
        Input::End | Input::TooLong => Some(Stop::EndOfInput),
    }
}

/// A bot's seat: prints what happened before it answers.
struct Narrated {
    bot: Box<dyn Agent>,
    link: Link,
}

impl Agent for Narrated {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        catch_up(g, &mut lock(&self.link));
        self.bot.answer(g, req)
    }
    fn seat(&mut self, seed: u64, seat: usize) {
        self.bot.seat(seed, seat);
    }
    fn data_bot(&self) -> Option<usize> {
        self.bot.data_bot()
    }
    fn blind(&mut self, n: usize) -> Option<usize> {
        self.bot.blind(n)
    }
    fn blind_picks(&mut self, n: usize, min: usize, max: usize) -> Option<Picks> {
        self.bot.blind_picks(n, min, max)
    }
    fn forks(&self) -> bool {
        self.bot.forks()
    }
    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(Narrated {
            bot: self.bot.boxed(),
            link: self.link.clone(),
        })
    }
}

/// The person's seat: answers given before an undo first, then the terminal.
#[derive(Clone)]
struct Person {
    seat: PlayerId,
    prefix: VecDeque<Picks>,
    link: Link,
    /// Answers this seat has given in this game (replayed ones included).
    given: usize,
}

impl Agent for Person {
    fn answer(&mut self, g: &mut Game, req: &Request) -> Res<Picks> {
        if let Some(p) = self.prefix.pop_front() {
            self.given += 1;
            return Ok(p);
        }
        {
            let mut s = lock(&self.link);
            if s.quiet {
                // The replay before an undo was read already, by everyone.
                let at = g.log.len();
                s.shown.iter_mut().for_each(|n| *n = at);
                s.quiet = false;
            }
            if s.viewer != Some(self.seat) {
                if let Some(stop) = s.hot_seat.then(|| hand_over(self.seat)).flatten() {
                    drop(s);
                    return self.stop(stop);
                }
                s.viewer = Some(self.seat);
            }
            catch_up(g, &mut s);
        }
        show(g, req);
        loop {
            let line = match input::read("> ") {
                Input::Line(line) => line,
                Input::End => return self.stop(Stop::EndOfInput),
                Input::Interrupt => return self.stop(Stop::Quit),
                Input::TooLong => {
                    crate::errln!(
                        "an answer line longer than {MAX_LINE_BYTES} bytes: the game stops as at the end of input"
                    );
                    return self.stop(Stop::EndOfInput);
                }
            };
            let line = line.trim();
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            match word {
                "help" | "h" | "?" => crate::outln!("{HELP}"),
                "state" | "s" => crate::outln!("{}", req.view(g).render(req.data)),
                "quit" | "q" | "exit" => return self.stop(Stop::Quit),
                "undo" | "u" if self.given == 0 => {
                    crate::outln!("nothing to undo: this is your first decision")
                }
                "undo" | "u" => return self.stop(Stop::Undo),
                "save" if rest.trim().is_empty() => crate::outln!("save FILE: a file name"),
                "save" => save(g, Path::new(rest.trim()), &lock(&self.link).agents),
                _ => {
                    let picked: Option<Picks> =
                        line.split_whitespace().map(|t| t.parse().ok()).collect();
                    match picked {
                        Some(p) if req.fits(&p) => {
                            self.given += 1;
                            return Ok(p);
                        }
                        _ => crate::outln!(
                            "not an answer: choose {} of the option numbers above, or type help",
                            count(req.min, req.max)
                        ),
                    }
                }
            }
        }
    }

    fn boxed(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
}

impl Person {
    fn stop(&self, why: Stop) -> Res<Picks> {
        let mut s = lock(&self.link);
        s.stop = Some(why);
        s.viewer = Some(self.seat);
        Err(Flow::OutOfDecisions.into())
    }
}

fn count(min: usize, max: usize) -> String {
    if min == max {
        format!("{min}")
    } else {
        format!("{min} to {max}")
    }
}

fn save(g: &Game, path: &Path, agents: &[String]) {
    let mut s = Save::of(g);
    s.agents = agents.to_vec();
    match s.write(path) {
        Ok(()) => crate::outln!(
            "saved to {} (`fuda replay {}` plays it back)",
            path.display(),
            path.display()
        ),
        Err(e) => crate::outln!("cannot save the game: {e}"),
    }
}

/// The status, then the request with each option's card.
fn show(g: &Game, req: &Request) {
    let me = req.player;
    let v = g.view(me);
    let mut head = format!("\n-- turn {} · P{} active", v.turn, v.active);
    if let Some(p) = &v.phase {
        head += &format!(" · {p} phase");
    }
    crate::outln!("{head}");
    // Counters by player, those not at zero.
    let mut by: Vec<(String, Vec<String>)> = Vec::new();
    for (p, c, n) in v.counters.iter().filter(|c| c.2 != 0) {
        match by.last_mut() {
            Some((q, list)) if q == p => list.push(format!("{c} {n}")),
            _ => by.push((p.clone(), vec![format!("{c} {n}")])),
        }
    }
    if !by.is_empty() {
        let parts: Vec<String> = (by.iter())
            .map(|(p, l)| format!("{p} {}", l.join(", ")))
            .collect();
        crate::outln!("   {}", parts.join(" · "));
    }
    // The person's own zones whose cards they see; elsewhere, the cards
    // they see that have a state (the rules' `shown:`) or a host.
    let mine = format!("{}'s ", pname(me));
    for z in &v.zones {
        let Some(cards) = z.cards.as_ref().filter(|c| !c.is_empty()) else {
            continue;
        };
        let marked = |i: &usize| {
            let state = z.states.as_ref().and_then(|s| s.get(*i));
            let host = z.hosts.as_ref().and_then(|h| h.get(*i));
            state.is_some_and(|s| !s.is_empty()) || host.is_some_and(Option::is_some)
        };
        let own = z.zone.starts_with(&mine);
        let shown: Vec<String> = (0..cards.len())
            .filter(|i| own || marked(i))
            .map(|i| z.card_label(i))
            .collect();
        if shown.is_empty() {
            continue;
        }
        let more = shown.len().saturating_sub(10);
        let mut list = shown[..shown.len() - more].join(", ");
        if more > 0 {
            list += &format!(" and {more} more");
        }
        crate::outln!("   {}: {list}", z.zone);
    }
    crate::outln!(
        "{} — {} (choose {}; help for commands):",
        pname(me),
        req.prompt,
        count(req.min, req.max)
    );
    for (i, o) in req.options.iter().enumerate() {
        let mut label = o.label_for(g, me);
        // Card details only for a card the person may see.
        let def = match &o.value {
            Value::Card(c) if label == o.label(g) => {
                label = with_state(&label, &g.shown_state(*c));
                Some(g.st.objs[*c as usize].def as usize)
            }
            Value::Def(d) => Some(*d as usize),
            _ => None,
        };
        match def.map(|d| card(&g.data, d)).filter(|c| !c.is_empty()) {
            Some(c) => crate::outln!("  {i}: {label} — {c}"),
            None => crate::outln!("  {i}: {label}"),
        }
    }
}

/// A card's properties that differ from their defaults (a cost, a
/// strength), then its text.
fn card(data: &Data, def: usize) -> String {
    let d = &data.defs[def];
    let props: Vec<String> = (data.names.props.iter().zip(&d.props))
        .zip(&data.prop_defaults)
        .filter(|((_, v), dflt)| v != dflt)
        .map(|((n, v), _)| format!("{n} {v}"))
        .collect();
    // On one line: the option's line is the card's.
    let text = d.text.split_whitespace().collect::<Vec<_>>().join(" ");
    match (props.is_empty(), text.is_empty()) {
        (true, _) => text,
        (false, true) => props.join(", "),
        (false, false) => format!("{}: {text}", props.join(", ")),
    }
}

/// Plays `cfg` with a person at each seat of `people` (`names`: each
/// seat's name, for a save), each person reading the transcript as their
/// seat may. `kept`: answers (player from 1, picks) to play first, as a
/// save's; `show_kept`: print what they play, else pass over it. Undo plays
/// again from the seed. The result: the outcome, or `OutOfDecisions` when a
/// person stopped (after saying so and offering a save).
pub fn play(
    data: Arc<Data>,
    cfg: GameConfig,
    people: &[bool],
    names: &[String],
    mut kept: Vec<(u8, Picks)>,
    show_kept: bool,
) -> Res<Outcome> {
    let hot_seat = people.iter().filter(|&&p| p).count() > 1;
    // One person holds the terminal from the start; several take turns.
    let mut viewer = (!hot_seat).then(|| people.iter().position(|&p| p).unwrap_or(0) as PlayerId);
    let mut quiet = !kept.is_empty() && !show_kept;
    loop {
        let link: Link = Arc::new(Mutex::new(Shared {
            viewer,
            shown: vec![0; cfg.players as usize],
            quiet,
            stop: None,
            hot_seat,
            agents: names.to_vec(),
        }));
        let agents: Vec<Box<dyn Agent>> = (cfg.agents.iter().enumerate())
            .map(|(seat, a)| -> Box<dyn Agent> {
                if people.get(seat) == Some(&true) {
                    let prefix = (kept.iter())
                        .filter(|(p, _)| *p as usize == seat + 1)
                        .map(|(_, picks)| picks.clone())
                        .collect();
                    Box::new(Person {
                        seat: seat as PlayerId,
                        prefix,
                        link: link.clone(),
                        given: 0,
                    })
                } else {
                    Box::new(Narrated {
                        bot: a.boxed(),
                        link: link.clone(),
                    })
                }
            })
            .collect();
        let mut game = Game::new(
            data.clone(),
            GameConfig {
                players: cfg.players,
                seed: cfg.seed,
                agents,
                options: cfg.options.clone(),
                logging: true,
                tier: cfg.tier.clone(),
            },
        );
        let result = game.play();
        let (stop, at) = {
            let s = lock(&link);
            (s.stop, s.viewer)
        };
        viewer = at;
        quiet = true;
        match stop {
            None => {
                catch_up(&game, &mut lock(&link));
                return result;
            }
            Some(Stop::Undo) => {
                // The answers before this person's last one: that decision
                // is asked again (and the others' after it).
                let me = at.map_or(0, |p| p as usize + 1);
                let answers = Save::of(&game).answers;
                let last = (answers.iter())
                    .rposition(|a| a.player as usize == me)
                    .unwrap_or(0);
                kept = (answers[..last].iter())
                    .map(|a| (a.player, a.picks.iter().map(|&i| i as usize).collect()))
                    .collect();
                crate::outln!("-- undone: back to your previous decision");
            }
            Some(why) => {
                crate::outln!(
                    "{}: the game stops at turn {} ({} answers given).",
                    if why == Stop::Quit {
                        "quit"
                    } else {
                        "end of input"
                    },
                    game.view(viewer.unwrap_or(0)).turn,
                    Save::of(&game).answers.len()
                );
                if why == Stop::Quit {
                    let prompt = "save it? a file name, or Enter for no save: ";
                    if let Some(name) = input::line(prompt).filter(|l| !l.trim().is_empty()) {
                        save(&game, Path::new(name.trim()), names);
                    }
                }
                return Err(Flow::OutOfDecisions.into());
            }
        }
    }
}
