//! What a data bot may read: a bot decides from what its player may see, so
//! a rule reading the cards (or the size) of a zone its zone declaration
//! hides from every player fails whenever it is weighed. `fuda check` says
//! so at the zone's name. A zone whose owner only the run time knows
//! (`hand(active)`) is not guessed at.

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
            }
        }
    }
    out
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
    let mut read = |x: &Expr, r: Read, span: Span| {
        if let Expr::Zone(z, owner) = x {
            f(*z, owner.as_deref(), r, span);
        }
    };
    let around = match e {
        Expr::Where(list, ..) | Expr::Sum(list, ..) | Expr::Any(list, ..) => {
            read(list, Read::Cards, around);
            around
        }
        Expr::Call(b, args, span) => {
            match (b, args.first()) {
                (Builtin::First | Builtin::At | Builtin::Contains, Some(a)) => {
                    read(a, Read::Cards, *span)
                }
                (Builtin::Count | Builtin::Empty, Some(a)) => read(a, Read::Size, *span),
                _ => {}
            }
            *span
        }
        Expr::Bin(_, _, _, span) | Expr::Is(.., span) | Expr::Verb(_, _, span) => *span,
        _ => around,
    };
    for c in e.children() {
        expr(c, around, f);
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
    let (vis, key, what) = match read {
        Read::Cards => (d.contents, "contents", "the cards of"),
        Read::Size => (d.size, "size", "the size of"),
    };
    // The bot's own zone: written without an owner, or `zone(me)`.
    let own = matches!(owner, None | Some(Expr::Me));
    let why = match vis {
        Visibility::Public => return None,
        // Its own player's sees it; whether another's is read, only the run time knows.
        Visibility::Owner if !d.shared => return None,
        Visibility::Owner => {
            format!("which `{key}: owner` hides from every player (a shared zone has no owner)")
        }
        Visibility::Hidden => format!("which `{key}: hidden` hides from every player"),
    };
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
