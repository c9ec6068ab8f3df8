// Quick play in the lobby: a "Play now" button per game puts the logged-in account in the
// server's queue (POST /api/quick); the server pairs the waiting players by rating and the
// page opens the new table (told by the account's event stream, or seen at the next look).
// After the wait the player chose, the bot of the nearest rating is offered.
import { api, el } from "./api.js";

const $ = (id) => document.getElementById(id);
const LOOK_MS = 3000;
let look = null;

function showError(error) { $("quick-error").textContent = error ? error.message : ""; }

function show(status) {
  if (status.table) { location.href = `/table/${status.table}`; return; }
  $("quick-status").classList.toggle("hidden", !status.waiting);
  for (const b of document.querySelectorAll("#quick-games button")) b.disabled = Boolean(status.waiting);
  clearTimeout(look);
  if (!status.waiting) return;
  const button = document.querySelector(`#quick-games [data-game="${status.game}"]`);
  $("quick-text").textContent = `Looking for an opponent for ${button ? button.dataset.title : status.game} ` +
    `(your rating ${status.rating.toFixed(1)}, ${Math.floor(status.waited)} s)… `;
  const bot = $("quick-bot");
  bot.classList.toggle("hidden", !status.offer_bot);
  if (status.offer_bot) bot.textContent = `Play the ${status.bot.level} bot now (rating ${status.bot.rating.toFixed(1)})`;
  look = setTimeout(refresh, LOOK_MS);
}

async function refresh() {
  try { show(await api("/api/quick")); } catch (error) { if (error.status !== 401) showError(error); }
}

async function playNow(game) {
  showError(null);
  const wait = $("quick-wait").value;
  try {
    show(await api("/api/quick", { method: "POST", body: { game, speed: $("quick-speed").value, bot_after: wait ? Number(wait) : null } }));
  } catch (error) { showError(error); }
}

async function start() {
  let me = null;
  try { me = await api("/api/me"); } catch { me = null; }
  document.addEventListener("mayagames:quick", (event) => show({ table: event.detail.table }));
  $("quick-cancel").addEventListener("click", async () => {
    try { show(await api("/api/quick", { method: "DELETE" })); } catch (error) { showError(error); }
  });
  $("quick-bot").addEventListener("click", async () => {
    try { show(await api("/api/quick/bot", { method: "POST" })); } catch (error) { showError(error); }
  });
  let games = [];
  try { ({ games } = await api("/api/games")); } catch { return; }
  const two = games.filter((g) => !g.test_game && g.min_players <= 2 && g.max_players >= 2);
  $("quick-games").replaceChildren(...two.map((g) => el("button", {
    type: "button", class: "quick-play", "data-game": g.name, "data-title": g.title, onclick: () => playNow(g.name),
  }, `Play now: ${g.title}`)));
  $("quick").classList.toggle("hidden", !me || !two.length);
  document.addEventListener("mayagames:account", (event) => {
    $("quick").classList.toggle("hidden", !event.detail || !two.length);
  });
  if (me) refresh();
}

start();
