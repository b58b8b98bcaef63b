//! A part of a filter's condition that does not read the item, in a
//! condition that only reads the game (`hand where not empty(hosts())`):
//! nothing changes while the items are tested, so the part comes out the
//! same for each of them. It runs for the first item that reaches it; the
//! others take its truth, each charged the steps it took (the reference
//! runs it again and takes them again), and the span it left. Where those
//! steps do not fit before the budget's next look (the turn's limit or a
//! memory check), it runs again, to stop or check where the reference does.

use super::*;

/// The frame slots a kept part uses: its truth and steps, then the span it
/// left (file; start and end). Empty before and after the filter's loop.
const KEPT_SLOTS: u16 = 3;

impl Compiler<'_> {
    /// The test of a filter's item bound in `slot`, with the first part of
    /// `cond` worth keeping (see the module) kept across the items.
    pub(super) fn item_test_kept(&self, slot: u16, cond: &Expr) -> ItemTest {
        let mut parts = Vec::new();
        conjuncts(cond, &mut parts);
        let mut seen = Vec::new();
        let keep = match parts.iter().all(|p| self.reads_only(p, &mut seen)) {
            true => parts
                .iter()
                .position(|p| !p.reads_slot(slot) && always_calls(p)),
            false => None,
        };
        let Some(k) = keep else {
            return self.item_test(slot, cond);
        };
        // The kept slots follow the code's; verbs inlined into the
        // condition take theirs after them.
        let at = self.base + self.size;
        let inner = Compiler {
            size: self.size + KEPT_SLOTS,
            chain: self.chain.clone(),
            remap: self.remap.clone(),
            ..*self
        };
        self.need.set(self.need.get().max(at + KEPT_SLOTS));
        let mut test = inner.item_test_with(slot, &parts, |i, p| match i == k {
            true => kept(inner.cond(p), at as usize),
            false => inner.cond(p),
        });
        test.kept = Some(at as usize);
        // One part, kept: it reads no item, so no tag test leads it.
        test.only_kept = parts.len() == 1;
        test
    }

    /// Whether `e` only reads the game: its calls read only
    /// ([`Builtin::reads_only`]), its verbs' bodies too, no script. `seen`:
    /// verbs already looked at (one that calls itself is looked at once).
    pub(super) fn reads_only(&self, e: &Expr, seen: &mut Vec<u16>) -> bool {
        match e {
            Expr::Call(b, args, _) => {
                b.reads_only() && args.iter().all(|a| self.reads_only(a, seen))
            }
            Expr::Verb(v, args, _) => {
                args.iter().all(|a| self.reads_only(a, seen))
                    && (seen.contains(v) || {
                        seen.push(*v);
                        let code = &self.data.verbs[*v as usize];
                        self.stmts_read_only(&code.stmts, seen)
                    })
            }
            Expr::Script(..) | Expr::Rhai(_) => false,
            e => e.children().into_iter().all(|c| self.reads_only(c, seen)),
        }
    }

    /// Whether statements only read the game and write only their locals.
    fn stmts_read_only(&self, stmts: &[Stmt], seen: &mut Vec<u16>) -> bool {
        stmts.iter().all(|s| match s {
            Stmt::Expr(e) | Stmt::Let(_, e) | Stmt::Return(Some(e)) => self.reads_only(e, seen),
            Stmt::Return(None) => true,
            Stmt::Assign(Place::Local(_), _, e, _) => self.reads_only(e, seen),
            Stmt::Assign(..) => false,
            Stmt::If(c, a, b) => {
                self.reads_only(c, seen)
                    && self.stmts_read_only(a, seen)
                    && self.stmts_read_only(b, seen)
            }
            Stmt::Repeat(c, b) | Stmt::While(c, b) | Stmt::For(_, c, b) => {
                self.reads_only(c, seen) && self.stmts_read_only(b, seen)
            }
        })
    }
}

/// Whether running `e` always calls a verb: a part worth keeping (a call
/// takes a step at least), and one that always leaves a span of its own.
fn always_calls(e: &Expr) -> bool {
    match e {
        Expr::Verb(..) => true,
        Expr::Call(_, args, _) => args.first().is_some_and(always_calls),
        Expr::Not(x) | Expr::Neg(x) | Expr::Field(x, _) | Expr::Is(x, ..) => always_calls(x),
        Expr::Bin(_, a, b, _) => always_calls(a) || always_calls(b),
        Expr::And(a, _) | Expr::Or(a, _) => always_calls(a),
        Expr::Where(l, ..) | Expr::First(l, ..) | Expr::Sum(l, ..) | Expr::Any(l, ..) => {
            always_calls(l)
        }
        _ => false,
    }
}

/// `part` kept in the slots from `at` (see the module).
fn kept(part: CondFn, at: usize) -> CondFn {
    Box::new(move |g, f| {
        if let Value::Int(k) = f.slots[at] {
            let steps = (k >> 1) as u64;
            if g.budget.room(steps) {
                g.budget.spend(steps);
                f.span = span_of(&f.slots[at + 1..at + 3]);
                return Ok(k & 1 == 1);
            }
            return part(g, f);
        }
        let before = g.steps();
        let holds = part(g, f)?;
        let steps = (g.steps() - before) as i64;
        f.slots[at] = Value::Int(steps << 1 | holds as i64);
        f.slots[at + 1] = Value::Int(f.span.file as i64);
        f.slots[at + 2] = Value::Int((f.span.start as i64) << 32 | f.span.end as i64);
        Ok(holds)
    })
}

/// The span kept in two slots.
#[inline(always)]
fn span_of(s: &[Value]) -> Span {
    match s {
        [Value::Int(file), Value::Int(se)] => Span {
            file: *file as u32,
            start: (*se >> 32) as u32,
            end: *se as u32,
        },
        _ => Span::default(),
    }
}

impl ItemTest {
    /// Cards tested by a condition that is one kept part (`only_kept`), as
    /// [`ItemTest::card`] tests them in turn: the first runs the part; the
    /// others take its truth, their steps all charged at once where they
    /// fit (else each in turn, as `card` does), the slot left holding the
    /// last card and the span the one the part left.
    pub(super) fn cards_kept(
        &self,
        g: &mut Game,
        f: &mut Frame,
        slot: usize,
        cards: &[ObjId],
        mut hit: impl FnMut(&Value, usize),
    ) -> Res<()> {
        let n = cards.len();
        let Some((&first, rest)) = cards.split_first() else {
            return Ok(());
        };
        if self.card(g, f, slot, first)? {
            hit(&Value::Card(first), n);
        }
        let (Some(at), Some(&last)) = (self.kept, rest.last()) else {
            return Ok(());
        };
        if let Value::Int(k) = f.slots[at] {
            let steps = (k >> 1) as u64 * rest.len() as u64;
            if g.budget.room(steps) {
                g.budget.spend(steps);
                f.span = span_of(&f.slots[at + 1..at + 3]);
                f.slots[slot] = Value::Card(last);
                if k & 1 == 1 {
                    for (i, &c) in rest.iter().enumerate() {
                        hit(&Value::Card(c), rest.len() - i);
                    }
                }
                return Ok(());
            }
        }
        for (i, &c) in rest.iter().enumerate() {
            if self.card(g, f, slot, c)? {
                hit(&Value::Card(c), rest.len() - i);
            }
        }
        Ok(())
    }

    /// Empties the kept slots, after a filter's loop.
    pub(super) fn done(&self, f: &mut Frame) {
        if let Some(at) = self.kept {
            for s in &mut f.slots[at..at + KEPT_SLOTS as usize] {
                *s = Value::None;
            }
        }
    }
}
