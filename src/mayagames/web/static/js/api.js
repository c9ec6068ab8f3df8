// Small helpers shared by the lobby and the table page: REST calls and seat tokens.
// Tokens live in localStorage under "mayagames:tokens:<table>" as {seat: token}; they
// never appear in a URL sent to the server (invite links carry them after '#').

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const message = (data && (data.message || data.detail)) || `${response.status} ${response.statusText}`;
    const error = new Error(message);
    error.code = data && data.error;
    error.status = response.status;
    throw error;
  }
  return data;
}

const KEY = (table) => `mayagames:tokens:${table}`;

export function loadTokens(table) {
  try { return JSON.parse(localStorage.getItem(KEY(table)) || "{}"); } catch { return {}; }
}

export function saveToken(table, seat, token) {
  const tokens = loadTokens(table);
  tokens[seat] = token;
  localStorage.setItem(KEY(table), JSON.stringify(tokens));
  rememberTable(table);
}

export function myTables() {
  try { return JSON.parse(localStorage.getItem("mayagames:tables") || "[]"); } catch { return []; }
}

export function rememberTable(table) {
  const tables = myTables().filter((t) => t !== table);
  tables.unshift(table);
  localStorage.setItem("mayagames:tables", JSON.stringify(tables.slice(0, 30)));
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function toast(message, ms = 3500) {
  const node = el("div", { class: "toast", role: "status" }, message);
  document.body.append(node);
  setTimeout(() => node.remove(), ms);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied");
  } catch {
    toast("Select the link and copy it");
  }
}
