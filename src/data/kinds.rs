//! Argument kinds, checked at load: a value whose kind the code shows (a
//! string, a list, a player…) given where an operation or a verb takes a
//! number, a player or a zone, or given to a counter, fails in play every
//! time, so `fuda check` says so at the call. A value whose kind only the run
//! time knows (a variable, a field, a verb's result) is not guessed at.

use super::counts::walk;
use super::{Data, DataError};
use crate::lang::builtins::Builtin;
use crate::lang::ir::{AssignOp, BinOp, Code, Expr, Place, Stmt};
use crate::lang::kind::{Kind, kind};

/// What a parameter takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Number = 0,
    Player = 1,
    Zone = 2,
}

const WANTS: [Want; 3] = [Want::Number, Want::Player, Want::Zone];

impl Want {
    fn text(self) -> &'static str {
        match self {
            Want::Number => "a number",
            Want::Player => "a player",
            Want::Zone => "a zone",
        }
    }
}

/// Whether a value of kind `k` fits a parameter that takes `want`.
fn fits(k: Kind, want: Want) -> bool {
    match want {
        Want::Number => k == Kind::Number,
        Want::Player => k == Kind::Player,
        Want::Zone => k == Kind::Zone,
    }
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
            )
            | (Builtin::Move | Builtin::MoveAll, "zone") => Want::Zone,
            _ => continue,
        };
        out.push((i, want, name));
    }
    out
}

/// Each verb's parameters that its code uses as a number, a player or a zone
/// (directly, or handed on to another verb's parameter), one bit each (the
/// first 64), by [`Want`]. A parameter the verb writes is left out (it may be
/// made fit first).
fn param_wants(data: &Data) -> Vec<[u64; 3]> {
    let mut wanted = vec![[0u64; 3]; data.verbs.len()];
    loop {
        let mut changed = false;
        for (v, code) in data.verbs.iter().take(data.names.verbs.len()).enumerate() {
            let nparams = data.names.verbs[v].1.len().min(64) as u16;
            let bit = |e: &Expr| match e {
                Expr::Local(s) if *s < nparams && !code.binds_slot(*s) => 1u64 << s,
                _ => 0,
            };
            let mut mask = wanted[v];
            walk(
                &code.stmts,
                &mut |s| match s {
                    Stmt::Repeat(n, _) => mask[Want::Number as usize] |= bit(n),
                    Stmt::Assign(place, op, e, _) if assigns_number(place, *op) => {
                        mask[Want::Number as usize] |= bit(e)
                    }
                    _ => {}
                },
                &mut |_| {},
            );
            walk(&code.stmts, &mut |_| {}, &mut |e| match e {
                Expr::Neg(a) => mask[Want::Number as usize] |= bit(a),
                Expr::Bin(op, a, b, _) if !matches!(op, BinOp::Add | BinOp::Eq | BinOp::Ne) => {
                    mask[Want::Number as usize] |= bit(a) | bit(b)
                }
                Expr::Zone(_, Some(owner)) => mask[Want::Player as usize] |= bit(owner),
                Expr::Call(b, args, _) => {
                    for (i, want, _) in wants(*b, args) {
                        mask[want as usize] |= bit(&args[i]);
                    }
                }
                Expr::Verb(w, args, _) => {
                    for (i, a) in args.iter().enumerate().take(64) {
                        for (m, w) in mask.iter_mut().zip(wanted[*w as usize]) {
                            if w & (1 << i) != 0 {
                                *m |= bit(a);
                            }
                        }
                    }
                }
                _ => {}
            });
            if mask != wanted[v] {
                wanted[v] = mask;
                changed = true;
            }
        }
        if !changed {
            return wanted;
        }
    }
}

/// What verb `v`'s code uses its parameter `i` as (`"a number"`, `"a
/// player"`, `"a zone"`), when the code shows it.
pub fn param_use(data: &Data, v: usize, i: usize) -> Option<&'static str> {
    let wanted = param_wants(data);
    let w = wanted.get(v)?;
    (WANTS.into_iter())
        .find(|k| i < 64 && w[*k as usize] & (1 << i) != 0)
        .map(Want::text)
}

/// Whether `place op= value` needs a number: `+=`/`-=` anywhere, and `=` to
/// a global or to a player's counter.
fn assigns_number(place: &Place, op: AssignOp) -> bool {
    op != AssignOp::Set
        || match place {
            Place::Global(_) => true,
            Place::Field(base, f) => {
                f.counter.is_some()
                    && (kind(base) == Some(Kind::Player) || f.prop.is_none() && f.special.is_none())
            }
            Place::Local(_) => false,
        }
}

/// Every argument whose kind the code shows and the parameter it is given
/// to cannot take.
pub fn check(data: &Data) -> Vec<DataError> {
    let wanted = param_wants(data);
    let mut out = Vec::new();
    let mut err = |span: crate::lang::ir::Span, message: String, help: String| {
        out.push(data.sources.at_span(span, message, Some(help)));
    };
    for code in data.codes() {
        check_code(data, &wanted, code, &mut err);
    }
    out
}

fn check_code(
    data: &Data,
    wanted: &[[u64; 3]],
    code: &Code,
    err: &mut impl FnMut(crate::lang::ir::Span, String, String),
) {
    walk(
        &code.stmts,
        &mut |s| {
            if let Stmt::Assign(place, op, e, span) = s
                && assigns_number(place, *op)
                && let Some(k) = kind(e).filter(|k| *k != Kind::Number)
            {
                let what = match op {
                    AssignOp::Set => "a counter holds a number",
                    AssignOp::Add => "`+=` adds a number",
                    AssignOp::Sub => "`-=` takes away a number",
                };
                err(
                    *span,
                    format!("{what}; got {}", k.text()),
                    "counters, globals and `+=`/`-=` hold numbers (true/false and none count as 1 and 0)".into(),
                );
            }
        },
        &mut |_| {},
    );
    walk(&code.stmts, &mut |_| {}, &mut |e| match e {
        Expr::Call(b, args, span) => {
            for (i, want, name) in wants(*b, args) {
                if let Some(k) = kind(&args[i]).filter(|k| !fits(*k, want)) {
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
            let (verb, params) = &data.names.verbs[data.verb_named(*w)];
            for (i, a) in args.iter().enumerate().take(64) {
                let Some(k) = kind(a) else { continue };
                let want = WANTS.into_iter().find(|want| {
                    wanted[*w as usize][*want as usize] & (1 << i) != 0 && !fits(k, *want)
                });
                if let Some(want) = want {
                    let at = data.verbs[*w as usize].span;
                    let (line, _) =
                        super::load::line_col(data.sources.text(at.file), at.start as usize);
                    err(
                        *span,
                        format!(
                            "verb `{verb}` takes {} as `{}`; got {}",
                            want.text(),
                            params[i],
                            k.text()
                        ),
                        format!(
                            "`{verb}({})` reads `{}` as {} ({}:{line})",
                            params.join(", "),
                            params[i],
                            want.text(),
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
