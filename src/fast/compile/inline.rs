//! Verbs inlined into their callers, their fixed arguments substituted.

use super::*;

impl Compiler<'_> {
    /// The frame slot of the code's slot `s`.
    pub(super) fn slot(&self, s: u16) -> usize {
        match self.remap.iter().find(|r| r.0 == s) {
            Some(&(_, at)) => at,
            None => (self.base + s) as usize,
        }
    }

    /// A whole piece of code; one `return <expr>` is its expression, run
    /// for its effect only when its value is not kept.
    pub(super) fn body<K: Keep>(&self, stmts: &[Stmt]) -> Body {
        match stmts {
            // Only its truth kept: the condition, with no value made.
            [Stmt::Return(Some(e))] if K::TRUTH => Body::Cond(self.cond(e)),
            [Stmt::Return(Some(e))] if K::VALUE => match self.truth(e) {
                Some(c) => Body::Cond(c),
                None => Body::Expr(self.val(e)),
            },
            [Stmt::Return(Some(e))] => Body::Block(self.effect(e)),
            stmts => {
                let v = self.leaves(stmts);
                let straight = Straight::find(&v);
                if straight.is_none() && Hook::fits(&v) {
                    let leaves = v.into_boxed_slice();
                    return Body::Hook(Box::new(Hook::new(leaves)));
                }
                if straight.is_none()
                    && K::TRUTH
                    && let Some(c) = self.tail_cond(stmts, None)
                {
                    return Body::Cond(c);
                }
                if straight.is_none()
                    && K::VALUE
                    && let Some(e) = self.tail(stmts, None)
                {
                    return Body::Expr(e);
                }
                let b = block_of(v);
                match straight {
                    Some(s) => Body::Straight(Box::new(s), b),
                    None => Body::Block(b),
                }
            }
        }
    }

    /// Statements ending in `return e` whose value is kept, as the value
    /// they return: the statements, then `e`; the `if c { return x }` arms
    /// on the way, in a row, tested by one loop: `x` if `c` holds, else the
    /// next, else the rest. No `return` to catch. With `call`, the call's
    /// step, depth and span around it ([`Compiler::chain`]).
    pub(super) fn tail(&self, stmts: &[Stmt], call: Call) -> Option<ValFn> {
        let (init, last) = split_arms(stmts)?;
        let (arms, rest) = self.arms(last, |x| self.val(x));
        let end = match rest {
            [Stmt::Return(Some(x))] => self.val(x),
            // What follows the arms, shorter than `stmts`.
            rest if !arms.is_empty() && !rest.is_empty() => self.tail(rest, None)?,
            _ => return None,
        };
        Some(self.chain(init, arms, end, call))
    }

    /// The `if c { return x }` arms `stmts` starts with, each `x` made by
    /// `then`, and the statements after them.
    #[allow(clippy::type_complexity)]
    fn arms<'s, T>(
        &self,
        mut stmts: &'s [Stmt],
        then: impl Fn(&Expr) -> T,
    ) -> (Box<[(Conjunct, T)]>, &'s [Stmt]) {
        let mut arms = Vec::new();
        while let [s, rest @ ..] = stmts
            && let Some((c, x)) = arm(s)
        {
            arms.push((self.part(c), then(x)));
            stmts = rest;
        }
        (arms.into_boxed_slice(), stmts)
    }

    /// [`Compiler::tail`] of a call tested as a condition: the truth of
    /// the value returned, each `return x` compiled as the condition `x`
    /// (what testing its value finds, with no value made), and the
    /// `if c { return x }` arms in a row tested by one loop.
    pub(super) fn tail_cond(&self, stmts: &[Stmt], call: Call) -> Option<CondFn> {
        let (init, last) = split_arms(stmts)?;
        let (arms, rest) = self.arms(last, |x| self.then(x));
        let end = match rest {
            [Stmt::Return(Some(x))] => self.then(x),
            // What follows the arms, shorter than `stmts`.
            rest if !arms.is_empty() && !rest.is_empty() => Then::Code(self.tail_cond(rest, None)?),
            _ => return None,
        };
        Some(self.chain(init, arms, end, call))
    }

    /// [`Compiler::body`] of an inlined verb called at `span` (the verb's
    /// at `at`) that binds nothing, where the body compiles to an if-chain
    /// of returns ([`Compiler::tail_cond`] for a truth, [`Compiler::tail`]
    /// for a value): the chain with the call around it, one closure, no
    /// body called from the call's. None where `body` would compile it
    /// otherwise.
    fn called<K: Keep>(
        &self,
        stmts: &[Stmt],
        span: Span,
        at: Span,
        bound: Option<Bound>,
    ) -> Option<Native<K::Out>> {
        if !K::VALUE || matches!(stmts, [Stmt::Return(Some(_))]) {
            return None;
        }
        // As `body` decides: a straight block or a hook first.
        let v = self.leaves(stmts);
        if Straight::find(&v).is_some() || Hook::fits(&v) {
            return None;
        }
        K::chained(self, stmts, Some(Around { span, at, bound }))
    }

    /// `init`, then the first arm's value whose condition holds, else
    /// `end`'s: [`Compiler::tail`] and [`Compiler::tail_cond`] alike.
    /// With `call` (the call's span and the verb's), the call's step,
    /// depth and span around it, as [`Game::inlined`] makes them for a
    /// body called of its own.
    fn chain<T: Returned>(
        &self,
        init: &[Stmt],
        arms: Box<[(Conjunct, T)]>,
        end: T,
        call: Call,
    ) -> Native<T::Out> {
        let value = Arms { arms, end };
        let init = (!init.is_empty()).then(|| block_of(self.leaves(init)));
        match (init, call) {
            // The arguments bound first, the verb's slots emptied after, as
            // the call's closure would around a body of its own.
            (
                init,
                Some(Around {
                    span,
                    at,
                    bound: Some(b),
                }),
            ) => Box::new(move |g, f| {
                b.bind(g, f)?;
                let r = g.inlined(f, Charge::Step, at, span, |g, f| {
                    if let Some(init) = &init {
                        init(g, f)?;
                    }
                    value.get(g, f)
                });
                b.empty(f);
                r
            }),
            (None, None) => Box::new(move |g, f| value.get(g, f)),
            (Some(init), None) => Box::new(move |g, f| {
                init(g, f)?;
                value.get(g, f)
            }),
            (None, Some(Around { span, at, .. })) => {
                Box::new(move |g, f| g.inlined(f, Charge::Step, at, span, |g, f| value.get(g, f)))
            }
            (Some(init), Some(Around { span, at, .. })) => Box::new(move |g, f| {
                g.inlined(f, Charge::Step, at, span, |g, f| {
                    init(g, f)?;
                    value.get(g, f)
                })
            }),
        }
    }

    /// What a `return x` gives a caller that tests it.
    fn then(&self, x: &Expr) -> Then {
        match x {
            Expr::Bool(b) => Then::Const(*b),
            x => Then::Code(self.cond(x)),
        }
    }

    /// A verb call compiled into its caller: the verb's slots follow the
    /// caller's in the same frame, so no frame is made; the step, the depth
    /// and what the verb sees (`this`, `me`, no move name, its span) are as
    /// in a call of its own. None for a verb already being inlined here (a
    /// verb that calls itself) or nested too deep.
    pub(super) fn inline<K: Keep>(
        &self,
        v: u16,
        args: &[Expr],
        span: Span,
    ) -> Option<Native<K::Out>> {
        Some(match self.inlined::<K>(v, args, span, false)? {
            Inlined::Code(c) => c,
            Inlined::Leaves(body, at) => Box::new(move |g, f| {
                call_body::<K>(
                    g,
                    f,
                    |g, f| run(&body, g, f).map(|()| Value::None),
                    span,
                    at,
                )
            }),
        })
    }

    /// [`Compiler::inline`]; a call run for its effect whose arguments are
    /// all replaced and that writes no slot is its body's leaves and its
    /// span when `leaves` is asked for.
    pub(super) fn inlined<K: Keep>(
        &self,
        v: u16,
        args: &[Expr],
        span: Span,
        leaves: bool,
    ) -> Option<Inlined<K::Out>> {
        let code = &self.data.verbs[v as usize];
        self.inlined_as::<K>(v, &code.stmts, args, span, leaves)
    }

    /// `count(v(..))` or `empty(v(..))` of a verb `v` that returns a
    /// filter (`return list where cond`, maybe among other returns): the
    /// verb inlined with `return b(e)` for each `return e`, so a filter's
    /// items are counted and no list is made. What the reference charges is
    /// the same: a list's count costs nothing, a returned value is counted
    /// as the caller would count it (its error at the call's span), and the
    /// items are tested alike. Every way out of the body must be a `return`
    /// of a value (none falls off its end). The call leaves `span`.
    pub(super) fn counted_verb(
        &self,
        b: Builtin,
        v: u16,
        args: &[Expr],
        at: Span,
        span: Span,
    ) -> Option<ValFn> {
        let code = &self.data.verbs[v as usize];
        let (Some(Stmt::Return(Some(_))), true) = (code.stmts.last(), returns_filter(&code.stmts))
        else {
            return None;
        };
        let body = counted_returns(&code.stmts, b, span)?;
        let call = match self.inlined_as::<KeepValue>(v, &body, args, at, false)? {
            Inlined::Code(c) => c,
            Inlined::Leaves(..) => return None,
        };
        Some(Box::new(move |g, f| {
            let n = call(g, f)?;
            f.span = span;
            Ok(n)
        }))
    }

    /// [`Compiler::inlined`] of verb `v` with `body` for its statements.
    fn inlined_as<K: Keep>(
        &self,
        v: u16,
        body: &[Stmt],
        args: &[Expr],
        span: Span,
        leaves: bool,
    ) -> Option<Inlined<K::Out>> {
        let code = &self.data.verbs[v as usize];
        let base = self.base + self.size;
        if self.chain.len() >= INLINE_DEPTH || self.chain.contains(&v) || base > 1024 {
            return None;
        }
        // The arguments go straight into the verb's slots: code in them
        // that inlines a verb too uses the slots after the verb's.
        let outer = Compiler {
            size: self.size + code.slots,
            chain: self.chain.clone(),
            remap: self.remap.clone(),
            ..*self
        };
        // A parameter the verb never writes, given an operand that runs no
        // code and that the verb cannot change (a constant, `me`, a zone of
        // the running player, a caller's slot), is that operand in the
        // verb's code: nothing copied, nothing cleared.
        let mut stmts: Option<Vec<Stmt>> = None;
        let (mut substituted, mut remap, mut kept) = (Vec::new(), Vec::new(), Vec::new());
        for (i, a) in args.iter().enumerate() {
            let p = i as u16;
            // Arguments past the verb's slots are computed, then dropped.
            let i = (p < code.slots).then_some(base as usize + i);
            let fixed = p < code.slots && !code.binds_slot(p);
            match a {
                Expr::Local(s) if fixed => remap.push((p, outer.slot(*s))),
                Expr::Int(_)
                | Expr::Bool(_)
                | Expr::None
                | Expr::Str(_)
                | Expr::Def(_)
                | Expr::Me
                | Expr::Zone(_, None)
                    if fixed =>
                {
                    let st = stmts.get_or_insert_with(|| body.to_vec());
                    st.iter_mut().for_each(|s| s.substitute(p, a));
                }
                a => {
                    kept.push((i, a));
                    continue;
                }
            }
            substituted.push(p);
        }
        let mut chain = self.chain.clone();
        chain.push(v);
        let inner = Compiler {
            data: self.data,
            base,
            size: code.slots,
            need: self.need,
            chain,
            remap,
        };
        self.need.set(self.need.get().max(base + code.slots));
        // The slots the verb may write: from its first one not replaced.
        let first = (0..code.slots)
            .find(|i| !substituted.contains(i))
            .unwrap_or(code.slots);
        let slots = (base + first) as usize..(base + code.slots) as usize;
        // The arguments kept, compiled where a closure takes them.
        let args = || -> Box<[(Option<usize>, Arg)]> {
            (kept.iter())
                .map(|&(i, a)| match a {
                    Expr::Local(s) => (i, Arg::Slot(outer.slot(*s))),
                    Expr::Me => (i, Arg::Me),
                    a => (i, Arg::Code(outer.val(a))),
                })
                .collect()
        };
        let at = code.span;
        let stmts = stmts.as_deref().unwrap_or(body);
        let dropped: Vec<Stmt>;
        let stmts = match stmts {
            [init @ .., last] if !K::VALUE && !init.is_empty() => match returned(last) {
                Some(e) => {
                    dropped = init
                        .iter()
                        .cloned()
                        .chain(e.cloned().map(Stmt::Expr))
                        .collect();
                    &dropped
                }
                None => stmts,
            },
            _ => stmts,
        };
        if leaves && !K::VALUE && kept.is_empty() && slots.is_empty() {
            let body = match stmts {
                [Stmt::Return(Some(e))] => vec![inner.leaf_effect(e)],
                stmts => inner.leaves(stmts),
            };
            return Some(Inlined::Leaves(body.into_boxed_slice(), at));
        }
        let bound = (!kept.is_empty() || !slots.is_empty()).then(|| Bound {
            args: args(),
            slots: slots.clone(),
        });
        if let Some(c) = inner.called::<K>(stmts, span, at, bound) {
            return Some(Inlined::Code(c));
        }
        let body = inner.body::<K>(stmts);
        if kept.is_empty() && slots.is_empty() {
            // Every argument replaced, no slot written: the call is its
            // step, depth and span around the body.
            return Some(Inlined::Code(Box::new(move |g, f| match K::TRUTH {
                true => K::call(g, f, &body, span, at),
                false => call_body::<K>(g, f, |g, f| body.run(g, f), span, at),
            })));
        }
        let b = Bound {
            args: args(),
            slots,
        };
        Some(Inlined::Code(Box::new(move |g, f| {
            b.bind(g, f)?;
            let r = match K::TRUTH {
                true => K::call(g, f, &body, span, at),
                false => call_body::<K>(g, f, |g, f| body.run(g, f), span, at),
            };
            b.empty(f);
            r
        })))
    }
}

/// The truth a [`Compiler::tail_cond`] arm returns: known, or tested.
enum Then {
    Const(bool),
    Code(CondFn),
}

/// A [`Compiler::chain`]'s arms and what follows them: the first arm's
/// value whose condition holds, else `end`'s. Inlined into the closure
/// that runs them.
struct Arms<T> {
    arms: Box<[(Conjunct, T)]>,
    end: T,
}

impl<T: Returned> Arms<T> {
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<T::Out> {
        for (c, x) in self.arms.iter() {
            if c.holds(g, f)? {
                return x.get(g, f);
            }
        }
        self.end.get(g, f)
    }
}

/// A call made around a [`Compiler::chain`]: the call's span and the
/// verb's, and the arguments it binds.
pub(super) type Call = Option<Around>;

pub(super) struct Around {
    span: Span,
    at: Span,
    bound: Option<Bound>,
}

/// An inlined verb's arguments put in its slots (`None`: computed, then
/// dropped), and the slots it may write, emptied after the call.
pub(super) struct Bound {
    args: Box<[(Option<usize>, Arg)]>,
    slots: std::ops::Range<usize>,
}

impl Bound {
    #[inline(always)]
    fn bind(&self, g: &mut Game, f: &mut Frame) -> Res<()> {
        for (i, a) in self.args.iter() {
            let v = match a {
                Arg::Slot(s) => f.slots[*s].clone(),
                Arg::Me => Value::Player(f.me),
                Arg::Code(c) => c(g, f)?,
            };
            if let Some(s) = i {
                f.slots[*s] = v;
            }
        }
        Ok(())
    }

    /// Left empty, as the next call expects them.
    #[inline(always)]
    fn empty(&self, f: &mut Frame) {
        for s in &mut f.slots[self.slots.clone()] {
            *s = Value::None;
        }
    }
}

/// What an arm of a [`Compiler::chain`] gives when its condition holds.
trait Returned: Send + Sync + 'static {
    type Out: Returns + 'static;
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Self::Out>;
}

impl Returned for ValFn {
    type Out = Value;
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<Value> {
        self(g, f)
    }
}

impl Returned for Then {
    type Out = bool;
    #[inline(always)]
    fn get(&self, g: &mut Game, f: &mut Frame) -> Res<bool> {
        match self {
            Then::Const(b) => Ok(*b),
            Then::Code(c) => c(g, f),
        }
    }
}

/// `stmts` split before its first `if c { return x }` arm, or before its
/// last statement where it has none.
fn split_arms(stmts: &[Stmt]) -> Option<(&[Stmt], &[Stmt])> {
    let at = stmts.iter().position(|s| arm(s).is_some());
    Some(stmts.split_at(match at {
        Some(i) => i,
        None => stmts.len().checked_sub(1)?,
    }))
}

/// `if c { return x }` with no `else`: its condition and value.
fn arm(s: &Stmt) -> Option<(&Expr, &Expr)> {
    match s {
        Stmt::If(c, a, b) if b.is_empty() => match a.as_slice() {
            [Stmt::Return(Some(x))] => Some((c, x)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether some `return` of `stmts` gives a filter (`list where cond`):
/// counting one is what saves a list.
fn returns_filter(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Return(Some(Expr::Where(..) | Expr::First(..))) => true,
        Stmt::Return(Some(e)) => first_of_cards(e).is_some(),
        Stmt::If(_, a, b) => returns_filter(a) || returns_filter(b),
        Stmt::Repeat(_, body) | Stmt::While(_, body) | Stmt::For(_, _, body) => {
            returns_filter(body)
        }
        _ => false,
    })
}

/// `stmts` with each `return e` made `return b(e)` (at `span`, the
/// caller's `count`/`empty`); None where a bare `return` gives none.
fn counted_returns(stmts: &[Stmt], b: Builtin, span: Span) -> Option<Vec<Stmt>> {
    stmts
        .iter()
        .map(|s| {
            Some(match s {
                Stmt::Return(Some(e)) => {
                    let e = first_of_cards(e).unwrap_or(e);
                    Stmt::Return(Some(Expr::Call(b, vec![e.clone()], span)))
                }
                Stmt::Return(None) => return None,
                Stmt::If(c, x, y) => Stmt::If(
                    c.clone(),
                    counted_returns(x, b, span)?,
                    counted_returns(y, b, span)?,
                ),
                Stmt::Repeat(n, x) => Stmt::Repeat(n.clone(), counted_returns(x, b, span)?),
                Stmt::While(c, x) => Stmt::While(c.clone(), counted_returns(x, b, span)?),
                Stmt::For(s, l, x) => Stmt::For(*s, l.clone(), counted_returns(x, b, span)?),
                s => s.clone(),
            })
        })
        .collect()
}

/// `p` of `first(p)`, a probe of a zone's cards (`first(zone where c)`
/// after [`Data::probe`]): counted, the card `first` gives is 1 and its
/// none 0, what `p`'s list of one card or none counts; neither `first` nor
/// `count` charges, so the two count alike.
fn first_of_cards(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Call(Builtin::First, a, _) => match a.as_slice() {
            [p @ Expr::First(list, ..)] if matches!(**list, Expr::Zone(..)) => Some(p),
            _ => None,
        },
        _ => None,
    }
}

/// What a verb's last statement `return e` runs when the call's value is
/// dropped: `e` as a statement (its effects, no value kept and no return
/// unwound through the call), or nothing for a bare `return`. None for any
/// other statement, and for `return log(..)`, which a statement would log
/// with its cards kept.
fn returned(last: &Stmt) -> Option<Option<&Expr>> {
    match last {
        Stmt::Return(Some(Expr::Call(Builtin::Log, ..))) => None,
        Stmt::Return(e) => Some(e.as_ref()),
        _ => None,
    }
}
