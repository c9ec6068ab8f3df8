// The game log: one sentence per move (the engine's "sentence"; the notation where a
// server has none), grouped by turn (a turn: the moves a seat makes before another seat
// acts; the server's "turn" number, else counted here), with the game's events (a new
// round, a scoring with its per-player table, a Food Day, a new age, the final scoring)
// under the move that caused them.
//
// The log is only ever appended to, or cut back to a move (undo, resync): a message with
// one new move costs one new line, never a rebuild of the whole list (what made long
// games slow). Scrolling to the newest line waits for the next frame, so it does not
// force a layout in the middle of drawing the board.
import { el } from "./api.js";

const EVENT_ICONS = { round: "⟳", scoring: "▲", food_day: "◍", age: "✦", final_scoring: "★", game_over: "★" };
const PANEL_KINDS = new Set(["scoring", "food_day", "final_scoring"]);

export function createLog(container, { seatName, onEvent }) {
  const entries = [];  // {entry, li, group}: one per move shown
  let scrollQueued = false;

  // A per-player table. ``across``: turned a quarter (one column per player, one row per
  // category), so that a table of many categories fits the narrow log.
  function eventTable(table, { across = false } = {}) {
    let head, rows;
    if (across && table.rows.length && table.columns.length > 1) {
      head = el("tr", {}, el("th", {}, table.columns[0]), table.rows.map((row) => el("th", {}, String(row[0]))));
      rows = table.columns.slice(1).map((column, j) => el("tr", {}, el("th", { scope: "row" }, column),
        table.rows.map((row) => el("td", {}, String(row[j + 1])))));
    } else {
      head = el("tr", {}, table.columns.map((c) => el("th", {}, c)));
      rows = table.rows.map((row) => el("tr", {}, row.map((cell) => el("td", {}, String(cell)))));
    }
    return el("div", { class: `event-table${across ? " across" : ""}` },
      table.title ? el("div", { class: "event-table-title" }, table.title) : null,
      el("table", { class: "list" }, el("thead", {}, head), el("tbody", {}, rows)));
  }

  function eventNode(event) {
    return el("div", { class: `log-event ${event.kind}`, "data-kind": event.kind },
      el("span", { class: "log-event-text" }, `${EVENT_ICONS[event.kind] || "•"} ${event.text}`),
      event.table ? eventTable(event.table, { across: true }) : null);
  }

  function turnOf(entry, previous) {
    if (entry.turn !== undefined && entry.turn !== null) return entry.turn;
    if (!previous) return 1;
    return previous.turn + (previous.entry.seat === entry.seat ? 0 : 1);
  }

  function newGroup(entry, turn) {
    const list = el("ol", { class: "log-moves" });
    const group = el("section", { class: "log-turn", "data-turn": turn, "data-seat": entry.seat },
      el("div", { class: "log-turn-head" }, el("span", { class: "seat-dot", "data-seat": entry.seat }), seatName(entry.seat)),
      list);
    group._list = list;
    container.append(group);
    return group;
  }

  function sentence(entry) {
    if (entry.sentence) return entry.sentence;
    return entry.text;  // an older server: the notation (the turn's heading names the player)
  }

  function append(entry, { silent }) {
    const previous = entries[entries.length - 1];
    const turn = turnOf(entry, previous);
    const group = previous && previous.turn === turn && previous.entry.seat === entry.seat ? previous.group : newGroup(entry, turn);
    const events = entry.events || [];
    const li = el("li", { class: entry.minor ? "entry minor" : "entry", value: entry.n, "data-n": entry.n },
      el("span", { class: "sentence" }, sentence(entry)),
      events.map(eventNode));
    group._list.append(li);
    entries.push({ entry, li, group, turn });
    if (!silent) for (const event of events) if (PANEL_KINDS.has(event.kind) && onEvent) onEvent(event, entry);
  }

  function truncate(count) {
    while (entries.length > count) {
      const { li, group } = entries.pop();
      li.remove();
      if (!group._list.firstChild) group.remove();
    }
  }

  function scrollToEnd() {
    if (scrollQueued) return;
    scrollQueued = true;
    requestAnimationFrame(() => {
      scrollQueued = false;
      container.scrollTop = container.scrollHeight;
    });
  }

  // Show the log from move index `from` on: what is before stays, what follows is replaced.
  function update(from, newEntries, _viewer, { silent = false } = {}) {
    const start = Math.max(0, Math.min(from, entries.length));
    if (start < entries.length) truncate(start);
    const quiet = silent || start === 0;  // a whole log (first load, resync): no panel
    for (const entry of newEntries) append(entry, { silent: quiet });
    if (newEntries.length) scrollToEnd();
  }

  return { update, eventTable, count: () => entries.length };
}
