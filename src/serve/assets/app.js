// The fuda table. Every name and text from the game's data is untrusted (a
// mod's): it is set with textContent, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const debug = params.has("debug");

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// ---- lobby ----

let games = [];

async function lobby() {
  $("lobby").hidden = false;
  const j = await api("/api/games");
  games = j.games;
  $("data-source").textContent = "Data: " + j.data;
  for (const g of games) {
    const o = el("option", "", g.title ? g.game + " — " + g.title : g.game);
    o.value = g.game;
    $("game").append(o);
  }
  $("game").onchange = players;
  $("players").onchange = seats;
  players();
}

function chosen() {
  return games.find((g) => g.game === $("game").value);
}

function players() {
  const g = chosen();
  $("players").replaceChildren();
  if (!g || g.error) {
    $("lobby-error").textContent = g ? g.error : "";
    return;
  }
  $("lobby-error").textContent = "";
  for (let n = g.players[0]; n <= g.players[1]; n++) {
    const o = el("option", "", n);
    o.value = n;
    o.selected = n === g.players[2];
    $("players").append(o);
  }
  seats();
}

function seats() {
  const g = chosen();
  const n = Number($("players").value);
  $("seats").replaceChildren();
  for (let i = 0; i < n; i++) {
    const s = el("select");
    s.className = "seat";
    for (const a of g.agents) {
      const o = el("option", "", a);
      o.value = a;
      s.append(o);
    }
    s.value = i === 0 ? "human" : (g.agents.includes(g.default_agent) ? g.default_agent : "random");
    const l = el("label", "", "P" + (i + 1) + " ");
    l.append(s);
    $("seats").append(l);
  }
}

$("start").onclick = async () => {
  const seats = [...document.querySelectorAll("select.seat")].map((s) => s.value);
  const seed = $("seed").value === "" ? undefined : Number($("seed").value);
  try {
    const t = await api("/api/tables", { game: $("game").value, seats, seed });
    enter(t);
  } catch (e) {
    $("lobby-error").textContent = e.message;
  }
};

$("open").onchange = async () => {
  const f = $("open").files[0];
  if (!f) return;
  try {
    const save = JSON.parse(await f.text());
    const t = await api("/api/open", { save });
    enter(t);
  } catch (e) {
    $("lobby-error").textContent = e.message;
  }
};

function enter(t) {
  // The other people's seats: links to hand to them.
  const others = t.seats.filter((s) => s.token && s.seat !== t.seat);
  sessionStorage.setItem("invites-" + t.id, JSON.stringify(others));
  location.hash = "t=" + encodeURIComponent(t.id) + "&k=" + encodeURIComponent(t.token);
  location.reload();
}

// ---- table ----

let table = null; // { id, token }
let last = null; // the last seat message
let chosenPicks = [];
// The answer number the request shown is for (a stale click is refused).
let askedAt = null;

function connect(debugFeed) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = "token=" + encodeURIComponent(table.token) + (debugFeed ? "&debug=true" : "");
  const ws = new WebSocket(proto + "//" + location.host + "/api/tables/" + encodeURIComponent(table.id) + "/ws?" + q);
  // Each message brings the transcript's lines from log_from on.
  let log = [];
  ws.onmessage = (m) => {
    const j = JSON.parse(m.data);
    log = log.slice(0, j.log_from).concat(j.log);
    j.log = log;
    if (j.type === "seat") showSeat(j);
    else if (j.type === "debug") showDebug(j);
  };
  ws.onclose = () => { $("status").textContent = "disconnected"; };
}

function cardEl(c) {
  const d = el("div", "card");
  d.append(el("div", "name", c.name));
  if (c.props && c.props.length) {
    d.append(el("div", "props", c.props.map(([k, v]) => k + " " + v).join(" · ")));
  }
  if (c.state && c.state.length) d.append(el("div", "state", c.state.join(" · ")));
  if (c.host) d.append(el("div", "host", c.host));
  if (c.text) d.append(el("div", "text", c.text));
  d.title = [c.name, c.subtitle, c.text].filter(Boolean).join("\n");
  return d;
}

function showSeat(j) {
  last = j;
  const t = j.table || {};
  $("status").textContent = j.title || j.game;
  // News: the game's end, an edit's report, a data error.
  const news = $("news");
  news.replaceChildren();
  if (t.data_error) {
    news.append(el("h3", "error", "The data has an error; the game goes on with the last good data"));
    news.append(el("pre", "error", t.data_error));
  }
  if (t.divergence) {
    const d = t.divergence;
    if (d.same) {
      news.append(el("p", "same", "Data reloaded: the game follows the same course (" + d.decisions + " decisions replayed)."));
    } else {
      const box = el("div", "diverged");
      box.append(el("p", "", "Data reloaded: the game diverged at decision " + d.decision + " — " + d.reason + "."));
      if (d.before) box.append(el("p", "", "Before: P" + d.before.seat + " " + d.before.prompt + ": " + d.before.options.join(" | ") + " (picked " + (d.before.picked || []).join(", ") + ")"));
      if (d.now) box.append(el("p", "", "Now: P" + d.now.seat + " " + d.now.prompt + ": " + d.now.options.join(" | ")));
      news.append(box);
    }
  }
  if (t.past !== null && t.past !== undefined) {
    news.append(el("p", "past", "Looking at the table before answer " + t.past + " (of " + t.answers + ")."));
  }
  if (t.over) {
    news.append(el("h3", "over", t.over.error ? "Error: " + t.over.error : "Game over: " + t.over.text));
  }
  const who = j.waiting ? "waiting for P" + j.waiting : "";
  $("info").textContent = "You are P" + j.seat + " · turn " + j.turn + " · P" + j.active + " active" +
    (j.phase ? " · " + j.phase + " phase" : "") + (who ? " · " + who : "");
  const cs = $("counters");
  cs.replaceChildren();
  for (const [p, name, v] of j.counters) cs.append(el("span", "counter", p + " " + name + " " + v));
  showZones(j.zones);
  showBoard(j.board);
  askedAt = t.answers;
  showRequest(j.request, t.past !== null && t.past !== undefined);
  const log = $("log");
  // Lines that stand are kept; the rest are written again.
  while (log.children.length > j.log_from) log.lastChild.remove();
  if (log.children.length < j.log_from) log.replaceChildren();
  for (const [kind, line] of j.log.slice(log.children.length)) log.append(el("li", "k-" + kind, line));
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
}

function showZones(zones) {
  const box = $("zones");
  box.replaceChildren();
  for (const z of zones) {
    const row = el("div", "zone");
    const head = el("div", "zone-name", z.zone + (z.size !== null ? " (" + z.size + ")" : ""));
    row.append(head);
    const cards = el("div", "cards");
    if (z.cards) for (const c of z.cards) cards.append(cardEl(c));
    else if (z.piles) for (const p of z.piles) {
      const c = p.card ? cardEl(p.card) : el("div", "card");
      c.append(el("div", "count", "×" + p.count));
      cards.append(c);
    } else if (z.top && z.top.length) {
      const c = cardEl(z.top[0]);
      c.classList.add("top");
      cards.append(c);
    } else if (z.size) {
      cards.append(el("div", "card back", z.size + " face down"));
    }
    row.append(cards);
    if (z.size === 0 && !(z.piles && z.piles.length)) row.classList.add("empty");
    box.append(row);
  }
}

function showBoard(squares) {
  const box = $("board");
  box.replaceChildren();
  if (!squares) return;
  box.append(el("h3", "", "Board"));
  const grid = el("div", "squares");
  for (const s of squares) {
    const d = el("div", "square kind-" + String(s.kind).replace(/[^a-z0-9_-]/gi, ""));
    d.append(el("div", "sq-num", "#" + s.square));
    d.append(el("div", "sq-name", s.name));
    for (const [k, v] of s.props) d.append(el("div", "sq-prop", k + ": " + v));
    if (s.pieces.length) d.append(el("div", "pieces", s.pieces.map((p) => "P" + p).join(" ")));
    grid.append(d);
  }
  box.append(grid);
}

function showRequest(r, past) {
  const box = $("request");
  box.replaceChildren();
  chosenPicks = [];
  if (!r) return;
  box.append(el("h3", "prompt", r.prompt));
  const many = !(r.min === 1 && r.max === 1);
  const hint = r.kind === "order" ? "click in the order wanted" : many ? "choose " + r.min + " to " + r.max : "";
  if (hint) box.append(el("div", "hint", hint));
  const opts = el("div", "options");
  const done = el("button", "done", "Done");
  const refresh = () => {
    done.disabled = past || chosenPicks.length < r.min || chosenPicks.length > r.max;
    [...opts.children].forEach((b, i) => {
      const at = chosenPicks.indexOf(i);
      b.classList.toggle("picked", at >= 0);
      b.dataset.order = at >= 0 && r.kind === "order" ? String(at + 1) : "";
    });
  };
  r.options.forEach((o, i) => {
    const b = el("button", "option");
    b.dataset.index = String(i);
    b.append(el("div", "label", o.label));
    if (o.card) {
      if (o.card.props.length) b.append(el("div", "props", o.card.props.map(([k, v]) => k + " " + v).join(" · ")));
      if (o.card.text) b.append(el("div", "text", o.card.text));
    }
    b.disabled = past;
    b.onclick = () => {
      if (!many) return send([i]);
      const at = chosenPicks.indexOf(i);
      if (at >= 0) chosenPicks.splice(at, 1);
      else chosenPicks.push(i);
      refresh();
    };
    opts.append(b);
  });
  box.append(opts);
  if (many) {
    done.onclick = () => send(r.kind === "order" ? chosenPicks : [...chosenPicks].sort((a, b) => a - b));
    box.append(done);
    refresh();
  }
}

async function send(picks) {
  // One answer per request: its buttons go until the next request comes.
  for (const b of $("request").querySelectorAll("button")) b.disabled = true;
  try {
    await api("/api/tables/" + encodeURIComponent(table.id) + "/answer", { token: table.token, picks, at: askedAt });
  } catch (e) {
    $("status").textContent = e.message;
  }
}

// ---- debug ----

let lastDebug = null;

function showDebug(j) {
  lastDebug = j;
  $("state").textContent = j.state;
  $("rng").textContent = "seed " + j.seed + " · RNG word position " + j.rng;
  const ds = $("decisions");
  ds.replaceChildren();
  for (const d of j.decisions) {
    const li = el("li", d.person ? "person" : "bot");
    li.append(el("span", "", "P" + d.seat + " " + d.prompt + ": " + d.picked.join(", ") + " "));
    const look = el("button", "look", "look");
    look.onclick = () => act("travel", { to: d.n });
    const br = el("button", "branch", "branch here");
    br.onclick = () => act("branch", { to: d.n });
    li.append(look, br);
    ds.append(li);
  }
  const tr = $("travel");
  tr.replaceChildren();
  const t = j.table || {};
  const past = t.past !== null && t.past !== undefined;
  const back = el("button", "step-back", "step back");
  back.onclick = () => act("travel", { to: Math.max(0, (past ? t.past : t.answers) - 1) });
  tr.append(back);
  if (past) {
    const ret = el("button", "return", "return to the game");
    ret.onclick = () => act("travel", { to: null });
    const br = el("button", "branch-past", "branch from here");
    br.onclick = () => act("branch", { to: t.past });
    tr.append(ret, br, el("span", "", " viewing before answer " + t.past));
  }
  const kinds = new Set(j.log.map(([k]) => k));
  const fk = $("f-kind");
  if (fk.options.length - 1 !== kinds.size) {
    const keep = fk.value;
    fk.replaceChildren(new Option("all", ""));
    for (const k of kinds) fk.append(new Option(k, k));
    fk.value = keep;
  }
  const fp = $("f-player");
  if (fp.options.length === 1 && last) {
    for (let p = 1; p <= last.players; p++) fp.append(new Option("P" + p, "P" + p));
  }
  filterLog();
}

function filterLog() {
  if (!lastDebug) return;
  const kind = $("f-kind").value, player = $("f-player").value, card = $("f-card").value.toLowerCase();
  const out = $("d-log");
  out.replaceChildren();
  for (const [k, line] of lastDebug.log) {
    if (kind && k !== kind) continue;
    if (player && !new RegExp("\\b" + player + "\\b").test(line)) continue;
    if (card && !line.toLowerCase().includes(card)) continue;
    out.append(el("li", "k-" + k, k + ": " + line));
  }
}
for (const id of ["f-kind", "f-player", "f-card"]) $(id).oninput = filterLog;

async function act(what, body) {
  try {
    await api("/api/tables/" + encodeURIComponent(table.id) + "/" + what, Object.assign({ token: table.token }, body));
  } catch (e) {
    $("status").textContent = e.message;
  }
}

// ---- start ----

const h = new URLSearchParams(location.hash.slice(1));
if (h.get("t") && h.get("k")) {
  table = { id: h.get("t"), token: h.get("k") };
  $("table").hidden = false;
  $("save").href = "/api/tables/" + encodeURIComponent(table.id) + "/save?token=" + encodeURIComponent(table.token);
  const dl = $("debug-link");
  dl.href = debug ? location.pathname + location.hash : "?debug" + location.hash;
  dl.textContent = debug ? "Debug panel (on)" : "Debug panel";
  const inv = JSON.parse(sessionStorage.getItem("invites-" + table.id) || "[]");
  for (const s of inv) {
    const a = el("a", "invite", "P" + s.seat + "'s seat");
    a.href = "/#t=" + encodeURIComponent(table.id) + "&k=" + encodeURIComponent(s.token);
    a.target = "_blank";
    $("invites").append(a);
  }
  connect(false);
  if (debug) {
    $("debug").hidden = false;
    connect(true);
  }
} else {
  lobby().catch((e) => { $("lobby-error").textContent = e.message; });
}
