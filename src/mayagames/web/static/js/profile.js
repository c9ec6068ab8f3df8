// A player's page (an account or a bot level): ratings per game, the rating history as an
// SVG plot drawn here, and the finished games with their results.
import { api, el } from "./api.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const SVG = "http://www.w3.org/2000/svg";
let profile = null;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function plot(game) {
  const points = profile.history.filter((h) => h.game === game);
  const box = $("history-plot");
  box.replaceChildren();
  if (!points.length) { box.append(el("p", { class: "muted" }, "No rated game yet.")); return; }
  const W = 640, H = 240, L = 44, R = 12, T = 12, B = 28;
  const lows = points.map((p) => p.mu - p.sigma), highs = points.map((p) => p.mu + p.sigma);
  const ords = points.map((p) => p.mu - 3 * p.sigma);
  const lo = Math.floor(Math.min(...ords, ...lows) - 1), hi = Math.ceil(Math.max(...highs) + 1);
  const x = (i) => L + (points.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (points.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `rating history in ${game}`, id: "history-svg" });
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    chart.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#e2d9c8" }),
      svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#7a6f66" }, v.toFixed(0)));
  }
  const band = points.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`).join(" ") + " " +
    points.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse().join(" ");
  chart.append(svg("polygon", { points: band, fill: "#2f7d6d", "fill-opacity": 0.15 }));
  chart.append(svg("polyline", { points: ords.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#1e5248", "stroke-width": 2 }));
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(ords[i]), r: 4, fill: p.rank === 1 ? "#c98a2b" : "#1e5248", class: "history-point" });
    dot.append(svg("title", {}, `game ${i + 1}: place ${p.rank} of ${p.players}, rating ${ords[i].toFixed(1)}`));
    chart.append(dot);
  });
  chart.append(svg("text", { x: W - R, y: H - 8, "text-anchor": "end", "font-size": 11, fill: "#7a6f66" }, `${points.length} rated games`));
  box.append(chart);
}

function result(t) {
  const seat = t.seats.find((s) => s.account === profile.name);
  const scores = t.seats.map((s) => s.name).join(", ");
  return el("tr", {}, el("td", {}, t.title), el("td", {}, scores),
    el("td", {}, seat ? `seat ${seat.seat + 1}` : ""),
    el("td", {}, t.rated ? "rated" : ""), el("td", {}, el("a", { href: `/table/${t.table}` }, "replay")));
}

async function start() {
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    $("profile-error").textContent = error.message;
    return;
  }
  document.title = `mayagames — ${profile.name}`;
  $("title").textContent = profile.bot ? "bot level" : "player";
  $("player-name").textContent = profile.bot ? `${profile.name} (bot level)` : profile.name;
  $("player-ratings").querySelector("tbody").replaceChildren(...profile.ratings.map((r) => el("tr", {},
    el("td", {}, r.game), el("td", {}, r.rating.toFixed(1)), el("td", {}, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`),
    el("td", {}, r.games))));
  const games = [...new Set(profile.history.map((h) => h.game))];
  for (const g of games) $("history-game").append(el("option", { value: g }, g));
  $("history-game").addEventListener("change", (e) => plot(e.target.value));
  plot(games[0]);
  $("player-games").querySelector("tbody").replaceChildren(...profile.tables.map(result));
  $("no-games-yet").classList.toggle("hidden", profile.tables.length > 0);
}

start();
