//! A frame: the variables of one running piece of code, where they are
//! kept, and how a body's `return` becomes its value.

use std::mem::ManuallyDrop;

use super::{Flow, Res};
use crate::data::Data;
use crate::lang::ir::Span;
use crate::value::{ObjId, PlayerId, Value};

/// A frame's slots, on the native stack when there are few (most code), else
/// on the heap: no vector to take from a pool and give back. Only the first
/// `n` of the stack's are used, and [`Slots::empty`] empties them (no glue
/// dropping all four).
pub(crate) struct Slots {
    stack: ManuallyDrop<[Value; 4]>,
    heap: Vec<Value>,
}

impl Slots {
    #[inline(always)]
    pub(crate) fn new() -> Slots {
        Slots {
            stack: Default::default(),
            heap: Vec::new(),
        }
    }

    /// `n` empty slots.
    #[inline(always)]
    pub(crate) fn get(&mut self, n: usize) -> &mut [Value] {
        if n <= 4 {
            &mut self.stack[..n]
        } else {
            self.heap.resize(n, Value::None);
            &mut self.heap
        }
    }

    /// Drops what the first `n` slots hold.
    #[inline(always)]
    pub(crate) fn empty(&mut self, n: usize) {
        for s in self.stack.iter_mut().take(n) {
            *s = Value::None;
        }
    }
}

/// The variables of one running piece of code, and the game data it runs in
/// (borrowed: no reference counting per call, shared by all threads).
pub struct Frame<'a> {
    pub data: &'a Data,
    pub this: Option<ObjId>,
    pub me: PlayerId,
    pub slots: &'a mut [Value],
    pub span: Span,
    pub move_name: Option<u16>,
}

/// A body's result, with a `return` taken as its value.
#[inline(always)]
pub(crate) fn returned(r: Res<Value>) -> Res<Value> {
    match r {
        Err(e) => match *e {
            Flow::Return(v) => Ok(v),
            e => Err(Box::new(e)),
        },
        r => r,
    }
}
