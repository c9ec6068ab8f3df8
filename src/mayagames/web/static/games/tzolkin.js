// Board of Tzolk'in: The Mayan Calendar, drawn from a seat's view (format tzolkin-state/1,
// see docs/tzolkin_state.md) and the game's catalogue (what each gear space, building,
// monument, start tile, temple step and technology level does). The gears and temples
// are SVG; the rest is HTML so that text wraps on a phone. Every element has details
// (data-tip) and the targets of the pending decision are highlighted.
//
// Targets: a gear's centre (place a worker), a gear space (pick up a worker / choose that
// action), the Starting Player Space, a temple, a technology track, a building or
// monument, a resource (pay / take / buy / sell), and buttons for the decisions without a
// place on the board (end, stop, nothing, advance, harvest, the draft, two temples).
import { esc, targetMap } from "./svg.js";
import { icon, iconAt, iconsFor } from "./icons.js";

const SEAT_COLOURS = ["#c0392b", "#2471a3", "#d4ac0d", "#7d3c98"];
const SEAT_INK = ["#fff", "#fff", "#2b2521", "#fff"];
const TECHS = ["agriculture", "extraction", "architecture", "theology"];
const GOODS = ["corn", "wood", "stone", "gold", "skull"];
const TEMPLE_FILL = { chaac: "#8d6e63", quetzalcoatl: "#c9a227", kukulcan: "#4f8a5b" };
const CATEGORY_FILL = { farm: "#e9c46a", brown: "#8d6e63", green: "#4f8a5b", blue: "#2471a3" };

function keyOf(action) {
  switch (action.kind) {
    case "Place": return `gear-${action.gear}`;
    case "Pick": case "Do": return `space-${action.gear}-${action.space}`;
    case "PlaceStart": return "start";
    case "Beg": case "Temple": case "Anger": case "Offer": return `temple-${action.temple}`;
    case "Tech": return `track-${action.track}`;
    case "Build": return `building-${action.building}`;
    case "BuildMonument": return `monument-${action.monument}`;
    case "Pay": case "Take": case "Trade": return `res-${action.resource}`;
    default: return `button-${action.text}`;
  }
}

const cap = (word) => (word ? word[0].toUpperCase() + word.slice(1) : word);

let lastCatalogue = {};  // label() is also called for the page's list of moves

function spaceText(gear, space) {
  const info = (lastCatalogue.gears || {})[gear];
  return info && info.spaces[space] ? `: ${info.spaces[space]}` : "";
}

export function label(action) {
  switch (action.kind) {
    case "EndTurn": return "End the turn";
    case "Stop": return "Stop";
    case "Nothing": return "Do nothing with this worker";
    case "Place": return `Place a worker on ${cap(action.gear)}`;
    case "PlaceStart": return "Place a worker on the Starting Player Space";
    case "Pick": return `Pick up your worker from ${cap(action.gear)} ${action.space}`;
    case "Do": return `Do ${cap(action.gear)} ${action.space}${spaceText(action.gear, action.space)}`;
    case "Beg": return `Beg for corn (3 corn, 1 step down on ${cap(action.temple)})`;
    case "Anger": return `Step down on ${cap(action.temple)}`;
    case "Temple": return `Step up on ${cap(action.temple)}`;
    case "Offer": return `Offer a block: step up on ${cap(action.temple)}`;
    case "Tech": return `Advance ${cap(action.track)}`;
    case "Build": {
      let text = `Build ${action.building}`;
      if (action.waive) text += `, ${action.waive} waived (Architecture 3)`;
      if (action.arch === false) text += " without architecture (keep it for the next one)";
      return text;
    }
    case "BuildMonument": return `Build the monument ${action.monument}`;
    case "Pay": return `Pay 1 ${action.resource}`;
    case "Take": return `Take 1 ${action.resource}`;
    case "Trade": return `${cap(action.direction)} 1 ${action.resource}`;
    case "Harvest": return action.mode === "burn" ? "Burn the forest (corn, 1 temple down)" : `Harvest ${action.mode}`;
    case "Advance": return action.days === 2 ? "Advance the calendar 2 days (board turns dark)" : "Advance the calendar 1 day";
    case "Keep": return `Keep ${action.first} + ${action.second}`;
    case "TwoTemples": return `${cap(action.first)} + ${cap(action.second)}, pay 1 ${action.pay}`;
    default: return action.text;
  }
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
  startSpace: "starting-player-space",
  foodDays: "food-days",
  gears: "the-gears",
  temples: "temples",
  techs: "technologies",
  buildings: "buildings",
  monuments: "monuments",
  components: "components",
};

// The rules page's section of a catalogue item (its details link there).
function rulesAt(anchor) {
  return ` data-rules="${esc(anchor)}"`;
}

function t(x, y, value, { size = 12, anchor = "middle", weight = "normal", fill = "#2b2521" } = {}) {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-size="${size}" text-anchor="${anchor}" font-weight="${weight}" fill="${fill}">${esc(value)}</text>`;
}

function seatName(ctx, seat) {
  return ctx.seats[seat]?.name ?? `seat ${seat}`;
}

function res(kind, n) {
  return `<span class="res-i" title="${esc(`${n} ${kind}`)}">${icon(kind, { size: 17 })}<b>${n}</b></span>`;
}

function costHtml(cost) {
  return Object.entries(cost || {}).map(([k, n]) => res(k, n)).join(" ");
}

function costText(cost) {
  return Object.entries(cost || {}).map(([k, n]) => `${n} ${k}`).join(" + ") || "nothing";
}

// The places a move touched, read from its notation (gear spaces "gear:N", gears,
// temples, technologies, buildings, monuments): for servers whose log has no "places".
export function places(text) {
  const found = [];
  let m = text.match(/^(?:pick|do) (\w+) (\d+)/);
  if (m) found.push(`${m[1]}:${m[2]}`);
  m = text.match(/^place (\w+)$/);
  if (m && m[1] !== "start") found.push(m[1]);
  m = text.match(/^(?:tech|temple|beg|anger|offer) (\w+)/);
  if (m) found.push(m[1]);
  m = text.match(/^temples (\w+) (\w+)/);
  if (m) found.push(m[1], m[2]);
  m = text.match(/^build (\S+)/);
  if (m) found.push(m[1]);
  return found;
}

// --- the player panels (table.js: the side column, the phone's action bar) -----------------
// A seat's goods and workers at a glance (the score is next to it).
export function panel(ctx, seat) {
  const p = ctx.view.players && ctx.view.players[seat];
  if (!p) return "";
  const w = p.workers;
  const total = w.ready + w.on_gears + (w.on_start_space ? 1 : 0);
  return GOODS.map((k) => res(k, p[k === "skull" ? "skulls" : k])).join("") +
    `<span class="res-i" title="${esc(`workers: ${w.ready} ready of ${total}`)}">${icon("worker", { size: 17 })}<b>${w.ready}/${total}</b></span>`;
}

// A worker placed on gear space "gear:N" rides on with the gear: ``rounds`` days later it
// stands on N + rounds (N + rounds + 1 after a day skipped by the Starting Player Space's
// second day), if it is still there; other places stay where they are.
export function follow(place, rounds, view, seat) {
  const m = /^(\w+):(\d+)$/.exec(place);
  if (!m) return place;
  const gear = (view.gears || []).find((g) => g.name === m[1]);
  if (!gear) return place;
  for (const at of [Number(m[2]) + rounds, Number(m[2]) + rounds + 1]) {
    if (at < gear.spaces.length && gear.spaces[at] === seat) return `${gear.name}:${at}`;
  }
  return null;  // picked up since (or beyond the gear's last space)
}

// --- the calendar ------------------------------------------------------------------------------
function rounds(v, c) {
  const days = v.calendar.food_days;
  return c.rounds || (days.length ? days[days.length - 1].day : v.calendar.teeth);
}

function drawHead(v, ctx, targets) {
  const c = ctx.catalogue, cal = v.calendar, last = rounds(v, c);
  const food = cal.food_days.map((f) => `day ${f.day}: ${f.kind === "end" ? "end of Age " + f.age : "middle of Age " + f.age}${f.done ? " (done)" : ""}`).join("\n");
  const dayText = v.phase === "over" ? `Game over after day ${Math.min(cal.day - 1, last)} of ${last}` : `Day ${cal.day} of ${last}`;
  const next = cal.next_food_day !== null && v.phase !== "over"
    ? ` · next Food Day: day ${cal.next_food_day}${cal.next_food_day <= cal.day ? " (this round)" : ` (in ${cal.next_food_day - cal.day})`}` : "";
  const ssp = v.starting_player_space;
  const tip = "Starting Player Space: place a worker here to take the corn on it and become the starting player " +
    "(or pass the marker to the left); with a light board you may then advance the calendar 2 days.";
  const cost = targets.start ? ` · placing costs ${tariff(v, c)} corn` : "";
  const sps = `<div class="tz-sps" data-place="start"${attrs("start", tip, targets, RULES.startSpace)}><b>Starting Player Space</b><span>${res("corn", ssp.corn)} corn on it${ssp.worker !== null ? ` · worker of ${esc(seatName(ctx, ssp.worker))}` : ""}${cost}</span></div>`;
  return `<div class="tz-head"><div><div class="tz-day"${rulesAt(RULES.foodDays)} data-tip="${esc("The game lasts " + last + " rounds (days) unless players speed the calendar up.\nFood Days: feed 2 corn per worker (−3 VP per unfed worker), then temple rewards.\n" + food)}"><b>${esc(dayText)}</b> · Age ${cal.age}${esc(next)}</div>` +
    `<div class="muted">Starting player: ${esc(seatName(ctx, v.starting_player))}</div></div>${sps}</div>`;
}

// --- the gears (SVG, one per gear) -----------------------------------------------------------
function occupantName(ctx, occupant) {
  if (occupant === null || occupant === undefined) return "";
  return occupant === "dummy" ? "a dummy worker (blocks the space)" : `${seatName(ctx, occupant)}'s worker`;
}

function spaceTip(gear, i, occupant, v, ctx) {
  const c = ctx.catalogue.gears && ctx.catalogue.gears[gear.name];
  let tip = `${gear.title} ${i}: ${c ? c.spaces[i] : ""}`;
  if (gear.name === "palenque") {
    const j = v.jungle.find((x) => x.space === i);
    if (j) tip += `\nJungle here: ${j.corn} Corn tiles, ${j.wood} Wood tiles on top${j.corn > j.wood ? "" : " (no corn visible)"}`;
  }
  if (gear.name === "chichen" && v.skull_slots && i in v.skull_slots && v.skull_slots[i] !== null) {
    tip += `\nSkull slot filled by ${seatName(ctx, v.skull_slots[i])}: this action is used up`;
  }
  if (occupant !== null && occupant !== undefined) tip += `\nOccupied by ${occupantName(ctx, occupant)}`;
  return tip;
}

// What the next worker placed costs (rules section 9): the lowest free space's number in
// corn plus the tariff of the workers already placed this turn (null: the gear is full).
function tariff(v, c) {
  const placed = v.decision && v.decision.kind === "placing" ? v.decision.placed || 0 : 0;
  const list = c.tariff || [];
  return list.length ? list[Math.min(placed, list.length - 1)] : 0;
}

function placement(gear, v, c) {
  const space = gear.spaces.findIndex((x) => x === null || x === undefined);
  return space < 0 ? null : { space, corn: space + tariff(v, c) };
}

function drawGear(gear, v, ctx, targets, dim) {
  const big = gear.spaces.length > 8;
  const size = 200, cx = 100, cy = 100, radius = big ? 80 : 74, hole = big ? 13 : 15;
  const total = gear.spaces.length + gear.dead_arc.length;
  const gearKey = `gear-${gear.name}`;
  const anyTarget = targets[gearKey] || gear.spaces.some((_, i) => targets[`space-${gear.name}-${i}`]);
  let s = `<circle cx="${cx}" cy="${cy}" r="${radius + hole + 3}" fill="#e2d9c8"/>`;
  const next = targets[gearKey] ? placement(gear, v, ctx.catalogue) : null;
  const placeTip = `${gear.title}: a worker goes on the lowest free space and costs that space's number in corn, ` +
    "plus the tariff of the workers already placed this turn (+0, +1, +2...)" + (next ? `\nNext worker: space ${next.space}, ${next.corn} corn` : "");
  const inner = radius - hole - 21;
  s += `<g data-place="${esc(gear.name)}"${attrs(gearKey, placeTip, targets)}><circle cx="${cx}" cy="${cy}" r="${inner}" fill="#2f7d6d"/>` +
    t(cx, cy + (next ? -1 : 4), gear.title, { size: gear.title.length > 8 ? 10 : gear.title.length > 6 ? 11.5 : 13, weight: "bold", fill: "white" }) +
    (next ? t(cx, cy + 14, `${next.corn} corn`, { size: 11, fill: "#fdf3dc" }) : "") + "</g>";
  if (targets[gearKey]) s += `<circle class="tz-ring" cx="${cx}" cy="${cy}" r="${inner - 4}" fill="none"/>`;
  const spaceTexts = (ctx.catalogue.gears && ctx.catalogue.gears[gear.name] || {}).spaces || [];
  const spot = (i, occupant, dead) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / total;
    const x = cx + radius * Math.cos(angle), y = cy + radius * Math.sin(angle);
    const key = dead ? null : `space-${gear.name}-${i}`;
    const empty = occupant === null || occupant === undefined;
    const fill = empty ? "#fffdf8" : occupant === "dummy" ? "#9a9188" : SEAT_COLOURS[occupant];
    const ink = empty ? "#7a6f66" : occupant === "dummy" ? "#fff" : SEAT_INK[occupant];
    const tip = dead ? "Dead arc: only dummy workers ride through here" : spaceTip(gear, i, occupant, v, ctx);
    let g = `<g${dead ? "" : ` data-place="${esc(gear.name)}:${i}"`}${attrs(key, tip, targets, dead ? null : RULES.gears)}><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${hole}" fill="${fill}" stroke="${dead ? "#bbb" : "#7a6f66"}"${dead ? ' stroke-dasharray="3 2"' : ""}/>` +
      t(x, y + 4.5, dead ? "" : String(i), { size: 13, weight: empty ? "normal" : "bold", fill: ink }) +
      (dead ? "" : `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${hole + 3}" fill="transparent"/>`) + "</g>";
    if (key && targets[key]) g += `<circle class="tz-ring" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${hole + 4}" fill="none"/>`;
    const ix = cx + (radius - hole - 10) * Math.cos(angle), iy = cy + (radius - hole - 10) * Math.sin(angle);
    if (gear.name === "chichen" && !dead && v.skull_slots && v.skull_slots[i] !== null && v.skull_slots[i] !== undefined) {
      g += `<circle cx="${ix.toFixed(1)}" cy="${iy.toFixed(1)}" r="8" fill="${SEAT_COLOURS[v.skull_slots[i]]}"/>` + iconAt("skull", ix, iy, 13);
    } else if (!dead) {
      const pictures = iconsFor(spaceTexts[i], 1);  // what the space does, as a picture
      if (pictures.length) g += iconAt(pictures[0], ix, iy, 14);
    }
    return g;
  };
  gear.spaces.forEach((occupant, i) => { s += spot(i, occupant, false); });
  gear.dead_arc.forEach((occupant, j) => { s += spot(gear.spaces.length + j, occupant, true); });
  return `<svg class="tz-gear${dim && !anyTarget ? " tz-dim" : ""}" viewBox="0 0 ${size} ${size}" role="img" aria-label="${esc(gear.title)} gear">${s}</svg>`;
}

// --- temples (SVG) -----------------------------------------------------------------------------
function templeTip(temple, c) {
  const info = c.temples && c.temples[temple.name];
  if (!info) return temple.name;
  const steps = info.vp.map((vp, i) => `step ${i - 1}: ${vp} VP`).join(", ");
  return `${info.title}: ${steps}.\nAt each Food Day in the middle of an age you get the resources shown up to your step; ` +
    `at the end of each age the VP of your step, and the highest player ${info.bonus[0]} VP (Age 1) / ${info.bonus[1]} VP (Age 2).`;
}

function drawTemples(v, ctx, targets) {
  const c = ctx.catalogue;
  const colW = 132, stepH = 24, top = Math.max(...v.temples.map((x) => x.top));
  const height = 40 + (top + 2) * stepH + 8;
  let s = "";
  v.temples.forEach((temple, i) => {
    const x = 4 + i * colW, info = c.temples && c.temples[temple.name];
    const key = targets[`temple-${temple.name}`] ? `temple-${temple.name}` : null;
    s += `<g data-place="${esc(temple.name)}"${attrs(key || `temple-${temple.name}`, templeTip(temple, c), targets, RULES.temples)}>`;
    const hy = 4 + (top - temple.top) * stepH;  // the name just above its own top step
    s += `<rect x="${x}" y="${hy}" width="${colW - 8}" height="26" rx="6" fill="${TEMPLE_FILL[temple.name] || "#c98a2b"}"/>` +
      iconAt(temple.name, x + 14, hy + 13, 18) +
      t(x + (colW - 8) / 2 + 8, hy + 18, info ? info.title : temple.name, { size: (info ? info.title : temple.name).length > 9 ? 12 : 14, weight: "bold", fill: "white" });
    for (let step = -1; step <= temple.top; step++) {
      const y = 34 + (top - step) * stepH;
      const vp = info ? info.vp[step + 1] : "";
      const reward = info ? Object.entries(info.rewards[step + 1] || {}) : [];
      const prev = info && step >= 0 ? Object.entries(info.rewards[step] || {}) : [];
      const item = reward.find(([k, n]) => n > (Object.fromEntries(prev)[k] || 0));
      s += `<rect x="${x + 6}" y="${y}" width="${colW - 20}" height="${stepH - 2}" fill="${step < 0 ? "#efe9df" : "#f7f1e6"}" stroke="#d8cdb9"/>`;
      s += t(x + 10, y + 15, `${vp} VP`, { size: 10, anchor: "start", fill: "#7a6f66" });
      if (item) s += iconAt(item[0] === "skulls" ? "skull" : item[0], x + colW - 24, y + 11, 15);
      temple.steps.forEach((at, seat) => {
        if (at === step) s += `<circle cx="${x + 52 + seat * 13}" cy="${y + 11}" r="6" fill="${SEAT_COLOURS[seat]}" stroke="#fff"/>`;
      });
    }
    s += "</g>";
    if (key) s += `<rect class="tz-ring" x="${x - 1}" y="${hy - 3}" width="${colW - 6}" height="${height - hy - 1}" rx="8" fill="none"/>`;
  });
  return `<svg class="tz-temples" viewBox="0 0 ${3 * colW} ${height}" role="img" aria-label="temples">${s}</svg>`;
}

// --- technologies (HTML) ------------------------------------------------------------------------
function drawTechs(v, ctx, targets) {
  const c = ctx.catalogue;
  const rows = TECHS.map((track) => {
    const info = c.techs && c.techs[track];
    const cost = c.tech_cost || [];
    const tip = info ? `${info.title}: advancing costs ${cost.slice(0, 3).join(" / ")} resource blocks (to level 1 / 2 / 3); beyond level 3: ${info.bonus} (${cost[3]} block)` : track;
    let row = `<div class="tz-track" data-place="${track}"${attrs(`track-${track}`, tip, targets, RULES.techs)}>${icon(track, { size: 18 })}<span>${esc(info ? info.title : track)}</span></div>`;
    for (let level = 0; level <= 3; level++) {
      const dots = v.players.filter((p) => p.techs[track] === level).map((p) => `<span class="tz-dot" style="background:${SEAT_COLOURS[p.seat]}"></span>`).join("");
      const text = level === 0 ? "start" : info ? info.levels[level - 1] : "";
      row += `<div class="tz-level"${rulesAt(RULES.techs)} data-tip="${esc(`${info ? info.title : track} level ${level}: ${text}` + (level ? " (levels add up)" : ""))}"><span class="tz-lv">${level}</span>${dots}<small>${esc(level ? text : "")}</small></div>`;
    }
    return row;
  }).join("");
  return `<div class="tz-techs">${rows}</div>`;
}

// --- buildings and monuments (HTML) ---------------------------------------------------------------
function buildingCard(kind, id, c, targets, fromRow = true) {
  if (id === null || id === undefined) return `<div class="tz-card empty">${fromRow ? "empty" : ""}</div>`;
  const info = ((kind === "building" ? c.buildings : c.monuments) || {})[id];
  if (!info) return `<div class="tz-card"${attrs(`${kind}-${id}`, id, targets)}><b>${esc(id)}</b></div>`;
  const what = kind === "building" ? `Age ${info.age} ${info.category} building` : `${info.category} monument (scored at the end)`;
  const tip = `${id}: ${what}\nCost: ${costText(info.cost)}\n${info.effect}`;
  return `<div class="tz-card ${kind}" data-place="${esc(id)}" style="--cat:${CATEGORY_FILL[info.category] || "#999"}"${attrs(`${kind}-${id}`, tip, targets, kind === "building" ? RULES.buildings : RULES.monuments)}>` +
    `<div class="tz-card-head"><b>${iconsFor(info.effect).map((n) => icon(n, { size: 18 })).join("")}</b><span>${costHtml(info.cost)}</span></div><p>${esc(info.effect)}</p><small class="tz-id">${esc(id)}</small></div>`;
}

function drawRows(v, ctx, targets) {
  const c = ctx.catalogue;
  const stacks = v.buildings.stacks.map((x) => x.length);
  const buildings = v.buildings.row.map((id) => buildingCard("building", id, c, targets)).join("");
  const monuments = v.monuments.row.map((id) => buildingCard("monument", id, c, targets)).join("");
  return `<section class="tz-section"><h3${rulesAt(RULES.buildings)} data-tip="Built with Tikal 2 / 4 or Uxmal 4; the row refills from the age's stack at the end of the turn">Buildings <small>(stacks: Age 1 ${stacks[0] ?? 0}, Age 2 ${stacks[1] ?? 0})</small></h3><div class="tz-cards">${buildings}</div></section>` +
    `<section class="tz-section"><h3${rulesAt(RULES.monuments)} data-tip="Built only with Tikal 4; each scores at the end of the game">Monuments</h3><div class="tz-cards">${monuments}</div></section>`;
}

function drawMarket(v, ctx, targets) {
  const c = ctx.catalogue;
  const items = ["corn", "wood", "stone", "gold"].map((kind) => {
    const price = v.market[kind];
    const tip = price !== undefined ? `${cap(kind)}: worth ${price} corn at the market (Uxmal 2) and at the end of the game` : "Corn: pays for workers, actions and Food Days; 4 corn = 1 VP at the end";
    return `<div class="tz-res"${attrs(`res-${kind}`, tip, targets)}>${icon(kind, { size: 20 })}<span>${kind}${price !== undefined ? ` = ${price} corn` : ""}</span></div>`;
  }).join("");
  const jungle = v.jungle.map((j) => `${j.space}: ${j.corn}c/${j.wood}w`).join(" · ");
  return `<section class="tz-section"><h3>Resources</h3><div class="tz-row">${items}` +
    `<span class="muted" data-tip="Crystal skulls left in the supply (13 in all)">skulls left ${v.skulls_supply}</span>` +
    `<span class="muted" data-tip="Palenque's jungle: Corn tiles / Wood tiles left per space${c.food ? "" : ""}">jungle ${esc(jungle)}</span></div></section>`;
}

// --- players (HTML) ----------------------------------------------------------------------------------
function tileChip(id, c) {
  const info = (c.start_tiles || {})[id];
  return `<span class="tz-chip"${rulesAt(RULES.components)} data-tip="${esc(info ? `${id} (start tile): ${info.effect}` : id)}">${esc(id)}</span>`;
}

function drawPlayer(p, v, ctx) {
  const c = ctx.catalogue;
  const you = p.seat === ctx.seat;
  const toMove = !ctx.terminal && ctx.current === p.seat;
  const w = p.workers;
  let s = `<div class="tz-player${toMove ? " to-move" : ""}" style="--seat:${SEAT_COLOURS[p.seat]}">`;
  s += `<div class="tz-ph"><span class="tz-dot big"></span><b>${toMove ? "▶ " : ""}${esc(seatName(ctx, p.seat))}${you ? (ctx.replay ? " (seen from here)" : " (you)") : ""}</b>` +
    `<span class="tz-vp" data-tip="Victory points on the track (the final score adds goods, skulls and monuments)">${p.vp} VP</span></div>`;
  s += `<p class="tz-line tz-goods">${GOODS.map((k) => res(k, p[k === "skull" ? "skulls" : k])).join(" ")} ${res("worker", w.ready + w.on_gears + (w.on_start_space ? 1 : 0))}</p>`;
  s += `<p class="tz-line" data-tip="Ready: in hand to place; on gears: placed; in the bank: gained with Uxmal 3">Workers: ${w.ready} ready · ${w.on_gears} on gears${w.on_start_space ? " · 1 on the Starting Player Space" : ""} · ${w.bank} in the bank</p>`;
  const temples = Object.entries(p.temples).map(([k, n]) => `${cap(k)} ${n}`).join(" · ");
  const techs = Object.entries(p.techs).map(([k, n]) => `${cap(k).slice(0, 4)}. ${n}`).join(" · ");
  s += `<p class="tz-line">Temples: ${esc(temples)}</p><p class="tz-line">Tech: ${esc(techs)}</p>`;
  const farms = p.farms.free_workers || p.farms.discount ? ` · farms feed ${p.farms.free_workers} free${p.farms.discount ? `, −${p.farms.discount} corn each` : ""}` : "";
  s += `<p class="tz-line" data-tip="${esc("Light board: may advance the calendar 2 days once (then dark). Harvest tiles count for monuments M03/M04.")}">${esc(p.board)} board · harvest tiles: ${p.harvest_tiles.corn} corn, ${p.harvest_tiles.wood} wood${esc(farms)}</p>`;
  const built = p.buildings.map((id) => {
    const info = (c.buildings || {})[id];
    return `<span class="tz-chip" data-place="${esc(id)}"${rulesAt(RULES.buildings)} style="--cat:${CATEGORY_FILL[info?.category] || "#999"}" data-tip="${esc(info ? `${id}: ${info.effect}` : String(id))}">${esc(id)}</span>`;
  }).join("");
  const mons = p.monuments.map((id) => {
    const info = (c.monuments || {})[id];
    return `<span class="tz-chip monument" data-place="${esc(id)}"${rulesAt(RULES.monuments)} data-tip="${esc(info ? `${id}: ${info.effect}` : id)}">${esc(id)}</span>`;
  }).join("");
  if (built || mons) s += `<div class="tz-row">${built}${mons}</div>`;
  const kept = p.start_tiles.kept.filter((x) => x !== "?");
  if (kept.length) s += `<p class="tz-line">Start tiles: ${kept.map((id) => tileChip(id, c)).join(" ")}</p>`;
  if (v.final && v.final[p.seat]) {
    const f = v.final[p.seat];
    const mon = Object.entries(f.monuments || {}).map(([k, n]) => `${k} ${n}`).join(", ");
    s += `<p class="tz-line"><b>Final: ${f.total}</b> <span class="muted">(track ${f.vp_track}, corn ${f.corn_vp}, skulls ${f.skulls_vp}${mon ? `, monuments ${esc(mon)}` : ""})</span></p>`;
  }
  return s + "</div>";
}

// --- the draft and the buttons -----------------------------------------------------------------------
function drawDraft(v, ctx, targets) {
  const own = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  if (v.phase !== "draft" || !own) return "";
  const c = ctx.catalogue;
  const dealt = own.start_tiles.dealt.filter((x) => x !== "?").map((id) => {
    const info = (c.start_tiles || {})[id];
    return `<div class="tz-tile" data-tip="${esc(info ? `Dummy marking: ${info.gear} ${info.space}` : id)}"><b>${esc(id)}</b> ${esc(info ? info.effect : "")}</div>`;
  }).join("");
  return `<section class="tz-section"><h3>Your start tiles: keep two</h3><div class="tz-tiles">${dealt}</div></section>`;
}

function buttonTip(a, c) {
  if (a.kind !== "Keep") return "";
  const tiles = c.start_tiles || {};
  return [a.first, a.second].map((id) => `${id}: ${tiles[id] ? tiles[id].effect : ""}`).join("\n");
}

function drawButtons(legal, targets, c) {
  const seen = new Map();
  for (const a of legal) {
    const key = keyOf(a);
    if (key.startsWith("button-") && !seen.has(key)) seen.set(key, a);
  }
  return [...seen].map(([key, a]) => `<button type="button"${attrs(key, buttonTip(a, c), targets)}>${esc(label(a))}</button>`).join("");
}

const PROMPTS = {
  draft: "Choose the two start tiles you keep (the others are discarded).",
  turn: "Your turn: place workers (click a gear; each costs its lowest free space in corn, plus more per extra worker) — or pick up your workers (click one of them) to do their actions.",
  placing: "Place another worker (click a gear or the Starting Player Space) or end the turn.",
  picking: "Pick up another of your workers (click it) or end the turn.",
  "choose action": "Choose the action for this worker: its own space, a lower one (1 corn per step back), or nothing.",
  harvest: "Harvest corn or wood here, or burn the forest.",
  "anger the gods": "The gods are angry: choose a temple to step down on.",
  "temple step": "Choose a temple to step up on.",
  "two temples": "Choose two different temples to step up on, and the block you pay.",
  technology: "Choose a technology to advance (paid with resource blocks), or stop.",
  "pay blocks": "Choose the resource block to pay with.",
  build: "Choose what to build (the highlighted cards).",
  "take blocks": "Choose the resource block to take.",
  market: "Buy or sell at the market (click a resource), then stop.",
  mirror: "Choose the action to copy (a space of Palenque, Yaxchilan, Tikal or Uxmal).",
  offering: "Theology: pay a resource block to step up on a temple, or stop.",
  "advance calendar": "Advance the calendar 1 day, or 2 days (your board turns to its dark side).",
};

export function prompt(ctx) {
  const d = ctx.view.decision;
  if (!d) return "";
  let text = PROMPTS[d.kind] || "";
  if (d.kind === "choose action" && d.gear) text = `Your worker on ${cap(d.gear)} ${d.space}: ` + text[0].toLowerCase() + text.slice(1);
  if (d.kind === "turn" && ctx.legal.some((a) => a.kind === "Beg")) text += " With 2 corn or less you may beg a temple for corn.";
  if (d.kind === "build" && ctx.legal.some((a) => a.kind === "Stop")) text += " Or stop.";
  return text;
}

export function render(ctx) {
  const v = ctx.view;
  lastCatalogue = ctx.catalogue;
  const targets = targetMap(ctx.legal, keyOf);
  const dim = Object.keys(targets).some((k) => k.startsWith("gear-") || k.startsWith("space-"));
  const gears = v.gears.map((gear) => drawGear(gear, v, ctx, targets, dim)).join("");
  const buttons = drawButtons(ctx.legal, targets, ctx.catalogue);
  const html = `<div class="tz">${drawHead(v, ctx, targets)}` +
    (buttons ? `<div class="tz-buttons">${buttons}</div>` : "") + drawDraft(v, ctx, targets) +
    `<div class="tz-gears">${gears}</div>` +
    `<div class="tz-mid"><section class="tz-section"><h3>Temples</h3>${drawTemples(v, ctx, targets)}</section>` +
    `<section class="tz-section"><h3>Technologies</h3>${drawTechs(v, ctx, targets)}</section></div>` +
    drawRows(v, ctx, targets) + drawMarket(v, ctx, targets) +
    `<div class="tz-players">${v.players.map((p) => drawPlayer(p, v, ctx)).join("")}</div></div>`;
  return { html, targets };
}

export function summary(ctx) {
  const f = ctx.view.final;
  if (!f) return "";
  const rows = f.map((x, seat) => {
    const mon = Object.entries(x.monuments || {}).map(([k, n]) => `${k} ${n}`).join(", ") || "—";
    return `<tr><td>${esc(seatName(ctx, seat))}</td><td>${x.vp_track}</td><td>${x.corn_vp}</td><td>${x.skulls_vp}</td><td>${esc(mon)}</td><td><b>${x.total}</b></td></tr>`;
  }).join("");
  return `<h3>Final scoring</h3><table class="list summary-breakdown"><thead><tr><th></th><th>VP track</th><th>goods (corn)</th><th>skulls</th><th>monuments</th><th>total</th></tr></thead><tbody>${rows}</tbody></table>`;
}
