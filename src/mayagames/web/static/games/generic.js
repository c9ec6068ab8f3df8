// Fallback board for a game without its own module: the seats and their scores. The
// page's list of moves and the raw view (under "What you see") carry the rest.
import { esc, frame, text } from "./svg.js";

export function render(ctx) {
  const rowHeight = 34;
  const height = 56 + rowHeight * ctx.seats.length;
  let body = `<rect width="640" height="${height}" fill="#f4efe6" rx="10"/>`;
  body += text(16, 30, "This game has no board drawing yet: use the list of moves.", { size: 16, fill: "#7a6f66" });
  ctx.seats.forEach((seat, i) => {
    const y = 56 + i * rowHeight;
    const mark = !ctx.terminal && ctx.current === seat.seat ? "▶ " : "";
    body += text(24, y + 18, `${mark}${seat.name}`, { size: 18, weight: ctx.current === seat.seat ? "bold" : "normal" });
    body += text(600, y + 18, String(ctx.scores?.[seat.seat] ?? ""), { size: 18, anchor: "end" });
  });
  return { svg: frame(640, height, body, `board of ${esc(ctx.seats.length)} players`), targets: {} };
}
