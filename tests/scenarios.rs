//! Runs every scenario under tests/scenarios/ and snapshots its transcript.
//! Adding a scenario is adding a YAML file; review new snapshots with
//! `cargo insta review`.

use std::path::Path;

#[test]
fn scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    insta::glob!("scenarios/**/*.yaml", |path| {
        let run = match fuda::scenario::run_file(root, path) {
            Ok(r) => r,
            Err(e) => {
                let msgs: Vec<String> = e
                    .errors
                    .iter()
                    .map(|e| format!("{:?}", miette::Report::msg(e.message.clone())))
                    .collect();
                panic!("{}: {}", path.display(), msgs.join("\n"));
            }
        };
        let text = run.render(None);
        assert!(
            run.failures.is_empty(),
            "{}: expectations failed:\n{}",
            path.display(),
            run.failures.join("\n")
        );
        insta::assert_snapshot!(text);
    });
}
