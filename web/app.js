// The oracle's page: every value shown comes from the JSON API (docs/api.md); the page keeps
// only the move list and what to draw.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

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

const range = (lo, hi) => (lo === hi ? `${lo}` : `${lo}..${hi}`);

// ---------------------------------------------------------------- tabs
for (const b of document.querySelectorAll("nav .tab")) {
  b.addEventListener("click", () => {
    for (const t of document.querySelectorAll("nav .tab")) t.classList.toggle("active", t === b);
    for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== b.dataset.tab;
  });
}

// ---------------------------------------------------------------- Oware
const oware = { start: null, moves: [], game: null, line: null, done: false, abort: null, gen: 0 };

function owareRules() {
  return { grand_slam: $("oware-variant").value || "no-capture", cycle: "split" };
}

async function owareUpdate() {
  showError("");
  const body = { rules: owareRules(), moves: oware.moves };
  if (oware.start) body.start = oware.start;
  let g;
  try {
    g = await api("/api/oware/game", body);
  } catch (e) {
    oware.moves.pop();
    showError(e.message);
    return;
  }
  oware.game = g;
  drawOware();
  owareAnalyse();
}

function drawOware() {
  const g = oware.game;
  const board = $("oware-board");
  board.textContent = "";
  const row = (side, pits, idx) => {
    const r = el("div", { class: `row ${side}` });
    for (const i of idx) {
      const own = side === g.to_move;
      const k = side === "south" ? i : i - 6;
      const legal = own && g.legal.includes(k);
      const b = el("button", { class: `pit${legal ? " legal" : ""}`, "data-pit": i, "data-side": side, "data-own": k }, `${pits[i]}`);
      b.disabled = !legal;
      if (legal) b.title = `play ${k} (key ${k + 1})`;
      b.addEventListener("click", () => owarePlay(k));
      r.appendChild(b);
    }
    return r;
  };
  const north = row("north", g.pits, [11, 10, 9, 8, 7, 6]);
  const south = row("south", g.pits, [0, 1, 2, 3, 4, 5]);
  const stores = el("div", { class: "stores" });
  stores.appendChild(el("span", { id: "oware-store-north" }, `North ${g.stores[1]}`));
  stores.appendChild(el("span", { id: "oware-store-south" }, `South ${g.stores[0]}`));
  board.append(north, south, stores);
  let status = g.terminal
    ? `Game over: ${g.result.winner} (South ${g.result.score[0]}, North ${g.result.score[1]})`
    : `${g.to_move === "south" ? "South" : "North"} to move`;
  $("oware-status").textContent = status;
  $("oware-history").textContent = oware.moves.join(" ") || "(none)";
}

function clearAnalysis() {
  $("oware-value").textContent = "…";
  $("oware-method").textContent = "";
  $("oware-depth").textContent = "";
  $("oware-best").textContent = "";
  $("oware-pv").textContent = "";
  $("oware-moves").querySelector("tbody").textContent = "";
}

function showLine(line) {
  oware.line = line;
  document.body.dataset.owareLines = Number(document.body.dataset.owareLines || 0) + 1;
  $("oware-value").textContent = line.exact ? `${line.value}` : `${line.lower}..${line.upper}`;
  $("oware-value").dataset.lower = line.lower;
  $("oware-value").dataset.upper = line.upper;
  $("oware-method").textContent = `(${line.exact ? "exact" : "bounds"}, ${line.method})`;
  $("oware-depth").textContent = line.method === "db" ? "" : `depth ${line.depth}`;
  $("oware-depth").dataset.depth = line.depth;
  $("oware-best").textContent = line.best_moves.join(", ");
  $("oware-pv").textContent = line.pv.join(" ");
  const tb = $("oware-moves").querySelector("tbody");
  tb.textContent = "";
  for (const m of line.moves) {
    const tr = el("tr", { "data-move": m.move, "data-lower": m.lower, "data-upper": m.upper });
    if (line.best_moves.includes(m.move)) tr.classList.add("best");
    tr.append(el("td", {}, `${m.move}`), el("td", {}, `${m.move + 1}`), el("td", { class: "value" }, range(m.lower, m.upper)));
    tb.appendChild(tr);
  }
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
  const time = parseFloat($("oware-time").value) || 5;
  try {
    const r = await fetch("/api/oware/analyse", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: owareRules(), pits: g.view, time }),
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
          $("oware-depth").textContent += line.reason === "exact" ? "" : ` (stopped: ${line.reason})`;
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
  if (!g || g.terminal || !g.legal.includes(k)) return;
  oware.moves.push(k);
  owareUpdate();
}

function owareReply() {
  if (oware.line && oware.done && oware.line.best_moves.length) owarePlay(oware.line.best_moves[0]);
}

$("oware-undo").addEventListener("click", () => {
  oware.moves.pop();
  owareUpdate();
});
$("oware-reply").addEventListener("click", owareReply);
$("oware-new").addEventListener("click", () => {
  oware.start = null;
  oware.moves = [];
  owareUpdate();
});
$("oware-set").addEventListener("click", () => {
  const pits = $("oware-start").value.split(",").map((s) => Number(s.trim()));
  oware.start = { pits, to_move: $("oware-start-side").value };
  oware.moves = [];
  owareUpdate();
});
$("oware-variant").addEventListener("change", owareUpdate);

document.addEventListener("keydown", (ev) => {
  if ($("oware").hidden || ev.target.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (k >= "1" && k <= "6") owarePlay(Number(k) - 1);
  else if (k >= "a" && k <= "f") owarePlay(k.charCodeAt(0) - 97);
  else if (k === "u") $("oware-undo").click();
  else if (k === "r") owareReply();
});

// ---------------------------------------------------------------- Lukho
const lukho = { game: null, turn: 0 };

function lukhoChoice(side) {
  const id = $(`lukho-${side}-id`).value.trim();
  if (id !== "") return { id: Number(id) };
  return { remove: $(`lukho-${side}-remove`).value, drop: $(`lukho-${side}-drop`).value };
}

async function lukhoPlay() {
  showError("");
  try {
    lukho.game = await api("/api/lukho/play", {
      rules: { chain: $("lukho-chain").value || "it", keep_one: $("lukho-keep-one").checked },
      race: $("lukho-race").value,
      south: lukhoChoice("south"),
      north: lukhoChoice("north"),
    });
  } catch (e) {
    showError(e.message);
    return;
  }
  const g = lukho.game;
  const r = $("lukho-result");
  r.textContent = "";
  const part = (id, label, v) => {
    r.append(`${label} `);
    r.appendChild(el("b", { id }, `${v}`));
    r.append("  ");
  };
  part("lukho-south-id-shown", "South id", g.south.id);
  part("lukho-north-id-shown", "North id", g.north.id);
  part("lukho-first", "first", g.first_player);
  part("lukho-winner", "winner", g.winner);
  part("lukho-stores", "stores", g.stores.join(" : "));
  part("lukho-margin", "margin", g.margin);
  part("lukho-class", "class", g["class"]);
  part("lukho-turns", "turns", g.turns);
  lukho.turn = 0;
  drawLukho();
  document.body.dataset.lukho = "done";
}

function drawLukho() {
  const g = lukho.game;
  if (!g) return;
  const t = g.trace[lukho.turn];
  $("lukho-turn").textContent = `turn ${t.turn} of ${g.trace.length - 1}: ${t.to_move} to move · stores South ${t.stores[0]} North ${t.stores[1]}`;
  $("lukho-turn").dataset.turn = t.turn;
  const board = $("lukho-board");
  board.textContent = "";
  const row = (side, idx) => {
    const r = el("div", { class: `row ${side}` });
    for (const i of idx) {
      const knife = t.knives[i];
      const p = el("span", { class: `pit${knife >= 0 ? " knife" : ""}`, "data-pit": i }, `${t.pits[i]}`);
      if (knife >= 0) p.title = `knife of ${knife === 0 ? "South" : "North"}`;
      r.appendChild(p);
    }
    return r;
  };
  board.append(row("north", [15, 14, 13, 12, 11, 10, 9, 8]), row("south", [0, 1, 2, 3, 4, 5, 6, 7]));
}

$("lukho-play").addEventListener("click", lukhoPlay);
$("lukho-prev").addEventListener("click", () => {
  if (lukho.game && lukho.turn > 0) lukho.turn--;
  drawLukho();
});
$("lukho-next").addEventListener("click", () => {
  if (lukho.game && lukho.turn + 1 < lukho.game.trace.length) lukho.turn++;
  drawLukho();
});

async function lukhoFiles() {
  let list;
  try {
    list = await api("/api/lukho/results");
  } catch (e) {
    $("lukho-file").textContent = e.message;
    return;
  }
  const sel = $("lukho-files");
  sel.appendChild(el("option", { value: "" }, `${list.files.length} files: choose one`));
  for (const f of list.files) sel.appendChild(el("option", { value: f.path }, f.path));
}

function table(rows, head) {
  const t = el("table");
  const h = el("tr");
  for (const c of head) h.appendChild(el("th", {}, c));
  t.appendChild(h);
  for (const r of rows) {
    const tr = el("tr");
    for (const c of r) tr.appendChild(el("td", {}, `${c}`));
    t.appendChild(tr);
  }
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

async function lukhoFile(path) {
  const box = $("lukho-file");
  box.textContent = "";
  if (!path) return;
  const url = "/api/lukho/results/" + path;
  if (path.endsWith(".svg")) {
    box.appendChild(el("img", { src: url, alt: path }));
    return;
  }
  const r = await fetch(url);
  const text = await r.text();
  if (!r.ok) { box.textContent = text; return; }
  if (path.endsWith(".csv")) {
    const rows = csvRows(text);
    box.appendChild(el("p", {}, `${rows.length - 1} rows${rows.length > 201 ? " (first 200 shown)" : ""}`));
    box.appendChild(table(rows.slice(1, 201), rows[0] || []));
  } else if (path.endsWith(".json")) {
    const v = JSON.parse(text);
    if (Array.isArray(v.south) && Array.isArray(v.north) && "value" in v) {
      box.appendChild(el("p", {}, `Equilibrium: race ${v.race}, payoff ${v.payoff}, family ${v.family} (${v.family_size} choices); value ${v.value}, certified in [${v.lower}, ${v.upper}], ${v.iterations} iterations`));
      for (const side of ["south", "north"]) {
        box.appendChild(el("h3", {}, `${side === "south" ? "South" : "North"} mix (${v[side].length} choices)`));
        box.appendChild(table(v[side].map((m) => [m.id, m.choice, m.weight.toFixed(6)]), ["id", "choice", "weight"]));
      }
    } else {
      box.appendChild(el("pre", {}, JSON.stringify(v, null, 1).slice(0, 20000)));
    }
  } else {
    box.appendChild(el("pre", {}, text));
  }
}
$("lukho-files").addEventListener("change", (e) => lukhoFile(e.target.value));

// ---------------------------------------------------------------- Kiothi
$("kiothi-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) $("kiothi-position").value = await f.text();
});
$("kiothi-solve").addEventListener("click", async () => {
  showError("");
  let position;
  try {
    position = JSON.parse($("kiothi-position").value);
  } catch (e) {
    showError(`position: not JSON (${e.message})`);
    return;
  }
  const body = { position };
  const d = $("kiothi-depth").value, t = $("kiothi-time").value;
  if (d) body.depth = Number(d);
  if (t) body.time = Number(t);
  $("kiothi-value").textContent = "searching…";
  let s;
  try {
    s = await api("/api/kiothi/solve", body);
  } catch (e) {
    $("kiothi-value").textContent = "…";
    showError(e.message);
    return;
  }
  $("kiothi-value").textContent = s.exact ? `${s.value}` : `${s.lower}..${s.upper}`;
  $("kiothi-method").textContent = `(${s.exact ? "exact" : "bounds"}, ${s.method}, depth ${s.depth}, ${s.nodes} nodes)`;
  const tb = $("kiothi-moves").querySelector("tbody");
  tb.textContent = "";
  for (const m of s.moves) {
    const tr = el("tr", { "data-move": m.move });
    if (s.best_moves.includes(m.move)) tr.classList.add("best");
    tr.append(el("td", {}, m.move), el("td", { class: "value" }, range(m.lower, m.upper)));
    tb.appendChild(tr);
  }
});

// ---------------------------------------------------------------- start
(async () => {
  try {
    const info = await api("/api/info");
    for (const g of info.oware.grand_slam) $("oware-variant").appendChild(el("option", { value: g.name, title: g.description }, g.name));
    for (const c of info.lukho.chain) $("lukho-chain").appendChild(el("option", { value: c.name, title: c.description }, c.name));
    const dbs = info.oware.databases.map((d) => `${d.rules.grand_slam} ≤ ${d.max_stones} seeds`).join(", ");
    $("oware-status").textContent = dbs ? `databases: ${dbs}` : "no database: search only";
  } catch (e) {
    showError(e.message);
  }
  owareUpdate();
  lukhoFiles();
})();
