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
