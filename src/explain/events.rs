//! `fuda events <game>`: each event of a game, read from its compiled code —
//! where it is raised (the moves with that cause, the `emit` calls, the
//! turn itself), which event fields those places fill, and which abilities
//! wait for it. An author writing `event.target` in an ability looks here to
//! see whether anything ever gives it one.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::data::Data;
use crate::lang::builtins::Builtin;
use crate::lang::ir::{Code, Expr, Span, Stmt};

/// One place that raises an event.
pub struct Site {
    /// What holds the code: "verb `buy`", "card omiki, effect `play`".
    pub owner: String,
    /// `file:line:column` of the call.
    pub at: String,
    /// The call, in words: `move(…, "gain")`, `emit("hit", card, target)`.
    pub how: String,
    pub fields: Vec<&'static str>,
    /// The call's place in the data's sources (an editor's jump).
    pub span: Span,
}

/// The fields, in the order they are listed.
const ORDER: [&str; 7] = [
    "card",
    "player",
    "from",
    "to",
    "amount",
    "target",
    "target (the square)",
];

/// The fields `emit` fills from its arguments after the event's name.
const EMIT_FIELDS: [&str; 4] = ["card", "player", "amount", "target"];

/// The text of `fuda events`: every event the rules declare or the kernel
/// adds (turn and phase events, a board's `passes`/`stops`), in order.
pub fn events(data: &Data) -> String {
    let sites = sites(data);
    let turn = &data.turn;
    let mut by_turn: Vec<Option<String>> = vec![None; data.names.events.len()];
    let mut said = |id: u16, what: String| {
        if let Some(s) = by_turn.get_mut(id as usize) {
            *s = Some(what);
        }
    };
    said(turn.start_event.id, "the turn, as it starts".into());
    said(turn.end_event.id, "the turn, as it ends".into());
    for p in &turn.phases {
        said(
            p.start_event.id,
            format!("the turn, as phase `{}` starts", p.name),
        );
        said(
            p.end_event.id,
            format!("the turn, as phase `{}` ends", p.name),
        );
    }

    let mut s = String::new();
    let _ = writeln!(
        s,
        "events of {}: where each is raised, the fields it carries, the abilities that wait for it",
        data.game
    );
    let _ = writeln!(
        s,
        "(an event raised by code happens as `would <name>`, then `<name>`; the turn's and the board's only as `<name>`)"
    );
    for (id, name) in data.names.events.iter().enumerate() {
        let _ = writeln!(s, "\n{name}");
        let mut fields = BTreeSet::new();
        let kernel = match (by_turn[id].as_ref(), name.as_str()) {
            (Some(t), _) => Some(t.clone()),
            (None, "passes") if !data.board.squares.is_empty() => {
                Some("a piece's move (`advance`), at each square it passes".into())
            }
            (None, "stops") if !data.board.squares.is_empty() => {
                Some("a piece's move (`advance`), at the square it stops on".into())
            }
            _ => None,
        };
        if let Some(k) = &kernel {
            let _ = writeln!(s, "  raised by  {k}");
            fields.insert("player");
            if matches!(name.as_str(), "passes" | "stops") {
                fields.insert("target (the square)");
            }
        }
        for site in &sites[id] {
            let _ = writeln!(
                s,
                "  raised by  {} in {} ({})",
                site.how, site.owner, site.at
            );
            fields.extend(site.fields.iter().copied());
        }
        if kernel.is_none() && sites[id].is_empty() {
            let _ = writeln!(
                s,
                "  raised by  nothing in the rules' or cards' card text{}",
                if data.scripts.fns.is_empty() && data.scripts.snippets.is_empty() {
                    ""
                } else {
                    " (Rhai scripts are not read here)"
                }
            );
        }
        let fields: Vec<&str> = (ORDER.iter().copied())
            .filter(|f| fields.contains(f))
            .collect();
        let _ = writeln!(s, "  fields     {}", join(&fields, "none"));
        for would in [true, false] {
            let waiting = waiting(data, id as u16, would);
            let when = if would { "would" } else { "after" };
            // The loader refuses a `would` ability on an event the kernel raises.
            let text = if would && kernel.is_some() {
                "never raised".to_string()
            } else {
                join(&waiting, "no ability")
            };
            let _ = writeln!(s, "  {when:<10} {text}");
        }
    }
    s
}

/// The calls in the card text of rules and cards that raise each event,
/// indexed by event.
pub fn sites(data: &Data) -> Vec<Vec<Site>> {
    let mut sites: Vec<Vec<Site>> = (0..data.names.events.len()).map(|_| Vec::new()).collect();
    for (owner, code) in every_code(data) {
        let mut w = Walk {
            data,
            owner: &owner,
            sites: &mut sites,
        };
        w.block(&code.stmts);
    }
    sites
}

/// The abilities waiting for `event` (before it happens with `would`):
/// "the rules" and the ids of cards with one.
fn waiting(data: &Data, event: u16, would: bool) -> Vec<String> {
    let mut rules = 0;
    let mut cards = BTreeSet::new();
    for t in &data.triggers {
        if t.event != event || t.would != would {
            continue;
        }
        match t.def {
            None => rules += 1,
            Some(d) => {
                cards.insert(data.defs[d as usize].id.clone());
            }
        }
    }
    let mut out = Vec::new();
    if rules > 0 {
        out.push(format!("the rules ({rules})"));
    }
    out.extend(cards);
    out
}

fn join(items: &[impl AsRef<str>], empty: &str) -> String {
    if items.is_empty() {
        return empty.into();
    }
    items
        .iter()
        .map(|x| x.as_ref())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every piece of compiled code of a game, named for what holds it.
fn every_code(data: &Data) -> Vec<(String, &Code)> {
    let mut out: Vec<(String, &Code)> = Vec::new();
    out.push(("the setup".into(), &data.setup));
    let turn = &data.turn;
    let edges = [("turn start", &turn.start), ("turn end", &turn.end)];
    for (what, code) in edges {
        if let Some(c) = code {
            out.push((what.into(), c));
        }
    }
    for p in &turn.phases {
        out.push((format!("phase `{}`", p.name), &p.body));
    }
    // The named verbs: a probing copy raises what its verb does.
    for (i, v) in data.verbs.iter().take(data.names.verbs.len()).enumerate() {
        let name = data.names.verbs[i].0.as_str();
        out.push((format!("verb `{name}`"), v));
    }
    for m in &data.moves {
        out.push((format!("action `{}`", m.name), &m.body));
    }
    out.push(("the end condition".into(), &data.end_if));
    for (name, c) in &data.end_rules {
        out.push((format!("end rule `{name}`"), c));
    }
    for t in &data.triggers {
        let owner = match t.def {
            Some(d) => format!("card {}, an ability", data.defs[d as usize].id),
            None => "an ability of the rules".into(),
        };
        out.push((owner, &t.body));
    }
    for d in &data.defs {
        for (i, e) in d.effects.iter().enumerate() {
            let Some(code) = e else { continue };
            let name = data.names.effects.get(i).map_or("?", |n| n.as_str());
            out.push((format!("card {}, effect `{name}`", d.id), code));
        }
    }
    out
}

/// Finds the calls that raise events in one piece of code.
struct Walk<'a> {
    data: &'a Data,
    owner: &'a str,
    sites: &'a mut Vec<Vec<Site>>,
}

impl Walk<'_> {
    fn block(&mut self, stmts: &[Stmt]) {
        for st in stmts {
            st.top_exprs(&mut |e| self.expr(e));
        }
    }

    fn expr(&mut self, e: &Expr) {
        if let Expr::Call(b, args, span) = e {
            self.call(*b, args, *span);
        }
        for c in e.children() {
            self.expr(c);
        }
    }

    fn call(&mut self, b: Builtin, args: &[Expr], span: Span) {
        let (event, how, fields) = match (b, args) {
            (Builtin::Move | Builtin::MoveAll, [_, _, Expr::Int(e), ..]) => {
                let name = self.name(*e);
                let how = format!("{}(…, \"{name}\")", b.name());
                (*e, how, vec!["card", "player", "from", "to"])
            }
            (Builtin::Emit, [Expr::Int(e), rest @ ..]) => {
                let mut given: Vec<&'static str> = (EMIT_FIELDS.iter().zip(rest))
                    .filter(|(_, a)| !matches!(a, Expr::None))
                    .map(|(f, _)| *f)
                    .collect();
                let how = format!(
                    "emit(\"{}\"{})",
                    self.name(*e),
                    given.iter().map(|f| format!(", {f}")).collect::<String>()
                );
                // `player` defaults to the player running the code.
                if !given.contains(&"player") {
                    given.push("player");
                }
                (*e, how, given)
            }
            _ => return,
        };
        let Some(list) = usize::try_from(event)
            .ok()
            .and_then(|i| self.sites.get_mut(i))
        else {
            return;
        };
        let text = self.data.sources.text(span.file);
        let (l, c) = crate::data::load::line_col(text, span.start as usize);
        list.push(Site {
            owner: self.owner.to_string(),
            at: format!("{}:{l}:{c}", self.data.sources.path(span.file)),
            how,
            fields,
            span,
        });
    }

    fn name(&self, e: i64) -> &str {
        usize::try_from(e)
            .ok()
            .and_then(|i| self.data.names.events.get(i))
            .map_or("?", |s| s.as_str())
    }
}
