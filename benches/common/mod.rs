//! Timing records shared by the benches: criterion prints its own estimates;
//! these keep the per-sample times so a bench can print games/second and
//! ratios between benchmarks of the same run.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// (iterations, elapsed) of every call criterion made, per benchmark name.
type Records = HashMap<String, Vec<(u64, Duration)>>;
static TIMES: Mutex<Option<Records>> = Mutex::new(None);

/// Runs `one(i)` for `iters` iterations, numbering them on from the last call,
/// and records the time under `name`. For `Bencher::iter_custom`.
pub fn timed(name: &str, iters: u64, mut one: impl FnMut(u64)) -> Duration {
    let mut times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    let rec = times
        .get_or_insert_with(HashMap::new)
        .entry(name.to_string())
        .or_default();
    let first: u64 = rec.iter().map(|(n, _)| n).sum();
    drop(times);
    let start = Instant::now();
    for i in first..first + iters {
        one(i);
    }
    let elapsed = start.elapsed();
    let mut times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(rec) = times.as_mut().and_then(|t| t.get_mut(name)) {
        rec.push((iters, elapsed));
    }
    elapsed
}

/// Median seconds per iteration over the last `samples` calls (criterion's
/// measurement samples come after its warm-up calls), if `name` ran.
pub fn median_secs(name: &str, samples: usize) -> Option<f64> {
    let times = TIMES.lock().unwrap_or_else(|e| e.into_inner());
    let rec = times.as_ref()?.get(name)?;
    let mut per: Vec<f64> = rec[rec.len().saturating_sub(samples)..]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, d)| d.as_secs_f64() / *n as f64)
        .collect();
    if per.is_empty() {
        return None;
    }
    per.sort_by(f64::total_cmp);
    let m = per.len() / 2;
    Some(if per.len() % 2 == 1 {
        per[m]
    } else {
        (per[m - 1] + per[m]) / 2.0
    })
}
