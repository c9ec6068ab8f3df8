// The table page's players side, next to table.js (it hears the table's messages as
// "mayagames:message" events): the game clock of each seat, counting down; what the lobby
// says (waiting for players, rated, who ran out of time and is played by a bot); joining a
// free seat or keeping a guest seat in one's account; and the table chat. Every text from
// another player is put in the page as text (never as HTML).
import { api, el, loadTokens, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const social = { state: null, token: null, me: null, offset: 0, chatIds: new Set(), invites: {} };

function fmt(seconds) {
  seconds = Math.max(0, Math.floor(seconds));
  const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${String(m).padStart(2, "0")} min`;
  return `${m}:${String(s).padStart(2, "0")}`;
}

function seatName(i) {
  const s = social.state;
  return s && s.seats[i] ? s.seats[i].name : `seat ${i + 1}`;
}

function drawClocks() {
  const s = social.state;
  const clock = s && s.clock;
  $("clock-card").classList.toggle("hidden", !clock);
  if (!clock) return;
  $("clock-speed").textContent = clock.describe;
  const now = Date.now() / 1000 + social.offset;
  const rows = clock.left.map((left, i) => {
    const running = clock.running === i && clock.deadline !== null && !s.terminal;
    const value = running ? clock.deadline - now : left;
    const zombie = s.players && s.players[i] && s.players[i].zombie;
    const cls = `${running ? "running" : ""} ${running && value < 60 ? "low" : ""}`;
    return el("tr", { "data-seat": i }, el("td", {}, seatName(i)),
      el("td", { class: cls, "data-clock": i }, zombie ? "bot plays" : s.seats[i].bot ? "—" : fmt(value)));
  });
  $("clocks").querySelector("tbody").replaceChildren(...rows);
  for (const node of document.querySelectorAll("[data-panel-clock]")) {  // the player panels (table.js)
    node.textContent = node.dataset.panelClock in clock.left ? rows[node.dataset.panelClock].lastChild.textContent : "";
  }
}

function drawNotice() {
  const s = social.state;
  const lobby = s.lobby || {};
  const parts = [];
  const box = $("table-notice");
  box.replaceChildren();
  if (lobby.waiting) {
    const free = lobby.free || [];
    parts.push(`Waiting for players: ${free.length} free seat${free.length === 1 ? "" : "s"}. The game starts when the table is full.`);
    if (social.me && s.seat === null && free.length) {
      box.append(el("button", { type: "button", id: "join-seat", onclick: () => join(free[0]) }, `Join (seat ${free[0] + 1})`), " ");
    }
  }
  const zombies = (s.players || []).filter((p) => p.zombie && !p.resigned).map((p) => seatName(p.seat));
  if (zombies.length) parts.push(`${zombies.join(", ")} ran out of time: the ${lobby.zombie} bot plays in their place.`);
  const resigned = (s.players || []).filter((p) => p.resigned).map((p) => seatName(p.seat));
  if (s.ended) parts.push(`${s.ended}: the game is over.`);
  else if (resigned.length) parts.push(`${resigned.join(", ")} resigned: the ${lobby.zombie} bot plays in their place.`);
  if (lobby.rated) parts.push("Rated game.");
  if (lobby.rematch) box.append(el("a", { class: "button", id: "rematch-link", href: `/table/${lobby.rematch}` }, "Rematch offered: open it"), " ");
  const claimable = social.me && social.token && s.seat !== null && s.players && !s.players[s.seat].account;
  if (claimable) {
    box.append(el("button", { type: "button", class: "secondary", id: "claim-seat", onclick: claim }, `Keep this seat in ${social.me.account.name}'s account`), " ");
  }
  box.prepend(parts.join(" ") + (parts.length && box.childNodes.length ? " " : ""));
  box.classList.toggle("hidden", !parts.length && !box.querySelector("button, a"));
}

// Resign (concede): a seated person of a game under way; asks first. A loss on the ladder;
// with 2 players the game is over, else the table's bot plays the seat on.
function drawResign() {
  const s = social.state;
  const lobby = s.lobby || {};
  const me = s.seat !== null && s.seat !== undefined && s.players ? s.players[s.seat] : null;
  const can = Boolean(me) && !s.terminal && !lobby.waiting && !me.zombie && !s.seats[s.seat].bot;
  let button = $("resign");
  if (!button) {
    button = el("button", { type: "button", class: "secondary hidden", id: "resign", onclick: resign }, "Resign");
    ($("players-card") || $("table-notice")).append(el("p", { class: "resign-row" }, button));
  }
  button.classList.toggle("hidden", !can);
}

async function resign() {
  const s = social.state;
  const others = s.num_players - 1;
  const warning = `Resign this game? It counts as a loss${s.lobby && s.lobby.rated ? " on the ladder" : ""}; ` +
    (others === 1 ? "the game ends." : `the ${(s.lobby || {}).zombie || "medium"} bot plays your seat from now on.`);
  if (!window.confirm(warning)) return;
  try {
    await api(`/api/tables/${tableId}/resign`, { method: "POST", token: social.token });
  } catch (error) { toast(error.message); }
}

// The creator's card: a new invite link for each person's seat no account holds.
function drawInvites() {
  const s = social.state;
  const lobby = s.lobby || {};
  const mine = social.me && lobby.creator !== null && lobby.creator === social.me.account.id;
  const seats = mine && !s.terminal ? (lobby.invitable || []) : [];
  $("invites-card").classList.toggle("hidden", !seats.length);
  const key = seats.map((seat) => `${seat}:${seatName(seat)}:${social.invites[seat] || ""}`).join(",");
  if (key === social.invitesKey) return;
  social.invitesKey = key;
  $("invites").replaceChildren(...seats.map((seat) => {
    const link = social.invites[seat];
    return el("li", { "data-seat": seat }, el("span", {}, `${seatName(seat)} `),
      el("button", { type: "button", class: "secondary", id: `invite-seat-${seat}`, onclick: () => reissue(seat) },
        link ? "Another new link" : "New invite link"),
      link ? el("input", { id: `invite-link-${seat}`, readonly: "", value: link, "aria-label": `invite link of ${seatName(seat)}`,
        onfocus: (e) => e.target.select() }) : null);
  }));
}

async function reissue(seat) {
  try {
    const answer = await api(`/api/tables/${tableId}/seats/${seat}/invite`, { method: "POST" });
    social.invites[seat] = new URL(answer.invite, location.origin).href;
    drawInvites();
    const input = $(`invite-link-${seat}`);
    input.focus();
    if (navigator.clipboard) navigator.clipboard.writeText(social.invites[seat]).then(() => toast("Link copied: send it to the player."), () => {});
  } catch (error) { toast(error.message); }
}

async function join(seat) {
  try {
    await api(`/api/tables/${tableId}/join`, { method: "POST", body: { seat } });
    location.reload();
  } catch (error) { toast(error.message); }
}

async function claim() {
  try {
    await api(`/api/tables/${tableId}/claim`, { method: "POST", token: social.token });
    toast("The seat is your account's now: open it from any device.");
    setTimeout(() => location.reload(), 600);
  } catch (error) { toast(error.message); }
}

function addChat(line) {
  if (social.chatIds.has(line.id)) return;
  social.chatIds.add(line.id);
  const list = $("chat");
  const when = new Date(line.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  list.append(el("li", { class: line.system ? "system" : "", "data-chat": line.id },
    el("span", { class: "muted" }, `${when} `), line.system ? null : el("strong", {}, `${line.author}: `), line.text));
  list.scrollTop = list.scrollHeight;
}

async function loadChat() {
  try {
    const { chat } = await api(`/api/tables/${tableId}/chat`, { token: social.token });
    chat.forEach(addChat);
  } catch { /* the table says why */ }
}

async function sendChat(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  try {
    const line = await api(`/api/tables/${tableId}/chat`, { method: "POST", body: { text }, token: social.token });
    input.value = "";
    addChat(line);
  } catch (error) { toast(error.message); }
}

function onMessage(event) {
  const { message, token } = event.detail;
  social.token = token;
  if (message.type === "chat") { addChat(message); return; }
  if (message.type !== "state") return;
  social.state = message;
  if (message.clock) social.offset = message.clock.server_time - Date.now() / 1000;
  // a private table's chat belongs to its seats; a public one's to every logged-in player
  const canChat = message.seat !== null || (Boolean(social.me) && Boolean(message.lobby && message.lobby.public));
  $("chat-form").classList.toggle("hidden", !canChat);
  $("chat-login").classList.toggle("hidden", canChat);
  drawClocks();
  drawNotice();
  drawInvites();
  drawResign();
}

async function start() {
  document.addEventListener("mayagames:message", onMessage);
  $("chat-form").addEventListener("submit", sendChat);
  try { social.me = await api("/api/me"); } catch { social.me = null; }
  if (social.state) onMessage({ detail: { message: social.state, token: social.token } });
  if (!social.token) {
    const tokens = Object.values(loadTokens(tableId));
    social.token = tokens.length ? tokens[0] : null;
  }
  loadChat();
  setInterval(drawClocks, 1000);
  document.addEventListener("mayagames:panels", drawClocks);  // new player panels: their clocks at once
}

start();
