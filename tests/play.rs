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
    succeeded(out)
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

/// Runs `fuda ARGS` (any command) with no input; its stdout.
fn fuda(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    succeeded(out)
}

/// The stdout of a command that must have succeeded (else its output fails the test).
fn succeeded(out: std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

const HANDOVER: &str = "-- pass the terminal to P";

/// What each person was shown, in order: (seat from 1, the text from a
/// handover to them up to the next handover).
fn turns_at_the_terminal(out: &str) -> Vec<(u8, &str)> {
    let starts: Vec<usize> = out.match_indices(HANDOVER).map(|(i, _)| i).collect();
    (starts.iter().enumerate())
        .map(|(k, &i)| {
            let seat = out.as_bytes()[i + HANDOVER.len()] - b'0';
            let end = starts.get(k + 1).copied().unwrap_or(out.len());
            (seat, &out[i..end])
        })
        .collect()
}

/// A person's own lines at the terminal: the decision's status, prompt and
/// options, the handover, input echoes and answers to commands.
fn own_line(line: &str) -> bool {
    line.is_empty()
        || line.starts_with("-- ")
        || line.starts_with("   ")
        || line.starts_with("  ")
        || line.starts_with("end of input")
        || (line.starts_with('P') && line.contains(" — ") && line.ends_with("help for commands):"))
}

#[test]
fn hot_seat_shows_each_person_only_what_their_seat_sees() {
    for seed in ["4", "9"] {
        // `0` answers every decision (as the `first` agent would) and
        // every handover's Enter.
        let args = ["shrine", "--agents", "human,human", "--seed", seed];
        let out = play(&args, &"0\n".repeat(80));
        let turns = turns_at_the_terminal(&out);
        assert!(turns.iter().filter(|t| t.0 == 2).count() >= 2, "{out}");
        assert!(turns.iter().filter(|t| t.0 == 1).count() >= 2, "{out}");
        // The same game's transcript as each seat may read it.
        let game = ["run", "shrine", "--agents", "first", "--seed", seed];
        let seen: Vec<std::collections::HashSet<String>> = ["1", "2"]
            .iter()
            .map(|v| {
                let mut a = game.to_vec();
                a.extend(["--view", v]);
                fuda(&a).lines().map(str::to_string).collect()
            })
            .collect();
        let mut p1_only = 0;
        for (seat, text) in &turns {
            let (mine, other) = (&seen[*seat as usize - 1], &seen[2 - *seat as usize]);
            // Input is not echoed: what follows a prompt shares its line.
            let lines = text.lines().map(|l| {
                let l = l.rsplit_once("press Enter: ").map_or(l, |(_, r)| r);
                l.trim_start_matches("> ")
            });
            for line in lines.filter(|l| !own_line(l)) {
                assert!(
                    mine.contains(line),
                    "seed {seed}: P{seat} was shown `{line}`, not in P{seat}'s view:\n{text}"
                );
                p1_only += usize::from(*seat == 1 && !other.contains(line));
            }
            // The status shows the person's own zones, never another's.
            let other_zones = format!("   P{}'s ", 3 - seat);
            assert!(!text.contains(&other_zones), "seed {seed}:\n{text}");
        }
        // P1 was shown lines P2 may not read (its own draws): the check
        // above had something to catch.
        assert!(p1_only > 0, "seed {seed}: {out}");
    }
}

/// The decision blocks of an output: (seat from 1, the block from its
/// status line to its `> ` prompt).
fn decisions(out: &str) -> Vec<(u8, String)> {
    let mut found = Vec::new();
    let mut rest = out;
    while let Some(from) = rest.find("\n-- turn") {
        let Some(len) = rest[from..].find("\n> ") else {
            break;
        };
        let block = &rest[from..from + len];
        let seat = block
            .lines()
            .find(|l| l.ends_with("help for commands):"))
            .map_or(0, |l| l.as_bytes()[1] - b'0');
        found.push((seat, block.to_string()));
        rest = &rest[from + len..];
    }
    found
}

#[test]
fn hot_seat_undo_goes_back_to_that_persons_own_decision() {
    let args = ["shrine", "--agents", "human,human", "--seed", "4"];
    let out = play(&args, &"0\n".repeat(80));
    // Lines read before P2's third decision: one per decision and one per
    // handover before it.
    let mut read = 0;
    let mut p2 = 0;
    for line in out.split_inclusive('\n') {
        let answered = line.starts_with("> ") || line.contains("press Enter: ");
        if line.ends_with("help for commands):\n") && line.starts_with("P2") {
            p2 += 1;
        }
        if p2 == 3 {
            break;
        }
        read += usize::from(answered);
    }
    assert_eq!(p2, 3, "{out}");
    let out = play(&args, &format!("{}undo\n", "0\n".repeat(read)));
    let (before, after) = out
        .split_once("-- undone: back to your previous decision")
        .expect("undone");
    let asked = decisions(before);
    let p2_asked: Vec<&String> = (asked.iter()).filter(|d| d.0 == 2).map(|d| &d.1).collect();
    assert_eq!(p2_asked.len(), 3, "{before}");
    // Asked again: P2's previous decision, with no handover (P2 still
    // holds the terminal).
    let again = &decisions(after)[0];
    assert_eq!(again.0, 2, "{after}");
    assert_eq!(&again.1, p2_asked[1], "{out}");
    assert!(!after[..after.find(&again.1).unwrap()].contains(HANDOVER));
}

#[test]
fn play_with_no_agents_seats_and_saves_the_rules_default_agent() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    let out = play(
        &["shrine", "--seed", "4"],
        &format!("q\n{}\n", file.display()),
    );
    assert!(out.contains("saved to"), "{out}");
    let save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(save["agents"], serde_json::json!(["human", "bigmoney"]));
}

/// The result line of an output.
fn result(out: &str) -> &str {
    out.lines()
        .rfind(|l| l.starts_with("result — "))
        .unwrap_or("")
}

#[test]
fn replay_plays_a_saved_game_on_with_its_agents() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    let f = file.to_str().unwrap();
    play(&SHRINE, &format!("0\n0\nq\n{f}\n"));
    let text = std::fs::read_to_string(&file).unwrap();
    let mut save: serde_json::Value = serde_json::from_str(&text).unwrap();
    let recorded = save["answers"].as_array().unwrap().len();

    // A person's seat: `fuda play` from the save's last answer.
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["replay", f])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.contains(&format!("-- replaying {recorded} answers, then playing on")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "end of input: the game stops at turn 2 ({recorded} answers given)"
        )),
        "{out}"
    );
    assert!(out.contains("P1 — "), "the person is asked: {out}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["replay", f])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feed = std::thread::spawn(move || {
        let _ = stdin.write_all("0\n".repeat(5000).as_bytes());
    });
    let done = child.wait_with_output().unwrap();
    feed.join().unwrap();
    let done = String::from_utf8_lossy(&done.stdout).into_owned();
    // Answering `0` throughout is what the `first` agent does.
    let whole = fuda(&["run", "shrine", "--agents", "first,bigmoney", "--seed", "4"]);
    assert_eq!(result(&done), result(&whole), "{done}");
    assert!(!result(&whole).is_empty(), "{whole}");

    // Agents only: they play on to the end without asking anyone.
    save["agents"] = serde_json::json!(["first", "bigmoney"]);
    let bots = dir.path().join("bots.json");
    std::fs::write(&bots, save.to_string()).unwrap();
    let out = fuda(&["replay", bots.to_str().unwrap()]);
    assert_eq!(result(&out), result(&whole), "{out}");
    // `--upto` still stops where it is told.
    let upto = fuda(&["replay", bots.to_str().unwrap(), "--upto", "1"]);
    assert!(
        upto.ends_with("-- replay stopped after the requested decisions\n"),
        "{upto}"
    );
    // A save without agents stops at its last answer, as before.
    save.as_object_mut().unwrap().remove("agents");
    std::fs::write(&bots, save.to_string()).unwrap();
    let out = fuda(&["replay", bots.to_str().unwrap()]);
    assert!(
        out.ends_with("-- replay stopped after the requested decisions\n"),
        "{out}"
    );
}
