// Latency of database answers through `mancala serve`: N seeded positions with `seeds` seeds
// (all covered by the server's database), each `POST /api/oware/solve` timed from the request
// to the parsed answer, as the page makes it. Every answer must be `method: "db"` and exact.
//
// node web/test/latency.mjs http://127.0.0.1:PORT SEEDS [N]
const [addr, seedsArg, nArg] = process.argv.slice(2);
const seeds = Number(seedsArg), n = Number(nArg || 500);
let x = 0x9e3779b97f4a7c15n;
const next = () => {
  // xorshift64* as src/rng.rs.
  x ^= x >> 12n; x ^= (x << 25n) & 0xffffffffffffffffn; x ^= x >> 27n;
  return (x * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
};
const times = [], work = [];
for (let i = 0; i < n; i++) {
  const pits = new Array(12).fill(0);
  for (let s = 0; s < seeds; s++) pits[Number(next() % 12n)]++;
  const t = performance.now();
  const r = await fetch(`${addr.replace(/\/$/, "")}/api/oware/solve`, { method: "POST", body: JSON.stringify({ pits }) });
  const v = await r.json();
  times.push(performance.now() - t);
  work.push(v.seconds * 1000);
  if (v.method !== "db" || !v.exact) throw new Error(`not a database answer: ${JSON.stringify(v)}`);
}
const first = times[0];
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(2);
console.log(`${n} database answers (${seeds} seeds), request to parsed answer: first ${first.toFixed(2)} ms, median ${q(times, 0.5)} ms, p99 ${q(times, 0.99)} ms, max ${q(times, 1)} ms`);
console.log(`  the solve inside the server ("seconds"): median ${q(work, 0.5)} ms, p99 ${q(work, 0.99)} ms, max ${q(work, 1)} ms`);
