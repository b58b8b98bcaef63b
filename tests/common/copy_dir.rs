//! Copying a shipped data folder into a test's own, for test binaries that
//! include this file alone (`#[path = "common/copy_dir.rs"] mod copy_dir;`):
//! the rest of `common` would be dead code in them.

use std::path::Path;

/// Copies folder `from` into `to`, files and folders.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("data dir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}
