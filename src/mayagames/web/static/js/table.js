// The table page: one WebSocket to the server, the board drawn by the game's module
// (/static/games/<game>.js, else generic.js), moves by clicking highlighted targets or
// from the list, the log, scores, undo, hot-seat hand-over, end-of-game summary and
// step-by-step replay of finished games. Board elements with data-tip="TEXT" show their
// details on hover (a mouse) or on tap (a touch screen: tapping a target with details opens
// the chooser with the details and the moves, so nothing is played by accident).
import { api, el, loadTokens, saveToken, rememberTable, toast } from "./api.js";
import { markHint, summaryHints, updateHint, wireReviewLinks } from "./hint.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

const app = {
  tokens: loadTokens(tableId),  // seat -> token held on this device
  token: null,                  // the token this socket speaks with (null: spectator)
  fresh: null,                  // a token from an invite link, seat not yet known
  state: null,                  // the last "state" message
  log: [],
  renderer: null,
  catalogue: {},                // the game's components in words (/api/games/G/catalogue)
  ws: null,
  rid: 0,
  pending: null,                // rid of the move/undo awaiting its answer
  retry: 500,
  summaryShown: false,
  handoverFor: null,
  replay: null,                 // {step, total, perspective, frame} while replaying
  stopped: false,               // the table cannot be shown: do not reconnect
};

// --- tokens from the invite link (#token=T or hot-seat #tokens=0:T0,1:T1) -----------
function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const pair of (params.get("tokens") || "").split(",").filter(Boolean)) {
    const [seat, token] = pair.split(":");
    if (token) { app.tokens[seat] = token; saveToken(tableId, seat, token); }
  }
  if (params.get("token")) app.fresh = params.get("token");
  if (location.hash) history.replaceState(null, "", location.pathname);
  if (Object.keys(app.tokens).length) rememberTable(tableId);
}

function heldSeats() {
  return Object.keys(app.tokens).map(Number).sort((a, b) => a - b);
}

function preferredToken() {
  if (app.fresh) return app.fresh;
  if (app.token && Object.values(app.tokens).includes(app.token)) return app.token;
  const s = app.state;
  if (s && app.tokens[s.current_player]) return app.tokens[s.current_player];
  const seats = heldSeats();
  return seats.length ? app.tokens[seats[0]] : null;
}

// --- the socket ------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  app.ws = ws;
  ws.onopen = () => { app.retry = 500; hello(preferredToken()); };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = (event) => {
    app.pending = null;
    if (event.code === 4404) { setStatus("There is no such table."); return; }
    if (app.stopped) return;
    setStatus("Connection lost — reconnecting…");
    setTimeout(connect, app.retry);
    app.retry = Math.min(app.retry * 2, 8000);
  };
}

function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
}

function hello(token) {
  app.token = token;
  send({ type: "hello", token });
}

function receive(message) {
  if (message.type === "state") onState(message);
  else if (message.type === "error") onError(message);
  // other features (clocks, chat, seats: social.js) listen to the table's messages
  document.dispatchEvent(new CustomEvent("mayagames:message", { detail: { message, token: app.token } }));
}

function onState(message) {
  if (app.fresh && message.seat !== null && message.seat !== undefined) {
    app.tokens[message.seat] = app.fresh;
    saveToken(tableId, message.seat, app.fresh);
    app.fresh = null;
  }
  if (message.ack !== undefined && message.ack === app.pending) app.pending = null;
  app.log = app.log.slice(0, message.log_from).concat(message.log);
  app.state = message;
  Promise.all([loadRenderer(message.game), loadCatalogue(message.game)]).then(() => {
    if (!maybeHandOver()) draw();
  });
}

function onError(message) {
  if (message.rid !== undefined && message.rid === app.pending) app.pending = null;
  if (message.error === "broken_table" || message.error === "no_table") {
    app.stopped = true;  // retrying cannot help
    setStatus(message.message);
    return;
  }
  if (message.error === "bad_token") {
    toast("This link does not open a seat of this table; you are watching.");
    if (app.fresh === app.token) app.fresh = null;
    hello(null);
    return;
  }
  if (message.error !== "stale") toast(message.message);
  if (app.state) draw();
}

// --- hot-seat: several seats held on one device ---------------------------------------
function maybeHandOver() {
  const s = app.state;
  if (s.terminal || heldSeats().length < 2) return false;
  const next = s.current_player;
  if (next === s.seat || !app.tokens[next]) return false;
  app.handoverFor = next;
  $("board").replaceChildren();  // nothing of the last seat's view stays in the page
  $("moves").replaceChildren();
  $("view-json").textContent = "";
  drawPrompt(null);
  hideTip();
  closeChooser();
  setStatus(`Pass the device to ${s.seats[next].name}`);
  $("handover-title").textContent = `Pass the device to ${s.seats[next].name}`;
  $("handover").classList.remove("hidden");
  return true;
}

function handOver() {
  $("handover").classList.add("hidden");
  if (app.handoverFor !== null) hello(app.tokens[app.handoverFor]);
  app.handoverFor = null;
}

// --- the game's board module ---------------------------------------------------------
const loaded = {};
async function loadRenderer(game) {
  if (!loaded[game]) {
    loaded[game] = import(`/static/games/${game}.js`).catch(() => import("/static/games/generic.js"));
  }
  app.renderer = await loaded[game];
}

const catalogues = {};
async function loadCatalogue(game) {
  if (!catalogues[game]) {
    catalogues[game] = api(`/api/games/${encodeURIComponent(game)}/catalogue`).catch(() => ({}));
  }
  app.catalogue = await catalogues[game];
}

function context(view, legal, seat, s) {
  return {
    view, legal, seat, seats: s.seats, numPlayers: s.num_players,
    current: s.current_player, terminal: s.terminal, scores: s.scores,
    catalogue: app.catalogue || {}, winners: s.winners || [], replay: Boolean(app.replay),
  };
}

// --- drawing ----------------------------------------------------------------------------
function setStatus(text, yourTurn = false) {
  $("status").textContent = text;
  $("status").classList.toggle("your-turn", yourTurn);
}

function seatName(seat) {
  const s = app.state;
  return seat === null || seat === undefined ? "" : (s.seats[seat] ? s.seats[seat].name : `seat ${seat}`);
}

function draw() {
  const s = app.state;
  document.title = `mayagames — ${s.title}`;
  $("title").textContent = `${s.title} · table ${tableId}`;
  if (app.replay) { drawReplay(); return; }
  const yourTurn = !s.terminal && s.seat === s.current_player && s.seat !== null;
  if (s.terminal) setStatus(`Game over — ${s.winners.map(seatName).join(" & ")} ${s.winners.length > 1 ? "win" : "wins"}`);
  else if (yourTurn) setStatus(`Your turn, ${seatName(s.seat)}${app.pending ? " — sending…" : ""}`, true);
  else setStatus(`Waiting for ${seatName(s.current_player)}${s.seats[s.current_player]?.bot ? " (bot)" : ""}` +
    (s.seat === null ? " — you are watching" : ""));
  const legal = app.pending ? [] : s.legal;
  const ctx = context(s.view, legal, s.seat, s);
  drawBoard(ctx, legal);
  drawPrompt(yourTurn && !app.pending ? ctx : null);
  drawMoves(legal);
  drawScores(s.scores, s.terminal ? s.winners : [], s.current_player, s.terminal);
  drawLog(app.log, s.seat);
  $("view-json").textContent = JSON.stringify(s.view, null, 1);
  $("undo").disabled = !s.can_undo || Boolean(app.pending);
  $("moves-card").classList.toggle("hidden", s.terminal);
  $("replay-open").classList.toggle("hidden", !s.terminal);
  $("record").classList.toggle("hidden", !s.terminal);
  $("record").href = `/api/tables/${tableId}/record`;
  $("review-open").classList.toggle("hidden", !s.terminal);
  updateHint(tableId, s, app.token);
  if (s.terminal && !app.summaryShown) showSummary();
}

function drawBoard(ctx, legal) {
  const board = $("board");
  let drawn;
  try {
    drawn = app.renderer.render(ctx);
  } catch (error) {
    console.error(error);
    drawn = { svg: `<p class="error">The board could not be drawn (${String(error.message)}); use the list of moves.</p>`, targets: {} };
  }
  hideTip();
  board.innerHTML = drawn.html ?? drawn.svg;
  board.classList.toggle("has-targets", legal.length > 0);
  markHint(board, drawn.targets);
  const byId = new Map(legal.map((a) => [a.id, a]));
  for (const node of board.querySelectorAll("[data-target]")) {
    const ids = (drawn.targets || {})[node.dataset.target] || [];
    const actions = ids.map((id) => byId.get(id)).filter(Boolean);
    if (!actions.length) continue;
    node.classList.add("target");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", actions.map((a) => a.text).join(" or "));
    const choose = (event) => pickAction(actions, event, node.dataset.tip);
    node.addEventListener("click", choose);
    node.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") choose(event); });
  }
}

function label(action) {
  return app.renderer && app.renderer.label ? app.renderer.label(action) : action.text;
}

// A touch screen cannot hover: tapping a target that has details first shows them.
const canHover = window.matchMedia("(hover: hover)").matches;

function pickAction(actions, event, tip) {
  closeChooser();
  hideTip();
  const explain = tip && !canHover;
  if (actions.length === 1 && !explain) { play(actions[0].id); return; }
  const box = el("div", { class: "chooser", id: "chooser", role: "menu" },
    explain ? el("p", { class: "chooser-tip" }, tip) : null,
    actions.map((a) => el("button", { type: "button", "data-action-id": a.id, onclick: () => { closeChooser(); play(a.id); } }, label(a))),
    el("button", { type: "button", class: "secondary", onclick: closeChooser }, "Cancel"));
  document.body.append(box);
  const x = Math.min(event.clientX || 20, window.innerWidth - box.offsetWidth - 8);
  const y = Math.min(event.clientY || 20, window.innerHeight - box.offsetHeight - 8);
  box.style.left = `${Math.max(8, x)}px`;
  box.style.top = `${Math.max(8, y)}px`;
}

function closeChooser() {
  const box = $("chooser");
  if (box) box.remove();
}

function drawPrompt(ctx) {
  const text = ctx && app.renderer && app.renderer.prompt ? app.renderer.prompt(ctx) : "";
  $("prompt").textContent = text || "";
  $("prompt").classList.toggle("hidden", !text);
}

// --- details of board elements (data-tip) ------------------------------------------------
function showTip(node) {
  const tip = $("tip");
  tip.textContent = node.dataset.tip;
  tip.classList.remove("hidden");
  const box = node.getBoundingClientRect();
  const x = Math.min(Math.max(8, box.left), window.innerWidth - tip.offsetWidth - 8);
  const below = box.bottom + 8 + tip.offsetHeight < window.innerHeight;
  tip.style.left = `${x}px`;
  tip.style.top = `${below ? box.bottom + 6 : Math.max(8, box.top - tip.offsetHeight - 6)}px`;
  app.tipFor = node;
}

function hideTip() {
  $("tip").classList.add("hidden");
  app.tipFor = null;
}

function wireTips(board) {
  const tipped = (event) => event.target.closest && event.target.closest("[data-tip]");
  board.addEventListener("pointerover", (event) => {
    const node = tipped(event);
    if (node && event.pointerType === "mouse") showTip(node);
  });
  board.addEventListener("pointerout", (event) => {
    const node = tipped(event);
    if (node && event.pointerType === "mouse" && !node.contains(event.relatedTarget)) hideTip();
  });
  board.addEventListener("focusin", (event) => { const node = tipped(event); if (node) showTip(node); });
  board.addEventListener("focusout", hideTip);
  board.addEventListener("click", (event) => {  // a tap on details that is not a move
    const node = tipped(event);
    if (!node || node.classList.contains("target")) return;
    if (app.tipFor === node) hideTip(); else showTip(node);
  });
}

function drawMoves(legal) {
  const box = $("moves");
  box.replaceChildren(...legal.map((a) =>
    el("button", { type: "button", "data-action-id": a.id, onclick: () => play(a.id) }, label(a))));
  if (!legal.length) box.append(el("span", { class: "muted" }, app.pending ? "sending…" : "No move for you now."));
}

function drawScores(scores, winners, current, terminal) {
  const s = app.state;
  const rows = s.seats.map((seat) => {
    const you = heldSeats().includes(seat.seat) || seat.seat === s.seat;
    const cls = [!terminal && seat.seat === current ? "to-move" : "", winners.includes(seat.seat) ? "winner" : ""].join(" ");
    return el("tr", { class: cls, "data-seat": seat.seat },
      el("td", {}, !terminal && seat.seat === current ? "▶ " : "", seat.name,
        you ? el("span", { class: "badge you" }, "you") : null,
        seat.bot ? el("span", { class: "badge" }, `bot ${seat.agent}`) : null),
      el("td", { class: "score" }, formatScore(scores[seat.seat])));
  });
  document.querySelector("#scores tbody").replaceChildren(...rows);
}

function formatScore(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

function drawLog(entries) {
  const list = $("log");
  list.replaceChildren(...entries.map((e) =>
    el("li", { value: e.n }, el("strong", {}, seatName(e.seat)), ": ", e.text)));
  list.scrollTop = list.scrollHeight;
}

function play(actionId) {
  if (app.pending || !app.state) return;
  app.pending = ++app.rid;
  send({ type: "move", move_number: app.state.move_number, action_id: actionId, rid: app.pending });
  draw();
}

function undo() {
  if (app.pending || !app.state) return;
  app.pending = ++app.rid;
  send({ type: "undo", move_number: app.state.move_number, rid: app.pending });
  draw();
}

// --- end of game and replay -------------------------------------------------------------
function showSummary() {
  app.summaryShown = true;
  const s = app.state;
  const order = s.seats.map((x) => x.seat).sort((a, b) => s.scores[b] - s.scores[a]);
  document.querySelector("#summary-table tbody").replaceChildren(...order.map((seat, i) =>
    el("tr", { class: s.winners.includes(seat) ? "winner" : "" },
      el("td", {}, `${i + 1}.`), el("td", {}, seatName(seat)), el("td", {}, formatScore(s.scores[seat])),
      el("td", {}, s.winners.includes(seat) ? "winner" : ""))));
  const details = app.renderer && app.renderer.summary ? app.renderer.summary(context(s.view, [], s.seat, s)) : "";
  $("summary-details").innerHTML = details || "";
  $("summary").classList.remove("hidden");
  summaryHints(tableId, seatName);
}

async function openReplay() {
  $("summary").classList.add("hidden");
  const s = app.state;
  const select = $("replay-perspective");
  select.replaceChildren(el("option", { value: "all" }, "everything"), el("option", { value: "spectator" }, "a spectator"),
    ...s.seats.map((x) => el("option", { value: String(x.seat) }, x.name)));
  app.replay = { step: 0, total: s.move_number, perspective: "all", frame: null };
  $("replay-step").max = String(s.move_number);
  $("replay").classList.remove("hidden");
  $("moves-card").classList.add("hidden");
  await replayTo(0);
}

async function replayTo(step) {
  const r = app.replay;
  r.step = Math.max(0, Math.min(step, r.total));
  const token = preferredToken();
  try {
    r.frame = await api(`/api/tables/${tableId}/replay?step=${r.step}&perspective=${encodeURIComponent(r.perspective)}`, { token });
  } catch (error) { toast(error.message); return; }
  draw();
}

function drawReplay() {
  const r = app.replay, f = r.frame;
  if (!f) return;
  $("replay-step").value = String(r.step);
  $("replay-label").textContent = `move ${r.step} of ${r.total}`;
  setStatus(`Replay — move ${r.step} of ${r.total}` + (f.terminal ? " (final position)" : `, ${seatName(f.current_player)} to move`));
  const viewer = f.perspective === "all" || f.perspective === "spectator" ? null : f.perspective;
  drawBoard(context(f.view, [], viewer, { ...app.state, current_player: f.current_player, terminal: f.terminal, scores: f.scores, winners: f.winners }), []);
  drawPrompt(null);
  drawScores(f.scores, f.winners, f.current_player, f.terminal);
  drawLog(f.log);
  $("view-json").textContent = JSON.stringify(f.view, null, 1);
}

function closeReplay() {
  app.replay = null;
  $("replay").classList.add("hidden");
  draw();
}

// --- wiring -------------------------------------------------------------------------------
function wire() {
  $("undo").addEventListener("click", undo);
  wireReviewLinks(tableId);
  wireTips($("board"));
  window.addEventListener("scroll", hideTip, { passive: true });
  $("handover-ok").addEventListener("click", handOver);
  $("summary-close").addEventListener("click", () => $("summary").classList.add("hidden"));
  $("summary-replay").addEventListener("click", openReplay);
  $("replay-open").addEventListener("click", openReplay);
  $("replay-close").addEventListener("click", closeReplay);
  $("replay-first").addEventListener("click", () => replayTo(0));
  $("replay-prev").addEventListener("click", () => replayTo(app.replay.step - 1));
  $("replay-next").addEventListener("click", () => replayTo(app.replay.step + 1));
  $("replay-last").addEventListener("click", () => replayTo(app.replay.total));
  $("replay-step").addEventListener("input", (e) => replayTo(Number(e.target.value)));
  $("replay-perspective").addEventListener("change", (e) => { app.replay.perspective = e.target.value; replayTo(app.replay.step); });
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".chooser") && !e.target.closest(".target")) closeChooser();
    if (!e.target.closest("[data-tip]")) hideTip();
  });
  document.addEventListener("keydown", (e) => {
    if (!app.replay) return;
    if (e.key === "ArrowRight") replayTo(app.replay.step + 1);
    if (e.key === "ArrowLeft") replayTo(app.replay.step - 1);
  });
}

readFragment();
wire();
connect();
