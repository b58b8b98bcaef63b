//! Where data may be read from: only regular files inside the data folder
//! (after symlinks), of at most [`MAX_FILE_BYTES`]. Paths come from untrusted
//! data (rules' `scripts:` and `cards:`, a game's name, a save file), and a
//! file read from elsewhere would be echoed in its error (`/etc/passwd`), a
//! named pipe would block forever.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::limits::MAX_FILE_BYTES;

/// The data folder, resolved.
#[derive(Default)]
pub struct Root {
    /// The folder as given (files are named from it in messages).
    given: PathBuf,
    dir: PathBuf,
    /// Folders already listed (a symlink may lead back to a parent).
    seen: HashSet<PathBuf>,
}

/// Reads a file named on the command line (a scenario, a saved game): it may
/// be anywhere, but must be a regular file (a named pipe would block) within
/// the size limit.
pub fn read_given(path: &Path) -> Result<String, String> {
    if let Some(why) = refuse_given(path) {
        return Err(why);
    }
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Why a file may not be read wherever it is, if it may not: it is not a
/// regular file, or it is over the size limit. A path that does not exist
/// passes (the read then says so).
pub fn refuse_given(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Some(format!(
            "{} is not a regular file{}",
            path.display(),
            if m.is_dir() { " (a folder)" } else { "" }
        )),
        Ok(m) if m.len() > MAX_FILE_BYTES as u64 => Some(format!(
            "{} is too big: more than {MAX_FILE_BYTES} bytes",
            path.display()
        )),
        _ => None,
    }
}

/// A name that is one plain path segment: a game's or a folder's.
pub fn plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

impl Root {
    pub fn new(dir: &Path) -> Root {
        Root {
            given: dir.to_path_buf(),
            dir: dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
            seen: HashSet::new(),
        }
    }

    /// The folder, as it was given.
    pub fn given(&self) -> &Path {
        &self.given
    }

    /// Why `path` may not be read, if it may not: it leads outside the data
    /// folder, or [`refuse_given`] refuses it. A path that does not exist passes (the
    /// read then says so).
    pub fn refuse(&self, path: &Path) -> Option<String> {
        let Ok(real) = path.canonicalize() else {
            return None;
        };
        if !real.starts_with(&self.dir) {
            return Some(format!(
                "{} leads outside the data folder {}",
                path.display(),
                self.dir.display()
            ));
        }
        refuse_given(path)
    }

    /// Whether `path` (that exists) resolves inside the data folder.
    pub fn inside(&self, path: &Path) -> bool {
        path.canonicalize()
            .map_or(true, |real| real.starts_with(&self.dir))
    }

    /// Whether the folder `dir` was not listed before.
    pub fn first_visit(&mut self, dir: &Path) -> bool {
        dir.canonicalize().is_ok_and(|real| self.seen.insert(real))
    }
}
