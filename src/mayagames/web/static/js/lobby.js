// The lobby: create a table (game, players, who sits where, options), hand out invite
// links, and list the tables of this device and the recent ones.
import { api, copyText, el, myTables, rememberTable } from "./api.js";

const $ = (id) => document.getElementById(id);
let catalogue = { games: [], agents: ["human"] };

async function start() {
  try {
    catalogue = await api("/api/games");
  } catch (error) {
    $("create-error").textContent = `Cannot reach the server: ${error.message}`;
    return;
  }
  const games = catalogue.games;
  $("no-games").classList.toggle("hidden", games.length > 0);
  $("create-form").classList.toggle("hidden", games.length === 0);
  for (const game of games) $("game").append(el("option", { value: game.name }, game.title));
  $("game").addEventListener("change", showGame);
  $("players").addEventListener("change", showSeats);
  $("create-form").addEventListener("submit", createTable);
  if (games.length) showGame();
  listMine();
  listRecent();
}

function currentGame() {
  return catalogue.games.find((g) => g.name === $("game").value);
}

function showGame() {
  const game = currentGame();
  $("game-doc").textContent = game.doc || "";
  const rules = game.rules || (game.test_game ? null : `/rules/${game.name}`);
  $("game-rules").classList.toggle("hidden", !rules);
  if (rules) $("game-rules").href = rules;
  const players = $("players");
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) players.append(el("option", { value: n }, n));
  players.value = String(Math.max(game.min_players, Math.min(2, game.max_players)));
  showSeats();
  showOptions(game);
}

const OTHER = "other";  // a bot typed as a spec, e.g. mcts:500i

// The bots on offer: the server's list (difficulty levels first, with a line on each),
// else (an older server) every agent name.
function botChoices() {
  if (catalogue.bots && catalogue.bots.length) return catalogue.bots;
  return catalogue.agents.filter((a) => a !== "human").map((a) => ({ spec: a, title: a, doc: "" }));
}

function defaultBot() {
  const specs = botChoices().map((b) => b.spec);
  return specs.includes("easy") ? "easy" : specs[0] || "human";
}

function seatKind(i) {
  const options = [el("option", { value: "human" }, "person"),
    ...botChoices().map((b) => el("option", { value: b.spec, title: b.doc }, `bot: ${b.title}${b.level ? " (level)" : ""}`)),
    el("option", { value: OTHER }, "bot: other spec…")];
  const kind = el("select", { name: `agent-${i}`, "aria-label": `seat ${i + 1} player` }, options);
  kind.value = i === 0 ? "human" : defaultBot();
  const spec = el("input", { name: `spec-${i}`, class: "hidden", placeholder: "e.g. mcts:500i or heuristic:noise=0.5", "aria-label": `seat ${i + 1} bot spec` });
  const doc = el("small", { class: "muted seat-doc" });
  const update = () => {
    spec.classList.toggle("hidden", kind.value !== OTHER);
    const bot = botChoices().find((b) => b.spec === kind.value);
    doc.textContent = bot ? bot.doc : kind.value === OTHER ? "any agent spec the server knows (mayagames bots)" : "";
  };
  kind.addEventListener("change", update);
  update();
  return { kind, spec, doc };
}

function showSeats() {
  const box = $("seats");
  const count = Number($("players").value);
  box.replaceChildren();
  for (let i = 0; i < count; i++) {
    const { kind, spec, doc } = seatKind(i);
    const name = el("input", { name: `name-${i}`, maxlength: 40, placeholder: `Player ${i + 1}`, "aria-label": `seat ${i + 1} name` });
    box.append(el("div", { class: "seat-row" }, el("span", { class: "muted" }, `#${i + 1}`), name, kind,
      el("span"), doc, spec));
  }
}

function seatAgent(i) {
  const kind = document.querySelector(`[name=agent-${i}]`).value;
  return kind === OTHER ? document.querySelector(`[name=spec-${i}]`).value.trim() || OTHER : kind;
}

// Each option in plain language (the game package's label, one-line explanation and
// choice names; an older server: its name and doc).
function showOptions(game) {
  const box = $("options");
  box.replaceChildren();
  $("options-box").classList.toggle("hidden", game.options.length === 0);
  for (const option of game.options) {
    const names = option.choice_labels || {};
    let input;
    if (option.choices) {
      input = el("select", { "data-option": option.name },
        option.choices.map((c) => el("option", { value: JSON.stringify(c) }, names[String(c)] || String(c))));
      input.value = JSON.stringify(option.default);
    } else if (typeof option.default === "boolean") {
      input = el("input", { type: "checkbox", "data-option": option.name, checked: option.default });
    } else if (typeof option.default === "number") {
      input = el("input", { type: "number", "data-option": option.name, value: option.default });
    } else {
      input = el("input", { "data-option": option.name, value: option.default ?? "" });
    }
    const title = option.label || option.name;
    const explain = option.explain || option.doc || "";
    box.append(el("div", { class: "option" },
      el("label", {}, el("span", { class: "option-label" }, title), " ", input),
      explain ? el("small", { class: "muted option-explain" }, explain) : null));
  }
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") options[name] = input.checked;
    else if (input.tagName === "SELECT") options[name] = JSON.parse(input.value);
    else if (input.type === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

// Public, rated, speed and the zombie level (accounts.js explains them in the lobby).
function tableKind() {
  return { public: $("public").checked, rated: $("rated").checked, speed: $("speed").value, zombie: $("zombie").value };
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const count = Number($("players").value);
  const seats = [];
  for (let i = 0; i < count; i++) {
    const name = document.querySelector(`[name=name-${i}]`).value.trim();
    seats.push({ name: name || null, agent: seatAgent(i) });
  }
  $("create").disabled = true;
  try {
    const table = await api("/api/tables", {
      method: "POST", body: { game: $("game").value, players: count, seats, options: readOptions(), ...tableKind() },
    });
    rememberTable(table.table);
    showCreated(table);
    listMine();
    listRecent();
    document.dispatchEvent(new CustomEvent("mayagames:tables-changed"));
  } catch (error) {
    $("create-error").textContent = error.message;
  } finally {
    $("create").disabled = false;
  }
}

function showCreated(table) {
  $("created").classList.remove("hidden");
  $("created-id").textContent = table.table;
  const box = $("invites");
  box.replaceChildren();
  const humans = table.seats.filter((s) => s.token);
  for (const seat of table.seats) {
    if (!seat.token && seat.agent === "human") {  // an account's seat, or one joined in the open lobby
      box.append(el("p", {}, `${seat.name}: ${table.public && seat.seat > 0 ? "free seat, listed in the open lobby" : "your account's seat"} `,
        seat.seat === 0 || !table.public ? el("a", { class: "button", href: `/table/${table.table}`, "data-seat": seat.seat }, "Play here") : null));
      continue;
    }
    if (!seat.token) {
      box.append(el("p", { class: "muted" }, `${seat.name}: bot (${seat.agent})`));
      continue;
    }
    const url = location.origin + seat.invite;
    box.append(el("div", { class: "seat-invite" },
      el("strong", {}, seat.name),
      el("div", { class: "invite" },
        el("input", { readonly: true, value: url, "aria-label": `invite link for ${seat.name}`, onclick: (e) => e.target.select() }),
        el("button", { type: "button", class: "secondary", onclick: () => copyText(url) }, "Copy"),
        el("a", { class: "button", href: seat.invite, "data-seat": seat.seat }, "Play here"))));
  }
  const pairs = humans.map((s) => `${s.seat}:${s.token}`).join(",");
  $("hotseat").href = `/table/${table.table}#tokens=${pairs}`;
  // every seat of this device is taken now: a timed table's clock starts (server: clock.waiting)
  $("hotseat").onclick = () => {
    for (const s of humans) fetch(`/api/tables/${table.table}`, { headers: { Authorization: `Bearer ${s.token}` }, keepalive: true });
  };
  $("hotseat").classList.toggle("hidden", humans.length < 2);
  $("spectate").href = table.spectate;
  $("created").scrollIntoView({ behavior: "smooth" });
}

function tableRow(t) {
  const names = t.seats.map((s) => s.name).join(", ");
  const status = (t.status === "finished" ? "finished" : t.status === "broken" ? "broken" : `move ${t.move_count}`) +
    (t.seed_fixed ? " · seed fixed by its creator" : "");
  const link = el("a", { href: `/table/${t.table}` }, t.status === "finished" ? "replay" : "open");
  return el("tr", { "data-table": t.table }, el("td", {}, t.game || "?"), el("td", {}, names), el("td", { class: "muted" }, status), el("td", {}, link));
}

// The tables the logged-in account's list shows (account.js): this device's list leaves them out.
let accountTables = new Set();
document.addEventListener("mayagames:account-tables", (event) => {
  accountTables = new Set(event.detail);
  listMine();
});

let mineDrawn = 0;  // the latest listMine call draws; an older answer arriving late does not
async function listMine() {
  const call = ++mineDrawn;
  const ids = myTables().filter((id) => !accountTables.has(id));
  const body = document.querySelector("#mine tbody");
  $("mine-empty").classList.toggle("hidden", ids.length > 0 || accountTables.size > 0);
  const rows = await Promise.all(ids.slice(0, 15).map(async (id) => {
    try {
      const s = await api(`/api/tables/${id}`);
      return { table: id, game: s.game, seats: s.seats, status: s.terminal ? "finished" : "playing", move_count: s.move_number };
    } catch { return null; }
  }));
  if (call !== mineDrawn) return;
  body.replaceChildren(...rows.filter(Boolean).map(tableRow));
}

async function listRecent() {
  try {
    const { tables } = await api("/api/tables?limit=20");
    document.querySelector("#recent tbody").replaceChildren(...tables.map(tableRow));
  } catch { /* the lobby still works without the list */ }
}

start();
