// The lobby's account side: log in / create an account / log out / change password, the
// account's tables on any device (with "your turn" badges, in the page title too, and a
// browser notification when permitted), the open lobby (join a free seat with one click)
// and the ladder. A guest who creates an account keeps the seats of this device: their
// invite tokens are claimed for the account.
import { api, el, loadTokens, myTables } from "./api.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 15000;
let me = null;             // {account, tables, your_turn} or null (a guest)
let turnTables = new Set(); // tables where it was our turn at the last look

function showError(error) { $("account-error").textContent = error ? error.message : ""; }

async function refresh() {
  try {
    me = await api("/api/me");
  } catch (error) {
    me = null;
    if (error.status !== 401) showError(error);
  }
  $("signed-out").classList.toggle("hidden", Boolean(me));
  $("signed-in").classList.toggle("hidden", !me);
  $("public").disabled = $("rated").disabled = !me;
  $("table-kind").title = me ? "" : "log in to create public or rated tables";
  if (me) {
    $("me-name").textContent = me.account.name;
    $("me-name").href = `/profile/${encodeURIComponent(me.account.name)}`;
  } else {
    $("public").checked = $("rated").checked = false;
  }
  drawMine();
  listOpen();
  follow();
  document.dispatchEvent(new CustomEvent("mayagames:account", { detail: me ? me.account : null }));
  // the device's own list (lobby.js) leaves out the tables listed here: each table once
  document.dispatchEvent(new CustomEvent("mayagames:account-tables", { detail: me ? me.tables.map((t) => t.table) : [] }));
}

// The account's tables pushed by the server (GET /api/me/events): a move, a seat taken or a
// clock run out at any of them refreshes the list and its "your turn" badges at once; the
// poll stays as the fallback.
let events = null;
let pushed = null;
function follow() {
  if (!me || typeof EventSource === "undefined") {
    if (events) { events.close(); events = null; }
    return;
  }
  if (events && events.readyState !== EventSource.CLOSED) return;
  events = new EventSource("/api/me/events");
  events.addEventListener("quick", (event) => {  // a quick game was paired (quick.js opens it)
    document.dispatchEvent(new CustomEvent("mayagames:quick", { detail: JSON.parse(event.data) }));
  });
  events.addEventListener("tables", () => {
    clearTimeout(pushed);
    pushed = setTimeout(refresh, 300);  // a burst of moves (bots): one look
  });
}

function seatsText(t) {
  return t.seats.map((s) => {
    const who = s.free ? "free seat" : s.name + (s.zombie ? " (bot: out of time)" : "");
    return s.rating !== null && s.rating !== undefined ? `${who} (${s.rating.toFixed(1)})` : who;
  }).join(", ");
}

function drawMine() {
  const box = $("account-tables");
  box.classList.toggle("hidden", !me);
  const badge = $("turn-badge");
  const count = me ? me.your_turn : 0;
  badge.textContent = count ? `your turn at ${count}` : "";
  badge.classList.toggle("hidden", !count);
  document.title = `${count ? `(${count}) ` : ""}mayagames — lobby`;
  if (!me) return;
  $("mine-empty").classList.toggle("hidden", me.tables.length > 0 || myTables().length > 0);
  box.querySelector("tbody").replaceChildren(...me.tables.map((t) => {
    const status = t.status === "finished" ? "finished" : t.status === "waiting" ? "waiting for players"
      : t.your_turn ? "" : `move ${t.move_number}`;
    return el("tr", { class: t.your_turn ? "your-turn" : "", "data-table": t.table },
      el("td", {}, t.game), el("td", {}, seatsText(t)),
      el("td", { class: "muted" }, t.your_turn ? el("span", { class: "badge you" }, "your turn") : status,
        t.speed !== "untimed" ? ` · ${t.speed_text}` : ""),
      el("td", {}, el("a", { href: `/table/${t.table}` }, t.status === "finished" ? "replay" : "open")));
  }));
  notifyTurns(me.tables);
}

function notifyTurns(tables) {
  const now = new Set(tables.filter((t) => t.your_turn).map((t) => t.table));
  if (typeof Notification !== "undefined" && Notification.permission === "granted") {
    for (const t of tables) {
      if (t.your_turn && !turnTables.has(t.table)) {
        const n = new Notification("mayagames: your turn", { body: `${t.title}: it is your turn`, tag: t.table });
        n.onclick = () => { window.focus(); location.href = `/table/${t.table}`; };
      }
    }
  }
  turnTables = now;
}

async function listOpen() {
  let tables = [];
  try { ({ tables } = await api("/api/tables?open=1")); } catch { return; }
  $("open-empty").classList.toggle("hidden", tables.length > 0);
  $("open").querySelector("tbody").replaceChildren(...tables.map((t) => {
    const mine = me && t.seats.some((s) => s.account === me.account.name);
    const free = t.seats.filter((s) => s.free);
    const action = mine ? el("a", { href: `/table/${t.table}` }, "open")
      : me ? el("button", { type: "button", class: "join", "data-table": t.table, onclick: () => join(t.table, free[0].seat) }, `Join (seat ${free[0].seat + 1})`)
        : el("span", { class: "muted" }, "log in to join");
    // the options in the game's words; only those that differ from the game's defaults
    const options = (t.option_labels || []).filter((o) => !o.default).map((o) => `${o.label}: ${o.choice}`).join(" · ");
    return el("tr", { "data-table": t.table },
      el("td", {}, t.title, el("br"), el("small", { class: "muted" }, `${t.num_players} players${t.rated ? " · rated" : ""} · ${t.speed_text}`),
        options ? el("br") : null, options ? el("small", { class: "muted" }, options) : null),
      el("td", {}, seatsText(t)), el("td", {}, action));
  }));
}

async function join(table, seat) {
  showError(null);
  try {
    await api(`/api/tables/${table}/join`, { method: "POST", body: { seat } });
    location.href = `/table/${table}`;
  } catch (error) {
    showError(error);
    listOpen();
  }
}

// A guest's seats on this device become the account's (their invite links then expire).
async function claimLocalSeats() {
  for (const table of myTables()) {
    for (const token of Object.values(loadTokens(table))) {
      try { await api(`/api/tables/${table}/claim`, { method: "POST", token }); } catch { /* not a free guest seat */ }
    }
  }
}

async function signIn(path) {
  showError(null);
  const name = $("account-name").value.trim();
  const password = $("account-password").value;
  if (!name || !password) { showError(new Error("give a name and a password")); return; }
  try {
    await api(path, { method: "POST", body: { name, password } });
    $("account-password").value = "";
    if (path === "/api/accounts") await claimLocalSeats();
    await refresh();
  } catch (error) {
    showError(error);
  }
}

async function listLadder() {
  const game = $("ladder-game").value;
  if (!game) return;
  let ratings = [];
  try { ({ ratings } = await api(`/api/ratings/${encodeURIComponent(game)}?limit=15`)); } catch { return; }
  $("ladder-empty").classList.toggle("hidden", ratings.length > 0);
  $("ladder").querySelector("tbody").replaceChildren(...ratings.map((r) => el("tr", {},
    el("td", {}, `${r.place}.`),
    el("td", {}, el("a", { href: `/profile/${encodeURIComponent(r.name)}` }, r.name), r.bot ? el("span", { class: "badge" }, "bot") : null),
    el("td", {}, r.rating.toFixed(1)), el("td", { class: "muted" }, `${r.games} games`))));
}

async function start() {
  $("login-form").addEventListener("submit", (e) => { e.preventDefault(); signIn("/api/login"); });
  $("register").addEventListener("click", () => signIn("/api/accounts"));
  $("logout").addEventListener("click", async () => { await api("/api/logout", { method: "POST" }); await refresh(); });
  $("password-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(null);
    try {
      await api("/api/me/password", { method: "POST", body: { old: $("old-password").value, new: $("new-password").value } });
      $("old-password").value = $("new-password").value = "";
      $("account-error").textContent = "Password changed.";
    } catch (error) { showError(error); }
  });
  $("notify").addEventListener("click", async () => {
    if (typeof Notification === "undefined") { showError(new Error("this browser has no notifications")); return; }
    const answer = await Notification.requestPermission();
    $("notify").textContent = answer === "granted" ? "Notifications on" : "Notifications blocked";
  });
  document.addEventListener("mayagames:tables-changed", refresh);
  try {
    const { games } = await api("/api/games");
    for (const g of games) $("ladder-game").append(el("option", { value: g.name }, g.title));
  } catch { /* the lobby script says so */ }
  $("ladder-game").addEventListener("change", listLadder);
  await refresh();
  listLadder();
  setInterval(() => { if (!document.hidden || me) refresh(); }, POLL_MS);
}

start();
