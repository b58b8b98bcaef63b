//! Argument kinds, checked at load: a value whose kind the code shows (a
//! string, a list, a player…) given where an operation or a verb takes a
//! number, a player or a zone fails in play every time, so `fuda check` says
//! so at the call. A value whose kind only the run time knows (a variable, a
//! field, a verb's result) is not guessed at.

use super::counts::walk;
use super::{Data, DataError};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{BinOp, Code, Expr, Stmt};

/// What a parameter takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Number,
    Player,
    Zone,
}

/// The kind of value an expression always has, as the code shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A number, true/false or none (all read as numbers).
    Number,
    Text,
    List,
    Player,
    Zone,
    CardId,
}

impl Kind {
    fn text(self) -> &'static str {
        match self {
            Kind::Number => "a number",
            Kind::Text => "a string",
            Kind::List => "a list",
            Kind::Player => "a player",
            Kind::Zone => "a zone",
            Kind::CardId => "a card id",
        }
    }

    fn fits(self, want: Want) -> bool {
        match want {
            Want::Number => self == Kind::Number,
            Want::Player => self == Kind::Player,
            Want::Zone => self == Kind::Zone,
        }
    }
}

impl Want {
    fn text(self) -> &'static str {
        match self {
            Want::Number => "a number",
            Want::Player => "a player",
            Want::Zone => "a zone",
        }
    }
}

/// The kind `e` always has, if the code shows it.
fn kind(e: &Expr) -> Option<Kind> {
    Some(match e {
        Expr::Int(_)
        | Expr::Bool(_)
        | Expr::None
        | Expr::Neg(_)
        | Expr::Not(_)
        | Expr::Is(..)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::Sum(..)
        | Expr::Any(..) => Kind::Number,
        Expr::Str(_) => Kind::Text,
        Expr::List(_) | Expr::Where(..) => Kind::List,
        Expr::Def(_) => Kind::CardId,
        Expr::Me | Expr::Active => Kind::Player,
        Expr::Zone(..) => Kind::Zone,
        Expr::Bin(BinOp::Add, a, b, _) => match (kind(a)?, kind(b)?) {
            (Kind::List | Kind::Zone, Kind::List | Kind::Zone) => Kind::List,
            (Kind::Text, _) | (_, Kind::Text) => Kind::Text,
            (Kind::Number, Kind::Number) => Kind::Number,
            _ => return None,
        },
        Expr::Bin(..) => Kind::Number,
        Expr::Call(b, ..) => match b {
            Builtin::Count
            | Builtin::Empty
            | Builtin::PileCount
            | Builtin::EmptyPiles
            | Builtin::Random
            | Builtin::Min
            | Builtin::Max
            | Builtin::Roll
            | Builtin::Piece
            | Builtin::Advance
            | Builtin::May
            | Builtin::Contains
            | Builtin::HasTag => Kind::Number,
            Builtin::Players
            | Builtin::Others
            | Builtin::Piles
            | Builtin::Defs
            | Builtin::Listed
            | Builtin::Choose
            | Builtin::Reveal
            | Builtin::Look
            | Builtin::Attached
            | Builtin::RandomPick => Kind::List,
            Builtin::NextPlayer | Builtin::Player => Kind::Player,
            _ => return None,
        },
        _ => return None,
    })
}

/// The parameter at each argument of a call of `b` that takes a kind, as
/// (argument, what it takes, its name). A leading optional player is
/// placed as the run time places it; when the code does not show whether
/// it was given, nothing is checked.
fn wants(b: Builtin, args: &[Expr]) -> Vec<(usize, Want, &'static str)> {
    let params: Vec<&'static str> = (b.params().split(", "))
        .map(|p| p.trim_end_matches('?'))
        .collect();
    let (min, max) = b.arity();
    // The argument the first parameter after a leading player gets.
    let skip = if b.params().starts_with("player?") {
        let given = match args.first().and_then(kind) {
            // As the run time reads a player first (`may(p)` alone is a prompt).
            Some(Kind::Player) => match b {
                Builtin::Choose | Builtin::ChooseOne | Builtin::ChooseOption | Builtin::Order => {
                    true
                }
                Builtin::May => args.len() == 2,
                _ => args.len() > min,
            },
            Some(_) => false,
            None if args.len() == max => true,
            None if args.len() == min => false,
            None => return Vec::new(),
        };
        usize::from(!given)
    } else {
        0
    };
    let mut out = Vec::new();
    for (i, _) in args.iter().enumerate() {
        let Some(&name) = params.get(i + skip) else {
            continue;
        };
        let want = match (b, name) {
            (Builtin::Min | Builtin::Max, "a" | "b") => Want::Number,
            (
                _,
                "n" | "min" | "max" | "i" | "delta" | "lo" | "hi" | "amount" | "sides" | "steps",
            ) => Want::Number,
            (Builtin::Lose | Builtin::SetActive | Builtin::NextPlayer, "player") => Want::Player,
            (_, "player") if i == 0 && skip == 0 => Want::Player,
            (
                Builtin::Shuffle
                | Builtin::Top
                | Builtin::Bottom
                | Builtin::Pile
                | Builtin::PileCount
                | Builtin::Piles
                | Builtin::EmptyPiles
                | Builtin::Create
                | Builtin::ChooseEach,
                "zone" | "to",
            ) => Want::Zone,
            _ => continue,
        };
        out.push((i, want, name));
    }
    out
}

/// Each verb's parameters that its code reads as numbers (directly, or
/// handed on to another verb's number), one bit each (the first 64). A
/// parameter the verb writes is left out (it may be made a number first).
fn number_params(data: &Data) -> Vec<u64> {
    let mut nums = vec![0u64; data.verbs.len()];
    loop {
        let mut changed = false;
        for (v, code) in data.verbs.iter().enumerate() {
            let nparams = data.names.verbs[v].1.len().min(64) as u16;
            let bit = |e: &Expr| match e {
                Expr::Local(s) if *s < nparams && !code.binds_slot(*s) => 1u64 << s,
                _ => 0,
            };
            let mut counts = 0;
            walk(
                &code.stmts,
                &mut |s| {
                    if let Stmt::Repeat(n, _) = s {
                        counts |= bit(n);
                    }
                },
                &mut |_| {},
            );
            let mut mask = nums[v] | counts;
            walk(&code.stmts, &mut |_| {}, &mut |e| match e {
                Expr::Neg(a) => mask |= bit(a),
                Expr::Bin(op, a, b, _) if !matches!(op, BinOp::Add | BinOp::Eq | BinOp::Ne) => {
                    mask |= bit(a) | bit(b)
                }
                Expr::Call(b, args, _) => {
                    for (i, want, _) in wants(*b, args) {
                        if want == Want::Number {
                            mask |= bit(&args[i]);
                        }
                    }
                }
                Expr::Verb(w, args, _) => {
                    for (i, a) in args.iter().enumerate().take(64) {
                        if nums[*w as usize] & (1 << i) != 0 {
                            mask |= bit(a);
                        }
                    }
                }
                _ => {}
            });
            if mask != nums[v] {
                nums[v] = mask;
                changed = true;
            }
        }
        if !changed {
            return nums;
        }
    }
}

/// Every argument whose kind the code shows and the parameter it is given
/// to cannot take.
pub fn check(data: &Data) -> Vec<DataError> {
    let nums = number_params(data);
    let mut out = Vec::new();
    let mut err = |span: crate::lang::ir::Span, message: String, help: String| {
        out.push(data.sources.error(
            span.file,
            span.start,
            span.end.max(span.start + 1),
            message,
            Some(help),
        ));
    };
    for code in data.codes() {
        check_code(data, &nums, code, &mut err);
    }
    out
}

fn check_code(
    data: &Data,
    nums: &[u64],
    code: &Code,
    err: &mut impl FnMut(crate::lang::ir::Span, String, String),
) {
    walk(&code.stmts, &mut |_| {}, &mut |e| match e {
        Expr::Call(b, args, span) => {
            for (i, want, name) in wants(*b, args) {
                if let Some(k) = kind(&args[i]).filter(|k| !k.fits(want)) {
                    err(
                        *span,
                        format!(
                            "`{}` takes {} as `{name}`; got {}",
                            b.name(),
                            want.text(),
                            k.text()
                        ),
                        b.usage(),
                    );
                }
            }
        }
        Expr::Verb(w, args, span) => {
            let (verb, params) = &data.names.verbs[*w as usize];
            for (i, a) in args.iter().enumerate().take(64) {
                if nums[*w as usize] & (1 << i) == 0 {
                    continue;
                }
                if let Some(k) = kind(a).filter(|k| !k.fits(Want::Number)) {
                    let at = data.verbs[*w as usize].span;
                    let (line, _) =
                        super::load::line_col(data.sources.text(at.file), at.start as usize);
                    err(
                        *span,
                        format!(
                            "verb `{verb}` takes a number as `{}`; got {}",
                            params[i],
                            k.text()
                        ),
                        format!(
                            "`{verb}({})` reads `{}` as a number ({}:{line})",
                            params.join(", "),
                            params[i],
                            data.sources.path(at.file)
                        ),
                    );
                }
            }
        }
        Expr::Bin(op, a, b, span) if !matches!(op, BinOp::Eq | BinOp::Ne) => {
            let (ka, kb) = (kind(a), kind(b));
            let fine = |k: Option<Kind>| k.is_none_or(|k| k == Kind::Number);
            let bad = match op {
                // `+` also joins strings and lists.
                BinOp::Add => match (ka, kb) {
                    (Some(Kind::Text), _) | (_, Some(Kind::Text)) => None,
                    (Some(Kind::List | Kind::Zone), Some(Kind::List | Kind::Zone)) => None,
                    (Some(a), Some(b)) => [a, b].into_iter().find(|k| !fine(Some(*k))),
                    // The other side may be a string or a list.
                    _ => None,
                },
                _ => [ka, kb].into_iter().flatten().find(|k| !fine(Some(*k))),
            };
            if let Some(k) = bad {
                let sign = data
                    .sources
                    .text(span.file)
                    .get(span.start as usize..span.end as usize);
                err(
                    *span,
                    format!("`{}` takes numbers; got {}", sign.unwrap_or("?"), k.text()),
                    "arithmetic and `<`, `<=`, `>`, `>=` work on numbers (true/false and none count as 1 and 0)".into(),
                );
            }
        }
        _ => {}
    });
}
