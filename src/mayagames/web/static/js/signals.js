// Telling a player that it is their turn: the tab's title and icon (always), a short
// sound (off unless switched on) and a browser notification while the tab is hidden
// (on unless switched off; the browser asks for permission at the first click on the
// page). The switches live in localStorage ("mayagames:settings").

const KEY = "mayagames:settings";
const DEFAULTS = { sound: false, notify: true, steps: true, confirm: true };  // confirm: forced choices that spend goods (table.js)
const ICON = "/favicon.svg";
// The same temple, on a gold background with a red dot: "your turn".
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#c98a2b"/>' +
  '<path d="M10 52h44v-6H48v-7h-6v-7h-5v-8h-10v8h-5v7h-6v7h-6z" fill="#1e5248"/><circle cx="50" cy="14" r="12" fill="#d62828" stroke="#fff" stroke-width="3"/></svg>');

export function settings() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") }; } catch { return { ...DEFAULTS }; }
}

function save(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...settings(), [name]: value }));
}

export function setTurnSignals({ yourTurn, title, over }) {
  const text = over ? `Game over — ${title} · mayagames` : yourTurn ? `● Your turn — ${title} · mayagames` : `${title} · mayagames`;
  if (document.title !== text) document.title = text;
  const icon = document.getElementById("favicon");
  const href = yourTurn ? TURN_ICON : ICON;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  document.body.classList.toggle("your-turn", yourTurn);
}

// It just became this player's turn.
export function signalTurn(title, table) {
  const s = settings();
  if (s.sound) beep();
  if (s.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification("Your turn", { body: `${title} — table ${table}`, tag: `mayagames-${table}`, icon: ICON });
      note.onclick = () => { window.focus(); note.close(); };
    } catch { /* some browsers only notify from a service worker */ }
  }
}

function askPermission() {
  if (!("Notification" in window) || Notification.permission !== "default" || !settings().notify) return;
  try { Notification.requestPermission(); } catch { /* older browsers: callback form only */ }
}

let audio = null;
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch { /* no audio here */ }
}

export function wireSignals() {
  const s = settings();
  for (const name of ["sound", "notify", "steps", "confirm"]) {
    const box = document.getElementById(`set-${name}`);
    if (!box) continue;
    box.checked = s[name];
    box.addEventListener("change", () => {
      save(name, box.checked);
      if (name === "notify" && box.checked) askPermission();
      if (name === "sound" && box.checked) beep();
    });
  }
  // Browsers want a click before they ask: the first one anywhere on the page.
  document.addEventListener("pointerdown", askPermission, { once: true });
}
