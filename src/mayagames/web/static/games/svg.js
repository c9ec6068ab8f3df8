// Helpers for board modules: escaping, SVG frame, cards, buttons and target maps.
//
// A board module exports render(ctx) -> {svg, targets}: ctx holds the seat's view
// (state.view(seat).to_dict()), the legal actions ({id, kind, ...fields, text}), the
// seat, the seats, the seat to move, whether the game is over and the scores. Every
// clickable SVG element carries data-target="KEY"; targets maps KEY to the ids of the
// legal actions it stands for (one id: a click plays it; several: the player picks).
// An optional label(action) gives a readable name for the list of moves.

export function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function frame(width, height, body, title = "board") {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">${body}</svg>`;
}

export function text(x, y, value, { size = 16, anchor = "start", weight = "normal", fill = "#2b2521" } = {}) {
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="${anchor}" font-weight="${weight}" fill="${fill}">${esc(value)}</text>`;
}

export function targetMap(legal, keyOf) {
  const targets = {};
  for (const action of legal) {
    const key = keyOf(action);
    if (key === null || key === undefined) continue;
    (targets[key] ||= []).push(action.id);
  }
  return targets;
}

export function button(key, x, y, width, height, label) {
  return `<g data-target="${esc(key)}"><rect x="${x}" y="${y}" width="${width}" height="${height}" rx="8" fill="#2f7d6d"/>` +
    text(x + width / 2, y + height / 2 + 6, label, { size: 17, anchor: "middle", weight: "bold", fill: "white" }) + "</g>";
}
