// Board of the test game "Hidden High Card": per seat its hand (face down for others)
// and its pile; the deck; after a swap, Bonus and End buttons. Clicking a card of your
// hand offers "play" or "swap" with that card.
import { button, frame, targetMap, text } from "./svg.js";

const W = 760, ROW = 118, TOP = 70, CARD_W = 48, CARD_H = 68;

function card(value, x, y, key = null) {
  const attrs = key ? ` data-target="${key}"` : "";
  if (!value) {
    return `<g${attrs}><rect x="${x}" y="${y}" width="${CARD_W}" height="${CARD_H}" rx="6" fill="#1e5248" stroke="#123a33"/>` +
      `<path d="M${x + 10} ${y + 34} l14 -14 l14 14 l-14 14 z" fill="none" stroke="#c98a2b" stroke-width="2"/></g>`;
  }
  return `<g${attrs}><rect x="${x}" y="${y}" width="${CARD_W}" height="${CARD_H}" rx="6" fill="#fffdf8" stroke="#7a6f66"/>` +
    text(x + CARD_W / 2, y + 44, String(value), { size: 28, anchor: "middle", weight: "bold" }) + "</g>";
}

function keyOf(action) {
  if (action.kind === "Play" || action.kind === "Swap") return `card-${action.card}`;
  if (action.kind === "Bonus") return "bonus";
  if (action.kind === "End") return "end";
  return null;
}

export function label(action) {
  switch (action.kind) {
    case "Play": return `Play ${action.card} (score it)`;
    case "Swap": return `Swap ${action.card} (under the deck, draw)`;
    case "Bonus": return "Take the bonus (+1) and end";
    case "End": return "End the turn";
    default: return action.text;
  }
}

export function render(ctx) {
  const view = ctx.view;
  const n = view.hands.length;
  const height = TOP + n * ROW + 70;
  const deck = Array.isArray(view.deck) ? view.deck.length : view.deck;
  let body = `<rect width="${W}" height="${height}" rx="12" fill="#f4efe6"/>`;
  body += `<rect x="${W - 160}" y="12" width="${CARD_W}" height="${CARD_H - 20}" rx="6" fill="#1e5248"/>`;
  body += text(W - 100, 42, `deck: ${deck}`, { size: 16 });
  body += text(16, 36, ctx.terminal ? "Final position" : "Hidden High Card", { size: 22, weight: "bold" });
  for (let seat = 0; seat < n; seat++) {
    const y = TOP + seat * ROW;
    const mine = seat === ctx.seat;
    const toMove = !ctx.terminal && seat === ctx.current;
    body += `<rect x="8" y="${y - 6}" width="${W - 16}" height="${ROW - 10}" rx="10" fill="${toMove ? "#e7f1ee" : "white"}" stroke="${toMove ? "#2f7d6d" : "#e2d9c8"}"/>`;
    const name = ctx.seats[seat] ? ctx.seats[seat].name : `seat ${seat}`;
    body += text(20, y + 22, `${toMove ? "▶ " : ""}${name}${mine ? " (you)" : ""}`, { size: 17, weight: "bold" });
    body += text(20, y + 48, `score ${ctx.scores?.[seat] ?? 0}`, { size: 15, fill: "#7a6f66" });
    if (view.bonus_used[seat]) body += text(20, y + 70, "bonus used", { size: 13, fill: "#c98a2b" });
    body += text(240, y + 12, "hand", { size: 12, fill: "#7a6f66" });
    view.hands[seat].forEach((value, i) => {
      body += card(value, 240 + i * (CARD_W + 8), y + 18, mine && value ? `card-${value}` : null);
    });
    body += text(390, y + 12, "pile", { size: 12, fill: "#7a6f66" });
    view.piles[seat].forEach((value, i) => { body += card(value, 390 + i * (CARD_W + 8), y + 18); });
  }
  const kinds = new Set(ctx.legal.map((a) => a.kind));
  const by = TOP + n * ROW + 8;
  if (kinds.has("Bonus")) body += button("bonus", 240, by, 150, 44, "Bonus +1");
  if (kinds.has("End")) body += button("end", 410, by, 150, 44, "End turn");
  return { svg: frame(W, height, body, "Hidden High Card board"), targets: targetMap(ctx.legal, keyOf) };
}
