//! Emptiness probes. Where code reads a filter only for whether it is
//! empty (`empty(x)`, `count(x) > 0`, `count(x) == 0` …) or for its first
//! item (`first(x)`), the filter need not test the items after the first
//! that passes: it becomes
//! [`Expr::First`], and a verb given there whose returns are filters is
//! called as a copy whose returns are probed alike. Done once at load, to
//! the IR both tiers run, so they stop at the same item and charge the
//! same steps; what a probe skips is never seen (a later item's error, its
//! steps).

use std::collections::BTreeMap;

use super::Data;
use crate::lang::builtins::Builtin;
use crate::lang::ir::{BinOp, Expr, Stmt};

impl Data {
    /// Probes every filter read for its emptiness (see the module).
    pub(crate) fn probe(&mut self) {
        let named = self.verbs.len();
        let mut able = vec![false; named];
        // A verb is worth probing if a return gives a filter, or a verb that is.
        loop {
            let before = able.clone();
            for (v, code) in self.verbs.iter().enumerate() {
                able[v] = returns(&code.stmts).any(|e| match e {
                    Expr::Where(..) => true,
                    Expr::Verb(w, ..) => before[*w as usize],
                    _ => false,
                });
            }
            if able == before {
                break;
            }
        }
        // The verbs probed where code reads them, and those their returns call.
        let mut wanted = BTreeMap::new();
        let mut todo: Vec<u16> = Vec::new();
        for code in self.codes() {
            for s in &code.stmts {
                s.each_expr(&mut |e| {
                    if let Some(Expr::Verb(v, ..)) = probed(e)
                        && able.get(*v as usize) == Some(&true)
                    {
                        todo.push(*v);
                    }
                });
            }
        }
        while let Some(v) = todo.pop() {
            // A copy's id is a verb's (a u16): past the last, the verb is
            // called as it is (unprobed, the same answer).
            let Ok(copy) = u16::try_from(named + self.probe_of.len()) else {
                break;
            };
            if wanted.contains_key(&v) {
                continue;
            }
            wanted.insert(v, copy);
            self.probe_of.push(v);
            for e in returns(&self.verbs[v as usize].stmts) {
                if let Expr::Verb(w, ..) = e
                    && able[*w as usize]
                {
                    todo.push(*w);
                }
            }
        }
        // The copies, in the order their ids were given.
        for i in 0..self.probe_of.len() {
            let mut code = self.verbs[self.probe_of[i] as usize].clone();
            for s in &mut code.stmts {
                probe_returns(s, &wanted);
            }
            self.verbs.push(code);
        }
        for code in codes_of!(&mut *self, iter_mut, as_mut, mut) {
            for s in &mut code.stmts {
                s.exprs_mut(&mut |e| probe_reads(e, &wanted));
            }
        }
        self.number_codes();
    }

    /// The verb whose name verb `v` goes by: itself, or the verb a probe
    /// copies.
    pub fn verb_named(&self, v: u16) -> usize {
        let named = self.names.verbs.len();
        match (v as usize).checked_sub(named) {
            Some(i) => self.probe_of.get(i).map_or(v as usize, |&o| o as usize),
            None => v as usize,
        }
    }
}

/// The list or verb call whose emptiness or first item alone `e` reads,
/// if it does.
fn probed(e: &Expr) -> Option<&Expr> {
    fn count(e: &Expr) -> Option<&Expr> {
        match e {
            Expr::Call(Builtin::Count, a, _) if a.len() == 1 => Some(&a[0]),
            _ => None,
        }
    }
    match e {
        // Whether it is empty, or its first item.
        Expr::Call(Builtin::Empty | Builtin::First, a, _) if a.len() == 1 => Some(&a[0]),
        // count(x) against 0 or 1, either way round, as only emptiness decides it.
        Expr::Bin(op, a, b, _) => {
            let (x, k, op) = match (count(a), count(b), &**a, &**b) {
                (Some(x), None, _, Expr::Int(k)) => (x, *k, *op),
                (None, Some(x), Expr::Int(k), _) => (x, *k, flip(*op)?),
                _ => return None,
            };
            let empty_decides = matches!(
                (op, k),
                (BinOp::Gt | BinOp::Ne | BinOp::Eq | BinOp::Le, 0) | (BinOp::Ge | BinOp::Lt, 1)
            );
            empty_decides.then_some(x)
        }
        _ => None,
    }
}

/// `k op x` as `x op' k`.
fn flip(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        BinOp::Eq | BinOp::Ne => op,
        _ => return None,
    })
}

/// `e` read for its emptiness alone, probed: a filter stops at its first
/// item, a verb is called as its probing copy.
fn probe(e: &mut Expr, wanted: &BTreeMap<u16, u16>) {
    match e {
        Expr::Where(..) => {
            let Expr::Where(l, s, c) = std::mem::replace(e, Expr::None) else {
                unreachable!()
            };
            *e = Expr::First(l, s, c);
        }
        Expr::Verb(v, ..) => {
            if let Some(&c) = wanted.get(v) {
                *v = c;
            }
        }
        _ => {}
    }
}

/// Every read of emptiness in `e` (and in what it holds) probed.
fn probe_reads(e: &mut Expr, wanted: &BTreeMap<u16, u16>) {
    if probed(e).is_some() {
        let x = match e {
            Expr::Call(_, a, _) => a.first_mut(),
            Expr::Bin(_, a, b, _) => {
                let side = if matches!(**a, Expr::Call(..)) { a } else { b };
                match &mut **side {
                    Expr::Call(_, a, _) => a.first_mut(),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(x) = x {
            probe(x, wanted);
        }
    }
    for c in e.children_mut() {
        probe_reads(c, wanted);
    }
}

/// A verb copy's `return e`s, each probed.
fn probe_returns(s: &mut Stmt, wanted: &BTreeMap<u16, u16>) {
    match s {
        Stmt::Return(Some(e)) => probe(e, wanted),
        Stmt::If(_, a, b) => a.iter_mut().chain(b).for_each(|s| probe_returns(s, wanted)),
        Stmt::Repeat(_, b) | Stmt::While(_, b) | Stmt::For(_, _, b) => {
            b.iter_mut().for_each(|s| probe_returns(s, wanted))
        }
        _ => {}
    }
}

/// The expressions a block's `return e`s give.
fn returns(stmts: &[Stmt]) -> Box<dyn Iterator<Item = &Expr> + '_> {
    Box::new(
        stmts
            .iter()
            .flat_map(|s| -> Box<dyn Iterator<Item = &Expr>> {
                match s {
                    Stmt::Return(Some(e)) => Box::new(std::iter::once(e)),
                    Stmt::If(_, a, b) => Box::new(returns(a).chain(returns(b))),
                    Stmt::Repeat(_, b) | Stmt::While(_, b) | Stmt::For(_, _, b) => returns(b),
                    _ => Box::new(std::iter::empty()),
                }
            }),
    )
}
