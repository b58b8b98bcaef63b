//! A tournament's figures from its rows: the win matrix (each entrant
//! against each, seats swapped, with intervals) and a rating per entrant.

use super::interval::{Rate, wilson};
use super::rows::GameRow;

#[derive(Debug, Clone, serde::Serialize)]
pub struct Standings {
    pub entrants: Vec<String>,
    /// `matrix[a][b]`: how often `a` beat `b` in their games (draws count
    /// as not won); none on the diagonal and for pairs that never met.
    pub matrix: Vec<Vec<Option<Rate>>>,
    /// Elo ratings (from 1000, K = 16), updated game by game in row order.
    pub elo: Vec<f64>,
    /// Each entrant's win rate over all its games.
    pub overall: Vec<Rate>,
}

/// The standings of two-player games' rows.
pub fn standings(games: &[GameRow]) -> Standings {
    use skillratings::Outcomes;
    use skillratings::elo::{EloConfig, EloRating, elo};
    let mut entrants: Vec<String> = Vec::new();
    for g in games {
        for s in &g.seats {
            if !entrants.contains(&s.entrant) {
                entrants.push(s.entrant.clone());
            }
        }
    }
    let n = entrants.len();
    let idx = |e: &str| entrants.iter().position(|x| x == e).unwrap_or(0);
    let (mut won, mut met) = (vec![vec![0u64; n]; n], vec![vec![0u64; n]; n]);
    let mut ratings = vec![EloRating { rating: 1000.0 }; n];
    let cfg = EloConfig { k: 16.0 };
    for g in games.iter().filter(|g| g.finished() && g.seats.len() == 2) {
        let (a, b) = (idx(&g.seats[0].entrant), idx(&g.seats[1].entrant));
        if a == b {
            continue;
        }
        met[a][b] += 1;
        met[b][a] += 1;
        let outcome = match g.winner_seat() {
            Some(0) => {
                won[a][b] += 1;
                Outcomes::WIN
            }
            Some(_) => {
                won[b][a] += 1;
                Outcomes::LOSS
            }
            None => Outcomes::DRAW,
        };
        let (ra, rb) = elo(&ratings[a], &ratings[b], &outcome, &cfg);
        ratings[a] = ra;
        ratings[b] = rb;
    }
    let matrix = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| (a != b && met[a][b] > 0).then(|| wilson(won[a][b], met[a][b])))
                .collect()
        })
        .collect();
    let overall = (0..n)
        .map(|a| wilson(won[a].iter().sum(), met[a].iter().sum()))
        .collect();
    Standings {
        entrants,
        matrix,
        elo: ratings.iter().map(|r| r.rating).collect(),
        overall,
    }
}
