//! `fuda play` through the real binary, its input piped: the other seat's
//! moves printed as they happen, options with their cards, commands (help,
//! state, undo, save, quit), end of input stopping the game.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `fuda play ARGS` with `input` on stdin; its stdout.
fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written from a thread: the game may stop before reading it all.
    let feed = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    feed.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

const SHRINE: [&str; 5] = ["shrine", "--agents", "human,bigmoney", "--seed", "4"];

#[test]
fn end_of_input_stops_the_game_where_it_stands() {
    let out = play(&SHRINE, "");
    assert!(
        out.contains("end of input: the game stops at turn 2 ("),
        "{out}"
    );
    // Nothing was played for the person: no outcome line.
    assert!(!out.contains("winner"), "{out}");
}

#[test]
fn the_other_seats_moves_and_the_cards_show() {
    // Answer the first option twenty times: P2's turn comes between.
    let out = play(&SHRINE, &"0\n".repeat(20));
    let first_p2 = out.find("\nP2 ").expect("P2's moves are printed");
    let last_prompt = out.rfind("P1 — ").unwrap();
    assert!(
        first_p2 < last_prompt,
        "P2 moved before a later decision: {out}"
    );
    // An option that is a card shows its properties and text.
    assert!(out.contains("play お賽銭 — coins 1"), "{out}");
    // A short status, not the full view (`state` prints that).
    assert!(out.contains("-- turn 2 · P1 active · buy phase"), "{out}");
    assert!(!out.contains("counters:"), "{out}");
    assert!(out.contains("end of input: the game stops"), "{out}");
}

#[test]
fn help_state_and_a_wrong_answer_are_answered() {
    let out = play(&SHRINE, "help\nstate\nfirst\n99\n");
    assert!(
        out.contains("undo      back to your previous decision"),
        "{out}"
    );
    assert!(out.contains("counters:"), "state prints the view: {out}");
    assert_eq!(
        out.matches("not an answer: choose 1 of the option numbers above")
            .count(),
        2,
        "{out}"
    );
}

#[test]
fn undo_asks_the_previous_decision_again() {
    let out = play(&SHRINE, "0\nundo\n");
    // The first decision, as first shown and as shown after the undo.
    let block = |s: &str| {
        let from = s.find("\n-- turn").unwrap();
        let to = from + s[from..].find("> ").unwrap();
        s[from..to].to_string()
    };
    let first = block(&out);
    let (_, after) = out
        .split_once("-- undone: back to your previous decision")
        .expect("undone");
    assert_eq!(block(after), first);
    // Nothing to undo at the first decision.
    let out = play(&SHRINE, "undo\n");
    assert!(
        out.contains("nothing to undo: this is your first decision"),
        "{out}"
    );
}

#[test]
fn quit_offers_a_save_that_replays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let out = play(&SHRINE, &format!("0\n0\nq\n{}\n", file.display()));
    assert!(out.contains("quit: the game stops at turn"), "{out}");
    assert!(out.contains("save it? a file name"), "{out}");
    assert!(out.contains("saved to"), "{out}");
    let replay = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .arg("replay")
        .arg(&file)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    // `save FILE` mid-game, then quit without a save.
    let mid = dir.path().join("mid.json");
    let out = play(&SHRINE, &format!("save {}\nquit\n\n", mid.display()));
    assert!(out.contains("saved to"), "{out}");
    // Both saves record the seats' agents (the table seats them again).
    for f in [&file, &mid] {
        let save: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert_eq!(save["agents"], serde_json::json!(["human", "bigmoney"]));
    }
}

#[test]
fn a_game_is_followed_to_its_end() {
    let out = play(&SHRINE, &"0\n".repeat(5000));
    assert!(out.contains("winner"), "{out}");
    assert!(!out.contains("end of input"), "{out}");
}
