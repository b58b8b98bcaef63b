//! Native tests ([`super::native::Test`]) decided on a game, as the code
//! they were recognised in would decide them (the step it counts included),
//! and the tier's [`Judge`] of data bots' rules, which uses them.

use super::native::{Choose, Operand, Test};
use super::tables::{RuleFast, Tables};
use crate::data::{BotRule, Data};
use crate::engine::decide::{Judge, MAX_DEPTH};
use crate::engine::request::Choice;
use crate::engine::{Game, Res};
use crate::lang::ir::Code;
use crate::value::{ObjId, PlayerId, Value};

impl Tables {
    /// Rule `r` of bot `b` as recognised.
    #[inline(always)]
    pub(super) fn rule(&self, b: usize, r: u32) -> Option<&RuleFast> {
        self.rules.get(b)?.get(r as usize)
    }
}

/// The tier's judge: a rule's condition and `choose` decided natively when
/// recognised, else run.
impl Judge for Tables {
    #[inline(always)]
    fn holds(
        &self,
        g: &mut Game,
        data: &Data,
        b: usize,
        r: u32,
        cond: &Code,
        player: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool> {
        let test = self.rule(b, r).and_then(|rf| rf.cond_test.as_ref());
        g.holds(data, cond, test, player, it, mv)
    }

    #[inline(always)]
    fn chooses(
        &self,
        g: &mut Game,
        data: &Data,
        b: usize,
        r: u32,
        rule: &BotRule,
        player: PlayerId,
        o: &Choice,
    ) -> Res<bool> {
        // Code nested too deep runs (and fails) as it would have.
        let choose = match self.rule(b, r) {
            Some(rf) if g.budget.depth() < MAX_DEPTH => &rf.choose,
            _ => &Choose::General,
        };
        // The common shapes of `choose` decide natively, counting the
        // step running the code would.
        let native = match (choose, &o.value) {
            (Choose::Test(t), Value::Card(c)) => Some(g.card_test(data, t, player, *c, o.mv)),
            (Choose::Test(t), v) => g.native_test(data, t, player, v, o.mv),
            (Choose::Str(s), _) => Some(g.text_hit(data, s, o)),
            (Choose::General, _) => None,
        };
        match native {
            Some(hit) => {
                g.tick(rule.choose.span)?;
                Ok(hit)
            }
            None => g.run_choose(data, rule, player, o),
        }
    }
}

impl Game {
    /// Whether `code` holds for `it` (and the option's move): natively when it
    /// has a test that fits the value, else by running it.
    #[inline(always)]
    pub(super) fn holds(
        &mut self,
        data: &Data,
        code: &Code,
        test: Option<&Test>,
        me: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool> {
        // The commonest condition, a number of the player's against another
        // (`actions > 0`), decided in place.
        if let Some(Test::Cmp(a, op, b)) = test
            && !matches!(it, Value::Card(_))
            && self.budget.depth() < MAX_DEPTH
            && let (Some(x), Some(y)) = (self.plain_operand(*a, me), self.plain_operand(*b, me))
        {
            self.tick(code.span)?;
            return Ok(op.holds(x, y));
        }
        self.holds_rest(data, code, test, me, it, mv)
    }

    /// [`Game::holds`] for the other tests.
    #[inline(never)]
    fn holds_rest(
        &mut self,
        data: &Data,
        code: &Code,
        test: Option<&Test>,
        me: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Res<bool> {
        if let Some(t) = test
            && self.budget.depth() < MAX_DEPTH
            && let Some(b) = self.native_test(data, t, me, it, mv)
        {
            // The step running the code would count.
            self.tick(code.span)?;
            return Ok(b);
        }
        Ok(self
            .exec_in(data, code, None, me, [it.clone()], mv)?
            .truthy())
    }

    /// A native test, as the interpreter would find it; `None` when it meets
    /// a value it was not made for (the code then runs and says why).
    pub(super) fn native_test(
        &self,
        data: &Data,
        t: &Test,
        me: PlayerId,
        it: &Value,
        mv: Option<u16>,
    ) -> Option<bool> {
        if let Value::Card(c) = it {
            return Some(self.card_test(data, t, me, *c, mv));
        }
        Some(match t {
            Test::Const(b) => *b,
            Test::Is { tag, negate } => {
                let tags = match it {
                    Value::Def(d) => data.defs[*d as usize].tags,
                    Value::None => 0,
                    _ => return None,
                };
                (tags & crate::value::bit(*tag) != 0) != *negate
            }
            Test::DefEq { def, negate } => {
                let eq = matches!(it, Value::Def(d) if d == def);
                eq != *negate
            }
            Test::Move { id, negate } => (id.is_some() && mv == *id) != *negate,
            Test::Cmp(a, op, b) => {
                let x = self.plain_operand(*a, me)?;
                let y = self.plain_operand(*b, me)?;
                op.holds(x, y)
            }
            Test::Not(x) => !self.native_test(data, x, me, it, mv)?,
            Test::And(a, b) => {
                self.native_test(data, a, me, it, mv)? && self.native_test(data, b, me, it, mv)?
            }
            Test::Or(a, b) => {
                self.native_test(data, a, me, it, mv)? || self.native_test(data, b, me, it, mv)?
            }
        })
    }

    /// [`Game::native_test`] with a card bound to `it`: every test is
    /// defined for cards. The one-step tests are inlined into the loops
    /// that filter cards.
    #[inline(always)]
    pub(super) fn card_test(
        &self,
        data: &Data,
        t: &Test,
        me: PlayerId,
        c: ObjId,
        mv: Option<u16>,
    ) -> bool {
        match t {
            Test::Is { tag, negate } => (self.st.tags(c) & crate::value::bit(*tag) != 0) != *negate,
            Test::DefEq { def, negate } => (self.st.objs[c as usize].def == *def) != *negate,
            Test::Cmp(a, op, b) => op.holds(
                self.card_operand(data, *a, me, c),
                self.card_operand(data, *b, me, c),
            ),
            _ => self.card_test_rest(data, t, me, c, mv),
        }
    }

    #[inline(never)]
    fn card_test_rest(
        &self,
        data: &Data,
        t: &Test,
        me: PlayerId,
        c: ObjId,
        mv: Option<u16>,
    ) -> bool {
        match t {
            Test::Const(b) => *b,
            Test::Move { id, negate } => (id.is_some() && mv == *id) != *negate,
            Test::Not(x) => !self.card_test(data, x, me, c, mv),
            Test::And(a, b) => {
                self.card_test(data, a, me, c, mv) && self.card_test(data, b, me, c, mv)
            }
            Test::Or(a, b) => {
                self.card_test(data, a, me, c, mv) || self.card_test(data, b, me, c, mv)
            }
            Test::Is { .. } | Test::DefEq { .. } | Test::Cmp(..) => {
                self.card_test(data, t, me, c, mv)
            }
        }
    }

    /// A number a test compares, with a card bound to `it`.
    #[inline(always)]
    fn card_operand(&self, data: &Data, o: Operand, me: PlayerId, c: ObjId) -> i64 {
        match o {
            Operand::Prop(p) => self.st.prop(data, c, p),
            Operand::Int(i) => i,
            Operand::Counter(k) => self.st.counter(me, k),
            Operand::Global(g) => self.st.globals[g as usize],
        }
    }

    /// An operand of [`BotRule::cond_cmp`] (never a property).
    #[inline(always)]
    pub(super) fn plain(&self, o: Operand, me: PlayerId) -> i64 {
        match o {
            Operand::Counter(k) => self.st.counter(me, k),
            Operand::Global(g) => self.st.globals[g as usize],
            Operand::Int(i) => i,
            Operand::Prop(_) => 0,
        }
    }

    /// A number a test compares, with no card bound (a property has none).
    #[inline(always)]
    fn plain_operand(&self, o: Operand, me: PlayerId) -> Option<i64> {
        Some(match o {
            Operand::Prop(_) => return None,
            Operand::Int(i) => i,
            Operand::Counter(k) => self.st.counter(me, k),
            Operand::Global(g) => self.st.globals[g as usize],
        })
    }
}
