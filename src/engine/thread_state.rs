//! What the kernel keeps per thread for the game running on it: the script
//! call it is inside (`script`), that call's meter and memory ceiling
//! (`sandbox`), and the thread's allocation count its memory budget reads
//! (`memory`). A game runs from start to end on one thread, so thread-locals
//! are its own; a client that runs several games on one thread, each on a
//! stackful coroutine suspended at its decisions (the Python binding), gives
//! each game a [`ThreadState`] and swaps it in around every resume. Then no
//! game's script sees another's game, and no game's budgets count another's
//! work.

use super::script;

/// One game's share of the thread-locals, kept while it is suspended.
pub struct ThreadState {
    script: script::Saved,
    sandbox: ((u64, u64), isize),
    held: isize,
}

impl Default for ThreadState {
    /// A game that has not run yet: no script call, and a count of its own
    /// from zero.
    fn default() -> ThreadState {
        ThreadState {
            script: script::Saved::default(),
            sandbox: ((0, 0), isize::MAX),
            held: 0,
        }
    }
}

impl ThreadState {
    /// Exchanges the thread's state with this one: called once before a
    /// game is resumed (its state in, the caller's out) and once after it
    /// suspends (the caller's back, the game's kept).
    pub fn swap(&mut self) {
        script::swap(&mut self.script);
        crate::sandbox::swap(&mut self.sandbox);
        crate::memory::swap(&mut self.held);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Held;

    #[test]
    fn games_taking_turns_on_a_thread_count_only_their_own_bytes() {
        let (mut a, mut b) = (ThreadState::default(), ThreadState::default());
        a.swap();
        let mut held_a = Held::default();
        let kept_a = vec![0u8; 1 << 20];
        a.swap();
        b.swap();
        let mut held_b = Held::default();
        let kept_b = vec![0u8; 4 << 20];
        b.swap();
        // The caller's own work counts for neither game.
        let caller = vec![0u8; 8 << 20];
        a.swap();
        let bytes_a = held_a.update();
        drop(kept_a);
        let freed_a = held_a.update();
        a.swap();
        b.swap();
        let bytes_b = held_b.update();
        b.swap();
        assert!((1 << 20..2 << 20).contains(&bytes_a), "{bytes_a}");
        assert!(freed_a < 1 << 10, "{freed_a}");
        assert!((4 << 20..5 << 20).contains(&bytes_b), "{bytes_b}");
        drop((kept_b, caller));
    }
}
