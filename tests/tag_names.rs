//! Tags named at run time (`has_tag(x, name)`), on a minimal game written
//! here: a verb counts the cards of a table carrying the tag its caller names,
//! printed tags and tags given by `mark` alike, on both tiers; an unknown name
//! is an error with a suggestion, at the call.

mod common;
use common::{folder, fuda};

const RULES: &str = r#"
name: tagged
players: {min: 2, max: 2, default: 2}
tags: [red, blue, green]
counters:
  found: {start: 0}
zones:
  table: {per: shared, contents: public}
verbs:
  count_tag:
    params: [name]
    do: "return count(table where has_tag(it, name))"
  shared:
    # Whether two cards share one of the listed tags.
    params: [a, b]
    do: 'return any(["red", "blue", "green"], has_tag(a, it) and has_tag(b, it))'
setup: |
  create(@r, table)
  create(@rb, table)
  create(@g, table)
turn:
  phases:
    - name: main
      do: |
        let before = count_tag("blue")
        mark(top(table), "blue")
        let s = 0
        if shared(top(table), first(table where it == @rb)) { s = 1 }
        found = count_tag("red") * 1000 + before * 100 + count_tag("blue") * 10 + s
        if has_tag(@rb, "blue") and not has_tag(none, "red") { found += 10000 }
end:
  check: turn_end
  if: "true"
score: "found"
"#;

const CARDS: &str = r#"
- {id: r, name: R, tags: [red]}
- {id: rb, name: RB, tags: [red, blue]}
- {id: g, name: G, tags: [green]}
"#;

fn data_with(rules: &str) -> tempfile::TempDir {
    folder(&[
        ("rules/tagged.yaml", rules),
        ("cards/tagged/cards.yaml", CARDS),
    ])
}

#[test]
fn a_tag_named_by_a_value_is_tested_like_is() {
    let dir = data_with(RULES);
    for tier in [&["run", "tagged"][..], &["run", "tagged", "--reference"]] {
        let out = fuda(dir.path(), tier);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        // Red: r and rb; blue: rb, then g too once marked; g (marked blue)
        // shares blue with rb; rb's definition is blue, none is nothing.
        assert!(text.contains("scores: P1 12121, P2 0"), "{tier:?}\n{text}");
    }
}

#[test]
fn an_unknown_tag_name_is_an_error_with_a_suggestion() {
    let dir = data_with(&RULES.replace("count_tag(\"red\") * 1000", "count_tag(\"gren\") * 1000"));
    let out = fuda(dir.path(), &["run", "tagged"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("unknown tag \"gren\" (did you mean \"green\"?)"),
        "{err}"
    );
    assert!(err.contains("has_tag(it, name)"), "{err}");
}

#[test]
fn a_tag_must_be_named_by_a_string() {
    let dir = data_with(&RULES.replace("count_tag(\"red\") * 1000", "count_tag(3) * 1000"));
    let out = fuda(dir.path(), &["run", "tagged"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the tag is named by a string, not a number"),
        "{err}"
    );
}
