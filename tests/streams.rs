//! Every shipped command on a closed or full stream: with stdout closed
//! (`fuda doc | true`), it stops quietly, never with a panic (exit 101);
//! with stderr full (`2>/dev/full`), an error it cannot show still exits
//! with its code; with stdout full (`> /dev/full`), a command whose output
//! was lost fails (exit 1) rather than report success.

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};

use tempfile::TempDir;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every command of `fuda --help`, each with arguments that make it work
/// (`ok`: exit 0 when its streams are fine) or fail (`ok` false).
fn commands(tmp: &Path) -> Vec<(Vec<String>, bool)> {
    let t = |p: &str| tmp.join(p).to_str().unwrap().to_string();
    let save = t("save.json");
    let ran = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["run", "shrine", "--save", &save])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(ran.success());
    let scenario = root().join("tests/scenarios/shrine/bigmoney_buy_order.yaml");
    let scenario = scenario.to_str().unwrap().to_string();
    let trial = root().join("tests/mods/trial_shrine");
    let trial = trial.to_str().unwrap().to_string();
    let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (own(&["--help"]), true),
        (own(&["--version"]), true),
        (own(&["check"]), true),
        (own(&["check", "nosuchgame"]), false),
        (own(&["run", "shrine"]), true),
        (own(&["run", "shrine", "--json"]), true),
        (own(&["run", "shrine", "--help"]), true),
        (own(&["run", "nosuchgame"]), false),
        (own(&["replay", &save]), true),
        (own(&["scenario", &scenario]), true),
        (own(&["test", &trial]), true),
        (own(&["sim", "shrine", "--games", "2"]), true),
        (own(&["sim", "shrine", "--games", "2", "--json"]), true),
        (
            own(&[
                "sim",
                "utage",
                "--games",
                "2",
                "--swap",
                "--cards",
                "--out",
                &t("rows.jsonl"),
            ]),
            true,
        ),
        (
            own(&[
                "tournament",
                "t3",
                "--agents",
                "random,first",
                "--games",
                "2",
            ]),
            true,
        ),
        (
            own(&[
                "sweep",
                "shrine",
                "--vary",
                "omiki.cost=5,6",
                "--games",
                "2",
            ]),
            true,
        ),
        (own(&["report", &t("rows.jsonl")]), true),
        (own(&["options", "shrine"]), true),
        (own(&["play", "shrine"]), true),
        (own(&["doc"]), true),
        (own(&["doc", "mods"]), true),
        (own(&["doc", "nosuchtopic"]), false),
        (own(&["schema", "card"]), true),
        (own(&["schema", "nosuchkind"]), false),
        (own(&["data", "export", &t("export")]), true),
        (
            own(&["new", "card", "shrine", "my_card", "--data", &t("mod")]),
            true,
        ),
        (own(&["explain", "shrine", "osaisen"]), true),
        (own(&["explain", "shrine", "nosuchcard"]), false),
        (own(&["events", "shrine"]), true),
    ]
}

/// A fresh mod for `new card` to write into, and an empty place for the
/// export (each run writes anew).
fn fresh(tmp: &Path) {
    let _ = std::fs::remove_dir_all(tmp.join("mod"));
    let _ = std::fs::remove_dir_all(tmp.join("export"));
    std::fs::create_dir_all(tmp.join("mod")).unwrap();
    std::fs::write(tmp.join("mod/mod.yaml"), "extends: shrine\n").unwrap();
}

fn fuda(args: &[String], stdout: Stdio, stderr: Stdio) -> Option<i32> {
    Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .status()
        .expect("run fuda")
        .code()
}

fn full() -> Stdio {
    File::options()
        .write(true)
        .open("/dev/full")
        .unwrap()
        .into()
}

#[test]
fn every_command_survives_a_closed_stdout_a_full_stderr_and_fails_on_a_full_stdout() {
    let tmp = TempDir::new().unwrap();
    let mut wrong = Vec::new();
    for (args, ok) in commands(tmp.path()) {
        let shown = args.join(" ");
        // A reader that went away before the first line.
        fresh(tmp.path());
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let err = tmp.path().join("stderr");
        let code = fuda(&args, writer.into(), File::create(&err).unwrap().into());
        let said = std::fs::read_to_string(&err).unwrap_or_default();
        if !matches!(code, Some(0..=2)) || said.contains("panicked") {
            wrong.push(format!("`fuda {shown} | true`: exit {code:?}\n{said}"));
        }
        if ok && code != Some(0) {
            wrong.push(format!(
                "`fuda {shown} | true`: exit {code:?}, want 0\n{said}"
            ));
        }
        // Nowhere to write an error.
        fresh(tmp.path());
        let code = fuda(&args, Stdio::null(), full());
        if (ok && code != Some(0)) || (!ok && !matches!(code, Some(1 | 2))) {
            wrong.push(format!("`fuda {shown} 2>/dev/full`: exit {code:?}"));
        }
        // The output lost: a failure, said on stderr.
        fresh(tmp.path());
        let code = fuda(&args, full(), File::create(&err).unwrap().into());
        let said = std::fs::read_to_string(&err).unwrap_or_default();
        if !matches!(code, Some(1 | 2)) || said.contains("panicked") {
            wrong.push(format!(
                "`fuda {shown} > /dev/full`: exit {code:?}, want 1\n{said}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
