//! `fuda test`: every scenario under some folders, each transcript compared
//! with the snapshot stored beside its file (`x.yaml` → `x.snap`, in insta's
//! format). A change is shown as a diff and written pending (`x.snap.new`)
//! unless updated or accepted. The repository's own scenario tests run
//! through here, so a mod author has what we use. No terminal I/O: output
//! goes to a writer, and a [`Review`] decides each change.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::data::confine;
use crate::data::source::Source;
use crate::scenario::{Loaded, Tier, run_file_in};

/// How to run.
#[derive(Default)]
pub struct Options {
    /// Write every new or changed snapshot (they pass).
    pub update: bool,
    /// Only scenarios whose path contains this.
    pub filter: Option<String>,
    pub tier: Tier,
}

/// Decides whether a changed snapshot is accepted (`fuda test --review`).
pub trait Review {
    /// `old` is `None` for a scenario without a snapshot yet.
    fn accept(&mut self, scenario: &Path, diff: &str, old: Option<&str>) -> bool;
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
}

impl Summary {
    pub fn line(&self) -> String {
        format!("{} passed, {} failed", self.passed, self.failed)
    }
}

/// Whether a folder holds a game's data: `rules/<game>.yaml` beside
/// `cards/<game>/`. Its `rules/` and `cards/` are no scenarios.
pub fn data_folder(dir: &Path) -> bool {
    let Ok(rd) = std::fs::read_dir(dir.join("rules")) else {
        return false;
    };
    rd.flatten().any(|e| {
        let p = e.path();
        p.extension().is_some_and(|x| x == "yaml")
            && p.file_stem()
                .is_some_and(|g| dir.join("cards").join(g).is_dir())
    })
}

/// The scenario files under `paths` (a file is taken as given), sorted;
/// hidden folders, `target/` and a data folder's `rules/` and `cards/` are
/// not searched.
pub fn collect(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let data = data_folder(dir);
        // A mod's own files are no scenarios either.
        let is_mod = crate::data::manifest::is_mod(dir);
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                let own = (data && (name == "rules" || name == "cards"))
                    || (is_mod && name == crate::data::manifest::CARDS);
                if !name.starts_with('.') && name != "target" && !own {
                    walk(&p, out);
                }
            } else if t.is_file()
                && name.ends_with(".yaml")
                && !(is_mod
                    && [crate::data::manifest::FILE, crate::data::manifest::RULES]
                        .contains(&name.as_str()))
            {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Where a scenario's snapshot lives: beside it.
pub fn snap_path(scenario: &Path) -> PathBuf {
    scenario.with_extension("snap")
}

fn pending_path(scenario: &Path) -> PathBuf {
    scenario.with_extension("snap.new")
}

/// A snapshot file's body: what follows its header (`---` … `---`).
pub fn body(file: &str) -> &str {
    let Some(rest) = file.strip_prefix("---\n") else {
        return file;
    };
    match rest.find("\n---\n") {
        Some(i) => &rest[i + 5..],
        None => file,
    }
}

/// A snapshot file in insta's format: its header (the scenario's
/// description, its file) between `---` lines, then the transcript.
pub fn snapshot_file(scenario: &Path, description: Option<&str>, body: &str) -> String {
    let name = scenario.file_name().unwrap_or_default().to_string_lossy();
    let mut head = String::from("---\nsource: fuda test\n");
    if let Some(d) = description {
        // A JSON string is a YAML scalar, whatever the text holds.
        head += &format!("description: {}\n", serde_json::Value::from(d.trim()));
    }
    format!("{head}input_file: {name}\n---\n{body}")
}

/// Runs the scenarios, writing what happens to `out`; the last line is
/// the summary.
pub fn run(
    data: &Source,
    paths: &[PathBuf],
    opts: &Options,
    mut review: Option<&mut dyn Review>,
    out: &mut dyn Write,
) -> std::io::Result<Summary> {
    let mut sum = Summary::default();
    let loaded = Loaded::new(data.clone());
    for file in collect(paths) {
        let shown = file.display().to_string();
        if (opts.filter.as_ref()).is_some_and(|f| !shown.contains(f.as_str())) {
            continue;
        }
        let ok = one(&loaded, &file, &shown, opts, review.as_deref_mut(), out)?;
        if ok {
            sum.passed += 1;
        } else {
            sum.failed += 1;
        }
    }
    writeln!(out, "{}", sum.line())?;
    Ok(sum)
}

fn one<'r>(
    loaded: &Loaded,
    file: &Path,
    shown: &str,
    opts: &Options,
    review: Option<&mut (dyn Review + 'r)>,
    out: &mut dyn Write,
) -> std::io::Result<bool> {
    let mut run = match run_file_in(loaded, file, opts.tier) {
        Ok(r) => r,
        Err(e) => {
            writeln!(out, "FAIL {shown}: the scenario does not load")?;
            for e in e.errors {
                writeln!(out, "{:?}", miette::Report::new(e))?;
            }
            return Ok(false);
        }
    };
    if !run.failures.is_empty() {
        writeln!(
            out,
            "FAIL {shown}: {} expectation(s) failed",
            run.failures.len()
        )?;
        for e in std::mem::take(&mut run.reports) {
            writeln!(out, "{:?}", miette::Report::new(e))?;
        }
        if let Some(s) = run.stopped.as_ref().filter(|s| s.starts_with("error")) {
            writeln!(out, "  {}", crate::out::printable(s))?;
        }
        // What happened, to read beside what was expected.
        writeln!(out, "transcript of {shown}:")?;
        for line in run.render(None).lines() {
            writeln!(out, "  | {}", crate::out::printable(line))?;
        }
        return Ok(false);
    }
    let new = run.render(None);
    let snap = snap_path(file);
    let pending = pending_path(file);
    // The snapshots sit in a mod's folder, which may hold a symlink or a
    // named pipe of that name: read and written only as regular files.
    let old_file = match confine::read_own(&snap) {
        Ok(f) => f,
        Err(why) => {
            writeln!(out, "FAIL {shown}: {why}")?;
            return Ok(false);
        }
    };
    let old = old_file.as_deref().map(body);
    if old.is_some_and(|o| o.trim_end() == new.trim_end()) {
        let _ = std::fs::remove_file(&pending);
        return Ok(true);
    }
    let d = diff(old.unwrap_or(""), &new);
    let accept = if opts.update {
        true
    } else if let Some(r) = review {
        writeln!(out, "{shown}: {}", changed(old))?;
        writeln!(out, "{}", crate::out::printable(&d))?;
        r.accept(file, &d, old)
    } else {
        false
    };
    let text = snapshot_file(file, run.description.as_deref(), &new);
    if accept {
        if let Err(why) = confine::write_own(&snap, text.as_bytes()) {
            writeln!(out, "FAIL {shown}: {why}")?;
            return Ok(false);
        }
        let _ = std::fs::remove_file(&pending);
        writeln!(out, "updated {}", snap.display())?;
        return Ok(true);
    }
    if let Err(why) = confine::write_own(&pending, text.as_bytes()) {
        writeln!(out, "FAIL {shown}: {why}")?;
        return Ok(false);
    }
    writeln!(
        out,
        "FAIL {shown}: {}; the new one is pending in {}",
        changed(old),
        pending.display()
    )?;
    writeln!(out, "{}", crate::out::printable(&d))?;
    Ok(false)
}

fn changed(old: Option<&str>) -> &'static str {
    if old.is_some() {
        "the transcript differs from its snapshot"
    } else {
        "no snapshot yet"
    }
}

/// A line diff of two texts: `-` old, `+` new, two lines of context,
/// `@@ line N` (of the new text) before each run of changes. `similar`'s
/// Myers diff keeps memory linear in the lines (a long transcript's diff
/// stays small); past a few seconds it gives a coarser, still correct diff.
pub fn diff(old: &str, new: &str) -> String {
    use similar::{ChangeTag, TextDiff};
    let d = TextDiff::configure()
        .timeout(std::time::Duration::from_secs(5))
        .diff_lines(old, new);
    let mut s = String::new();
    for group in d.grouped_ops(2) {
        let Some(first) = group.first() else { continue };
        s += &format!("@@ line {}\n", first.new_range().start + 1);
        for op in &group {
            for c in d.iter_changes(op) {
                let sign = match c.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                let line = c.value();
                s += &format!("{sign} {}\n", line.strip_suffix('\n').unwrap_or(line));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_marks_changes_with_context() {
        let d = diff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nX\ne\nf\ng\n");
        assert_eq!(d, "@@ line 2\n  b\n  c\n- d\n+ X\n  e\n  f\n");
    }

    #[test]
    fn body_follows_the_header() {
        let f = snapshot_file(Path::new("x/a.yaml"), Some("a: b"), "one\ntwo\n");
        assert!(f.contains("description: \"a: b\"\n"));
        assert!(f.contains("input_file: a.yaml\n"));
        assert_eq!(body(&f), "one\ntwo\n");
    }
}
