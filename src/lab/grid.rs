//! A grid sweep (two `--vary`) as one figure: the sweep's figure at every
//! pair of values — the first varied card's win rate added in deck, or with
//! no card varied the seat advantage — for a heat map with sample sizes.

use super::cards::CardStat;
use super::figure::{card_of, figure, figure_name};
use super::interval::Diff;
use super::rows::Rows;
use super::summary::summarize;

/// One pair of values: the figure if both sides were seen, and the sides'
/// sample sizes.
pub type GridCell = (Option<Diff>, [u64; 2]);

pub struct Grid {
    /// The two varied names (`omiki.cost`, `set.modules`): rows, columns.
    pub names: [String; 2],
    /// What the cells measure.
    pub what: String,
    /// The values of each name, in the order the run played them.
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    /// `cells[row][col]`; none where the run played no such pair.
    pub cells: Vec<Vec<Option<GridCell>>>,
}

/// `a=1, b=x` → `[("a", "1"), ("b", "x")]`.
fn pair(variant: &str) -> Option<[(&str, &str); 2]> {
    let (a, b) = variant.split_once(", ")?;
    let (a, b) = (a.split_once('=')?, b.split_once('=')?);
    (!b.1.contains(", ")).then_some([a, b])
}

/// The grid of a run whose variants are the pairs of values of two varied
/// names; none for any other run.
pub fn grid(rows: &Rows, stats: &[CardStat]) -> Option<Grid> {
    let sums = summarize(&rows.games);
    let mut names: Option<[&str; 2]> = None;
    let (mut rs, mut cs): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut found = Vec::new();
    for s in &sums {
        let [(a, x), (b, y)] = pair(&s.variant)?;
        if names.is_some_and(|n| n != [a, b]) {
            return None;
        }
        names = Some([a, b]);
        for (list, v) in [(&mut rs, x), (&mut cs, y)] {
            if !list.contains(&v) {
                list.push(v);
            }
        }
        found.push((x, y, s));
    }
    let [a, b] = names?;
    let card = card_of(a).or(card_of(b));
    let mut cells = vec![vec![None; cs.len()]; rs.len()];
    for (x, y, s) in found {
        let (i, j) = (
            rs.iter().position(|v| *v == x)?,
            cs.iter().position(|v| *v == y)?,
        );
        cells[i][j] = Some(figure(s, stats, card));
    }
    Some(Grid {
        names: [a.to_string(), b.to_string()],
        what: figure_name(card),
        rows: rs.iter().map(|v| v.to_string()).collect(),
        cols: cs.iter().map(|v| v.to_string()).collect(),
        cells,
    })
}
