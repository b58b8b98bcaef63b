//! The table over HTTP and WebSocket, as a browser uses it: each endpoint,
//! a game played to its end through the API for every game, and what each
//! seat's connection receives (its own view, nothing hidden from it).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use fuda::data::source::Source;
use serde_json::{Value, json};

/// A connection, with the transcript its messages have built.
struct Ws {
    ws: tungstenite::WebSocket<TcpStream>,
    log: Vec<Value>,
}

const GAMES: [&str; 5] = ["shrine", "utage", "hyakki", "landgrab", "t3"];

fn server() -> SocketAddr {
    fuda::serve::start(Source::Embedded, "127.0.0.1", 0)
        .unwrap()
        .0
}

/// One HTTP/1.1 request; the status, headers and body.
fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8(raw).unwrap();
    let (head, mut rest) = raw.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    let mut out = String::new();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        while let Some((n, r)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(n.trim(), 16).unwrap();
            if n == 0 {
                break;
            }
            out.push_str(&r[..n]);
            rest = &r[n + 2..];
        }
    } else {
        out = rest.to_string();
    }
    (status, head.to_string(), out)
}

fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let (st, _, b) = http(addr, "POST", path, Some(&body));
    (st, serde_json::from_str(&b).unwrap_or(Value::Null))
}

fn ws(addr: SocketAddr, table: &str, token: &str, debug: bool) -> Result<Ws, tungstenite::Error> {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let url = format!("ws://{addr}/api/tables/{table}/ws?token={token}&debug={debug}");
    match tungstenite::client(url, s) {
        Ok((ws, _)) => Ok(Ws {
            ws,
            log: Vec::new(),
        }),
        Err(tungstenite::HandshakeError::Failure(e)) => Err(e),
        Err(e) => panic!("handshake: {e}"),
    }
}

/// The next message, its `log` the whole transcript (each message sends
/// the lines from `log_from` on).
fn next(w: &mut Ws) -> Value {
    loop {
        match w.ws.read().unwrap() {
            tungstenite::Message::Text(t) => {
                let mut m: Value = serde_json::from_str(&t).unwrap();
                let from = m["log_from"].as_u64().unwrap() as usize;
                assert!(from <= w.log.len());
                w.log.truncate(from);
                w.log.extend(m["log"].as_array().unwrap().iter().cloned());
                m["log"] = Value::Array(w.log.clone());
                return m;
            }
            tungstenite::Message::Close(_) => panic!("closed"),
            _ => {}
        }
    }
}

fn new_table(addr: SocketAddr, game: &str, seats: &[&str], seed: u64) -> Value {
    let (st, t) = post(
        addr,
        "/api/tables",
        json!({ "game": game, "seats": seats, "seed": seed }),
    );
    assert_eq!(st, 200, "{t}");
    t
}

/// The seats of a game: a person first, the rules' default agent after.
fn seats_of(addr: SocketAddr, game: &str) -> Vec<String> {
    let (_, _, b) = http(addr, "GET", "/api/games", None);
    let j: Value = serde_json::from_str(&b).unwrap();
    let g = (j["games"].as_array().unwrap().iter())
        .find(|g| g["game"] == game)
        .unwrap()
        .clone();
    let n = g["players"][2].as_u64().unwrap() as usize;
    let bot = g["default_agent"].as_str().unwrap_or("random").to_string();
    (0..n)
        .map(|i| if i == 0 { "human".into() } else { bot.clone() })
        .collect()
}

/// The first legal answer: the first `min` options (at least one).
fn first(r: &Value) -> Vec<u64> {
    let min = r["min"].as_u64().unwrap().max(1);
    let n = r["options"].as_array().unwrap().len() as u64;
    (0..min.min(n)).collect()
}

/// The `k`th answer of a played-out game: the options from a place that
/// moves on with `k` (as many as `min` asks, at least one). Always the first
/// options can keep a game going to its turn limit (t3 for 400 turns).
fn varied(r: &Value, k: u64) -> Vec<u64> {
    let n = r["options"].as_array().unwrap().len() as u64;
    let m = r["min"].as_u64().unwrap().max(1).min(n);
    let at = k.wrapping_mul(7919) % n.max(1);
    let mut picks: Vec<u64> = (0..m).map(|i| (at + i) % n).collect();
    picks.sort_unstable();
    picks
}

/// Plays seat 1 to the end, its answers [`varied`]; every message it was
/// sent, and for each of its decisions the whole state then.
fn play_out(addr: SocketAddr, t: &Value, check: &mut dyn FnMut(&Value, &Value)) -> Value {
    let (id, token) = (t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
    let mut w = ws(addr, id, token, false).unwrap();
    let mut d = ws(addr, id, token, true).unwrap();
    let mut state = next(&mut d);
    for k in 0..100_000 {
        let m = next(&mut w);
        assert_eq!(m["seat"], 1, "seat 1's connection got another seat's view");
        if !m["table"]["over"].is_null() {
            return m;
        }
        if let Some(r) = m.get("request").filter(|r| !r.is_null()) {
            // The whole state at this decision: sent before seat 1's message.
            while state["table"]["answers"] != m["table"]["answers"] {
                state = next(&mut d);
            }
            check(&m, &state);
            let (st, b) = post(
                addr,
                &format!("/api/tables/{id}/answer"),
                json!({ "token": token, "picks": varied(r, k) }),
            );
            assert_eq!(st, 200, "{b}");
        }
    }
    panic!("the game did not end");
}

/// The names of cards seat 1 may not see now: in zones hidden from it and
/// not shown to it, and nowhere it sees.
fn secret_names(debug: &Value) -> Vec<String> {
    let mut hidden = Vec::new();
    let mut seen = Vec::new();
    for z in debug["zones"].as_array().unwrap() {
        let visible = z["visible"].as_array().unwrap().contains(&json!(1));
        for c in z["cards"].as_array().unwrap() {
            let name = c["name"].as_str().unwrap().to_string();
            if visible || c["seen"].as_array().unwrap().contains(&json!(1)) {
                seen.push(name);
            } else {
                hidden.push(name);
            }
        }
        for p in z["piles"].as_array().unwrap() {
            seen.push(p[0].as_str().unwrap().to_string());
        }
    }
    hidden.retain(|h| !seen.contains(h));
    hidden
}

/// Every card name and option label in a seat message's view and request.
fn named(m: &Value, out: &mut Vec<String>) {
    match m {
        Value::Object(o) => {
            for (k, v) in o {
                if k == "log" {
                    continue;
                }
                match (k.as_str(), v) {
                    ("name" | "label", Value::String(s)) => out.push(s.clone()),
                    _ => named(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| named(v, out)),
        _ => {}
    }
}

#[test]
fn assets_and_games() {
    let addr = server();
    let (st, head, body) = http(addr, "GET", "/", None);
    assert_eq!(st, 200);
    assert!(body.contains("<script src=\"/app.js\">"));
    assert!(
        head.to_ascii_lowercase()
            .contains("content-security-policy: default-src 'self'")
    );
    // Nothing loaded from another host.
    assert!(!body.contains("http://") && !body.contains("https://"));
    for path in ["/app.js", "/style.css"] {
        let (st, _, body) = http(addr, "GET", path, None);
        assert_eq!(st, 200);
        assert!(
            !body.contains("http://") && !body.contains("https://"),
            "{path}"
        );
    }
    // Names reach the page only as text.
    let (_, _, js) = http(addr, "GET", "/app.js", None);
    assert!(!js.contains("innerHTML") && !js.contains("insertAdjacentHTML"));
    let (st, _, body) = http(addr, "GET", "/api/games", None);
    assert_eq!(st, 200);
    let j: Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> = (j["games"].as_array().unwrap().iter())
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    for g in GAMES {
        assert!(names.contains(&g), "{g} missing from {names:?}");
    }
    let shrine =
        &j["games"].as_array().unwrap()[names.iter().position(|n| *n == "shrine").unwrap()];
    let agents = shrine["agents"].as_array().unwrap();
    assert!(agents.contains(&json!("human")) && agents.contains(&json!("random")));
}

#[test]
fn bad_tables_are_refused() {
    let addr = server();
    let (st, b) = post(
        addr,
        "/api/tables",
        json!({ "game": "nope", "seats": ["human", "random"] }),
    );
    assert_eq!(st, 400, "{b}");
    let (st, b) = post(
        addr,
        "/api/tables",
        json!({ "game": "shrine", "seats": ["human", "wizard"] }),
    );
    assert_eq!(st, 400);
    assert!(
        b["error"].as_str().unwrap().contains("unknown agent"),
        "{b}"
    );
    let (st, _) = post(
        addr,
        "/api/tables",
        json!({ "game": "shrine", "seats": vec!["human"; 9] }),
    );
    assert_eq!(st, 400);
    let (st, _, _) = http(addr, "GET", "/api/tables/none/save?token=x", None);
    assert_eq!(st, 404);
}

#[test]
fn every_game_plays_to_its_end_and_hides_what_seat_1_may_not_see() {
    let addr = server();
    // The games at tables of their own, played at once.
    std::thread::scope(|s| {
        for game in GAMES {
            s.spawn(move || plays_to_its_end(addr, game));
        }
    });
}

/// [`every_game_plays_to_its_end_and_hides_what_seat_1_may_not_see`] for
/// one game.
fn plays_to_its_end(addr: SocketAddr, game: &str) {
    let clock = std::time::Instant::now();
    let seats = seats_of(addr, game);
    let seats: Vec<&str> = seats.iter().map(String::as_str).collect();
    for seed in [1, 2] {
        let t = new_table(addr, game, &seats, seed);
        let mut asked = 0;
        let end = play_out(addr, &t, &mut |m, debug| {
            asked += 1;
            let secret = secret_names(debug);
            let mut names = Vec::new();
            named(m, &mut names);
            for s in &secret {
                assert!(
                    !names
                        .iter()
                        .any(|n| n == s || n.ends_with(&format!(" {s}"))),
                    "{game} seed {seed}: seat 1 was sent {s}, hidden from it"
                );
            }
        });
        let over = &end["table"]["over"];
        assert!(over["error"].is_null(), "{game} seed {seed}: {over}");
        assert!(over["text"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(asked > 0, "{game}: seat 1 was never asked");
        // The transcript a seat gets is the kernel's, as it may see it.
        assert!(!end["log"].as_array().unwrap().is_empty());
    }
    eprintln!("{game}: {:?}", clock.elapsed());
}

#[test]
fn each_seat_gets_only_its_own_view() {
    let addr = server();
    let t = new_table(addr, "shrine", &["human", "human"], 7);
    let id = t["id"].as_str().unwrap();
    let s2 = t["seats"][1]["token"].as_str().unwrap();
    let owner = t["token"].as_str().unwrap();
    assert_ne!(s2, owner);
    // No token, another table's or a bot seat's: no connection.
    assert!(ws(addr, id, "wrong", false).is_err());
    assert!(ws(addr, id, "", false).is_err());
    // Seat 2's token holds no debug panel.
    assert!(ws(addr, id, s2, true).is_err());
    let mut w1 = ws(addr, id, owner, false).unwrap();
    let mut w2 = ws(addr, id, s2, false).unwrap();
    let m1 = next(&mut w1);
    let m2 = next(&mut w2);
    assert_eq!(m1["seat"], 1);
    assert_eq!(m2["seat"], 2);
    // Seat 2's request never reaches seat 1, nor seat 1's seat 2.
    for (m, me) in [(&m1, 1), (&m2, 2)] {
        if let Some(r) = m.get("request").filter(|r| !r.is_null()) {
            assert_eq!(r["seat"], me);
        }
    }
    // A seat answers only for itself: seat 2 cannot answer seat 1's request.
    let asked = m1["waiting"].as_u64().unwrap();
    let (tok, other) = if asked == 1 { (s2, owner) } else { (owner, s2) };
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/answer"),
        json!({ "token": tok, "picks": [0] }),
    );
    assert_eq!(st, 409);
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/answer"),
        json!({ "token": "x", "picks": [0] }),
    );
    assert_eq!(st, 403);
    let (st, b) = post(
        addr,
        &format!("/api/tables/{id}/answer"),
        json!({ "token": other, "picks": [0] }),
    );
    assert_eq!(st, 200, "{b}");
    // Time travel and saves are the owner's.
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/travel"),
        json!({ "token": s2, "to": 0 }),
    );
    assert_eq!(st, 403);
    let (st, _, _) = http(
        addr,
        "GET",
        &format!("/api/tables/{id}/save?token={s2}"),
        None,
    );
    assert_eq!(st, 403);
    let m = next(&mut w2);
    assert_eq!(m["seat"], 2);
}

#[test]
fn a_saved_game_replays_and_opens() {
    let addr = server();
    let t = new_table(addr, "shrine", &["human", "random"], 11);
    let end = play_out(addr, &t, &mut |_, _| {});
    let (id, token) = (t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
    let (st, head, save) = http(
        addr,
        "GET",
        &format!("/api/tables/{id}/save?token={token}"),
        None,
    );
    assert_eq!(st, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-disposition: attachment")
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    std::fs::write(&file, &save).unwrap();
    // `fuda replay` reads it and ends the same way.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
        .arg("replay")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let outcome = end["table"]["over"]["text"].as_str().unwrap();
    assert_eq!(text.lines().last().unwrap(), outcome);
    // Opened in the table, it replays to the same end, with the same
    // agents at the seats (the save records them).
    let save: Value = serde_json::from_str(&save).unwrap();
    assert_eq!(save["agents"], json!(["human", "random"]));
    let (st, t2) = post(addr, "/api/open", json!({ "save": save }));
    assert_eq!(st, 200, "{t2}");
    let agents: Vec<&Value> = (t2["seats"].as_array().unwrap().iter())
        .map(|s| &s["agent"])
        .collect();
    assert_eq!(agents, [&json!("human"), &json!("random")]);
    let mut w = ws(
        addr,
        t2["id"].as_str().unwrap(),
        t2["token"].as_str().unwrap(),
        false,
    )
    .unwrap();
    let m = loop {
        let m = next(&mut w);
        if !m["table"]["over"].is_null() {
            break m;
        }
    };
    assert_eq!(m["table"]["over"]["text"].as_str().unwrap(), outcome);
    assert_eq!(m["log"], end["log"]);
}

#[test]
fn time_travel_looks_back_then_branches() {
    let addr = server();
    let t = new_table(addr, "shrine", &["human", "random"], 5);
    let (id, token) = (t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
    let mut w = ws(addr, id, token, false).unwrap();
    let mut firsts = Vec::new();
    // Answer seat 1's first four decisions.
    while firsts.len() < 4 {
        let m = next(&mut w);
        if let Some(r) = m.get("request").filter(|r| !r.is_null()) {
            firsts.push(m.clone());
            let (st, _) = post(
                addr,
                &format!("/api/tables/{id}/answer"),
                json!({ "token": token, "picks": first(r) }),
            );
            assert_eq!(st, 200);
        }
    }
    // The live game waits on seat 1's fifth decision.
    let live = loop {
        let m = next(&mut w);
        if !m["request"].is_null() {
            break m;
        }
    };
    // An answer for an earlier request (a late second click) is refused;
    // one naming the request asked is taken later, after looking back.
    let at = live["table"]["answers"].as_u64().unwrap();
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/answer"),
        json!({ "token": token, "picks": first(&live["request"]), "at": at - 1 }),
    );
    assert_eq!(st, 409);
    let mut d = ws(addr, id, token, true).unwrap();
    let dbg = next(&mut d);
    let decisions = dbg["decisions"].as_array().unwrap().clone();
    assert!(decisions.len() >= 4, "{decisions:?}");
    // The answer before seat 1's second decision.
    let k = decisions
        .iter()
        .filter(|d| d["person"] == true)
        .nth(1)
        .unwrap()["n"]
        .as_u64()
        .unwrap();
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/travel"),
        json!({ "token": token, "to": k }),
    );
    assert_eq!(st, 200);
    let past = loop {
        let m = next(&mut w);
        if m["table"]["past"] == k {
            break m;
        }
    };
    // The table as it was: seat 1's second request, same view.
    assert_eq!(past["request"], firsts[1]["request"]);
    assert_eq!(past["zones"], firsts[1]["zones"]);
    // Answering while looking back is refused; returning shows the game.
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/answer"),
        json!({ "token": token, "picks": [0] }),
    );
    assert_eq!(st, 409);
    post(
        addr,
        &format!("/api/tables/{id}/travel"),
        json!({ "token": token, "to": null }),
    );
    loop {
        let m = next(&mut w);
        if m["table"]["past"].is_null() {
            assert_eq!(m["request"], live["request"]);
            assert_eq!(m["zones"], live["zones"]);
            break;
        }
    }
    // Branch: play on from there with another answer.
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/branch"),
        json!({ "token": token, "to": k }),
    );
    assert_eq!(st, 200);
    let m = loop {
        let m = next(&mut w);
        if m["table"]["answers"] == k && !m["request"].is_null() {
            break m;
        }
    };
    assert_eq!(m["request"], firsts[1]["request"]);
    let n = m["request"]["options"].as_array().unwrap().len();
    let (st, _) = post(
        addr,
        &format!("/api/tables/{id}/answer"),
        json!({ "token": token, "picks": [n - 1] }),
    );
    assert_eq!(st, 200);
    let m = loop {
        let m = next(&mut w);
        if m["table"]["answers"].as_u64().unwrap() > k {
            break m;
        }
    };
    assert!(m["table"]["past"].is_null());
}

/// Written whole and renamed into place, as editors save.
fn edit(file: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from} not in {}", file.display());
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, text.replacen(from, to, 1)).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

#[test]
fn a_saved_card_replays_the_open_game_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["data", "export"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let addr = fuda::serve::start(Source::Dir(dir.path().to_path_buf()), "127.0.0.1", 0)
        .unwrap()
        .0;
    let t = new_table(addr, "shrine", &["human", "bigmoney"], 3);
    let (id, token) = (t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
    let mut w = ws(addr, id, token, false).unwrap();
    // Seat 1 answers until the bot has bought a card.
    let mut m = next(&mut w);
    for _ in 0..10_000 {
        let bought = m["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l[1].as_str().is_some_and(|s| s.starts_with("P2 buy ")));
        if bought && !m["request"].is_null() {
            break;
        }
        if let Some(r) = m.get("request").filter(|r| !r.is_null()) {
            post(
                addr,
                &format!("/api/tables/{id}/answer"),
                json!({ "token": token, "picks": first(r) }),
            );
        }
        m = next(&mut w);
    }
    let answers = m["table"]["answers"].as_u64().unwrap();
    let basic = dir.path().join("cards/shrine/basic.yaml");
    // A change that alters nothing asked: the same course.
    edit(&basic, "text: \"1●\"", "text: \"1● (edited)\"");
    let same = loop {
        let m = next(&mut w);
        if !m["table"]["divergence"].is_null() {
            break m;
        }
    };
    assert_eq!(
        same["table"]["divergence"]["same"], true,
        "{}",
        same["table"]
    );
    assert_eq!(same["table"]["divergence"]["decisions"], answers);
    // A renamed card the bot bought: the game diverges where it is offered.
    edit(&basic, "name: 奉納米", "name: 奉納米改");
    let diverged = loop {
        let m = next(&mut w);
        if m["table"]["divergence"]["same"] == false {
            break m;
        }
    };
    let d = &diverged["table"]["divergence"];
    assert_eq!(d["reason"], "different options", "{d}");
    let now = d["now"]["options"].to_string();
    assert!(now.contains("奉納米改"), "{d}");
    assert!(!d["before"]["options"].to_string().contains("奉納米改"));
    // A file that does not load: the error, located, and the game goes on.
    edit(&basic, "tags: [resource]", "tags: [resource");
    let broken = loop {
        let m = next(&mut w);
        if !m["table"]["data_error"].is_null() {
            break m;
        }
    };
    let e = broken["table"]["data_error"].as_str().unwrap();
    assert!(e.contains("basic.yaml"), "{e}");
    assert!(!broken["request"].is_null());
}
