// Hints and review links on the table page (table.js calls these few hooks).
// A hint asks the server for the medium or hard bot's move for the player's current
// decision (POST /api/tables/ID/hint; unrated games only, never for spectators), shows it
// with the bot's estimate and marks it on the board. Hints used are public: the end-of-game
// summary lists them (GET /api/tables/ID/hints), as the record does.
import { api, el, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const hint = { table: null, token: null, state: null, shown: null, asking: false };

function panel() {
  let box = $("hint-box");
  if (box) return box;
  const card = $("moves-card");
  if (!card) return null;
  const level = el("select", { id: "hint-level", "aria-label": "hint from" },
    el("option", { value: "medium" }, "medium bot"), el("option", { value: "hard", selected: true }, "hard bot"));
  box = el("div", { id: "hint-box", class: "row hidden", style: "margin-top:.5rem" },
    el("button", { type: "button", class: "secondary", id: "hint", onclick: ask }, "Hint"), level,
    el("span", { id: "hint-text", class: "muted", "aria-live": "polite" }));
  card.append(box);
  return box;
}

/** After each state message: show the hint button on the player's own turn (unrated games). */
export function updateHint(tableId, state, token) {
  hint.table = tableId; hint.state = state; hint.token = token;
  const box = panel();
  if (!box) return;
  const rated = Boolean(state.lobby && state.lobby.rated);
  const mine = !state.terminal && state.seat !== null && state.seat === state.current_player;
  box.classList.toggle("hidden", rated || !mine);
  if (hint.shown && hint.shown.move_number !== state.move_number) {
    hint.shown = null;
    $("hint-text").textContent = "";
  }
}

async function ask() {
  const s = hint.state;
  if (!s || hint.asking) return;
  hint.asking = true;
  $("hint").disabled = true;
  $("hint-text").textContent = "the bot is thinking…";
  try {
    const level = $("hint-level").value;
    const shown = await api(`/api/tables/${encodeURIComponent(hint.table)}/hint`,
      { method: "POST", body: { level, move_number: s.move_number }, token: hint.token });
    if (!hint.state || hint.state.move_number !== s.move_number) {  // answered after a move: stale
      $("hint-text").textContent = "";
      return;
    }
    hint.shown = shown;
    $("hint-text").textContent = hintText(hint.shown);
    markHint($("board"));
    for (const button of document.querySelectorAll("#moves button, #bar-moves button")) {  // the hinted button stands out
      const action = (s.legal || []).find((a) => String(a.id) === button.dataset.actionId);
      button.classList.toggle("hinted", Boolean(action && action.text === hint.shown.action));
    }
  } catch (error) {
    $("hint-text").textContent = "";
    toast(error.message);
  } finally {
    hint.asking = false;
    $("hint").disabled = false;
  }
}

// The hint in the game's words (the server tells the move as the log would, "sentence"),
// how sure the bot is and the chances, in words (older servers: the notation).
function hintText(h) {
  const move = h.sentence || h.action;
  const sure = h.confidence ? ` — ${h.confidence}` : "";
  const chances = h.chances ? `; ${h.chances}` : "";
  return `The ${h.level} bot suggests: ${move}${sure}${chances}. Hints are shown in the record.`;
}

/** The hint shown for the decision on screen, if any (table.js marks its button). */
export function currentHint() {
  const h = hint.shown, s = hint.state;
  return h && s && h.move_number === s.move_number ? h : null;
}

/** After the board is drawn: outline the targets of the hinted move (if any). */
export function markHint(board, targets) {
  if (targets) hint.targets = targets;
  const h = hint.shown, s = hint.state;
  if (!h || !s || h.move_number !== s.move_number) return;
  const action = (s.legal || []).find((a) => a.text === h.action);
  if (!action) return;
  for (const node of board.querySelectorAll("[data-target]")) {
    if (((hint.targets || {})[node.dataset.target] || []).includes(action.id)) node.classList.add("hinted");
  }
}

/** The review links (summary, players card, replay) point at /review/ID. */
export function wireReviewLinks(tableId) {
  for (const link of document.querySelectorAll(".review-link")) link.href = `/review/${encodeURIComponent(tableId)}`;
}

/** The end-of-game summary: which hints each player used. The line has its place below the
 * summary's buttons (table.html): it arrives after the summary is drawn, and text inserted
 * above the buttons moved them under a pointer about to click (a click on "Replay" landed on
 * this line under load). */
export async function summaryHints(tableId, seatName) {
  const line = $("summary-hints");
  if (!line) return;
  let used = [];
  try { used = (await api(`/api/tables/${encodeURIComponent(tableId)}/hints`)).hints; } catch { return; }
  line.textContent = used.length
    ? `Hints used: ${used.map((h) => `${seatName(h.seat)} at move ${h.move_number + 1} (${h.level}: ${h.action})`).join("; ")}.`
    : "No hints were used.";
}
