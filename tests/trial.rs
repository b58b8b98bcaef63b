//! The card author's trial (issue 15's "done means"): three shrine cards and
//! a utage card with a "when targeted" ability, written with only the binary
//! and docs/, in `tests/mods/trial/` (laid out as a data folder: cards and
//! their scenarios with snapshots). Laid over a copy of the shipped data,
//! they load and their scenarios match their snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Copies the files under `from` into `to`, over what is there.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let (f, t) = (e.path(), to.join(e.file_name()));
        if f.is_dir() {
            copy(&f, &t);
        } else {
            std::fs::copy(&f, &t).unwrap();
        }
    }
}

fn laid_over() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("fuda-trial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["rules", "cards"] {
        copy(&root.join(sub), &dir.join(sub));
    }
    copy(&root.join("tests/mods/trial"), &dir);
    dir
}

#[test]
fn the_trials_cards_load_and_match_their_snapshots() {
    let dir = laid_over();
    let fuda = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_fuda"))
            .arg("--data")
            .arg(&dir)
            .args(args)
            .output()
            .expect("run fuda");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (o.status.code(), out, err)
    };
    for game in ["shrine", "utage"] {
        let (code, _, err) = fuda(&["check", game]);
        assert_eq!(code, Some(0), "{err}");
    }
    let (code, out, _) = fuda(&["test"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.ends_with("4 passed, 0 failed\n"), "{out}");
    // The "when targeted" ability is the card's, as explain shows it.
    let (_, out, _) = fuda(&["explain", "utage", "trial_decoy"]);
    assert!(
        out.contains("if:       any(event.target, it == this)"),
        "{out}"
    );
    assert!(
        out.contains("tests/scenarios/utage/cards/trial_decoy.yaml"),
        "{out}"
    );
}
