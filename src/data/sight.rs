//! What a data bot may read: a bot decides from what its player may see, so
//! a rule reading the cards (or the size) of a zone its zone declaration
//! hides from every player fails whenever it is weighed. `fuda check` says
//! so at the zone's name, or at the call of the verb that reads it. A zone
//! whose owner only the run time knows (`hand(active)`) is not guessed at.

use super::counts::walk;
use super::locate::find_word;
use super::{Data, DataError, Visibility};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{Code, Expr, Span, Stmt};

/// What a rule reads of a zone.
#[derive(Clone, Copy)]
enum Read {
    Cards,
    Size,
}

/// Every read, in a bot's rules, of a zone hidden from the bot's player.
pub fn check(data: &Data) -> Vec<DataError> {
    let verbs = verb_reads(data);
    let mut out = Vec::new();
    for (bot, rules) in &data.bots {
        for rule in rules {
            for code in [Some(&rule.choose), rule.cond.as_ref()]
                .into_iter()
                .flatten()
            {
                each_read(code, &mut |z, owner, read, span| {
                    if let Some(e) = hidden(data, bot, z, owner, read, span) {
                        out.push(e);
                    }
                });
                walk(&code.stmts, &mut |_| {}, &mut |e| {
                    if let Expr::Verb(w, _, span) = e
                        && let Some((z, read, at)) = verbs[*w as usize]
                    {
                        out.push(through_verb(data, bot, *w, z, read, at, *span));
                    }
                });
            }
        }
    }
    out
}

/// For each verb, the first read in its code (or in the verbs it calls) of
/// a zone hidden from every player: the zone, what is read, and where.
fn verb_reads(data: &Data) -> Vec<Option<(u16, Read, Span)>> {
    let mut reads: Vec<Option<(u16, Read, Span)>> = vec![None; data.verbs.len()];
    loop {
        let mut changed = false;
        for (v, code) in data.verbs.iter().take(data.names.verbs.len()).enumerate() {
            if reads[v].is_some() {
                continue;
            }
            let mut found = None;
            walk(&code.stmts, &mut |_| {}, &mut |e| {
                if found.is_some() {
                    return;
                }
                found = match e {
                    Expr::Verb(w, ..) => reads[*w as usize],
                    _ => direct(e, code.span)
                        .filter(|(z, _, read, _)| why_hidden(data, *z, *read).is_some())
                        .map(|(z, _, read, at)| (z, read, at)),
                };
            });
            if found.is_some() {
                reads[v] = found;
                changed = true;
            }
        }
        if !changed {
            return reads;
        }
    }
}

/// The error for a bot's call of verb `w`, whose code reads zone `z` (at
/// `at`) that no player may see.
fn through_verb(
    data: &Data,
    bot: &str,
    w: u16,
    z: u16,
    read: Read,
    at: Span,
    call: Span,
) -> DataError {
    let d = &data.zones[z as usize];
    let what = match read {
        Read::Cards => "the cards of",
        Read::Size => "the size of",
    };
    let verb = &data.names.verbs[data.verb_named(w)].0;
    let (line, col) = super::load::line_col(data.sources.text(at.file), at.start as usize);
    data.sources.at_span(
        call,
        format!(
            "bot `{bot}` calls verb `{verb}`, which reads {what} zone `{}`, {}",
            d.name,
            why_hidden(data, z, read).unwrap_or_default()
        ),
        Some(format!(
            "a bot sees only what its player may see: `{verb}` reads it at {}:{line}:{col}",
            data.sources.path(at.file)
        )),
    )
}

/// Calls `f` on each zone the code reads the cards or the size of, with its
/// owner as written and the span of the nearest call around it.
fn each_read(code: &Code, f: &mut impl FnMut(u16, Option<&Expr>, Read, Span)) {
    for s in &code.stmts {
        if let Stmt::Expr(e) | Stmt::Return(Some(e)) | Stmt::Let(_, e) = s {
            expr(e, code.span, f);
        }
    }
}

fn expr(e: &Expr, around: Span, f: &mut impl FnMut(u16, Option<&Expr>, Read, Span)) {
    if let Some((z, owner, r, span)) = direct(e, around) {
        f(z, owner, r, span);
    }
    let around = match e {
        Expr::Call(_, _, span)
        | Expr::Bin(_, _, _, span)
        | Expr::Is(.., span)
        | Expr::Verb(_, _, span) => *span,
        _ => around,
    };
    for c in e.children() {
        expr(c, around, f);
    }
}

/// The zone `e` itself reads the cards or the size of (not its parts'),
/// with its owner as written and the span of the call (else `around`).
fn direct(e: &Expr, around: Span) -> Option<(u16, Option<&Expr>, Read, Span)> {
    let (x, r, span) = match e {
        Expr::Where(list, ..)
        | Expr::First(list, ..)
        | Expr::Sum(list, ..)
        | Expr::Any(list, ..) => (&**list, Read::Cards, around),
        Expr::Call(b, args, span) => match (b, args.first()) {
            (Builtin::First | Builtin::At | Builtin::Contains, Some(a)) => (a, Read::Cards, *span),
            (Builtin::Count | Builtin::Empty, Some(a)) => (a, Read::Size, *span),
            _ => return None,
        },
        _ => return None,
    };
    match x {
        Expr::Zone(z, owner) => Some((*z, owner.as_deref(), r, span)),
        _ => None,
    }
}

/// The error for a read of zone `z` that the bot's player may not see.
fn hidden(
    data: &Data,
    bot: &str,
    z: u16,
    owner: Option<&Expr>,
    read: Read,
    span: Span,
) -> Option<DataError> {
    let d = &data.zones[z as usize];
    let what = match read {
        Read::Cards => "the cards of",
        Read::Size => "the size of",
    };
    // The bot's own zone: written without an owner, or `zone(me)`.
    let own = matches!(owner, None | Some(Expr::Me));
    let why = why_hidden(data, z, read)?;
    let whose = if d.shared {
        String::new()
    } else if own {
        " of its own player".to_string()
    } else {
        " of a player".to_string()
    };
    let name = &d.name;
    let text = data.sources.text(span.file);
    let (a, b) = find_word(text, name, span.start as usize)
        .filter(|(a, _)| *a < span.end as usize)
        .unwrap_or((span.start as usize, span.end.max(span.start + 1) as usize));
    let help = match read {
        Read::Cards if d.size == Visibility::Public => {
            format!("a bot sees only what its player may see: its size is public (`count({name})`)")
        }
        _ => "a bot sees only what its player may see: read a zone its player sees".to_string(),
    };
    Some(data.sources.error(
        span.file,
        a as u32,
        b as u32,
        format!("bot `{bot}` reads {what} zone `{name}`{whose}, {why}"),
        Some(help),
    ))
}

/// Why reading `read` of zone `z` is hidden from every player, if it is.
/// A per-player `owner` zone is not: its own player sees it, and whether
/// another's is read only the run time knows.
fn why_hidden(data: &Data, z: u16, read: Read) -> Option<String> {
    let d = &data.zones[z as usize];
    let (vis, key) = match read {
        Read::Cards => (d.contents, "contents"),
        Read::Size => (d.size, "size"),
    };
    match vis {
        Visibility::Public => None,
        Visibility::Owner if !d.shared => None,
        Visibility::Owner => Some(format!(
            "which `{key}: owner` hides from every player (a shared zone has no owner)"
        )),
        Visibility::Hidden => Some(format!("which `{key}: hidden` hides from every player")),
    }
}
