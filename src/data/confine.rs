//! Where data may be read from, and where fuda may write beside it: only
//! regular files inside the data folder (after symlinks), of at most
//! [`MAX_FILE_BYTES`]. Paths come from untrusted data (rules' `scripts:` and
//! `cards:`, a game's name, a save file, a mod's own files), and a file read
//! from elsewhere would be echoed in its error (`/etc/passwd`), a named pipe
//! would block forever, and a write through a mod's symlink would land
//! outside it.
//!
//! Files fuda keeps beside data (snapshots, pending snapshots, scaffolding,
//! exports) and the files it writes where it is told (saves, reports) go
//! through [`read_own`] and [`write_own`] (or [`Root::write`],
//! which also confines the folders on the way): never through a symlink,
//! never to or from a special file, reads capped.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use crate::limits::MAX_FILE_BYTES;

/// The data folder, resolved.
#[derive(Default)]
pub struct Root {
    /// The folder as given (files are named from it in messages).
    given: PathBuf,
    dir: PathBuf,
    /// Folders already listed (a symlink may lead back to a parent).
    seen: HashSet<PathBuf>,
    /// Folders resolved, by the path they were named by: the files of one
    /// folder resolve it once (resolving each file's whole path read every
    /// link on the way again, seven system calls a file).
    folders: Mutex<HashMap<PathBuf, PathBuf>>,
}

/// Reads a file named on the command line (a scenario, a saved game): it may
/// be anywhere, but must be a regular file (a named pipe would block) within
/// the size limit.
pub fn read_given(path: &Path) -> Result<String, String> {
    if let Some(why) = refuse_given(path) {
        return Err(why);
    }
    let file = open(path, false, 0).map_err(|e| why_not(path, "read", &e))?;
    read_capped(path, file)
}

/// Reads a file fuda keeps beside data (a snapshot): `None` if there is
/// none. A symlink, a special file or a file over [`MAX_FILE_BYTES`] is
/// refused, never followed, opened or read to the end.
pub fn read_own(path: &Path) -> Result<Option<String>, String> {
    match open(path, false, libc::O_NOFOLLOW) {
        Ok(file) => read_capped(path, file).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(why_not(path, "read", &e)),
    }
}

/// Writes a file fuda keeps beside data (a snapshot, a pending snapshot)
/// or one named for output (a save, a report), replacing a regular file of
/// that name; a symlink (even a dangling one) or a special file is refused,
/// never written through.
pub fn write_own(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    (create_own(path)?)
        .write_all(bytes)
        .map_err(|e| why_not(path, "write", &e))
}

/// Opens a file to write as [`write_own`] does, emptied: a save named in a
/// data folder (`--save MOD/game.json`) may be a link the mod ships, or a
/// named pipe that would block forever.
pub fn create_own(path: &Path) -> Result<File, String> {
    let file = open(path, true, libc::O_NOFOLLOW).map_err(|e| why_not(path, "write", &e))?;
    file.set_len(0).map_err(|e| why_not(path, "write", &e))?;
    Ok(file)
}

/// Opens `path` without blocking (a named pipe would) and keeps it only if
/// it is a regular file.
fn open(path: &Path, write: bool, flags: i32) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    if write {
        o.write(true).create(true);
    } else {
        o.read(true);
    }
    let file = o.custom_flags(flags | libc::O_NONBLOCK).open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("it is not a regular file"));
    }
    Ok(file)
}

/// Reads at most [`MAX_FILE_BYTES`] (a file may grow after it was measured).
fn read_capped(path: &Path, file: File) -> Result<String, String> {
    let mut bytes = Vec::new();
    (file.take(MAX_FILE_BYTES as u64 + 1))
        .read_to_end(&mut bytes)
        .map_err(|e| why_not(path, "read", &e))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{} is too big: more than {MAX_FILE_BYTES} bytes",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))
}

fn why_not(path: &Path, what: &str, e: &std::io::Error) -> String {
    if e.raw_os_error() == Some(libc::ELOOP) {
        return format!(
            "cannot {what} {}: it is a symbolic link, and fuda does not {what} through links beside data",
            path.display()
        );
    }
    if e.raw_os_error() == Some(libc::ENXIO) {
        return format!("cannot {what} {}: it is not a regular file", path.display());
    }
    format!("cannot {what} {}: {e}", path.display())
}

/// Why a file may not be read wherever it is, if it may not: it is not a
/// regular file, or it is over the size limit. A path that does not exist
/// passes (the read then says so).
pub fn refuse_given(path: &Path) -> Option<String> {
    refuse_meta(path, std::fs::metadata(path).ok())
}

/// [`refuse_given`] for the file's metadata (`None`: it does not exist).
fn refuse_meta(path: &Path, meta: Option<std::fs::Metadata>) -> Option<String> {
    match meta {
        Some(m) if !m.is_file() => Some(format!(
            "{} is not a regular file{}",
            path.display(),
            if m.is_dir() { " (a folder)" } else { "" }
        )),
        Some(m) if m.len() > MAX_FILE_BYTES as u64 => Some(format!(
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
            folders: Mutex::default(),
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
        let (real, meta) = self.resolve(path)?;
        if !real.starts_with(&self.dir) {
            return Some(format!(
                "{} leads outside the data folder {}",
                path.display(),
                self.dir.display()
            ));
        }
        match meta {
            Some(m) => refuse_meta(path, Some(m)),
            None => refuse_given(path),
        }
    }

    /// `path` with every link resolved (`None` where it cannot be), and its
    /// metadata where it was read on the way. A file that is no link is its
    /// resolved folder joined with its name; the folder is resolved once.
    fn resolve(&self, path: &Path) -> Option<(PathBuf, Option<std::fs::Metadata>)> {
        if let (Some(Component::Normal(name)), Some(parent)) =
            (path.components().next_back(), path.parent())
            && let Ok(meta) = std::fs::symlink_metadata(path)
            && !meta.file_type().is_symlink()
        {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            let mut folders = self.folders.lock().unwrap_or_else(|e| e.into_inner());
            let folder = match folders.get(parent) {
                Some(f) => Some(f.clone()),
                None => parent.canonicalize().ok().inspect(|f| {
                    folders.insert(parent.to_path_buf(), f.clone());
                }),
            };
            if let Some(f) = folder {
                return Some((f.join(name), Some(meta)));
            }
        }
        path.canonicalize().ok().map(|real| (real, None))
    }

    /// Whether `path` (that exists) resolves inside the data folder.
    pub fn inside(&self, path: &Path) -> bool {
        path.canonicalize()
            .map_or(true, |real| real.starts_with(&self.dir))
    }

    /// Writes `path` (inside the folder) with [`write_own`], making its
    /// folders first; refused if a folder on the way leads outside (a
    /// symlinked `tests/`).
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), String> {
        let parent = path.parent().unwrap_or(Path::new("."));
        // The nearest folder on the way that exists must be inside; what
        // is made below it is.
        let mut have = parent;
        while !have.exists() {
            match have.parent() {
                Some(p) => have = p,
                None => break,
            }
        }
        self.refuse_folder(have, path)?;
        std::fs::create_dir_all(parent).map_err(|e| why_not(parent, "make the folder", &e))?;
        self.refuse_folder(parent, path)?;
        write_own(path, bytes)
    }

    fn refuse_folder(&self, dir: &Path, path: &Path) -> Result<(), String> {
        match dir.canonicalize() {
            Ok(real) if real.starts_with(&self.dir) => Ok(()),
            Ok(real) => Err(format!(
                "cannot write {}: {} leads outside {} (to {}), and fuda does not write through links",
                path.display(),
                dir.display(),
                self.given.display(),
                real.display()
            )),
            Err(e) => Err(why_not(dir, "write into", &e)),
        }
    }

    /// Whether the folder `dir` was not listed before.
    pub fn first_visit(&mut self, dir: &Path) -> bool {
        dir.canonicalize().is_ok_and(|real| self.seen.insert(real))
    }
}
