#!/usr/bin/env python3
# How few members can a regret-matching⁺ mix keep? Regret matching⁺ (as src/matrix_game/regret.rs,
# in numpy) on a restricted game written by `mancala lukho equilibrium --out DIR --dump-lp DUMP`
# (its layout: docs/equilibrium.md, "The restricted game's file"), to the duality gap EPS, then
# the exact guarantee of the averaged mix cut to its k heaviest members.
#   python3 scripts/lp_dump_heaviest.py DUMP [EPS]      (needs numpy; scripts/README.md)
import numpy as np, sys, time
f = sys.argv[1]; eps = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
raw = np.fromfile(f, dtype='<u8', count=4)
rows, cols, nr, nc = map(int, raw)
off = 8 * (4 + nr + nc)
a = np.fromfile(f, dtype='<f8', offset=off, count=rows * cols).reshape(rows, cols).astype(np.float32)
print(rows, cols, flush=True)
rx = np.zeros(rows); ry = np.zeros(cols)
x = np.full(rows, 1 / rows); y = np.full(cols, 1 / cols)
xs = np.zeros(rows); ys = np.zeros(cols)
t0 = time.time()
for t in range(1, 100001):
    u = a @ y.astype(np.float32)
    rx = np.maximum(rx + u - x @ u, 0); s = rx.sum(); x = rx / s if s > 0 else np.full(rows, 1 / rows)
    g = x.astype(np.float32) @ a
    ry = np.maximum(ry + y @ g - g, 0); s = ry.sum(); y = ry / s if s > 0 else np.full(cols, 1 / cols)
    xs += t * x; ys += t * y
    if t % 20 == 0:
        xb = xs / xs.sum(); yb = ys / ys.sum()
        gap = (a @ yb.astype(np.float32)).max() - (xb.astype(np.float32) @ a).min()
        if gap <= eps:
            break
print('steps', t, 'gap', gap, '%.1f s' % (time.time() - t0), flush=True)
xb = xs / xs.sum()
a64 = a.astype(np.float64)
full = (xb @ a64).min()
order = np.argsort(-xb)
print('untruncated support', (xb > 0).sum(), 'guarantee', full)
for k in [8000, 7000, 6500, 6000, 5500, 5000, 4500, 4000, 3500, 3000, 2500, 2000]:
    if k > (xb > 0).sum(): continue
    z = np.zeros(rows); keep = order[:k]; z[keep] = xb[keep]; mass = z.sum(); z /= mass
    print(k, 'dropped mass %.5f' % (1 - mass), 'guarantee %.5f' % (z @ a64).min(), 'loss %.5f' % (full - (z @ a64).min()), flush=True)
