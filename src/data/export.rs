//! `fuda data export DIR`: the built-in games written out as files, with
//! their scenarios and snapshots, to edit and run with `--data DIR` and
//! test with `fuda test DIR/tests/scenarios`.

use std::path::Path;
use std::process::ExitCode;

use super::confine::Root;
use super::files::{EMBEDDED, SCENARIOS};

/// Writes every built-in file and scenario under `dir`, and `extra` (path, text) files
/// beside them (the editor schemas their first lines point at). A folder
/// that is not empty is refused unless `force` (an export must not mix into
/// other work silently).
pub fn export(dir: &Path, force: bool, extra: &[(String, String)]) -> ExitCode {
    let busy = std::fs::read_dir(dir).is_ok_and(|mut rd| rd.next().is_some());
    if busy && !force {
        errln!(
            "error: {} is not empty; export into a new or empty folder, or add --force to overwrite its files",
            dir.display()
        );
        return ExitCode::from(2);
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        errln!("error: cannot make {}: {e}", dir.display());
        return ExitCode::from(1);
    }
    // `--force` overwrites files, never what a symlink in the folder points at.
    let root = Root::new(dir);
    let more = extra.iter().map(|(p, t)| (p.as_str(), t.as_bytes()));
    let shipped = EMBEDDED.iter().chain(SCENARIOS).copied();
    for (rel, bytes) in shipped.chain(more) {
        if let Err(why) = root.write(&dir.join(rel), bytes) {
            errln!("error: {why}");
            return ExitCode::from(1);
        }
    }
    outln!(
        "wrote {} files of the built-in games, {} of their scenarios and snapshots \
         (and {} editor schemas) to {d}; run them with --data {d}, test them with \
         `fuda test {d}/tests/scenarios`",
        EMBEDDED.len(),
        SCENARIOS.len(),
        extra.len(),
        d = dir.display()
    );
    ExitCode::SUCCESS
}
