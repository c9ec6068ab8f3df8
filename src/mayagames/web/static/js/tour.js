// The first-game guide: a short tour of the table (what each area is, what to click
// first), shown once per game on this device (remembered in localStorage under
// "mayagames:tour:<game>"), reopened with the Guide button. It never blocks the board:
// each step outlines one area and the panel sits in a corner.

const STEPS = [
  ["#actionbar", "This bar says whose turn it is and what to do now. It stays at the top while you scroll; Undo takes back a move within your turn."],
  ["#board", "The board. When it is your turn the places where you can act are outlined in gold and pulse: click one. One move there: it is played at once; several: you pick one."],
  ["#board [data-tip]", "Point at anything (or tap it on a phone) to read what it is and does. The rules are one click away (Rules, at the top)."],
  ["#moves-card", "Every move you can make now, in words: the same moves as on the board."],
  ["#players-card", "The players, their scores and who is to move. Switch on a sound or a notification for your turn here."],
  ["#log", "The log tells each move as a sentence, turn by turn, with the rounds, scorings and Food Days. The other players' last moves are also marked on the board with a dashed outline."],
];

const KEY = (game) => `mayagames:tour:${game}`;
let step = -1;
let focused = null;

export function maybeStartTour(game) {
  if (!game || step >= 0) return;
  try { if (localStorage.getItem(KEY(game))) return; } catch { return; }
  startTour(game);
}

export function startTour(game) {
  const box = document.getElementById("tour");
  box.dataset.game = game;
  step = 0;
  box.classList.remove("hidden");
  document.getElementById("tour-next").onclick = () => showStep(step + 1);
  document.getElementById("tour-skip").onclick = endTour;
  showStep(0);
}

function showStep(i) {
  if (focused) focused.classList.remove("tour-focus");
  if (i >= STEPS.length) { endTour(); return; }
  step = i;
  const [selector, text] = STEPS[i];
  document.getElementById("tour-text").textContent = text;
  document.getElementById("tour-step").textContent = `${i + 1} / ${STEPS.length}`;
  document.getElementById("tour-next").textContent = i === STEPS.length - 1 ? "Done" : "Next";
  focused = document.querySelector(selector);
  if (focused) {
    focused.classList.add("tour-focus");
    if (i > 0) focused.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}

function endTour() {
  const box = document.getElementById("tour");
  if (focused) focused.classList.remove("tour-focus");
  focused = null;
  box.classList.add("hidden");
  try { localStorage.setItem(KEY(box.dataset.game), "done"); } catch { /* private mode */ }
}
