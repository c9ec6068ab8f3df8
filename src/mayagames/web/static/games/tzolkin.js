// Board of Tzolk'in: The Mayan Calendar, drawn from a seat's view (format tzolkin-state/1,
// see docs/tzolkin_state.md). Targets: a gear's centre (place a worker), a gear space
// (pick up / choose that action), the Starting Player Space, a temple, a technology
// track, a building or monument, a resource (pay / take / trade), and buttons for the
// decisions without a place on the board (end, stop, nothing, advance, harvest).
import { button, esc, frame, targetMap, text } from "./svg.js";

const W = 1000;
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#d4ac0d", "#7d3c98"];
const GEAR_X = [100, 290, 480, 670, 880];
const GEAR_Y = 205;
const TECHS = ["agriculture", "extraction", "architecture", "theology"];

function colour(occupant) {
  if (occupant === null || occupant === undefined) return "#fffdf8";
  if (occupant === "dummy") return "#9a9188";
  return SEAT_COLOURS[occupant] || "#555";
}

function keyOf(action) {
  switch (action.kind) {
    case "Place": return `gear-${action.gear}`;
    case "Pick": case "Do": return `space-${action.gear}-${action.space}`;
    case "PlaceStart": return "start";
    case "Beg": case "Temple": case "Anger": case "Offer": return `temple-${action.temple}`;
    case "TwoTemples": return `temple-${action.first}`;
    case "Tech": return `track-${action.track}`;
    case "Build": return `building-${action.building}`;
    case "BuildMonument": return `monument-${action.monument}`;
    case "Pay": case "Take": case "Trade": return `res-${action.resource}`;
    case "EndTurn": case "Stop": case "Nothing": return action.kind.toLowerCase();
    case "Advance": return `advance-${action.days}`;
    case "Harvest": return `harvest-${action.mode}`;
    default: return null;
  }
}

export function label(action) {
  const names = { EndTurn: "End the turn", Stop: "Stop", Nothing: "Do nothing" };
  return names[action.kind] || action.text;
}

function drawCalendar(v, ctx) {
  const c = v.calendar;
  const ssp = v.starting_player_space;
  let s = text(16, 32, `Day ${c.day} of ${c.teeth} · Age ${c.age}` +
    (c.next_food_day !== null ? ` · next Food Day: day ${c.next_food_day}` : ""), { size: 20, weight: "bold" });
  s += text(16, 56, `Starting player: ${ctx.seats[v.starting_player]?.name ?? v.starting_player} · phase: ${v.phase} · decision: ${v.decision.kind}`, { size: 14, fill: "#7a6f66" });
  s += `<g data-target="start"><rect x="${W - 250}" y="12" width="234" height="48" rx="8" fill="#fdf3dc" stroke="#c98a2b"/>` +
    text(W - 240, 34, "Starting Player Space", { size: 14, weight: "bold" }) +
    text(W - 240, 52, `corn ${ssp.corn}` + (ssp.worker !== null ? ` · worker of ${ctx.seats[ssp.worker]?.name ?? ssp.worker}` : ""), { size: 13 }) + "</g>";
  return s;
}

function drawGear(gear, index) {
  const cx = GEAR_X[index], cy = GEAR_Y;
  const total = gear.spaces.length + gear.dead_arc.length;
  const radius = gear.spaces.length > 8 ? 86 : 76;
  let s = `<circle cx="${cx}" cy="${cy}" r="${radius + 18}" fill="#e2d9c8"/>`;
  s += `<g data-target="gear-${esc(gear.name)}"><circle cx="${cx}" cy="${cy}" r="${radius - 22}" fill="#2f7d6d"/>` +
    text(cx, cy + 5, gear.title, { size: gear.title.length > 8 ? 12 : 15, anchor: "middle", weight: "bold", fill: "white" }) + "</g>";
  const spot = (i, occupant, dead) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / total;
    const x = cx + radius * Math.cos(angle), y = cy + radius * Math.sin(angle);
    const key = dead ? "" : ` data-target="space-${esc(gear.name)}-${i}"`;
    return `<g${key}><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="14" fill="${colour(occupant)}" stroke="${dead ? "#bbb" : "#7a6f66"}"${dead ? ' stroke-dasharray="3 2"' : ""}/>` +
      text(x, y + 4, dead ? "" : String(i), { size: 11, anchor: "middle", fill: occupant === null || occupant === undefined ? "#7a6f66" : "white" }) + "</g>";
  };
  gear.spaces.forEach((occupant, i) => { s += spot(i, occupant, false); });
  gear.dead_arc.forEach((occupant, j) => { s += spot(gear.spaces.length + j, occupant, true); });
  return s;
}

function drawTemples(v, x0, y0) {
  let s = text(x0, y0, "Temples", { size: 16, weight: "bold" });
  v.temples.forEach((temple, t) => {
    const x = x0 + t * 130, stepH = 22, bottom = y0 + 30 + (temple.top + 1) * stepH;
    s += `<g data-target="temple-${esc(temple.name)}"><rect x="${x}" y="${y0 + 10}" width="118" height="22" rx="5" fill="#c98a2b"/>` +
      text(x + 59, y0 + 26, temple.name, { size: 13, anchor: "middle", weight: "bold", fill: "white" }) + "</g>";
    for (let step = -1; step <= temple.top; step++) {
      const y = bottom - (step + 1) * stepH;
      s += `<rect x="${x + 10}" y="${y}" width="98" height="${stepH - 2}" fill="${step < 0 ? "#efe9df" : "#f7f1e6"}" stroke="#e2d9c8"/>`;
      s += text(x + 14, y + 15, String(step), { size: 10, fill: "#7a6f66" });
      temple.steps.forEach((at, seat) => {
        if (at === step) s += `<circle cx="${x + 40 + seat * 18}" cy="${y + 10}" r="7" fill="${SEAT_COLOURS[seat]}"/>`;
      });
    }
  });
  return s;
}

function drawTechs(v, x0, y0) {
  let s = text(x0, y0, "Technologies", { size: 16, weight: "bold" });
  TECHS.forEach((track, r) => {
    const y = y0 + 12 + r * 34;
    s += `<g data-target="track-${track}"><rect x="${x0}" y="${y}" width="118" height="28" rx="5" fill="#2f7d6d"/>` +
      text(x0 + 59, y + 19, track, { size: 13, anchor: "middle", fill: "white" }) + "</g>";
    for (let level = 0; level <= 3; level++) {
      const x = x0 + 128 + level * 58;
      s += `<rect x="${x}" y="${y}" width="54" height="28" rx="4" fill="#f7f1e6" stroke="#e2d9c8"/>`;
      s += text(x + 4, y + 11, String(level), { size: 9, fill: "#7a6f66" });
      v.players.forEach((p, seat) => {
        if (p.techs[track] === level) s += `<circle cx="${x + 12 + seat * 12}" cy="${y + 18}" r="5" fill="${SEAT_COLOURS[seat]}"/>`;
      });
    }
  });
  return s;
}

function card(kind, id, x, y, w, h, fill) {
  if (id === null || id === undefined) return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="5" fill="none" stroke="#e2d9c8" stroke-dasharray="4 3"/>`;
  return `<g data-target="${kind}-${esc(id)}"><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="5" fill="${fill}" stroke="#7a6f66"/>` +
    text(x + w / 2, y + h / 2 + 5, id, { size: 13, anchor: "middle", weight: "bold" }) + "</g>";
}

function drawRows(v, y0) {
  let s = text(16, y0, "Buildings", { size: 16, weight: "bold" });
  v.buildings.row.forEach((id, i) => { s += card("building", id, 16 + i * 84, y0 + 10, 78, 46, "#fffdf8"); });
  s += text(16 + 6 * 84 + 20, y0, "Monuments", { size: 16, weight: "bold" });
  v.monuments.row.forEach((id, i) => { s += card("monument", id, 16 + 6 * 84 + 20 + i * 66, y0 + 10, 60, 46, "#fdf3dc"); });
  return s;
}

function drawMarket(v, y0) {
  let s = text(16, y0, "Resources (market price in corn)", { size: 16, weight: "bold" });
  ["corn", "wood", "stone", "gold"].forEach((res, i) => {
    const x = 16 + i * 120;
    const price = v.market[res];
    s += `<g data-target="res-${res}"><rect x="${x}" y="${y0 + 10}" width="110" height="34" rx="6" fill="#fffdf8" stroke="#7a6f66"/>` +
      text(x + 55, y0 + 32, price !== undefined ? `${res} · ${price}` : res, { size: 14, anchor: "middle" }) + "</g>";
  });
  s += text(16 + 4 * 120 + 10, y0 + 32, `skulls left ${v.skulls_supply} · jungle: ` +
    v.jungle.map((j) => `${j.space}:${j.corn}c/${j.wood}w`).join(" "), { size: 13, fill: "#7a6f66" });
  return s;
}

function drawPlayers(v, ctx, y0) {
  let s = "";
  v.players.forEach((p, i) => {
    const y = y0 + i * 58;
    const toMove = !ctx.terminal && ctx.current === p.seat;
    s += `<rect x="8" y="${y}" width="${W - 16}" height="52" rx="8" fill="${toMove ? "#e7f1ee" : "white"}" stroke="${toMove ? "#2f7d6d" : "#e2d9c8"}"/>`;
    s += `<circle cx="28" cy="${y + 26}" r="10" fill="${SEAT_COLOURS[p.seat]}"/>`;
    const name = ctx.seats[p.seat]?.name ?? `seat ${p.seat}`;
    s += text(46, y + 22, `${toMove ? "▶ " : ""}${name}${p.seat === ctx.seat ? " (you)" : ""}`, { size: 15, weight: "bold" });
    s += text(46, y + 42, `${p.vp} VP · ${p.board} board`, { size: 13, fill: "#7a6f66" });
    const w = p.workers;
    s += text(260, y + 22, `corn ${p.corn} · wood ${p.wood} · stone ${p.stone} · gold ${p.gold} · skulls ${p.skulls}`, { size: 14 });
    s += text(260, y + 42, `workers: ${w.ready} ready, ${w.on_gears} on gears, ${w.bank} in reserve · ` +
      `buildings ${p.buildings.length} · monuments ${p.monuments.join(" ") || "none"}`, { size: 13, fill: "#7a6f66" });
    const kept = p.start_tiles.kept.filter((t) => t !== "?").join(" ");
    if (kept) s += text(W - 24, y + 22, `tiles ${kept}`, { size: 12, anchor: "end", fill: "#7a6f66" });
  });
  return s;
}

function drawButtons(legal, y0) {
  const seen = new Map();
  for (const a of legal) {
    const key = keyOf(a);
    if (key && /^(endturn|stop|nothing|advance-|harvest-)/.test(key) && !seen.has(key)) seen.set(key, label(a));
  }
  let s = "", x = 16;
  for (const [key, name] of seen) {
    const width = Math.max(110, name.length * 10 + 28);
    s += button(key, x, y0, width, 40, name);
    x += width + 10;
  }
  return s;
}

export function render(ctx) {
  const v = ctx.view;
  const playersY = 830;
  const height = playersY + v.players.length * 58 + 10;
  let body = `<rect width="${W}" height="${height}" rx="12" fill="#f4efe6"/>`;
  body += drawCalendar(v, ctx);
  v.gears.forEach((gear, i) => { body += drawGear(gear, i); });
  body += drawButtons(ctx.legal, 318);
  body += drawTemples(v, 16, 388);
  body += drawTechs(v, 430, 388);
  body += drawRows(v, 640);
  body += drawMarket(v, 725);
  if (v.phase === "over" && v.final) {
    body += text(16, 800, "Final: " + v.final.map((f, seat) => `${ctx.seats[seat]?.name ?? seat} ${f.total}`).join(" · "), { size: 16, weight: "bold" });
  }
  body += drawPlayers(v, ctx, playersY);
  return { svg: frame(W, height, body, "Tzolk'in board"), targets: targetMap(ctx.legal, keyOf) };
}
