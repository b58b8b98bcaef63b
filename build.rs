//! Embeds the shipped games (`rules/` and `cards/`) in the binary, so an
//! installed `fuda` needs no source tree: a table of every file's path and
//! bytes, read by `src/data/files.rs`; and a second of their scenarios
//! (`tests/scenarios/`, with their snapshots), which `fuda data export`
//! writes beside them.

use std::path::{Path, PathBuf};

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let hidden = e.file_name().to_string_lossy().starts_with('.');
        if hidden {
            continue;
        }
        if p.is_dir() {
            walk(root, &p, out);
        } else if p.is_file() {
            out.push(p.strip_prefix(root).unwrap_or(&p).to_path_buf());
        }
    }
}

/// The table (`&[(path, bytes)]`) of the files under `tops` that `keep`
/// keeps. Cargo reruns this script when what it embeds may have changed:
/// with `whole`, on any change under `tops` (a new file too); else only
/// when a file it embeds changes, so writing a file it leaves out (a pending
/// `x.snap.new`) rebuilds nothing, and a new file is embedded at the next run
/// (tests/mods.rs tells when the table misses one).
fn table(root: &Path, tops: &[&str], keep: fn(&Path) -> bool, whole: bool) -> String {
    let mut files = Vec::new();
    for top in tops {
        walk(root, &root.join(top), &mut files);
        if whole {
            println!("cargo:rerun-if-changed={top}");
        }
    }
    files.retain(|f| keep(f));
    files.sort();
    if !whole {
        for f in &files {
            println!("cargo:rerun-if-changed={}", f.display());
        }
    }
    let mut table = String::from("&[\n");
    for f in &files {
        let name: Vec<String> = f
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = name.join("/");
        // Named from the manifest dir at compile time, not as an absolute
        // path: a target dir shared by two checkouts may reuse this output.
        let from_root = format!("/{name}");
        table.push_str(&format!(
            "    ({name:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {from_root:?}))),\n"
        ));
    }
    table.push(']');
    table
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let games = table(&root, &["rules", "cards"], |_| true, true);
    std::fs::write(out.join("embedded.rs"), games).expect("OUT_DIR is writable");
    // Scenarios and their snapshots; not pending ones (`x.snap.new`).
    let scenarios = table(
        &root,
        &["tests/scenarios"],
        |f| f.extension().is_some_and(|e| e == "yaml" || e == "snap"),
        false,
    );
    std::fs::write(out.join("scenarios.rs"), scenarios).expect("OUT_DIR is writable");
}
