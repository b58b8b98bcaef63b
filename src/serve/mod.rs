//! `fuda serve`: the playtest table. A local web server (axum on a
//! one-thread tokio runtime) whose page lists the games, seats people and
//! bots, and plays: each game runs on its own thread ([`table`]), a person's
//! seat waits for the answer its browser posts, and every seat's connection
//! is pushed that seat's view over a WebSocket, and nothing else. The page
//! is plain HTML, CSS and JavaScript embedded in the binary.

pub mod message;
pub mod seat;
pub mod table;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Json as Body, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value as Json, json};

use crate::data::source::Source;
use crate::data::{Data, DataErrors};
use crate::engine::Picks;
use crate::replay::Save;
use crate::search;
use table::{Rec, Setup, Table};

/// Agents a seat may take besides the rules' bots (any `ismcts:N[:bot]`
/// is accepted too; these are the ones offered in the list).
const AGENTS: [&str; 4] = ["random", "first", "ismcts:200", "ismcts"];

pub struct Server {
    pub source: Source,
    tables: Mutex<HashMap<String, Arc<Table>>>,
    next: AtomicU64,
}

type Shared = Arc<Server>;

/// Data errors as `fuda check` prints them, without colours.
pub fn errors_text(e: DataErrors) -> String {
    use miette::{GraphicalReportHandler, GraphicalTheme};
    let h = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor());
    let mut out = String::new();
    for err in &e.errors {
        let _ = h.render_report(&mut out, err);
        out.push('\n');
    }
    out
}

fn err(code: StatusCode, message: impl Into<String>) -> Response {
    (code, Body(json!({ "error": message.into() }))).into_response()
}

impl Server {
    fn load(&self, game: &str) -> Result<Arc<Data>, String> {
        if !self.source.games().iter().any(|g| g == game) {
            return Err(format!("no game \"{game}\""));
        }
        self.source.load(game).map(Arc::new).map_err(errors_text)
    }

    fn table(&self, id: &str) -> Option<Arc<Table>> {
        self.tables.lock().ok()?.get(id).cloned()
    }

    fn open(&self, setup: Setup, data: Arc<Data>, prefix: &[Rec]) -> Arc<Table> {
        let id = format!("t{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        let t = Table::new(id.clone(), setup, data.clone());
        if let Ok(mut m) = self.tables.lock() {
            m.insert(id, t.clone());
        }
        t.start(data, prefix, None, false);
        t
    }

    /// The data changed on disk: every open table replays on it.
    pub fn reload(&self) {
        let tables: Vec<Arc<Table>> = match self.tables.lock() {
            Ok(m) => m.values().cloned().collect(),
            Err(_) => return,
        };
        for t in tables {
            t.reload(self.load(&t.setup.game));
        }
    }
}

fn made(t: &Table) -> Json {
    let seats: Vec<Json> = (t.setup.seats.iter().zip(&t.tokens).enumerate())
        .map(|(i, (a, tok))| json!({ "seat": i + 1, "agent": a, "token": tok }))
        .collect();
    json!({ "id": t.id, "token": t.owner, "seat": t.seat_of(&t.owner).map(|s| s + 1), "seats": seats })
}

/// The agents a seat of this game may take.
fn agents(data: &Data) -> Vec<String> {
    let mut names = vec!["human".to_string()];
    names.extend(
        (AGENTS.iter().map(|s| s.to_string()))
            .chain(data.bots.iter().map(|(n, _)| n.clone()))
            .filter(|n| search::parse(n, data).is_some()),
    );
    names
}

async fn games(State(s): State<Shared>) -> Response {
    let list: Vec<Json> = (s.source.games().iter())
        .map(|g| match s.load(g) {
            Ok(d) => json!({
                "game": g, "title": d.title,
                "players": [d.players.0, d.players.1, d.players.2],
                "agents": agents(&d),
                "default_agent": d.default_agent,
            }),
            Err(e) => json!({ "game": g, "error": e }),
        })
        .collect();
    Body(json!({ "data": s.source.describe(), "games": list })).into_response()
}

#[derive(Deserialize)]
struct NewTable {
    game: String,
    seats: Vec<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    options: Vec<(String, Vec<String>)>,
}

async fn new_table(State(s): State<Shared>, Body(b): Body<NewTable>) -> Response {
    let data = match s.load(&b.game) {
        Ok(d) => d,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    let n = b.seats.len() as u8;
    if n < data.players.0 || n > data.players.1 {
        let (lo, hi) = (data.players.0, data.players.1);
        return err(
            StatusCode::BAD_REQUEST,
            format!("{} is for {lo} to {hi} players, not {n}", b.game),
        );
    }
    let known = agents(&data);
    let unknown = |a: &&String| *a != "human" && search::parse(a, &data).is_none();
    if let Some(a) = b.seats.iter().find(unknown) {
        let list = known.join(", ");
        return err(
            StatusCode::BAD_REQUEST,
            format!("unknown agent \"{a}\" (agents: {list})"),
        );
    }
    if let Err(e) = crate::data::options::resolve(&data, b.options.clone()) {
        return err(StatusCode::BAD_REQUEST, errors_text(e));
    }
    let seed = b.seed.unwrap_or_else(|| rand::random::<u32>() as u64);
    let setup = Setup {
        game: b.game,
        seed,
        seats: b.seats,
        options: b.options,
    };
    Body(made(&s.open(setup, data, &[]))).into_response()
}

#[derive(Deserialize)]
struct OpenSave {
    save: Save,
    /// The seats' agents (default: the save's, else a person at the
    /// first and the rules' default agent at the others).
    #[serde(default)]
    seats: Vec<String>,
}

async fn open_save(State(s): State<Shared>, Body(b): Body<OpenSave>) -> Response {
    let save = b.save;
    if save.format != crate::replay::FORMAT {
        return err(
            StatusCode::BAD_REQUEST,
            format!(
                "a saved game of format {} (this fuda reads {})",
                save.format,
                crate::replay::FORMAT
            ),
        );
    }
    let data = match s.load(&save.game) {
        Ok(d) => d,
        Err(e) => return err(StatusCode::BAD_REQUEST, e),
    };
    let n = save.players as usize;
    if save.players < data.players.0 || save.players > data.players.1 {
        return err(
            StatusCode::BAD_REQUEST,
            "the save's player count does not fit the game",
        );
    }
    let bot = (data.default_agent.clone()).unwrap_or_else(|| "random".into());
    let mut seats = b.seats;
    if seats.len() != n {
        seats = save.agents.clone();
    }
    // A save's agents this data does not know are not seated.
    let unknown = |a: &String| a != "human" && search::parse(a, &data).is_none();
    if seats.len() != n || seats.iter().any(unknown) {
        seats = (0..n)
            .map(|i| if i == 0 { "human".into() } else { bot.clone() })
            .collect();
    }
    let mut prefix = Vec::new();
    for a in &save.answers {
        if a.player == 0 || a.player as usize > n {
            return err(
                StatusCode::BAD_REQUEST,
                "an answer of a player not in the game",
            );
        }
        prefix.push(Rec {
            seat: a.player - 1,
            picks: a.picks.iter().map(|&i| i as usize).collect(),
            prompt: String::new(),
            options: Vec::new(),
            person: false,
        });
    }
    let setup = Setup {
        game: save.game,
        seed: save.seed,
        seats,
        options: save.options.into_iter().collect(),
    };
    Body(made(&s.open(setup, data, &prefix))).into_response()
}

#[derive(Deserialize)]
struct WsQuery {
    token: String,
    #[serde(default)]
    debug: bool,
}

async fn ws(
    State(s): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    up: WebSocketUpgrade,
) -> Response {
    let Some(t) = s.table(&id) else {
        return err(StatusCode::NOT_FOUND, "no such table");
    };
    let mut rx = if q.debug {
        if q.token != t.owner {
            return err(StatusCode::FORBIDDEN, "the debug panel is the owner's");
        }
        t.debug_tx.subscribe()
    } else {
        match t.seat_of(&q.token) {
            Some(seat) => t.seat_tx[seat].subscribe(),
            None => return err(StatusCode::FORBIDDEN, "no seat holds this token"),
        }
    };
    up.on_upgrade(move |mut sock| async move {
        // The transcript this connection has: each message sends the rest.
        let mut had: message::Log = Default::default();
        loop {
            let m = rx.borrow_and_update().clone();
            if let Some(m) = m {
                let text = m.text(&had);
                had = m.log.clone();
                if sock.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            if rx.changed().await.is_err() {
                break;
            }
        }
    })
}

#[derive(Deserialize)]
struct Act {
    token: String,
    #[serde(default)]
    picks: Vec<usize>,
    /// Time travel: the number of answers to look back to (none: return).
    #[serde(default)]
    to: Option<usize>,
    /// An answer: the number of answers given when it was asked (a stale
    /// answer, sent after the game moved on, is refused).
    #[serde(default)]
    at: Option<usize>,
}

async fn answer(State(s): State<Shared>, Path(id): Path<String>, Body(a): Body<Act>) -> Response {
    let Some(t) = s.table(&id) else {
        return err(StatusCode::NOT_FOUND, "no such table");
    };
    let Some(seat) = t.seat_of(&a.token).filter(|&i| t.tokens[i].is_some()) else {
        return err(StatusCode::FORBIDDEN, "no person's seat holds this token");
    };
    if t.answer(seat, a.at, a.picks.iter().copied().collect::<Picks>()) {
        Body(json!({ "ok": true })).into_response()
    } else {
        err(StatusCode::CONFLICT, "this seat is not being asked")
    }
}

/// The table, if `token` is its owner's; else the refusal.
fn owned(s: &Server, id: &str, token: &str) -> Result<Arc<Table>, Box<Response>> {
    let t = (s.table(id)).ok_or_else(|| Box::new(err(StatusCode::NOT_FOUND, "no such table")))?;
    if t.owner != token {
        return Err(Box::new(err(
            StatusCode::FORBIDDEN,
            "only the table's owner may",
        )));
    }
    Ok(t)
}

async fn travel(State(s): State<Shared>, Path(id): Path<String>, Body(a): Body<Act>) -> Response {
    match owned(&s, &id, &a.token) {
        Ok(t) => {
            t.travel(a.to);
            Body(json!({ "ok": true })).into_response()
        }
        Err(r) => *r,
    }
}

async fn branch(State(s): State<Shared>, Path(id): Path<String>, Body(a): Body<Act>) -> Response {
    match owned(&s, &id, &a.token) {
        Ok(t) => {
            t.branch(a.to.unwrap_or(usize::MAX));
            Body(json!({ "ok": true })).into_response()
        }
        Err(r) => *r,
    }
}

#[derive(Deserialize)]
struct TokenQuery {
    token: String,
}

async fn save(
    State(s): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Response {
    let t = match owned(&s, &id, &q.token) {
        Ok(t) => t,
        Err(r) => return *r,
    };
    let Some(save) = t.live().save.clone() else {
        return err(StatusCode::CONFLICT, "nothing to save yet");
    };
    let name = format!("attachment; filename=\"{}-{}.json\"", t.setup.game, t.id);
    (
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, name),
        ],
        save.to_string() + "\n",
    )
        .into_response()
}

fn asset(ty: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, ty),
            // Nothing from other hosts, no inline script.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; connect-src 'self'; img-src 'self' data:",
            ),
        ],
        body,
    )
        .into_response()
}

pub fn router(s: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async {
                asset(
                    "text/html; charset=utf-8",
                    include_str!("assets/index.html"),
                )
            }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", include_str!("assets/app.js")) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css", include_str!("assets/style.css")) }),
        )
        .route("/api/games", get(games))
        .route("/api/tables", post(new_table))
        .route("/api/open", post(open_save))
        .route("/api/tables/{id}/ws", get(ws))
        .route("/api/tables/{id}/answer", post(answer))
        .route("/api/tables/{id}/travel", post(travel))
        .route("/api/tables/{id}/branch", post(branch))
        .route("/api/tables/{id}/save", get(save))
        .with_state(s)
}

/// The server's thread (it runs until the process ends).
pub type Running = std::thread::JoinHandle<std::io::Result<()>>;

/// Starts the server on its own thread; its address once it listens.
/// With a data folder, a change to its files reloads every open table.
pub fn start(source: Source, host: &str, port: u16) -> std::io::Result<(SocketAddr, Running)> {
    let server = Arc::new(Server {
        source,
        tables: Mutex::new(HashMap::new()),
        next: AtomicU64::new(0),
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    let listener = rt.block_on(tokio::net::TcpListener::bind((host, port)))?;
    let addr = listener.local_addr()?;
    if let Some(dir) = server.source.folder() {
        let w = crate::watch::Watch::new(&crate::watch::roots(Some(dir), &[]))
            .map_err(std::io::Error::other)?;
        let s = server.clone();
        std::thread::Builder::new()
            .name("watch".into())
            .spawn(move || {
                while w.next().is_some() {
                    s.reload();
                }
            })?;
    }
    let app = router(server);
    let running = std::thread::Builder::new()
        .name("serve".into())
        .spawn(move || rt.block_on(async move { axum::serve(listener, app).await }))?;
    Ok((addr, running))
}
