//! Win rates of a run's rows, each with its 95 % interval: by seat (with
//! `--swap` every player sat in every seat, so the seats' differences are the
//! seat advantage) and by entrant (a player across its seats).

use super::interval::{Diff, Rate, newcombe, wilson};
use super::rows::GameRow;

#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    pub variant: String,
    pub games: u64,
    /// Games ended without error: the denominator of every rate.
    pub finished: u64,
    /// Games with no single winner (a shared win).
    pub draws: u64,
    pub errors: u64,
    pub turn_limit: u64,
    pub avg_turns: f64,
    /// Per seat (P1 first).
    pub seats: Vec<Rate>,
    /// P1's win rate minus the last seat's: the first seat's advantage.
    pub seat_advantage: Option<Diff>,
    /// Per entrant, in order of first appearance.
    pub entrants: Vec<(String, Rate)>,
}

/// One summary per variant, in order of first appearance.
pub fn summarize(games: &[GameRow]) -> Vec<Summary> {
    let mut variants: Vec<&str> = Vec::new();
    for g in games {
        if !variants.contains(&g.variant.as_str()) {
            variants.push(&g.variant);
        }
    }
    (variants.iter())
        .map(|v| one(v, games.iter().filter(|g| g.variant == *v)))
        .collect()
}

fn one<'a>(variant: &str, games: impl Iterator<Item = &'a GameRow>) -> Summary {
    let games: Vec<&GameRow> = games.collect();
    let done: Vec<&&GameRow> = games.iter().filter(|g| g.finished()).collect();
    let n = done.len() as u64;
    let seats = games.iter().map(|g| g.seats.len()).max().unwrap_or(0);
    let seat_rates: Vec<Rate> = (0..seats)
        .map(|s| {
            wilson(
                done.iter().filter(|g| g.winner_seat() == Some(s)).count() as u64,
                n,
            )
        })
        .collect();
    let mut names: Vec<String> = Vec::new();
    for g in &games {
        for st in &g.seats {
            if !names.contains(&st.entrant) {
                names.push(st.entrant.clone());
            }
        }
    }
    let entrants = (names.into_iter())
        .map(|e| {
            let (mut k, mut m) = (0, 0);
            for g in &done {
                for (s, st) in g.seats.iter().enumerate() {
                    if st.entrant == e {
                        m += 1;
                        k += (g.winner_seat() == Some(s)) as u64;
                    }
                }
            }
            (e, wilson(k, m))
        })
        .collect();
    Summary {
        variant: variant.to_string(),
        games: games.len() as u64,
        finished: n,
        draws: done.iter().filter(|g| g.winner_seat().is_none()).count() as u64,
        errors: games.len() as u64 - n,
        turn_limit: done.iter().filter(|g| g.ended == "turn_limit").count() as u64,
        avg_turns: done.iter().map(|g| g.turns as f64).sum::<f64>() / (n.max(1) as f64),
        seat_advantage: (seats > 1).then(|| newcombe(seat_rates[0], seat_rates[seats - 1])),
        seats: seat_rates,
        entrants,
    }
}
