//! Operands read where they lie: a constant, a frame slot, the running
//! player, a global, a counter of the running player, and the board's
//! readers of a square named by a slot or a constant. A comparison of two
//! of them runs no closure per operand and clones no value; a board read
//! checks no board at run time when the game declares one (decided here,
//! at compile).

use super::*;
use crate::engine::board_index::IndexKey;

/// An operand read with no code run. Only a board read can fail (a value
/// that names no square), at its call's span, as the kernel's readers do.
pub(super) enum Near {
    Const(Value),
    Slot(usize),
    Me,
    Global(usize),
    /// A counter of the running player.
    Counter(u16),
    /// `square_get(s, prop)`, the property's index checked at load.
    Square(Key, usize, Span),
    /// `square_card(s)`.
    Card(Key, Span),
    /// `square_kind(s)`.
    Kind(Key, Span),
    /// `square_card(s).prop`: a property of the square's card (none where
    /// the square has no card).
    CardProp(Key, u16, Span),
    /// The item a filter's scan tests, read where it lies in the list.
    Item,
}

/// The square of a board read: a constant or a frame slot.
pub(super) enum Key {
    Const(Value),
    Slot(usize),
    /// The item a filter's scan tests.
    Item,
}

/// The item of a read that has none (a condition, a value).
static NO_ITEM: Value = Value::None;

/// An operand read in place that cannot fail (no board read, no scan's
/// item).
pub(super) enum Plain {
    Const(Value),
    Slot(usize),
    Me,
    Global(usize),
    /// A counter of the running player.
    Counter(u16),
}

impl Plain {
    #[inline(always)]
    pub(super) fn value(&self, g: &Game, f: &Frame) -> Value {
        match self {
            Plain::Const(v) => v.clone(),
            Plain::Slot(s) => f.slots[*s].clone(),
            Plain::Me => Value::Player(f.me),
            Plain::Global(i) => Value::Int(g.st.globals[*i]),
            Plain::Counter(c) => Value::Int(g.st.counter(f.me, *c)),
        }
    }
}

impl Near {
    /// The operand as a [`Plain`] one, if it is one.
    pub(super) fn plain(self) -> Option<Plain> {
        Some(match self {
            Near::Const(v) => Plain::Const(v),
            Near::Slot(s) => Plain::Slot(s),
            Near::Me => Plain::Me,
            Near::Global(i) => Plain::Global(i),
            Near::Counter(c) => Plain::Counter(c),
            _ => return None,
        })
    }

    /// The span a read leaves in the frame: a board read's call's.
    fn span(&self) -> Option<Span> {
        match self {
            Near::Square(_, _, s)
            | Near::Card(_, s)
            | Near::Kind(_, s)
            | Near::CardProp(_, _, s) => Some(*s),
            _ => None,
        }
    }

    /// The operand with a filter's item slot `item` read as the item
    /// itself: a scan that binds no item to test it.
    fn of_item(self, item: usize) -> Near {
        let key = |k: Key| match k {
            Key::Slot(s) if s == item => Key::Item,
            k => k,
        };
        match self {
            Near::Slot(s) if s == item => Near::Item,
            Near::Square(k, p, sp) => Near::Square(key(k), p, sp),
            Near::Card(k, sp) => Near::Card(key(k), sp),
            Near::Kind(k, sp) => Near::Kind(key(k), sp),
            Near::CardProp(k, pr, sp) => Near::CardProp(key(k), pr, sp),
            n => n,
        }
    }

    /// The value, borrowed where it lies or made in `tmp`.
    #[inline(always)]
    fn get<'a>(
        &'a self,
        g: &'a Game,
        slots: &'a [Value],
        item: &'a Value,
        me: PlayerId,
        tmp: &'a mut Value,
    ) -> Res<&'a Value> {
        let key = |k: &'a Key| match k {
            Key::Const(v) => v,
            Key::Slot(s) => &slots[*s],
            Key::Item => item,
        };
        Ok(match self {
            Near::Const(v) => v,
            Near::Slot(s) => &slots[*s],
            Near::Item => item,
            Near::Me => {
                *tmp = Value::Player(me);
                tmp
            }
            Near::Global(i) => {
                *tmp = Value::Int(g.st.globals[*i]);
                tmp
            }
            Near::Counter(c) => {
                *tmp = Value::Int(g.st.counter(me, *c));
                tmp
            }
            Near::Square(k, p, span) => {
                let s = square(g, key(k), Builtin::SquareGet, span)?;
                g.st.board.prop(s, *p)
            }
            Near::Card(k, span) => {
                let s = square(g, key(k), Builtin::SquareCard, span)?;
                *tmp = g.data.board.squares[s].card.map_or(Value::None, Value::Def);
                tmp
            }
            Near::Kind(k, span) => {
                let s = square(g, key(k), Builtin::SquareKind, span)?;
                *tmp = Value::Str(g.data.board.squares[s].kind.clone());
                tmp
            }
            Near::CardProp(k, pr, span) => {
                // As the field of `square_card(s)`: a definition's property.
                let s = square(g, key(k), Builtin::SquareCard, span)?;
                *tmp = match g.data.board.squares[s].card {
                    Some(d) => Value::Int(g.data.table.prop(d, *pr)),
                    None => Value::None,
                };
                tmp
            }
        })
    }
}

/// The square `k` names: a number on the board read in place, anything
/// else as the kernel's reader takes it (its conversion, its errors).
#[inline(always)]
fn square(g: &Game, k: &Value, b: Builtin, span: &Span) -> Res<usize> {
    match k {
        Value::Int(n) if (*n as u64) < g.data.board.squares.len() as u64 => Ok(*n as usize),
        k => far_square(g, k, b, span),
    }
}

/// [`square`] of anything but a number on the board (out of line: the
/// span is copied only here).
#[cold]
#[inline(never)]
fn far_square(g: &Game, k: &Value, b: Builtin, span: &Span) -> Res<usize> {
    g.board_square(b, k, *span).map(|s| s as usize)
}

impl Compiler<'_> {
    /// `e` as an operand read in place, if it is one.
    pub(super) fn near(&self, e: &Expr) -> Option<Near> {
        Some(match e {
            Expr::None => Near::Const(Value::None),
            Expr::Int(i) => Near::Const(Value::Int(*i)),
            Expr::Bool(b) => Near::Const(Value::Bool(*b)),
            Expr::Str(s) => Near::Const(Value::Str(s.clone())),
            Expr::Def(d) => Near::Const(Value::Def(*d)),
            Expr::Local(s) => Near::Slot(self.slot(*s)),
            Expr::Me => Near::Me,
            Expr::Global(i) => Near::Global(*i as usize),
            Expr::Field(x, field) if matches!(**x, Expr::Me) && field.counter.is_some() => {
                Near::Counter(field.counter?)
            }
            Expr::Field(x, field) => self.near_field(x, field)?,
            Expr::Call(b, a, span) => self.near_call(*b, a, *span)?,
            _ => return None,
        })
    }

    /// A board reader's call of a square read in place, in a game that
    /// declares a board.
    pub(super) fn near_call(&self, b: Builtin, a: &[Expr], span: Span) -> Option<Near> {
        if self.data.board.squares.is_empty() {
            return None;
        }
        let key = match a.first()? {
            Expr::Local(s) => Key::Slot(self.slot(*s)),
            Expr::Int(k) => Key::Const(Value::Int(*k)),
            _ => return None,
        };
        Some(match (b, a) {
            (Builtin::SquareGet, [_, Expr::Int(p)])
                if (*p as u64) < self.data.names.square_props.len() as u64 =>
            {
                Near::Square(key, *p as usize, span)
            }
            (Builtin::SquareCard, [_]) => Near::Card(key, span),
            (Builtin::SquareKind, [_]) => Near::Kind(key, span),
            _ => return None,
        })
    }

    /// `square_card(s).prop` read in place.
    pub(super) fn near_field(&self, x: &Expr, field: &Field) -> Option<Near> {
        let (Expr::Call(Builtin::SquareCard, a, span), Some(pr)) = (x, field.prop) else {
            return None;
        };
        match self.near_call(Builtin::SquareCard, a, *span)? {
            Near::Card(k, span) => Some(Near::CardProp(k, pr, span)),
            _ => None,
        }
    }

    /// A board read as a value, read in place (None for any other operand).
    pub(super) fn near_value(n: Near) -> Option<ValFn> {
        n.span()?;
        Some(match n {
            Near::Square(Key::Slot(s), p, span) => value_of(SquareIn(s, p, span)),
            Near::Card(Key::Slot(s), span) => value_of(CardIn(s, span)),
            n => value_of(n),
        })
    }

    /// `a <op> b` of two operands read in place, one of them a board read
    /// or a slot: no value made for either. As `binop` decides it: `==`
    /// and `!=` the values' equality (lists paid for), an order the two
    /// converted to numbers after both are read.
    pub(super) fn near_cmp(&self, e: &Expr) -> Option<CondFn> {
        Some(typed(self.near_pair(e)?, Cond))
    }

    /// A filter's condition that is one comparison read in place, run over
    /// a list's items as one loop: no closure called per item, and the
    /// item (bound in frame slot `item`) read where it lies in the list.
    pub(super) fn near_scan(&self, cond: &Expr, item: usize) -> Option<Scan> {
        let (a, b, cmp, span) = self.near_pair(cond)?;
        Some(typed(
            (a.of_item(item), b.of_item(item), cmp, span),
            Scanned,
        ))
    }

    /// `if a <cmp> b { then } else { els }` of two operands read in place:
    /// the test run in the statement's own closure, none called for it.
    pub(super) fn near_if(&self, c: &Expr, then: &[Stmt], els: &[Stmt]) -> Option<StmtFn> {
        let test = self.near_pair(c)?;
        let (then, els) = (self.block(then), self.else_block(els));
        Some(typed(test, If { then, els }))
    }

    /// The body of `for x in list { if a <cmp> b { then } else { els } }`
    /// (`x` in frame slot `slot`) as one loop over the list's items, the
    /// test reading each item where it lies: as the reference runs it, a
    /// step ticked at the span the last round left, then the test, with no
    /// closure called for an item that runs no branch. The item is bound
    /// before a branch runs, and the slot left as binding each in turn
    /// leaves it (the last item, or what its branch wrote there).
    pub(super) fn near_for(
        &self,
        c: &Expr,
        slot: usize,
        then: &[Stmt],
        els: &[Stmt],
    ) -> Option<Each> {
        let (a, b, cmp, span) = self.near_pair(c)?;
        let (then, els) = (self.block(then), self.else_block(els));
        let test = (a.of_item(slot), b.of_item(slot), cmp, span);
        Some(typed(test, For { slot, then, els }))
    }

    /// An `else` block, none where it is empty.
    fn else_block(&self, b: &[Stmt]) -> Option<StmtFn> {
        (!b.is_empty()).then(|| self.block(b))
    }

    fn near_pair(&self, e: &Expr) -> Option<(Near, Near, CmpOp, Span)> {
        let Expr::Bin(op, a, b, span) = e else {
            return None;
        };
        let (cmp, span) = (CmpOp::of(*op)?, *span);
        let (a, b) = (self.near(a)?, self.near(b)?);
        let worth = |n: &Near| n.span().is_some() || matches!(n, Near::Slot(_));
        if !worth(&a) && !worth(&b) {
            return None;
        }
        Some((a, b, cmp, span))
    }
}

/// What a comparison of two typed operands compiles to: a condition, or a
/// filter's loop over items.
trait Make {
    type Out;
    fn make<A: Read, B: Read>(self, t: Test<A, B>) -> Self::Out;
}

/// The comparison's operands typed by kind, so each pair compiles to its
/// own code.
fn typed<M: Make>((a, b, cmp, span): (Near, Near, CmpOp, Span), m: M) -> M::Out {
    fn right<A: Read, M: Make>(a: A, b: Near, cmp: CmpOp, span: Span, m: M) -> M::Out {
        match b {
            Near::Me => m.make(Test::new(a, Mine, cmp, span)),
            Near::Const(v) => m.make(Test::new(a, Fixed(v), cmp, span)),
            Near::Slot(s) => m.make(Test::new(a, InSlot(s), cmp, span)),
            Near::Item => m.make(Test::new(a, TheItem, cmp, span)),
            b => m.make(Test::new(a, b, cmp, span)),
        }
    }
    match a {
        Near::Square(Key::Slot(s), p, sp) => right(SquareIn(s, p, sp), b, cmp, span, m),
        Near::Square(Key::Item, p, sp) => right(SquareOfItem(p, sp), b, cmp, span, m),
        Near::Slot(s) => right(InSlot(s), b, cmp, span, m),
        Near::Item => right(TheItem, b, cmp, span, m),
        a => right(a, b, cmp, span, m),
    }
}

/// A filter run over a list's items bound in a slot: each item that
/// passes given to the caller with the number of items from it on. The
/// test reads each item where it lies; the slot is bound once, after, to
/// what binding each in turn leaves there (the last item, or the one a
/// test failed on).
pub(super) type Scan = Box<
    dyn Fn(&mut Game, &mut Frame, usize, &[Value], &mut dyn FnMut(&Value, usize)) -> Res<()>
        + Send
        + Sync,
>;

struct Cond;
impl Make for Cond {
    type Out = CondFn;
    fn make<A: Read, B: Read>(self, t: Test<A, B>) -> CondFn {
        Box::new(move |g, f| t.holds::<true>(g, f, &NO_ITEM))
    }
}

struct Scanned;
impl Make for Scanned {
    type Out = Scan;
    fn make<A: Read, B: Read>(self, t: Test<A, B>) -> Scan {
        Box::new(move |g, f, slot, items, hit| {
            let spans = t.spans.1.is_some();
            // Else the span a read leaves is the same for every item, and
            // nothing runs between them: left once.
            if !spans && let (Some(s), false) = (t.spans.0, items.is_empty()) {
                f.span = s;
            }
            // A right side no item changes and that cannot fail, read once.
            if let Some(k) = t.b.fixed(f.slots, f.me).as_ref().and_then(IndexKey::of) {
                return match t.cmp {
                    CmpOp::Eq | CmpOp::Ne => t.scan_fixed::<false>(g, f, slot, items, hit, k),
                    _ => t.scan_fixed::<true>(g, f, slot, items, hit, k),
                };
            }
            for (i, item) in items.iter().enumerate() {
                let holds = match spans {
                    true => t.holds::<true>(g, f, item),
                    false => t.holds::<false>(g, f, item),
                };
                match holds {
                    Ok(true) => hit(item, items.len() - i),
                    Ok(false) => {}
                    Err(e) => {
                        bind(&mut f.slots[slot], item);
                        return Err(e);
                    }
                }
            }
            if let Some(last) = items.last() {
                bind(&mut f.slots[slot], last);
            }
            Ok(())
        })
    }
}

/// A `for` loop's body run over the items of its list.
pub(super) type Each = Box<dyn Fn(&mut Game, &mut Frame, &[Value]) -> Res<()> + Send + Sync>;

struct If {
    then: StmtFn,
    els: Option<StmtFn>,
}
impl Make for If {
    type Out = StmtFn;
    fn make<A: Read, B: Read>(self, t: Test<A, B>) -> StmtFn {
        let If { then, els } = self;
        Box::new(move |g, f| {
            if t.holds::<true>(g, f, &NO_ITEM)? {
                then(g, f)
            } else {
                els.as_ref().map_or(Ok(()), |e| e(g, f))
            }
        })
    }
}

struct For {
    slot: usize,
    then: StmtFn,
    els: Option<StmtFn>,
}
impl Make for For {
    type Out = Each;
    fn make<A: Read, B: Read>(self, t: Test<A, B>) -> Each {
        let For { slot, then, els } = self;
        Box::new(move |g, f, items| {
            // Whether the slot holds the item last tested: a branch may
            // write it, and is left what it wrote.
            let mut bound = true;
            for item in items {
                let holds = match g.tick(f.span).and_then(|()| t.holds::<true>(g, f, item)) {
                    Ok(h) => h,
                    Err(e) => {
                        bind(&mut f.slots[slot], item);
                        return Err(e);
                    }
                };
                let branch = match holds {
                    true => &then,
                    false => match &els {
                        Some(e) => e,
                        None => {
                            bound = false;
                            continue;
                        }
                    },
                };
                bind(&mut f.slots[slot], item);
                bound = true;
                branch(g, f)?;
            }
            if let (false, Some(last)) = (bound, items.last()) {
                bind(&mut f.slots[slot], last);
            }
            Ok(())
        })
    }
}

/// A read's `tmp` let go: one its kind never writes is none, and needs
/// no drop run.
#[inline(always)]
fn settle<R: Read>(tmp: Value) {
    match R::TMP {
        true => drop(tmp),
        false => std::mem::forget(tmp),
    }
}

/// An item bound in its slot: a number over a number stored, no value
/// cloned or dropped.
#[inline(always)]
fn bind(slot: &mut Value, item: &Value) {
    match (slot, item) {
        (Value::Int(s), Value::Int(n)) => *s = *n,
        (s, item) => *s = item.clone(),
    }
}

/// An operand read in place, typed: each pair of kinds compiles to its own
/// comparison, with no dispatch on the kind at run time.
trait Read: Send + Sync + 'static {
    /// The span the read leaves in the frame (a board read's call's).
    fn at(&self) -> Option<Span>;
    /// The value, borrowed where it lies or made in `tmp` (`item`: the
    /// item a scan tests).
    fn read<'a>(
        &'a self,
        g: &'a Game,
        slots: &'a [Value],
        item: &'a Value,
        me: PlayerId,
        tmp: &'a mut Value,
    ) -> Res<&'a Value>;
    /// Whether [`Read::read`] may make its value in `tmp`.
    const TMP: bool = true;
    /// `x == self` decided with no value made, where the kind allows
    /// (as [`Game::equal`] decides it).
    #[inline(always)]
    fn same_as(&self, _: &Value, _: PlayerId) -> Option<bool> {
        None
    }
    /// The value, where no scan's item changes it and reading it cannot
    /// fail: read once for a whole scan.
    #[inline(always)]
    fn fixed(&self, _: &[Value], _: PlayerId) -> Option<Value> {
        None
    }
    /// The property `square_get(it, prop)` reads, for the item a scan
    /// tests.
    #[inline(always)]
    fn item_prop(&self) -> Option<usize> {
        None
    }
    /// The value, owned (an operand given as a value).
    #[inline(always)]
    fn owned(&self, g: &Game, slots: &[Value], me: PlayerId) -> Res<Value> {
        let mut tmp = Value::None;
        Ok(self.read(g, slots, &NO_ITEM, me, &mut tmp)?.clone())
    }
}

impl Read for Near {
    fn at(&self) -> Option<Span> {
        self.span()
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        g: &'a Game,
        slots: &'a [Value],
        item: &'a Value,
        me: PlayerId,
        tmp: &'a mut Value,
    ) -> Res<&'a Value> {
        self.get(g, slots, item, me, tmp)
    }
    #[inline(always)]
    fn fixed(&self, slots: &[Value], me: PlayerId) -> Option<Value> {
        match self {
            Near::Const(v) => Some(v.clone()),
            Near::Slot(s) => Some(slots[*s].clone()),
            Near::Me => Some(Value::Player(me)),
            _ => None,
        }
    }
}

/// A frame slot.
struct InSlot(usize);
impl Read for InSlot {
    const TMP: bool = false;
    fn at(&self) -> Option<Span> {
        None
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        _: &'a Game,
        slots: &'a [Value],
        _: &'a Value,
        _: PlayerId,
        _: &'a mut Value,
    ) -> Res<&'a Value> {
        Ok(&slots[self.0])
    }
    #[inline(always)]
    fn fixed(&self, slots: &[Value], _: PlayerId) -> Option<Value> {
        Some(slots[self.0].clone())
    }
}

/// The item a scan tests.
struct TheItem;
impl Read for TheItem {
    const TMP: bool = false;
    fn at(&self) -> Option<Span> {
        None
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        _: &'a Game,
        _: &'a [Value],
        item: &'a Value,
        _: PlayerId,
        _: &'a mut Value,
    ) -> Res<&'a Value> {
        Ok(item)
    }
}

/// A constant.
struct Fixed(Value);
impl Read for Fixed {
    const TMP: bool = false;
    fn at(&self) -> Option<Span> {
        None
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        _: &'a Game,
        _: &'a [Value],
        _: &'a Value,
        _: PlayerId,
        _: &'a mut Value,
    ) -> Res<&'a Value> {
        Ok(&self.0)
    }
    #[inline(always)]
    fn same_as(&self, x: &Value, _: PlayerId) -> Option<bool> {
        match &self.0 {
            Value::None => Some(matches!(x, Value::None)),
            Value::Int(k) => Some(matches!(x, Value::Int(v) if v == k)),
            _ => None,
        }
    }
    #[inline(always)]
    fn fixed(&self, _: &[Value], _: PlayerId) -> Option<Value> {
        Some(self.0.clone())
    }
}

/// The running player.
struct Mine;
impl Read for Mine {
    fn at(&self) -> Option<Span> {
        None
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        _: &'a Game,
        _: &'a [Value],
        _: &'a Value,
        me: PlayerId,
        tmp: &'a mut Value,
    ) -> Res<&'a Value> {
        *tmp = Value::Player(me);
        Ok(tmp)
    }
    #[inline(always)]
    fn same_as(&self, x: &Value, me: PlayerId) -> Option<bool> {
        Some(matches!(x, Value::Player(p) if *p == me))
    }
    #[inline(always)]
    fn fixed(&self, _: &[Value], me: PlayerId) -> Option<Value> {
        Some(Value::Player(me))
    }
}

/// `square_get(s, prop)` of a square in frame slot `s`.
struct SquareIn(usize, usize, Span);
impl Read for SquareIn {
    const TMP: bool = false;
    fn at(&self) -> Option<Span> {
        Some(self.2)
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        g: &'a Game,
        slots: &'a [Value],
        _: &'a Value,
        _: PlayerId,
        _: &'a mut Value,
    ) -> Res<&'a Value> {
        let s = square(g, &slots[self.0], Builtin::SquareGet, &self.2)?;
        Ok(g.st.board.prop(s, self.1))
    }
}

/// `square_get(it, prop)` of the item a scan tests.
struct SquareOfItem(usize, Span);
impl Read for SquareOfItem {
    const TMP: bool = false;
    fn at(&self) -> Option<Span> {
        Some(self.1)
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        g: &'a Game,
        _: &'a [Value],
        item: &'a Value,
        _: PlayerId,
        _: &'a mut Value,
    ) -> Res<&'a Value> {
        let s = square(g, item, Builtin::SquareGet, &self.1)?;
        Ok(g.st.board.prop(s, self.0))
    }
    #[inline(always)]
    fn item_prop(&self) -> Option<usize> {
        Some(self.0)
    }
}

impl<A: Read, B: Read> Test<A, B> {
    /// A scan whose right side `k` was read once: each item's left side
    /// compared with it in the loop. An order (`ORDER`) of two numbers
    /// there; of anything else, the item tested as [`Test::holds`] tests
    /// it (its conversion, its error).
    #[inline(always)]
    fn scan_fixed<const ORDER: bool>(
        &self,
        g: &mut Game,
        f: &mut Frame,
        slot: usize,
        items: &[Value],
        hit: &mut dyn FnMut(&Value, usize),
        k: IndexKey,
    ) -> Res<()> {
        let eq = self.cmp == CmpOp::Eq;
        let test = |x: &Value| match (ORDER, x, k) {
            (false, x, k) => Some(k.same(x) == eq),
            (true, Value::Int(x), IndexKey::Int(y)) => Some(self.cmp.holds(*x, y)),
            _ => None,
        };
        // A square's property of each item read straight off the board,
        // up to an item that is not a square or not decided here; of a
        // board's list tested for (in)equality, only the squares that pass
        // (the board's index).
        let from = match self.a.item_prop() {
            Some(p) if !ORDER && g.st.board.found(p, k, eq, items, hit).is_some() => items.len(),
            Some(p) => board_scan(g, p, items, test, hit),
            None => 0,
        };
        for (i, item) in items.iter().enumerate().skip(from) {
            let mut t1 = Value::None;
            let holds = match self.a.read(g, f.slots, item, f.me, &mut t1) {
                Ok(x) => test(x),
                Err(e) => {
                    bind(&mut f.slots[slot], item);
                    return Err(e);
                }
            };
            settle::<A>(t1);
            let holds = match holds {
                Some(h) => h,
                None => match self.holds::<false>(g, f, item) {
                    Ok(h) => h,
                    Err(e) => {
                        bind(&mut f.slots[slot], item);
                        return Err(e);
                    }
                },
            };
            if holds {
                hit(item, items.len() - i);
            }
        }
        if let Some(last) = items.last() {
            bind(&mut f.slots[slot], last);
        }
        Ok(())
    }
}

/// [`Test::scan_fixed`]'s items that are squares on the board, property
/// `p` of each read in place and given to `test`: each that passes given
/// to `hit`, up to the first item that is not a number naming a square or
/// that `test` leaves undecided. Its index, or the items' count.
#[inline(always)]
fn board_scan(
    g: &Game,
    p: usize,
    items: &[Value],
    test: impl Fn(&Value) -> Option<bool>,
    hit: &mut dyn FnMut(&Value, usize),
) -> usize {
    let b = &g.st.board;
    let (props, np, n) = (b.props(), b.nprops, g.data.board.squares.len() as u64);
    for (i, item) in items.iter().enumerate() {
        let s = match *item {
            Value::Int(s) if (s as u64) < n => s as usize,
            _ => return i,
        };
        match test(&props[s * np + p]) {
            Some(true) => hit(item, items.len() - i),
            Some(false) => {}
            None => return i,
        }
    }
    items.len()
}

/// `square_card(s)` of a square in frame slot `s`.
struct CardIn(usize, Span);
impl CardIn {
    #[inline(always)]
    fn card(&self, g: &Game, slots: &[Value]) -> Res<Value> {
        let s = square(g, &slots[self.0], Builtin::SquareCard, &self.1)?;
        Ok(g.data.board.squares[s].card.map_or(Value::None, Value::Def))
    }
}
impl Read for CardIn {
    fn at(&self) -> Option<Span> {
        Some(self.1)
    }
    #[inline(always)]
    fn read<'a>(
        &'a self,
        g: &'a Game,
        slots: &'a [Value],
        _: &'a Value,
        _: PlayerId,
        tmp: &'a mut Value,
    ) -> Res<&'a Value> {
        *tmp = self.card(g, slots)?;
        Ok(tmp)
    }
    #[inline(always)]
    fn owned(&self, g: &Game, slots: &[Value], _: PlayerId) -> Res<Value> {
        self.card(g, slots)
    }
}

/// An operand's value, out of place.
fn value_of<A: Read>(a: A) -> ValFn {
    let span = a.at();
    Box::new(move |g, f| {
        if let Some(s) = span {
            f.span = s;
        }
        a.owned(g, f.slots, f.me)
    })
}

/// `a <cmp> b` as `binop` decides it: `==` and `!=` the values' equality
/// (lists' items paid for as `equal_charged` pays), an order the two
/// converted to numbers after both are read.
struct Test<A, B> {
    a: A,
    b: B,
    cmp: CmpOp,
    span: Span,
    spans: (Option<Span>, Option<Span>),
}

impl<A: Read, B: Read> Test<A, B> {
    fn new(a: A, b: B, cmp: CmpOp, span: Span) -> Self {
        let spans = (a.at(), b.at());
        Test {
            a,
            b,
            cmp,
            span,
            spans,
        }
    }

    #[inline(always)]
    fn holds<const SPANS: bool>(&self, g: &mut Game, f: &mut Frame, item: &Value) -> Res<bool> {
        let mut t1 = Value::None;
        if SPANS && let Some(s) = self.spans.0 {
            f.span = s;
        }
        let x = self.a.read(g, f.slots, item, f.me, &mut t1)?;
        let eq = self.cmp == CmpOp::Eq;
        if matches!(self.cmp, CmpOp::Eq | CmpOp::Ne)
            && let Some(same) = self.b.same_as(x, f.me)
        {
            settle::<A>(t1);
            return Ok(same == eq);
        }
        let mut t2 = Value::None;
        if SPANS && let Some(s) = self.spans.1 {
            f.span = s;
        }
        let y = self.b.read(g, f.slots, item, f.me, &mut t2)?;
        let span = self.span;
        if !matches!(self.cmp, CmpOp::Eq | CmpOp::Ne) {
            if let (Value::Int(x), Value::Int(y)) = (x, y) {
                let holds = self.cmp.holds(*x, *y);
                settle::<A>(t1);
                settle::<B>(t2);
                return Ok(holds);
            }
            return Ok(self.cmp.holds(g.int(x, span)?, g.int(y, span)?));
        }
        let (same, items) = match (x, y) {
            (Value::List(x), Value::List(y)) => {
                let mut n = 0;
                (g.equal_counting(x, y, &mut n), Some(n))
            }
            (x, y) => (g.equal(x, y), None),
        };
        // Lists' items paid for as `equal_charged` pays.
        if let Some(n) = items {
            g.charge_passed(span, n)?;
        }
        Ok(same == eq)
    }
}
