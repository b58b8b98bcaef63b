//! What the tests that run both tiers share: the state a run leaves, as
//! text to compare, and a readable first difference.

use std::fmt::Write;

use fuda::engine::Game;
use fuda::engine::log::Entry;

/// Everything a run leaves that the rules define: the state's objects,
/// zones, counters, RNG and queues (not the caches kept beside them), the
/// step counter, the decisions.
pub fn state(g: &Game) -> String {
    let st = &g.st;
    let mut s = String::new();
    let _ = writeln!(s, "objs {:?}", st.objs);
    for (i, z) in st.zones.iter().enumerate() {
        let _ = writeln!(
            s,
            "zone {i} {:?} {:?} {} {} {} {:?}",
            z.cards,
            z.piles,
            z.empty_bits(),
            z.nempty,
            z.size(),
            z.pile_defs
        );
    }
    let _ = writeln!(s, "counters {:?} globals {:?}", st.counters, st.globals);
    let _ = writeln!(s, "mods {:?}", st.mods);
    let _ = writeln!(
        s,
        "active {} turn {} taken {:?} phase {:?} lost {:?}",
        st.active, st.turn, st.turns_taken, st.phase, st.lost
    );
    let _ = writeln!(s, "rng {:?}", st.rng.clone().get_word_pos());
    let _ = writeln!(s, "events {:?}", st.events);
    let _ = writeln!(s, "pending {:?}", st.pending);
    let _ = writeln!(s, "stack {:?}", st.stack);
    let _ = writeln!(
        s,
        "end_turn {} repeat_phase {} made {:?}",
        st.end_turn, st.repeat_phase, st.made
    );
    let _ = writeln!(s, "steps {} game {}", g.steps(), g.game_steps());
    let _ = writeln!(s, "decisions {:?}", g.decisions);
    s
}

/// The first line where two texts differ, for a readable failure.
pub fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {i}:\n  speed:     {x}\n  reference: {y}");
        }
    }
    format!(
        "one is a prefix of the other ({} vs {} lines)",
        a.lines().count(),
        b.lines().count()
    )
}

/// The transcript, one entry a line (made only to show a difference).
pub fn lines(log: &[Entry]) -> String {
    log.iter().map(|e| format!("{e:?}\n")).collect()
}
