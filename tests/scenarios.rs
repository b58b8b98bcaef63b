//! The scenarios under tests/scenarios/, one test each (libtest-mimic), each
//! transcript checked by insta against the `.snap` beside its file: every
//! expectation must hold and every transcript match. A changed transcript is
//! written pending (`x.snap.new`), so `cargo insta review` accepts or rejects
//! it; `fuda test` reads and writes the same files. Adding a scenario is
//! adding a YAML file. `cargo test --test scenarios -- shrine/rules` runs
//! only matching files.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fuda::scenario::{Loaded, Tier, run_file_in};
use libtest_mimic::{Arguments, Failed, Trial};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn main() {
    let args = Arguments::from_args();
    let dir = root().join("tests/scenarios");
    let trials = (fuda::snapshot::collect(std::slice::from_ref(&dir)).into_iter())
        .map(|file| {
            let name = file.strip_prefix(&dir).unwrap_or(&file).with_extension("");
            let name = name.to_string_lossy().replace('\\', "/");
            Trial::test(name, move || check(&file))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// Runs one scenario: its expectations, then its transcript through insta.
fn check(file: &PathBuf) -> Result<(), Failed> {
    // Each game loaded once for all the trials.
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| Loaded::new(fuda::data::source::open(Some(root()))));
    let run = run_file_in(loaded, file, Tier::default()).map_err(|e| {
        let shown: Vec<String> = (e.errors.into_iter())
            .map(|e| format!("{:?}", miette::Report::new(e)))
            .collect();
        format!("the scenario does not load:\n{}", shown.join("\n"))
    })?;
    let transcript = run.render(None);
    if !run.failures.is_empty() {
        return Err(format!(
            "{} expectation(s) failed:\n{}\ntranscript:\n{transcript}",
            run.failures.len(),
            run.failures.join("\n")
        )
        .into());
    }
    let stem = file.file_stem().unwrap_or_default().to_string_lossy();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(file.parent().unwrap_or(root()));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(file);
    settings.set_omit_expression(true);
    if let Some(d) = &run.description {
        settings.set_description(d.trim());
    }
    settings.bind(|| insta::assert_snapshot!(stem.as_ref(), transcript));
    Ok(())
}

/// landgrab's EVENT "re-place" must re-place: its pick of a character needs
/// one (stopping on one's own land, the re-placement may pick none).
#[test]
fn a_replacement_chosen_at_event_must_pick_a_character() {
    let text = "game: landgrab
zones:
  p1:
    hand: [chen, cirno]
before: settle(me, 13, @chen)
phase: move
dice: [1, 2]
decisions: [\"re-place\", \"#0\", \"\"]
";
    let (_d, path) = scenario("a.yaml", text);
    let run = run_file(&fuda::data::source::open(Some(root())), &path)
        .unwrap_or_else(|e| panic!("{:?}", e.errors));
    assert!(
        (run.failures.iter()).any(|f| f.contains("picks 0 option(s); re-place with needs 1 to 1")),
        "{:?}",
        run.failures
    );
}
