//! The bridge between Rhai and the kernel: scripts compiled at load
//! (`data::scripts`) run against a game and reach the same kernel operations as
//! card text: every builtin and every rules verb is registered as a Rhai
//! function. Scripts run under limits, so a runaway script is stopped and
//! reported with its card.

use std::any::TypeId;
use std::cell::{Cell, RefCell};

use rhai::{
    Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext, Position, Scope,
};

use super::exec::{Charge, Enter, Frame};
use super::{Flow, Game, Res};
use crate::data::Data;
use crate::data::scripts::{Scripts, Snippet};
use crate::lang::builtins::Builtin;
use crate::lang::compile::Origin;
use crate::lang::ir::{Field, Span, Special};
use crate::lang::names::{Names, find};
use crate::limits::{MAX_SCRIPT_OPERATIONS, SCRIPT_SIZE_PER_OPERATION};
use crate::sandbox::{OVER_BUDGET, OVER_MEMORY};
use crate::value::{Args, ObjId, PlayerId, Value};

/// A kernel value inside Rhai (a card, a player, a zone…).
#[derive(Debug, Clone)]
pub struct Handle(pub Value);

thread_local! {
    static CURRENT: Cell<*mut Game> = const { Cell::new(std::ptr::null_mut()) };
    static CONTEXT: Cell<(Option<ObjId>, PlayerId, Span)> = const { Cell::new((None, 0, Span { file: 0, start: 0, end: 0 })) };
    static FLOW: RefCell<Option<Box<Flow>>> = const { RefCell::new(None) };
    /// Emptied scopes kept for the next snippet run: their vectors are not
    /// made again for every run (a snippet run inside another takes its own).
    static SCOPES: RefCell<Vec<Scope<'static>>> = const { RefCell::new(Vec::new()) };
}

/// The most emptied scopes a thread keeps ([`SCOPES`]).
const SPARE_SCOPES: usize = 8;

/// The script call a suspended game is inside (the game, its context, a
/// kernel `Flow` on its way through Rhai): a game that waits for an answer
/// in the middle of a script keeps it while other games run on its thread
/// ([`super::ThreadState`]).
pub(crate) struct Saved {
    current: *mut Game,
    context: (Option<ObjId>, PlayerId, Span),
    flow: Option<Box<Flow>>,
}

impl Default for Saved {
    fn default() -> Saved {
        Saved {
            current: std::ptr::null_mut(),
            context: (None, 0, Span::default()),
            flow: None,
        }
    }
}

/// Exchanges the thread's script call with `s`.
pub(crate) fn swap(s: &mut Saved) {
    s.current = CURRENT.replace(s.current);
    s.context = CONTEXT.replace(s.context);
    FLOW.with(|f| std::mem::swap(&mut *f.borrow_mut(), &mut s.flow));
}

/// The engine that runs a game's scripts, built on first use: the compiled
/// ASTs (`data::scripts`) see every builtin and rules verb as a function.
fn runtime(data: &Data) -> &Engine {
    data.scripts.runtime.get_or_init(|| engine(&data.names))
}

/// The sandbox's engine with every kernel operation registered.
fn engine(names: &Names) -> Engine {
    let mut engine = crate::sandbox::engine();
    engine.register_type_with_name::<Handle>("Handle");
    engine.register_fn("==", |a: &mut Handle, b: Handle| {
        with_game(|g| g.equal(&a.0, &b.0)).unwrap_or(false)
    });
    engine.register_fn("!=", |a: &mut Handle, b: Handle| {
        !with_game(|g| g.equal(&a.0, &b.0)).unwrap_or(false)
    });
    // `contains(list, card)`: the array package's would call `==` back
    // through Rhai for each item (a definition list is dozens long); the
    // same comparisons made here. Items that are not kernel values equal
    // no handle, as there.
    engine.register_fn("contains", |list: &mut Array, h: Handle| {
        list.iter().any(|item| {
            item.read_lock::<Handle>()
                .is_some_and(|i| with_game(|g| g.equal(&i.0, &h.0)).unwrap_or(false))
        })
    });
    engine.register_fn("to_string", |a: &mut Handle| {
        with_game(|g| g.show(&a.0)).unwrap_or_default()
    });
    let fields = names
        .counters
        .iter()
        .chain(names.props.iter())
        .map(|s| s.as_str())
        .chain(Special::NAMES.iter().copied());
    for name in fields {
        // Resolved once here, not by name at every read.
        let field = Field::named(names, name);
        engine.register_get(
            name,
            move |h: &mut Handle| -> Result<Dynamic, Box<EvalAltResult>> {
                bridge(|g, f| g.field(&h.0, &field, f))
            },
        );
        engine.register_set(
            name,
            move |h: &mut Handle, v: Dynamic| -> Result<(), Box<EvalAltResult>> {
                bridge(|g, f| {
                    g.set_field(&h.0, &field, value_of(&v), f)?;
                    Ok(Value::None)
                })
                .map(|_| ())
            },
        );
    }
    // Names Rhai's packages or the sandbox already give a function: a
    // typed signature of the kernel's could take their calls over.
    let taken = crate::sandbox::known_functions(&engine);
    for &b in Builtin::ALL {
        if matches!(b, Builtin::Sum | Builtin::Any) {
            continue;
        }
        let (min, max) = b.arity();
        let call = move |_: NativeCallContext, args: &mut [&mut Dynamic]| {
            bridge(|g, f| {
                let vals = g.script_args(b, args, f)?;
                g.call(b, vals, f)
            })
        };
        for n in min..=max {
            for types in signatures(n, !taken.contains(b.name())) {
                engine.register_raw_fn(b.name(), types, call);
            }
        }
    }
    for (v, (name, params)) in names.verbs.iter().enumerate() {
        let call = move |_: NativeCallContext, args: &mut [&mut Dynamic]| {
            let vals: Args = args.iter().map(|a| value_of(a)).collect();
            bridge(|g, f| {
                let data = g.data.clone();
                g.exec_code(&data.verbs[v], f.this, f.me, vals)
            })
        };
        for types in signatures(params.len(), !taken.contains(name.as_str())) {
            engine.register_raw_fn(name.as_str(), types, call);
        }
    }
    engine
}

/// The parameter types a kernel function of `n` parameters is registered
/// with: `Dynamic` each (any value). Rhai looks a call up by its arguments'
/// types, then with each combination of them replaced by `Dynamic`, the
/// all-`Dynamic` one last (2^n lookups); so with `typed`, a function of one
/// or two parameters is registered for each combination of the commonest
/// types too (a kernel value, a number, a name), found at the first lookup.
/// The same function either way.
fn signatures(n: usize, typed: bool) -> Vec<Vec<TypeId>> {
    let mut all = vec![vec![TypeId::of::<Dynamic>(); n]];
    if typed && (1..=2).contains(&n) {
        let common = [
            TypeId::of::<Handle>(),
            TypeId::of::<rhai::INT>(),
            TypeId::of::<ImmutableString>(),
        ];
        let mut typed: Vec<Vec<TypeId>> = vec![vec![]];
        for _ in 0..n {
            typed = (typed.iter())
                .flat_map(|t| common.iter().map(move |c| [&t[..], &[*c]].concat()))
                .collect();
        }
        all.extend(typed);
    }
    all
}

fn with_game<R>(f: impl FnOnce(&mut Game) -> R) -> Option<R> {
    let p = CURRENT.get();
    if p.is_null() {
        return None;
    }
    // SAFETY: CURRENT is set only by `enter` for the duration of a script call
    // made from a `&mut Game` that is not touched until the call returns; the
    // pointer is cleared (restored) before that borrow ends.
    Some(f(unsafe { &mut *p }))
}

/// Runs a kernel operation from inside Rhai; a kernel `Flow` (end of turn, an
/// error, a scenario out of answers) travels through Rhai as an error and is
/// restored on the way out.
fn bridge(
    op: impl FnOnce(&mut Game, &mut Frame) -> Res<Value>,
) -> Result<Dynamic, Box<EvalAltResult>> {
    let (this, me, span) = CONTEXT.get();
    let r = with_game(|g| {
        let data = g.data.clone();
        let e = Enter {
            data: &data,
            this,
            me,
            span,
            move_name: None,
        };
        g.framed(Charge::Within, e, 0, |_| {}, op)
    });
    match r {
        Some(Ok(v)) => Ok(to_dynamic(v)),
        Some(Err(flow)) => {
            let msg = match &*flow {
                Flow::Error(e) => e.message.clone(),
                _ => "control flow".into(),
            };
            FLOW.with(|s| *s.borrow_mut() = Some(flow));
            Err(Box::new(EvalAltResult::ErrorRuntime(
                msg.into(),
                Position::NONE,
            )))
        }
        None => Err("no game is running".into()),
    }
}

fn enter<T>(
    g: &mut Game,
    this: Option<ObjId>,
    me: PlayerId,
    span: Span,
    f: impl FnOnce(&Engine, &Scripts) -> T,
) -> (T, u64) {
    let data = g.data.clone();
    let prev = CURRENT.replace(g as *mut Game);
    let prev_ctx = CONTEXT.replace((this, me, span));
    let ceiling = g.memory_ceiling();
    let r = crate::sandbox::metered(ceiling, || f(runtime(&data), &data.scripts));
    CONTEXT.set(prev_ctx);
    CURRENT.set(prev);
    r
}

fn finish(
    g: &Game,
    r: Result<Dynamic, Box<EvalAltResult>>,
    text_of: &Origin,
    span: Span,
) -> Res<Value> {
    match r {
        Ok(v) => Ok(from_dynamic(v)),
        Err(e) => {
            if let Some(flow) = FLOW.with(|s| s.borrow_mut().take()) {
                return Err(flow);
            }
            // Down to the error inside the innermost script function, at
            // its place in that function's own file (or at the call that
            // failed, if the error has no place of its own).
            let (mut e, mut origin) = (e, std::borrow::Cow::Borrowed(text_of));
            while let EvalAltResult::ErrorInFunctionCall(name, _, mut inner, pos) = *e {
                if inner.position().line().is_none() {
                    inner.set_position(pos);
                } else if let Some(file) = g.data.scripts.file_of(&name) {
                    origin = std::borrow::Cow::Owned(Origin::identity(file));
                }
                e = inner;
            }
            let (file, text) = (origin.file, g.data.sources.text(origin.file));
            let at = match e.position().line() {
                Some(_) => {
                    let snippet_off = pos_offset_in_origin(text, &origin, e.position());
                    Span {
                        file,
                        start: snippet_off,
                        end: snippet_off + 1,
                    }
                }
                None => span,
            };
            let message = match &*e {
                EvalAltResult::ErrorTerminated(t, _)
                    if t.clone().into_string().is_ok_and(|t| t == OVER_BUDGET) =>
                {
                    format!(
                        "script stopped: it ran more than {MAX_SCRIPT_OPERATIONS} operations, values read counted by size (one per {SCRIPT_SIZE_PER_OPERATION} items or bytes)"
                    )
                }
                EvalAltResult::ErrorTerminated(t, _)
                    if t.clone().into_string().is_ok_and(|t| t == OVER_MEMORY) =>
                {
                    return g.too_much_memory(at);
                }
                EvalAltResult::ErrorTooManyOperations(_) => {
                    format!(
                        "script stopped: it ran more than {MAX_SCRIPT_OPERATIONS} operations (an endless loop?)"
                    )
                }
                EvalAltResult::ErrorStackOverflow(_) => {
                    "script stopped: calls nested too deep (endless recursion?)".into()
                }
                other => format!("script error: {other}"),
            };
            g.err(at, message)
        }
    }
}

/// Maps a Rhai position (line/column within a snippet) to a file offset.
fn pos_offset_in_origin(file_text: &str, origin: &Origin, pos: Position) -> u32 {
    // Snippet line k starts at origin.lines[k] when every line was found;
    // a script file is mapped as a whole (one entry): its lines counted.
    let line = pos.line().unwrap_or(1).max(1);
    let col = pos.position().unwrap_or(1);
    let start = match origin.lines.get(line - 1) {
        Some((_, f)) => *f as usize,
        None => {
            let known = origin.lines.len().max(1) - 1;
            let mut at = origin.lines.last().map_or(0, |(_, f)| *f as usize);
            for _ in known..line - 1 {
                match file_text.get(at..).and_then(|t| t.find('\n')) {
                    Some(i) => at += i + 1,
                    None => break,
                }
            }
            at
        }
    };
    // The column counts characters.
    let line_text = file_text.get(start..).unwrap_or("");
    let col = (line_text.char_indices().nth(col.saturating_sub(1)))
        .map_or(line_text.len().min(col.saturating_sub(1)), |(i, _)| i);
    (start + col) as u32
}

/// Runs a card's Rhai snippet.
pub fn run_snippet(
    g: &mut Game,
    id: u32,
    this: Option<ObjId>,
    me: PlayerId,
    target: Value,
) -> Res<Value> {
    let data = g.data.clone();
    let snippet = &data.scripts.snippets[id as usize];
    let origin = &snippet.origin;
    let span = Span {
        file: origin.file,
        start: origin.map(0),
        end: origin.map(0) + 1,
    };
    let event = match g.st.events.len() {
        0 => Value::None,
        n => Value::Event(n - 1),
    };
    let mut scope = SCOPES.with(|s| s.borrow_mut().pop()).unwrap_or_default();
    let (r, ops) = enter(g, this, me, span, |engine, _| {
        // Only the names its text reads (`data::scripts::GIVEN`'s order).
        let [card, reads_me, reads_event, reads_target] = snippet.reads;
        if card {
            let card = this.map(Value::Card).unwrap_or(Value::None);
            scope.push_constant_dynamic("card", to_dynamic(card));
        }
        if reads_me {
            scope.push_dynamic("me", to_dynamic(Value::Player(me)));
        }
        if reads_event {
            scope.push_constant_dynamic("event", to_dynamic(event));
        }
        if reads_target {
            scope.push_constant_dynamic("target", to_dynamic(target));
        }
        run_kept(engine, &mut scope, snippet)
    });
    scope.clear();
    SCOPES.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < SPARE_SCOPES {
            s.push(scope);
        }
    });
    let v = finish(g, r, origin, span)?;
    g.charge(span, ops)?;
    Ok(v)
}

/// Runs `snippet`'s statements as `Engine::eval_ast_with_scope` does (its
/// functions, the rules' merged in, in reach), with the function lookups
/// its earlier runs made.
fn run_kept(
    engine: &Engine,
    scope: &mut Scope,
    snippet: &Snippet,
) -> Result<Dynamic, Box<EvalAltResult>> {
    let lock = || snippet.lookups.lock().unwrap_or_else(|e| e.into_inner());
    let mut caches = lock().pop().unwrap_or_default();
    let mut global = engine.new_global_runtime_state();
    global.lib.push(snippet.ast.shared_lib().clone());
    #[allow(deprecated)] // `internals`: the way to pass one's own caches
    let r = engine.eval_statements_raw(&mut global, &mut caches, scope, snippet.ast.statements());
    // What a failed call left pushed goes; the snippet's own level stays.
    caches.rewind_fn_resolution_caches(caches.fn_resolution_caches_len().min(1));
    lock().push(caches);
    r
}

/// Calls a function from the rules' script files.
pub fn call_fn(
    g: &mut Game,
    id: u16,
    args: Vec<Value>,
    this: Option<ObjId>,
    me: PlayerId,
    span: Span,
) -> Res<Value> {
    let data = g.data.clone();
    let name = data.scripts.fns[id as usize].0.clone();
    // The called function's file: an error with no function call between
    // is in it.
    let origin = Origin::identity(data.scripts.file_of(&name).unwrap_or_default());
    let args: Vec<Dynamic> = args.into_iter().map(to_dynamic).collect();
    let (r, ops) = enter(g, this, me, span, |engine, s| {
        let mut scope = Scope::new();
        engine.call_fn::<Dynamic>(&mut scope, &s.lib, &name, args)
    });
    let v = finish(g, r, &origin, span)?;
    g.charge(span, ops)?;
    Ok(v)
}

impl Game {
    /// A builtin's arguments from Rhai, read in place. Scripts pass names
    /// ("gain", "staying") where card text has indices: a string is looked
    /// up as it is, with no kernel string made for it.
    fn script_args(&self, b: Builtin, args: &[&mut Dynamic], f: &Frame) -> Res<Args> {
        let mut vals = Args::new();
        for (i, a) in args.iter().enumerate() {
            let Some(t) = b.name_table(i) else {
                vals.push(value_of(a));
                continue;
            };
            let table = self.data.names.table(t);
            if let Ok(s) = a.as_immutable_string_ref() {
                let s = s.as_str();
                match find(table, s) {
                    Some(id) => vals.push(Value::Int(id as i64)),
                    None => {
                        let help = crate::suggest::suggest(s, table.iter().map(|x| x.as_str()));
                        let help = help
                            .map(|h| format!(" — did you mean \"{h}\"?"))
                            .unwrap_or_default();
                        return self.err(f.span, format!("unknown {} \"{s}\"{help}", t.what()));
                    }
                }
                continue;
            }
            let v = value_of(a);
            if matches!(v, Value::None) {
                vals.push(v);
                continue;
            }
            // Anything else must already be one of the table's indices.
            let n = self.int(&v, f.span)?;
            if usize::try_from(n).map_or(true, |n| n >= table.len()) {
                return self.err(
                    f.span,
                    format!(
                        "{}: the {} must be a name (a string), not {n}",
                        b.name(),
                        t.what()
                    ),
                );
            }
            vals.push(Value::Int(n));
        }
        Ok(vals)
    }
}

pub fn to_dynamic(v: Value) -> Dynamic {
    match v {
        Value::None => Dynamic::UNIT,
        Value::Int(i) => Dynamic::from_int(i),
        Value::Bool(b) => Dynamic::from_bool(b),
        Value::Str(s) => Dynamic::from(ImmutableString::from(&*s)),
        Value::List(l) => {
            let a: Array = l.iter().cloned().map(to_dynamic).collect();
            Dynamic::from_array(a)
        }
        other => Dynamic::from(Handle(other)),
    }
}

pub fn from_dynamic(d: Dynamic) -> Value {
    value_of(&d)
}

/// The kernel value of a Rhai value, read in place (a shared one through
/// its lock); what is neither a kernel value nor a number, flag, string or
/// list of them is nothing.
pub fn value_of(d: &Dynamic) -> Value {
    if let Some(h) = d.read_lock::<Handle>() {
        h.0.clone()
    } else if let Ok(i) = d.as_int() {
        Value::Int(i)
    } else if let Ok(b) = d.as_bool() {
        Value::Bool(b)
    } else if let Ok(s) = d.as_immutable_string_ref() {
        Value::text(s.as_str())
    } else if let Ok(a) = d.as_array_ref() {
        Value::list(a.iter().map(value_of).collect())
    } else {
        Value::None
    }
}
