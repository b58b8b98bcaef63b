//! The Rhai sandbox: mods are untrusted, so scripts get a raw engine with only
//! the packages card abilities need (numbers, strings, lists, maps, ranges,
//! function pointers). Nothing reaches the clock (`sleep`, `timestamp`), the
//! terminal (`print`, `debug`), the disk (`import`) or hides code from the
//! load-time check (`eval`). A call to a function the sandbox lacks is an error
//! at load, at its line and column, not a surprise in the middle of a game.

use std::cell::Cell;
use std::collections::HashSet;

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
    BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
    Package,
};
use rhai::{
    AST, ASTNode, Array, Dynamic, Engine, EvalAltResult, Expr, FnPtr, INT, ImmutableString, Map,
    NativeCallContext, Position, Stmt, def_package,
};

use crate::limits::{
    MAX_SCRIPT_ARRAY, MAX_SCRIPT_CALL_LEVELS, MAX_SCRIPT_EXPR_DEPTH, MAX_SCRIPT_FN_EXPR_DEPTH,
    MAX_SCRIPT_MAP, MAX_SCRIPT_OPERATIONS, MAX_SCRIPT_STRING, MEMORY_CHECK_OPERATIONS,
    SCRIPT_SIZE_PER_OPERATION,
};

def_package! {
    /// What card scripts may use of Rhai's standard library: everything pure.
    CardPackage(_lib):
        ArithmeticPackage,
        LogicPackage,
        BitFieldPackage,
        BasicMathPackage,
        BasicStringPackage,
        MoreStringPackage,
        BasicIteratorPackage,
        BasicArrayPackage,
        BasicMapPackage,
        BasicFnPackage
    {}
}

/// Keywords refused at load: output that would mix with a transcript, files
/// read from anywhere, and code the load-time check cannot see.
const REFUSED: &[&str] = &["print", "debug", "import", "export", "eval"];

/// Function-like keywords the engine itself answers.
const KEYWORD_FNS: &[&str] = &[
    "type_of",
    "Fn",
    "call",
    "curry",
    "is_shared",
    "is_def_var",
    "is_def_fn",
];

/// A Rhai engine with the card package, the refused keywords and the limits.
pub fn engine() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(CardPackage::new().as_shared_module());
    for kw in REFUSED {
        engine.disable_symbol(*kw);
    }
    engine.set_max_operations(MAX_SCRIPT_OPERATIONS);
    engine.set_max_call_levels(MAX_SCRIPT_CALL_LEVELS);
    engine.set_max_expr_depths(MAX_SCRIPT_EXPR_DEPTH, MAX_SCRIPT_FN_EXPR_DEPTH);
    engine.set_max_string_size(MAX_SCRIPT_STRING);
    engine.set_max_array_size(MAX_SCRIPT_ARRAY);
    engine.set_max_map_size(MAX_SCRIPT_MAP);
    meter(&mut engine);
    engine
}

thread_local! {
    /// The running script call's operations: those charged by size
    /// ([`weigh`]) and Rhai's own count when it last reported.
    static METER: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    /// The running call's memory ceiling: the thread's allocation count
    /// ([`crate::memory::held`]) past which its game holds too much.
    static CEILING: Cell<isize> = const { Cell::new(isize::MAX) };
}

/// Exchanges the thread's running call's meter and memory ceiling with
/// `saved` ([`crate::engine::ThreadState`]).
pub(crate) fn swap(saved: &mut ((u64, u64), isize)) {
    saved.0 = METER.replace(saved.0);
    saved.1 = CEILING.replace(saved.1);
}

/// The token a call stopped by its budget ends with.
pub const OVER_BUDGET: &str = "fuda: over the operation budget";

/// The token a call stopped by its game's memory budget ends with.
pub const OVER_MEMORY: &str = "fuda: over the memory budget";

/// Runs one script call with a meter of its own (a call made from inside
/// another, through a kernel operation, is metered apart, as Rhai counts
/// it), stopped once the thread's allocation count passes `ceiling`;
/// returns its result and the operations it cost.
pub fn metered<T>(ceiling: isize, f: impl FnOnce() -> T) -> (T, u64) {
    let outer = METER.replace((0, 0));
    let outer_ceiling = CEILING.replace(ceiling);
    let r = f();
    CEILING.set(outer_ceiling);
    let (sized, counted) = METER.replace(outer);
    (r, sized.saturating_add(counted))
}

/// Charges `n` operations to the running call; an error (at `pos`, or
/// where Rhai fills it in) once the call is over its budget.
fn charge(n: u64, pos: Position) -> Result<(), Box<EvalAltResult>> {
    let (sized, counted) = METER.get();
    let before = sized.saturating_add(counted);
    let sized = sized.saturating_add(n);
    METER.set((sized, counted));
    if sized.saturating_add(counted) > MAX_SCRIPT_OPERATIONS {
        return Err(over_budget(pos));
    }
    if over_memory(before, before.saturating_add(n)) {
        return Err(Box::new(EvalAltResult::ErrorTerminated(
            OVER_MEMORY.into(),
            pos,
        )));
    }
    Ok(())
}

/// Whether the game holds too much, looked at once every
/// [`MEMORY_CHECK_OPERATIONS`] (from `before` to `after` operations).
fn over_memory(before: u64, after: u64) -> bool {
    before / MEMORY_CHECK_OPERATIONS != after / MEMORY_CHECK_OPERATIONS
        && crate::memory::held().1 > CEILING.get()
}

fn over_budget(pos: Position) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorTerminated(OVER_BUDGET.into(), pos))
}

/// Rhai counts an operation per step whatever the size of the values it
/// copies, scans or size-checks: one `contains` or `push` on a big array
/// is one. So reading a variable is charged by what it holds
/// ([`weigh`]), building a value from nothing (`pad`) by what it makes,
/// and the call stops once Rhai's count and those charges pass
/// [`MAX_SCRIPT_OPERATIONS`]. The work, and the values a call can make
/// and keep, are bounded by the budget.
fn meter(engine: &mut Engine) {
    // Each report is one operation. Rhai's own count is not used: the
    // operations of a callback (`sort`, `map`, `filter`…) run on a copy of
    // it that is dropped when the callback returns.
    engine.on_progress(|_| {
        let (sized, counted) = METER.get();
        let before = sized.saturating_add(counted);
        let counted = counted + 1;
        METER.set((sized, counted));
        if over_memory(before, before + 1) {
            return Some(Dynamic::from(OVER_MEMORY));
        }
        (counted.saturating_add(sized) > MAX_SCRIPT_OPERATIONS).then(|| Dynamic::from(OVER_BUDGET))
    });
    #[allow(deprecated)] // volatile in Rhai, not deprecated
    engine.on_var(|name, _, ctx| {
        // Stopped here, the error points at the variable read.
        match ctx.scope().get(name) {
            Some(v) => charge(weigh(v), Position::NONE).map(|_| None),
            None => Ok(None),
        }
    });
    engine.register_fn(
        "pad",
        |ctx: NativeCallContext, a: &mut Array, len: INT, item: Dynamic| {
            let n = usize::try_from(len).unwrap_or(0);
            if n <= a.len() {
                return Ok(());
            }
            // Refused before it is made, as Rhai's own `pad` does.
            let made = ((n - a.len()) as u64).saturating_mul(1 + size(&item));
            if made.saturating_add(size_of_array(a)) > MAX_SCRIPT_ARRAY as u64 {
                return Err(too_big(&ctx, "array"));
            }
            charge(made / SCRIPT_SIZE_PER_OPERATION, ctx.call_position())?;
            a.resize(n, item);
            Ok(())
        },
    );
    engine.register_fn(
        "contains",
        |ctx: NativeCallContext, a: &mut Array, x: Dynamic| -> Result<bool, Box<EvalAltResult>> {
            Ok(find(&ctx, a, &x)?.is_some())
        },
    );
    engine.register_fn(
        "index_of",
        |ctx: NativeCallContext, a: &mut Array, x: Dynamic| -> Result<INT, Box<EvalAltResult>> {
            Ok(find(&ctx, a, &x)?.map_or(-1, |i| i as INT))
        },
    );
    // Arrays and maps compared item by item through Rhai's `==` (nested
    // ones through these again): charged per item, as `contains` is.
    engine.register_fn("==", |ctx: NativeCallContext, a: &mut Array, b: Array| {
        equal_arrays(&ctx, a, b)
    });
    engine.register_fn("!=", |ctx: NativeCallContext, a: &mut Array, b: Array| {
        equal_arrays(&ctx, a, b).map(|e| !e)
    });
    engine.register_fn("==", |ctx: NativeCallContext, a: &mut Map, b: Map| {
        equal_maps(&ctx, a, b)
    });
    engine.register_fn("!=", |ctx: NativeCallContext, a: &mut Map, b: Map| {
        equal_maps(&ctx, a, b).map(|e| !e)
    });
    engine.register_fn(
        "dedup",
        |ctx: NativeCallContext, a: &mut Array| -> Result<(), Box<EvalAltResult>> {
            charge_pairs(&ctx, a, a.len() as u64)?;
            dedup_by(a, |x, y| equal(&ctx, x, y))
        },
    );
    engine.register_fn(
        "dedup",
        |ctx: NativeCallContext, a: &mut Array, f: FnPtr| -> Result<(), Box<EvalAltResult>> {
            charge_pairs(&ctx, a, a.len() as u64)?;
            dedup_by(a, |x, y| {
                let r = f.call_raw(&ctx, None, [y.clone(), x.clone()])?;
                Ok(r.as_bool().unwrap_or(false))
            })
        },
    );
    for name in ["sort", "sort_by"] {
        engine.register_fn(name, sort_by);
    }
    engine.register_fn("sort", |ctx: NativeCallContext, a: &mut Array| {
        sort_builtin(&ctx, a, false)
    });
    engine.register_fn("sort_desc", |ctx: NativeCallContext, a: &mut Array| {
        sort_builtin(&ctx, a, true)
    });
    fn pad_str(
        ctx: &NativeCallContext,
        s: &mut ImmutableString,
        len: INT,
        fill: &str,
    ) -> Result<(), Box<EvalAltResult>> {
        let n = usize::try_from(len).unwrap_or(0);
        let have = s.chars().count();
        if n <= have || fill.is_empty() {
            return Ok(());
        }
        let add: String = fill.chars().cycle().take(n - have).collect();
        charge(
            add.len() as u64 / SCRIPT_SIZE_PER_OPERATION,
            ctx.call_position(),
        )?;
        if s.len() + add.len() > MAX_SCRIPT_STRING {
            return Err(too_big(ctx, "string"));
        }
        s.make_mut().push_str(&add);
        Ok(())
    }
    engine.register_fn(
        "pad",
        |ctx: NativeCallContext, s: &mut ImmutableString, len: INT, c: char| {
            pad_str(&ctx, s, len, c.encode_utf8(&mut [0; 4]))
        },
    );
    engine.register_fn(
        "pad",
        |ctx: NativeCallContext, s: &mut ImmutableString, len: INT, fill: ImmutableString| {
            pad_str(&ctx, s, len, &fill)
        },
    );
}

/// Operations one item costs where an array is searched by value
/// (`contains`, `in`, `index_of`): each item is compared through Rhai's
/// `==`, some ten times the work of an operation.
const PER_COMPARISON: u64 = 8;

/// The first item of `a` equal to `x` by Rhai's `==` (items of another
/// type are unequal), as the array package searches, charged per item.
fn find(
    ctx: &NativeCallContext,
    a: &mut Array,
    x: &Dynamic,
) -> Result<Option<usize>, Box<EvalAltResult>> {
    charge(
        (a.len() as u64).saturating_mul(PER_COMPARISON),
        ctx.call_position(),
    )?;
    for (i, item) in a.iter_mut().enumerate() {
        if equal(ctx, item, &mut x.clone())? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// Whether two values are equal by Rhai's `==` (values of different types
/// with no `==` between them are unequal, as the array package has it).
fn equal(
    ctx: &NativeCallContext,
    a: &mut Dynamic,
    b: &mut Dynamic,
) -> Result<bool, Box<EvalAltResult>> {
    let same_type = a.type_id() == b.type_id();
    match ctx.call_native_fn_raw("==", true, &mut [a, b]) {
        Ok(v) => Ok(v.as_bool().unwrap_or(false)),
        Err(e) if !same_type && matches!(*e, EvalAltResult::ErrorFunctionNotFound(..)) => Ok(false),
        Err(e) => Err(e),
    }
}

fn equal_arrays(
    ctx: &NativeCallContext,
    a: &mut Array,
    mut b: Array,
) -> Result<bool, Box<EvalAltResult>> {
    if a.len() != b.len() {
        return Ok(false);
    }
    charge(
        (a.len() as u64).saturating_mul(PER_COMPARISON),
        ctx.call_position(),
    )?;
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        if !equal(ctx, x, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn equal_maps(
    ctx: &NativeCallContext,
    a: &mut Map,
    mut b: Map,
) -> Result<bool, Box<EvalAltResult>> {
    if a.len() != b.len() {
        return Ok(false);
    }
    charge(
        (a.len() as u64).saturating_mul(PER_COMPARISON),
        ctx.call_position(),
    )?;
    for (k, x) in a.iter_mut() {
        let Some(y) = b.get_mut(k) else {
            return Ok(false);
        };
        if !equal(ctx, x, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Charges `pairs` comparisons of `a`'s items, each through Rhai with both
/// items copied: [`PER_COMPARISON`] operations and the copies' size.
fn charge_pairs(ctx: &NativeCallContext, a: &Array, pairs: u64) -> Result<(), Box<EvalAltResult>> {
    let per_item = size_of_array(a) / (a.len() as u64).max(1);
    let each = PER_COMPARISON + 2 * per_item / SCRIPT_SIZE_PER_OPERATION;
    charge(pairs.saturating_mul(each), ctx.call_position())
}

/// `dedup` stopped at the first failed comparison (Rhai's took a failure
/// as "unequal" and went on, past an exhausted budget).
fn dedup_by(
    a: &mut Array,
    mut same: impl FnMut(&mut Dynamic, &mut Dynamic) -> Result<bool, Box<EvalAltResult>>,
) -> Result<(), Box<EvalAltResult>> {
    let mut failed = None;
    a.dedup_by(|x, y| {
        failed.is_none()
            && same(x, y).unwrap_or_else(|e| {
                failed = Some(e);
                false
            })
    });
    failed.map_or(Ok(()), Err)
}

/// `sort` with a comparer, charged before for about n·log₂n comparisons
/// ([`charge_pairs`]) and stopped at the first failed one (Rhai's went on
/// with every comparison after an exhausted budget). Results as Rhai's:
/// a number's sign, or `true` for "before".
fn sort_by(ctx: NativeCallContext, a: &mut Array, f: FnPtr) -> Result<(), Box<EvalAltResult>> {
    let n = a.len() as u64;
    if n <= 1 {
        return Ok(());
    }
    charge_pairs(&ctx, a, n * (64 - n.leading_zeros() as u64))?;
    let mut failed = None;
    let sorted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        a.sort_by(|x, y| {
            if failed.is_some() {
                return std::cmp::Ordering::Equal;
            }
            match f.call_raw(&ctx, None, [x.clone(), y.clone()]) {
                Ok(v) => match v
                    .as_int()
                    .or_else(|_| v.as_bool().map(|b| if b { -1 } else { 1 }))
                {
                    Ok(v) => v.cmp(&0),
                    Err(_) => x.type_id().cmp(&y.type_id()),
                },
                Err(e) => {
                    failed = Some(e);
                    std::cmp::Ordering::Equal
                }
            }
        })
    }));
    if let Some(e) = failed {
        return Err(e);
    }
    sorted.map_err(|_| {
        Box::new(EvalAltResult::ErrorRuntime(
            "error in comparer for sorting".into(),
            ctx.call_position(),
        ))
    })
}

/// `sort()` and `sort_desc()` without a comparer, as Rhai's (numbers,
/// characters, strings or booleans, all of one type), charged before for
/// about n·log₂n comparisons: the items and string bytes compared, one
/// operation per [`SCRIPT_SIZE_PER_OPERATION`], as reading them is (Rhai's
/// cost only the read of the array, a thousandth of the work).
fn sort_builtin(
    ctx: &NativeCallContext,
    a: &mut Array,
    desc: bool,
) -> Result<(), Box<EvalAltResult>> {
    use std::any::TypeId;
    use std::cmp::Ordering;
    let n = a.len() as u64;
    if n <= 1 {
        return Ok(());
    }
    let compared = (n * (64 - n.leading_zeros() as u64)).saturating_mul(size_of_array(a) / n);
    charge(compared / SCRIPT_SIZE_PER_OPERATION, ctx.call_position())?;
    let t = a[0].type_id();
    let not_found =
        |what: String| Box::new(EvalAltResult::ErrorFunctionNotFound(what, Position::NONE));
    if a.iter().any(|x| x.type_id() != t) {
        return Err(not_found(
            "elements of different types cannot be sorted".into(),
        ));
    }
    let order: fn(&Dynamic, &Dynamic) -> Ordering = if t == TypeId::of::<INT>() {
        |x, y| x.as_int().ok().cmp(&y.as_int().ok())
    } else if t == TypeId::of::<char>() {
        |x, y| x.as_char().ok().cmp(&y.as_char().ok())
    } else if t == TypeId::of::<rhai::FLOAT>() {
        // Not a number after every number: an order Rust's sort accepts.
        |x, y| {
            let (x, y) = (x.as_float().unwrap_or(0.0), y.as_float().unwrap_or(0.0));
            x.partial_cmp(&y)
                .unwrap_or_else(|| x.is_nan().cmp(&y.is_nan()))
        }
    } else if t == TypeId::of::<ImmutableString>() {
        |x, y| match (x.as_immutable_string_ref(), y.as_immutable_string_ref()) {
            (Ok(x), Ok(y)) => x.as_str().cmp(y.as_str()),
            _ => Ordering::Equal,
        }
    } else if t == TypeId::of::<bool>() {
        |x, y| x.as_bool().ok().cmp(&y.as_bool().ok())
    } else if t == TypeId::of::<()>() {
        return Ok(());
    } else {
        return Err(not_found(format!(
            "elements of {} cannot be sorted",
            a[0].type_name()
        )));
    };
    if desc {
        a.sort_by(|x, y| order(y, x));
    } else {
        a.sort_by(order);
    }
    Ok(())
}

fn too_big(ctx: &NativeCallContext, what: &str) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorDataTooLarge(
        format!("Size of {what}"),
        ctx.call_position(),
    ))
}

/// What reading a value costs: one operation per [`SCRIPT_SIZE_PER_OPERATION`]
/// items of its arrays and maps and bytes of its strings, nested ones
/// included (walking it costs about as much as it is charged).
pub fn weigh(v: &Dynamic) -> u64 {
    size(v) / SCRIPT_SIZE_PER_OPERATION
}

/// Items of a value's arrays and maps and bytes of its strings.
fn size(v: &Dynamic) -> u64 {
    if v.is_array() {
        v.as_array_ref().map_or(0, |a| size_of_array(&a))
    } else if v.is_map() {
        v.as_map_ref().map_or(0, |m| size_of_map(&m))
    } else if v.is_string() {
        v.as_immutable_string_ref().map_or(0, |s| s.len() as u64)
    } else {
        0
    }
}

fn size_of_array(a: &Array) -> u64 {
    a.len() as u64 + a.iter().map(size).sum::<u64>()
}

fn size_of_map(m: &Map) -> u64 {
    m.iter().map(|(k, x)| 1 + k.len() as u64 + size(x)).sum()
}

/// The names of every function registered in `engine`, with the keywords.
pub fn known_functions(engine: &Engine) -> HashSet<String> {
    let mut known: HashSet<String> = engine
        .collect_fn_metadata(None, |f| Some(f.metadata.name.to_string()), true)
        .into_iter()
        .collect();
    known.extend(KEYWORD_FNS.iter().map(|s| s.to_string()));
    known
}

/// Calls in `ast` to functions neither registered (`known`) nor defined in the
/// script, each with its position.
pub fn unknown_calls(ast: &AST, known: &HashSet<String>) -> Vec<(String, Position)> {
    let own: HashSet<&str> = ast.iter_functions().map(|f| f.name).collect();
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(f, pos) | Expr::MethodCall(f, pos))) => Some((f, pos)),
            Some(ASTNode::Stmt(Stmt::FnCall(f, pos))) => Some((f, pos)),
            _ => None,
        };
        if let Some((f, pos)) = call {
            let name = f.name.as_str();
            let plain =
                f.op_token.is_none() && name.starts_with(|c: char| c.is_alphabetic() || c == '_');
            if plain && !known.contains(name) && !own.contains(name) {
                out.push((name.to_string(), *pos));
            }
        }
        true
    });
    out
}
