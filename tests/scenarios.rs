//! Runs every scenario under tests/scenarios/ and snapshots its transcript as
//! `scenarios__<game>__<dir>__<name>.snap`. Adding a scenario is adding a YAML
//! file; review new snapshots with `cargo insta review`.
//!
//! `INSTA_GLOB_FILTER='utage/**;shrine/rules/**'` runs only matching files.

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

fn selected(rel: &str) -> bool {
    match std::env::var("INSTA_GLOB_FILTER") {
        Ok(f) if !f.is_empty() => f
            .split(';')
            .any(|pat| rel.starts_with(pat.trim_end_matches('*').trim_end_matches('/'))),
        _ => true,
    }
}

#[test]
fn scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = root.join("tests/scenarios");
    let mut files = Vec::new();
    collect(&base, &mut files);
    files.sort();
    let mut failed = Vec::new();
    let mut ran = 0;
    for path in files {
        let rel = path
            .strip_prefix(&base)
            .unwrap()
            .with_extension("")
            .to_string_lossy()
            .replace('\\', "/");
        if !selected(&rel) {
            continue;
        }
        ran += 1;
        let name = rel.replace('/', "__");
        let result = std::panic::catch_unwind(|| {
            let run = match fuda::scenario::run_file(root, &path) {
                Ok(r) => r,
                Err(e) => {
                    let msgs: Vec<String> = e.errors.iter().map(|e| e.message.clone()).collect();
                    panic!("{rel}: {}", msgs.join("\n"));
                }
            };
            assert!(
                run.failures.is_empty(),
                "{rel}: expectations failed:\n{}",
                run.failures.join("\n")
            );
            let text = run.render(None);
            insta::with_settings!({ input_file => &path, prepend_module_to_snapshot => true }, {
                insta::assert_snapshot!(name.as_str(), text);
            });
        });
        if result.is_err() {
            failed.push(rel);
        }
    }
    assert!(ran > 0, "no scenario matched");
    assert!(
        failed.is_empty(),
        "{} of {ran} scenario(s) failed: {}",
        failed.len(),
        failed.join(", ")
    );
}
