//! Turning run-time failures into miette reports that point into the data files.

use crate::data::{Data, DataError};
use crate::engine::{Ended, Flow, Outcome, RunError};

/// A run-time error as a diagnostic at the code that failed.
pub fn run_error(data: &Data, e: &RunError) -> DataError {
    let message = match &e.card {
        Some(c) => format!("while running card `{c}`: {}", e.message),
        None => e.message.clone(),
    };
    if e.span == Default::default() {
        return DataError::plain(message, None);
    }
    // Shown at the call in the caller's file, with where it failed inside.
    let (at, help) = match e.site {
        Some(site) => (
            site,
            Some(format!(
                "it failed in the code this calls, at {}",
                place(data, e.span)
            )),
        ),
        None => (e.span, None),
    };
    data.sources.at_span(at, message, help)
}

/// `file:line:column` of a span's start.
fn place(data: &Data, s: crate::lang::ir::Span) -> String {
    let text = data.sources.text(s.file);
    let before = &text[..(s.start as usize).min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("{}:{line}:{col}", data.sources.path(s.file))
}

/// A flow that ended a game badly, in one line that names where
/// (`rules/x.yaml:5:12: …`), as `fuda sim` lists them.
pub fn flow_line(data: &Data, f: &Flow) -> String {
    let Flow::Error(e) = f else {
        return format!("the game stopped unexpectedly ({f:?})");
    };
    let message = match &e.card {
        Some(c) => format!("while running card `{c}`: {}", e.message),
        None => e.message.clone(),
    };
    if e.span == Default::default() {
        return message;
    }
    match e.site {
        Some(site) => format!(
            "{}: {message} (it failed in the code this calls, at {})",
            place(data, site),
            place(data, e.span)
        ),
        None => format!("{}: {message}", place(data, e.span)),
    }
}

/// Prints a flow that ended a command badly; returns the exit code.
pub fn flow(data: &Data, f: Flow) -> std::process::ExitCode {
    match f {
        Flow::Error(e) => {
            errln!("{:?}", miette::Report::new(run_error(data, &e)));
            std::process::ExitCode::from(1)
        }
        other => {
            errln!("error: the game stopped unexpectedly ({other:?})");
            std::process::ExitCode::from(1)
        }
    }
}

/// The source of `end: if:`, on one line, when the rules name no end rules.
fn end_condition(data: &Data) -> Option<String> {
    if !data.end_rules.is_empty() {
        return None;
    }
    let span = data.end_if.span;
    let text = data.sources.text(span.file);
    let c = text.get(span.start as usize..span.end as usize)?;
    let c = c.split_whitespace().collect::<Vec<_>>().join(" ");
    (!c.is_empty()).then_some(c)
}

/// One line for a game's result: its winners, the scores, the turns and
/// what ended it.
pub fn outcome_line(data: &Data, o: &Outcome) -> String {
    let rule = o
        .rule
        .and_then(|i| data.end_rules.get(i as usize))
        .map(|(n, _)| n);
    let winners: Vec<String> = o.winners.iter().map(|w| format!("P{}", w + 1)).collect();
    let scores: Vec<String> = o
        .scores
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let lost = if o.lost.contains(&(i as u8)) {
                " (lost)"
            } else {
                ""
            };
            format!("P{} {s}{lost}", i + 1)
        })
        .collect();
    let mut who = if winners.len() > 1 {
        format!("shared win: {}", winners.join(", "))
    } else {
        format!("winner: {}", winners.join(""))
    };
    // Equal best scores among the players still in: the tiebreak decided.
    let alive = |p: &usize| !o.lost.contains(&(*p as u8));
    let best = (0..o.scores.len()).filter(alive).map(|p| o.scores[p]).max();
    let tied: Vec<usize> = (0..o.scores.len())
        .filter(|p| alive(p) && Some(o.scores[*p]) == best)
        .collect();
    if let (Some(t), true) = (&o.tiebreaks, tied.len() > 1) {
        let shown: Vec<String> = tied
            .iter()
            .map(|&p| format!("P{} {}", p + 1, t[p]))
            .collect();
        who += &format!(" (tiebreak: {})", shown.join(", "));
    }
    let ended = match (o.ended, rule) {
        (Ended::Rule, Some(r)) => format!("the end rule `{r}`"),
        // An unnamed `end: if:` is shown by its condition, so a result
        // always says what held.
        (Ended::Rule, None) => match end_condition(data) {
            Some(c) => format!("the end rule `{c}`"),
            None => "the end rule".into(),
        },
        (Ended::Lost, _) => "players losing".into(),
        (Ended::TurnLimit, _) => "the turn limit".into(),
        (Ended::Unfinished, _) => "nothing: it goes on".into(),
    };
    format!(
        "result — {who}; scores: {}; turns: {}; ended by {ended}",
        scores.join(", "),
        o.turns
    )
}
