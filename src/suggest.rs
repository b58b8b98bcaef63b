//! "Did you mean …?" for unknown names.
//!
//! Edit distance alone misleads (`cots` is as near a counter `coats` as the
//! property `cost`), so candidates are ranked: first those of the kind the
//! place wants (a card's property where a card is read), then those that
//! contain the name whole or are contained in it (`river` → `misty_river`
//! rather than `rover`), then the nearest by edit distance, a swap of two
//! neighbours counting as one edit.

use crate::limits::MAX_SUGGEST_CHARS;

/// The best candidate of one kind, if any is close enough.
pub fn suggest<'a, I>(name: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    suggest_kinds(name, [candidates])
}

/// The best candidate, trying the kinds in order: a fitting candidate of an
/// earlier kind wins over any of a later one.
pub fn suggest_kinds<'a, K, I>(name: &str, kinds: K) -> Option<String>
where
    K: IntoIterator<Item = I>,
    I: IntoIterator<Item = &'a str>,
{
    let len = name.chars().count();
    if len > MAX_SUGGEST_CHARS {
        return None;
    }
    // A suggestion that changes every character of the name is no suggestion.
    let limit = ((len / 3).max(1) + 1).min(len.saturating_sub(1));
    kinds
        .into_iter()
        .enumerate()
        .flat_map(|(k, cands)| cands.into_iter().map(move |c| (k, c)))
        .filter(|(_, c)| *c != name)
        .filter_map(|(k, c)| {
            let contained = contains(c, name) || contains(name, c);
            // The distance is at least the difference of the lengths.
            let clen = c.chars().count();
            if !contained && (clen > MAX_SUGGEST_CHARS || clen.abs_diff(len) > limit) {
                return None;
            }
            let d = if clen > MAX_SUGGEST_CHARS {
                usize::MAX
            } else {
                distance(name, c)
            };
            (contained || d <= limit).then_some(((k, !contained, d), c))
        })
        .min_by_key(|(key, _)| *key)
        .map(|(_, c)| c.to_string())
}

/// Whether `whole` contains `part` as a whole word-like piece worth naming:
/// at least three characters, so a short name does not match everything.
fn contains(whole: &str, part: &str) -> bool {
    part.chars().count() >= 3 && whole.contains(part)
}

/// Edit distance over characters (optimal string alignment: insertions,
/// deletions, substitutions and swaps of two neighbours each count one).
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows (the one before the last is read by a swap), not a table.
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j - 1] + cost).min(prev[j] + 1).min(cur[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// " — did you mean `x`?" or nothing.
pub fn did_you_mean(s: Option<String>) -> Option<String> {
    s.map(|s| format!("did you mean `{s}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_close_names() {
        assert_eq!(
            suggest("vilage", ["village", "smithy"]),
            Some("village".into())
        );
        assert_eq!(suggest("xyz", ["village", "smithy"]), None);
    }

    #[test]
    fn names_past_the_limit_are_not_measured() {
        let (long, near) = (
            "x".repeat(MAX_SUGGEST_CHARS + 1),
            "x".repeat(MAX_SUGGEST_CHARS),
        );
        assert_eq!(suggest(&long, [near.as_str()]), None);
        assert_eq!(
            suggest(&near[1..], [long.as_str()]),
            Some(long.clone()),
            "contained"
        );
        assert_eq!(
            suggest("cost", [long.as_str(), "cots"]),
            Some("cots".into())
        );
    }

    #[test]
    fn a_swap_is_one_edit() {
        assert_eq!(distance("cots", "cost"), 1);
        assert_eq!(distance("cots", "coast"), 2);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("", "ab"), 2);
    }

    #[test]
    fn the_right_kind_comes_first() {
        // Reading a card: its properties before the players' counters, even
        // when a counter is as near.
        let props = ["cost", "size"];
        let counters = ["coats", "actions"];
        assert_eq!(
            suggest_kinds("cots", [props, counters]),
            Some("cost".into())
        );
        assert_eq!(
            suggest_kinds("actons", [props, counters]),
            Some("actions".into()),
            "a later kind still answers when no earlier one fits"
        );
        assert_eq!(
            suggest_kinds("cots", [counters, props]),
            Some("coats".into()),
            "the kind order decides before the distance"
        );
    }

    #[test]
    fn a_contained_name_beats_a_near_one() {
        let ids = ["rover", "misty_river", "lake"];
        assert_eq!(suggest("river", ids), Some("misty_river".into()));
        assert_eq!(suggest("misty", ids), Some("misty_river".into()));
        // Too short to be worth a containment.
        assert_eq!(suggest("mi", ["misty_river"]), None);
    }

    #[test]
    fn a_one_letter_name_gets_no_unrelated_suggestion() {
        assert_eq!(suggest("n", ["me", "this", "active"]), None);
        assert_eq!(suggest("x", ["me"]), None);
        assert_eq!(suggest("mee", ["me"]), Some("me".into()));
    }
}
