//! Counts written as numbers, checked at load: a verb parameter that is a
//! `repeat` count (directly, or handed on to another verb's count) may not be
//! given a negative number written in the code, `draw(-3)`. A count known only
//! at run time is checked when the loop starts.

use super::{Data, DataError};
use crate::lang::ir::{Code, Expr, Stmt};

/// Each verb's parameters that are counts, one bit each (the first 64).
fn count_params(data: &Data) -> Vec<u64> {
    let mut counts = vec![0u64; data.verbs.len()];
    loop {
        let mut changed = false;
        for (v, code) in data.verbs.iter().take(data.names.verbs.len()).enumerate() {
            let nparams = data.names.verbs[v].1.len().min(64) as u16;
            // A parameter the verb writes may be made a fit count first.
            let param = |s: u16| (s < nparams && !code.binds_slot(s)).then(|| 1u64 << s);
            let mut mask = counts[v];
            let mut direct = 0;
            let repeats = &mut |s: &Stmt| {
                if let Stmt::Repeat(Expr::Local(p), _) = s {
                    direct |= param(*p).unwrap_or(0);
                }
            };
            walk(&code.stmts, repeats, &mut |_| {});
            mask |= direct;
            walk(&code.stmts, &mut |_| {}, &mut |e| {
                if let Expr::Verb(w, args, _) = e {
                    for (i, a) in args.iter().enumerate().take(64) {
                        if let Expr::Local(p) = a
                            && counts[*w as usize] & (1 << i) != 0
                        {
                            mask |= param(*p).unwrap_or(0);
                        }
                    }
                }
            });
            if mask != counts[v] {
                counts[v] = mask;
                changed = true;
            }
        }
        if !changed {
            return counts;
        }
    }
}

/// Calls `s` on every statement and `e` on every expression of a block.
pub(super) fn walk(stmts: &[Stmt], s: &mut impl FnMut(&Stmt), e: &mut impl FnMut(&Expr)) {
    for st in stmts {
        s(st);
        match st {
            Stmt::Expr(x) | Stmt::Let(_, x) | Stmt::Return(Some(x)) | Stmt::Assign(_, _, x, _) => {
                expr(x, e)
            }
            Stmt::Return(None) => {}
            Stmt::If(c, a, b) => {
                expr(c, e);
                walk(a, s, e);
                walk(b, s, e);
            }
            Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                expr(c, e);
                walk(b, s, e);
            }
        }
    }
}

fn expr(x: &Expr, e: &mut impl FnMut(&Expr)) {
    e(x);
    for c in x.children() {
        expr(c, e);
    }
}

/// A number written in the code (`3`, `-3`).
fn written(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(k) => Some(*k),
        Expr::Neg(e) => written(e).map(|k| -k),
        _ => None,
    }
}

/// Every call giving a verb's count a negative number written in the code.
pub fn check(data: &Data) -> Vec<DataError> {
    let counts = count_params(data);
    let mut codes: Vec<&Code> = data.verbs.iter().collect();
    codes.extend(data.defs.iter().flat_map(|d| d.effects.iter().flatten()));
    for t in &data.triggers {
        codes.push(&t.body);
        codes.extend(&t.cond);
    }
    for m in &data.moves {
        codes.push(&m.body);
        codes.extend(&m.cond);
        codes.extend(&m.pick);
    }
    codes.push(&data.setup);
    codes.extend(data.turn.phases.iter().map(|p| &p.body));
    codes.extend([&data.turn.start, &data.turn.end].into_iter().flatten());
    let mut out = Vec::new();
    for code in codes {
        walk(&code.stmts, &mut |_| {}, &mut |e| {
            let Expr::Verb(w, args, span) = e else { return };
            for (i, a) in args.iter().enumerate().take(64) {
                if let Some(k) = written(a).filter(|k| *k < 0)
                    && counts[*w as usize] & (1 << i) != 0
                {
                    let (name, params) = &data.names.verbs[data.verb_named(*w)];
                    out.push(data.sources.at_span(
                        *span,
                        format!(
                            "{name}: `{}` is {k}, and it counts how many times",
                            params[i]
                        ),
                        Some(format!("`{}` must be 0 or more", params[i])),
                    ));
                }
            }
        });
    }
    out
}
