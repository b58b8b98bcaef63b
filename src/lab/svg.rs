//! Plots as SVG text, written by hand: four kinds of plot need no plotting
//! crate (bars with error bars, a heat map, a histogram, a curve with an
//! interval band).

use std::fmt::Write;

/// Text made safe inside SVG or HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A value with its interval: `(x, value, lo, hi)`.
pub type Point = (f64, f64, f64, f64);

const FONT: &str = "font-family=\"sans-serif\" font-size=\"12\"";

/// Horizontal bars from 0 with error bars: `(label, value, lo, hi)` in
/// percentage points.
pub fn bars(title: &str, items: &[(String, f64, f64, f64)]) -> String {
    let (w, row, left, top) = (720.0, 22.0, 200.0, 40.0);
    let h = top + row * items.len() as f64 + 40.0;
    let lo = items.iter().map(|i| i.2).fold(0.0f64, f64::min).floor();
    let hi = items.iter().map(|i| i.3).fold(0.0f64, f64::max).ceil();
    let span = (hi - lo).max(1.0);
    let x = |v: f64| left + (v - lo) / span * (w - left - 20.0);
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" {FONT}>");
    let _ = write!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    let _ = write!(
        s,
        "<line x1=\"{0}\" y1=\"{top}\" x2=\"{0}\" y2=\"{1}\" stroke=\"#444\"/>",
        x(0.0),
        h - 30.0
    );
    for (i, (label, v, l, u)) in items.iter().enumerate() {
        let y = top + row * i as f64;
        let (a, b) = (x(0.0).min(x(*v)), x(0.0).max(x(*v)));
        let colour = if *v >= 0.0 { "#4a7fb5" } else { "#c0504d" };
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><rect x=\"{a:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\"/>",
            left - 6.0,
            y + 15.0,
            esc(label),
            y + 4.0,
            (b - a).max(0.5),
            row - 8.0,
            x(*l),
            y + row / 2.0,
            x(*u),
            y + row / 2.0,
            x(*l),
            y + 6.0,
            x(*l),
            y + row - 6.0,
            x(*u),
            y + 6.0,
            x(*u),
            y + row - 6.0,
        );
    }
    axis_ticks(&mut s, lo, hi, &x, h - 30.0);
    s + "</svg>"
}

fn axis_ticks(s: &mut String, lo: f64, hi: f64, x: &dyn Fn(f64) -> f64, y: f64) {
    let step = nice_step(hi - lo);
    let mut t = (lo / step).ceil() * step;
    while t <= hi + 1e-9 {
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" y1=\"{y}\" x2=\"{0:.1}\" y2=\"{1}\" stroke=\"#444\"/><text x=\"{0:.1}\" y=\"{2}\" text-anchor=\"middle\">{t}</text>",
            x(t),
            y + 4.0,
            y + 18.0
        );
        t += step;
    }
}

fn nice_step(span: f64) -> f64 {
    let raw = span.max(1e-9) / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag)
}

/// A heat map's cell: its shade from -1 (red) through 0 (white) to 1
/// (blue), none for grey, and its lines of text (the first larger).
pub struct Tile {
    pub shade: Option<f64>,
    pub lines: Vec<String>,
}

/// A heat map cell; none: nothing there.
pub type Cell = Option<Tile>;

/// A table of cells coloured by their shade, with their text written in
/// each; the rows and columns labelled.
pub fn heatmap(title: &str, rows: &[String], cols: &[String], cells: &[Vec<Cell>]) -> String {
    let longest = cols.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    let (cell, top) = ((7.0 * longest as f64 + 12.0).max(96.0), 60.0);
    let longest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let left = (7.0 * longest as f64 + 16.0).max(160.0);
    // Wide enough for the title too (bold 14 px: about 8 px a letter).
    let (w, h) = (
        (left + cell * cols.len() as f64 + 20.0).max(8.0 * title.chars().count() as f64 + 20.0),
        top + cell * rows.len() as f64 + 20.0,
    );
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" {FONT}>");
    let _ = write!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    for (j, name) in cols.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            left + cell * (j as f64 + 0.5),
            top - 8.0,
            esc(name)
        );
    }
    for (i, row) in cells.iter().enumerate() {
        let y = top + cell * i as f64;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + cell / 2.0,
            esc(rows.get(i).map_or("", |r| r.as_str()))
        );
        for (j, c) in row.iter().enumerate() {
            let x = left + cell * j as f64;
            let fill = match c.as_ref().and_then(|t| t.shade) {
                Some(t) => {
                    let t = t.clamp(-1.0, 1.0);
                    let (r, g, b) = if t >= 0.0 {
                        (255.0 - 180.0 * t, 255.0 - 120.0 * t, 255.0)
                    } else {
                        (255.0, 255.0 + 150.0 * t, 255.0 + 150.0 * t)
                    };
                    format!("rgb({r:.0},{g:.0},{b:.0})")
                }
                None => "#eee".to_string(),
            };
            let lines = c.as_ref().map_or(&[][..], |t| &t.lines[..]);
            let mut text = String::new();
            for (k, l) in lines.iter().enumerate() {
                let small = if k == 0 { "" } else { " font-size=\"10\"" };
                let _ = write!(
                    text,
                    "<tspan x=\"{:.1}\" dy=\"{}\"{small}>{}</tspan>",
                    x + cell / 2.0,
                    if k == 0 { 0 } else { 15 },
                    esc(l)
                );
            }
            let _ = write!(
                s,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" stroke=\"#fff\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{text}</text>",
                x + cell / 2.0,
                y + cell / 2.0 - 7.5 * lines.len().saturating_sub(2) as f64
            );
        }
    }
    s + "</svg>"
}

/// A histogram of whole numbers.
pub fn histogram(title: &str, xlabel: &str, values: &[u32]) -> String {
    let (w, h, left, top, bottom) = (720.0, 300.0, 50.0, 40.0, 40.0);
    let (min, max) = (
        values.iter().copied().min().unwrap_or(0),
        values.iter().copied().max().unwrap_or(0),
    );
    let bins = (max - min + 1) as usize;
    let mut counts = vec![0u64; bins];
    for &v in values {
        counts[(v - min) as usize] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let bw = (w - left - 20.0) / bins as f64;
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" {FONT}>");
    let _ = write!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    for (i, &c) in counts.iter().enumerate() {
        let bh = c as f64 / most * (h - top - bottom);
        let x = left + bw * i as f64;
        let _ = write!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#4a7fb5\"><title>{}: {c}</title></rect>",
            h - bottom - bh,
            (bw - 1.0).max(0.5),
            min as usize + i
        );
    }
    let step = nice_step(bins as f64).max(1.0) as usize;
    for i in (0..bins).step_by(step) {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            left + bw * (i as f64 + 0.5),
            h - bottom + 16.0,
            min as usize + i
        );
    }
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text><text x=\"10\" y=\"{:.1}\">{most:.0}</text>",
        w / 2.0,
        h - 6.0,
        esc(xlabel),
        top + 10.0
    );
    s + "</svg>"
}

/// A curve of `(x, value, lo, hi)` points with its interval as a band.
pub fn curve(title: &str, xlabel: &str, ylabel: &str, points: &[Point]) -> String {
    let (w, h, left, top, bottom) = (720.0, 320.0, 70.0, 40.0, 44.0);
    let (x0, x1) = points
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = points
        .iter()
        .fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p.2), b.max(p.3)));
    let (y0, y1) = (y0.floor(), y1.ceil().max(y0.floor() + 1.0));
    let xs = |v: f64| left + (v - x0) / (x1 - x0).max(1e-9) * (w - left - 30.0);
    let ys = |v: f64| top + (y1 - v) / (y1 - y0) * (h - top - bottom);
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" {FONT}>");
    let _ = write!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    let band: Vec<String> = (points
        .iter()
        .map(|p| format!("{:.1},{:.1}", xs(p.0), ys(p.3))))
    .chain(
        points
            .iter()
            .rev()
            .map(|p| format!("{:.1},{:.1}", xs(p.0), ys(p.2))),
    )
    .collect();
    let _ = write!(
        s,
        "<polygon points=\"{}\" fill=\"#4a7fb5\" fill-opacity=\"0.25\"/>",
        band.join(" ")
    );
    let line: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", xs(p.0), ys(p.1)))
        .collect();
    let _ = write!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#4a7fb5\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    let _ = write!(
        s,
        "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#888\" stroke-dasharray=\"4\"/>",
        ys(0.0),
        w - 30.0
    );
    for p in points {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#4a7fb5\"/><text x=\"{0:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            xs(p.0),
            ys(p.1),
            h - bottom + 16.0,
            p.0
        );
    }
    let step = nice_step(y1 - y0);
    let mut t = (y0 / step).ceil() * step;
    while t <= y1 + 1e-9 {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{t}</text>",
            left - 6.0,
            ys(t) + 4.0
        );
        t += step;
    }
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text><text x=\"14\" y=\"{:.1}\" transform=\"rotate(-90 14 {:.1})\" text-anchor=\"middle\">{}</text>",
        w / 2.0,
        h - 6.0,
        esc(xlabel),
        h / 2.0,
        h / 2.0,
        esc(ylabel)
    );
    s + "</svg>"
}
