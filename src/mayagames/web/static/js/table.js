// The table page: one WebSocket to the server, the board drawn by the game's module
// (/static/games/<game>.js, else generic.js), moves by clicking highlighted targets or
// from the list, the log (sentences grouped by turn, with the game's events), scores,
// undo, hot-seat hand-over, end-of-game summary, rematch and step-by-step replay.
// Board elements with data-tip="TEXT" show their details on hover (a mouse) or on tap;
// elements with data-place="ID" are marked when another player's last turn touched them.
//
// Speed: the log is appended to (never rebuilt), the board is redrawn only when the
// position changed, and nothing reads layout in the path from a message to the new board
// (scrolling the log waits for the next frame). window.mgStats keeps the timings that
// benchmarks/bench_table.py reads.
import { api, el, loadTokens, saveToken, rememberTable, toast } from "./api.js";
import { createLog } from "./log.js";
import { signalTurn, setTurnSignals, wireSignals } from "./signals.js";
import { startTour, maybeStartTour } from "./tour.js";
import { currentHint, markHint, summaryHints, updateHint, wireReviewLinks } from "./hint.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const DEBUG = new URLSearchParams(location.search).get("debug") === "1";
const STEP_MS = 650;  // how long each step of another player's turn stays on screen

const app = {
  tokens: loadTokens(tableId),  // seat -> token held on this device
  token: null,                  // the token this socket speaks with (null: spectator)
  fresh: null,                  // a token from an invite link, seat not yet known
  state: null,                  // the "state" message on screen
  log: [],
  renderer: null,
  catalogue: {},                // the game's components in words (/api/games/G/catalogue)
  ws: null,
  rid: 0,
  pending: null,                // rid of the move/undo awaiting its answer
  retry: 500,
  summaryShown: false,
  handoverFor: null,            // the seat the device goes to, once its state arrives
  shownSeat: null,              // the seat whose view was last on screen
  replay: null,                 // {step, total, perspective, frame, asked} while replaying
  stopped: false,               // the table cannot be shown: do not reconnect
  queue: [],                    // state messages waiting to be shown step by step
  queueTimer: null,
  lastShownAt: 0,
  boardKey: null,               // what the board on screen was drawn from
  wasYourTurn: false,
};
const stats = window.mgStats = { renders: [], roundTrips: [], sentAt: null };

const log = createLog($("log"), { seatName, onEvent: showEventPanel });

// --- tokens from the invite link (#token=T or hot-seat #tokens=0:T0,1:T1) -----------
function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const pair of (params.get("tokens") || "").split(",").filter(Boolean)) {
    const [seat, token] = pair.split(":");
    if (token) { app.tokens[seat] = token; saveToken(tableId, seat, token); }
  }
  if (params.get("token")) app.fresh = params.get("token");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (Object.keys(app.tokens).length) rememberTable(tableId);
}

function heldSeats() {
  return Object.keys(app.tokens).map(Number).sort((a, b) => a - b);
}

function hotSeat() {
  return heldSeats().length > 1;
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
  app.queue = [];  // the hello's answer is a full state: what was queued is outdated
  send({ type: "hello", token });
}

function receive(message) {
  if (message.type === "state") onState(message);
  else if (message.type === "error") onError(message);
  // other features (clocks, chat, seats: social.js) listen to the table's messages
  document.dispatchEvent(new CustomEvent("mayagames:message", { detail: { message, token: app.token } }));
}

// --- state messages, shown at once or one step at a time ---------------------------------
function onState(message) {
  if (app.fresh && message.seat !== null && message.seat !== undefined) {
    app.tokens[message.seat] = app.fresh;
    saveToken(tableId, message.seat, app.fresh);
    app.fresh = null;
  }
  if (message.ack !== undefined && message.ack === app.pending) {
    app.pending = null;
    if (stats.click) stats.click.ack = performance.now();
    if (stats.sentAt !== null) stats.roundTrips.push(performance.now() - stats.sentAt);
    stats.sentAt = null;
  }
  if (paced(message)) {
    app.queue.push(message);
    pump();
  } else {
    flushQueue();
    show(message);
  }
}

// Another player's move, arriving while the last step is still fresh on screen: it waits
// its turn so that a person can follow a bot's (or a fast player's) whole turn.
function paced(message) {
  if (!app.state || app.replay || !$("set-steps").checked || document.hidden) return false;
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  if (message.ack !== undefined || message.log_from === 0 || !message.log.length) return false;
  const held = new Set(heldSeats());
  return message.log.every((e) => !held.has(e.seat) && e.seat !== message.seat);
}

function pump() {
  if (app.queueTimer !== null || !app.queue.length) { drawPlayback(); return; }
  const wait = app.lastShownAt + STEP_MS - performance.now();
  if (wait <= 0) {
    show(app.queue.shift());
    if (app.queue.length) app.queueTimer = setTimeout(() => { app.queueTimer = null; pump(); }, STEP_MS);
  } else {
    app.queueTimer = setTimeout(() => { app.queueTimer = null; pump(); }, wait);
  }
  drawPlayback();
}

function flushQueue() {
  if (app.queueTimer !== null) clearTimeout(app.queueTimer);
  app.queueTimer = null;
  const waiting = app.queue;
  app.queue = [];
  if (waiting.length) {
    for (const message of waiting.slice(0, -1)) mergeLog(message);
    show(waiting[waiting.length - 1]);
  }
  drawPlayback();
}

function drawPlayback() {
  const waiting = app.queue.length;
  $("playback").classList.toggle("hidden", waiting === 0);
  if (waiting) {
    const who = seatName(app.queue[waiting - 1].log[0]?.seat);
    $("playback-text").textContent = `Showing ${who}'s moves step by step (${waiting} more)`;
  }
}

function mergeLog(message) {
  app.log = app.log.slice(0, message.log_from).concat(message.log);
  const panelTurn = app.eventTurn;
  log.update(message.log_from, message.log, message.seat);
  if (panelTurn !== null && panelTurn !== undefined && panelTurn === app.eventTurn &&
      message.log.some((e) => e.turn > panelTurn && (e.seat === message.seat || e.turn > panelTurn + 1))) foldEventPanel();
}

// A scoring or Food Day shown above the board stays there until the viewer's next turn
// (or, watching, the turn after next); then it folds away: it stays in the log, under the
// move that caused it.
function foldEventPanel() {
  $("event-panel").classList.add("hidden");
  app.eventTurn = null;
}

function show(message) {
  const before = app.state;
  app.state = message;
  mergeLog(message);
  app.lastShownAt = performance.now();
  if (message.seat !== null && message.seat !== undefined && !message.terminal &&
      hotSeat() && message.current_player !== message.seat && app.tokens[message.current_player]) {
    handTo(message.current_player);  // the next seat held here: ask for its view
  }
  Promise.all([loadRenderer(message.game), loadCatalogue(message.game)]).then(() => {
    if (app.state !== message) return;  // a newer state came meanwhile
    if (needsHandOver(message, before)) return;
    draw();
  });
}

function onError(message) {
  if (message.rid !== undefined && message.rid === app.pending) { app.pending = null; stats.sentAt = null; }
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
// The device asks to be passed only when the next seat's view shows something the
// spectators (and so the previous player) may not see ("private", from the server).
function handTo(seat) {
  app.handoverFor = seat;
  hello(app.tokens[seat]);
}

function needsHandOver(message) {
  if (!hotSeat() || message.terminal || message.seat === null || message.seat === undefined) return false;
  const changed = app.shownSeat !== null && app.shownSeat !== message.seat;
  if (!changed || !message.private) return false;
  $("board").replaceChildren();  // nothing of the last seat's view stays in the page
  $("moves").replaceChildren();
  $("view-json").textContent = "";
  app.boardKey = null;
  drawPrompt(null);
  hideTip();
  closeChooser();
  setStatus(`Pass the device to ${seatName(message.seat)}`);
  $("handover-title").textContent = `Pass the device to ${seatName(message.seat)}`;
  $("handover").classList.remove("hidden");
  return true;
}

function handOver() {
  $("handover").classList.add("hidden");
  app.handoverFor = null;
  app.shownSeat = app.state ? app.state.seat : null;
  if (app.state) draw();
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
  if (seat === null || seat === undefined || !s) return "";
  return s.seats[seat] ? s.seats[seat].name : `seat ${seat}`;
}

function draw() {
  const t0 = performance.now();
  const s = app.state;
  app.shownSeat = s.seat;
  $("title").textContent = `${s.title} · table ${tableId}` +  // issue 10: a chosen seed is disclosed
    (s.seed_fixed ? " · seed fixed by the table's creator (who may know the hidden cards)" : "");
  $("rules-link").href = `/rules/${encodeURIComponent(s.game)}`;
  $("rules-link").classList.toggle("hidden", s.game === "toy" || s.game === "tally");
  if (app.replay) { drawReplay(); return; }
  const yourTurn = !s.terminal && s.seat === s.current_player && s.seat !== null;
  if (s.terminal) setStatus(`Game over — ${s.winners.map(seatName).join(" & ")} ${s.winners.length > 1 ? "win" : "wins"}`);
  else if (yourTurn) setStatus(`Your turn, ${seatName(s.seat)}${app.pending ? " — sending…" : ""}`, true);
  else setStatus(`Waiting for ${seatName(s.current_player)}${s.seats[s.current_player]?.bot ? " (bot)" : ""}` +
    (s.seat === null ? " — you are watching" : ""));
  setTurnSignals({ yourTurn: yourTurn && !app.pending, title: s.title, over: s.terminal });
  if (yourTurn && !app.wasYourTurn && !app.pending) signalTurn(s.title, tableId);
  app.wasYourTurn = yourTurn;
  // While a move is on its way the board stays as it is, its targets switched off
  // (class "busy"): redrawing it twice per click would double the time to the new board.
  const legal = app.pending ? [] : s.legal;
  const ctx = context(s.view, s.legal, s.seat, s);
  const key = `${s.move_number}|${s.seat}|${s.private}|${s.legal.length}`;
  if (key !== app.boardKey) {
    drawBoard(ctx, s.legal);
    app.boardKey = key;
  }
  $("board").classList.toggle("busy", Boolean(app.pending));
  drawPrompt(yourTurn && !app.pending ? ctx : null);
  drawMoves(legal);
  drawScores(s.scores, s.terminal ? s.winners : [], s.current_player, s.terminal, ctx);
  if (DEBUG) $("view-json").textContent = JSON.stringify(s.view, null, 1);
  $("undo").disabled = !s.can_undo || Boolean(app.pending);
  $("undo").classList.toggle("hidden", s.seat === null || s.terminal);
  $("moves-card").classList.toggle("hidden", s.terminal || s.seat === null);
  $("replay-open").classList.toggle("hidden", !s.terminal);
  $("rematch-open").classList.toggle("hidden", !s.terminal || !canRematch());
  $("record").classList.toggle("hidden", !s.terminal);
  $("record").href = `/api/tables/${tableId}/record`;
  $("review-open").classList.toggle("hidden", !s.terminal);
  updateHint(tableId, s, app.token);
  if (s.terminal && !app.summaryShown) showSummary();
  if (s.terminal) drawRematchNote();
  const t1 = performance.now();
  stats.renders.push(t1 - t0);
  const click = stats.click;
  if (click && !app.pending && s.move_number > click.move) {  // the answer to a click is drawn
    stats.click = null;
    click.drawn = t1;
    click.render = t1 - t0;
    requestAnimationFrame(() => setTimeout(() => { click.painted = performance.now(); stats.clicks = (stats.clicks || []).concat([click]); }, 0));
  }
  if (s.seat !== null) maybeStartTour(s.game);
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
  app.tipsPaused = true;  // no tooltip for whatever lands under a still cursor
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
    node._actions = actions;
  }
  markLastMoves(board);
  flashSettled(board);
}

// The places each other player's last turn touched ("places" of the log entries; older
// servers: the board module reads them from the notation).
function markLastMoves(board) {
  const s = app.state;
  if (!s || !app.log.length || app.replay) return;  // a replay marks its own step (drawReplay)
  const done = new Set([s.seat]);
  const last = app.log.length - 1;
  let rounds = 0;  // new rounds told from the entry scanned on (a place follows its worker)
  for (let i = last, scanned = 0; i >= 0 && scanned < 300;) {
    const e = app.log[i];
    if (done.has(e.seat)) { rounds += roundsOf(e); i--; scanned++; continue; }
    done.add(e.seat);
    const places = [];
    let j = i;
    for (; j >= 0 && app.log[j].seat === e.seat && (e.turn === undefined || app.log[j].turn === e.turn); j--, scanned++) {
      rounds += roundsOf(app.log[j]);
      places.push(...placesOf(app.log[j]).map((p) => followPlace(p, rounds, s.view, e.seat)).filter(Boolean));
    }
    for (const place of places) {
      for (const node of board.querySelectorAll(`[data-place="${CSS.escape(place)}"]`)) {
        node.classList.add("last-move");
        if (i === last) node.classList.add("latest");
        node.dataset.lastSeat = e.seat;
      }
    }
    i = j;
  }
}

// The new rounds (the game's "round" events: a Tzolk'in day, the gears turning) an entry
// tells; the board module moves a place along with them.
function roundsOf(entry) {
  let rounds = 0;
  for (const event of entry.events || []) if (event.kind === "round") rounds++;
  return rounds;
}

function followPlace(place, rounds, view, seat) {
  if (!rounds || !app.renderer || !app.renderer.follow) return place;
  return app.renderer.follow(place, rounds, view, seat);
}

function placesOf(entry) {
  if (Array.isArray(entry.places)) return entry.places;
  return app.renderer && app.renderer.places ? app.renderer.places(entry.text || "") : [];
}

function label(action) {
  return app.renderer && app.renderer.label ? app.renderer.label(action) : action.text;
}

function onBoardClick(event) {
  const node = event.target.closest && event.target.closest(".target");
  if (!node || !node._actions || app.pending) return;
  pickAction(node._actions, event, node.dataset.tip);
}

function pickAction(actions, event) {
  closeChooser();
  hideTip();
  if (actions.length === 1) { play(actions[0].id); return; }  // one move here: one tap
  const tip = event.target.closest("[data-tip]")?.dataset.tip;
  const box = el("div", { class: "chooser", id: "chooser", role: "menu" },
    tip && !canHover ? el("p", { class: "chooser-tip" }, tip) : null,
    actions.map((a) => el("button", { type: "button", "data-action-id": a.id, onclick: () => { closeChooser(); play(a.id); } }, label(a))),
    el("button", { type: "button", class: "secondary", onclick: closeChooser }, "Cancel"));
  document.body.append(box);
  const x = Math.min(event.clientX || 20, window.innerWidth - box.offsetWidth - 8);
  const y = Math.min(event.clientY || 20, window.innerHeight - box.offsetHeight - 8);
  box.style.left = `${Math.max(8, x)}px`;
  box.style.top = `${Math.max(8, y)}px`;
}

// A touch screen cannot hover: tapping something with details that is not a move shows them.
const canHover = window.matchMedia("(hover: hover)").matches;

function closeChooser() {
  const box = $("chooser");
  if (box) box.remove();
}

function drawPrompt(ctx) {
  const text = ctx && app.renderer && app.renderer.prompt ? app.renderer.prompt(ctx) : "";
  if ($("prompt").textContent !== text) $("prompt").textContent = text || "";
  $("prompt").classList.toggle("hidden", !text);
}

// --- details of board elements (data-tip) ------------------------------------------------
function showTip(node) {
  clearTimeout(app.tipTimer);
  app.tipLeaving = false;
  const tip = $("tip");
  tip.replaceChildren(node.dataset.tip);
  // catalogue items (buildings, monuments, tiles, cards...) link to their rules section
  const anchor = node.closest("[data-rules]")?.dataset.rules;
  const game = app.state && app.state.game;
  tip.classList.toggle("linked", Boolean(anchor && game));
  if (anchor && game) {
    tip.append(el("a", { class: "tip-rules", href: `/rules/${encodeURIComponent(game)}#${encodeURIComponent(anchor)}`,
      target: "_blank", rel: "noopener" }, "Rules ›"));
  }
  tip.classList.remove("hidden");
  app.tipFor = node;
  placeTip(node);
}

// The details sit under their element (above it when there is no room below).
function placeTip(node) {
  const tip = $("tip");
  const box = node.getBoundingClientRect();
  const x = Math.min(Math.max(8, box.left), window.innerWidth - tip.offsetWidth - 8);
  const below = box.bottom + 8 + tip.offsetHeight < window.innerHeight;
  tip.style.left = `${x}px`;
  tip.style.top = `${below ? box.bottom + 6 : Math.max(8, box.top - tip.offsetHeight - 6)}px`;
}

// Scrolling moves the details with their element; they close once it leaves the window
// or slips under the sticky action bar.
function followTip() {
  const node = app.tipFor;
  if (!node) return;
  const box = node.isConnected ? node.getBoundingClientRect() : null;
  const top = $("actionbar").getBoundingClientRect().bottom;
  if (!box || box.bottom < top || box.top > window.innerHeight) { hideTip(); return; }
  placeTip(node);
}

function hideTip() {
  clearTimeout(app.tipTimer);
  app.tipLeaving = false;
  $("tip").classList.add("hidden");
  app.tipFor = null;
}

// A tip with a rules link stays a moment after the pointer leaves, so it can reach the link.
// Until then, pointing at other details on the way does not move the tip (they show only
// if the pointer stays on them a moment).
function hideTipSoon() {
  if (!$("tip").classList.contains("linked")) { hideTip(); return; }
  clearTimeout(app.tipTimer);
  app.tipLeaving = true;
  app.tipTimer = setTimeout(hideTip, 400);
}

function wireTips(board) {
  const tipped = (event) => event.target.closest && event.target.closest("[data-tip]");
  board.addEventListener("pointermove", (event) => {
    if (!app.tipsPaused || event.pointerType !== "mouse") return;
    app.tipsPaused = false;  // the cursor moved since the last redraw: details are welcome again
    const node = tipped(event);
    if (node && app.tipFor !== node) showTip(node);
  });
  board.addEventListener("pointerover", (event) => {
    const node = tipped(event);
    if (!node || event.pointerType !== "mouse" || app.tipsPaused) return;
    if (app.tipLeaving) {  // on the way to a linked tip's "Rules ›": switch only if the pointer stays here
      clearTimeout(app.tipTimer);
      app.tipTimer = setTimeout(() => showTip(node), 250);
      return;
    }
    showTip(node);
  });
  board.addEventListener("pointerout", (event) => {
    const node = tipped(event);
    if (node && event.pointerType === "mouse" && !node.contains(event.relatedTarget)) hideTipSoon();
  });
  board.addEventListener("focusin", (event) => { const node = tipped(event); if (node && event.target.matches(":focus-visible")) showTip(node); });
  board.addEventListener("focusout", hideTip);
  board.addEventListener("click", (event) => {  // a tap on details that is not a move
    const node = tipped(event);
    if (!node || node.closest(".target")) return;
    if (app.tipFor === node) hideTip(); else showTip(node);
  });
  board.addEventListener("click", onBoardClick);
  $("tip").addEventListener("pointerenter", () => { clearTimeout(app.tipTimer); app.tipLeaving = false; });
  $("tip").addEventListener("pointerleave", hideTipSoon);
  board.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.closest(".target")) {
      event.preventDefault();
      onBoardClick(event);
    }
  });
}

// The moves in words: below the board, and in the sticky action bar when they are few
// (a choice's options as buttons where the player looks, as on Board Game Arena). With
// more, the board holds them: the page scrolls to them when none is in view (issue 23:
// "Choose what to build" with the cards below the fold), so that what you act on is
// never out of sight.
const BAR_MOVES = 12;

function drawMoves(legal) {
  const hinted = hintedAction();
  const button = (a) => el("button", { type: "button", "data-action-id": a.id, class: a.id === hinted ? "hinted" : "",
    onclick: () => play(a.id) }, label(a));
  const box = $("moves");
  box.replaceChildren(...legal.map(button));
  if (!legal.length) box.append(el("span", { class: "muted" }, app.pending ? "sending…" : "No move for you now."));
  const bar = $("bar-moves");
  const shown = legal.length > 0 && legal.length <= BAR_MOVES;
  bar.replaceChildren(...(shown ? legal.map(button) : []));
  bar.classList.toggle("hidden", !shown);
  if (legal.length && !shown) revealTargets();
}

// After the frame is drawn (no layout read in the click's path): if no target of the
// decision is in view below the sticky bar, scroll the first one there.
function revealTargets() {
  const move = app.state && app.state.move_number;
  if (app.revealedFor === move) return;  // once per decision: the player may scroll away
  app.revealedFor = move;
  requestAnimationFrame(() => {
    const top = $("actionbar").getBoundingClientRect().bottom;
    const targets = [...$("board").querySelectorAll(".target")];
    if (!targets.length) return;
    const inView = (r) => r.width > 0 && r.bottom > top && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
    if (targets.some((node) => inView(node.getBoundingClientRect()))) return;
    const first = targets[0].getBoundingClientRect();
    window.scrollTo({ top: Math.max(0, window.scrollY + first.top - top - 12), behavior: "instant" });
  });
}

function hintedAction() {
  const h = currentHint();
  if (!h || !app.state) return null;
  const action = app.state.legal.find((a) => a.text === h.action);
  return action ? action.id : null;
}

// The player panels (as on Board Game Arena): each seat's score, what it holds (the board
// module's panel(): Tzolk'in goods and workers, Tikal AP, treasures, cards...) and its
// clock (social.js fills [data-panel-clock]). The Players card sticks to the top of the
// side column on a laptop; on a phone the same panels ride in the sticky action bar.
function drawScores(scores, winners, current, terminal, ctx) {
  const s = app.state;
  const panel = (seat) => {
    let html = "";
    try { html = ctx && app.renderer && app.renderer.panel ? app.renderer.panel(ctx, seat) : ""; } catch (error) { console.error(error); }
    const box = el("div", { class: "seat-panel" });
    box.innerHTML = html;
    return box;
  };
  const clock = (seat) => el("span", { class: "panel-clock", "data-panel-clock": seat });
  const rows = s.seats.map((seat) => {
    const you = heldSeats().includes(seat.seat) || seat.seat === s.seat;
    const cls = [!terminal && seat.seat === current ? "to-move" : "", winners.includes(seat.seat) ? "winner" : ""].join(" ");
    return el("tr", { class: cls, "data-seat": seat.seat },
      el("td", {}, el("div", { class: "seat-name" }, !terminal && seat.seat === current ? "▶ " : "", seat.name,
        you ? el("span", { class: "badge you" }, "you") : null,
        seat.bot ? el("span", { class: "badge" }, `bot ${seat.agent}`) : null, clock(seat.seat)), panel(seat.seat)),
      el("td", { class: "score" }, formatScore(scores[seat.seat])));
  });
  document.querySelector("#scores tbody").replaceChildren(...rows);
  const chips = s.seats.map((seat) => el("div", { class: `bar-panel${!terminal && seat.seat === current ? " to-move" : ""}`, "data-seat": seat.seat },
    el("b", {}, !terminal && seat.seat === current ? "▶ " : "", seat.name, " ", formatScore(scores[seat.seat])), clock(seat.seat), panel(seat.seat)));
  $("bar-panels").replaceChildren(...chips);
  document.dispatchEvent(new CustomEvent("mayagames:panels"));
}

function formatScore(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

// A scoring, Food Day or the final scoring, as it happens: a panel above the board.
function showEventPanel(event, entry) {
  if (app.replay) return;
  app.eventTurn = entry ? entry.turn : null;
  const body = $("event-body");
  body.replaceChildren(el("h3", {}, event.text));
  if (event.table) body.append(log.eventTable(event.table));
  $("event-panel").classList.remove("hidden");
  $("event-panel").dataset.kind = event.kind;
}

// A move that also makes a choice with one option left, spending goods ("do tikal 4"
// building the only building you can afford; the server's "settles"): asked first, unless
// the player turned the confirmation off; afterwards what it built is flashed on the board.
function play(actionId, confirmed = false) {
  if (app.pending || !app.state) return;
  const action = app.state.legal.find((a) => a.id === actionId);
  if (action && action.settles && !confirmed && $("set-confirm").checked) { confirmSettled(action); return; }
  if (action && action.settles) app.settled = { move: app.state.move_number, places: action.settles.places || [] };
  app.pending = ++app.rid;
  stats.sentAt = performance.now();
  stats.click = { sent: stats.sentAt, move: app.state.move_number };
  send({ type: "move", move_number: app.state.move_number, action_id: actionId, rid: app.pending });
  draw();
}

function confirmSettled(action) {
  closeChooser();
  hideTip();
  const box = el("div", { class: "chooser settle-confirm", id: "chooser", role: "dialog", "aria-label": "confirm" },
    el("p", { class: "chooser-tip" }, `${label(action)}. ${action.settles.text}`),
    el("button", { type: "button", id: "settle-ok", onclick: () => { closeChooser(); play(action.id, true); } }, "Confirm"),
    el("button", { type: "button", class: "secondary", onclick: closeChooser }, "Cancel"));
  document.body.append(box);
  const bar = $("actionbar").getBoundingClientRect();
  box.style.left = `${Math.max(8, Math.min(bar.left, window.innerWidth - box.offsetWidth - 8))}px`;
  box.style.top = `${Math.max(8, bar.bottom + 6)}px`;
  $("settle-ok").focus();
}

// After the answer to a settled move is drawn: its places (the building built) flash.
function flashSettled(board) {
  const done = app.settled;
  if (!done || !app.state || app.state.move_number <= done.move) return;
  app.settled = null;
  const nodes = done.places.flatMap((place) => [...board.querySelectorAll(`[data-place="${CSS.escape(place)}"]`)]);
  for (const node of nodes) node.classList.add("settled");
  setTimeout(() => { for (const node of nodes) node.classList.remove("settled"); }, 2500);
  const line = $("log").lastElementChild?.querySelector("li:last-child");
  if (line) { line.classList.add("settled"); setTimeout(() => line.classList.remove("settled"), 2500); }
}

function undo() {
  if (app.pending || !app.state) return;
  app.pending = ++app.rid;
  send({ type: "undo", move_number: app.state.move_number, rid: app.pending });
  draw();
}

// --- end of game, rematch and replay -------------------------------------------------------
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
  $("summary-rematch").classList.toggle("hidden", !canRematch());
  $("summary").classList.remove("hidden");
  summaryHints(tableId, seatName);
}

function drawRematchNote() {
  const s = app.state;
  const note = $("rematch-note");
  note.classList.toggle("hidden", !s.rematch);
  if (s.rematch) note.textContent = "A rematch has started: Rematch takes you to your seat there.";
  for (const id of ["summary-rematch", "rematch-open"]) $(id).textContent = s.rematch ? "Join the rematch" : "Rematch";
}

// A seat held here by its link, or by the account logged in (its session opens the seat).
function canRematch() {
  return heldSeats().length > 0 || (app.state && app.state.seat !== null);
}

// Same seats and options, a new seed: each seat held on this device gets its new link; an
// account's seat needs none (the session opens it at the new table too).
async function rematch() {
  const tokens = heldSeats().map((seat) => app.tokens[seat]);
  if (!tokens.length) {
    if (!canRematch()) return;
    try {
      const answer = await api(`/api/tables/${tableId}/rematch`, { method: "POST" });
      location.assign(`/table/${encodeURIComponent(answer.table)}${location.search}`);
    } catch (error) { toast(error.message); }
    return;
  }
  const pairs = [];
  let table = null;
  for (const token of tokens) {
    try {
      const answer = await api(`/api/tables/${tableId}/rematch`, { method: "POST", token });
      table = answer.table;
      for (const seat of answer.seats) if (seat.token) pairs.push(`${seat.seat}:${seat.token}`);
    } catch (error) { toast(error.message); return; }
  }
  if (!table) return;
  const known = loadTokens(table);
  for (const [seat, token] of Object.entries(known)) if (!pairs.some((p) => p.startsWith(`${seat}:`))) pairs.push(`${seat}:${token}`);
  location.assign(`/table/${encodeURIComponent(table)}${location.search}#tokens=${pairs.join(",")}`);
}

async function openReplay() {
  $("summary").classList.add("hidden");
  const s = app.state;
  const select = $("replay-perspective");
  select.replaceChildren(el("option", { value: "all" }, "everything"), el("option", { value: "spectator" }, "a spectator"),
    ...s.seats.map((x) => el("option", { value: String(x.seat) }, x.name)));
  app.replay = { step: 0, total: s.move_number, perspective: "all", frame: null, asked: 0 };
  foldEventPanel();
  $("replay-step").max = String(s.move_number);
  $("replay").classList.remove("hidden");
  $("moves-card").classList.add("hidden");
  await replayTo(0);
}

// The step asked last is the one shown: an earlier request answered late (a perspective
// changed, then a far step asked at once) is dropped, so the log and the board never show
// another step than the label.
async function replayTo(step) {
  const r = app.replay;
  r.step = Math.max(0, Math.min(step, r.total));
  const asked = r.asked = (r.asked || 0) + 1;
  const token = preferredToken();
  let frame;
  try {
    frame = await api(`/api/tables/${tableId}/replay?step=${r.step}&perspective=${encodeURIComponent(r.perspective)}`, { token });
  } catch (error) { if (asked === r.asked) toast(error.message); return; }
  if (app.replay !== r || asked !== r.asked) return;
  r.frame = frame;
  draw();
}

function drawReplay() {
  const r = app.replay, f = r.frame;
  if (!f) return;
  $("replay-step").value = String(r.step);
  $("replay-label").textContent = `move ${r.step} of ${r.total}`;
  setStatus(`Replay — move ${r.step} of ${r.total}` + (f.terminal ? " (final position)" : `, ${seatName(f.current_player)} to move`));
  const viewer = f.perspective === "all" || f.perspective === "spectator" ? null : f.perspective;
  app.boardKey = null;
  drawBoard(context(f.view, [], viewer, { ...app.state, current_player: f.current_player, terminal: f.terminal, scores: f.scores, winners: f.winners }), []);
  drawPrompt(null);
  drawScores(f.scores, f.winners, f.current_player, f.terminal, context(f.view, [], viewer, { ...app.state, current_player: f.current_player, terminal: f.terminal, scores: f.scores, winners: f.winners }));
  log.update(0, f.log, viewer, { silent: true });
  markReplayStep(f.log[f.log.length - 1]);
  if (DEBUG) $("view-json").textContent = JSON.stringify(f.view, null, 1);
}

// The move that led to the step shown: its places ringed on the board, its line marked in
// the log (the live game's last-turn rings are not drawn on a replay step).
function markReplayStep(entry) {
  for (const node of document.querySelectorAll("#log li.replay-step")) node.classList.remove("replay-step");
  if (!entry) return;
  for (const place of placesOf(entry)) {
    for (const node of $("board").querySelectorAll(`[data-place="${CSS.escape(place)}"]`)) {
      node.classList.add("last-move", "latest", "replay-step");
      node.dataset.lastSeat = entry.seat;
    }
  }
  const line = $("log").querySelector(`li[data-n="${entry.n}"]`);
  if (line) {
    line.classList.add("replay-step");
    requestAnimationFrame(() => line.scrollIntoView({ block: "nearest" }));
  }
}

function closeReplay() {
  app.replay = null;
  $("replay").classList.add("hidden");
  log.update(0, app.log, app.state.seat, { silent: true });
  draw();
}

// --- wiring -------------------------------------------------------------------------------
function wire() {
  $("undo").addEventListener("click", undo);
  $("prompt").addEventListener("click", () => $("prompt").classList.toggle("open"));  // phone: all of it
  wireReviewLinks(tableId);
  wireTips($("board"));
  wireSignals();
  window.addEventListener("scroll", followTip, { passive: true });
  $("handover-ok").addEventListener("click", handOver);
  $("summary-close").addEventListener("click", () => $("summary").classList.add("hidden"));
  $("summary-replay").addEventListener("click", openReplay);
  $("summary-rematch").addEventListener("click", rematch);
  $("rematch-open").addEventListener("click", rematch);
  $("replay-open").addEventListener("click", openReplay);
  $("replay-close").addEventListener("click", closeReplay);
  $("replay-first").addEventListener("click", () => replayTo(0));
  $("replay-prev").addEventListener("click", () => replayTo(app.replay.step - 1));
  $("replay-next").addEventListener("click", () => replayTo(app.replay.step + 1));
  $("replay-last").addEventListener("click", () => replayTo(app.replay.total));
  $("replay-step").addEventListener("input", (e) => replayTo(Number(e.target.value)));
  $("replay-perspective").addEventListener("change", (e) => { app.replay.perspective = e.target.value; replayTo(app.replay.step); });
  $("playback-skip").addEventListener("click", flushQueue);
  $("event-close").addEventListener("click", () => $("event-panel").classList.add("hidden"));
  $("tour-open").addEventListener("click", () => startTour(app.state ? app.state.game : ""));
  $("debug").classList.toggle("hidden", !DEBUG);
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".chooser") && !e.target.closest(".target") && !e.target.closest("[data-action-id]")) closeChooser();
    if (!e.target.closest("[data-tip]")) hideTip();
  });
  document.addEventListener("keydown", (e) => {
    if (!app.replay) return;
    if (e.key === "ArrowRight") replayTo(app.replay.step + 1);
    if (e.key === "ArrowLeft") replayTo(app.replay.step - 1);
  });
  document.addEventListener("visibilitychange", () => { if (document.hidden) flushQueue(); });
}

readFragment();
wire();
connect();
