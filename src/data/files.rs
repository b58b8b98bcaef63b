//! Where a game's files are read from: the shipped games, embedded in the
//! binary by `build.rs` (an installed `fuda` needs no source tree), or a
//! folder, read only inside it ([`Root`]). Paths are relative, `/`-separated
//! (`rules/x.yaml`, `cards/x/y.yaml`).

use std::path::{Path, PathBuf};

use super::confine::Root;
use super::diag::DataError;

/// Every shipped file (`rules/…`, `cards/…`) with its bytes.
pub static EMBEDDED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The shipped games' scenarios (`tests/scenarios/…`, `.yaml` and `.snap`),
/// for `fuda data export`: loading never reads them.
pub static SCENARIOS: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/scenarios.rs"));

pub enum Files {
    Embedded,
    Dir(Root),
    /// Files given in memory (path, bytes) laid over others: a variant of
    /// a game with no file edited (`fuda sweep`).
    Over(Box<Files>, Vec<(String, Vec<u8>)>),
}

impl Files {
    pub fn dir(dir: &Path) -> Files {
        Files::Dir(Root::new(dir))
    }

    /// How a file is named in messages: its path (relative, if embedded).
    pub fn name(&self, rel: &str) -> String {
        match self {
            Files::Embedded => rel.to_string(),
            Files::Dir(root) => root.given().join(rel).display().to_string(),
            Files::Over(base, _) => base.name(rel),
        }
    }

    /// A file's bytes, or why it cannot be read (it leads outside the
    /// folder, is no regular file, is too big, does not exist).
    pub fn read(&self, rel: &str) -> Result<Vec<u8>, String> {
        match self {
            Files::Embedded => embedded(rel)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| format!("cannot read {rel}: no such file among the shipped games")),
            Files::Dir(root) => {
                let path = root.given().join(rel);
                if let Some(why) = root.refuse(&path) {
                    return Err(why);
                }
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
            }
            Files::Over(base, over) => match over.iter().find(|(p, _)| p == rel) {
                Some((_, bytes)) => Ok(bytes.clone()),
                None => base.read(rel),
            },
        }
    }

    pub fn exists(&self, rel: &str) -> bool {
        match self {
            Files::Embedded => embedded(rel).is_some(),
            Files::Dir(root) => root.given().join(rel).exists(),
            Files::Over(base, over) => over.iter().any(|(p, _)| p == rel) || base.exists(rel),
        }
    }

    /// The games: the stems of `rules/*.yaml`, sorted.
    pub fn games(&self) -> Vec<String> {
        let mut games: Vec<String> = match self {
            Files::Embedded => (EMBEDDED.iter())
                .filter_map(|(p, _)| p.strip_prefix("rules/")?.strip_suffix(".yaml"))
                .filter(|g| !g.contains('/'))
                .map(str::to_string)
                .collect(),
            Files::Dir(root) => std::fs::read_dir(root.given().join("rules"))
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|e| {
                    let p = e.path();
                    (p.extension()? == "yaml")
                        .then(|| p.file_stem()?.to_str().map(str::to_string))?
                })
                .collect(),
            Files::Over(base, _) => base.games(),
        };
        games.sort();
        games
    }

    /// Whether the folder `rel` resolves inside the data (always, embedded).
    pub fn inside(&self, rel: &str) -> bool {
        match self {
            Files::Embedded => true,
            Files::Dir(root) => root.inside(&root.given().join(rel)),
            Files::Over(base, _) => base.inside(rel),
        }
    }

    /// The YAML files under the folder `rel` (`*.yaml`, `*.yml`), sorted;
    /// in a folder, each sub-folder listed once (a symlink may lead back to
    /// a parent) and none outside the data folder.
    pub fn yaml_under(&mut self, rel: &str, errs: &mut Vec<DataError>) -> Vec<String> {
        let yaml = |p: &str| p.ends_with(".yaml") || p.ends_with(".yml");
        let mut out: Vec<String> = match self {
            Files::Embedded => {
                let prefix = format!("{}/", rel.trim_end_matches('/'));
                (EMBEDDED.iter())
                    .map(|(p, _)| *p)
                    .filter(|p| p.starts_with(&prefix) && yaml(p))
                    .map(str::to_string)
                    .collect()
            }
            Files::Dir(root) => {
                let mut found = Vec::new();
                let top = root.given().join(rel);
                walk(root, &top, &mut found, errs);
                let base = root.given().to_path_buf();
                (found.into_iter())
                    .filter_map(|p| {
                        let r = p.strip_prefix(&base).ok()?;
                        let parts: Vec<String> = (r.components())
                            .map(|c| c.as_os_str().to_string_lossy().into_owned())
                            .collect();
                        Some(parts.join("/"))
                    })
                    .filter(|p| yaml(p))
                    .collect()
            }
            // The laid files replace files of the same path only.
            Files::Over(base, _) => base.yaml_under(rel, errs),
        };
        sort_paths(&mut out);
        out
    }
}

/// By path components, as the folder's paths sort (`a/x` before `a-b`): the
/// order of the paths with `/` as the least byte, so a key made once a path
/// (comparing components costs 20 times more over 10,000 card files).
fn sort_paths(paths: &mut [String]) {
    paths.sort_by_cached_key(|p| p.replace('/', "\0"));
}

fn embedded(rel: &str) -> Option<&'static [u8]> {
    (EMBEDDED.iter()).find_map(|(p, b)| (*p == rel).then_some(*b))
}

/// Entries of `dir` named *.yaml (reading refuses what is not a regular
/// file), and those of the folders inside.
fn walk(root: &mut Root, dir: &Path, out: &mut Vec<PathBuf>, errs: &mut Vec<DataError>) {
    if !root.inside(dir) {
        errs.push(DataError::plain(
            format!("{} leads outside the data folder", dir.display()),
            Some("card folders are read only from the data folder".into()),
        ));
        return;
    }
    if !root.first_visit(dir) {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        } else if p.is_dir() {
            walk(root, &p, out, errs);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn paths_sort_by_their_components() {
        let names = [
            "a/x.yaml",
            "a-b.yaml",
            "a.yaml",
            "a/b/c.yaml",
            "a b/x.yaml",
            "a/y.yaml",
            "ab/x.yaml",
            "a/b.yaml",
            "b.yaml",
            "a/b-c/d.yaml",
            "a/b/d.yaml",
            "é/x.yaml",
            "Z.yaml",
            "a_/x.yaml",
        ];
        let mut ours: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        super::sort_paths(&mut ours);
        let mut by_parts = ours.clone();
        by_parts.sort_by(|a, b| a.split('/').cmp(b.split('/')));
        assert_eq!(ours, by_parts);
        assert!(
            ours.iter().position(|p| p == "a/x.yaml") < ours.iter().position(|p| p == "a-b.yaml")
        );
    }
}
