// Board of Tikal Legend, drawn from a seat's view (see docs/tikal_state.md) and the game's
// catalogue (what each card, tile and director power does). The site board is SVG (hexes
// with terrain, temple levels, Trail Stone costs, camps, Guardians and each seat's EMs as a
// count per colour); the Round Management board, the decision buttons and the players are
// HTML so that their text wraps on a phone. Every element has details (data-tip) and the
// legal targets of the pending decision are highlighted, the other hexes dimmed.
//
// Targets: a hex (deploy, move to, camp, clear, guardian, unearth, place a tile, Trail
// Stone...), a card on offer (take) or on your campsite (play, keep, use, discard), an AP
// token on offer (take) or yours (activate), a terrain tile on offer (take) or yours
// (place), a turn-order space (statuette), a director power, a treasure of a museum
// (trade), and buttons for the decisions without a place (end, pass, recruit, sides...).
import { esc, targetMap } from "./svg.js";
import { icon, iconAt } from "./icons.js";

const SIZE = 40;
const ROOT3 = Math.sqrt(3);
const COLOURS = { red: "#c0392b", blue: "#2471a3", yellow: "#d4ac0d", green: "#239b56" };
const INK_ON = { red: "#fff", blue: "#fff", yellow: "#2b2521", green: "#fff" };
const FILL = {
  jungle: "#a3b18a", base_camp: "#8d6e63", temple: "#e0b07a", clearing: "#dde5b6",
  ruins: "#b08968", lake: "#6fb7e0", volcano: "#9d3c2e",
};
const KIND_NAME = {
  jungle: "Jungle", base_camp: "Base Camp", temple: "Temple", clearing: "Clearing",
  ruins: "Ruins", lake: "Lake", volcano: "Volcano",
};
const SIDE_NAME = { ne: "north-east", e: "east", se: "south-east", sw: "south-west", w: "west", nw: "north-west" };
const PHASE = {
  round_management: "Round Management", action: "Action phase", final_scoring: "Final Scoring", over: "Game over",
};

// --- which element stands for which action ----------------------------------------------
function keyOf(action) {
  const hex = action.to_hex || action.hex;
  switch (action.kind) {
    case "Deploy": case "Move": case "Transfer": case "At": case "Camp": case "Clear":
    case "Guardian": case "Unearth": case "Token": return hex ? `hex-${hex}` : null;
    case "TakeCard": return `offer-card-${action.card}`;
    case "Keep": case "Play": case "Discard": case "Use": return `camp-card-${action.card}`;
    case "TakeAP": return `ap-${action.value}`;
    case "Activate": return "my-ap";
    case "TakeTile": return `offer-tile-${action.tile}`;
    case "PlaceTile": return `camp-tile-${action.tile}`;
    case "TakeStatuette": return `statuette-${action.space}`;
    case "Power": return `power-${action.power}`;
    case "Take": return `museum-${action.player}-${action.treasure}`;
    case "Give": return `give-${action.treasure}`;
    default: return `button-${action.text}`;
  }
}

const COST_OF = { Deploy: "deploy", Transfer: "transfer", Clear: "clear_floor", Guardian: "guardian", Unearth: "unearth",
  Camp: "base_camp", Stone: "trail_stone", Trade: "trade" };
const PAID_WITH_AP = new Set(["token", "alone", "volcano", "final"]);  // contexts of the "ap" decision

// What an action of the AP decision costs (issue 23: a move cost 4 AP, learned afterwards):
// a move, the Trail Stones crossed (the edge's cost) times the AP per stone; the others,
// the catalogue's AP costs. "" outside an AP decision or where the card pays.
export function apCost(action, view = lastView, catalogue = lastCatalogue) {
  const pending = view && view.pending;
  const costs = catalogue && catalogue.ap_costs;
  if (!pending || pending.kind !== "ap" || !costs) return "";
  if (action.kind === "Move") {
    const stones = edgeCost(view, action.from_hex, action.to_hex);
    if (stones === null) return "";
    const n = stones * costs.move_per_stone;
    return pending.context === "moves" ? `${n} move point${n === 1 ? "" : "s"}` : `${n} AP`;
  }
  if (!PAID_WITH_AP.has(pending.context)) return "";
  const key = action.kind === "Recruit" ? (action.figure === "leader" ? "recruit_leader" : "recruit_explorer") : COST_OF[action.kind];
  return key && costs[key] !== undefined ? `${costs[key]} AP` : "";
}

function edgeCost(view, a, b) {
  if (!view.board || !view.board.edges) return null;
  if (edgeIndex.edges !== view.board.edges) {
    edgeIndex.edges = view.board.edges;
    edgeIndex.cost = new Map(view.board.edges.map((e) => [e.hexes.slice().sort().join("|"), e.cost]));
  }
  const cost = edgeIndex.cost.get([a, b].sort().join("|"));
  return cost === undefined ? null : cost;
}
const edgeIndex = { edges: null, cost: new Map() };

export function label(action, catalogue = lastCatalogue) {
  const text = labelText(action, catalogue);
  const cost = apCost(action, lastView, catalogue);
  return cost ? `${text} (${cost})` : text;
}

function labelText(action, catalogue) {
  const cards = (catalogue && catalogue.cards) || {};
  const title = (name) => (cards[name] ? `${cards[name].title} (${name})` : name);
  const figure = (f) => (f === "leader" ? "Leader" : "Explorer");
  switch (action.kind) {
    case "End": return "End (finish this step)";
    case "Pass": return "Pass (done for this round)";
    case "Activate": return "Activate your AP token";
    case "Stone": return "Place a Trail Stone";
    case "Trade": return "Trade treasures";
    case "Recruit": return action.figure === "leader" ? "Recruit a Leader" : "Recruit an Explorer";
    case "Deploy": return `Deploy ${action.figure === "leader" ? "your Leader" : "an Explorer"} at ${action.hex}`;
    case "Move": return `Move ${figure(action.figure)} ${action.from_hex}\u00a0→\u00a0${action.to_hex}`;
    case "Transfer": return `${figure(action.figure)} from Base Camp ${action.from_hex}\u00a0→\u00a0${action.to_hex}`;
    case "Camp": return action.from_hex ? `Move your Base Camp ${action.from_hex}\u00a0→\u00a0${action.hex}` : `Set up a Base Camp at ${action.hex}`;
    case "Clear": return `Clear a floor of the Temple at ${action.hex}`;
    case "Guardian": return `Place a Guardian (${action.figure}) at ${action.hex}`;
    case "Unearth": return `Unearth a treasure at ${action.hex}`;
    case "At": return `Choose ${action.hex}`;
    case "Token": return `Move the Trail Stone at ${action.hex}, ${SIDE_NAME[action.side] || action.side} side`;
    case "Side": return `The ${SIDE_NAME[action.side] || action.side} side`;
    case "Rotate": return `Rotate ${action.turns} × 60°`;
    case "Choose": return `Choose: ${action.option}`;
    case "TakeCard": return `Take ${title(action.card)}`;
    case "Play": return `Play ${title(action.card)}${action.kept ? " (kept)" : ""}`;
    case "Keep": return `Keep ${title(action.card)} (move it left)`;
    case "Use": return `Use ${title(action.card)}${action.kept ? " (kept)" : ""}`;
    case "Discard": return `Discard ${title(action.card)}`;
    case "TakeAP": return `Take the AP token ${action.value}`;
    case "TakeTile": return `Take tile ${action.tile}`;
    case "PlaceTile": return `Place tile ${action.tile}`;
    case "TakeStatuette": return `Statuette on space ${action.space} (next round's order)`;
    case "Power": return `Use the power ${cap(action.power)}`;
    case "Take": return `Trade: ${action.text}`;
    case "Give": return `Give a ${action.treasure}`;
    default: return action.text;
  }
}

let lastCatalogue = {};  // label() is also called for the page's list of moves
let lastView = null;     // (and the AP costs it shows come from the view drawn last)

function cap(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

function attrs(key, tip, targets, rules = null) {
  let s = "";
  if (key && targets[key]) s += ` data-target="${esc(key)}"`;
  if (tip) s += ` data-tip="${esc(tip)}"`;
  if (tip && rules) s += ` data-rules="${esc(rules)}"`;
  return s;
}

// Sections of the rules page (/rules/GAME#ANCHOR) that the details of each kind link to.
const RULES = {
  components: "components",
  cards: "action-cards",
  round: "the-round",
  scoring: "scoring",
  directors: "museum-directors",
};

// The rules page's section of a catalogue item (its details link there).
function rulesAt(anchor) {
  return ` data-rules="${esc(anchor)}"`;
}

// The places a move touched, read from its notation (its words: hex names, tile and card
// ids; the board marks those it has): for servers whose log entries carry no "places".
export function places(text) {
  return text.split(/\s+/).filter((word) => /^[A-Za-z]+(-[A-Za-z0-9]+)*$|^[a-l]\d{1,2}$|^[A-Z]-\d+$/.test(word) && word.length > 1);
}

// --- the player panels (table.js: the side column, the phone's action bar) -----------------
// A seat's AP token, treasures, cards and figures at a glance (the score is next to it).
export function panel(ctx, seat) {
  const p = ctx.view.players && ctx.view.players[seat];
  if (!p) return "";
  const camp = p.campsite;
  const treasures = Object.values(p.museum).reduce((a, n) => a + n, 0);
  const cards = camp.right.length + camp.left.length;
  const item = (name, value, title) => `<span class="res-i" title="${esc(title)}">${icon(name, { size: 17 })}<b>${esc(String(value))}</b></span>`;
  return item("ap", camp.ap_token ?? "–", camp.ap_token !== null && camp.ap_token !== undefined ? `AP token ${camp.ap_token}` : "no AP token") +
    item("treasure", treasures, `${treasures} treasure${treasures === 1 ? "" : "s"} in the museum`) +
    item("card", cards, `${cards} action card${cards === 1 ? "" : "s"} on the campsite`) +
    item("explorer", p.available.explorers, `${p.available.explorers} Explorers in the Available Supply`) +
    item("leader", p.available.leaders, `${p.available.leaders} Leaders in the Available Supply`) +
    (p.passed ? '<span class="badge">passed</span>' : "");
}

// --- the site board (SVG) -----------------------------------------------------------------
function centre(hex, origin) {
  return [origin[0] + SIZE * ROOT3 * (hex.q + hex.r / 2), origin[1] + SIZE * 1.5 * hex.r];
}

function hexPoints(x, y, size) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function t(x, y, value, { size = 12, anchor = "middle", weight = "normal", fill = "#2b2521" } = {}) {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-size="${size}" text-anchor="${anchor}" font-weight="${weight}" fill="${fill}">${esc(value)}</text>`;
}

function seatName(ctx, seat) {
  return ctx.seats[seat]?.name ?? `seat ${seat}`;
}

function emText(em) {
  const parts = [];
  if (em.explorers) parts.push(em.explorers === 1 ? "1 Explorer" : `${em.explorers} Explorers`);
  if (em.leaders) parts.push(em.leaders === 1 ? "1 Leader" : `${em.leaders} Leaders`);
  return parts.join(" + ");
}

function hexTip(hex, v, ctx) {
  const c = ctx.catalogue;
  let head = `${hex.name} · ${KIND_NAME[hex.kind] || hex.kind}`;
  if (hex.kind === "temple") head += `, level ${hex.level}`;
  if (hex.kind === "ruins") head += `: ${hex.treasures} treasure${hex.treasures === 1 ? "" : "s"} left, ${hex.visible_masks} of ${hex.masks} masks visible`;
  if (hex.tile) head += ` (tile ${hex.tile})`;
  const lines = [head];
  if (hex.dotted && !hex.tile) lines.push("Dotted border hex: only symbol tiles from action cards go here.");
  hex.ems.forEach((em, seat) => {
    if (em.explorers || em.leaders) lines.push(`${seatName(ctx, seat)} (${v.colours[seat]}): ${emText(em)}${hex.majority === seat ? " — majority" : ""}`);
  });
  if (hex.guardian !== null && hex.guardian !== undefined) lines.push(`Guarded by ${seatName(ctx, hex.guardian)}: only they score it, no more floors`);
  if (hex.camp === "common") lines.push("The Common Base Camp");
  else if (hex.camp !== null && hex.camp !== undefined) lines.push(`Base Camp of ${seatName(ctx, hex.camp)}`);
  if (c.terrain && c.terrain[hex.kind] && !(hex.kind === "jungle" && hex.dotted)) lines.push(c.terrain[hex.kind]);
  return lines.join("\n");
}

function emBadges(hex, x, y, colours) {
  const present = hex.ems.map((em, seat) => ({ ...em, seat })).filter((em) => em.explorers || em.leaders);
  let s = "";
  present.forEach((em, i) => {
    const label = `${em.explorers || ""}${em.leaders ? (em.explorers ? "+L" : "L") : ""}${em.leaders > 1 ? em.leaders : ""}`;
    const w = 8 + label.length * 7.5;
    const row = Math.floor(i / 2), col = i % 2;
    const count = Math.min(2, present.length - row * 2);
    const bx = x - (count * (w + 3)) / 2 + col * (w + 3) + 1.5;
    const by = y + 6 + row * 16;
    const colour = colours[em.seat];
    s += `<rect x="${bx.toFixed(1)}" y="${by.toFixed(1)}" width="${w.toFixed(1)}" height="14" rx="7" fill="${COLOURS[colour]}" stroke="${hex.majority === em.seat ? "#fff" : "rgba(0,0,0,.35)"}" stroke-width="${hex.majority === em.seat ? 2 : 1}"/>`;
    s += t(bx + w / 2, by + 11, label, { size: 11, weight: "bold", fill: INK_ON[colour] });
  });
  return s;
}

function drawHex(hex, x, y, v, ctx, targets, dim) {
  const key = `hex-${hex.name}`;
  const target = Boolean(targets[key]);
  const fill = hex.kind === "jungle" && hex.tile ? "#6a994e" : FILL[hex.kind] || "#ccc";
  let s = `<g class="tk-hex${dim && !target ? " tk-dim" : ""}" data-place="${esc(hex.name)}"${attrs(key, hexTip(hex, v, ctx), targets, RULES.components)}>`;
  s += `<polygon points="${hexPoints(x, y, SIZE - 1)}" fill="${fill}" stroke="${hex.dotted ? "#c9c1b3" : "#5c4d3c"}"${hex.dotted ? ' stroke-dasharray="4 3"' : ""}/>`;
  if (target) s += `<polygon class="tk-ring" points="${hexPoints(x, y, SIZE - 6)}" fill="none"/>`;
  s += t(x, y - SIZE + 15, hex.name, { size: 9, fill: "#3d3128" });
  if (hex.kind === "temple") s += iconAt("temple", x - 19, y - 8, 15) + `<g class="tk-level">${t(x - 1, y - 1, String(hex.level), { size: 19, weight: "bold" })}</g>`;
  if (hex.kind === "ruins") {
    s += iconAt("treasure", x - 17, y - 7, 13) + t(x - 7, y - 2, String(hex.treasures), { size: 11, weight: "bold" }) +
      iconAt("mask", x + 7, y - 7, 13) + t(x + 17, y - 2, String(hex.visible_masks), { size: 11, weight: "bold" });
  }
  if (hex.kind === "volcano") s += iconAt("volcano", x, y - 8, 24);
  if (hex.kind === "lake") s += iconAt("lake", x, y - 8, 22);
  if (hex.kind === "clearing") s += iconAt("clearing", x, y - 8, 18);
  if (hex.kind === "base_camp") s += iconAt("base_camp", x, y - 9, 18);
  if (hex.camp !== null && hex.camp !== undefined) {
    const c = hex.camp === "common" ? "#5c4d3c" : COLOURS[v.colours[hex.camp]];
    s += `<path d="M${x - 29} ${y - 1} l6 -10 l6 10 z" fill="${c}" stroke="#fff"/>`;
  }
  if (hex.guardian !== null && hex.guardian !== undefined) {
    // top right, clear of a temple's value (two digits reach x + 11)
    s += `<g class="tk-guardian"><circle cx="${(x + 23).toFixed(1)}" cy="${(y - 17).toFixed(1)}" r="8" fill="${COLOURS[v.colours[hex.guardian]]}"/>` + iconAt("guardian", x + 23, y - 17, 13) + "</g>";
  }
  s += emBadges(hex, x, y, v.colours);
  return s + "</g>";
}

function drawEdges(edges, byName, origin) {
  let s = "";
  for (const edge of edges) {
    if (!edge.cost) continue;
    const [a, b] = edge.hexes.map((n) => centre(byName[n], origin));
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    const token = edge.tokens ? ' stroke-width="2.5" stroke="#c98a2b"' : ' stroke="#5c4d3c"';
    s += `<circle cx="${mx.toFixed(1)}" cy="${my.toFixed(1)}" r="6.5" fill="#f4efe6"${token}/>` +
      t(mx, my + 3.5, String(edge.cost), { size: 9.5, weight: "bold" });
  }
  return s;
}

function drawMap(v, ctx, targets) {
  const hexes = v.board.hexes;
  const xs = hexes.map((h) => h.q + h.r / 2);
  const minX = Math.min(...xs), maxX = Math.max(...xs), maxR = Math.max(...hexes.map((h) => h.r));
  const origin = [SIZE * ROOT3 * -minX + SIZE * ROOT3 / 2 + 4, SIZE + 4];
  const width = SIZE * ROOT3 * (maxX - minX + 1) + 8;
  const height = SIZE * 1.5 * maxR + 2 * SIZE + 8;
  const byName = Object.fromEntries(hexes.map((h) => [h.name, h]));
  const dim = hexes.some((h) => targets[`hex-${h.name}`]);
  let body = "";
  for (const hex of hexes) {
    const [x, y] = centre(hex, origin);
    body += drawHex(hex, x, y, v, ctx, targets, dim);
  }
  body += drawEdges(v.board.edges, byName, origin);
  const pending = v.pending;
  const turns = ctx.legal.filter((a) => a.kind === "Rotate").map((a) => a.turns);
  if (pending && pending.kind === "tile" && pending.hex && pending.tile && turns.length && byName[pending.hex]) {
    const [x, y] = centre(byName[pending.hex], origin);
    const tile = (ctx.catalogue.tiles || {})[pending.tile];
    body += turns.map((k, i) => tilePreview(tile, x, y, k, i === 0)).join("");
  }
  return `<svg class="tk-map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width.toFixed(0)} ${height.toFixed(0)}" role="img" aria-label="Tikal site board">${body}</svg>`;
}

// Where the tile being placed will go, turned as the rotation button under the pointer
// says (the first rotation on offer while none is pointed at): CSS shows one of these.
function tilePreview(tile, x, y, turns, first) {
  if (!tile) return "";
  let s = `<polygon points="${hexPoints(x, y, SIZE - 3)}" fill="${FILL[tile.type] || "#ccc"}" fill-opacity=".9" stroke="#d6336c" stroke-width="3"/>`;
  tile.stones.forEach((_, side) => {
    const n = tile.stones[(side - turns + 6) % 6];
    if (!n) return;
    const angle = (Math.PI / 180) * (60 * side - 60);
    const sx = x + (SIZE - 12) * Math.cos(angle), sy = y + (SIZE - 12) * Math.sin(angle);
    s += `<circle cx="${sx.toFixed(1)}" cy="${sy.toFixed(1)}" r="7" fill="#fffdf8" stroke="#d6336c" stroke-width="1.5"/>` +
      t(sx, sy + 3.5, String(n), { size: 10, weight: "bold" });
  });
  if (tile.type === "temple") s += t(x, y + 6, String(tile.value), { size: 18, weight: "bold" });
  else if (["volcano", "lake", "clearing", "jungle", "ruins"].includes(tile.type)) s += iconAt(tile.type === "ruins" ? "mask" : tile.type, x, y, 22);
  return `<g class="tk-preview${first ? " default" : ""}" data-rotate="${turns}" pointer-events="none">${s}</g>`;
}

// --- small pieces (HTML) ------------------------------------------------------------------
function miniTile(id, tile, rotation = 0) {
  if (!tile) return "";
  const r = 17, x = 20, y = 20;
  let s = `<polygon points="${hexPoints(x, y, r)}" fill="${FILL[tile.type] || "#ccc"}" stroke="#5c4d3c"/>`;
  if (tile.type === "temple") s += t(x, y + 4, String(tile.value), { size: 11, weight: "bold" });
  else if (tile.type === "ruins") s += iconAt("mask", x - 3, y, 10) + t(x + 5, y + 4, String(tile.masks), { size: 9, weight: "bold" });
  else if (["volcano", "lake", "clearing", "jungle"].includes(tile.type)) s += iconAt(tile.type, x, y, 13);
  tile.stones.forEach((_, side) => {
    const n = tile.stones[(side - rotation + 6) % 6];
    if (!n) return;
    const angle = (Math.PI / 180) * (60 * side - 60);
    const sx = x + 13 * Math.cos(angle), sy = y + 13 * Math.sin(angle);
    s += `<circle cx="${sx.toFixed(1)}" cy="${sy.toFixed(1)}" r="4.6" fill="#f4efe6" stroke="#5c4d3c" stroke-width=".6"/>` +
      t(sx, sy + 2.6, String(n), { size: 7, weight: "bold", fill: "#2b2521" });
  });
  return `<svg class="tk-minitile" viewBox="0 0 40 40" aria-label="${esc(id)}">${s}</svg>`;
}

function tileTip(id, c) {
  const tile = c.tiles && c.tiles[id];
  if (!tile) return id;
  const stones = tile.stones.map((n, i) => `${c.sides[i]} ${n}`).join(", ");
  return `${id}: ${tile.title}\nTrail Stones printed on its sides (ne, e, se, sw, w, nw; before rotation): ${stones}\n${(c.terrain || {})[tile.type] || ""}`;
}

function tileChip(id, key, c, targets, extraTip = "") {
  const tile = c.tiles && c.tiles[id];
  return `<div class="tk-chip tk-tile" data-place="${esc(id)}"${attrs(key, tileTip(id, c) + extraTip, targets, RULES.components)}>${miniTile(id, tile)}<span><b>${esc(id)}</b><small>${esc(tile ? tile.title : "")}</small></span></div>`;
}

// What an action card does, as pictures: from its effect and parameters in the data file
// (cards.json), with the count it allows ("×2"), so a card reads without hovering.
const TILE_ICONS = { T: "temple", L: "lake", V: "volcano" };

function cardIcons(card, c) {
  if (!card || !card.effect) return [];
  const p = card.params || {};
  switch (card.effect) {
    case "treasure_pair": return [["treasure", 2]];
    case "explorers_to_ruin": return [["explorer", p.explorers], ["ruins"]];
    case "unearth": return [["dig", p.times], ["treasure"]];
    case "explorers_to_temples": return [["explorer", p.explorers], ["temple"]];
    case "clear_floors": return [["floors", p.floors]];
    case "base_camp": return p.with_em ? [["base_camp"], ["explorer"]] : [["base_camp"]];
    case "recruit": return [["leader", p.leaders], ["explorer", p.explorers]];
    case "recruit_explorers": return [["explorer", p.explorers]];
    case "moves": return [["steps", p.points]];
    case "trail_stone": return [["trail"]];
    case "bonus_ap": return [["ap", p.ap]];
    case "symbol_tile": {
      const tile = (c.tiles || {})[p.tile];
      return [[TILE_ICONS[String(p.tile || "")[0]] || (tile && tile.type) || "jungle"]];
    }
    default: return [];
  }
}

function cardIconsHtml(card, c) {
  return cardIcons(card, c).map(([name, count]) =>
    `<span class="tk-card-ic">${icon(name, { size: 18 })}${count && count > 1 ? `<small>×${count}</small>` : ""}</span>`).join("");
}

function cardChip(entry, key, c, targets) {
  const card = (c.cards || {})[entry.card];
  const classes = ["tk-chip", "tk-card"];
  if (card && card.permanent) classes.push("permanent");
  if (entry.face_down) classes.push("used");
  if (entry.side === "left") classes.push("kept");
  let tip = card ? `${card.title} (${entry.card})\n${card.text}` : entry.card;
  if (entry.side === "left") tip += "\nKept on the left of the campsite.";
  if (entry.face_down) tip += "\nUsed this round (face down).";
  return `<div class="${classes.join(" ")}" data-place="${esc(entry.card)}"${attrs(key, tip, targets, RULES.cards)}><span class="tk-card-icons">${cardIconsHtml(card, c)}</span><b>${esc(card ? card.title : entry.card)}</b><small>${esc(entry.card)}${entry.side === "left" ? " · kept" : ""}${entry.face_down ? " · used" : ""}</small></div>`;
}

function section(title, body, tip = "") {
  return `<section class="tk-section"><h3${tip ? ` data-tip="${esc(tip)}"` : ""}>${esc(title)}</h3>${body}</section>`;
}

// --- the Round Management board and the supplies --------------------------------------------
function drawOffer(v, ctx, targets) {
  const c = ctx.catalogue;
  let s = "";
  const cards = v.cards.display.map((name) => cardChip({ card: name }, `offer-card-${name}`, c, targets)).join("");
  s += section("Action cards on offer", `<div class="tk-row">${cards || '<span class="muted">none</span>'}</div>`,
    `Deck: ${typeof v.cards.deck === "number" ? v.cards.deck : v.cards.deck.length} cards · discard pile: ${v.cards.discard.length}`);
  const bag = typeof v.ap_tokens.bag === "number" ? v.ap_tokens.bag : v.ap_tokens.bag.length;
  const tokens = v.ap_tokens.display.map((value) =>
    `<div class="tk-chip tk-ap"${attrs(`ap-${value}`, `AP token worth ${value} Action Points: spend them on AP actions when you activate it`, targets, RULES.round)}><b>${value}</b><small>AP</small></div>`).join("");
  const last = v.round >= v.rounds || v.phase === "final_scoring" || v.phase === "over";
  const none = v.phase === "round_management" ? "none left" : last ? "all taken (last round)" : `all taken this round; ${v.num_players} drawn next round`;
  s += section(`AP tokens (${bag} in the bag)`, `<div class="tk-row">${tokens || `<span class="muted">${none}</span>`}</div>`);
  const tiles = v.tiles.display.map((id) => tileChip(id, `offer-tile-${id}`, c, targets)).join("");
  const piles = Object.entries(v.tiles.piles).map(([k, n]) => `${k} ${typeof n === "number" ? n : n.length}`).join(" · ");
  s += section("Terrain tiles on offer", `<div class="tk-row">${tiles || `<span class="muted">none left; next from the piles</span>`}</div>`,
    `Piles, drawn in letter order: ${piles}`);
  const spaces = v.next_order.map((seat, i) => {
    const colour = seat === null ? null : v.colours[seat];
    const style = colour ? ` style="background:${COLOURS[colour]};color:${INK_ON[colour]}"` : "";
    const tip = seat === null ? `Space ${i + 1}: put your statuette here to play ${ordinal(i + 1)} next round` : `Space ${i + 1}: ${seatName(ctx, seat)} plays ${ordinal(i + 1)} next round`;
    return `<div class="tk-chip tk-statuette"${style}${attrs(`statuette-${i + 1}`, tip, targets, RULES.round)}><b>${i + 1}</b></div>`;
  }).join("");
  const order = v.order.map((seat) => esc(seatName(ctx, seat))).join("\u00a0→\u00a0");
  s += section("Next round's turn order", `<div class="tk-row">${spaces}<span class="muted">this round: ${order}</span></div>`);
  const sup = v.supply;
  const blue = Object.entries(sup.blue_treasures).filter(([, n]) => n).map(([k]) => k).join(", ") || "none";
  s += section("Supply", `<p class="tk-line">Trail Stones ${sup.trail_stones} · volcanoes ${sup.volcanoes} · face-down treasures ${typeof sup.face_down_treasures === "number" ? sup.face_down_treasures : sup.face_down_treasures.length}</p>` +
    `<p class="tk-line" data-tip="Unbuilt floors left per level: clearing a floor takes the next level's floor">Floors: ${Object.entries(sup.floors).map(([lv, n]) => `${lv}:${n}`).join(" ")}</p>` +
    `<p class="tk-line" data-tip="Blue-back treasure pairs, taken with the pair cards">Treasure pairs left: ${esc(blue)}</p>`);
  return s;
}

function ordinal(n) {
  return ["first", "second", "third", "fourth"][n - 1] || `#${n}`;
}

// --- players ------------------------------------------------------------------------------------
function museumValue(museum, sets) {
  return Object.values(museum).reduce((sum, n) => sum + (sets[Math.min(n, sets.length - 1)] || 0), 0);
}

function drawPlayer(p, v, ctx, targets) {
  const c = ctx.catalogue;
  const colour = p.colour;
  const you = p.seat === ctx.seat;
  const toMove = !ctx.terminal && ctx.current === p.seat;
  const name = seatName(ctx, p.seat);
  let s = `<div class="tk-player${toMove ? " to-move" : ""}${you ? " you" : ""}" style="--seat:${COLOURS[colour]}">`;
  s += `<div class="tk-ph"><span class="tk-dot"></span><b>${toMove ? "▶ " : ""}${esc(name)}${you ? (ctx.replay ? " (seen from here)" : " (you)") : ""}</b>` +
    `<span class="tk-pp" data-tip="Prestige Points (the score track)">${p.prestige} PP</span>${p.passed ? '<span class="badge">passed</span>' : ""}</div>`;
  s += `<p class="tk-line" data-tip="Available Supply (campsite) · Unavailable Supply (box): recruit from the box with AP or cards">` +
    `Supply: ${p.available.explorers} Explorers, ${p.available.leaders} Leader${p.available.leaders === 1 ? "" : "s"} · box: ${p.unavailable.explorers} + ${p.unavailable.leaders}L · ` +
    `Base Camps left ${p.camps_in_reserve} · Guardians ${p.guardians}/2</p>`;
  const camp = p.campsite;
  let row = "";
  if (camp.ap_token !== null && camp.ap_token !== undefined) {
    const key = you ? "my-ap" : null;
    row += `<div class="tk-chip tk-ap"${attrs(key, `AP token ${camp.ap_token}: activate it as your turn's action to spend ${camp.ap_token} AP`, targets)}><b>${camp.ap_token}</b><small>AP</small></div>`;
  }
  for (const id of camp.tiles) row += tileChip(id, you ? `camp-tile-${id}` : null, c, targets, "\nOn the campsite: place it on a Jungle hex as a turn's action.");
  const cards = [...camp.right.map((x) => ({ ...x, side: "right" })), ...camp.left.map((x) => ({ ...x, side: "left" }))];
  for (const entry of cards) row += cardChip(entry, you ? `camp-card-${entry.card}` : null, c, targets);
  if (camp.statuette_space) row += `<span class="muted tk-note">statuette on space ${camp.statuette_space}</span>`;
  s += `<div class="tk-row tk-campsite">${row || '<span class="muted">campsite empty</span>'}</div>`;
  const sets = c.treasure_sets || [];
  const treasures = Object.entries(p.museum).filter(([, n]) => n);
  const museum = treasures.map(([type, n]) => {
    const take = `museum-${p.seat}-${type}`, give = `give-${type}`;
    const key = targets[take] ? take : you && targets[give] ? give : null;
    return `<span class="tk-treasure"${attrs(key, `${n} ${type}${n === 1 ? "" : "s"}: ${sets[n] ?? "?"} PP`, targets, RULES.scoring)}>${esc(type)} ${n}</span>`;
  }).join(" ");
  s += `<p class="tk-line" data-tip="Treasures score per type: 1/2/3/4/5 of a kind = 1/3/6/10/15 PP">Museum: ${museum || '<span class="muted">no treasures</span>'}` +
    `${treasures.length ? ` <span class="muted">(${museumValue(p.museum, sets)} PP)</span>` : ""}</p>`;
  const d = p.director;
  const powers = d.powers.map((power) => {
    const info = (c.powers || {})[power];
    const used = d.used === power;
    const tip = `${cap(power)}: ${info ? info.text : ""}${d.used ? (used ? "\nUsed." : "\nThe director's one power has been used.") : "\nOnce per game, free, on your turn; an unused director scores " + (c.unused_director_bonus ?? 5) + " PP at the end."}`;
    return `<span class="tk-power${used ? " used" : ""}${d.used && !used ? " spent" : ""}"${attrs(you ? `power-${power}` : null, tip, targets, RULES.directors)}>${esc(cap(power))}</span>`;
  }).join(" ");
  s += `<p class="tk-line tk-director">Director ${esc(d.name)}: ${powers}</p>`;
  if (you && !d.used) {  // your own powers in words (others': on hover / tap)
    s += `<ul class="tk-powers">${d.powers.map((power) => `<li><b>${esc(cap(power))}</b>: ${esc(((c.powers || {})[power] || {}).text || "")}</li>`).join("")}</ul>`;
  }
  if (p.score_if_now) {
    const sc = p.score_if_now;
    s += `<p class="tk-line muted"${rulesAt(RULES.scoring)} data-tip="What a scoring now would give: temples ${sc.temples}, tallest ${sc.tallest}, volcanoes ${sc.volcanoes}, jungles ${sc.jungles}, lakes × ruins ${sc.lakes_ruins}, treasures ${sc.treasures}">A scoring now: +${sc.total} PP</p>`;
  }
  return s + "</div>";
}

// --- decisions without a place on the board -------------------------------------------------------
function drawButtons(legal, ctx, targets) {
  const seen = new Map();
  for (const a of legal) {
    const key = keyOf(a);
    if (key.startsWith("button-") && !seen.has(key)) seen.set(key, a);
  }
  const c = ctx.catalogue;
  const own = ctx.seat !== null && ctx.seat !== undefined ? ctx.view.players[ctx.seat] : null;
  return [...seen].map(([key, a]) => {
    let inner = esc(label(a, c));
    if (a.kind === "Rotate" && ctx.view.pending && ctx.view.pending.tile) {
      inner = miniTile(ctx.view.pending.tile, (c.tiles || {})[ctx.view.pending.tile], a.turns) + inner;
    }
    const tip = a.kind === "End" && own ? "Unspent AP are lost" : "";
    const rotate = a.kind === "Rotate" ? ` data-rotate="${a.turns}"` : "";
    return `<button type="button" class="tk-button"${rotate}${attrs(key, tip, targets)}>${inner}</button>`;
  }).join("");
}

// --- what to do now ---------------------------------------------------------------------------------
// Where to click for each kind of sub-decision (docs/tikal_state.md, "pending").
const WHERE = {
  ap: "click a highlighted hex (deploy at a Base Camp, move to, set up a camp, clear a floor, place a Guardian, unearth) or a button",
  stone: "click a highlighted hex, then choose its side",
  tile: "click a highlighted Jungle hex, then choose the rotation",
  discard: "click one of your kept cards",
  trade: "click a treasure in another player's museum",
  trade_give: "click one of your treasures to give back",
  journalist: "click a card on offer",
  ruin_place: "click a highlighted Ruin", temple_base: "click a highlighted Temple",
  dig: "click a highlighted Ruin", clear: "click a highlighted Temple",
  camp: "click a highlighted Clearing", relocate: "click a highlighted hex", fisher: "click a highlighted Lake",
};

function apCosts(c) {
  const k = c.ap_costs;
  if (!k) return "";
  return ` AP costs: deploy ${k.deploy}, move ${k.move_per_stone} per Trail Stone crossed, Base Camp to Base Camp ${k.transfer}, ` +
    `set up a Base Camp ${k.base_camp}, Trail Stone ${k.trail_stone}, recruit an Explorer ${k.recruit_explorer} / a Leader ${k.recruit_leader}, ` +
    `clear a floor ${k.clear_floor}, Guardian ${k.guardian}, unearth ${k.unearth}, trade ${k.trade}.`;
}

export function prompt(ctx) {
  const v = ctx.view;
  const pending = v.pending;
  const question = pending && pending.question;
  if (question) {
    let text = question[0].toUpperCase() + question.slice(1);
    const tile = pending.kind === "tile" && pending.tile && (ctx.catalogue.tiles || {})[pending.tile];
    if (tile) text += ` ${pending.tile} (${tile.title})`;
    if (pending.hex) text += ` at ${pending.hex}`;
    const rotating = pending.kind === "tile" && ctx.legal.some((a) => a.kind === "Rotate");
    const where = rotating ? "each button shows the tile turned, with the Trail Stones on its sides"
      : pending.kind === "stone" && pending.hex ? "choose the side"
      : pending.kind === "trade" && pending.step === "give" ? WHERE.trade_give : WHERE[pending.kind];
    if (where) text += `: ${where}`;
    return text + "." + (pending.kind === "ap" ? apCosts(ctx.catalogue) : "");
  }
  if (v.phase === "round_management") {
    return "Round Management: take one item for your campsite — your statuette (a space of next round's order), an AP token, a terrain tile or an action card.";
  }
  if (v.phase === "action") {
    return "Your turn: activate your AP token, play or keep a card, place a terrain tile (all on your campsite below), use your director's power, or pass when your campsite is used up.";
  }
  return "";
}

export function render(ctx) {
  const v = ctx.view;
  lastCatalogue = ctx.catalogue;
  lastView = v;
  const targets = targetMap(ctx.legal, keyOf);
  const phase = PHASE[v.phase] || v.phase;
  const scoring = v.scoring && v.scoring.kind ? ` · ${v.scoring.kind === "volcano" ? "In-Game Scoring (volcano)" : "Final Scoring"}` : "";
  const head = `<div class="tk-head"><b>Round ${v.round} of ${v.rounds}</b> · ${esc(phase)}${esc(scoring)}</div>`;
  const buttons = drawButtons(ctx.legal, ctx, targets);
  const side = head + (buttons ? `<div class="tk-buttons">${buttons}</div>` : "") + drawOffer(v, ctx, targets);
  const players = v.players.map((p) => drawPlayer(p, v, ctx, targets)).join("");
  const html = `<div class="tk"><div class="tk-top"><div class="tk-mapbox">${drawMap(v, ctx, targets)}</div>` +
    `<div class="tk-side">${side}</div></div><div class="tk-players">${players}</div></div>`;
  return { html, targets };
}

// --- end of the game: each scoring -------------------------------------------------------------------
export function summary(ctx) {
  const rows = (ctx.view.scorings || []).filter((x) => x.kind === "final");
  if (!rows.length) return "";
  const cells = (x) => ["temples", "tallest", "volcanoes", "jungles", "lakes_ruins", "treasures", "total"].map((k) => `<td>${x[k]}</td>`).join("");
  const body = rows.map((x) => `<tr><td>${esc(seatName(ctx, x.seat))}</td>${cells(x)}</tr>`).join("");
  return `<h3>Final Scoring</h3><p class="muted">Added at the end to the PP won during the game (an unused director adds ${ctx.catalogue.unused_director_bonus ?? 5} PP).</p><table class="list summary-breakdown"><thead><tr><th></th><th>temples</th><th>tallest</th><th>volcanoes</th><th>jungles</th><th>lakes × ruins</th><th>treasures</th><th>total</th></tr></thead><tbody>${body}</tbody></table>`;
}
