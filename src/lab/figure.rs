//! A sweep's figure at one variant: the varied card's win rate added in
//! deck, or for a rules value or an option the seat advantage, with the
//! sample sizes of both sides (a curve's point, a grid's cell).

use super::cards::CardStat;
use super::interval::Diff;
use super::summary::Summary;

/// The card whose property `name` varies (`omiki.cost` → `omiki`); none
/// for a rules value or an option.
pub fn card_of(name: &str) -> Option<&str> {
    name.split_once('.')
        .filter(|(c, _)| !["rules", "set"].contains(c))
        .map(|(c, _)| c)
}

/// What [`figure`] measures, for a plot's title.
pub fn figure_name(card: Option<&str>) -> String {
    match card {
        Some(c) => format!("win rate added by {c} in deck (points)"),
        None => "seat advantage (P1 - last seat, points)".to_string(),
    }
}

/// A sweep's figure at one variant: `card`'s win rate added in deck, or
/// without a card the seat advantage; none unless both sides of the
/// comparison were seen. With the sides' sample sizes.
pub fn figure(s: &Summary, stats: &[CardStat], card: Option<&str>) -> (Option<Diff>, [u64; 2]) {
    let (d, sides) = match card {
        Some(c) => match stats
            .iter()
            .find(|st| st.variant == s.variant && st.card == c)
        {
            Some(st) => (st.added_in_deck, [st.in_deck.n, st.not_in_deck.n]),
            // No row of the card: nobody had it.
            None => (Diff::default(), [0, s.finished * s.seats.len() as u64]),
        },
        None => match s.seat_advantage {
            Some(d) => (d, [s.finished, s.finished]),
            None => (Diff::default(), [0, 0]),
        },
    };
    ((sides[0] > 0 && sides[1] > 0).then_some(d), sides)
}
