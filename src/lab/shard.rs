//! A shard of a run: block K of N of its seeds, so that independent
//! processes (a cluster's tasks, a scheduler's array jobs) each play one and
//! their rows, concatenated in shard order, are one whole run's rows.

use std::ops::Range;

/// Shard `index` of `count` (from 0); the whole run is shard 0 of 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl Shard {
    /// The games (offsets from the first seed) this shard plays of `games`:
    /// consecutive blocks whose sizes differ by at most one.
    pub fn games(&self, games: u64) -> Range<u64> {
        let at = |k: u64| (games as u128 * k as u128 / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`: shard K of N, K from 0 to N - 1.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: expected K/N with 0 <= K < N (e.g. 0/4)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_games_once_in_order() {
        for games in [0, 1, 7, 100] {
            for count in 1..=5 {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.games(games);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!("1/2".parse(), Ok(Shard { index: 1, count: 2 }));
        for bad in ["2/2", "1", "a/2", "0/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
