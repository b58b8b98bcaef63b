//! What the small test games share: running the built binary on a data
//! folder written by the test.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `fuda ARGS --data .` inside `dir`.
pub fn fuda(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .args(["--data", "."])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Writes `text` to `rel` under `dir`, making its folders.
pub fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A new temporary data folder holding `files` (path in it, text).
pub fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        write(dir.path(), rel, text);
    }
    dir
}
