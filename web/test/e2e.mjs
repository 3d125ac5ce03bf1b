// End-to-end test of `mancala serve` in a real headless Chromium (Debian's package), driven by
// Playwright: the page loads, moves are played by clicking and by keyboard, and the values the
// page shows are compared with what the CLI prints for the same input (`oware solve --json`,
// `oware replay`, `lukho play --json/--trace --jsonl`). Screenshots go to target/web-test/.
//
// node web/test/e2e.mjs [path/to/mancala]   (from the repository root)
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
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
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  // Every request the page makes goes to the server: nothing from elsewhere (works offline).
  const foreign = [];
  page.on("request", (r) => { if (!r.url().startsWith(addr)) foreign.push(r.url()); });

  await page.goto(addr);
  await page.waitForSelector("body[data-oware=done]");
  log("page loaded, opening position analysed");

  // What the page shows for the Oware position in view.
  const shown = () => page.evaluate(() => ({
    value: document.getElementById("oware-value").textContent,
    lower: Number(document.getElementById("oware-value").dataset.lower),
    upper: Number(document.getElementById("oware-value").dataset.upper),
    depth: Number(document.getElementById("oware-depth").dataset.depth),
    method: document.getElementById("oware-method").textContent,
    best: document.getElementById("oware-best").textContent,
    pv: document.getElementById("oware-pv").textContent,
    lines: Number(document.body.dataset.owareLines),
    moves: [...document.querySelectorAll("#oware-moves tbody tr")].map((tr) => ({
      move: Number(tr.dataset.move), lower: Number(tr.dataset.lower), upper: Number(tr.dataset.upper),
      text: tr.querySelector(".value").textContent,
    })),
    pits: [...document.querySelectorAll("#oware-board .pit")].map((b) => [Number(b.dataset.pit), Number(b.textContent)]),
    history: document.getElementById("oware-history").textContent,
  }));
  const sameAsCli = (s, c, what) => {
    assert.equal(s.lower, c.lower, `${what}: lower`);
    assert.equal(s.upper, c.upper, `${what}: upper`);
    assert.equal(s.value, c.exact ? `${c.value}` : `${c.lower}..${c.upper}`, `${what}: value text`);
    assert.equal(s.best, c.best_moves.join(", "), `${what}: best moves`);
    assert.equal(s.pv, c.pv.join(" "), `${what}: perfect play`);
    assert.ok(s.method.includes(c.method), `${what}: method ${s.method} vs ${c.method}`);
    assert.deepEqual(
      s.moves.map((m) => [m.move, m.lower, m.upper, m.text]).sort((a, b) => a[0] - b[0]),
      c.moves.map((m) => [m.move, m.lower, m.upper, m.lower === m.upper ? `${m.lower}` : `${m.lower}..${m.upper}`]).sort((a, b) => a[0] - b[0]),
      `${what}: every move's value`,
    );
  };
  // An action, then its analysis to the end: the mark is set stale first so the previous
  // analysis's `done` is not taken for this one's.
  const act = async (f) => {
    await page.evaluate(() => { document.body.dataset.oware = "stale"; });
    await f();
    await page.waitForSelector("body[data-oware=done]");
  };
  const setStart = (pits, side) => act(async () => {
    await page.fill("#oware-start", pits);
    await page.selectOption("#oware-start-side", side);
    await page.click("#oware-set");
  });

  // 1. A database position (8 seeds): every move's value, the best moves and the line.
  const dbPits = "0,0,0,0,1,2,1,0,0,0,0,3";
  await setStart(dbPits, "south");
  let s = await shown();
  let c = cliJson("oware", "solve", "--pits", dbPits, "--db", db, "--json");
  assert.equal(c.method, "db");
  sameAsCli(s, c, "database position");
  await page.screenshot({ path: join(out, "serve.png") });
  log(`database position: value ${s.value}, ${s.moves.length} moves, equal to the CLI's`);

  // 2. A move played by clicking the best move's pit; the board and the values after it.
  const best = c.best_moves[0];
  await act(() => page.click(`#oware-board .pit[data-side=south][data-own="${best}"]`));
  assert.equal((await shown()).history, `${best}`);
  s = await shown();
  const replay = cliJson("oware", "replay", "--start", dbPits, "--to-move", "south", "--moves", `${best}`, "--json");
  const last = replay.plies[replay.plies.length - 1];
  for (const [i, n] of s.pits) assert.equal(n, last.pits[i], `pit ${i} after move ${best}`);
  const view = last.to_move === "south" ? last.pits : [...last.pits.slice(6), ...last.pits.slice(0, 6)];
  c = cliJson("oware", "solve", "--pits", view.join(","), "--db", db, "--json");
  sameAsCli(s, c, "after the clicked move");
  log(`clicked move ${best}: board equals oware replay's, value ${s.value} equals the CLI's`);

  // 3. Keyboard: `u` takes the move back, a digit plays own pit (key k = pit k-1).
  await act(() => page.keyboard.press("u"));
  assert.equal((await shown()).history, "(none)");
  await act(() => page.keyboard.press(`${best + 1}`));
  assert.equal((await shown()).history, `${best}`);
  log("keyboard: u undid the move, a digit replayed it");

  // 4. A position only the search can bound (12 seeds; the database has 8): the bounds of
  // the deepest depth the page shows are `oware solve --depth D`'s.
  await page.fill("#oware-time", "2");
  const searchPits = "1,2,0,3,1,0,1,2,0,1,1,0";
  await setStart(searchPits, "south");
  s = await shown();
  assert.ok(s.depth >= 3 && s.lines >= 3, `search streamed ${s.lines} depths (deepest ${s.depth})`);
  assert.ok(s.lower < s.upper, "the search bounds the value without settling it");
  c = cliJson("oware", "solve", "--pits", searchPits, "--db", db, "--depth", `${s.depth}`, "--json");
  assert.equal(c.exact, false);
  sameAsCli(s, c, `search position at depth ${s.depth}`);
  log(`search position: ${s.lines} depths streamed; at depth ${s.depth} the bounds ${s.value} equal oware solve --depth ${s.depth}`);

  // 5. A phone-sized screen: the board fits without horizontal scrolling.
  await page.setViewportSize({ width: 375, height: 740 });
  await setStart(dbPits, "south");
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(fits, "no horizontal scrolling at 375 px");
  await page.screenshot({ path: join(out, "phone.png") });
  await page.setViewportSize({ width: 900, height: 1000 });

  // 6. Lukho: a game from both choices and a race, stepped through turn by turn.
  await page.click("#tab-lukho");
  const pair = ["--south-remove", "0,0,0,0,0,0,0,1", "--south-drop", "0@0", "--north-remove", "0,0,0,0,0,0,0,0", "--north-drop", "0@0", "--race", "south-first"];
  await page.selectOption("#lukho-race", "south-first");
  await page.click("#lukho-play");
  await page.waitForSelector("body[data-lukho=done]");
  const lc = cliJson("lukho", "play", ...pair, "--json");
  const text = (id) => page.textContent(`#${id}`);
  assert.equal(await text("lukho-winner"), lc.winner);
  assert.equal(await text("lukho-margin"), `${lc.margin}`);
  assert.equal(await text("lukho-stores"), lc.stores.join(" : "));
  assert.equal(await text("lukho-turns"), `${lc.turns}`);
  assert.equal(await text("lukho-class"), lc.class);
  assert.equal(await text("lukho-first"), lc.first_player);
  const trace = cli("lukho", "play", ...pair, "--trace", "--jsonl").trim().split("\n").map((l) => JSON.parse(l));
  for (let t = 0; t < trace.length; t++) {
    const pits = await page.evaluate(() => [...document.querySelectorAll("#lukho-board .pit")].map((p) => [Number(p.dataset.pit), Number(p.textContent)]));
    for (const [i, n] of pits) assert.equal(n, trace[t].pits[i], `Lukho turn ${t}, pit ${i}`);
    assert.equal(await page.getAttribute("#lukho-turn", "data-turn"), `${t}`);
    if (t + 1 < trace.length) await page.click("#lukho-next");
  }
  log(`Lukho: result (${lc.winner}, margin ${lc.margin}, ${lc.turns} turns) and all ${trace.length} boards equal lukho play's`);

  // 7. The committed equilibrium mixes, as the results browser shows them.
  const eqPath = "equilibrium/last2-sequential-margin/equilibrium.json";
  await page.selectOption("#lukho-files", eqPath);
  await page.waitForSelector("#lukho-file table");
  const eq = JSON.parse(readFileSync(join("results/lukho", eqPath), "utf8"));
  const rows = await page.$$eval("#lukho-file table", (ts) => ts.map((t) => t.querySelectorAll("tr").length - 1));
  assert.deepEqual(rows, [eq.south.length, eq.north.length]);
  await page.screenshot({ path: join(out, "lukho.png"), fullPage: false });
  log(`equilibrium mixes shown: ${rows.join(" + ")} choices, as committed`);

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
