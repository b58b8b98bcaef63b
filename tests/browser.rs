//! The table in a real browser: the distribution's Chromium, headless,
//! driven over the DevTools protocol (a small client on the WebSocket crate
//! the other tests use). It starts a shrine game against the data bot by
//! clicking, plays a card by clicking, sees the bot's move in the log, steps
//! back three decisions in the debug panel and branches, saves a card file
//! and sees the divergence, then a data error; a card named as markup shows
//! as text; a utage card's state (an activated spell) is drawn on it. A
//! second test clicks whole games to their ends and checks the result the
//! page shows against the command line's. It takes screenshots of three
//! tables: into a temporary folder, or into docs/ with
//! `FUDA_SCREENSHOT_DOCS=1`.
//!
//! Chromium is required: without it the test fails and says how to install
//! it (`.ci/test`, the README's test command, installs it).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use fuda::data::source::Source;
use serde_json::{Value, json};

mod chromium;

/// The last guard of every wait (the test bounds its work by steps; this
/// only stops a hang).
const GUARD: Duration = Duration::from_secs(120);

struct Browser {
    child: Child,
    ws: tungstenite::WebSocket<TcpStream>,
    session: String,
    id: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn launch() -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(chromium::path())
            .args(chromium::HEADLESS)
            .args([
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                "--window-size=1280,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("start chromium");
        let err = child.stderr.take().unwrap();
        let mut lines = BufReader::new(err).lines();
        let url = loop {
            let line = lines
                .next()
                .expect("chromium ended before listening")
                .unwrap();
            if let Some(u) = line.split("DevTools listening on ").nth(1) {
                break u.trim().to_string();
            }
        };
        // Keep reading its stderr so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let hostport = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let s = TcpStream::connect(hostport).unwrap();
        s.set_read_timeout(Some(GUARD)).unwrap();
        let (ws, _) = tungstenite::client(url, s).unwrap();
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            id: 0,
            _profile: profile,
        };
        let t = b.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target = t["targetId"].as_str().unwrap().to_string();
        let a = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        );
        b.session = a["sessionId"].as_str().unwrap().to_string();
        b.call("Page.enable", json!({}));
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
        );
        b
    }

    /// One DevTools command; its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params)
            .unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    /// One DevTools command; its result or its error.
    fn send(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.id += 1;
        let mut m = json!({ "id": self.id, "method": method, "params": params });
        if !self.session.is_empty() {
            m["sessionId"] = json!(self.session);
        }
        self.ws
            .send(tungstenite::Message::Text(m.to_string().into()))
            .unwrap();
        loop {
            let msg = self.ws.read().unwrap();
            let tungstenite::Message::Text(t) = msg else {
                continue;
            };
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["id"] == self.id {
                return match v["error"].is_null() {
                    true => Ok(v["result"].clone()),
                    false => Err(v["error"].clone()),
                };
            }
        }
    }

    /// The value of a script run in the page (whose exceptions fail the test).
    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(
            r["exceptionDetails"].is_null(),
            "{js}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Whether a condition holds in the page; false while it cannot be
    /// asked (a page loading).
    fn holds(&mut self, cond: &str) -> bool {
        let js =
            format!("(() => {{ try {{ return !!({cond}); }} catch (e) {{ return false; }} }})()");
        let r = self.send(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true }),
        );
        r.is_ok_and(|r| r["result"]["value"] == json!(true))
    }

    fn goto(&mut self, url: &str) {
        // A new document even when only the #fragment differs.
        self.call("Page.navigate", json!({ "url": "about:blank" }));
        self.wait("location.href === 'about:blank'");
        self.call("Page.navigate", json!({ "url": url }));
        self.wait("document.readyState === 'complete' && !!document.getElementById('status')");
    }

    /// Waits until a condition holds in the page.
    fn wait(&mut self, cond: &str) {
        let start = Instant::now();
        while start.elapsed() < GUARD {
            if self.holds(cond) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let body = self.eval("document.body.innerText");
        panic!("waited for {cond}; the page reads:\n{body}");
    }

    /// A real click (mouse events at the element's centre).
    /// (The page may redraw between the wait and the click: it looks again.)
    fn click(&mut self, selector: &str) {
        let start = Instant::now();
        let r = loop {
            let js = format!(
                "(() => {{ const e = document.querySelector({selector:?}); if (!e || e.disabled) return null;
                   e.scrollIntoView({{block: 'center'}});
                   const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            );
            let r = (self.send(
                "Runtime.evaluate",
                json!({ "expression": js, "returnByValue": true }),
            ))
            .map_or(Value::Null, |r| r["result"]["value"].clone());
            if !r.is_null() {
                break r;
            }
            assert!(start.elapsed() < GUARD, "no {selector} to click");
            std::thread::sleep(Duration::from_millis(50));
        };
        let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    fn screenshot(&mut self, path: &Path) {
        let r = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": false }),
        );
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

fn post(addr: SocketAddr, path: &str, body: Value) -> Value {
    let body = body.to_string();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    serde_json::from_str(&http(addr, &head)).unwrap()
}

/// One request's response body.
fn http(addr: SocketAddr, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    raw.split_once("\r\n\r\n").unwrap().1.to_string()
}

/// The binary's stdout (it must succeed).
fn fuda(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "fuda {args:?}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Where screenshots go: docs/ when asked, else a temporary folder.
fn shots(tmp: &Path) -> PathBuf {
    if std::env::var("FUDA_SCREENSHOT_DOCS").as_deref() == Ok("1") {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
    } else {
        tmp.to_path_buf()
    }
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from} not in {}", file.display());
    // Written whole and renamed into place, as editors save.
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, text.replacen(from, to, 1)).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

#[test]
fn the_table_in_a_browser() {
    // The built-in games as files, so the test can edit a card.
    let dir = tempfile::tempdir().unwrap();
    let shot_dir = tempfile::tempdir().unwrap();
    let shots = shots(shot_dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["data", "export"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let basic = dir.path().join("cards/shrine/basic.yaml");
    // A mod's names are untrusted: the starting resource is named as markup.
    let markup = "<img src=x onerror=alert(1)>";
    edit(&basic, "name: お賽銭", &format!("name: \"{markup}\""));
    let (addr, _) =
        fuda::serve::start(Source::Dir(dir.path().to_path_buf()), "127.0.0.1", 0).unwrap();
    let base = format!("http://{addr}/");

    let mut b = Browser::launch();
    let t0 = Instant::now();
    let stage = |s: &str| eprintln!("{:>6.1}s {s}", t0.elapsed().as_secs_f64());
    b.goto(&base);
    b.wait("document.querySelectorAll('#game option').length >= 5");
    b.eval("(() => { const g = document.getElementById('game'); g.value = 'shrine'; g.dispatchEvent(new Event('change')); })()");
    b.wait("document.querySelectorAll('select.seat').length === 2");
    // The lobby seats a person first and the rules' bot after.
    assert_eq!(
        b.eval("[...document.querySelectorAll('select.seat')].map(s => s.value)"),
        json!(["human", "bigmoney"])
    );
    b.eval("document.getElementById('seed').value = '3'");
    b.click("#start");
    b.wait("document.querySelector('#request .option:enabled')");
    // The markup name is text on the page: no image made of it.
    b.wait(&format!(
        "[...document.querySelectorAll('.card .name, .option .label')].some(e => e.textContent.includes({markup:?}))"
    ));
    assert_eq!(b.eval("document.querySelectorAll('img').length"), json!(0));
    // Play a card by clicking: the first option that is a card.
    let lines = "document.querySelectorAll('#log li').length";
    let p2 =
        "[...document.querySelectorAll('#log li')].filter(l => /^P2 /.test(l.textContent)).length";
    let (before, p2_before) = (b.eval(lines), b.eval(p2));
    let played = b.eval("(() => { const o = [...document.querySelectorAll('#request .option')].find(b => b.querySelector('.text')); return o ? o.dataset.index : null; })()");
    let played = played
        .as_str()
        .expect("a card among the options")
        .to_string();
    b.click(&format!("#request .option[data-index='{played}']"));
    b.wait(&format!("{lines} > {before}"));
    // Answer on (the first option) until the bot's moves show in the log.
    for _ in 0..200 {
        if b.eval(&format!("{p2} > {p2_before}")) == json!(true) {
            break;
        }
        b.wait(
            "document.querySelector('#request .option:enabled') || document.querySelector('#news .over')",
        );
        if b.eval("!!document.querySelector('#request .option:enabled')") == json!(true) {
            b.click("#request .option");
        }
    }
    b.wait(&format!("{p2} > {p2_before}"));
    b.wait("document.querySelector('#request .option:enabled')");

    // The debug panel: step back, then branch.
    stage("shrine: played a card, saw P2's move");
    b.click("#debug-link");
    b.wait("!document.getElementById('debug').hidden && document.querySelectorAll('#decisions li').length > 2");
    assert_eq!(
        b.eval("document.getElementById('state').textContent.length > 0"),
        json!(true)
    );
    // Three decisions back, one step at a time.
    for _ in 0..3 {
        let shown = b.eval("(document.querySelector('#news .past') || {}).textContent || ''");
        b.click("#travel .step-back");
        b.wait(&format!(
            "document.querySelector('#news .past') && document.querySelector('#news .past').textContent !== {shown}"
        ));
    }
    b.wait("document.querySelector('#travel .branch-past')");
    b.click("#travel .branch-past");
    b.wait("!document.querySelector('#news .past') && document.querySelector('#request .option:enabled')");

    // A saved card file: the table replays the game on it and reports.
    stage("stepped back 3 and branched");
    edit(&basic, "name: 奉納米", "name: 奉納米改");
    b.wait("document.querySelector('#news .diverged, #news .same')");
    let report = b.eval("document.getElementById('news').textContent");
    let report = report.as_str().unwrap();
    assert!(report.contains("diverged at decision"), "{report}");
    // A data error shows located, as `fuda check` prints it.
    stage("reload: divergence shown");
    edit(&basic, "tags: [resource]", "tags: [resource");
    b.wait("document.querySelector('#news pre.error')");
    let e = b.eval("document.querySelector('#news pre.error').textContent");
    assert!(e.as_str().unwrap().contains("basic.yaml"), "{e}");
    edit(&basic, "tags: [resource\n", "tags: [resource]\n");
    b.wait("!document.querySelector('#news pre.error')");

    // Screenshots of three games' tables, against their data bots, with
    // the shipped names back.
    stage("data error shown and cleared");
    edit(&basic, &format!("name: \"{markup}\""), "name: お賽銭");
    edit(&basic, "name: 奉納米改", "name: 奉納米");
    for (game, seats) in [
        ("shrine", ["human", "bigmoney"]),
        ("utage", ["human", "utage"]),
        ("landgrab", ["human", "landgrab"]),
    ] {
        let t = post(
            addr,
            "/api/tables",
            json!({ "game": game, "seats": seats, "seed": 2 }),
        );
        assert!(t["error"].is_null(), "{t}");
        let url = format!(
            "{base}#t={}&k={}",
            t["id"].as_str().unwrap(),
            t["token"].as_str().unwrap()
        );
        b.goto(&url);
        b.wait("document.querySelector('#request .option:enabled')");
        // A few answers in, so the table has something on it.
        for _ in 0..6 {
            b.click("#request .option");
            b.wait("document.querySelector('#request .option:enabled') || document.querySelector('#news .over')");
        }
        b.wait("document.querySelector('#request .option:enabled')");
        if game == "utage" {
            drawn_state(&mut b);
        }
        if game == "landgrab" {
            b.wait("document.querySelectorAll('#board .square').length > 10");
        }
        b.screenshot(&shots.join(format!("table-{game}.png")));
        stage(&format!("{game}: screenshot"));
    }
}

/// Clicks on in a utage table until a card the seat sees has a state (the
/// rules' `shown:`, e.g. an activated spell), then checks how it is drawn:
/// a line of its own on the card, naming only the shown tags and properties.
fn drawn_state(b: &mut Browser) {
    let drawn = "document.querySelector('.card .state')";
    for _ in 0..80 {
        if b.holds(drawn) {
            break;
        }
        b.click("#request .option");
        b.wait("document.querySelector('#request .option:enabled') || document.querySelector('#news .over')");
    }
    assert!(b.holds(drawn), "no card state drawn in 80 answers");
    let states = b
        .eval("[...document.querySelectorAll('.card .state')].map(e => e.textContent).join('\\n')");
    let shown = [
        "activated",
        "battled",
        "negated",
        "accuracy ",
        "attack ",
        "evasion ",
        "cost ",
    ];
    for part in states
        .as_str()
        .unwrap()
        .lines()
        .flat_map(|l| l.split(" · "))
    {
        assert!(
            shown.iter().any(|s| part.starts_with(s)),
            "{part:?} in {states}"
        );
    }
    // The state is text, under the card's name.
    let html = b.eval("document.querySelector('.card .state').innerHTML");
    assert!(!html.as_str().unwrap().contains('<'), "{html}");
    b.wait("document.querySelector('#request .option:enabled')");
}

/// Clicks at most this many times for one game (a whole shrine or landgrab
/// game against its bot takes a few hundred).
const MAX_CLICKS: usize = 2000;

/// Whole games in the page: the person answers every request by clicking
/// what the `first` agent picks (the first `max(min, 1)` options, capped
/// at `max`) until the page shows the result. The same seed with `first`
/// at P1 on the command line, and `fuda replay` of the table's save, give
/// the same result line.
#[test]
fn whole_games_clicked_to_their_ends() {
    let (addr, _) = fuda::serve::start(Source::Embedded, "127.0.0.1", 0).unwrap();
    let mut b = Browser::launch();
    let t0 = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    for (game, bot, seed) in [("shrine", "bigmoney", 3), ("landgrab", "landgrab", 3)] {
        let t = post(
            addr,
            "/api/tables",
            json!({ "game": game, "seats": ["human", bot], "seed": seed }),
        );
        assert!(t["error"].is_null(), "{t}");
        let (id, token) = (t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
        b.goto(&format!("http://{addr}/#t={id}&k={token}"));
        let over = "document.querySelector('#news .over')";
        let mut clicks = 0;
        let mut asked = -1i64;
        loop {
            // The next request (a later answer count), or the game's end.
            b.wait(&format!(
                "{over} || (document.querySelector('#request .option:enabled') && askedAt > {asked})"
            ));
            if b.holds(over) {
                break;
            }
            let r = b.eval("[askedAt, last.request.min, last.request.max, !!document.querySelector('#request .done')]");
            asked = r[0].as_i64().unwrap();
            let (min, max) = (r[1].as_u64().unwrap(), r[2].as_u64().unwrap());
            for i in 0..min.max(1).min(max) {
                b.click(&format!("#request .option[data-index='{i}']"));
                clicks += 1;
            }
            if r[3] == json!(true) {
                b.click("#request .done");
                clicks += 1;
            }
            assert!(clicks < MAX_CLICKS, "{game}: no end after {clicks} clicks");
        }
        let shown = b.eval(&format!("{over}.textContent"));
        let shown = shown.as_str().unwrap();
        eprintln!(
            "{:>6.1}s {game}: {clicks} clicks, {shown}",
            t0.elapsed().as_secs_f64()
        );
        let line = shown
            .strip_prefix("Game over: ")
            .unwrap_or_else(|| panic!("{game}: {shown}"));
        assert!(line.contains("winner"), "{shown}");
        // The command line, with `first` where the person sat.
        let seed = seed.to_string();
        let cli = fuda(&[
            "play",
            game,
            "--agents",
            &format!("first,{bot}"),
            "--seed",
            &seed,
        ]);
        assert!(
            cli.lines().any(|l| l == line),
            "{game}: the page shows {line:?}; the command line ends:\n{}",
            cli.lines().rev().take(3).collect::<Vec<_>>().join("\n")
        );
        // The table's save, replayed.
        let save = http(
            addr,
            &format!(
                "GET /api/tables/{id}/save?token={token} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
            ),
        );
        let file = dir.path().join(format!("{game}.json"));
        std::fs::write(&file, save).unwrap();
        let replayed = fuda(&["replay", file.to_str().unwrap()]);
        assert!(
            replayed.lines().any(|l| l.ends_with(line)),
            "{game}: the page shows {line:?}; the replay ends:\n{}",
            replayed
                .lines()
                .rev()
                .take(3)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
