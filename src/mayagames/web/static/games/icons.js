// Small pictures drawn for this project (no copied artwork): resources, skull, corn, the
// temples, the technologies, what a gear space or a building does, and Tikal's terrain.
// Each is a 24x24 SVG drawing; icon() gives it as an inline <svg> for HTML, iconAt() as a
// group to place inside a board's SVG. iconsFor(text) reads which pictures a catalogue
// text (a gear space's action, a building's effect) calls for, so that a card reads
// without hovering; the words themselves stay the catalogue's.
import { esc } from "./svg.js";

const SHAPES = {
  wood: '<rect x="3" y="8" width="18" height="9" rx="4.5" fill="#8d5a2b"/><ellipse cx="18" cy="12.5" rx="3" ry="4.5" fill="#d9a66b" stroke="#8d5a2b"/><circle cx="18" cy="12.5" r="1.3" fill="none" stroke="#8d5a2b"/>',
  stone: '<path d="M4 16 L7 7 L16 5 L21 11 L18 19 L8 20 Z" fill="#8e9aa0" stroke="#5d676c" stroke-width="1.2"/><path d="M7 7 L11 12 L21 11 M11 12 L8 20" fill="none" stroke="#5d676c" stroke-width=".8"/>',
  gold: '<path d="M3 18 L7 8 L17 8 L21 18 Z" fill="#e0b42a" stroke="#9c7a12" stroke-width="1.2"/><path d="M8 10 L16 10" stroke="#fff3b0" stroke-width="1.5"/>',
  corn: '<path d="M12 3 C16 6 16 15 12 21 C8 15 8 6 12 3 Z" fill="#f2c744" stroke="#b8860b"/><path d="M10 8h4M9.6 11h4.8M9.8 14h4.4M10.5 17h3" stroke="#b8860b" stroke-width=".8"/><path d="M12 21 C7 18 5 13 6 9 C8 13 10 16 12 21 Z" fill="#5a9e4b"/>',
  skull: '<path d="M5 11 C5 5 19 5 19 11 C19 14 17 15 16 16 L16 19 L8 19 L8 16 C7 15 5 14 5 11 Z" fill="#cde8f2" stroke="#4a6b7c" stroke-width="1.2"/><circle cx="9.3" cy="11.5" r="2" fill="#4a6b7c"/><circle cx="14.7" cy="11.5" r="2" fill="#4a6b7c"/><path d="M10 19v-2M12 19v-2M14 19v-2" stroke="#4a6b7c"/>',
  worker: '<circle cx="12" cy="7" r="3.6" fill="#5d4037"/><path d="M5 21 C5 14 8 12 12 12 C16 12 19 14 19 21 Z" fill="#5d4037"/>',
  vp: '<path d="M12 2.5 L14.6 9 L21.5 9.3 L16.1 13.6 L18 20.4 L12 16.5 L6 20.4 L7.9 13.6 L2.5 9.3 L9.4 9 Z" fill="#c98a2b" stroke="#7a5210"/>',
  temple: '<path d="M3 20h18v-3h-2v-3h-2v-3h-2V8H9v3H7v3H5v3H3z" fill="#c98a2b" stroke="#6d4c1d" stroke-width=".8"/><rect x="10" y="4" width="4" height="4" fill="#6d4c1d"/>',
  tech: '<circle cx="12" cy="12" r="6.5" fill="none" stroke="#2471a3" stroke-width="3"/><path d="M12 2v4M12 18v4M2 12h4M18 12h4M4.9 4.9l2.8 2.8M16.3 16.3l2.8 2.8M4.9 19.1l2.8-2.8M16.3 7.7l2.8-2.8" stroke="#2471a3" stroke-width="2.4"/><circle cx="12" cy="12" r="2" fill="#2471a3"/>',
  build: '<path d="M4 20 L13 11" stroke="#6d4c1d" stroke-width="3" stroke-linecap="round"/><path d="M11 5 L19 5 L20 9 L15 9 L13 13 L10 10 L12 8 Z" fill="#7f8c8d" stroke="#4d5656"/>',
  monument: '<path d="M9 3h6l1 3H8z" fill="#9c7a12"/><rect x="9" y="6" width="6" height="12" fill="#e0b07a" stroke="#9c7a12"/><rect x="6" y="18" width="12" height="3" fill="#9c7a12"/><path d="M10.5 9v6M13.5 9v6" stroke="#9c7a12"/>',
  trade: '<path d="M4 8h13l-3-3M20 16H7l3 3" fill="none" stroke="#2f7d6d" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  any: '<circle cx="12" cy="12" r="9" fill="#fdf3dc" stroke="#c98a2b" stroke-width="1.6"/><text x="12" y="16.5" font-size="13" font-weight="bold" text-anchor="middle" fill="#7a5210">?</text>',
  mirror: '<rect x="3" y="5" width="8" height="14" rx="2" fill="#e8e1f0" stroke="#6c5b7b"/><rect x="13" y="5" width="8" height="14" rx="2" fill="#6c5b7b"/><path d="M11 12h2" stroke="#6c5b7b" stroke-width="2"/>',
  farm: '<path d="M3 20h18" stroke="#6d4c1d" stroke-width="2"/><path d="M6 20 C6 14 9 11 9 8 M12 20 C12 13 15 10 15 6 M18 20 C18 15 20 12 20 10" fill="none" stroke="#5a9e4b" stroke-width="2"/><circle cx="9" cy="8" r="2" fill="#f2c744"/><circle cx="15" cy="6" r="2" fill="#f2c744"/>',
  // the temples, each in its colour
  chaac: '<path d="M3 20h18v-3h-2v-3h-2v-3h-2V8H9v3H7v3H5v3H3z" fill="#8d6e63" stroke="#4e342e" stroke-width=".8"/><path d="M12 2 L10 5 L12 5 L11 8" fill="none" stroke="#4e342e" stroke-width="1.3"/>',
  quetzalcoatl: '<path d="M3 20h18v-3h-2v-3h-2v-3h-2V8H9v3H7v3H5v3H3z" fill="#c9a227" stroke="#7a5210" stroke-width=".8"/><circle cx="12" cy="4.5" r="2.4" fill="#7a5210"/>',
  kukulcan: '<path d="M3 20h18v-3h-2v-3h-2v-3h-2V8H9v3H7v3H5v3H3z" fill="#4f8a5b" stroke="#2e5234" stroke-width=".8"/><path d="M8 5 C10 2 14 7 16 4" fill="none" stroke="#2e5234" stroke-width="1.6"/>',
  // the technologies
  agriculture: '<path d="M12 21V10" stroke="#3f7d33" stroke-width="2"/><path d="M12 12 C7 12 5 8 5 5 C9 5 12 8 12 12 Z M12 10 C12 6 15 3 19 3 C19 7 16 10 12 10 Z" fill="#5a9e4b"/>',
  extraction: '<path d="M5 20 L15 10" stroke="#6d4c1d" stroke-width="2.6" stroke-linecap="round"/><path d="M9 4 C14 3 19 6 20 11 C17 8 13 7 9 8 Z" fill="#7f8c8d" stroke="#4d5656"/>',
  architecture: '<rect x="4" y="14" width="7" height="6" fill="#b08968" stroke="#6d4c1d"/><rect x="13" y="14" width="7" height="6" fill="#b08968" stroke="#6d4c1d"/><rect x="8.5" y="7" width="7" height="6" fill="#b08968" stroke="#6d4c1d"/><path d="M8 7 L12 3 L16 7" fill="none" stroke="#6d4c1d" stroke-width="1.4"/>',
  theology: '<circle cx="12" cy="12" r="4.5" fill="#f2c744" stroke="#b8860b"/><path d="M12 2v4M12 18v4M2 12h4M18 12h4M5 5l2.8 2.8M16.2 16.2L19 19M5 19l2.8-2.8M16.2 7.8L19 5" stroke="#b8860b" stroke-width="1.8"/>',
  // Tikal's terrain
  jungle: '<path d="M12 22v-7" stroke="#6d4c1d" stroke-width="2.4"/><path d="M12 3 L19 15 H5 Z" fill="#3f7d33"/><path d="M12 7 L17 15 H7 Z" fill="#5a9e4b"/>',
  ruins: '<path d="M4 20h16" stroke="#6d4c1d" stroke-width="2"/><rect x="5" y="9" width="4" height="11" fill="#b08968" stroke="#6d4c1d"/><path d="M15 20 V12 L19 10 V20 Z" fill="#b08968" stroke="#6d4c1d"/><path d="M4 9h7l-1-2H5z" fill="#6d4c1d"/>',
  volcano: '<path d="M2 21 L9 8 H15 L22 21 Z" fill="#6d3b2b"/><path d="M9 8 L11 12 L13 9 L15 8 Z" fill="#ff7b39"/><path d="M10 6 C10 3 13 4 12 1 M14 6 C15 4 16 4 16 2" fill="none" stroke="#999" stroke-width="1.4"/>',
  lake: '<path d="M2 9 C5 6 7 12 10 9 S15 6 18 9 S21 12 22 9 M2 14 C5 11 7 17 10 14 S15 11 18 14 S21 17 22 14 M2 19 C5 16 7 22 10 19 S15 16 18 19" fill="none" stroke="#1f6f9f" stroke-width="2"/>',
  clearing: '<path d="M3 20h18" stroke="#6d4c1d" stroke-width="1.6"/><path d="M6 20 L5 14 M8 20 L9 13 M12 20 L11 12 M14 20 L15 13 M18 20 L19 14" stroke="#5a9e4b" stroke-width="1.8" stroke-linecap="round"/>',
  base_camp: '<path d="M3 20 L12 5 L21 20 Z" fill="#c98a2b" stroke="#6d4c1d" stroke-width="1.2"/><path d="M12 20 L12 12 L15 20" fill="#6d4c1d"/>',
  treasure: '<path d="M6 9 L9 4 H15 L18 9 L12 21 Z" fill="#4fb3bf" stroke="#1f6f7a" stroke-width="1.2"/><path d="M6 9H18M9 4 L12 9 L15 4M12 9V21" fill="none" stroke="#1f6f7a" stroke-width=".8"/>',
  mask: '<path d="M5 6 C8 4 16 4 19 6 C19 14 16 20 12 20 C8 20 5 14 5 6 Z" fill="#d4a373" stroke="#6d4c1d" stroke-width="1.2"/><path d="M8 10h3M13 10h3M10 15 C11 16 13 16 14 15" stroke="#6d4c1d" stroke-width="1.6"/>',
  ap: '<path d="M13 2 L5 13 H11 L10 22 L19 10 H13 Z" fill="#f2c744" stroke="#9c7a12" stroke-linejoin="round"/>',
  explorer: '<circle cx="12" cy="6" r="3.5" fill="#5d4037"/><path d="M7 21 L9 11 H15 L17 21 Z" fill="#5d4037"/>',
  leader: '<path d="M8 5 L9.5 2 L12 4 L14.5 2 L16 5 Z" fill="#c98a2b"/><circle cx="12" cy="8" r="3.2" fill="#5d4037"/><path d="M6.5 21 L8.5 12 H15.5 L17.5 21 Z" fill="#5d4037"/>',
  // Tikal's action cards: a card's back, then what each card does
  card: '<rect x="5" y="3" width="14" height="18" rx="2" fill="#f3e2c0" stroke="#6d4c1d" stroke-width="1.2"/><rect x="7.5" y="5.5" width="9" height="13" rx="1" fill="none" stroke="#c98a2b"/><path d="M12 8 L15 12 L12 16 L9 12 Z" fill="#c98a2b"/>',
  dig: '<path d="M6 3 L14 11" stroke="#6d4c1d" stroke-width="2.4" stroke-linecap="round"/><path d="M4.5 5 L7.5 2" stroke="#6d4c1d" stroke-width="2.4" stroke-linecap="round"/><path d="M12 9 L19 13 L21 21 L13 19 L9 12 Z" fill="#7f8c8d" stroke="#4d5656" stroke-linejoin="round"/>',
  trail: '<path d="M4 18 L6 9 L18 6 L20 15 Z" fill="#b0a089" stroke="#5d5140" stroke-width="1.2" stroke-linejoin="round"/><path d="M9 14 C9 12 10.5 11.5 11 13 C11.5 14.5 10 16 9 14 Z M13 11 C13 9 14.5 8.5 15 10 C15.5 11.5 14 13 13 11 Z" fill="#5d5140"/>',
  steps: '<path d="M6 21 C4 21 4 17 5 15 C6 13 9 13 9 16 C9 19 8 21 6 21 Z M15 13 C13 13 13 9 14 7 C15 5 18 5 18 8 C18 11 17 13 15 13 Z" fill="#5d4037"/><circle cx="4.6" cy="12.6" r=".9" fill="#5d4037"/><circle cx="6.6" cy="12" r=".9" fill="#5d4037"/><circle cx="13.6" cy="4.6" r=".9" fill="#5d4037"/><circle cx="15.6" cy="4" r=".9" fill="#5d4037"/>',
  floors: '<path d="M3 21h18v-4h-3v-4h-3V9H9v4H6v4H3z" fill="#c98a2b" stroke="#6d4c1d" stroke-width=".8"/><path d="M12 8V1.5M9 4.5 L12 1.5 L15 4.5" fill="none" stroke="#2f7d6d" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  guardian: '<path d="M12 2 L20 5 V11 C20 16 16 20 12 22 C8 20 4 16 4 11 V5 Z" fill="#7d3c98" stroke="#4a235a"/><path d="M12 6 L13.5 10 H17 L14 12.5 L15.2 16.5 L12 14 L8.8 16.5 L10 12.5 L7 10 H10.5 Z" fill="#fff"/>',
};

export const ICON_NAMES = Object.keys(SHAPES);

export function icon(name, { size = 18, title = "" } = {}) {
  const shape = SHAPES[name];
  if (!shape) return "";
  const label = title || name.replace("_", " ");
  return `<svg class="ic ic-${name}" viewBox="0 0 24 24" width="${size}" height="${size}" style="width:${size}px;height:${size}px" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>${shape}</svg>`;
}

export function iconAt(name, x, y, size = 16) {
  const shape = SHAPES[name];
  if (!shape) return "";
  const k = size / 24;
  return `<g class="ic ic-${name}" transform="translate(${(x - size / 2).toFixed(1)} ${(y - size / 2).toFixed(1)}) scale(${k.toFixed(3)})" pointer-events="none">${shape}</g>`;
}

// Which pictures a text calls for, in the order of the rules below (at most `limit`).
const READINGS = [
  [/no action/i, null],
  [/free choice/i, "any"],
  [/crystal skull here/i, "skull"],
  [/market|sell|buy/i, "trade"],
  [/worker/i, "worker"],
  [/perform any action|copy/i, "mirror"],
  [/monument/i, "monument"],
  [/\bbuild/i, "build"],
  [/technolog/i, "tech"],
  [/chaac/i, "chaac"], [/quetzalcoatl/i, "quetzalcoatl"], [/kukulcan/i, "kukulcan"],
  [/temple/i, "temple"],
  [/fishing|harvest|\bcorn\b/i, "corn"],
  [/\bwood\b/i, "wood"], [/\bstone\b/i, "stone"], [/\bgold\b/i, "gold"], [/skull/i, "skull"],
  [/\bVP\b|point/i, "vp"],
  [/farm|food day/i, "farm"],
];

export function iconsFor(text, limit = 3) {
  const found = [];
  for (const [pattern, name] of READINGS) {
    if (!pattern.test(text || "")) continue;
    if (name === null) return [];
    if (!found.includes(name)) found.push(name);
    if (found.length >= limit) break;
  }
  return found;
}
