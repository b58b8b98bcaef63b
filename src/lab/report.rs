//! What a run's rows say, as text tables and as one self-contained HTML
//! page of plots: both are made from the same [`Rows`], read back from the
//! written file by `fuda report`.

use std::fmt::Write;

use super::cards::{CardStat, card_stats};
use super::figure::{card_of, figure, figure_name};
use super::grid::{Grid, grid};
use super::interval::{pct, points};
use super::rows::{DRAW, Rows};
use super::summary::{Summary, summarize};
use super::svg::{Cell, Point, Tile, bars, curve, esc, heatmap, histogram};
use super::tournament::{Standings, standings};

/// The win rates of each variant, a line each.
pub fn summary_text(s: &Summary) -> String {
    let mut out = String::new();
    if !s.variant.is_empty() {
        let _ = writeln!(out, "{}:", s.variant);
    }
    let _ = writeln!(
        out,
        "  {} games, {} finished; win rates with 95% intervals (Wilson):",
        s.games, s.finished
    );
    for (i, r) in s.seats.iter().enumerate() {
        let _ = writeln!(out, "  P{} wins {} ({})", i + 1, r.k, pct(*r));
    }
    if s.entrants.len() > 1 || s.entrants.len() != s.seats.len() {
        for (e, r) in &s.entrants {
            let _ = writeln!(out, "  {e} wins {} of {} ({})", r.k, r.n, pct(*r));
        }
    }
    if let Some(d) = s.seat_advantage {
        let _ = writeln!(
            out,
            "  seat advantage (P1 - P{} win rate): {} points",
            s.seats.len(),
            points(d)
        );
    }
    let _ = writeln!(
        out,
        "  {}s {}  average turns {:.1}",
        DRAW, s.draws, s.avg_turns
    );
    if s.turn_limit > 0 {
        let _ = writeln!(out, "  {} game(s) reached the turn limit", s.turn_limit);
    }
    if s.errors > 0 {
        let _ = writeln!(out, "  {} game(s) stopped by an error", s.errors);
    }
    out
}

/// The per-card table: win rate added by being in the final deck and by
/// being played, with intervals and sample sizes; `*` marks small samples.
pub fn cards_text(stats: &[CardStat], limit: usize) -> String {
    let mut out = String::new();
    let mut last = None;
    let mut shown = 0;
    for c in stats {
        if last != Some(&c.variant) {
            if !c.variant.is_empty() {
                let _ = writeln!(out, "{}:", c.variant);
            }
            let _ = writeln!(
                out,
                "  {:<22} {:>7} {:>7}  {:<30} {:>6}  {:<30} {:>6}",
                "card",
                "gained",
                "played",
                "win rate added in deck (pts)",
                "n",
                "win rate added if played",
                "n"
            );
            last = Some(&c.variant);
            shown = 0;
        }
        if shown >= limit {
            continue;
        }
        shown += 1;
        let _ = writeln!(
            out,
            "  {:<22} {:>7.2} {:>7.2}  {:<30} {:>6}  {:<30} {:>6}{}",
            c.card,
            c.gained_per_game,
            c.played_per_game,
            added(c.added_in_deck, c.in_deck, c.not_in_deck),
            c.in_deck.n,
            added(c.added_played, c.played, c.not_played),
            c.played.n,
            if c.small { "  * small sample" } else { "" }
        );
    }
    if !stats.is_empty() {
        let _ = writeln!(
            out,
            "  gained/played: per player and game; n: player-games with the card (in deck / played); * fewer than {} on a side",
            super::cards::SMALL
        );
    }
    out
}

/// A difference, or `-` when a side has no player-game to compare.
fn added(d: super::interval::Diff, a: super::interval::Rate, b: super::interval::Rate) -> String {
    if a.n == 0 || b.n == 0 {
        "-".into()
    } else {
        points(d)
    }
}

pub fn standings_text(s: &Standings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "win matrix: row beats column, 95% intervals (Wilson), seats swapped"
    );
    let w = s.entrants.iter().map(|e| e.len()).max().unwrap_or(4).max(4);
    let _ = write!(out, "  {:<w$}", "");
    for e in &s.entrants {
        let _ = write!(out, "  {e:<24}");
    }
    let _ = writeln!(out);
    for (a, row) in s.matrix.iter().enumerate() {
        let _ = write!(out, "  {:<w$}", s.entrants[a]);
        for c in row {
            let cell = c.map(pct).unwrap_or_else(|| "-".into());
            let _ = write!(out, "  {cell:<24}");
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "ratings (Elo from 1000, K=16, game by game):");
    let mut order: Vec<usize> = (0..s.entrants.len()).collect();
    order.sort_by(|&a, &b| s.elo[b].total_cmp(&s.elo[a]));
    for i in order {
        let _ = writeln!(
            out,
            "  {:<w$}  {:>6.0}  wins {}",
            s.entrants[i],
            s.elo[i],
            pct(s.overall[i])
        );
    }
    out
}

/// One value of a sweep: the figure with its interval, if both sides of the
/// comparison were seen, and the sides' sample sizes (player-games with the
/// card in their final deck and without; for a rules value or an option,
/// the finished games, twice).
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    /// The value as given (an option's ids joined by `+`).
    pub label: String,
    /// The value, or for one that is not a number (an option's), its place.
    pub x: f64,
    pub value: Option<Point>,
    pub n: [u64; 2],
}

/// A sweep's figures: per value, the varied card's win rate added (or, for
/// a rules value or an option, the seat advantage), with intervals. A value where no
/// player (or every player) ended with the card has no figure, only its
/// sample sizes; the other values keep theirs.
pub fn sweep_points(rows: &Rows, stats: &[CardStat]) -> Option<(String, Vec<SweepPoint>)> {
    let sums = summarize(&rows.games);
    if sums.len() < 2 {
        return None;
    }
    let mut name = None;
    let mut pts = Vec::new();
    for (i, s) in sums.iter().enumerate() {
        let (n, label) = s.variant.split_once('=')?;
        if s.variant.contains(", ") || name.is_some_and(|m| m != n) {
            return None;
        }
        name = Some(n);
        let x: f64 = label.parse().unwrap_or(i as f64);
        let (d, sides) = figure(s, stats, card_of(n));
        let value = d.map(|d| (x, d.d * 100.0, d.lo * 100.0, d.hi * 100.0));
        let label = label.to_string();
        pts.push(SweepPoint {
            label,
            x,
            value,
            n: sides,
        });
    }
    let n = name?;
    Some((format!("{n}|{}", figure_name(card_of(n))), pts))
}

/// A grid sweep's heat map: the figure with its interval and the sides'
/// sample sizes (with the card, without) in each cell, shaded by the
/// figure against the largest in the grid.
fn grid_map(g: &Grid) -> String {
    let [a, b] = &g.names;
    let most = (g.cells.iter().flatten().flatten())
        .filter_map(|(d, _)| d.map(|d| d.d.abs()))
        .fold(1e-9, f64::max);
    let cells: Vec<Vec<Cell>> = (g.cells.iter())
        .map(|r| {
            (r.iter())
                .map(|c| {
                    c.map(|(d, [with, without])| {
                        let n = format!("n {with} / {without}");
                        match d {
                            Some(d) => Tile {
                                shade: Some(d.d / most),
                                lines: vec![
                                    format!("{:+.1}", d.d * 100.0),
                                    format!("[{:+.1}, {:+.1}]", d.lo * 100.0, d.hi * 100.0),
                                    n,
                                ],
                            },
                            None => Tile {
                                shade: None,
                                lines: vec!["no figure".into(), n],
                            },
                        }
                    })
                })
                .collect()
        })
        .collect();
    let label = |n: &str, v: &str| format!("{n}={}", if v.is_empty() { "(none)" } else { v });
    heatmap(
        &format!("{} by {a} (rows) and {b} (columns), 95% intervals", g.what),
        &g.rows.iter().map(|v| label(a, v)).collect::<Vec<_>>(),
        &g.cols.iter().map(|v| label(b, v)).collect::<Vec<_>>(),
        &cells,
    )
}

/// The HTML page: summaries, then the plots that the rows allow.
pub fn html(title: &str, rows: &Rows) -> String {
    page(title, rows).0
}

/// Each plot of the HTML page alone, named (`sweep`, `grid`, `cards`,
/// `matrix`, `turns`): an SVG document each.
pub fn plots(rows: &Rows) -> Vec<(&'static str, String)> {
    page("", rows).1
}

/// The page, and its plots by name.
fn page(title: &str, rows: &Rows) -> (String, Vec<(&'static str, String)>) {
    let sums = summarize(&rows.games);
    let stats = card_stats(rows);
    let mut body = String::new();
    let mut plots = Vec::new();
    let mut plot = |body: &mut String, name, svg: String| {
        *body += &svg;
        plots.push((name, svg));
    };
    let _ = write!(body, "<h1>{}</h1>", esc(title));
    let _ = write!(body, "<h2>Win rates</h2><pre>");
    for s in &sums {
        body += &esc(&summary_text(s));
    }
    body += "</pre>";
    if let Some((name, pts)) = sweep_points(rows, &stats) {
        let (n, what) = name.split_once('|').unwrap_or((&name, ""));
        let seen: Vec<Point> = pts.iter().filter_map(|p| p.value).collect();
        let _ = write!(body, "<h2>Sweep</h2>");
        // A curve over numbers; values that are not (an option's) as bars.
        if pts.iter().all(|p| p.label.parse::<f64>().is_ok()) {
            if !seen.is_empty() {
                let svg = curve(&format!("{what} against {n}"), n, "points", &seen);
                plot(&mut body, "sweep", svg);
            }
        } else {
            let items: Vec<(String, f64, f64, f64)> = (pts.iter())
                .filter_map(|p| {
                    p.value
                        .map(|(_, d, lo, hi)| (format!("{n}={}", p.label), d, lo, hi))
                })
                .collect();
            if !items.is_empty() {
                plot(
                    &mut body,
                    "sweep",
                    bars(&format!("{what} by {n}, 95% intervals"), &items),
                );
            }
        }
        let unseen: Vec<String> = (pts.iter())
            .filter(|p| p.value.is_none())
            .map(|p| format!("{n}={} (n {} with, {} without)", p.label, p.n[0], p.n[1]))
            .collect();
        if !unseen.is_empty() {
            let _ = write!(
                body,
                "<p>No comparison at {}: every player or none ended with it.</p>",
                esc(&unseen.join(", "))
            );
        }
    }
    if let Some(g) = grid(rows, &stats) {
        body += "<h2>Grid</h2>";
        plot(&mut body, "grid", grid_map(&g));
        body += "<p>n: player-games with the card in their final deck / without (for the seat advantage: the finished games).</p>";
    }
    // Per-card plot: the first variant's cards with the largest samples.
    if let Some(first) = stats.first().map(|s| s.variant.clone()) {
        let mut cards: Vec<&CardStat> = stats
            .iter()
            .filter(|c| c.variant == first && !c.small)
            .collect();
        cards.sort_by(|a, b| b.added_in_deck.d.total_cmp(&a.added_in_deck.d));
        cards.truncate(30);
        let items: Vec<(String, f64, f64, f64)> = (cards.iter())
            .map(|c| {
                (
                    format!("{} (n={})", c.card, c.in_deck.n),
                    c.added_in_deck.d * 100.0,
                    c.added_in_deck.lo * 100.0,
                    c.added_in_deck.hi * 100.0,
                )
            })
            .collect();
        if !items.is_empty() {
            let v = if first.is_empty() {
                String::new()
            } else {
                format!(" ({first})")
            };
            body += "<h2>Cards</h2>";
            let title = format!(
                "Win rate added by having the card in the final deck{v}, points, 95% intervals"
            );
            plot(&mut body, "cards", bars(&title, &items));
        }
        let _ = write!(body, "<pre>{}</pre>", esc(&cards_text(&stats, 40)));
    }
    let two: Vec<_> = rows
        .games
        .iter()
        .filter(|g| g.seats.len() == 2)
        .cloned()
        .collect();
    let st = standings(&two);
    if st.entrants.len() >= 2 {
        // Blue above one half, red below.
        let cells: Vec<Vec<Cell>> = (st.matrix.iter())
            .map(|r| {
                (r.iter())
                    .map(|c| {
                        c.map(|r| Tile {
                            shade: Some((r.p - 0.5) * 2.0),
                            lines: vec![
                                format!("{:.0}%", r.p * 100.0),
                                format!("[{:.0}, {:.0}]", r.lo * 100.0, r.hi * 100.0),
                            ],
                        })
                    })
                    .collect()
            })
            .collect();
        body += "<h2>Win matrix</h2>";
        let title = "Row beats column (win rate, 95% interval)";
        plot(
            &mut body,
            "matrix",
            heatmap(title, &st.entrants, &st.entrants, &cells),
        );
        let _ = write!(body, "<pre>{}</pre>", esc(&standings_text(&st)));
    }
    let turns: Vec<u32> = rows
        .games
        .iter()
        .filter(|g| g.finished())
        .map(|g| g.turns)
        .collect();
    if !turns.is_empty() {
        body += "<h2>Game length</h2>";
        let svg = histogram("Turns per game (all players' turns)", "turns", &turns);
        plot(&mut body, "turns", svg);
    }
    let page = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}</title><style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}pre{{font-size:12px;background:#f6f6f6;padding:8px;overflow-x:auto}}svg{{display:block;margin:1em 0}}</style></head><body>{body}</body></html>\n",
        esc(title)
    );
    (page, plots)
}
