//! `--watch`: waits for a change to a data or scenario file, so the command
//! line can run again. One save is often several events (an editor writes,
//! renames, sets times), so a change is only reported once the files have
//! been quiet for [`QUIET`]. No terminal I/O: the command line says what
//! happens.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// How long the files must stay unchanged before a change is reported.
pub const QUIET: Duration = Duration::from_millis(80);
/// A change is reported at the latest this long after its first event,
/// even if the files keep changing.
const MOST: Duration = Duration::from_secs(1);

/// The files a data folder's game is read from, and the scenario paths: the
/// folder itself (a mod's top-level file), its `rules/` and `cards/`, and
/// each path (a file is watched through its folder, as editors replace
/// files when they save). The built-in games have no folder: only the paths.
pub fn roots(data: Option<&Path>, paths: &[PathBuf]) -> Vec<(PathBuf, RecursiveMode)> {
    let mut roots = Vec::new();
    if let Some(data) = data {
        roots.push((data.to_path_buf(), RecursiveMode::NonRecursive));
        for sub in ["rules", "cards"] {
            roots.push((data.join(sub), RecursiveMode::Recursive));
        }
    }
    for p in paths {
        if p.is_dir() {
            roots.push((p.clone(), RecursiveMode::Recursive));
        } else {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            roots.push((
                parent.unwrap_or(Path::new(".")).to_path_buf(),
                RecursiveMode::NonRecursive,
            ));
        }
    }
    roots
}

/// Whether a changed file can change a run: YAML and Rhai, not hidden
/// (editors' swap files), not a snapshot (a run writes those itself).
pub fn relevant(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let ext = path.extension().unwrap_or_default();
    !name.starts_with('.') && ["yaml", "yml", "rhai"].iter().any(|x| ext == *x)
}

pub struct Watch {
    // Kept alive: dropping it stops the events.
    _watcher: RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

impl Watch {
    /// Watches the roots that exist (a data folder may have no `rules/`).
    pub fn new(roots: &[(PathBuf, RecursiveMode)]) -> notify::Result<Watch> {
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx)?;
        for (root, mode) in roots.iter().filter(|(r, _)| r.exists()) {
            watcher.watch(root, *mode)?;
        }
        Ok(Watch {
            _watcher: watcher,
            events,
        })
    }

    /// Blocks until a relevant file changes and the files are quiet again;
    /// the changed files, sorted. `None` if the watcher stopped.
    pub fn next(&self) -> Option<Vec<PathBuf>> {
        let mut changed = Vec::new();
        while changed.is_empty() {
            Self::take(self.events.recv().ok()?, &mut changed);
        }
        let first = Instant::now();
        while first.elapsed() < MOST {
            match self.events.recv_timeout(QUIET) {
                Ok(e) => Self::take(e, &mut changed),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
        changed.sort();
        changed.dedup();
        Some(changed)
    }

    fn take(event: notify::Result<notify::Event>, changed: &mut Vec<PathBuf>) {
        // A watcher error (a folder went away) is no change to run for.
        let Ok(e) = event else { return };
        if matches!(e.kind, EventKind::Access(_)) {
            return;
        }
        changed.extend(e.paths.into_iter().filter(|p| relevant(p)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevant_files() {
        assert!(relevant(Path::new("cards/g/a.yaml")));
        assert!(relevant(Path::new("rules/g/x.rhai")));
        assert!(!relevant(Path::new("s/a.snap")));
        assert!(!relevant(Path::new("s/a.snap.new")));
        assert!(!relevant(Path::new("cards/g/.a.yaml.swp")));
        assert!(!relevant(Path::new("cards/g/4913")));
    }

    #[test]
    fn a_file_is_watched_through_its_folder() {
        let r = roots(Some(Path::new("d")), &[PathBuf::from("a.yaml")]);
        assert_eq!(r.last().unwrap().0, PathBuf::from("."));
        assert_eq!(r.len(), 4);
    }
}
