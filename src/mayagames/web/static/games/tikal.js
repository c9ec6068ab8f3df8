// Board of Tikal Legend, drawn from a seat's view (see docs/tikal_state.md): the hex map
// (axial coordinates, pointy-top) with terrain, temple levels, Trail Stone costs, camps,
// Guardians and each seat's Explorers and Leaders; the Round Management board (cards,
// AP tokens, terrain tiles, turn-order spaces) and the players. Targets: a hex (deploy,
// move to, camp, clear, unearth, place at...), a card, an AP token, a tile, a turn-order
// space, and buttons for the decisions without a place on the board.
import { button, esc, frame, targetMap, text } from "./svg.js";

const SIZE = 34;
const ROOT3 = Math.sqrt(3);
const COLOURS = { red: "#c0392b", blue: "#2471a3", yellow: "#d4ac0d", green: "#239b56" };
const FILL = {
  jungle: "#a3b18a", base_camp: "#8d6e63", temple: "#e0b07a", clearing: "#dde5b6",
  ruins: "#b08968", lake: "#6fb7e0", volcano: "#9d3c2e",
};
const BUTTON_KINDS = new Set(["End", "Pass", "Activate", "Stone", "Trade", "Rotate", "Choose", "Side", "Recruit", "Power", "Give", "Take"]);

function keyOf(action) {
  const hex = action.to_hex || action.hex;
  switch (action.kind) {
    case "Deploy": case "Move": case "Transfer": case "At": case "Camp": case "Clear":
    case "Guardian": case "Unearth": case "Token": return hex ? `hex-${hex}` : null;
    case "TakeCard": case "Keep": case "Play": case "Discard": case "Use": return `card-${action.card}`;
    case "TakeAP": return `ap-${action.value}`;
    case "TakeTile": case "PlaceTile": return `tile-${action.tile}`;
    case "TakeStatuette": return `statuette-${action.space}`;
    default: return BUTTON_KINDS.has(action.kind) ? `button-${action.text}` : null;
  }
}

export function label(action) {
  return action.kind === "End" ? "End" : action.text;
}

function centre(hex, origin) {
  return [origin[0] + SIZE * ROOT3 * (hex.q + hex.r / 2), origin[1] + SIZE * 1.5 * hex.r];
}

function hexPath(x, y, size) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function drawHex(hex, x, y, colours) {
  const fill = hex.kind === "jungle" && hex.tile ? "#6a994e" : FILL[hex.kind] || "#ccc";
  let s = `<g data-target="hex-${esc(hex.name)}"><polygon points="${hexPath(x, y, SIZE - 1)}" fill="${fill}" stroke="${hex.dotted ? "#bbb" : "#5c4d3c"}"${hex.dotted ? ' stroke-dasharray="4 3"' : ""}/>`;
  s += text(x, y - SIZE + 16, hex.name, { size: 9, anchor: "middle", fill: "#3d3128" });
  if (hex.kind === "temple") s += text(x, y + 5, String(hex.level), { size: 17, anchor: "middle", weight: "bold" });
  if (hex.kind === "ruins") s += text(x, y + 5, `◆${hex.treasures}`, { size: 12, anchor: "middle" });
  if (hex.kind === "volcano") s += text(x, y + 5, "▲", { size: 14, anchor: "middle", fill: "#fff" });
  if (hex.camp !== null && hex.camp !== undefined) {
    const c = hex.camp === "common" ? "#5c4d3c" : COLOURS[colours[hex.camp]];
    s += `<rect x="${x - 24}" y="${y - 6}" width="9" height="9" fill="${c}" stroke="white"/>`;
  }
  if (hex.guardian !== null && hex.guardian !== undefined) {
    s += text(x + 20, y - 2, "★", { size: 13, anchor: "middle", fill: COLOURS[colours[hex.guardian]] });
  }
  hex.ems.forEach((em, seat) => {
    const count = em.explorers + em.leaders;
    if (!count) return;
    const ex = x - 14 + seat * 10, ey = y + 15;
    s += `<circle cx="${ex}" cy="${ey}" r="${em.leaders ? 6 : 5}" fill="${COLOURS[colours[seat]]}" stroke="${em.leaders ? "#fff" : "none"}"/>`;
    if (count > 1) s += text(ex, ey + 3, String(count), { size: 8, anchor: "middle", fill: "#fff", weight: "bold" });
  });
  return s + "</g>";
}

function drawEdges(edges, byName, origin) {
  let s = "";
  for (const edge of edges) {
    if (!edge.cost) continue;
    const [a, b] = edge.hexes.map((n) => centre(byName[n], origin));
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    s += `<circle cx="${mx.toFixed(1)}" cy="${my.toFixed(1)}" r="6" fill="#f4efe6" stroke="#5c4d3c"/>` +
      text(mx, my + 3.5, String(edge.cost), { size: 9, anchor: "middle", weight: "bold" });
  }
  return s;
}

function chip(key, x, y, w, label_, fill = "#fffdf8") {
  return `<g data-target="${esc(key)}"><rect x="${x}" y="${y}" width="${w}" height="26" rx="5" fill="${fill}" stroke="#7a6f66"/>` +
    text(x + w / 2, y + 17, label_, { size: 12, anchor: "middle" }) + "</g>";
}

function drawRoundBoard(v, x0, y0, ctx) {
  const colours = v.colours;
  let s = text(x0, y0, `Round ${v.round} of ${v.rounds} · ${v.phase.replace("_", " ")}`, { size: 17, weight: "bold" });
  const question = v.pending && v.pending.question;
  if (question) s += text(x0, y0 + 20, question.length > 60 ? question.slice(0, 58) + "…" : question, { size: 12, fill: "#7a6f66" });
  s += text(x0, y0 + 44, "Cards", { size: 13, weight: "bold" });
  v.cards.display.forEach((card, i) => { s += chip(`card-${card}`, x0 + (i % 3) * 112, y0 + 50 + Math.floor(i / 3) * 30, 106, card); });
  let y = y0 + 50 + Math.ceil(v.cards.display.length / 3) * 30 + 14;
  s += text(x0, y, `AP tokens (bag ${v.ap_tokens.bag})`, { size: 13, weight: "bold" });
  v.ap_tokens.display.forEach((value, i) => { s += chip(`ap-${value}`, x0 + i * 48, y + 6, 42, String(value), "#fdf3dc"); });
  y += 46;
  s += text(x0, y, "Terrain tiles", { size: 13, weight: "bold" });
  v.tiles.display.forEach((tile, i) => { s += chip(`tile-${tile}`, x0 + i * 56, y + 6, 50, tile, "#e9edc9"); });
  const own = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  if (own) own.campsite.tiles.forEach((tile, i) => { s += chip(`tile-${tile}`, x0 + 180 + i * 56, y + 6, 50, tile, "#dde5b6"); });
  y += 46;
  if (own) {
    const cards = [...own.campsite.right.map((c) => ({ ...c, side: "right" })), ...own.campsite.left.map((c) => ({ ...c, side: "left" }))];
    s += text(x0, y, "Your cards (campsite)", { size: 13, weight: "bold" });
    cards.forEach((c, i) => {
      s += chip(`card-${c.card}`, x0 + (i % 3) * 112, y + 6 + Math.floor(i / 3) * 30, 106,
        `${c.card}${c.face_down ? " (used)" : ""}`, c.side === "left" ? "#fdf3dc" : "#fffdf8");
    });
    y += 16 + Math.max(1, Math.ceil(cards.length / 3)) * 30;
  }
  s += text(x0, y, "Next round's order", { size: 13, weight: "bold" });
  v.next_order.forEach((seat, i) => {
    const fill = seat === null ? "#fffdf8" : COLOURS[colours[seat]];
    s += chip(`statuette-${i + 1}`, x0 + i * 48, y + 6, 42, String(i + 1), fill);
  });
  return { svg: s, bottom: y + 40 };
}

function drawPlayers(v, ctx, x0, y0) {
  let s = "";
  v.players.forEach((p, i) => {
    const y = y0 + i * 78;
    const toMove = !ctx.terminal && ctx.current === p.seat;
    s += `<rect x="${x0}" y="${y}" width="340" height="72" rx="8" fill="${toMove ? "#e7f1ee" : "white"}" stroke="${toMove ? "#2f7d6d" : "#e2d9c8"}"/>`;
    s += `<circle cx="${x0 + 16}" cy="${y + 18}" r="8" fill="${COLOURS[p.colour]}"/>`;
    const name = ctx.seats[p.seat]?.name ?? `seat ${p.seat}`;
    s += text(x0 + 30, y + 22, `${toMove ? "▶ " : ""}${name}${p.seat === ctx.seat ? " (you)" : ""} · ${p.prestige} PP`, { size: 14, weight: "bold" });
    s += text(x0 + 10, y + 42, `explorers ${p.available.explorers} · leaders ${p.available.leaders} · camps ${p.camps_in_reserve} · guardians ${p.guardians}`, { size: 11 });
    const museum = Object.entries(p.museum).filter(([, n]) => n).map(([t, n]) => `${t} ${n}`).join(", ") || "no treasures";
    const cards = [...p.campsite.right, ...p.campsite.left].map((c) => c.card).join(" ");
    s += text(x0 + 10, y + 60, `${museum}${cards ? " · cards: " + cards : ""}`.slice(0, 64), { size: 11, fill: "#7a6f66" });
  });
  return s;
}

function drawButtons(legal, x0, y0) {
  let s = "", x = x0, y = y0;
  const seen = new Set();
  for (const a of legal) {
    const key = keyOf(a);
    if (!key || !key.startsWith("button-") || seen.has(key)) continue;
    seen.add(key);
    const name = label(a);
    const width = Math.max(70, name.length * 10 + 28);
    if (x + width > x0 + 560) { x = x0; y += 42; }
    s += button(key, x, y, width, 34, name);
    x += width + 8;
  }
  return { svg: s, bottom: seen.size ? y + 44 : y0 };
}

export function render(ctx) {
  const v = ctx.view;
  const hexes = v.board.hexes;
  const xs = hexes.map((h) => h.q + h.r / 2);
  const minX = Math.min(...xs), maxX = Math.max(...xs), maxR = Math.max(...hexes.map((h) => h.r));
  const origin = [SIZE * ROOT3 * -minX + SIZE + 6, SIZE + 10];
  const boardW = SIZE * ROOT3 * (maxX - minX) + 2 * SIZE + 12;
  const boardH = SIZE * 1.5 * maxR + 2 * SIZE + 20;
  const byName = Object.fromEntries(hexes.map((h) => [h.name, h]));
  let body = "";
  for (const hex of hexes) {
    const [x, y] = centre(hex, origin);
    body += drawHex(hex, x, y, v.colours);
  }
  body += drawEdges(v.board.edges, byName, origin);
  const buttons = drawButtons(ctx.legal, 10, boardH + 6);
  body += buttons.svg;
  const side = boardW + 16;
  const round = drawRoundBoard(v, side, 24, ctx);
  body += round.svg;
  body += drawPlayers(v, ctx, side, round.bottom);
  const width = side + 350;
  const height = Math.max(buttons.bottom, round.bottom + v.players.length * 78) + 10;
  body = `<rect width="${width}" height="${height}" rx="12" fill="#f4efe6"/>` + body;
  return { svg: frame(width, height, body, "Tikal board"), targets: targetMap(ctx.legal, keyOf) };
}
