// End-to-end test of `mancala serve` in a real headless Chromium (Debian's package), driven by
// Playwright: views are loaded from their URLs, moves and Lukho choices are made by clicking and
// by keyboard, and what the page shows is compared with what the CLI prints for the same input
// (`oware solve --json`, `oware replay --json`, `lukho play --json/--trace --jsonl` and
// `--help`, `lukho races --json`, `kiothi solve --json`, `kiothi replay --jsonl`) and with the
// committed results files. Screenshots go to
// target/web-test/.
//
// node web/test/e2e.mjs [path/to/mancala]   (from the repository root)
//
// MANCALA_WEB_DIR=web node web/test/e2e.mjs … serves the page's three files from that
// directory instead of the binary's copies (work on the page without a rebuild; CI does not).
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";

const t0 = Date.now();
const bin = resolve(process.argv[2] || "target/release/mancala");
const out = resolve("target/web-test");
mkdirSync(out, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), "mancala-web-"));
const db = join(tmp, "db");
const cli = (...args) => execFileSync(bin, args, { encoding: "utf8" });
const cliJson = (...args) => JSON.parse(cli(...args));
const log = (msg) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`);

cli("oware", "db", "build", "--max-stones", "8", "--dir", db);
log("database of up to 8 seeds built");

const server = spawn(bin, ["serve", "--db", db, "--port", "0", "--results", "results/lukho"], { stdio: ["ignore", "pipe", "inherit"] });
const addr = await new Promise((ok, fail) => {
  let buf = "";
  server.stdout.on("data", (d) => {
    buf += d;
    const m = buf.match(/listening on (http:\/\/\S+)/);
    if (m) ok(m[1]);
  });
  server.on("exit", (c) => fail(new Error(`server exited with ${c}`)));
});
log(`server at ${addr}`);

// What the page should show, derived from the CLI's answers (the page's own rules, stated
// once more): values signed, an interval while not exact; a move's outcome is the sign of the
// mover's final margin, his store minus the opponent's plus the value (an interval across 0
// is "not yet decided", one ending at 0 "win or draw" / "draw or loss"); moves best first.
const signed = (v) => (v > 0 ? `+${v}` : `${v}`);
const valueText = (lo, hi) => (lo === hi ? signed(lo) : `${signed(lo)}..${signed(hi)}`);
const ORDER = ["win", "win-draw", "draw", "unknown", "draw-loss", "loss"];
function outcome(lo, hi, offset) {
  const a = lo + offset, b = hi + offset;
  if (a > 0) return "win";
  if (b < 0) return "loss";
  if (a === 0 && b === 0) return "draw";
  return a === 0 ? "win-draw" : b === 0 ? "draw-loss" : "unknown";
}
function expectedGroups(moves, offset) {
  const sorted = [...moves].sort((a, b) => b.lower - a.lower || b.upper - a.upper || (a.move < b.move ? -1 : a.move > b.move ? 1 : 0));
  return ORDER.map((o) => [o, sorted.filter((m) => outcome(m.lower, m.upper, offset) === o).map((m) => [`${m.move}`, m.lower, m.upper, valueText(m.lower, m.upper)])])
    .filter(([, ms]) => ms.length);
}
const moverOffset = (stores, toMove) => (toMove === "south" ? stores[0] - stores[1] : stores[1] - stores[0]);
const viewOf = (pits, toMove) => (toMove === "south" ? pits : [...pits.slice(6), ...pits.slice(0, 6)]);

// launch() starts Chromium with a fresh temporary profile of its own (Playwright refuses a
// --user-data-dir argument); the server is stopped whatever happens.
let browser;
let failed = false;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 820 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  // Every request the page makes goes to the server: nothing from elsewhere (works offline).
  const foreign = [];
  page.on("request", (r) => { if (!r.url().startsWith(addr) && r.url() !== "about:blank") foreign.push(r.url()); });
  if (process.env.MANCALA_WEB_DIR) {
    const files = { "/": ["index.html", "text/html"], "/app.js": ["app.js", "text/javascript"], "/style.css": ["style.css", "text/css"] };
    await page.route((u) => u.href.startsWith(addr) && new URL(u).pathname in files, (r) => {
      const [f, type] = files[new URL(r.request().url()).pathname];
      r.fulfill({ body: readFileSync(join(process.env.MANCALA_WEB_DIR, f)), contentType: type });
    });
  }
  const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
  const param = async (k) => new URLSearchParams((await hash()).replace(/^#[a-z]+\??/, "")).get(k);

  // What the page shows for the Oware position in view.
  const shown = () => page.evaluate(() => ({
    value: document.getElementById("oware-value").textContent,
    lower: Number(document.getElementById("oware-value").dataset.lower),
    upper: Number(document.getElementById("oware-value").dataset.upper),
    depth: Number(document.getElementById("oware-depth").dataset.depth),
    method: document.getElementById("oware-method").dataset.method,
    best: document.getElementById("oware-best").textContent,
    pv: document.getElementById("oware-pv").dataset.pv,
    lines: Number(document.body.dataset.owareLines),
    groups: [...document.querySelectorAll("#oware-groups .group")].map((g) => [g.dataset.outcome,
      [...g.querySelectorAll("li")].map((li) => [li.dataset.move, Number(li.dataset.lower), Number(li.dataset.upper), li.querySelector(".value").textContent])]),
    pits: [...document.querySelectorAll("#oware-board .pit")].map((b) => [Number(b.dataset.pit), Number(b.textContent)]),
    stores: [Number(document.getElementById("oware-store-south").dataset.store), Number(document.getElementById("oware-store-north").dataset.store)],
    moves: document.getElementById("oware-history").dataset.moves,
    inside: document.getElementById("oware-scope").dataset.inside,
    scope: document.getElementById("oware-scope").textContent,
  }));
  // The page's analysis equals `oware solve --json` for the position (`stores`, `toMove`:
  // the game's, for the outcomes).
  const sameAsCli = (s, c, stores, toMove, what) => {
    assert.equal(s.lower, c.lower, `${what}: lower`);
    assert.equal(s.upper, c.upper, `${what}: upper`);
    assert.equal(s.value, valueText(c.lower, c.upper), `${what}: value text`);
    assert.equal(s.best, c.best_moves.join(", "), `${what}: best moves`);
    assert.equal(s.pv, c.pv.join(" "), `${what}: perfect play`);
    assert.equal(s.method, c.method, `${what}: method`);
    assert.deepEqual(s.groups, expectedGroups(c.moves, moverOffset(stores, toMove)), `${what}: moves grouped by outcome, best first`);
  };
  // The board equals `oware replay`'s last ply, and its values the CLI's.
  const checkOware = (start, toMove, moves, what) => {
    const r = cliJson("oware", "replay", "--start", start, "--to-move", toMove, ...(moves.length ? ["--moves", moves.join(",")] : []), "--json");
    const last = r.plies[r.plies.length - 1];
    return async () => {
      const s = await shown();
      for (const [i, n] of s.pits) assert.equal(n, last.pits[i], `${what}: pit ${i}`);
      assert.deepEqual(s.stores, last.stores, `${what}: stores`);
      assert.equal(s.moves, moves.join(","), `${what}: moves`);
      const c = cliJson("oware", "solve", "--pits", viewOf(last.pits, last.to_move).join(","), "--db", db, "--json");
      sameAsCli(s, c, last.stores, last.to_move, what);
      return { s, c, last };
    };
  };
  // An action, then its analysis to the end: the mark is set stale first so the previous
  // analysis's `done` is not taken for this one's.
  const act = async (f) => {
    await page.evaluate(() => { document.body.dataset.oware = "stale"; });
    await f();
    await page.waitForSelector("body[data-oware=done]");
  };
  // A fresh load of a URL (a link opened), then its analysis to the end.
  const open = async (url, mark = "oware") => {
    await page.goto("about:blank");
    await page.goto(url);
    await page.waitForSelector(`body[data-${mark}=done]`);
  };

  // 1. The page opens on a position inside the database, with its start in the URL.
  await open(addr);
  let s = await shown();
  assert.equal(s.inside, "1", `the opening position is in the database: ${s.scope}`);
  assert.equal(s.method, "db");
  assert.equal(await param("start"), s.pits.sort((a, b) => a[0] - b[0]).map(([, n]) => n).join(","), "the start is in the URL");
  log(`opens on ${await hash()}: inside the database, value ${s.value}`);

  // 2. A link: start, side to move and a move list in the URL reproduce the board and the
  // values (grouped by outcome, best first) of `oware replay` + `oware solve --json`.
  const dbPits = "0,0,0,0,1,2,1,0,0,0,0,3";
  const first = cliJson("oware", "solve", "--pits", dbPits, "--db", db, "--json");
  const m1 = first.best_moves[0];
  await open(`${addr}#oware?gs=no-capture&start=${dbPits}&to=south&moves=${m1}&time=1.5`);
  let { c, last } = await checkOware(dbPits, "south", [m1], "the linked position")();
  assert.equal(await page.inputValue("#oware-time"), "1.5", "the search time from the URL");
  await page.screenshot({ path: join(out, "oware.png"), clip: { x: 0, y: 0, width: 1100, height: 560 } });
  log(`URL round trip: board, stores, ${c.moves.length} moves in ${(await shown()).groups.length} outcome groups equal oware replay / solve`);

  // 3. A move clicked on the board (the best one): the URL and the board follow.
  const m2 = c.best_moves[0];
  await act(() => page.click(`#oware-board .pit[data-side=${last.to_move}][data-own="${m2}"]`));
  assert.equal(await param("moves"), `${m1},${m2}`);
  await checkOware(dbPits, "south", [m1, m2], "after the clicked move")();
  log(`clicked move ${m2}: URL, board and values equal the CLI's`);

  // 4. Back and forward: the browser's history steps through the views.
  await act(() => page.goBack());
  await checkOware(dbPits, "south", [m1], "after back")();
  await act(() => page.goForward());
  await checkOware(dbPits, "south", [m1, m2], "after forward")();
  log("back / forward: the previous and the next view, equal to the CLI's");

  // 5. Keyboard: `u` steps back, a digit plays own pit (key k = pit k-1).
  await act(() => page.keyboard.press("u"));
  assert.equal((await shown()).moves, `${m1}`);
  await act(() => page.keyboard.press(`${m2 + 1}`));
  assert.equal((await shown()).moves, `${m1},${m2}`);
  log("keyboard: u stepped back, a digit replayed the move");

  // 6. The perfect-play line: clicking its third ply plays the line up to it.
  s = await shown();
  const pv = s.pv.split(" ").map(Number);
  assert.ok(pv.length >= 3, "a line of 3 plies at least");
  await act(() => page.click("#oware-pv li:nth-child(3) button"));
  const line = [m1, m2, ...pv.slice(0, 3)];
  assert.equal(await param("moves"), line.join(","));
  ({ last } = await checkOware(dbPits, "south", line, "three plies down the perfect-play line")());
  log(`perfect play: clicking ply 3 played ${pv.slice(0, 3).join(" ")}, equal to the CLI's`);

  // 7. The board edited by clicking: a seed added to South's pit 0 makes a new start (8 seeds,
  // still in the database) in the URL.
  await page.click("#oware details.advanced summary");
  await page.click("#oware-empty");
  await page.click('#oware-board .pit[data-pit="0"]');
  await page.click('#oware-board .pit[data-pit="1"]');
  await page.click('#oware-board .pit[data-pit="1"]', { button: "right" });
  const edited = last.pits.map((n, i) => n + (i === 0 ? 1 : 0));
  await act(() => page.click("#oware-empty"));
  assert.equal(await param("start"), edited.join(","));
  assert.equal(await param("to"), last.to_move);
  ({ last } = await checkOware(edited.join(","), last.to_move, [], "the edited board")());
  log(`edited board: start ${edited.join(",")} in the URL, its values equal the CLI's`);

  // 8. A position only the search can bound (12 seeds; the database has 8): said plainly, and
  // the bounds of the deepest depth shown are `oware solve --depth D`'s.
  await page.fill("#oware-time", "2");
  const searchPits = "1,2,0,3,1,0,1,2,0,1,1,0";
  await act(async () => {
    await page.fill("#oware-start", searchPits);
    await page.selectOption("#oware-start-side", "south");
    await page.click("#oware-set");
  });
  s = await shown();
  assert.equal(await param("time"), "2", "the search time picked is in the URL");
  assert.equal(s.inside, "0");
  assert.match(s.scope, /Outside the database: 12 seeds .* up to 8/);
  assert.ok(s.depth >= 3 && s.lines >= 3, `search streamed ${s.lines} depths (deepest ${s.depth})`);
  assert.ok(s.lower < s.upper, "the search bounds the value without settling it");
  c = cliJson("oware", "solve", "--pits", searchPits, "--db", db, "--depth", `${s.depth}`, "--json");
  assert.equal(c.exact, false);
  sameAsCli(s, c, s.stores, "south", `search position at depth ${s.depth}`);
  await page.screenshot({ path: join(out, "oware-search.png") });
  log(`search position: "${s.scope.slice(0, 40)}…"; ${s.lines} depths streamed; at depth ${s.depth} the bounds ${s.value} equal oware solve --depth ${s.depth}`);

  // 9. A phone-sized screen: no view scrolls sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  await open(`${addr}#oware?gs=no-capture&start=${dbPits}&to=south`);
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(await fits(), "Oware: no horizontal scrolling at 375 px");
  await page.screenshot({ path: join(out, "phone.png") });
  await page.click("#tab-lukho");
  await page.waitForSelector("body[data-lukho=done]");
  assert.ok(await fits(), "Lukho: no horizontal scrolling at 375 px");
  await page.setViewportSize({ width: 1100, height: 820 });

  // 10. Lukho: both choices made by clicking pits, compared with `lukho play --json` and its
  // trace turn by turn; the URL holds the game.
  const lukhoShown = () => page.evaluate(() => Object.fromEntries(["winner", "stores", "margin", "turns", "first", "class", "points"]
    .map((k) => [k, document.getElementById(`lukho-${k}`).dataset.value])));
  const lukhoDone = async (f) => {
    await page.evaluate(() => { document.body.dataset.lukho = "stale"; });
    await f();
    await page.waitForSelector("body[data-lukho=done]");
  };
  const lukhoSame = async (args, what) => {
    const lc = cliJson("lukho", "play", ...args, "--json");
    const l = await lukhoShown();
    assert.deepEqual(l, {
      winner: lc.winner, stores: lc.stores.join(":"), margin: `${lc.margin}`, turns: `${lc.turns}`, first: lc.first_player,
      class: lc.class, points: `${lc.points_first_game}:${lc.points_later_game}`,
    }, `${what}: the result`);
    return lc;
  };
  await page.click("#tab-lukho");
  for (const side of ["south", "north"]) await lukhoDone(() => page.click(`#lukho-${side}-choice button:has-text("Reset")`));
  const click = (side, sel, n = 1) => lukhoDone(async () => { for (let i = 0; i < n; i++) await page.click(`#lukho-${side}-choice .pit[${sel}]`); });
  await click("south", 'data-own="7"', 1);   // lift 1 from pit 7
  await click("south", 'data-own="6"', 3);   // lift 3 from pit 6
  await click("south", 'data-opp="2"', 2);   // drop 2 into North's pit 2
  await click("north", 'data-own="0"', 2);   // lift 2 from pit 0
  await click("north", 'data-opp="5"', 1);   // drop 1 into South's pit 5
  await lukhoDone(() => page.selectOption("#lukho-race", "north-first"));
  const south = ["0,0,0,0,0,0,3,1", "2@2"], north = ["2,0,0,0,0,0,0,0", "1@5"];
  assert.equal(await page.getAttribute("#lukho-south-text", "data-choice"), south.join(" "));
  assert.equal(await page.getAttribute("#lukho-north-text", "data-choice"), north.join(" "));
  assert.equal(await param("south"), south.join(" "));
  assert.equal(await param("race"), "north-first");
  const pair = ["--south-remove", south[0], "--south-drop", south[1], "--north-remove", north[0], "--north-drop", north[1], "--race", "north-first"];
  const lc = await lukhoSame(pair, "Lukho game picked by clicking");
  const trace = cli("lukho", "play", ...pair, "--trace", "--jsonl").trim().split("\n").map((l) => JSON.parse(l));
  const lukhoBoard = () => page.evaluate(() => [...document.querySelectorAll("#lukho-board .pit")].map((p) => [Number(p.dataset.pit), Number(p.textContent),
    p.classList.contains("knife-south") ? 0 : p.classList.contains("knife-north") ? 1 : -1]));
  for (let t = 0; t < trace.length; t++) {
    for (const [i, n, k] of await lukhoBoard()) {
      assert.equal(n, trace[t].pits[i], `Lukho turn ${t}, pit ${i}`);
      assert.equal(k, trace[t].knives[i], `Lukho turn ${t}, knife at ${i}`);
    }
    assert.equal(await page.getAttribute("#lukho-turn", "data-turn"), `${t}`);
    assert.deepEqual([Number(await page.getAttribute("#lukho-store-south", "data-store")), Number(await page.getAttribute("#lukho-store-north", "data-store"))], trace[t].stores, `Lukho turn ${t}: stores`);
    if (t === 6) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(out, "lukho.png") });
    }
    if (t + 1 < trace.length) await page.click("#lukho-next");
  }
  const summary = await page.textContent("#lukho-summary .headline");
  assert.match(summary, lc.winner === "draw" ? /draw/ : new RegExp(`${lc.winner[0].toUpperCase()}${lc.winner.slice(1)} wins .* by ${Math.abs(lc.margin)} seed`));
  log(`Lukho by clicking: "${summary}", ${lc.turns} turns, ${trace.length} boards with knives and stores equal lukho play's`);
  // The same game from its URL, at turn 4, North's choice given by its id.
  const northId = cliJson("lukho", "opening", "--remove", north[0], "--drop", north[1], "--json").id;
  await open(`${addr}#lukho?south=${south.join("+")}&north=${northId}&race=north-first&turn=4`, "lukho");
  await lukhoSame(pair, "Lukho game from its URL");
  assert.equal(await param("north"), north.join(" "), "the id shown as its choice");
  assert.equal(await page.getAttribute("#lukho-turn", "data-turn"), "4");
  for (const [i, n] of await lukhoBoard()) assert.equal(n, trace[4].pits[i], `Lukho URL turn 4, pit ${i}`);
  log(`Lukho URL round trip (North as id ${northId}): the same result and turn 4's board`);

  // 10b. The race menu offers what `lukho play --race` accepts, each with its help line; a
  // `speeds:K` race lists the pair's outcomes as `lukho races` does and plays as the CLI.
  const fold = (t) => t.split(/\s+/).filter(Boolean).join(" ");
  const help = fold(cli("lukho", "play", "--help"));
  const menu = await page.$$eval("#lukho-race option", (os) => os.map((o) => [o.value, o.title]));
  assert.deepEqual(menu.map(([v]) => v), ["south-first", "north-first", "lockstep-south", "lockstep-north", "speeds:K"]);
  for (const [v, t] of menu) assert.ok(help.includes(`${v} ${fold(t)}`), `race ${v}: "${t}" is --help's line`);
  const speeds = cliJson("lukho", "races", ...pair.slice(0, 8), "--json").races;
  await lukhoDone(() => page.selectOption("#lukho-race", "speeds:K"));
  assert.equal(await page.$$eval("#lukho-speed option", (os) => os.length), speeds.length, "the pair's speeds outcomes");
  const kSpeed = Math.min(2, speeds.length - 1);
  await lukhoDone(() => page.selectOption("#lukho-speed", `${kSpeed}`));
  assert.equal(await param("race"), `speeds:${kSpeed}`);
  const pairSpeeds = [...pair.slice(0, 8), "--race", `speeds:${kSpeed}`];
  await lukhoSame(pairSpeeds, `Lukho game under speeds:${kSpeed}`);
  assert.match(await page.textContent("#lukho-race-caption"), new RegExp(`^speeds:${kSpeed}: the K-th outcome of constant sowing speeds`));
  await open(`${addr}#lukho?south=${south.join("+")}&north=${north.join("+")}&race=speeds:${kSpeed}`, "lukho");
  assert.equal(await page.inputValue("#lukho-speed"), `${kSpeed}`, "speeds:K from the URL");
  await lukhoSame(pairSpeeds, `Lukho speeds:${kSpeed} from its URL`);
  log(`race menu: the 5 forms of lukho play --race with their help lines; speeds lists ${speeds.length} outcomes as lukho races, speeds:${kSpeed} played as the CLI`);

  // 11. Results: a markdown file rendered (headings, tables, code; nothing raw).
  const resultsOpen = async (file) => {
    await page.evaluate(() => { document.body.dataset.results = "stale"; });
    await page.goto(`${addr}#results?file=${file}`);
    await page.waitForSelector("body[data-results=done]");
  };
  await page.goto("about:blank");
  await resultsOpen("README.md");
  const md = readFileSync("results/lukho/README.md", "utf8");
  const body = md.replace(/```[\s\S]*?```/g, "");
  const headings = body.split("\n").filter((l) => /^#{1,6}\s/.test(l)).map((l) => l.replace(/^#+\s+/, "").replace(/`/g, "").trim());
  const shownMd = await page.evaluate(() => ({
    headings: [...document.querySelectorAll("#results-file .md :is(h3,h4,h5,h6,h7,h8)")].map((h) => h.textContent.trim()),
    tables: [...document.querySelectorAll("#results-file .md table")].map((t) => [...t.querySelectorAll("th")].map((th) => th.textContent)),
    code: document.querySelectorAll("#results-file .md pre").length,
    text: [...document.querySelectorAll("#results-file .md :is(p, li, td, th)")].map((e) => e.textContent).join("\n"),
    groups: [...document.querySelectorAll("#results-list details")].map((d) => d.dataset.group),
  }));
  assert.deepEqual(shownMd.headings, headings, "every heading, as text");
  const mdTables = body.split("\n").filter((l, i, a) => /^\|/.test(l) && /^\|\s*:?-{2,}/.test(a[i + 1] || ""));
  assert.equal(shownMd.tables.length, mdTables.length, "every table");
  assert.deepEqual(shownMd.tables[0], mdTables[0].replace(/^\||\|$/g, "").split("|").map((x) => x.trim().replace(/`/g, "")), "the first table's header");
  assert.ok(shownMd.code >= 3, "code blocks");
  assert.ok(!/\|\s*-{3}|^#+\s/m.test(shownMd.text), "no markdown shown raw");
  assert.ok(shownMd.groups.length >= 4 && shownMd.groups.includes("Equilibria"), `files grouped: ${shownMd.groups.join(", ")}`);
  await page.screenshot({ path: join(out, "results.png") });
  log(`markdown rendered: ${headings.length} headings, ${mdTables.length} tables, ${shownMd.code} code blocks; file list in ${shownMd.groups.length} groups`);

  // 12. The committed equilibrium mixes: tables and charts as committed, "play this choice".
  const eqPath = "equilibrium/last2-sequential-margin/equilibrium.json";
  await resultsOpen(eqPath);
  const eq = JSON.parse(readFileSync(join("results/lukho", eqPath), "utf8"));
  const rows = await page.$$eval("#results-file table.mix", (ts) => ts.map((t) => t.querySelectorAll("tbody tr").length));
  assert.deepEqual(rows, [eq.south.length, eq.north.length]);
  const bars = await page.$$eval("#results-file svg.chart", (cs) => cs.map((c) => [...c.querySelectorAll("rect.bar")].map((r) => [r.dataset.label, Number(r.dataset.weight)])));
  assert.equal(bars.length, 3, "three charts (one mix: both players use the same)");
  const lifted = {};
  for (const m of eq.south) { const h = m.choice.split(" ")[0].split(",").map(Number).reduce((a, b) => a + b, 0); lifted[h] = (lifted[h] || 0) + m.weight; }
  for (const [label, w] of bars[0]) assert.ok(Math.abs(w - (lifted[label] || 0)) < 1e-9, `weight of ${label} seeds lifted`);
  for (const b of bars) assert.ok(Math.abs(b.reduce((a, [, w]) => a + w, 0) - 1) < 1e-6, "each chart sums the whole mix");
  await page.screenshot({ path: join(out, "equilibrium.png"), clip: { x: 0, y: 0, width: 1100, height: 620 } });
  const heavy = [...eq.south].sort((a, b) => b.weight - a.weight)[0];
  await lukhoDone(() => page.click("#results-file table.mix.south tbody tr:first-child a"));
  assert.equal(await param("south"), heavy.choice);
  const [hr, hd] = heavy.choice.split(" "), [nr, nd] = eq.north[0].choice.split(" ");
  await lukhoSame(["--south-remove", hr, "--south-drop", hd, "--north-remove", nr, "--north-drop", nd, "--race", "south-first"], "play this choice");
  log(`equilibrium: ${rows.join(" + ")} choices and 3 charts as committed; "play this choice" played ${heavy.choice} as lukho play does`);

  // 13. Kiothi on a board: a position from its URL, its values equal `kiothi solve --depth D`
  // at the depth the page searched to.
  const kpos = JSON.parse(readFileSync("tests/data/kiothi/endgame.json", "utf8"));
  const nki = kpos.nki.map((x, i) => (x ? i : -1)).filter((i) => i >= 0);
  // The search limits are in the URL too: restored into the controls, and searched under.
  await open(`${addr}#kiothi?pits=${kpos.pits.join(",")}&nki=${nki.join(",")}&stores=${kpos.stores.join(",")}&to=${kpos.to_move}&turn=${kpos.turn}&depth=4&time=20`, "kiothi");
  assert.deepEqual([await page.inputValue("#kiothi-depth"), await page.inputValue("#kiothi-time")], ["4", "20"], "depth and time from the URL");
  assert.deepEqual([await param("depth"), await param("time")], ["4", "20"]);
  const kfile = join(tmp, "k.json");
  writeFileSync(kfile, JSON.stringify(kpos));
  const kdepth = await page.getAttribute("#kiothi-value", "data-depth");
  assert.equal(kdepth, "4", "searched to the URL's depth");
  const kc = cliJson("kiothi", "solve", "--position", kfile, "--depth", kdepth, "--json");
  const ks = await page.evaluate(() => ({
    pits: [...document.querySelectorAll("#kiothi-board .pit")].map((b) => [Number(b.dataset.pit), Number(b.textContent), b.classList.contains("nki")]),
    lower: Number(document.getElementById("kiothi-value").dataset.lower),
    upper: Number(document.getElementById("kiothi-value").dataset.upper),
    groups: [...document.querySelectorAll("#kiothi-groups .group")].map((g) => [g.dataset.outcome,
      [...g.querySelectorAll("li")].map((li) => [li.dataset.move, Number(li.dataset.lower), Number(li.dataset.upper), li.querySelector(".value").textContent])]),
  }));
  assert.equal(ks.pits.length, 20);
  for (const [i, n, k] of ks.pits) { assert.equal(n, kpos.pits[i], `boma ${i}`); assert.equal(k, kpos.nki[i], `nki ${i}`); }
  assert.deepEqual([ks.lower, ks.upper], [kc.lower, kc.upper], "Kiothi value");
  assert.deepEqual(ks.groups, expectedGroups(kc.moves, moverOffset(kpos.stores, kpos.to_move)), "Kiothi moves grouped");
  await page.screenshot({ path: join(out, "kiothi.png") });
  log(`Kiothi: 20 boma and nki marks from the URL, value ${valueText(kc.lower, kc.upper)} and ${kc.moves.length} moves equal kiothi solve --depth ${kdepth}`);

  // 14. A Kiothi move played on the board: a boma with two legal lifts offers both, the one
  // picked is sown by the server, and the board, prisons, marks and URL are those of `kiothi
  // replay` for the same move; back restores the position before it.
  const kmove = kc.moves.map((m) => m.move).find((m, _, all) => all.filter((x) => x.split(":")[0] === m.split(":")[0]).length > 1 && m !== `${m.split(":")[0]}:1`);
  assert.ok(kmove, "a boma with two legal lifts");
  const kiothiDone = async (f) => {
    await page.evaluate(() => { document.body.dataset.kiothi = "stale"; });
    await f();
    await page.waitForSelector("body[data-kiothi=done]");
  };
  const kboma = kmove.split(":")[0];
  await page.click(`#kiothi-board .pit[data-side=${kpos.to_move}][data-own="${kboma}"]`);
  const lifts = await page.$$eval("#kiothi-lifts button", (bs) => bs.map((b) => b.dataset.move));
  assert.deepEqual(lifts, kc.moves.map((m) => m.move).filter((m) => m.split(":")[0] === kboma), "the boma's legal lifts offered");
  await kiothiDone(() => page.click(`#kiothi-lifts button[data-move="${kmove}"]`));
  const replayed = cli("kiothi", "replay", "--position", kfile, "--moves", kmove, "--jsonl").trim().split("\n").map((l) => JSON.parse(l));
  const after = replayed[replayed.length - 1];
  const kboard = () => page.evaluate(() => ({
    pits: [...document.querySelectorAll("#kiothi-board .pit")].sort((a, b) => a.dataset.pit - b.dataset.pit).map((b) => Number(b.dataset.count)),
    nki: [...document.querySelectorAll("#kiothi-board .pit")].sort((a, b) => a.dataset.pit - b.dataset.pit).map((b) => b.classList.contains("nki")),
    stores: ["south", "north"].map((s) => Number(document.getElementById(`kiothi-store-${s}-shown`).dataset.store)),
  }));
  let kb = await kboard();
  assert.deepEqual(kb, { pits: after.pits, nki: after.nki, stores: after.stores }, `the board after ${kmove} is kiothi replay's`);
  assert.deepEqual([await param("pits"), await param("to"), await param("turn")], [after.pits.join(","), after.to_move, `${after.turn}`], "the new position in the URL");
  const mi = kpos.to_move === "south" ? 0 : 1;
  assert.equal(await page.getAttribute("#kiothi-played", "data-move"), kmove);
  assert.equal(Number(await page.getAttribute("#kiothi-played", "data-captured")), after.stores[mi] - kpos.stores[mi], "the capture shown");
  const kfile2 = join(tmp, "k2.json");
  writeFileSync(kfile2, JSON.stringify({ game: "kiothi", pits: after.pits, stores: after.stores, to_move: after.to_move, nki: after.nki, turn: after.turn }));
  const kc2 = cliJson("kiothi", "solve", "--position", kfile2, "--depth", "4", "--json");
  assert.deepEqual([Number(await page.getAttribute("#kiothi-value", "data-lower")), Number(await page.getAttribute("#kiothi-value", "data-upper"))], [kc2.lower, kc2.upper], "the new position solved as the CLI does");
  await page.screenshot({ path: join(out, "kiothi-move.png"), clip: { x: 0, y: 0, width: 1100, height: 600 } });
  log(`Kiothi move ${kmove} by clicking: board, prisons, nki and URL equal kiothi replay's; captured ${after.stores[mi] - kpos.stores[mi]}`);
  await kiothiDone(() => page.goBack());
  kb = await kboard();
  assert.deepEqual(kb.pits, kpos.pits, "back: the position before the move");
  assert.equal(await page.textContent("#kiothi-played"), "", "back: no move shown");
  log("Kiothi: back restores the position before the move");

  assert.deepEqual(pageErrors, [], "no script errors");
  assert.deepEqual(foreign, [], "no request leaves the server");
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  if (browser) await browser.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
log(failed ? "FAILED" : "passed");
process.exit(failed ? 1 : 0);
