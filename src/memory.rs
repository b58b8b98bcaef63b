//! The bytes each thread holds, counted by the global allocator: a game's
//! memory budget ([`crate::limits::MAX_GAME_BYTES`]) weighs what it really
//! made (lists, strings, script values, cards, the transcript), not an
//! estimate. The count is per thread, so other threads (a server, search
//! workers) never skew a game's; it costs a thread-local add per
//! allocation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting. mimalloc was tried: 0.4–2 % fewer
/// instructions a game, but up to 7 % fewer games a second on
/// `benches/table.sh`'s workloads (paired medians), twice the peak memory
/// and a C library to build.
struct Counting;

#[global_allocator]
static COUNTING: Counting = Counting;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

#[inline(always)]
fn add(n: isize) {
    // No destructor: the slot outlives every allocation of its thread.
    let _ = HELD.try_with(|h| h.set(h.get().wrapping_add(n)));
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            add(l.size() as isize);
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            add(l.size() as isize);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        add(-(l.size() as isize));
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, size) };
        if !q.is_null() {
            add(size as isize - l.size() as isize);
        }
        q
    }
}

/// This thread (an address unique among live threads) and the bytes it
/// holds.
#[inline]
pub fn held() -> (usize, isize) {
    HELD.with(|h| (h as *const Cell<isize> as usize, h.get()))
}

/// Exchanges this thread's count with `count`: games that take turns on
/// one thread each keep a count of their own ([`crate::engine::ThreadState`]).
pub fn swap(count: &mut isize) {
    *count = HELD.with(|h| h.replace(*count));
}

/// What a game holds, measured from where it started: the bytes its thread
/// gained while it ran. Each [`Held::update`] adds what its thread gained
/// since the last, if the game still runs on the same thread (a game moved
/// to another thread starts counting afresh there, so no other thread's
/// work is counted).
#[derive(Debug, Clone, Copy)]
pub struct Held {
    thread: usize,
    last: isize,
    bytes: isize,
}

impl Default for Held {
    fn default() -> Held {
        let (thread, last) = held();
        Held {
            thread,
            last,
            bytes: 0,
        }
    }
}

impl Held {
    /// Adds what this thread gained since the last update; returns the
    /// bytes the game holds.
    #[inline]
    pub fn update(&mut self) -> isize {
        let (thread, now) = held();
        if thread == self.thread {
            self.bytes += now - self.last;
        }
        (self.thread, self.last) = (thread, now);
        self.bytes
    }

    /// The thread's count at which the game would hold `limit` bytes.
    pub fn ceiling(&mut self, limit: usize) -> isize {
        let bytes = self.update();
        self.last + (limit as isize - bytes)
    }
}

/// The most a game may hold: [`crate::limits::MAX_GAME_BYTES`], or less
/// if `FUDA_MAX_GAME_BYTES` says so (tests prove the budget with a small
/// one rather than gigabytes).
pub fn max_game_bytes() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        let max = crate::limits::MAX_GAME_BYTES;
        (std::env::var("FUDA_MAX_GAME_BYTES").ok())
            .and_then(|v| v.trim().parse().ok())
            .map_or(max, |n: usize| n.min(max))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_gets_its_alignment() {
        use std::alloc::{alloc, alloc_zeroed, dealloc, realloc};
        let mut kept = Vec::new();
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (1..=96).chain([1000, 5000, 70_000]) {
                let l = Layout::from_size_align(size, align).unwrap();
                for zeroed in [false, true] {
                    // SAFETY: sizes are not zero; each block is freed with its layout.
                    let p = unsafe { if zeroed { alloc_zeroed(l) } else { alloc(l) } };
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    if zeroed {
                        assert!(
                            unsafe { std::slice::from_raw_parts(p, size) }
                                .iter()
                                .all(|b| *b == 0)
                        );
                    }
                    let q = unsafe { realloc(p, l, size * 3) };
                    assert!(
                        !q.is_null() && (q as usize).is_multiple_of(align),
                        "{size} {align} grown"
                    );
                    kept.push((q, Layout::from_size_align(size * 3, align).unwrap()));
                }
            }
        }
        for (p, l) in kept {
            unsafe { dealloc(p, l) };
        }
    }

    #[test]
    fn a_game_is_weighed_by_its_own_thread() {
        let mut held = Held::default();
        let kept = vec![0u8; 1 << 20];
        let grown = held.update();
        assert!(grown >= 1 << 20, "{grown}");
        // Another thread's allocations are not this one's.
        let other = std::thread::spawn(|| vec![0u8; 8 << 20]).join().unwrap();
        assert!(held.update() - grown < 1 << 20);
        drop(kept);
        assert!(held.update() < grown);
        drop(other);
    }
}
