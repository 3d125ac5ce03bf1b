//! Pivots held back from the tableau's constraint block and applied in batches.
//!
//! An exchange pivot touches every cell of the tableau, and a dense simplex on big games spends
//! nearly all its time in that pass: once the tableau outgrows the caches the pass is
//! memory-bound (figures: results/BENCHMARKS-journal.md, "Pivots held back in batches"). But a pivot only *reads* one column (the ratio test), one row and the parts kept
//! current at once (the objective row and the right-hand sides). So the constraint block keeps
//! the pivots' rank-one updates `x −= c_i r_j` pending, a column or row is read through them
//! (`BATCH` terms at most), and every `BATCH` pivots one pass applies them all while each row
//! sits in cache: the same memory traffic for `BATCH` pivots as for one.
//!
//! An exchange pivot on `(p, q)` is a rank-one update: with `f_i = t_iq / t_pq`,
//! `t_ij −= f_i · t_pj` for `i ≠ p, j ≠ q`; row `p` becomes `t_pj / t_pq`, column `q` becomes
//! `−f_i`, the pivot `1 / t_pq`. Taking `c_i = f_i` (`i ≠ p`), `c_p = 1 − 1/t_pq`, `r_j = t_pj`
//! (`j ≠ q`) and `r_q = t_pq + 1` gives all of it as `t −= c rᵀ`: the cells off the pivot's row
//! and column get exactly the plain pivot's arithmetic, the pivot's row and column theirs to
//! within a rounding of about `t_pq` ulps.

/// Pivots held at most (then applied). Per held pivot a read costs one multiply-add per
/// entry; applying costs one per cell, vectorised, where a plain pivot costs a cell's trip to
/// memory and back. More held pivots make each read dearer and add rounding that costs pivots;
/// 32 beat 16 and 64 on the biggest LPs measured (results/BENCHMARKS-journal.md, "32 pivots held").
pub(super) const BATCH: usize = 32;

/// Tableaux of at least this many cells apply their batches in two halves side by side. The
/// halves are fixed by the size (not the thread count), so the arithmetic, hence every answer,
/// is the same on any machine.
const HALVES_FROM_CELLS: usize = 1 << 20;

#[derive(Clone)]
pub(super) struct Batch {
    /// Pivots held.
    k: usize,
    /// Pivots to hold before applying them (`BATCH`; 1 applies each at once).
    limit: usize,
    m: usize,
    n: usize,
    /// Each held pivot's row factor, by constraint row: `c[i * BATCH + l]`.
    c: Vec<f64>,
    /// Each held pivot's column factors over the constraint block: `r[l * n + j]`.
    r: Vec<f64>,
    /// The stored constraint block in [`Short`]s (`m × n`, no right-hand sides), for the
    /// steepest-edge updates' products only: a quarter of the bytes to read per pivot, and
    /// summed in single precision (the entries have 8 bits). Those weights only rank
    /// candidates, and applying a batch recomputes them in double.
    shadow: Vec<Short>,
}

/// A shadow entry: the high half of the entry's single-precision bits (bfloat16: 8 bits of
/// mantissa, the exponent's full range). The products read the whole shadow once per pivot,
/// which dominates a primal pivot, so half the bytes of single precision pay for the few
/// more pivots their coarser ranking costs. Its products sum in single precision, twice the
/// lanes of double, for the same reason (results/BENCHMARKS-journal.md, "What the warm LP's
/// pivots are, and the shadow in bfloat16").
type Short = u16;

/// `x` rounded to the nearest [`Short`] (ties to even).
#[inline(always)]
fn short(x: f64) -> Short {
    let b = (x as f32).to_bits();
    (b.wrapping_add(0x7fff + ((b >> 16) & 1)) >> 16) as Short
}

/// A [`Short`]'s value.
#[inline(always)]
fn long(s: Short) -> f32 {
    f32::from_bits((s as u32) << 16)
}

/// What applying a batch recomputes exactly, in the same pass over the tableau.
pub(super) enum Weights<'a> {
    None,
    /// Each column's squared length in the constraint rows, plus 1 (primal steepest edge).
    Columns(&'a mut [f64]),
    /// Each constraint row's squared length over the columns, plus 1 (dual steepest edge).
    Rows(&'a mut [f64]),
}

impl Batch {
    /// An empty batch over the constraint block (`m` rows, `n` columns) of the tableau `t`
    /// (rows `n + 2` wide).
    pub(super) fn new(t: &[f64], (m, n): (usize, usize), limit: usize) -> Batch {
        let limit = limit.clamp(1, BATCH);
        let w = n + 2;
        let shadow = (0..m).flat_map(|i| t[i * w..i * w + n].iter().map(|&x| short(x))).collect();
        Batch { k: 0, limit, m, n, c: vec![0.0; m * BATCH], r: vec![0.0; BATCH * n], shadow }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.k == 0
    }

    pub(super) fn is_full(&self) -> bool {
        self.k >= self.limit
    }

    pub(super) fn limit(&self) -> usize {
        self.limit
    }

    /// Column `q` of the constraint rows as the held pivots leave it (`out[i]`, `i < m`), from
    /// the stored tableau `t` (rows `w` wide). The held terms are applied in order, as
    /// [`Batch::apply`] does, so the entries are the ones applying would store, bit for bit.
    pub(super) fn column(&self, t: &[f64], w: usize, q: usize, out: &mut [f64]) {
        simd::column(self, t, w, q, out)
    }

    /// [`Batch::column`]'s loop, inlined where it is compiled for an instruction set.
    #[inline(always)]
    fn column_loop(&self, t: &[f64], w: usize, q: usize, out: &mut [f64]) {
        let (k, n) = (self.k, self.n);
        for (i, o) in out[..self.m].iter_mut().enumerate() {
            let mut x = t[i * w + q];
            for (l, &c) in self.c[i * BATCH..i * BATCH + k].iter().enumerate() {
                x = (-c).mul_add(self.r[l * n + q], x);
            }
            *o = x;
        }
    }

    /// Row `p` of the constraint block as the held pivots leave it (`out[j]`, `j < n`).
    pub(super) fn row(&self, t: &[f64], w: usize, p: usize, out: &mut [f64]) {
        let n = self.n;
        out[..n].copy_from_slice(&t[p * w..p * w + n]);
        simd::subtract_held(&mut out[..n], &self.c[p * BATCH..p * BATCH + self.k], &self.r, (n, 0));
    }

    /// `out[j] ≈ Σ_i alpha[i] · x_ij` over the constraint block as the held pivots leave it
    /// (`alpha` over the rows, `out` over the columns): one read of the [`Short`]
    /// block, then the held terms (`Σ_l (alpha · c_l) r_l`) in double.
    pub(super) fn column_products(&self, alpha: &[f64], out: &mut [f64]) {
        let (m, n, k) = (self.m, self.n, self.k);
        let split = if m * n >= HALVES_FROM_CELLS { m / 2 } else { m };
        let (top, bottom) = self.shadow.split_at(split * n);
        let alpha32: Vec<f32> = alpha[..m].iter().map(|&a| a as f32).collect();
        let sum_rows = |rows: &[Short], first: usize, out: &mut [f64]| {
            let mut sums = vec![0.0f32; out.len()];
            simd::accumulate_rows(rows, &alpha32[first..], &mut sums);
            out.iter_mut().zip(&sums).for_each(|(d, &x)| *d = x as f64);
        };
        if split == m {
            sum_rows(top, 0, &mut out[..n]);
        } else {
            let mut second = vec![0.0f64; n];
            rayon::join(|| sum_rows(top, 0, &mut out[..n]), || sum_rows(bottom, split, &mut second));
            for (d, x) in out.iter_mut().zip(&second) {
                *d += x;
            }
        }
        for l in 0..k {
            let g: f64 = (0..m).map(|i| alpha[i] * self.c[i * BATCH + l]).sum();
            for (d, &r) in out[..n].iter_mut().zip(&self.r[l * n..(l + 1) * n]) {
                *d -= g * r;
            }
        }
    }

    /// `out[k] ≈ Σ_j x_ij · rho[j]` for each listed row `i = rows[k]` of the constraint block
    /// as the held pivots leave it (`rho` over the columns), read like
    /// [`Batch::column_products`].
    pub(super) fn row_products(&self, rho: &[f64], rows: &[usize], out: &mut [f64]) {
        let (n, k) = (self.n, self.k);
        let g: Vec<f64> = (0..k).map(|l| dot(&self.r[l * n..(l + 1) * n], &rho[..n])).collect();
        let rho: Vec<f32> = rho[..n].iter().map(|&x| x as f32).collect();
        let products = |rows: &[usize], out: &mut [f64]| {
            for (&i, o) in rows.iter().zip(out.iter_mut()) {
                let mut e = simd::dot_short(&self.shadow[i * n..(i + 1) * n], &rho);
                for (l, gl) in g.iter().enumerate() {
                    e -= self.c[i * BATCH + l] * gl;
                }
                *o = e;
            }
        };
        let out = &mut out[..rows.len()];
        if rows.len() * n >= HALVES_FROM_CELLS {
            let half = rows.len() / 2;
            let (rt, rb) = rows.split_at(half);
            let (ot, ob) = out.split_at_mut(half);
            rayon::join(|| products(rt, ot), || products(rb, ob));
        } else {
            products(rows, out);
        }
    }

    /// Hold one more pivot: `c(i)` for each constraint row, `r` over the columns.
    pub(super) fn push(&mut self, c: impl Fn(usize) -> f64, r: &[f64]) {
        let (l, n) = (self.k, self.n);
        debug_assert!(l < self.limit);
        for i in 0..self.m {
            self.c[i * BATCH + l] = c(i);
        }
        self.r[l * n..(l + 1) * n].copy_from_slice(&r[..n]);
        self.k += 1;
    }

    /// Apply the held pivots to the constraint block of `t` (rows `w` wide), and recompute
    /// `weights` exactly in the same pass (even with no pivot held).
    pub(super) fn apply(&mut self, t: &mut [f64], w: usize, mut weights: Weights) {
        if self.k == 0 && matches!(weights, Weights::None) {
            return;
        }
        let (m, n) = (self.m, self.n);
        let split = if m * w >= HALVES_FROM_CELLS { m / 2 } else { m };
        let (top, bottom) = t[..m * w].split_at_mut(split * w);
        let mut shadow = std::mem::take(&mut self.shadow);
        let (st, sb) = shadow.split_at_mut(split * n);
        let this = &*self;
        let halves = split < m;
        match &mut weights {
            Weights::None => {
                if halves {
                    rayon::join(
                        || this.apply_rows(top, st, 0, None, None),
                        || this.apply_rows(bottom, sb, split, None, None),
                    );
                } else {
                    this.apply_rows(top, st, 0, None, None);
                }
            }
            Weights::Rows(lengths) => {
                let (lt, lb) = lengths.split_at_mut(split);
                if halves {
                    rayon::join(
                        || this.apply_rows(top, st, 0, None, Some(lt)),
                        || this.apply_rows(bottom, sb, split, None, Some(lb)),
                    );
                } else {
                    this.apply_rows(top, st, 0, None, Some(lt));
                }
            }
            Weights::Columns(norms) => {
                norms.iter_mut().for_each(|s| *s = 1.0);
                if halves {
                    let mut second = vec![0.0f64; n];
                    rayon::join(
                        || this.apply_rows(top, st, 0, Some(norms), None),
                        || this.apply_rows(bottom, sb, split, Some(&mut second), None),
                    );
                    for (s, x) in norms.iter_mut().zip(&second) {
                        *s += x;
                    }
                } else {
                    this.apply_rows(top, st, 0, Some(norms), None);
                }
            }
        }
        self.shadow = shadow;
        self.k = 0;
    }

    /// [`Batch::apply`] on the whole rows `first..` held in `t` (and their `shadow`): the
    /// held terms, each row's share of `norms` (added) or its `lengths` (indexed from
    /// `first`). Column blocks of `COLUMNS` keep the held pivots' factors over the block in
    /// the first-level cache while the rows stream past.
    fn apply_rows(
        &self,
        t: &mut [f64],
        shadow: &mut [Short],
        first: usize,
        mut norms: Option<&mut [f64]>,
        mut lengths: Option<&mut [f64]>,
    ) {
        const COLUMNS: usize = 128;
        const AHEAD: usize = 4;
        let (n, k) = (self.n, self.k);
        let w = n + 2;
        if let Some(lengths) = lengths.as_deref_mut() {
            lengths.iter_mut().for_each(|s| *s = 1.0);
        }
        let rows = t.len() / w;
        for from in (0..n).step_by(COLUMNS) {
            let to = (from + COLUMNS).min(n);
            for ii in 0..rows {
                // The block's rows lie a whole row apart, too short a run for the hardware's
                // prefetcher to follow: ask for the one a few rows on while this one is done.
                if ii + AHEAD < rows {
                    prefetch(&t[(ii + AHEAD) * w + from..(ii + AHEAD) * w + to]);
                }
                let (row, short_row) = (&mut t[ii * w..(ii + 1) * w], &mut shadow[ii * n..(ii + 1) * n]);
                let i = first + ii;
                let x = &mut row[from..to];
                let length = lengths.as_deref_mut().map(|l| &mut l[ii]);
                let norms = norms.as_deref_mut().map(|v| &mut v[from..to]);
                let held = (&self.c[i * BATCH..i * BATCH + k], &self.r[..], (n, from));
                simd::segment(x, held, &mut short_row[from..to], norms, length);
            }
        }
    }
}

/// The pivots held for one row over the columns `from..` (`c`, `r`, `(n, from)`).
type Held<'a> = (&'a [f64], &'a [f64], (usize, usize));

/// One row's segment `x` in [`Batch::apply`]: the held terms, then its copy in `short_row`, its
/// squares added to `norms` (by column) or to `length`.
#[inline(always)]
fn segment(
    x: &mut [f64],
    (c, r, at): Held,
    short_row: &mut [Short],
    norms: Option<&mut [f64]>,
    length: Option<&mut f64>,
) {
    subtract_held(x, c, r, at);
    for (s, &v) in short_row.iter_mut().zip(x.iter()) {
        *s = short(v);
    }
    if let Some(norms) = norms {
        for (s, v) in norms.iter_mut().zip(x.iter()) {
            *s += v * v;
        }
    }
    if let Some(length) = length {
        *length += squared_length(x);
    }
}

/// Ask the CPU to bring `x` into its caches (nothing where there is no such instruction).
fn prefetch(x: &[f64]) {
    for line in x.chunks(8) {
        crate::prefetch::prefetch(line.as_ptr());
    }
}

/// `Σ x²` in eight interleaved partial sums. A plain left-to-right sum is one chain of
/// dependent additions, which the compiler may not reorder, so it neither vectorises nor
/// overlaps; applying a batch of pivots takes one per row for the dual's weights, and the
/// tableau one per changed row and column.
#[inline(always)]
pub(super) fn squared_length(row: &[f64]) -> f64 {
    dot(row, row)
}

/// `Σ a_j b_j` in eight interleaved partial sums (so that it vectorises; see
/// [`squared_length`]).
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    acc.iter().sum::<f64>() + tail
}

/// `Σ a_j b_j` with `a` in [`Short`]s, in 64 interleaved single-precision fused sums (so that
/// it vectorises, four registers of 16; the same on every machine, see [`subtract_held`]).
#[inline(always)]
fn dot_short(a: &[Short], b: &[f32]) -> f64 {
    let mut acc = [0.0f32; 64];
    let (ca, cb) = (a.chunks_exact(64), b.chunks_exact(64));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).fold(0.0, |s, (&x, &y)| long(x).mul_add(y, s));
    for (x, y) in ca.zip(cb) {
        for l in 0..64 {
            acc[l] = long(x[l]).mul_add(y[l], acc[l]);
        }
    }
    acc.iter().map(|&x| x as f64).sum::<f64>() + tail as f64
}

/// `out[j] += Σ_i alpha[i] · rows[i][j]` over the [`Short`] rows (`out.len()` long), in
/// single precision, four rows a pass so that `out` is read and written once for four of them.
#[inline(always)]
fn accumulate_rows(rows: &[Short], alpha: &[f32], out: &mut [f32]) {
    let n = out.len();
    let mut quads = rows.chunks_exact(4 * n);
    for (qi, quad) in quads.by_ref().enumerate() {
        let a = &alpha[4 * qi..4 * qi + 4];
        let (r0, rest) = quad.split_at(n);
        let (r1, rest) = rest.split_at(n);
        let (r2, r3) = rest.split_at(n);
        for ((((d, &x0), &x1), &x2), &x3) in out.iter_mut().zip(r0).zip(r1).zip(r2).zip(r3) {
            *d = a[3].mul_add(long(x3), a[2].mul_add(long(x2), a[1].mul_add(long(x1), a[0].mul_add(long(x0), *d))));
        }
    }
    let done = 4 * (rows.len() / n / 4);
    for (ii, row) in quads.remainder().chunks_exact(n).enumerate() {
        let a = alpha[done + ii];
        for (d, &x) in out.iter_mut().zip(row) {
            *d = a.mul_add(long(x), *d);
        }
    }
}

/// `x_j −= c_l · r_l[j]` for each held pivot `l` in order (the rows of `r` are `n` long, `x`
/// starts at column `from`), four at a time in one pass over `x`. Each term is one fused
/// multiply-add (one rounding), applied in order, so the result is the one-at-a-time result
/// bit for bit, and the same on every machine: `mul_add` is exact IEEE arithmetic with or
/// without the instruction (without, a slow library call).
#[inline(always)]
fn subtract_held(x: &mut [f64], c: &[f64], r: &[f64], (n, from): (usize, usize)) {
    let len = x.len();
    let r_of = |l: usize| &r[l * n + from..l * n + from + len];
    let mut l = 0;
    while l + 4 <= c.len() {
        let (c0, c1, c2, c3) = (c[l], c[l + 1], c[l + 2], c[l + 3]);
        let (r0, r1, r2, r3) = (r_of(l), r_of(l + 1), r_of(l + 2), r_of(l + 3));
        let (c0, c1, c2, c3) = (-c0, -c1, -c2, -c3);
        for ((((v, &a), &b), &d), &e) in x.iter_mut().zip(r0).zip(r1).zip(r2).zip(r3) {
            *v = c3.mul_add(e, c2.mul_add(d, c1.mul_add(b, c0.mul_add(a, *v))));
        }
        l += 4;
    }
    for (l, &cl) in c.iter().enumerate().skip(l) {
        for (v, &a) in x.iter_mut().zip(r_of(l)) {
            *v = (-cl).mul_add(a, *v);
        }
    }
}

/// The batch's loops compiled for the fused multiply-add instruction and wider registers
/// where the CPU has them (the portable build calls a library routine for each `mul_add`).
/// Same arithmetic, so the same answer, on every machine.
mod simd {
    use super::Held;

    /// What the CPU offers the batch's loops: 0 nothing beyond the portable build, 1 FMA
    /// and AVX2 (256 bits), 2 FMA and AVX-512 (512 bits).
    #[cfg(target_arch = "x86_64")]
    fn level() -> u8 {
        static LEVEL: std::sync::OnceLock<u8> = std::sync::OnceLock::new();
        *LEVEL.get_or_init(|| {
            let fma = std::is_x86_feature_detected!("fma");
            if fma && std::is_x86_feature_detected!("avx512f") {
                2
            } else if fma && std::is_x86_feature_detected!("avx2") {
                1
            } else {
                0
            }
        })
    }

    /// A kernel compiled three ways (for AVX-512 and FMA, for AVX2 and FMA, portable) from
    /// one body, the CPU's best picked when it runs. The body is an inlined call, so each
    /// copy is compiled for its instructions.
    macro_rules! dispatched {
        ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)? { $body:expr }) => {
            $(#[$doc])*
            pub(super) fn $name($($arg: $ty),*) $(-> $ret)? {
                #[cfg(target_arch = "x86_64")]
                {
                    #[target_feature(enable = "avx512f,fma")]
                    unsafe fn wide($($arg: $ty),*) $(-> $ret)? {
                        $body
                    }
                    #[target_feature(enable = "avx2,fma")]
                    unsafe fn narrow($($arg: $ty),*) $(-> $ret)? {
                        $body
                    }
                    match level() {
                        // SAFETY: `level()` said the CPU has the instructions.
                        2 => return unsafe { wide($($arg),*) },
                        1 => return unsafe { narrow($($arg),*) },
                        _ => {}
                    }
                }
                $body
            }
        };
    }

    use super::Short;

    type Norms<'a> = Option<&'a mut [f64]>;

    dispatched! {
        /// [`super::subtract_held`] for the best the CPU offers.
        fn subtract_held(x: &mut [f64], c: &[f64], r: &[f64], at: (usize, usize)) { super::subtract_held(x, c, r, at) }
    }

    dispatched! {
        /// [`super::segment`] for the best the CPU offers.
        fn segment(x: &mut [f64], held: Held, short_row: &mut [Short], norms: Norms, length: Option<&mut f64>) {
            super::segment(x, held, short_row, norms, length)
        }
    }

    dispatched! {
        /// [`super::dot_short`] for the best the CPU offers.
        fn dot_short(a: &[Short], b: &[f32]) -> f64 { super::dot_short(a, b) }
    }

    dispatched! {
        /// [`super::accumulate_rows`] for the best the CPU offers.
        fn accumulate_rows(rows: &[Short], alpha: &[f32], out: &mut [f32]) { super::accumulate_rows(rows, alpha, out) }
    }

    dispatched! {
        /// [`super::Batch::column`]'s loop for the best the CPU offers.
        fn column(b: &super::Batch, t: &[f64], w: usize, q: usize, out: &mut [f64]) { b.column_loop(t, w, q, out) }
    }
}

#[cfg(test)]
mod tests;
