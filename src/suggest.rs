//! "Did you mean …?" for unknown names.

/// The closest candidate within a small edit distance, if any.
pub fn suggest<'a, I>(name: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (name.chars().count() / 3).max(1) + 1;
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

/// Levenshtein distance over characters.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
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
}
