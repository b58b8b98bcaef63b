//! `fuda play` as a person meets it: through a pseudo-terminal (rexpect), so
//! stdin is a terminal and the line editor reads the answers. Each wait is
//! for output to appear; the session's timeout is only a last guard.

use rexpect::reader::Options;
use rexpect::session::{PtySession, spawn_with_options};
use std::process::Command;

/// Last guard on any one wait: far beyond what a step needs.
const GUARD_MS: u64 = 60_000;

fn fuda_play(args: &[&str]) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fuda"));
    // A terminal the line editor supports (CI may set no TERM).
    cmd.arg("play").args(args).env("TERM", "xterm");
    let options = Options::new().timeout_ms(Some(GUARD_MS));
    spawn_with_options(cmd, options).unwrap()
}

/// Types `keys` then Enter, as a person does (Enter sends a carriage return).
fn type_line(s: &mut PtySession, keys: &str) {
    s.send(keys).unwrap();
    s.send("\r").unwrap();
    s.flush().unwrap();
}

/// rexpect reads the terminal's bytes one char each: a needle is matched
/// as its UTF-8 bytes, and what was read is decoded back.
fn bytes(needle: &str) -> String {
    needle.bytes().map(char::from).collect()
}

fn text(read: String) -> String {
    let b: Vec<u8> = read.chars().map(|c| c as u8).collect();
    String::from_utf8_lossy(&b).into_owned()
}

/// Waits for `needle`; the text read before it.
fn expect(s: &mut PtySession, needle: &str) -> String {
    text(s.exp_string(&bytes(needle)).unwrap())
}

/// Reads up to the next prompt of P1's; the text before it.
fn next_decision(s: &mut PtySession) -> String {
    let before = expect(s, "P1 — ");
    let rest = expect(s, "> ");
    before + "P1 — " + &rest
}

const SHRINE: [&str; 5] = ["shrine", "--agents", "human,bigmoney", "--seed", "4"];

#[test]
fn a_shrine_game_is_followed_at_a_terminal() {
    let mut s = fuda_play(&SHRINE);
    // The bot's first turn is printed before the person's first decision.
    let first = next_decision(&mut s);
    let p2 = first.find("P2 buy 奉納米").expect("P2's move is shown");
    assert!(p2 < first.find("P1 — ").unwrap(), "{first}");
    // The options carry the card's cost and text.
    assert!(first.contains("0: play お賽銭 — coins 1"), "{first}");

    type_line(&mut s, "help");
    expect(&mut s, "undo      back to your previous decision");
    expect(&mut s, "> ");

    // The line editor: a typo taken back, then the up arrow recalls the
    // last answer (a plain terminal line would read the arrow's bytes).
    type_line(&mut s, "9\x7f0");
    let second = next_decision(&mut s);
    assert!(!second.contains("not an answer"), "{second}");
    s.send("\x1b[A").unwrap();
    type_line(&mut s, "");
    let third = next_decision(&mut s);
    assert!(!third.contains("not an answer"), "{third}");
    // undo asks the previous decision again: the second, as it was shown.
    type_line(&mut s, "undo");
    let again = expect(&mut s, "-- undone: back to your previous decision");
    assert!(!again.contains("P1 — "), "{again}");
    let again = next_decision(&mut s);
    let asked = |d: &str| d[d.find("P1 — ").unwrap()..].to_string();
    assert_eq!(asked(&again), asked(&second));
    assert!(again.contains("play お賽銭 — coins 1"), "{again}");
    type_line(&mut s, "0");
    next_decision(&mut s);

    // Play on with the first option: P2's whole next turn is printed
    // before P1 is asked again.
    let mut seen = String::new();
    for _ in 0..40 {
        type_line(&mut s, "0");
        seen += &next_decision(&mut s);
        if seen.contains("== turn 4: P1 ==") {
            break;
        }
    }
    let turn3 = seen.find("== turn 3: P2 ==").expect("P2's turn is shown");
    let asked = turn3 + seen[turn3..].find("P1 — ").unwrap();
    assert!(seen[turn3..asked].contains("P2 buy "), "{seen}");

    // quit offers a save, and the save is written.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    type_line(&mut s, "quit");
    expect(&mut s, "quit: the game stops at turn 4");
    expect(&mut s, "save it? a file name, or Enter for no save: ");
    type_line(&mut s, file.to_str().unwrap());
    expect(&mut s, "saved to");
    s.exp_eof().unwrap();
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(save["answers"].as_array().unwrap().len() > 3, "{save}");
}

#[test]
fn ctrl_d_ends_the_session_and_ctrl_c_quits() {
    let mut s = fuda_play(&SHRINE);
    next_decision(&mut s);
    s.send_control('d').unwrap();
    let end = text(s.exp_eof().unwrap());
    assert!(
        end.contains("end of input: the game stops at turn 2 ("),
        "{end}"
    );
    assert!(!end.contains("winner"), "nothing played on: {end}");

    let mut s = fuda_play(&SHRINE);
    next_decision(&mut s);
    let end = ctrl_c_quits_unsaved(&mut s, "quit: the game stops at turn 2");
    assert!(!end.contains("saved to"), "{end}");
}

/// Ctrl-C, then Enter at the offer of a save: what the session printed last.
fn ctrl_c_quits_unsaved(s: &mut PtySession, quit: &str) -> String {
    s.send_control('c').unwrap();
    expect(s, quit);
    expect(s, "save it?");
    type_line(s, "");
    text(s.exp_eof().unwrap())
}

const HOT_SEAT: [&str; 5] = ["shrine", "--agents", "human,human", "--seed", "4"];

#[test]
fn the_hot_seat_hands_the_terminal_over() {
    let mut s = fuda_play(&HOT_SEAT);
    expect(&mut s, "-- pass the terminal to P2. P2, press Enter: ");
    type_line(&mut s, "");
    expect(&mut s, "P2 — ");
    expect(&mut s, "> ");
    s.send_control('d').unwrap();
    let end = text(s.exp_eof().unwrap());
    assert!(end.contains("end of input: the game stops"), "{end}");

    // Ctrl-C while the terminal is being handed over quits, as at an answer.
    let mut s = fuda_play(&HOT_SEAT);
    expect(&mut s, "-- pass the terminal to P2. P2, press Enter: ");
    let end = ctrl_c_quits_unsaved(&mut s, "quit: the game stops");
    assert!(!end.contains("end of input"), "{end}");
}
