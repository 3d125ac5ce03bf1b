// The oracle's page: every value shown comes from the JSON API (docs/api.md). The page keeps
// only what it shows in its URL (`#oware?…`, `#lukho?…`, `#kiothi?…`, `#results?file=…`), so a
// link reproduces a view and the browser's back / forward step through views.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== undefined && k !== null) e.append(k);
  return e;
};
const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}, text) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const sum = (a) => a.reduce((x, y) => x + y, 0);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const other = (side) => (side === "south" ? "north" : "south");

function showError(msg) {
  $("error").textContent = msg || "";
}

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const text = await r.text();
  let v;
  try { v = JSON.parse(text); } catch (e) { v = text; }
  if (!r.ok) throw new Error((v && v.error) || `${r.status} ${r.statusText}`);
  return v;
}

// Values: signed, an interval while the search has not settled them.
const signed = (v) => (v > 0 ? `+${v}` : `${v}`);
const valueText = (lo, hi) => (lo === hi ? signed(lo) : `${signed(lo)}..${signed(hi)}`);
// Numbers for reading: about 4 significant digits, integers as they are.
function round4(x) {
  if (typeof x !== "number" || Number.isInteger(x) || !Number.isFinite(x)) return x;
  return Number(x.toPrecision(4));
}
function roundText(s) {
  if (!/^-?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+)$/.test(s.trim())) return s;
  return `${round4(Number(s))}`;
}

// Outcome of a value interval for the mover, the stores counted: final margin = `offset` (the
// mover's store minus the opponent's) + the value of the seeds on the board.
const OUTCOMES = [
  ["win", "Winning"], ["win-draw", "Winning or drawing"], ["draw", "Drawing"],
  ["unknown", "Not yet decided"], ["draw-loss", "Drawing or losing"], ["loss", "Losing"],
];
function outcome(lo, hi, offset) {
  const a = lo + offset, b = hi + offset;
  if (a > 0) return "win";
  if (b < 0) return "loss";
  if (a === 0 && b === 0) return "draw";
  if (a === 0) return "win-draw";
  if (b === 0) return "draw-loss";
  return "unknown";
}
const bestFirst = (a, b) => b.lower - a.lower || b.upper - a.upper || (a.move < b.move ? -1 : a.move > b.move ? 1 : 0);

// Moves grouped by outcome, best first; `label(m)` names a move, `pick(m)` plays it (or null).
function moveGroups(box, moves, offset, best, label, pick) {
  box.textContent = "";
  const sorted = [...moves].sort(bestFirst);
  for (const [key, title] of OUTCOMES) {
    const ms = sorted.filter((m) => outcome(m.lower, m.upper, offset) === key);
    if (!ms.length) continue;
    const g = el("section", { class: `group ${key}`, "data-outcome": key });
    g.append(el("h4", {}, `${title} (${ms.length})`));
    const ul = el("ul", { class: "moves" });
    for (const m of ms) {
      const li = el("li", { "data-move": m.move, "data-lower": m.lower, "data-upper": m.upper, "data-outcome": key });
      // "Best" only where the values single some moves out (not while every bound overlaps).
      if (best.includes(m.move) && best.length < moves.length) li.classList.add("best");
      const name = label(m);
      const fin = offset ? `; final margin ${valueText(m.lower + offset, m.upper + offset)} with the stores` : "";
      const b = pick ? el("button", { class: "move", title: `play ${name}${fin}` }, name) : el("span", { class: "move", title: `${name}${fin}` }, name);
      if (pick) b.addEventListener("click", () => pick(m));
      li.append(b, el("span", { class: "value" }, valueText(m.lower, m.upper)));
      ul.append(li);
    }
    g.append(ul);
    box.append(g);
  }
}

// ---------------------------------------------------------------- routing
const TABS = ["oware", "lukho", "kiothi", "results"];
let routed = null;
let info = null;

function parseHash(h = location.hash) {
  const s = h.replace(/^#/, "");
  const q = s.indexOf("?");
  const tab = q < 0 ? s : s.slice(0, q);
  return { tab: TABS.includes(tab) ? tab : "oware", params: new URLSearchParams(q < 0 ? "" : s.slice(q + 1)) };
}

// The URL of a view; `push` makes it a new history entry (a step back / forward can reach).
function setUrl(tab, params, push = true) {
  const q = params.toString().replace(/%2C/g, ",").replace(/%40/g, "@").replace(/%3A/g, ":").replace(/%2F/g, "/");
  const url = `#${tab}${q ? `?${q}` : ""}`;
  $(`tab-${tab}`).setAttribute("href", url);
  routed = url;
  if (location.hash === url) return;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

function showTab(tab) {
  for (const t of TABS) {
    $(t).hidden = t !== tab;
    $(`tab-${t}`).classList.toggle("active", t === tab);
    if (t === tab) $(`tab-${t}`).setAttribute("aria-current", "page");
    else $(`tab-${t}`).removeAttribute("aria-current");
  }
}

async function route() {
  if (location.hash === routed && routed !== null) return;
  routed = location.hash;
  const { tab, params } = parseHash();
  showTab(tab);
  showError("");
  if (tab === "oware") await owareRoute(params);
  else if (tab === "lukho") await lukhoRoute(params);
  else if (tab === "kiothi") await kiothiRoute(params);
  else await resultsRoute(params);
}
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
// In-page links (tabs, results, "play this choice") are views too.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[href^='#']");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  if (a.getAttribute("href") !== location.hash) history.pushState(null, "", a.getAttribute("href"));
  route();
});

// ---------------------------------------------------------------- Oware
const oware = {
  gs: "no-capture", start: null, moves: [], at: 0, edit: null,
  game: null, line: null, done: false, abort: null, gen: 0,
};
const owareDb = (gs) => (info ? info.oware.databases.find((d) => d.rules.grand_slam === gs) : null);

// A start inside the database: k seeds per pit when it holds 12k, else a small spread.
function owareDefault() {
  const d = owareDb(oware.gs) || (info && info.oware.databases[0]);
  if (!d) return { pits: Array(12).fill(4), to_move: "south" };
  if (d.max_stones >= 12) return { pits: Array(12).fill(Math.min(4, Math.floor(d.max_stones / 12))), to_move: "south" };
  const pits = Array(12).fill(0);
  const half = Math.floor(d.max_stones / 2);
  for (let i = 0; i < half; i++) { pits[(i + 1) % 6] += 1; pits[6 + ((i + 1) % 6)] += 1; }
  return { pits, to_move: "south" };
}

function owareParams() {
  const p = new URLSearchParams();
  p.set("gs", oware.gs);
  p.set("start", oware.start.pits.join(","));
  p.set("to", oware.start.to_move);
  if (oware.start.stores && (oware.start.stores[0] || oware.start.stores[1])) p.set("stores", oware.start.stores.join(","));
  if (oware.moves.length) p.set("moves", oware.moves.join(","));
  if (oware.at !== oware.moves.length) p.set("at", `${oware.at}`);
  // The search time is part of the view: the same link searches as long.
  p.set("time", $("oware-time").value);
  return p;
}

const ints = (s) => (s ? s.split(",").filter((x) => x.trim() !== "").map((x) => Number(x)) : []);

async function owareRoute(p) {
  if (p.has("time")) $("oware-time").value = p.get("time");
  if (!p.has("start") && oware.start) { setUrl("oware", owareParams(), false); return; }
  oware.gs = p.get("gs") || oware.gs;
  $("oware-variant").value = oware.gs;
  oware.start = p.has("start")
    ? { pits: ints(p.get("start")), to_move: p.get("to") === "north" ? "north" : "south", stores: p.has("stores") ? ints(p.get("stores")) : undefined }
    : owareDefault();
  if (!oware.start.stores) delete oware.start.stores;
  oware.moves = ints(p.get("moves"));
  oware.at = p.has("at") ? Math.max(0, Math.min(oware.moves.length, Number(p.get("at")))) : oware.moves.length;
  oware.edit = null;
  setUrl("oware", owareParams(), false);
  await owareUpdate();
}

// A new view of the game: into the URL, then drawn and analysed.
function owareGo(push = true) {
  setUrl("oware", owareParams(), push);
  return owareUpdate();
}

async function owareUpdate() {
  showError("");
  const body = { rules: { grand_slam: oware.gs, cycle: "split" }, start: oware.start, moves: oware.moves.slice(0, oware.at) };
  let g;
  try {
    g = await api("/api/oware/game", body);
  } catch (e) {
    showError(e.message);
    document.body.dataset.oware = "done";
    return;
  }
  oware.game = g;
  drawOware();
  owareAnalyse();
}

const owareSide = (ply) => (ply % 2 === 0 ? oware.start.to_move : other(oware.start.to_move));

function drawOware() {
  const board = $("oware-board");
  board.textContent = "";
  const edit = oware.edit;
  const g = oware.game;
  const pits = edit || g.pits;
  const stores = edit ? [0, 0] : g.stores;
  const mover = edit ? null : g.terminal ? null : g.to_move;
  const lastPlayed = !edit && oware.at > 0 ? { side: owareSide(oware.at - 1), pit: oware.moves[oware.at - 1] } : null;
  board.classList.toggle("editing", !!edit);
  const cell = (cls, text, attrs = {}) => el("div", { class: cls, ...attrs }, text);
  // Row names and labels (each player's own indices, left to right from his seat).
  board.append(cell("rowname north", "North", { style: "grid-area: 1 / 1" }));
  for (let c = 0; c < 6; c++) board.append(cell("label", `${5 - c}`, { style: `grid-area: 1 / ${c + 2}` }));
  board.append(cell(`store north${mover === "north" ? " to-move" : ""}`, null, { id: "oware-store-north", style: "grid-area: 2 / 1 / 4 / 2", "data-store": stores[1] }));
  const pit = (side, k, row, col) => {
    const i = side === "south" ? k : 6 + k;
    const own = side === mover;
    const legal = own && g.legal.includes(k);
    const b = el("button", {
      class: `pit ${side}${legal ? " legal" : ""}${lastPlayed && lastPlayed.side === side && lastPlayed.pit === k ? " last" : ""}`,
      "data-pit": i, "data-side": side, "data-own": k, style: `grid-area: ${row} / ${col}`,
      "aria-label": `${cap(side)}'s pit ${k}: ${pits[i]} seeds${legal ? `, play (key ${k + 1})` : ""}`,
    }, `${pits[i]}`);
    if (edit) {
      b.addEventListener("click", (ev) => owareEditPit(i, ev.shiftKey ? -1 : 1));
      b.addEventListener("contextmenu", (ev) => { ev.preventDefault(); owareEditPit(i, -1); });
    } else {
      b.disabled = !legal;
      b.addEventListener("click", () => owarePlay(k));
    }
    return b;
  };
  for (let c = 0; c < 6; c++) board.append(pit("north", 5 - c, 2, c + 2));
  for (let c = 0; c < 6; c++) board.append(pit("south", c, 3, c + 2));
  board.append(cell(`store south${mover === "south" ? " to-move" : ""}`, null, { id: "oware-store-south", style: "grid-area: 2 / 8 / 4 / 9", "data-store": stores[0] }));
  for (let c = 0; c < 6; c++) board.append(cell("label", `${c}`, { style: `grid-area: 4 / ${c + 2}` }));
  board.append(cell("rowname south", "South", { style: "grid-area: 4 / 8" }));
  for (const side of ["north", "south"]) {
    const s = $(`oware-store-${side}`);
    s.append(el("span", { class: "store-name" }, `${cap(side)}'s store`), el("b", {}, `${stores[side === "south" ? 0 : 1]}`));
  }
  const seeds = sum(pits);
  let status;
  if (edit) status = `Editing: ${seeds} seeds on the board.`;
  else if (g.terminal) status = `Game over: ${g.result.winner === "draw" ? "a draw" : `${cap(g.result.winner)} wins`} (South ${g.result.score[0]}, North ${g.result.score[1]})`;
  else status = `${cap(g.to_move)} to move · ply ${g.ply + 1} · ${seeds} seeds on the board`;
  $("oware-status").textContent = status;
  owareScope(seeds);
  drawOwareHistory();
}

function owareScope(seeds) {
  const d = owareDb(oware.gs);
  const s = $("oware-scope");
  s.className = "scope";
  if (d && seeds <= d.max_stones) {
    s.textContent = `In the database (${oware.gs}, up to ${d.max_stones} seeds): every value is exact.`;
    s.classList.add("inside");
  } else {
    s.textContent = d
      ? `Outside the database: ${seeds} seeds on the board, the ${oware.gs} database holds positions of up to ${d.max_stones}. Values are what the search proves in the time given (intervals until exact).`
      : `No database for ${oware.gs} is loaded: values are what the search proves in the time given (intervals until exact).`;
    s.classList.add("outside");
  }
  s.dataset.inside = d && seeds <= d.max_stones ? "1" : "0";
}

// A numbered list of plies (`first` = the number of the first), each a button.
function plyList(box, moves, first, sideOf, current, onPick) {
  box.textContent = "";
  moves.forEach((m, i) => {
    const side = sideOf(i);
    const b = el("button", { class: `ply ${side}`, "data-ply": i, "data-move": m, title: `${cap(side)} plays pit ${m}` }, `${side[0].toUpperCase()}${m}`);
    if (i === current) b.setAttribute("aria-current", "step");
    if (current !== null && i >= current) b.classList.add("future");
    b.addEventListener("click", () => onPick(i));
    // Numbered by moves (a move: one ply of each side, the game's first mover first).
    const ply = first - 1 + i;
    const num = ply % 2 === 0 ? `${ply / 2 + 1}.` : i === 0 ? `${(ply + 1) / 2}…` : null;
    box.append(el("li", {}, num ? el("span", { class: "num" }, num) : null, b));
  });
  if (!moves.length) box.append(el("li", { class: "none" }, "—"));
}

function drawOwareHistory() {
  plyList($("oware-history"), oware.moves, 1, owareSide, oware.at, (i) => {
    oware.at = i + 1;
    owareGo();
  });
  $("oware-history").dataset.moves = oware.moves.slice(0, oware.at).join(",");
}

function clearAnalysis() {
  $("oware-value").textContent = "…";
  $("oware-verdict").textContent = "";
  $("oware-method").textContent = "";
  $("oware-depth").textContent = "";
  $("oware-best").textContent = "";
  $("oware-pv").textContent = "";
  $("oware-groups").textContent = "";
}

function showLine(line) {
  oware.line = line;
  const g = oware.game;
  document.body.dataset.owareLines = Number(document.body.dataset.owareLines || 0) + 1;
  const mi = g.to_move === "south" ? 0 : 1;
  const offset = g.stores[mi] - g.stores[1 - mi];
  const v = $("oware-value");
  v.textContent = valueText(line.lower, line.upper);
  v.dataset.lower = line.lower;
  v.dataset.upper = line.upper;
  const o = outcome(line.lower, line.upper, offset);
  v.className = `outcome ${o}`;
  const verdict = { win: "wins", loss: "loses", draw: "draws", "win-draw": "wins or draws", "draw-loss": "draws or loses", unknown: "— not decided yet" }[o];
  const margin = offset ? ` (final margin ${valueText(line.lower + offset, line.upper + offset)} with the stores)` : "";
  $("oware-verdict").textContent = `${cap(g.to_move)} ${verdict}${margin} · value`;
  $("oware-method").textContent = `(${line.exact ? "exact" : "bounds"}, ${line.method === "db" ? "database" : line.method})`;
  $("oware-method").dataset.method = line.method;
  $("oware-depth").textContent = line.method === "db" ? "" : `depth ${line.depth}`;
  $("oware-depth").dataset.depth = line.depth;
  $("oware-best").textContent = line.best_moves.join(", ");
  moveGroups($("oware-groups"), line.moves, offset, line.best_moves,
    (m) => `pit ${m.move}`, (m) => owarePlay(m.move));
  // The legal pits on the board carry their move's outcome.
  for (const m of line.moves) {
    const b = document.querySelector(`#oware-board .pit[data-side=${g.to_move}][data-own="${m.move}"]`);
    if (b) b.dataset.outcome = outcome(m.lower, m.upper, offset);
  }
  const base = oware.at;
  plyList($("oware-pv"), line.pv, g.ply + 1, (i) => owareSide(base + i), null, (i) => {
    oware.moves = oware.moves.slice(0, base).concat(line.pv.slice(0, i + 1));
    oware.at = oware.moves.length;
    owareGo();
  });
  $("oware-pv").dataset.pv = line.pv.join(" ");
}

async function owareAnalyse() {
  if (oware.abort) oware.abort.abort();
  const gen = ++oware.gen;
  oware.line = null;
  oware.done = false;
  document.body.dataset.oware = "busy";
  document.body.dataset.owareLines = 0;
  clearAnalysis();
  const g = oware.game;
  if (g.terminal) {
    $("oware-value").textContent = "game over";
    oware.done = true;
    document.body.dataset.oware = "done";
    return;
  }
  const ctrl = new AbortController();
  oware.abort = ctrl;
  const time = parseFloat($("oware-time").value) || 3;
  try {
    const r = await fetch("/api/oware/analyse", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: { grand_slam: oware.gs, cycle: "split" }, pits: g.view, time }),
      signal: ctrl.signal,
    });
    if (!r.ok) throw new Error((await r.json()).error);
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (gen !== oware.gen) return;
        if (line.error) throw new Error(line.error);
        if (line.done) {
          $("oware-depth").textContent += line.reason === "exact" ? "" : ` (stopped: ${line.reason === "time" ? "time is up" : line.reason})`;
        } else {
          showLine(line);
        }
      }
    }
  } catch (e) {
    if (e.name === "AbortError") return;
    showError(e.message);
  }
  if (gen !== oware.gen) return;
  oware.done = true;
  document.body.dataset.oware = "done";
  if ($("oware-auto").checked && oware.game.to_move === "north") owareReply();
}

function owarePlay(k) {
  const g = oware.game;
  if (oware.edit || !g || g.terminal || !g.legal.includes(k)) return;
  if (oware.at < oware.moves.length && oware.moves[oware.at] === k) oware.at++;
  else {
    oware.moves = oware.moves.slice(0, oware.at).concat([k]);
    oware.at = oware.moves.length;
  }
  owareGo();
}

function owareReply() {
  if (oware.line && oware.done && oware.line.best_moves.length) owarePlay(oware.line.best_moves[0]);
}
function owareStep(d) {
  const at = Math.max(0, Math.min(oware.moves.length, oware.at + d));
  if (at === oware.at) return;
  oware.at = at;
  owareGo();
}
function owareEditPit(i, d) {
  oware.edit[i] = Math.max(0, oware.edit[i] + d);
  drawOware();
}

$("oware-back").addEventListener("click", () => owareStep(-1));
$("oware-forward").addEventListener("click", () => owareStep(1));
$("oware-reply").addEventListener("click", owareReply);
$("oware-new").addEventListener("click", () => {
  oware.start = owareDefault();
  oware.moves = [];
  oware.at = 0;
  owareGo();
});
$("oware-flip").addEventListener("click", () => {
  // The position in view, the other side to move: a new start.
  const g = oware.game;
  oware.start = { pits: [...g.pits], to_move: other(g.to_move), stores: [...g.stores] };
  oware.moves = [];
  oware.at = 0;
  owareGo();
});
$("oware-set").addEventListener("click", () => {
  oware.start = { pits: ints($("oware-start").value), to_move: $("oware-start-side").value };
  const st = ints($("oware-start-stores").value);
  if (st.length) oware.start.stores = st;
  oware.moves = [];
  oware.at = 0;
  owareGo();
});
$("oware-empty").addEventListener("click", () => {
  if (oware.edit) {
    oware.start = { pits: oware.edit, to_move: $("oware-start-side").value };
    oware.edit = null;
    oware.moves = [];
    oware.at = 0;
    $("oware-empty").textContent = "Edit board";
    owareGo();
  } else {
    oware.edit = [...oware.game.pits];
    $("oware-start-side").value = oware.game.to_move;
    $("oware-empty").textContent = "Done editing";
    if (oware.abort) oware.abort.abort();
    clearAnalysis();
    drawOware();
  }
});
$("oware-time").addEventListener("change", () => { if (oware.start) setUrl("oware", owareParams(), false); });
$("oware-variant").addEventListener("change", () => {
  oware.gs = $("oware-variant").value;
  owareGo();
});

document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (!$("oware").hidden) {
    if (k >= "1" && k <= "6") owarePlay(Number(k) - 1);
    else if (k.length === 1 && k >= "a" && k <= "f") owarePlay(k.charCodeAt(0) - 97);
    else if (k === "u" || k === "arrowleft") owareStep(-1);
    else if (k === "arrowright") owareStep(1);
    else if (k === "r") owareReply();
  } else if (!$("lukho").hidden) {
    if (k === "arrowleft") lukhoTurn(lukho.turn - 1);
    else if (k === "arrowright") lukhoTurn(lukho.turn + 1);
    else if (k === "home") lukhoTurn(0);
    else if (k === "end") lukhoTurn(Infinity);
  } else if (!$("kiothi").hidden && kiothi.edit && k === "n") {
    const b = ev.target.closest("#kiothi-board .pit");
    if (b) kiothiEdit(Number(b.dataset.pit), 0, true);
  }
});

// ---------------------------------------------------------------- Lukho
const newChoice = () => ({ remove: [0, 0, 0, 0, 0, 0, 0, 0], d: 0, j: 0 });
const lukho = { south: newChoice(), north: newChoice(), race: "south-first", chain: "it", keepOne: false, game: null, turn: 0, gen: 0, speedsKey: null };
lukho.south.remove[7] = 1;

const choiceText = (c) => `${c.remove.join(",")} ${c.d}@${c.d ? c.j : 0}`;
function parseChoice(s) {
  const m = /^\s*([0-3](?:,[0-3]){7})[\s+]+(\d+)@([0-7])\s*$/.exec(s || "");
  if (!m) return null;
  return { remove: m[1].split(",").map(Number), d: Number(m[2]), j: Number(m[3]) };
}
const maxDrop = (c) => { const h = sum(c.remove); return lukho.keepOne ? Math.max(0, h - 1) : h; };

function lukhoParams() {
  const p = new URLSearchParams();
  p.set("south", choiceText(lukho.south));
  p.set("north", choiceText(lukho.north));
  p.set("race", lukho.race);
  if (lukho.chain !== "it") p.set("chain", lukho.chain);
  if (lukho.keepOne) p.set("keep1", "1");
  if (lukho.turn) p.set("turn", `${lukho.turn}`);
  return p;
}

async function lukhoRoute(p) {
  lukho.chain = p.get("chain") || "it";
  lukho.keepOne = p.get("keep1") === "1";
  lukho.race = p.get("race") || lukho.race;
  for (const side of ["south", "north"]) {
    const v = p.get(side);
    if (v === null) continue;
    let c = parseChoice(v);
    if (!c && /^\d+$/.test(v.trim())) {
      // A choice id: its text forms from the server.
      try {
        const o = await api("/api/lukho/opening", { rules: { chain: lukho.chain, keep_one: lukho.keepOne }, id: Number(v) });
        c = parseChoice(`${o.text.remove} ${o.text.drop}`);
      } catch (e) { showError(e.message); }
    }
    if (c) lukho[side] = c;
    else showError(`${side}: "${v}" is not a choice (r0,…,r7 COUNT@PIT or an id)`);
  }
  $("lukho-chain").value = lukho.chain;
  $("lukho-keep-one").checked = lukho.keepOne;
  drawChoices();
  await lukhoPlay(Number(p.get("turn") || 0), false);
}

function drawChoices() {
  for (const side of ["south", "north"]) drawChoice(side);
}

// One player's secret choice, seen from his seat: his row below (click: lift 0–3), his
// opponent's above (click: drop there; again: one more seed).
function drawChoice(side) {
  const c = lukho[side];
  const opp = other(side);
  const box = $(`lukho-${side}-choice`);
  box.textContent = "";
  const h = sum(c.remove);
  const md = maxDrop(c);
  if (c.d > md) c.d = md;
  box.append(el("h3", {}, `${cap(side)}'s choice`));
  const b = el("div", { class: "mini-board" });
  const oppRow = el("div", { class: "row" });
  for (let col = 0; col < 8; col++) {
    const j = 7 - col;
    const dropped = c.d > 0 && c.j === j ? c.d : 0;
    const btn = el("button", {
      class: `pit ${opp}${dropped ? " dropped" : ""}`, "data-opp": j,
      "aria-label": `${cap(opp)}'s pit ${j}: 3 seeds${dropped ? ` + ${dropped} dropped` : ""}; click to drop here`,
    }, `${3 + dropped}`);
    if (dropped) btn.append(el("span", { class: "badge plus" }, `+${dropped}`));
    btn.addEventListener("click", () => {
      if (md === 0) { $(`lukho-${side}-text`).textContent = "Lift seeds first (click your own pits): there is nothing to drop."; return; }
      if (c.d > 0 && c.j === j) c.d = c.d >= md ? 0 : c.d + 1;
      else { c.j = j; c.d = Math.max(1, c.d); }
      lukhoChanged();
    });
    oppRow.append(btn);
  }
  const ownRow = el("div", { class: "row" });
  for (let i = 0; i < 8; i++) {
    const r = c.remove[i];
    const btn = el("button", {
      class: `pit ${side}${r ? " lifted" : ""}`, "data-own": i,
      "aria-label": `${cap(side)}'s pit ${i}: lift ${r} of 3; click to lift ${(r + 1) % 4}`,
    }, `${3 - r}`);
    if (r) btn.append(el("span", { class: "badge minus" }, `−${r}`));
    btn.addEventListener("click", () => {
      c.remove[i] = (r + 1) % 4;
      lukhoChanged();
    });
    ownRow.append(btn);
  }
  const labels = (f) => { const r = el("div", { class: "row labels" }); for (let col = 0; col < 8; col++) r.append(el("span", {}, `${f(col)}`)); return r; };
  b.append(labels((col) => 7 - col), oppRow, ownRow, labels((col) => col));
  box.append(b);
  const count = el("input", { type: "number", min: 0, max: md, value: c.d, id: `lukho-${side}-drop-count`, "aria-label": `${cap(side)} drops how many seeds` });
  count.addEventListener("change", () => { c.d = Math.max(0, Math.min(md, Number(count.value) || 0)); lukhoChanged(); });
  const clear = el("button", { type: "button" }, "Reset");
  clear.addEventListener("click", () => { lukho[side] = newChoice(); lukhoChanged(); });
  box.append(el("div", { class: "controls" }, el("label", {}, "Drop ", count, ` of ${h} into ${cap(opp)}'s pit ${c.d ? c.j : "–"}`), clear));
  const sown = h - c.d;
  box.append(el("p", { class: "choice-text", id: `lukho-${side}-text`, "data-choice": choiceText(c) },
    `Lifts ${h} seed${h === 1 ? "" : "s"}, drops ${c.d}${c.d ? ` into ${cap(opp)}'s pit ${c.j}` : ""}, sows ${sown} · `,
    el("code", {}, choiceText(c)), el("span", { class: "choice-id", id: `lukho-${side}-id` }, "")));
}

function lukhoChanged() {
  lukho.turn = 0;
  drawChoices();
  lukhoPlay(0, true);
}

// The race outcomes `lukho play --race` accepts (from /api/info), each with its help line.
const SPEEDS = "speeds:K";
const raceMeaning = (race) => {
  const r = info && info.lukho.races.find((x) => x.name === (race.startsWith("speeds:") ? SPEEDS : race));
  return r ? r.description : race;
};
function raceMenu() {
  const sel = $("lukho-race");
  sel.textContent = "";
  for (const r of info.lukho.races) sel.append(el("option", { value: r.name, title: r.description }, r.name));
}

// The race controls show `lukho.race`; a `speeds:K` race lists the pair's outcomes (they
// depend on the pair: `lukho races`), and a K past the last is the last.
async function drawRace(choice) {
  const speeds = lukho.race.startsWith("speeds:");
  $("lukho-race").value = speeds ? SPEEDS : lukho.race;
  $("lukho-speed-box").hidden = !speeds;
  if (speeds) {
    const rules = { chain: lukho.chain, keep_one: lukho.keepOne };
    const key = JSON.stringify([rules, choice(lukho.south), choice(lukho.north)]);
    if (lukho.speedsKey !== key) {
      const r = await api("/api/lukho/races", { rules, south: choice(lukho.south), north: choice(lukho.north) });
      lukho.speedsKey = key;
      const sel = $("lukho-speed");
      sel.textContent = "";
      for (const x of r.races) {
        const k = x.race.slice(7);
        sel.append(el("option", { value: k, title: `${x.race}: ρ = v_South/v_North in [${x.rho_from}, ${x.rho_to}); ${x.first_player} moves first, ${x.winner === "draw" ? "a draw" : `${x.winner} wins`}` },
          `${k}: ρ ${x.rho_from}–${x.rho_to} (${x.winner === "draw" ? "draw" : `${x.winner} wins`})`));
      }
    }
    const n = $("lukho-speed").options.length;
    const k = Math.max(0, Math.min(n - 1, Number(lukho.race.slice(7)) || 0));
    lukho.race = `speeds:${k}`;
    $("lukho-speed").value = `${k}`;
  }
  const cap0 = $("lukho-race-caption");
  cap0.textContent = "";
  cap0.append(el("b", {}, lukho.race), `: ${raceMeaning(lukho.race)}. `, el("span", { class: "muted" }, info ? info.lukho.race_rule : ""));
}

async function lukhoPlay(turn = 0, push = true) {
  showError("");
  lukho.chain = $("lukho-chain").value || "it";
  lukho.keepOne = $("lukho-keep-one").checked;
  const choice = (c) => ({ remove: c.remove.join(","), drop: `${c.d}@${c.d ? c.j : 0}` });
  document.body.dataset.lukho = "busy";
  const gen = ++lukho.gen;
  try {
    await drawRace(choice);
    if (gen !== lukho.gen) return;
    const g = await api("/api/lukho/play", {
      rules: { chain: lukho.chain, keep_one: lukho.keepOne },
      race: lukho.race, south: choice(lukho.south), north: choice(lukho.north),
    });
    if (gen !== lukho.gen) return;
    lukho.game = g;
  } catch (e) {
    if (gen !== lukho.gen) return;
    lukho.game = null;
    $("lukho-summary").textContent = "";
    $("lukho-board").textContent = "";
    showError(e.message);
    document.body.dataset.lukho = "done";
    return;
  }
  const g = lukho.game;
  lukho.turn = Math.max(0, Math.min(g.trace.length - 1, turn));
  for (const side of ["south", "north"]) $(`lukho-${side}-id`).textContent = ` · id ${g[side].id}`;
  lukhoSummary(g);
  setUrl("lukho", lukhoParams(), push);
  drawLukho();
  document.body.dataset.lukho = "done";
}

function lukhoSummary(g) {
  const box = $("lukho-summary");
  box.textContent = "";
  const [s, n] = g.stores;
  const fmt = (x) => `${round4(x)}`;
  const head = g.winner === "draw"
    ? el("p", { class: "headline draw" }, `A draw, ${fmt(s)}–${fmt(n)}`)
    : el("p", { class: `headline ${g.winner === "south" ? "win" : "loss"}` },
      `${cap(g.winner)} wins ${fmt(Math.max(s, n))}–${fmt(Math.min(s, n))}, by ${fmt(Math.abs(g.margin))} seed${Math.abs(g.margin) === 1 ? "" : "s"}`);
  box.append(head);
  const why = {
    normal: `The game ended after ${g.turns} turns, when the player to move had no seed he could lift (L11).`,
    cycle: `After ${g.turns} turns a position repeated: the game would go round for ever, so the seeds left are split (L12).`,
    "perpetual-turn": `After ${g.turns} turns a sowing never ended: the seeds left are split (L12).`,
    "perpetual-opening": "The opening sowing never ends: the seeds left are split (L9).",
  }[g.class] || `Class ${g.class}, ${g.turns} turns.`;
  const sows = (c) => sum(c.remove.split(",").map(Number)) - Number(c.drop.split("@")[0]);
  const ss = sows(g.south), ns = sows(g.north);
  let first = `${cap(g.first_player)} moved first`;
  if (ss === 0 && ns > 0 && g.first_player === "south") first += " (South sowed nothing, so he finished the opening at once: L8)";
  else if (ns === 0 && ss > 0 && g.first_player === "north") first += " (North sowed nothing, so he finished the opening at once: L8)";
  else {
    first += ` (he finished his opening sowing first; race ${g.race}: ${raceMeaning(g.race)})`;
  }
  const pts = g.winner === "draw" ? "no points (a draw)"
    : `${cap(g.winner)} scores ${g.points_later_game} point${g.points_later_game === 1 ? "" : "s"}${g.points_first_game !== g.points_later_game ? ` (${g.points_first_game} if it is the first game of a series: a "bull")` : ""}`;
  const dl = el("dl", { class: "facts" });
  const fact = (k, v, id, data) => { dl.append(el("dt", {}, k), el("dd", { id, "data-value": data }, v)); };
  fact("Winner", g.winner === "draw" ? "nobody (draw)" : cap(g.winner), "lukho-winner", g.winner);
  fact("Final totals", `South ${fmt(s)} · North ${fmt(n)}`, "lukho-stores", g.stores.join(":"));
  fact("Margin for South", signed(round4(g.margin)), "lukho-margin", g.margin);
  fact("Turns", `${g.turns}`, "lukho-turns", g.turns);
  fact("First to move", cap(g.first_player), "lukho-first", g.first_player);
  fact("Points", pts, "lukho-points", `${g.points_first_game}:${g.points_later_game}`);
  fact("Ending", g.class, "lukho-class", g.class);
  box.append(dl, el("p", { class: "muted" }, `${first}. ${why}`));
}

function lukhoTurn(t) {
  if (!lukho.game) return;
  const n = Math.max(0, Math.min(lukho.game.trace.length - 1, t));
  if (n === lukho.turn) return;
  lukho.turn = n;
  setUrl("lukho", lukhoParams(), false);
  drawLukho();
}

function drawLukho() {
  const g = lukho.game;
  const board = $("lukho-board");
  board.textContent = "";
  if (!g) return;
  const t = g.trace[lukho.turn];
  const prev = lukho.turn > 0 ? g.trace[lukho.turn - 1] : { stores: [0, 0] };
  const last = lukho.turn === g.trace.length - 1;
  $("lukho-turn").textContent = lukho.turn === 0
    ? `After the opening (turn 0 of ${g.trace.length - 1}): ${cap(t.to_move)} to move`
    : `Turn ${t.turn} of ${g.trace.length - 1}: ${last ? "the final position" : `${cap(t.to_move)} to move`}`;
  $("lukho-turn").dataset.turn = t.turn;
  // The pit the mover must lift (L10): his lowest own index, non-empty and not a knife.
  const base = t.to_move === "south" ? 0 : 8;
  let next = -1;
  for (let i = base; i < base + 8; i++) if (t.pits[i] > 0 && t.knives[i] < 0) { next = i; break; }
  const cell = (cls, text, style, attrs = {}) => el("div", { class: cls, style, ...attrs }, text);
  board.append(cell("rowname north", "North", "grid-area: 1 / 1"));
  for (let c = 0; c < 8; c++) board.append(cell("label", `${7 - c}`, `grid-area: 1 / ${c + 2}`));
  const store = (side, col) => {
    const k = side === "south" ? 0 : 1;
    const d = t.stores[k] - prev.stores[k];
    const s = cell(`store ${side}${t.to_move === side ? " to-move" : ""}`, null, `grid-area: 2 / ${col} / 4 / ${col + 1}`, { id: `lukho-store-${side}`, "data-store": t.stores[k] });
    s.append(el("span", { class: "store-name" }, `${cap(side)}'s store`), el("b", {}, `${t.stores[k]}`));
    if (d > 0) s.append(el("span", { class: "delta" }, `+${d}`));
    board.append(s);
  };
  store("north", 1);
  const pit = (i, row, col) => {
    const knife = t.knives[i];
    const side = i < 8 ? "south" : "north";
    const cls = `pit ${side}${knife === 0 ? " knife-south" : knife === 1 ? " knife-north" : ""}${i === next && !last ? " next" : ""}`;
    const label = `${cap(side)}'s pit ${i % 8}: ${t.pits[i]} seeds${knife >= 0 ? `, a knife of ${knife === 0 ? "South" : "North"}` : ""}`;
    board.append(el("span", { class: cls, "data-pit": i, style: `grid-area: ${row} / ${col}`, role: "img", "aria-label": label, title: label }, `${t.pits[i]}`));
  };
  for (let c = 0; c < 8; c++) pit(15 - c, 2, c + 2);
  for (let c = 0; c < 8; c++) pit(c, 3, c + 2);
  store("south", 10);
  for (let c = 0; c < 8; c++) board.append(cell("label", `${c}`, `grid-area: 4 / ${c + 2}`));
  board.append(cell("rowname south", "South", "grid-area: 4 / 10"));
  const caps = [0, 1].map((k) => t.stores[k] - prev.stores[k]);
  const what = lukho.turn === 0 ? "In the opening" : `In turn ${lukho.turn}`;
  $("lukho-captured").textContent = caps[0] || caps[1]
    ? `${what} ${[caps[0] ? `South captured ${caps[0]}` : "", caps[1] ? `North captured ${caps[1]}` : ""].filter(Boolean).join(" and ")}.`
    : `${what} nobody captured.`;
}

$("lukho-race").addEventListener("change", () => {
  const v = $("lukho-race").value;
  lukho.race = v === SPEEDS ? `speeds:${$("lukho-speed").value || 0}` : v;
  lukhoPlay(0, true);
});
$("lukho-speed").addEventListener("change", () => { lukho.race = `speeds:${$("lukho-speed").value}`; lukhoPlay(0, true); });
for (const id of ["lukho-chain", "lukho-keep-one"]) $(id).addEventListener("change", () => { drawChoices(); lukhoPlay(0, true); });
$("lukho-play").addEventListener("click", () => lukhoPlay(0, true));
$("lukho-prev").addEventListener("click", () => lukhoTurn(lukho.turn - 1));
$("lukho-next").addEventListener("click", () => lukhoTurn(lukho.turn + 1));
$("lukho-first-turn").addEventListener("click", () => lukhoTurn(0));
$("lukho-last-turn").addEventListener("click", () => lukhoTurn(Infinity));

// ---------------------------------------------------------------- Kiothi
const KIOTHI_DEFAULT = { pits: [2, 0, 1, 3, 0, 1, 0, 2, 0, 1, 1, 2, 0, 0, 3, 1, 0, 1, 2, 0], stores: [20, 23], to_move: "south", nki: [3, 10, 14], turn: 21 };
// `legal`: the mover's legal moves (`B:K`) when known (from the last move's answer or the
// search's move list); `last`: the move that led here, with the board before it; `edit`:
// clicks change the position instead of playing.
const kiothi = { pos: null, result: null, gen: 0, legal: null, last: null, edit: false, pick: null, ended: null };

function kiothiState() {
  const p = kiothi.pos;
  return { game: "kiothi", pits: p.pits, stores: p.stores, to_move: p.to_move, nki: p.pits.map((_, i) => p.nki.includes(i)), turn: p.turn };
}
function kiothiParams() {
  const p = kiothi.pos;
  const q = new URLSearchParams();
  q.set("pits", p.pits.join(","));
  if (p.nki.length) q.set("nki", p.nki.join(","));
  q.set("stores", p.stores.join(","));
  q.set("to", p.to_move);
  q.set("turn", `${p.turn}`);
  // The search limits are part of the view: the same link searches as deep and as long.
  q.set("depth", $("kiothi-depth").value);
  q.set("time", $("kiothi-time").value);
  return q;
}

async function kiothiRoute(p) {
  if (p.has("depth")) $("kiothi-depth").value = p.get("depth");
  if (p.has("time")) $("kiothi-time").value = p.get("time");
  if (!p.has("pits")) {
    // The tab opened without a position: the sample endgame, solved at once like any link.
    if (!kiothi.pos) kiothi.pos = structuredClone(KIOTHI_DEFAULT);
    setUrl("kiothi", kiothiParams(), false);
    p = kiothiParams();
  }
  const pos = {
    pits: ints(p.get("pits")), nki: ints(p.get("nki")), stores: p.has("stores") ? ints(p.get("stores")) : [0, 0],
    to_move: p.get("to") === "north" ? "north" : "south", turn: Number(p.get("turn") || 3),
  };
  // The move that led here is shown only while its result is the position in view (a step
  // back in the history shows the earlier position without it).
  const key = (q) => JSON.stringify([q.pits, q.nki, q.stores, q.to_move, q.turn]);
  if (!(kiothi.last && key(kiothi.last.after) === key(pos))) { kiothi.last = null; kiothi.legal = null; kiothi.ended = null; }
  kiothi.pos = pos;
  kiothi.result = null;
  kiothi.pick = null;
  drawKiothi();
  if (kiothi.ended) { kiothiOver(); return; }
  await kiothiSolve();
}

function drawKiothi() {
  const p = kiothi.pos;
  $("kiothi-to-move").value = p.to_move;
  $("kiothi-store-south").value = p.stores[0];
  $("kiothi-store-north").value = p.stores[1];
  $("kiothi-turn").value = p.turn;
  $("kiothi-position").value = JSON.stringify(kiothiState());
  $("kiothi-edit").textContent = kiothi.edit ? "Done editing" : "Edit board";
  const board = $("kiothi-board");
  board.textContent = "";
  board.classList.toggle("editing", kiothi.edit);
  const best = new Set();
  const r = kiothi.result;
  if (r && r.best_moves.length < r.moves.length) for (const m of r.best_moves) best.add(Number(m.split(":")[0]));
  const legal = kiothi.edit || !kiothi.legal ? [] : kiothi.legal;
  const last = kiothi.last;
  const cell = (cls, text, style, attrs = {}) => el("div", { class: cls, style, ...attrs }, text);
  board.append(cell("rowname north", "North", "grid-area: 1 / 1"));
  for (let c = 0; c < 10; c++) board.append(cell("label", `${9 - c}`, `grid-area: 1 / ${c + 2}`));
  const store = (side, col) => {
    const k = side === "south" ? 0 : 1;
    const s = cell(`store ${side}${p.to_move === side ? " to-move" : ""}`, null, `grid-area: 2 / ${col} / 4 / ${col + 1}`, { id: `kiothi-store-${side}-shown`, "data-store": p.stores[k] });
    s.append(el("span", { class: "store-name" }, `${cap(side)}'s prison`), el("b", {}, `${p.stores[k]}`));
    if (last && p.stores[k] > last.before.stores[k]) s.append(el("span", { class: "delta" }, `+${p.stores[k] - last.before.stores[k]}`));
    board.append(s);
  };
  store("north", 1);
  const pit = (i, row, col) => {
    const side = i < 10 ? "south" : "north";
    const own = i % 10;
    const nki = p.nki.includes(i);
    const isBest = side === p.to_move && best.has(own);
    const moves = side === p.to_move ? legal.filter((m) => Number(m.split(":")[0]) === own) : [];
    const changed = last && last.before.pits[i] !== p.pits[i];
    const origin = last && side === last.side && Number(last.move.split(":")[0]) === own;
    const what = moves.length === 1 ? `, play ${moves[0]}` : moves.length ? `, play ${moves.join(" or ")}` : "";
    const b = el("button", {
      class: `pit ${side}${nki ? " nki" : ""}${isBest ? " best" : ""}${moves.length ? " legal" : ""}${changed ? " changed" : ""}${origin ? " last" : ""}${kiothi.pick === own && moves.length ? " picked" : ""}`,
      "data-pit": i, "data-side": side, "data-own": own, "data-count": p.pits[i], style: `grid-area: ${row} / ${col}`,
      "aria-label": `${cap(side)}'s boma ${own}: ${p.pits[i]} warriors${nki ? ", nki" : ""}${isBest ? ", a best move starts here" : ""}${what}`,
      title: `${cap(side)}'s boma ${own}${nki ? " (nki)" : ""}${what}`,
    }, `${p.pits[i]}`);
    if (changed) b.append(el("span", { class: `badge ${p.pits[i] > last.before.pits[i] ? "plus" : "minus"}` }, `${p.pits[i] > last.before.pits[i] ? "+" : "−"}${Math.abs(p.pits[i] - last.before.pits[i])}`));
    if (kiothi.edit) {
      b.addEventListener("click", (ev) => kiothiEdit(i, ev.shiftKey ? -1 : 1, $("kiothi-nki-mode").checked));
      b.addEventListener("contextmenu", (ev) => { ev.preventDefault(); kiothiEdit(i, -1, false); });
    } else {
      b.disabled = !moves.length;
      // One legal lift plays at once; several are offered beside the board.
      b.addEventListener("click", () => {
        if (moves.length === 1) kiothiPlay(moves[0]);
        else { kiothi.pick = own; drawKiothi(); }
      });
    }
    board.append(b);
  };
  for (let c = 0; c < 10; c++) pit(19 - c, 2, c + 2);
  for (let c = 0; c < 10; c++) pit(c, 3, c + 2);
  store("south", 12);
  for (let c = 0; c < 10; c++) board.append(cell("label", `${c}`, `grid-area: 4 / ${c + 2}`));
  board.append(cell("rowname south", "South", "grid-area: 4 / 12"));
  drawKiothiLifts(legal);
}

// The lifts of the boma picked on the board, each a button (with its value when known).
function drawKiothiLifts(legal) {
  const box = $("kiothi-lifts");
  box.textContent = "";
  if (kiothi.pick === null) return;
  const ms = legal.filter((m) => Number(m.split(":")[0]) === kiothi.pick);
  if (!ms.length) return;
  const vals = kiothi.result ? Object.fromEntries(kiothi.result.moves.map((m) => [m.move, valueText(m.lower, m.upper)])) : {};
  box.append(`${cap(kiothi.pos.to_move)}'s boma ${kiothi.pick}: lift `);
  for (const m of ms) {
    const b = el("button", { class: "move", "data-move": m, title: `play ${m}` }, `${m.split(":")[1]}${vals[m] ? ` (${vals[m]})` : ""}`);
    b.addEventListener("click", () => kiothiPlay(m));
    box.append(b, " ");
  }
}

// One move through the server (the rules are the library's): the next position becomes the
// view (a new history entry), the sowing's result is shown and the position solved.
async function kiothiPlay(move) {
  showError("");
  const before = structuredClone(kiothi.pos);
  document.body.dataset.kiothi = "busy";
  let r;
  try {
    r = await api("/api/kiothi/play", { position: kiothiState(), move });
  } catch (e) {
    showError(e.message);
    document.body.dataset.kiothi = "done";
    return;
  }
  const q = r.position;
  const pos = { pits: q.pits, stores: q.stores, to_move: q.to_move, turn: q.turn, nki: q.nki.map((x, i) => (x ? i : -1)).filter((i) => i >= 0) };
  kiothi.last = { move: r.move, side: before.to_move, captured: r.captured, before, after: pos };
  kiothi.legal = Array.isArray(r.legal) ? r.legal : null;
  kiothi.ended = r.terminal ? r.result : null;
  kiothi.pos = pos;
  kiothi.result = null;
  kiothi.pick = null;
  setUrl("kiothi", kiothiParams(), true);
  drawKiothi();
  if (kiothi.ended) { kiothiOver(); return; }
  await kiothiSolve();
}

// What the last move did, in words.
function kiothiPlayed() {
  const box = $("kiothi-played");
  const l = kiothi.last;
  box.textContent = "";
  if (!l) { delete box.dataset.move; return; }
  const [b, k] = l.move.split(":");
  const changed = l.after.pits.filter((n, i) => n !== l.before.pits[i]).length;
  box.dataset.move = l.move;
  box.dataset.captured = l.captured;
  box.append(`${cap(l.side)} played `, el("code", {}, l.move), `: lifted ${k} warrior${k === "1" ? "" : "s"} from boma ${b}; `,
    l.captured ? `captured ${l.captured} (prison ${l.before.stores[l.side === "south" ? 0 : 1]} → ${l.after.stores[l.side === "south" ? 0 : 1]})` : "captured nothing",
    `; ${changed} boma changed (marked +/−). `);
  const back = el("button", { type: "button", id: "kiothi-undo", title: "Back to the position before this move" }, "Take back");
  back.addEventListener("click", () => history.back());
  box.append(back);
}

function kiothiOver() {
  const r = kiothi.ended;
  const v = $("kiothi-value");
  v.textContent = `Game over: ${r.winner === "draw" ? "a draw" : `${cap(r.winner)} wins`} (South ${round4(r.score[0])}, North ${round4(r.score[1])})`;
  v.className = "outcome";
  $("kiothi-method").textContent = "";
  $("kiothi-groups").textContent = "";
  kiothiPlayed();
  document.body.dataset.kiothi = "done";
}

function kiothiEdit(i, d, toggleNki) {
  const p = kiothi.pos;
  if (toggleNki) {
    p.nki = p.nki.includes(i) ? p.nki.filter((x) => x !== i) : [...p.nki, i].sort((a, b) => a - b);
  } else {
    p.pits[i] = Math.max(0, p.pits[i] + d);
  }
  kiothiChanged();
  const b = document.querySelector(`#kiothi-board .pit[data-pit="${i}"]`);
  if (b) b.focus();
}
function kiothiChanged() {
  kiothi.result = null;
  kiothi.legal = null;
  kiothi.last = null;
  kiothi.ended = null;
  kiothi.pick = null;
  $("kiothi-groups").textContent = "";
  $("kiothi-value").textContent = "…";
  $("kiothi-method").textContent = "";
  kiothiPlayed();
  setUrl("kiothi", kiothiParams(), false);
  drawKiothi();
}

async function kiothiSolve() {
  showError("");
  const gen = ++kiothi.gen;
  const body = { position: kiothiState() };
  const d = $("kiothi-depth").value, t = $("kiothi-time").value;
  if (d) body.depth = Number(d);
  if (t) body.time = Number(t);
  $("kiothi-value").textContent = "searching…";
  kiothiPlayed();
  document.body.dataset.kiothi = "busy";
  let s;
  try {
    s = await api("/api/kiothi/solve", body);
  } catch (e) {
    if (gen !== kiothi.gen) return;
    $("kiothi-value").textContent = "…";
    showError(e.message);
    document.body.dataset.kiothi = "done";
    return;
  }
  if (gen !== kiothi.gen) return;
  kiothi.result = s;
  kiothi.legal = s.moves.map((m) => m.move);
  const p = kiothi.pos;
  const mi = p.to_move === "south" ? 0 : 1;
  const offset = p.stores[mi] - p.stores[1 - mi];
  const v = $("kiothi-value");
  v.textContent = `${cap(p.to_move)} to move: value ${valueText(s.lower, s.upper)}`;
  v.dataset.lower = s.lower;
  v.dataset.upper = s.upper;
  v.dataset.depth = s.depth;
  v.className = `outcome ${outcome(s.lower, s.upper, offset)}`;
  $("kiothi-method").textContent = `(${s.exact ? "exact" : "bounds"}, ${s.method}, depth ${s.depth}, ${s.nodes} nodes; moves are boma:warriors lifted)`;
  moveGroups($("kiothi-groups"), s.moves, offset, s.best_moves, (m) => m.move, kiothi.edit ? null : (m) => kiothiPlay(m.move));
  drawKiothi();
  document.body.dataset.kiothi = "done";
}

$("kiothi-solve").addEventListener("click", () => { setUrl("kiothi", kiothiParams(), true); kiothiSolve(); });
$("kiothi-edit").addEventListener("click", () => {
  kiothi.edit = !kiothi.edit;
  kiothi.pick = null;
  if (kiothi.edit) { drawKiothi(); return; }
  // Done editing: the edited position is a view of its own, solved at once.
  setUrl("kiothi", kiothiParams(), true);
  drawKiothi();
  kiothiSolve();
});
for (const id of ["kiothi-depth", "kiothi-time"]) $(id).addEventListener("change", () => setUrl("kiothi", kiothiParams(), false));
$("kiothi-to-move").addEventListener("change", () => { kiothi.pos.to_move = $("kiothi-to-move").value; kiothiChanged(); });
for (const [id, f] of [["kiothi-store-south", (p, v) => { p.stores[0] = v; }], ["kiothi-store-north", (p, v) => { p.stores[1] = v; }], ["kiothi-turn", (p, v) => { p.turn = v; }]]) {
  $(id).addEventListener("change", () => { f(kiothi.pos, Math.max(0, Number($(id).value) || 0)); kiothiChanged(); });
}
function kiothiLoadJson(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    showError(`position: not JSON (${e.message})`);
    return;
  }
  if (!Array.isArray(v.pits) || v.pits.length !== 20) { showError("position: pits must be 20 counts"); return; }
  kiothi.pos = {
    pits: v.pits.map(Number), stores: v.stores || [0, 0], to_move: v.to_move === "north" ? "north" : "south",
    nki: (v.nki || []).map((x, i) => (x ? i : -1)).filter((i) => i >= 0), turn: v.turn || 3,
  };
  kiothiChanged();
}
$("kiothi-load").addEventListener("click", () => kiothiLoadJson($("kiothi-position").value));
$("kiothi-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) kiothiLoadJson(await f.text());
});

// ---------------------------------------------------------------- Results
const results = { files: null, path: null };

// Groups of the results directory: overviews, equilibria (one per run), the sweep tables by
// opponent, samples and the rest.
function resultGroup(path) {
  const dir = path.includes("/") ? path.slice(0, path.indexOf("/")) : "";
  if (path.endsWith(".md") && !path.startsWith("equilibrium/") && !path.includes("/")) return "Overview";
  if (dir === "equilibrium") return "Equilibria";
  if (dir) return cap(dir.replace(/-/g, " "));
  const m = /^(symmetric|vs-keep-all|vs-common-reply|vs-eq-support)-/.exec(path);
  if (m) return { symmetric: "Every choice vs itself", "vs-keep-all": "vs North keeping every seed", "vs-common-reply": "vs the common reply", "vs-eq-support": "vs the equilibrium support" }[m[1]];
  return "Other";
}
const GROUP_ORDER = ["Overview", "Equilibria", "vs North keeping every seed", "Every choice vs itself", "vs the common reply", "vs the equilibrium support"];

async function resultsList() {
  if (results.files) return results.files;
  const nav = $("results-list");
  try {
    results.files = (await api("/api/lukho/results")).files;
  } catch (e) {
    nav.textContent = `No results directory is served (${e.message}).`;
    results.files = [];
    return results.files;
  }
  const groups = new Map();
  for (const f of results.files) {
    const g = resultGroup(f.path);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(f);
  }
  const names = [...groups.keys()].sort((a, b) => {
    const ia = GROUP_ORDER.indexOf(a), ib = GROUP_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  nav.textContent = "";
  nav.append(el("p", { class: "muted" }, `${results.files.length} files`));
  for (const g of names) {
    const d = el("details", { "data-group": g, open: g === "Overview" || g === "Equilibria" ? true : undefined });
    d.append(el("summary", {}, `${g} (${groups.get(g).length})`));
    const ul = el("ul");
    for (const f of groups.get(g)) {
      const label = g === "Equilibria" ? f.path.replace(/^equilibrium\//, "").replace(/\/equilibrium\.json$/, "") : f.path.replace(/^[^/]+\//, "");
      ul.append(el("li", {}, el("a", { href: `#results?file=${f.path}`, "data-path": f.path, title: `${f.path} (${f.bytes} bytes)` }, label)));
    }
    d.append(ul);
    nav.append(d);
  }
  return results.files;
}

async function resultsRoute(p) {
  await resultsList();
  const path = p.get("file") || (results.files.some((f) => f.path === "README.md") ? "README.md" : null);
  if (!p.get("file") && path) setUrl("results", new URLSearchParams({ file: path }), false);
  else setUrl("results", p, false);
  await resultsFile(path);
}

function table(rows, head, cls) {
  const t = el("table", { class: cls });
  const h = el("tr");
  for (const c of head) h.append(el("th", { scope: "col" }, c));
  t.append(el("thead", {}, h));
  const tb = el("tbody");
  for (const r of rows) {
    const tr = el("tr");
    for (const c of r) tr.append(el("td", {}, c instanceof Node ? c : `${c}`));
    tb.append(tr);
  }
  t.append(tb);
  return t;
}

function csvRows(text) {
  // Quoted fields (removals) hold commas; no field holds a quote or a newline.
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => {
    const out = [];
    let cur = "", q = false;
    for (const ch of l) {
      if (ch === '"') q = !q;
      else if (ch === "," && !q) { out.push(cur); cur = ""; }
      else cur += ch;
    }
    out.push(cur);
    return out;
  });
}

const raceOfModel = (r) => ({ sequential: "south-first", lockstep: "lockstep-south" }[r] || r);
const playHref = (south, north, race, rules) => {
  const p = new URLSearchParams({ south, north, race: raceOfModel(race) });
  if (rules && rules.chain && rules.chain !== "it") p.set("chain", rules.chain);
  if (rules && rules.keep_one) p.set("keep1", "1");
  return `#lukho?${p.toString().replace(/%2C/g, ",").replace(/%40/g, "@")}`;
};

async function resultsFile(path) {
  const box = $("results-file");
  box.textContent = "";
  results.path = path;
  for (const a of document.querySelectorAll("#results-list a")) {
    if (a.dataset.path === path) { a.setAttribute("aria-current", "page"); a.closest("details").open = true; } else a.removeAttribute("aria-current");
  }
  if (!path) return;
  box.append(el("h2", { class: "path" }, path));
  const url = "/api/lukho/results/" + path;
  document.body.dataset.results = "busy";
  if (path.endsWith(".svg")) {
    box.append(el("img", { src: url, alt: path }));
    document.body.dataset.results = "done";
    return;
  }
  const r = await fetch(url);
  const text = await r.text();
  if (!r.ok) { box.append(el("p", { class: "error" }, text)); document.body.dataset.results = "done"; return; }
  if (path.endsWith(".md")) {
    box.append(markdown(text, path));
  } else if (path.endsWith(".csv")) {
    const rows = csvRows(text);
    const head = rows[0] || [];
    const body = rows.slice(1, 201).map((r) => r.map(roundText));
    const si = head.indexOf("south_remove"), di = head.indexOf("south_drop");
    if (si >= 0 && di >= 0) {
      const race = /lockstep/.test(path) ? "lockstep" : "sequential";
      const sym = /(^|\/)symmetric-/.test(path);
      head.unshift("");
      body.forEach((row, k) => {
        const south = `${rows[k + 1][si]} ${rows[k + 1][di]}`;
        row.unshift(el("a", { href: playHref(south, sym ? south : "0,0,0,0,0,0,0,0 0@0", race), title: `play ${south} against ${sym ? "itself" : "North keeping every seed"}` }, "play"));
      });
    }
    box.append(el("p", { class: "muted" }, `${rows.length - 1} rows${rows.length > 201 ? " (the first 200 shown)" : ""}; numbers rounded to 4 significant digits`));
    box.append(el("div", { class: "scroll" }, table(body, head, "data")));
  } else if (path.endsWith(".json")) {
    const v = JSON.parse(text);
    if (Array.isArray(v.south) && Array.isArray(v.north) && "value" in v) equilibriumView(box, v, path);
    else jsonView(box, v);
  } else {
    box.append(el("pre", {}, text));
  }
  document.body.dataset.results = "done";
}

function jsonView(box, v) {
  const scalars = [], nested = [];
  const flat = (x) => (x === null || typeof x !== "object" ? `${round4(x)}` : JSON.stringify(x, (k, y) => round4(y)));
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (Array.isArray(x) && x.length && typeof x[0] === "object" && x[0] !== null) nested.push([k, x]);
      else scalars.push([k, flat(x)]);
    }
    if (scalars.length) box.append(table(scalars, ["field", "value"], "kv"));
  } else if (Array.isArray(v)) nested.push(["", v]);
  for (const [k, rows] of nested) {
    const cols = [...new Set(rows.slice(0, 50).flatMap((r) => Object.keys(r)))];
    if (k) box.append(el("h3", {}, `${k} (${rows.length})`));
    box.append(el("div", { class: "scroll" }, table(rows.slice(0, 200).map((r) => cols.map((c) => (c in r ? flat(r[c]) : ""))), cols, "data")));
  }
}

// The committed equilibrium mixes: what they are, charts by seeds lifted, dropped and drop
// pit, and the mixes themselves with "play".
function equilibriumView(box, v, path) {
  const sameMix = JSON.stringify(v.south) === JSON.stringify(v.north);
  const run = path.replace(/^equilibrium\//, "").replace(/\/equilibrium\.json$/, "");
  box.append(el("p", { class: "summary-line" },
    `Run ${run}: race ${v.race}, payoff ${v.payoff}, family ${v.family} (${v.family_size} choices). `,
    el("b", {}, `Value ${round4(v.value)}`),
    `, ${v.exact ? "exact" : "not proven exact"}: certified in [${round4(v.lower)}, ${round4(v.upper)}] after ${v.iterations} iterations${v.stalled ? " (stalled)" : ""}. `,
    sameMix ? "Both players use the same mix." : ""));
  const topN = v.north[0] ? v.north[0].choice : "0,0,0,0,0,0,0,0 0@0";
  const topS = v.south[0] ? v.south[0].choice : "0,0,0,0,0,0,0,0 0@0";
  for (const side of sameMix ? ["south"] : ["south", "north"]) {
    const mix = v[side];
    box.append(el("h3", {}, `${sameMix ? "The" : cap(side) + "'s"} mix (${mix.length} choices)`));
    const parsed = mix.map((m) => ({ ...parseChoice(m.choice), w: m.weight }));
    const by = (n, key) => { const a = Array(n).fill(0); for (const c of parsed) { const k = key(c); if (k !== null) a[k] += c.w; } return a; };
    const charts = el("div", { class: "charts" });
    charts.append(
      barChart("by seeds lifted", by(25, (c) => sum(c.remove)).slice(0, 1 + Math.max(...parsed.map((c) => sum(c.remove)))), (i) => `${i}`),
      barChart("by seeds dropped", by(25, (c) => c.d).slice(0, 1 + Math.max(...parsed.map((c) => c.d))), (i) => `${i}`),
      barChart("by drop pit (no drop: –)", [by(1, (c) => (c.d ? null : 0))[0], ...by(8, (c) => (c.d ? c.j : null))], (i) => (i === 0 ? "–" : `${i - 1}`)),
    );
    box.append(charts);
  }
  for (const side of ["south", "north"]) {
    const mix = v[side];
    const d = el("details", { open: side === "south" ? true : undefined });
    d.append(el("summary", {}, `${cap(side)}'s mix, heaviest first (${mix.length} choices)`));
    box.append(d);
    const rows = [...mix].sort((a, b) => b.weight - a.weight).map((m) => [
      m.id, el("code", {}, m.choice), `${(m.weight * 100).toPrecision(4)} %`,
      el("a", { href: side === "south" ? playHref(m.choice, topN, v.race, v.rules) : playHref(topS, m.choice, v.race, v.rules), title: `play it against ${side === "south" ? "North" : "South"}'s heaviest choice` }, "play this choice"),
    ]);
    d.append(el("div", { class: "scroll" }, table(rows, ["id", "choice", "weight", ""], `data mix ${side}`)));
  }
}

// A small bar chart (SVG) of weights, labelled every bar.
function barChart(title, values, label) {
  const w = 16, gap = 3, h = 90, top = 14, bottom = 16;
  const max = Math.max(...values, 1e-12);
  const width = values.length * (w + gap) + 8;
  const s = svg("svg", { width, height: h + top + bottom, viewBox: `0 0 ${width} ${h + top + bottom}`, role: "img", class: "chart" });
  s.append(svg("title", {}, `Weight ${title}`));
  values.forEach((x, i) => {
    const bh = (x / max) * h;
    const xpos = 4 + i * (w + gap);
    const r = svg("rect", { x: xpos, y: top + h - bh, width: w, height: Math.max(bh, x > 0 ? 1 : 0), class: "bar", "data-label": label(i), "data-weight": x });
    r.append(svg("title", {}, `${label(i)}: ${(x * 100).toFixed(1)} %`));
    s.append(r);
    s.append(svg("text", { x: xpos + w / 2, y: top + h + 12, "text-anchor": "middle", class: "tick" }, label(i)));
    if (x / max > 0.15) s.append(svg("text", { x: xpos + w / 2, y: top + h - bh - 2, "text-anchor": "middle", class: "pct" }, `${Math.round(x * 100)}`));
  });
  return el("figure", {}, s, el("figcaption", {}, `Weight (%) ${title}`));
}

// ---------------------------------------------------------------- markdown
// A small renderer for the results' markdown: headings, paragraphs, lists, block quotes,
// tables, code (fenced and indented), inline code, emphasis, links. It builds DOM nodes, so
// no text is ever read as HTML.
function markdown(text, path) {
  const root = el("div", { class: "md" });
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const lines = text.replace(/\r/g, "").split("\n");
  let i = 0;
  const isTableSep = (l) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(l);
  const cells = (l) => l.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
  const blockStart = (l) => /^(#{1,6}\s|```|>|\s*[-*+]\s|\s*\d+[.)]\s|\|)/.test(l) || /^ {4}/.test(l);
  while (i < lines.length) {
    const l = lines[i];
    if (!l.trim()) { i++; continue; }
    let m;
    if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(l))) {
      const lvl = Math.min(6, m[1].length + 2);
      root.append(el(`h${lvl}`, {}, ...inline(m[2], dir)));
      i++;
    } else if (/^```/.test(l)) {
      const buf = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) buf.push(lines[i++]);
      i++;
      root.append(el("pre", {}, el("code", {}, buf.join("\n"))));
    } else if (/^ {4}/.test(l)) {
      const buf = [];
      while (i < lines.length && (/^ {4}/.test(lines[i]) || (!lines[i].trim() && i + 1 < lines.length && /^ {4}/.test(lines[i + 1])))) buf.push(lines[i++].slice(4));
      root.append(el("pre", {}, el("code", {}, buf.join("\n"))));
    } else if (/^\s*\|/.test(l) && i + 1 < lines.length && isTableSep(lines[i + 1])) {
      const head = cells(l);
      i += 2;
      const t = el("table", { class: "data" });
      const tr = el("tr");
      for (const c of head) tr.append(el("th", {}, ...inline(c, dir)));
      t.append(el("thead", {}, tr));
      const tb = el("tbody");
      while (i < lines.length && /^\s*\|/.test(lines[i])) {
        const r = el("tr");
        for (const c of cells(lines[i])) r.append(el("td", {}, ...inline(roundText(c), dir)));
        tb.append(r);
        i++;
      }
      t.append(tb);
      root.append(el("div", { class: "scroll" }, t));
    } else if (/^>/.test(l)) {
      const buf = [];
      while (i < lines.length && /^>/.test(lines[i])) buf.push(lines[i++].replace(/^>\s?/, ""));
      root.append(el("blockquote", {}, markdown(buf.join("\n"), path)));
    } else if ((m = /^(\s*)([-*+]|\d+[.)])\s/.exec(l))) {
      const ordered = /\d/.test(m[2]);
      const list = el(ordered ? "ol" : "ul");
      let item = null;
      while (i < lines.length && lines[i].trim()) {
        const li = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i]);
        if (li) { item = [li[2]]; list.append(el("li")); list.lastChild._buf = item; } else if (item) item.push(lines[i].trim());
        i++;
      }
      for (const li of list.children) li.append(...inline(li._buf.join(" "), dir));
      root.append(list);
    } else {
      const buf = [];
      while (i < lines.length && lines[i].trim() && !(buf.length && blockStart(lines[i]))) buf.push(lines[i++].trim());
      root.append(el("p", {}, ...inline(buf.join(" "), dir)));
    }
  }
  return root;
}

// Inline markdown: `code`, [links](url), **strong**, *emphasis*; the rest is text.
function inline(s, dir) {
  const out = [];
  const re = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])|(?<!\w)_([^_\s][^_]*?)_(?!\w)/g;
  let last = 0, m;
  while ((m = re.exec(s))) {
    if (m.index > last) out.push(s.slice(last, m.index));
    if (m[1] !== undefined) out.push(el("code", {}, m[1]));
    else if (m[2] !== undefined) out.push(link(m[2], m[3], dir));
    else if (m[4] !== undefined) out.push(el("strong", {}, ...inline(m[4], dir)));
    else if (m[5] !== undefined) out.push(el("em", {}, m[5]));
    else out.push(el("em", {}, m[6]));
    last = re.lastIndex;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

// A link: to another results file (a view of this page), to the web (http/https only), or,
// pointing out of the results directory, its text alone.
function link(text, href, dir) {
  const kids = inline(text, dir);
  if (/^https?:\/\//.test(href)) return el("a", { href, rel: "noopener noreferrer", target: "_blank" }, ...kids);
  if (href.startsWith("#")) return el("span", {}, ...kids);
  const [p] = href.split("#");
  const parts = [];
  for (const seg of (dir + p).split("/")) {
    if (seg === "..") parts.pop();
    else if (seg && seg !== ".") parts.push(seg);
  }
  const target = parts.join("/");
  if (results.files && results.files.some((f) => f.path === target)) return el("a", { href: `#results?file=${target}` }, ...kids);
  const dirHit = results.files && results.files.find((f) => f.path.startsWith(target + "/") && /README\.md$/.test(f.path));
  if (dirHit) return el("a", { href: `#results?file=${dirHit.path}` }, ...kids);
  return el("span", { class: "dead-link", title: `${href} (not in the results served here)` }, ...kids);
}

// The link to the view in sight (it is the address: this only copies it).
$("copy-link").addEventListener("click", async () => {
  const b = $("copy-link");
  try {
    await navigator.clipboard.writeText(location.href);
    b.textContent = "Copied";
  } catch (e) {
    window.prompt("The link to this view:", location.href);
  }
  setTimeout(() => { b.textContent = "Copy link"; }, 1500);
});

// ---------------------------------------------------------------- start
(async () => {
  try {
    info = await api("/api/info");
    for (const g of info.oware.grand_slam) $("oware-variant").append(el("option", { value: g.name, title: g.description }, g.name));
    for (const c of info.lukho.chain) $("lukho-chain").append(el("option", { value: c.name, title: c.description }, c.name));
    raceMenu();
    const dbs = info.oware.databases.map((d) => `Oware ${d.rules.grand_slam} ≤ ${d.max_stones} seeds`);
    if (info.kiothi.tables !== null) dbs.push(`Kiothi ≤ ${info.kiothi.tables} warriors`);
    $("db-info").textContent = dbs.length ? `Databases: ${dbs.join(", ")}` : "No database: search only";
    if (info.oware.databases.length && !info.oware.databases.some((d) => d.rules.grand_slam === oware.gs)) oware.gs = info.oware.databases[0].rules.grand_slam;
    if (!info.lukho.results) $("tab-results").hidden = true;
  } catch (e) {
    showError(e.message);
  }
  drawChoices();
  await route();
})();
