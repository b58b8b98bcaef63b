//! Per-card figures over a run's card rows: how often a card was gained and
//! played, the win rate of the players who ended with it in their deck (and
//! of those who played it) against the players who did not — the "win rate
//! added" — each with its interval and sample sizes.

use super::interval::{Diff, Rate, newcombe, wilson};
use super::rows::Rows;

/// Fewer player-games than this on either side of a comparison: flagged.
pub const SMALL: u64 = 30;

#[derive(Debug, Clone, serde::Serialize)]
pub struct CardStat {
    pub variant: String,
    pub card: String,
    /// Player-games counted (each player of each finished game).
    pub player_games: u64,
    pub gained_per_game: f64,
    pub played_per_game: f64,
    pub drawn_per_game: f64,
    /// Players with the card in their final deck, and without.
    pub in_deck: Rate,
    pub not_in_deck: Rate,
    pub added_in_deck: Diff,
    /// Players who played it at least once, and who did not.
    pub played: Rate,
    pub not_played: Rate,
    pub added_played: Diff,
    /// A side of a comparison has fewer than [`SMALL`] player-games.
    pub small: bool,
}

/// One figure per variant and card, sorted by win rate added (final deck),
/// highest first, within each variant.
pub fn card_stats(rows: &Rows) -> Vec<CardStat> {
    let mut out = Vec::new();
    let mut variants: Vec<&str> = Vec::new();
    for g in &rows.games {
        if !variants.contains(&g.variant.as_str()) {
            variants.push(&g.variant);
        }
    }
    for v in variants {
        let done = rows.games.iter().filter(|g| g.variant == v && g.finished());
        let (mut total, mut wins) = (0u64, 0u64);
        for g in done {
            let single = g.winner_seat();
            total += g.seats.len() as u64;
            wins += single.is_some() as u64;
        }
        let mut ids: Vec<&str> = Vec::new();
        for c in rows.cards.iter().filter(|c| c.variant == v) {
            if !ids.contains(&c.card.as_str()) {
                ids.push(&c.card);
            }
        }
        let mut stats: Vec<CardStat> = (ids.iter())
            .map(|id| {
                let mine = || {
                    rows.cards
                        .iter()
                        .filter(|c| c.variant == v && c.card == *id)
                };
                let count = |f: &dyn Fn(&super::rows::CardRow) -> bool| {
                    let n = mine().filter(|c| f(c)).count() as u64;
                    let w = mine().filter(|c| f(c) && c.won).count() as u64;
                    (w, n)
                };
                let (wd, nd) = count(&|c| c.final_deck > 0);
                let (wp, np) = count(&|c| c.played > 0);
                let per = |f: &dyn Fn(&super::rows::CardRow) -> u32| {
                    mine().map(|c| f(c) as f64).sum::<f64>() / total.max(1) as f64
                };
                let in_deck = wilson(wd, nd);
                let not_in_deck = wilson(wins - wd.min(wins), total - nd.min(total));
                let played = wilson(wp, np);
                let not_played = wilson(wins - wp.min(wins), total - np.min(total));
                CardStat {
                    variant: v.to_string(),
                    card: id.to_string(),
                    player_games: total,
                    gained_per_game: per(&|c| c.gained),
                    played_per_game: per(&|c| c.played),
                    drawn_per_game: per(&|c| c.drawn),
                    added_in_deck: newcombe(in_deck, not_in_deck),
                    added_played: newcombe(played, not_played),
                    small: [nd, total - nd.min(total)].iter().any(|&n| n < SMALL),
                    in_deck,
                    not_in_deck,
                    played,
                    not_played,
                }
            })
            .collect();
        stats.sort_by(|a, b| {
            b.added_in_deck
                .d
                .total_cmp(&a.added_in_deck.d)
                .then(a.card.cmp(&b.card))
        });
        out.extend(stats);
    }
    out
}
