// The game review page (/review/ID): asks the server for the table's review (computed once
// on the bot workers, see docs/bots.md "Game review"), shows its progress, then a
// win-probability graph per player (SVG), the turning points, each player's biggest
// losses, and a move-by-move replay with the bot's preferred move drawn on the board next
// to the move played.
import { api, el, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const COLOURS = ["#c0392b", "#2471a3", "#d4ac0d", "#1e8449", "#7d3c98", "#ca6f1e"];
const POLL_MS = 1000;

const page = {
  table: null,       // GET /api/tables/ID (a spectator's message)
  review: null,      // the review document (format mayagames-analysis/1)
  byIndex: new Map(), // move index -> decision
  turnOf: new Map(),  // move index -> whole turn starting there
  renderer: null,
  catalogue: {},
  step: 0,
};

const pct = (p) => (p === null || p === undefined ? "–" : `${Math.round(100 * p)}%`);
const seatName = (seat) => (page.table.seats[seat] ? page.table.seats[seat].name : `seat ${seat}`);
const colour = (seat) => COLOURS[seat % COLOURS.length];

function setStatus(text) { $("status").textContent = text; }

async function load() {
  $("back").href = `/table/${encodeURIComponent(tableId)}`;
  try {
    page.table = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) { setStatus(error.message); return; }
  $("title").textContent = `${page.table.title}: game review`;
  document.title = `mayagames — review of a ${page.table.title} game`;
  if (!page.table.terminal) { setStatus("This game is not over yet: it can be reviewed when it ends."); return; }
  let answer;
  try {
    answer = await api(`/api/tables/${encodeURIComponent(tableId)}/review`, { method: "POST" });
  } catch (error) { setStatus(error.message); return; }
  while (answer.status === "queued" || answer.status === "running") {
    showProgress(answer);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    try { answer = await api(`/api/tables/${encodeURIComponent(tableId)}/review`); } catch (error) { toast(error.message); }
  }
  $("progress-card").classList.add("hidden");
  if (answer.status !== "done") { setStatus(answer.message || "The review failed."); return; }
  page.review = answer.review;
  await Promise.all([loadRenderer(page.table.game), loadCatalogue(page.table.game)]);
  show();
}

function showProgress(answer) {
  $("progress-card").classList.remove("hidden");
  setStatus("The bots are reviewing this game…");
  const where = answer.status === "queued"
    ? `Queued${answer.queue_position ? ` (position ${answer.queue_position})` : ""}: the review starts when the bot workers are free.`
    : `Analysed ${answer.done} of ${answer.total} decisions (${answer.budget} per decision).`;
  $("progress-text").textContent = where;
  $("progress").max = Math.max(1, answer.total || 1);
  $("progress").value = answer.done || 0;
}

async function loadRenderer(game) {
  page.renderer = await import(`/static/games/${game}.js`).catch(() => import("/static/games/generic.js"));
}

async function loadCatalogue(game) {
  page.catalogue = await api(`/api/games/${encodeURIComponent(game)}/catalogue`).catch(() => ({}));
}

function label(action) {
  if (!action) return "";
  return page.renderer && page.renderer.label ? page.renderer.label(action, page.catalogue) : action.text;
}

// --- the review --------------------------------------------------------------------------------
function show() {
  const r = page.review;
  for (const d of r.decisions) page.byIndex.set(d.index, d);
  for (const t of r.turns) page.turnOf.set(t.first, t);
  setStatus(`Reviewed at ${r.budget} per decision: ${r.decisions.filter((d) => !d.forced).length} decisions searched.`);
  drawPlayers();
  drawGraph();
  drawTurningPoints();
  drawLosses();
  $("step").max = String(r.moves);
  for (const id of ["graph-card", "step-card", "players-card", "turning-card", "losses-card"]) $(id).classList.remove("hidden");
  const first = r.turning_points.length ? r.turning_points[0].index : 0;
  goTo(Number(new URLSearchParams(location.search).get("step") ?? first));
}

function drawPlayers() {
  $("players").querySelector("tbody").replaceChildren(...page.review.players.map((p) =>
    el("tr", {},
      el("td", {}, el("span", { class: "swatch", style: `background:${colour(p.seat)}` }), " ", seatName(p.seat)),
      el("td", {}, `${p.accuracy}%`), el("td", {}, String(p.blunders)), el("td", {}, String(p.mistakes)),
      el("td", {}, `${(100 * p.mean_loss).toFixed(1)}%`))));
}

const GRAPH = { width: 720, height: 240, left: 40, right: 12, top: 12, bottom: 28 };

function xOf(index) {
  const g = GRAPH, total = Math.max(1, page.review.moves);
  return g.left + (g.width - g.left - g.right) * (index / total);
}
function yOf(p) {
  const g = GRAPH;
  return g.top + (g.height - g.top - g.bottom) * (1 - p);
}

function drawGraph() {
  const g = GRAPH, r = page.review;
  let body = `<rect x="${g.left}" y="${g.top}" width="${g.width - g.left - g.right}" height="${g.height - g.top - g.bottom}" fill="#faf7f1" stroke="#e2d9c8"/>`;
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    body += `<line x1="${g.left}" x2="${g.width - g.right}" y1="${yOf(p)}" y2="${yOf(p)}" stroke="#e2d9c8" stroke-dasharray="${p === 0.5 ? "" : "3 3"}"/>`;
    body += `<text x="${g.left - 6}" y="${yOf(p) + 4}" font-size="11" text-anchor="end" fill="#7a6f66">${100 * p}%</text>`;
  }
  body += `<text x="${(g.left + g.width) / 2}" y="${g.height - 6}" font-size="11" text-anchor="middle" fill="#7a6f66">move (of ${r.moves})</text>`;
  for (const p of r.players) {
    const points = p.win_prob.filter(([, w]) => w !== null).map(([i, w]) => `${xOf(i).toFixed(1)},${yOf(w).toFixed(1)}`);
    body += `<polyline class="line seat-${p.seat}" fill="none" stroke="${colour(p.seat)}" stroke-width="2" points="${points.join(" ")}"/>`;
  }
  for (const t of r.turning_points) {
    const d = page.byIndex.get(t.index);
    if (!d || d.win_prob === null) continue;
    body += `<circle class="turning" data-index="${t.index}" cx="${xOf(t.index)}" cy="${yOf(d.win_prob)}" r="6" fill="white" stroke="${colour(t.seat)}" stroke-width="3"><title>move ${t.index + 1}: ${escapeXml(t.played)} (${t.kind === "loss" ? `lost ${pct(-t.swing)}` : `swing ${pct(t.swing)}`})</title></circle>`;
  }
  body += `<line class="cursor" id="graph-cursor" x1="0" x2="0" y1="${g.top}" y2="${g.height - g.bottom}"/>`;
  $("graph").innerHTML = `<svg viewBox="0 0 ${g.width} ${g.height}" role="img" aria-label="win probability of each player over the game">${body}</svg>`;
  const svg = $("graph").querySelector("svg");
  svg.addEventListener("click", (event) => {
    const turning = event.target.closest(".turning");
    if (turning) { goTo(Number(turning.dataset.index)); return; }
    const box = svg.getBoundingClientRect();
    const x = (event.clientX - box.left) * (g.width / box.width);
    const share = (x - g.left) / (g.width - g.left - g.right);
    goTo(Math.round(Math.max(0, Math.min(1, share)) * r.moves));
  });
  $("legend").replaceChildren(...r.players.map((p) =>
    el("span", {}, el("span", { class: "swatch", style: `background:${colour(p.seat)}` }), seatName(p.seat))));
}

function escapeXml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function drawTurningPoints() {
  const items = page.review.turning_points.map((t) => el("li", { onclick: () => goTo(t.index) },
    `Move ${t.index + 1}, ${seatName(t.seat)}: ${t.played}`,
    t.kind === "loss" ? ` lost ${pct(-t.swing)}` : ` (win chance ${t.swing > 0 ? "+" : ""}${pct(t.swing)})`,
    t.best && t.best !== t.played ? ` — the bot prefers ${t.best}` : ""));
  $("turning").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "no decision swung the game much")]));
}

function drawLosses() {
  $("losses").replaceChildren(...page.review.players.map((p) => el("div", {},
    el("h3", {}, el("span", { class: "swatch", style: `background:${colour(p.seat)}` }), seatName(p.seat)),
    p.biggest_losses.length
      ? el("ol", { class: `losses seat-${p.seat}` }, ...p.biggest_losses.map((l) => el("li", { onclick: () => goTo(l.index) },
        `Move ${l.move_number}: ${l.played} → ${l.best} `, el("span", { class: `label-${l.label}` }, `−${pct(l.loss)} ${l.label}`))))
      : el("p", { class: "muted" }, "no losses found"))));
}

// --- move by move --------------------------------------------------------------------------------
async function goTo(step) {
  const r = page.review;
  page.step = Math.max(0, Math.min(step, r.moves));
  $("step").value = String(page.step);
  $("step-label").textContent = `before move ${page.step + 1} of ${r.moves}`;
  $("graph-cursor")?.setAttribute("x1", xOf(page.step));
  $("graph-cursor")?.setAttribute("x2", xOf(page.step));
  let frame;
  try {
    frame = await api(`/api/tables/${encodeURIComponent(tableId)}/replay?step=${page.step}&perspective=all`);
  } catch (error) { toast(error.message); return; }
  if (Number($("step").value) !== page.step) return; // a later step was asked meanwhile
  const decision = page.byIndex.get(page.step);
  drawVerdict(decision, frame);
  const best = decision && decision.best_action ? [{ id: 0, ...decision.best_action }] : [];
  drawBoard(frame, best);
}

function drawVerdict(d, frame) {
  const box = $("verdict");
  if (frame.terminal) { box.replaceChildren(el("p", {}, "The final position.")); return; }
  if (!d) { box.replaceChildren(el("p", { class: "muted" }, `${seatName(frame.current_player)} to move (not reviewed).`)); return; }
  if (d.forced) { box.replaceChildren(el("p", {}, `${seatName(d.seat)}: `, el("span", { class: "played" }, d.played), " (the only legal move).")); return; }
  const same = d.best === d.played;
  const parts = [
    el("p", {}, `${seatName(d.seat)}, win chance ${pct(d.win_prob)} (score margin ${d.margin > 0 ? "+" : ""}${d.margin}). Played `,
      el("span", { class: "played" }, d.played), ` (${pct(d.played_win_prob)})`,
      same ? " — the bot's choice too." : el("span", {}, " — the bot prefers ", el("span", { class: "best" }, label(d.best_action) || d.best),
        ` (${pct(d.best_win_prob)}), drawn on the board. `, d.label ? el("span", { class: `label-${d.label}` }, `−${pct(d.loss)} ${d.label}`) : `−${pct(d.loss)}`)),
  ];
  const turn = page.turnOf.get(d.index);
  if (turn && turn.played.length > 1 && turn.win_prob !== null) {
    parts.push(el("p", { class: "muted" }, `Whole turn: ${turn.played.join(", ")} → ${pct(turn.played_win_prob)}; `,
      `the bot's turn: ${turn.best_turn.join(", ")} (${pct(turn.win_prob)})`,
      turn.label ? el("span", { class: `label-${turn.label}` }, ` −${pct(turn.loss)} ${turn.label}`) : ""));
  }
  box.replaceChildren(...parts);
}

function drawBoard(frame, legal) {
  const t = page.table;
  const ctx = {
    view: frame.view, legal, seat: null, seats: t.seats, numPlayers: t.num_players,
    current: frame.current_player, terminal: frame.terminal, scores: frame.scores,
    catalogue: page.catalogue || {}, winners: frame.winners || [], replay: true,
  };
  let drawn;
  try { drawn = page.renderer.render(ctx); } catch (error) {
    console.error(error);
    drawn = { svg: `<p class="error">The board could not be drawn (${escapeXml(error.message)}).</p>`, targets: {} };
  }
  const board = $("board");
  board.innerHTML = drawn.html ?? drawn.svg;
  for (const node of board.querySelectorAll("[data-target]")) {
    const ids = (drawn.targets || {})[node.dataset.target] || [];
    if (ids.includes(0) && legal.length) {
      node.classList.add("target", "preferred");
      node.setAttribute("aria-label", `the bot prefers ${legal[0].text}`);
    }
  }
}

function wire() {
  $("step-first").addEventListener("click", () => goTo(0));
  $("step-prev").addEventListener("click", () => goTo(page.step - 1));
  $("step-next").addEventListener("click", () => goTo(page.step + 1));
  $("step-last").addEventListener("click", () => goTo(page.review.moves));
  $("step").addEventListener("input", (e) => goTo(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!page.review) return;
    if (e.key === "ArrowRight") goTo(page.step + 1);
    if (e.key === "ArrowLeft") goTo(page.step - 1);
  });
}

wire();
load();
