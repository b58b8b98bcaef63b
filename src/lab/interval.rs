//! 95 % intervals: Wilson's for a proportion, Newcombe's (from two Wilson
//! intervals) for a difference of two.

/// The normal quantile of a two-sided 95 % interval.
const Z: f64 = 1.959_964;

/// A proportion with its interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Rate {
    pub k: u64,
    pub n: u64,
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Wilson's score interval of `k` successes in `n` trials (none: 0 in [0, 1]).
pub fn wilson(k: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            k,
            n,
            p: 0.0,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let (kf, nf) = (k as f64, n as f64);
    let p = kf / nf;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = Z / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    Rate {
        k,
        n,
        p,
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    }
}

/// A difference of two proportions with its interval.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Diff {
    pub d: f64,
    pub lo: f64,
    pub hi: f64,
}

/// `a - b` with Newcombe's hybrid score interval (method 10).
pub fn newcombe(a: Rate, b: Rate) -> Diff {
    let d = a.p - b.p;
    let lo = d - ((a.p - a.lo).powi(2) + (b.hi - b.p).powi(2)).sqrt();
    let hi = d + ((a.hi - a.p).powi(2) + (b.p - b.lo).powi(2)).sqrt();
    Diff { d, lo, hi }
}

/// `42.0% [38.1, 46.0]`
pub fn pct(r: Rate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        r.p * 100.0,
        r.lo * 100.0,
        r.hi * 100.0
    )
}

/// `+3.1 [-0.4, +6.5]` (percentage points)
pub fn points(d: Diff) -> String {
    format!(
        "{:+.1} [{:+.1}, {:+.1}]",
        d.d * 100.0,
        d.lo * 100.0,
        d.hi * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 (Newcombe 1998, example): 0.2553 to 0.3662.
        let r = wilson(81, 263);
        assert!(
            (r.lo - 0.2553).abs() < 5e-4 && (r.hi - 0.3662).abs() < 5e-4,
            "{r:?}"
        );
        let r = wilson(0, 10);
        assert_eq!(r.lo, 0.0);
        assert!((r.hi - 0.2775).abs() < 5e-4, "{r:?}");
    }

    #[test]
    fn newcombe_matches_published_values() {
        // 56/70 - 48/80 (Newcombe 1998, example a): 0.0524 to 0.3339.
        let d = newcombe(wilson(56, 70), wilson(48, 80));
        assert!(
            (d.lo - 0.0524).abs() < 5e-4 && (d.hi - 0.3339).abs() < 5e-4,
            "{d:?}"
        );
    }
}
