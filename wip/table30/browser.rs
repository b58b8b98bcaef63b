//! The table in a real browser: the distribution's Chromium, headless,
//! driven over the DevTools protocol (a small client on the WebSocket crate
//! the other tests use). It starts a shrine game against a bot, plays a
//! card by clicking, sees the bot's move, steps back in the debug panel,
//! saves a card file and sees the divergence, and a data error; a card
//! named as markup shows as text. Screenshots of the table go to docs/.
//!
//! Without Chromium the test says so loudly and passes, except in CI
//! (`CI=true`), where Chromium must be there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fuda::data::source::Source;
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
/// The last guard of every wait (the test bounds its work by steps; this
/// only stops a hang).
const GUARD: Duration = Duration::from_secs(90);

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
        let mut child = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
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
                assert!(v["error"].is_null(), "{method}: {}", v["error"]);
                return v["result"].clone();
            }
        }
    }

    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(r["exceptionDetails"].is_null(), "{js}: {}", r["exceptionDetails"]);
        r["result"]["value"].clone()
    }

    fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait("document.readyState === 'complete' && !!document.getElementById('status')");
    }

    /// Waits until a condition holds in the page.
    fn wait(&mut self, cond: &str) {
        let start = Instant::now();
        while start.elapsed() < GUARD {
            if self.eval(&format!("!!({cond})")) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let body = self.eval("document.body.innerText");
        panic!("waited for {cond}; the page reads:\n{body}");
    }

    /// A real click (mouse events at the element's centre).
    fn click(&mut self, selector: &str) {
        self.wait(&format!("document.querySelector({selector:?})"));
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{block: 'center'}});
               const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
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
        let bytes = base64(r["data"].as_str().unwrap());
        std::fs::write(path, bytes).unwrap();
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let s: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for ch in s.chunks(4) {
        let n = (ch.iter().enumerate()).fold(0u32, |n, (i, &c)| n | (val(c) as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..ch.len()]);
    }
    out
}

fn post(addr: SocketAddr, path: &str, body: Value) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    serde_json::from_str(raw.split_once("\r\n\r\n").unwrap().1).unwrap()
}

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
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
    if !Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but {CHROMIUM} is missing: .ci/run installs it"
        );
        eprintln!("\n\n!!!!! SKIPPED: the browser test needs {CHROMIUM} (apt-get install chromium) !!!!!\n\n");
        return;
    }
    // The built-in games as files, so the test can edit a card.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["data", "export"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let basic = dir.path().join("cards/shrine/basic.yaml");
    // A mod's names are untrusted: the starting resource is named as markup.
    let markup = "<img src=x onerror=alert(1)>";
    edit(&basic, "name: お賽銭", &format!("name: \"{markup}\""));
    let (addr, _) = fuda::serve::start(Source::Dir(dir.path().to_path_buf()), "127.0.0.1", 0).unwrap();
    let base = format!("http://{addr}/");

    let mut b = Browser::launch();
    b.goto(&base);
    b.wait("document.querySelectorAll('#game option').length >= 5");
    b.eval("(() => { const g = document.getElementById('game'); g.value = 'shrine'; g.dispatchEvent(new Event('change')); })()");
    b.wait("document.querySelectorAll('select.seat').length === 2");
    b.eval("document.getElementById('seed').value = '3'");
    b.click("#start");
    b.wait("document.querySelector('#request .option')");
    // The markup name is text on the page: no image made of it.
    b.wait(&format!(
        "[...document.querySelectorAll('.card .name, .option .label')].some(e => e.textContent.includes({markup:?}))"
    ));
    assert_eq!(b.eval("document.querySelectorAll('img').length"), json!(0));
    // Play a card by clicking: the first option that is a card.
    let before = b.eval("document.querySelectorAll('#log li').length");
    let played = b.eval("(() => { const o = [...document.querySelectorAll('#request .option')].find(b => b.querySelector('.text')); return o ? o.dataset.index : '0'; })()");
    let played = played.as_str().unwrap().to_string();
    b.click(&format!("#request .option[data-index='{played}']"));
    // Answer on (the first option) until the bot's moves show in the log.
    for _ in 0..200 {
        if b.eval("[...document.querySelectorAll('#log li')].some(l => /^P2 /.test(l.textContent))") == json!(true) {
            break;
        }
        b.wait("document.querySelector('#request .option') || document.querySelector('#news .over')");
        if b.eval("!!document.querySelector('#request .option')") == json!(true) {
            b.click("#request .option");
            b.wait("!document.querySelector('#request .option') || document.querySelectorAll('#log li').length > 0");
        }
    }
    assert_ne!(b.eval("document.querySelectorAll('#log li').length"), before);
    b.wait("[...document.querySelectorAll('#log li')].some(l => /^P2 /.test(l.textContent))");
    b.wait("document.querySelector('#request .option')");
    b.screenshot(&docs().join("table-shrine.png"));

    // The debug panel: step back, then branch.
    b.click("#debug-link");
    b.wait("!document.getElementById('debug').hidden && document.querySelectorAll('#decisions li').length > 2");
    assert_eq!(b.eval("document.getElementById('state').textContent.length > 0"), json!(true));
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
    b.wait("!document.querySelector('#news .past') && document.querySelector('#request .option')");

    // A saved card file: the table replays the game on it and reports.
    edit(&basic, "name: 奉納米", "name: 奉納米改");
    b.wait("document.querySelector('#news .diverged, #news .same')");
    let report = b.eval("document.getElementById('news').textContent");
    let report = report.as_str().unwrap();
    assert!(report.contains("diverged at decision"), "{report}");
    // A data error shows located, as `fuda check` prints it.
    edit(&basic, "tags: [resource]", "tags: [resource");
    b.wait("document.querySelector('#news pre.error')");
    let e = b.eval("document.querySelector('#news pre.error').textContent");
    assert!(e.as_str().unwrap().contains("basic.yaml"), "{e}");
    edit(&basic, "tags: [resource\n", "tags: [resource]\n");
    b.wait("!document.querySelector('#news pre.error')");

    // Screenshots of the other games' tables.
    for (game, seats) in [("utage", ["human", "random"]), ("landgrab", ["human", "random"])] {
        let t = post(addr, "/api/tables", json!({ "game": game, "seats": seats, "seed": 2 }));
        assert!(t["error"].is_null(), "{t}");
        let url = format!("{base}#t={}&k={}", t["id"].as_str().unwrap(), t["token"].as_str().unwrap());
        b.goto(&url);
        b.wait("document.querySelector('#request .option')");
        // A few answers in, so the table has something on it.
        for _ in 0..6 {
            b.click("#request .option");
            b.wait("document.querySelector('#request .option') || document.querySelector('#news .over')");
        }
        b.wait("document.querySelector('#request .option')");
        if game == "landgrab" {
            b.wait("document.querySelectorAll('#board .square').length > 10");
        }
        b.screenshot(&docs().join(format!("table-{game}.png")));
    }
}
