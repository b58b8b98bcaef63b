//! Blocks as leaves: the usual statements of a block run in place by one
//! loop ([`run`]), not one closure per statement; inlined verb calls, moves
//! to zones found in place, and whole-zone moves among them.

use super::*;

/// The body of an inlined verb called at `span`, with the step, depth, span
/// (`at`, the verb's) and move name of a call of its own; a `return` ends
/// it.
#[inline(always)]
pub(super) fn call_body<K: Keep>(
    g: &mut Game,
    f: &mut Frame,
    body: impl FnOnce(&mut Game, &mut Frame) -> Res<Value>,
    span: Span,
    at: Span,
) -> Res<K::Out> {
    g.inlined(f, Charge::Step, at, span, |g, f| body(g, f).map(K::keep))
}

/// A statement of a block, the usual ones run in place by [`run`]: a block
/// is one closure call, not one per statement (and per nested block).
pub(super) enum Leaf {
    /// `move(x, zone, cause)` of a local's card run for its effect: a quiet
    /// move in place, anything else as compiled (`code`).
    Move {
        slot: usize,
        to: ZoneAt,
        cause: Option<u16>,
        span: Span,
        code: StmtFn,
    },
    /// `move(zone, zone, cause)` of whole zones found in place, run for
    /// its effect: a quiet move in place, anything else as compiled.
    Zones {
        from: ZoneAt,
        to: ZoneAt,
        cause: Option<u16>,
        span: Span,
        code: StmtFn,
    },
    /// `for x in zone where x is <tag> { move(x, to, cause) }`: the zone
    /// moved whole in place where [`whole_move`] can, else as compiled.
    WholeMove {
        zone: ZoneAt,
        test: (u64, bool),
        mv: (ZoneAt, Option<u16>, bool, Span),
        slots: (usize, usize),
        code: StmtFn,
    },
    /// `counter op= n` of the running player.
    Counter {
        c: u16,
        op: AssignOp,
        num: Num,
        span: Span,
    },
    /// `if x is tag { .. } else { .. }` of a local: its tag mask, negated?
    /// The `then` leaves follow, then a [`Leaf::Jump`] over the `else` ones
    /// if any: a test that fails skips `skip` leaves.
    IfTag {
        slot: usize,
        mask: u64,
        negate: bool,
        skip: u32,
        /// Where the test fails on a value that is no card.
        span: Span,
    },
    /// Skips `n` leaves.
    Jump(u32),
    /// `run(x, effect)` of a local.
    Run {
        slot: usize,
        effect: u16,
        span: Span,
    },
    /// An inlined verb call run for its effect, at `span`; `at` the verb's.
    Call {
        body: Box<[Leaf]>,
        span: Span,
        at: Span,
    },
    /// `emit(event, x)` of a local that no ability may change or prevent.
    Emit {
        slot: usize,
        name: u16,
        code: StmtFn,
    },
    /// `repeat k { .. }` of a constant count and a [`TopLoop`] body.
    Top(i64, Box<TopLoop>),
    Code(StmtFn),
}

/// A block of leaves as one closure.
pub(super) fn block_of(mut v: Vec<Leaf>) -> StmtFn {
    // Code only (most blocks): one call each in a plain loop, no leaf
    // told from another.
    if v.len() > 1 && v.iter().all(|l| matches!(l, Leaf::Code(_))) {
        let codes: Box<[StmtFn]> = (v.into_iter())
            .filter_map(|l| match l {
                Leaf::Code(c) => Some(c),
                _ => None,
            })
            .collect();
        return Box::new(move |g, f| codes.iter().try_for_each(|c| c(g, f)));
    }
    match v.as_mut_slice() {
        [] => Box::new(|_, _| Ok(())),
        [Leaf::Code(_)] => match v.pop() {
            Some(Leaf::Code(c)) => c,
            _ => Box::new(|_, _| Ok(())),
        },
        // One inlined call (a move body `verb(it)`): its body's leaves
        // run in the call, no block around it.
        [Leaf::Call { .. }] => match v.pop() {
            Some(Leaf::Call { body, span, at }) => Box::new(move |g, f| {
                call_body::<KeepNothing>(
                    g,
                    f,
                    |g, f| run(&body, g, f).map(|()| Value::None),
                    span,
                    at,
                )
            }),
            _ => Box::new(|_, _| Ok(())),
        },
        _ => {
            let v = v.into_boxed_slice();
            Box::new(move |g, f| run(&v, g, f))
        }
    }
}

/// Runs a block's leaves in order.
pub(super) fn run(leaves: &[Leaf], g: &mut Game, f: &mut Frame) -> Res<()> {
    let mut rest = leaves;
    while let [l, tail @ ..] = rest {
        rest = tail;
        // Most leaves are code: told apart first, with no jump table.
        if let Leaf::Code(code) = l {
            code(g, f)?;
            continue;
        }
        match l {
            Leaf::Move {
                slot,
                to,
                cause,
                span,
                code,
            } => match f.slots[*slot] {
                Value::Card(c)
                    if g.quiet_move(*cause)
                        && let Ok(to) = to.get(g, f) =>
                {
                    f.span = *span;
                    g.quiet_relocate(c, to, *cause, *span)?;
                }
                _ => code(g, f)?,
            },
            Leaf::Zones {
                from,
                to,
                cause,
                span,
                code,
            } => {
                if zones(g, f, (*from, *to, *cause), 0) {
                    f.span = *span;
                } else {
                    code(g, f)?
                }
            }
            Leaf::WholeMove {
                zone,
                test,
                mv,
                slots,
                code,
            } => match zone.find(f) {
                Some(z) if g.viewer.is_none() && whole_move(g, f, z, *test, mv, *slots) => {}
                _ => code(g, f)?,
            },
            Leaf::Counter { c, op, num, span } => {
                f.span = *span;
                let v = num.get(g, f)?;
                let old = g.st.counter(f.me, *c);
                let new = op.apply(old, v);
                g.set_counter(f.me, *c, new);
            }
            Leaf::IfTag {
                slot,
                mask,
                negate,
                skip,
                span,
            } => {
                let tags = tags_of(g, &f.slots[*slot], f, *span)?;
                if (tags & mask != 0) == *negate {
                    rest = rest.get(*skip as usize..).unwrap_or_default();
                }
            }
            Leaf::Jump(n) => rest = rest.get(*n as usize..).unwrap_or_default(),
            Leaf::Run { slot, effect, span } => {
                f.span = *span;
                match f.slots[*slot] {
                    Value::Card(c) => {
                        if let Some(code) = g.effect_of(f.data, c, *effect) {
                            g.exec_in(f.data, code, Some(c), f.me, [Value::None], None)?;
                        }
                    }
                    Value::None => {}
                    ref other => {
                        return g.err(*span, format!("run needs a card, not {}", other.kind()));
                    }
                }
            }
            Leaf::Call { body, span, at } => call(body, g, f, *span, *at)?,
            Leaf::Top(n, each) => {
                let n = g.repeat_count(*n, f.span)?;
                each.run(g, f, n)?
            }
            Leaf::Emit { code, .. } | Leaf::Code(code) => code(g, f)?,
        }
    }
    Ok(())
}

/// An inlined verb call's leaves (see [`call_body`]); a body that is one
/// call (which cannot `return`) enters both at once when neither step nor
/// depth fails, and a body of one statement runs with no loop around it.
#[inline(always)]
pub(super) fn call(body: &[Leaf], g: &mut Game, f: &mut Frame, span: Span, at: Span) -> Res<()> {
    // A quiet whole-zone move: the call's step and the move's, nothing
    // else seen.
    if let [
        Leaf::Zones {
            from, to, cause, ..
        },
    ] = body
        && g.budget.depth() < crate::engine::MAX_DEPTH
        && zones(g, f, (*from, *to, *cause), 1)
    {
        f.span = span;
        return Ok(());
    }
    match body {
        [Leaf::Call { body, at: at2, .. }]
            if g.budget.room(2) && g.budget.depth() + 2 <= crate::engine::MAX_DEPTH =>
        {
            g.budget.spend(2);
            g.inlined(f, Charge::Levels(2), *at2, span, |g, f| one(body, g, f))
        }
        body => {
            call_body::<KeepNothing>(g, f, |g, f| one(body, g, f).map(|()| Value::None), span, at)
        }
    }
}

/// [`Leaf::Zones`] in place, `before` steps taken with it: false, nothing
/// done, where it cannot be.
#[inline(always)]
pub(super) fn zones(
    g: &mut Game,
    f: &Frame,
    (from, to, cause): (ZoneAt, ZoneAt, Option<u16>),
    before: u64,
) -> bool {
    match (from.find(f), to.find(f)) {
        (Some(a), Some(b)) => g.quiet_move(cause) && quiet_zone_paid(g, a, b, cause, before),
        _ => false,
    }
}

/// A quiet move of zone `from` onto `to` with its step a card (as
/// [`Game::visit`] charges it) and `before` steps more taken, where they fit in
/// the turn: false, nothing done or taken, otherwise (the move as
/// compiled charges and fails where the reference tier does).
#[inline(always)]
pub(super) fn quiet_zone_paid(
    g: &mut Game,
    from: ZoneRef,
    to: ZoneRef,
    cause: Option<u16>,
    before: u64,
) -> bool {
    let n = before + g.st.listed(from) as u64;
    if !g.budget.room(n) || !g.quiet_zone(from, to, None, cause) {
        return false;
    }
    g.budget.spend(n);
    true
}

/// [`run`], a single code leaf called directly.
#[inline(always)]
pub(super) fn one(body: &[Leaf], g: &mut Game, f: &mut Frame) -> Res<()> {
    match body {
        [Leaf::Code(c)] => c(g, f),
        body => run(body, g, f),
    }
}

/// A move of any cards to a zone found in place (`f.span` the call's); a
/// whole zone moved for its effect only builds no list of its cards.
#[inline(always)]
pub(super) fn zone_move<K: Keep>(
    g: &mut Game,
    f: &mut Frame,
    cards: &Value,
    to: ZoneRef,
    cause: Option<u16>,
    together: bool,
) -> Res<K::Out> {
    if !K::VALUE
        && let Value::Zone(from) = *cards
        && g.quiet_move(cause)
        && quiet_zone_paid(g, from, to, cause, 0)
    {
        return Ok(K::keep(Value::None));
    }
    g.move_value(cards, &Value::Zone(to), cause, false, together, f)
        .map(K::keep)
}

/// `for x in zone where x is <tag> { move(x, to, cause) }` where every
/// card passes and nothing sees the moves: the zone moves whole (top card
/// first, as the loop moves them), with the loop's steps, slots (`it`, `x`)
/// and span. False, nothing done, otherwise.
#[inline(always)]
pub(super) fn whole_move(
    g: &mut Game,
    f: &mut Frame,
    z: ZoneRef,
    (mask, negate): (u64, bool),
    &(to, cause, _, span): &(ZoneAt, Option<u16>, bool, Span),
    (it, x): (usize, usize),
) -> bool {
    if matches!(to, ZoneAt::Slot(..)) || !g.quiet_move(cause) {
        return false;
    }
    let zi = &g.st.zones[g.st.inst(z)];
    let n = zi.cards.len();
    // The walk of the zone (a step a card), then a loop round a card.
    if !zi.piles.is_empty()
        || !g.budget.room(2 * n as u64)
        || !(zi.cards.iter()).all(|&c| (g.st.tags(c) & mask != 0) != negate)
    {
        return false;
    }
    // The loop's last card is the bottom one.
    let Some(&last) = zi.cards.first() else {
        return true;
    };
    let Ok(to) = to.get(g, f) else { return false };
    if !g.quiet_zone(z, to, None, cause) {
        return false;
    }
    g.budget.spend(2 * n as u64);
    f.slots[it] = Value::Card(last);
    f.slots[x] = Value::Card(last);
    f.span = span;
    true
}
