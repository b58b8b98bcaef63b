//! Diagnostics latency of `fuda lsp`: the time from an edit of one card
//! (sent as `didChange`) to the diagnostics it brings (`publishDiagnostics`),
//! for one card file of each of the two largest games (target: < 100 ms).
//! Odd edits put a typo in the card's code, even ones take it out, so each
//! answer is new. `cargo bench --bench lsp` prints the median and the worst.

#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::{Client, file_uri, root};

const EDITS: usize = 40;

fn main() {
    for card in [
        "cards/utage/basic_spells.yaml",
        "cards/hyakki/characters.yaml",
    ] {
        let path = root().join(card);
        let saved = std::fs::read_to_string(&path).unwrap();
        let typo = saved.replacen("move(", "mvoe(", 1);
        let uri = file_uri(&path);
        let mut c = Client::start(&[]);
        c.open(&uri, &saved);
        assert!(c.diagnostics(&uri).is_empty());
        let mut times: Vec<Duration> = (1..=EDITS)
            .map(|i| {
                let text = if i % 2 == 1 { &typo } else { &saved };
                let t = Instant::now();
                c.change(&uri, i as i64 + 1, text);
                let d = c.diagnostics(&uri);
                let took = t.elapsed();
                assert_eq!(d.len(), i % 2, "{d:?}");
                took
            })
            .collect();
        c.stop();
        times.sort();
        println!(
            "lsp/diagnostics {card}: median {:.1} ms, worst {:.1} ms over {EDITS} edits",
            times[EDITS / 2].as_secs_f64() * 1e3,
            times[EDITS - 1].as_secs_f64() * 1e3
        );
    }
}
