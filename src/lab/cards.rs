//! Per-card figures over a run's card rows: how often a card was gained and
//! played, the win rate of the players who ended with it in their deck (and
//! of those who played it) against the players who did not — the "win rate
//! added" — each with its interval and sample sizes.

use std::collections::HashMap;

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

/// One card's sums over a variant's rows.
#[derive(Default)]
struct Sums {
    /// (won, rows) with the card in the final deck; the same having played it.
    deck: (u64, u64),
    played: (u64, u64),
    gained: u64,
    plays: u64,
    drawn: u64,
}

/// One variant's finished player-games, single wins and cards' sums, the
/// cards in the order they first appear.
struct Variant<'a> {
    name: &'a str,
    total: u64,
    wins: u64,
    cards: Vec<(&'a str, Sums)>,
}

/// One figure per variant and card, sorted by win rate added (final deck),
/// highest first, within each variant. One pass over the rows: a run has a
/// row per player, game and card.
pub fn card_stats(rows: &Rows) -> Vec<CardStat> {
    let mut out = Vec::new();
    // Variants in the order they first appear.
    let mut variants: Vec<Variant> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for g in &rows.games {
        let i = *at.entry(&g.variant).or_insert_with(|| {
            variants.push(Variant {
                name: &g.variant,
                total: 0,
                wins: 0,
                cards: Vec::new(),
            });
            variants.len() - 1
        });
        if g.finished() {
            variants[i].total += g.seats.len() as u64;
            variants[i].wins += g.winner_seat().is_some() as u64;
        }
    }
    let mut card_at: HashMap<(&str, &str), usize> = HashMap::new();
    for c in &rows.cards {
        let Some(&v) = at.get(&*c.variant) else {
            continue;
        };
        let cards = &mut variants[v].cards;
        let k = *card_at.entry((&*c.variant, &*c.card)).or_insert_with(|| {
            cards.push((&*c.card, Sums::default()));
            cards.len() - 1
        });
        let s = &mut cards[k].1;
        let won = c.won as u64;
        if c.final_deck > 0 {
            s.deck = (s.deck.0 + won, s.deck.1 + 1);
        }
        if c.played > 0 {
            s.played = (s.played.0 + won, s.played.1 + 1);
        }
        s.gained += c.gained as u64;
        s.plays += c.played as u64;
        s.drawn += c.drawn as u64;
    }
    for Variant {
        name: v,
        total,
        wins,
        cards,
    } in variants
    {
        let mut stats: Vec<CardStat> = (cards.into_iter())
            .map(|(id, s)| {
                let ((wd, nd), (wp, np)) = (s.deck, s.played);
                let per = |n: u64| n as f64 / total.max(1) as f64;
                let in_deck = wilson(wd, nd);
                let not_in_deck = wilson(wins - wd.min(wins), total - nd.min(total));
                let played = wilson(wp, np);
                let not_played = wilson(wins - wp.min(wins), total - np.min(total));
                CardStat {
                    variant: v.to_string(),
                    card: id.to_string(),
                    player_games: total,
                    gained_per_game: per(s.gained),
                    played_per_game: per(s.plays),
                    drawn_per_game: per(s.drawn),
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
