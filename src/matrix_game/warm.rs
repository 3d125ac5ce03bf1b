//! Constraint generation over a growing game, carried from one LP to the next: the restricted
//! LPs of a double-oracle run, whose sets only grow and whose optimal supports change little.

use super::dense::maximiser;
use super::options::SolveOptions;
use super::solution::{LpError, Solved};
use super::tableau::{Rhs, Tableau};

/// [`maximiser`] by constraint generation from a guess of both supports (`rows0`, `cols0`,
/// e.g. the previous iteration's mixes and the new members): solve the game on the guessed
/// rows and columns, add every row and column that beats the sub-game's value against its
/// mixes, until none does. A double-oracle iteration changes the optimal supports little,
/// so the LPs stay near the support's size instead of the restricted set's. The rounds share
/// one tableau ([`super::tableau`]): the rows and columns a round adds are written in the last
/// round's optimal basis, and the simplex goes on from there instead of from scratch.
/// Default options ([`SolveOptions::default`]), no carried optimum.
pub fn maximiser_from(
    a: &[f64],
    rows: usize,
    cols: usize,
    rows0: &[usize],
    cols0: &[usize],
) -> Result<(f64, Vec<f64>), LpError> {
    maximiser_warm(a, rows, cols, (rows0, cols0), None, &SolveOptions::default()).map(|(s, _)| s)
}

/// The optimal tableau of a restricted LP, pruned to its core ([`Tableau::prune`]), kept for the
/// next iteration's LP ([`maximiser_warm`]). Its labels are matrix indices, so it serves any
/// later game that keeps this one's rows and columns where they are and appends to them.
#[derive(Clone)]
pub struct Warm {
    pub(super) tab: Tableau,
    /// The core's matrix rows and columns.
    pub(super) r: Vec<usize>,
    pub(super) c: Vec<usize>,
    /// The size of the game it solved.
    pub(super) rows: usize,
    pub(super) cols: usize,
    /// LPs solved from it since it was built from scratch.
    pub(super) uses: u32,
}

const WARM_MAGIC: &[u8; 8] = b"LPWARM01";

impl Warm {
    /// The carried optimum as bytes, checksummed: a resumed run starts its next LP from the
    /// same tableau as the uninterrupted run, so it computes the same bits.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for x in [self.rows, self.cols, self.uses as usize, self.r.len(), self.c.len()] {
            body.extend_from_slice(&(x as u64).to_le_bytes());
        }
        for &i in self.r.iter().chain(&self.c) {
            body.extend_from_slice(&(i as u64).to_le_bytes());
        }
        self.tab.encode(&mut body);
        let mut out = WARM_MAGIC.to_vec();
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// A carried optimum written by [`Warm::to_bytes`]; `None` if it is not one (or damaged).
    pub fn from_bytes(bytes: &[u8]) -> Option<Warm> {
        let rest = bytes.strip_prefix(WARM_MAGIC)?;
        let (crc, mut body) = rest.split_first_chunk::<4>()?;
        if crc32fast::hash(body) != u32::from_le_bytes(*crc) {
            return None;
        }
        let mut next = || -> Option<usize> {
            let (head, rest) = body.split_first_chunk::<8>()?;
            body = rest;
            Some(u64::from_le_bytes(*head) as usize)
        };
        let (rows, cols, uses, nr, nc) = (next()?, next()?, next()? as u32, next()?, next()?);
        if nr > rows || nc > cols {
            return None;
        }
        let r = (0..nr).map(|_| next()).collect::<Option<Vec<_>>>()?;
        let c = (0..nc).map(|_| next()).collect::<Option<Vec<_>>>()?;
        let tab = Tableau::decode(&mut body)?;
        body.is_empty().then_some(Warm { tab, r, c, rows, cols, uses })
    }
}

/// [`maximiser_from`], started from `warm` (the last iteration's optimum) when it fits: the
/// same matrix with rows and columns appended (a double-oracle set only grows, so the old
/// members keep their indices, and the tableau's labels are matrix indices) and a shift that
/// still makes every entry positive. Then the rounds only add what the new members change,
/// written in the old optimal basis: a few hundred pivots where a start from the guessed
/// supports needs one per support member and more. Should a warm start fail (lost precision),
/// the LP is solved from the guess, and should that fail too, by [`maximiser`] from scratch
/// (then there is no optimum to carry). `guess` holds the guessed rows and columns
/// (`rows0`, `cols0`). Returns the solution and this LP's optimum to carry on. Reads
/// `opts.warm_start` and `opts.trace`.
pub fn maximiser_warm(
    a: &[f64],
    rows: usize,
    cols: usize,
    (rows0, cols0): (&[usize], &[usize]),
    warm: Option<Warm>,
    opts: &SolveOptions,
) -> Result<(Solved, Option<Warm>), LpError> {
    // One shift for every round, so that the tableau carries over.
    let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
    let fits = |w: &Warm| w.rows <= rows && w.cols <= cols && w.tab.shift() >= shift;
    let warm = warm.filter(|_| opts.warm_start);
    match warm {
        Some(w) if fits(&w) => {
            // Carried as it stands, the tableau would take the last LP's rounding into this
            // one, and over a long chain of warm starts it adds up: its core is written
            // afresh for its basis from the matrix.
            let tab = w.tab.rebuilt(a, cols);
            if let Some(out) = rounds(a, rows, cols, tab, (w.r, w.c), w.uses + 1, opts) {
                return Ok(out);
            }
            opts.trace(format_args!("lp: the warm start failed; from the guess"));
        }
        Some(w) => opts.trace(format_args!(
            "lp: from the guess (warm: {}x{} of {rows}x{cols}, shift {} for {shift}, uses {})",
            w.rows,
            w.cols,
            w.tab.shift(),
            w.uses
        )),
        None => opts.trace(format_args!("lp: from the guess (no warm start)")),
    }
    let pick = |v: &[usize], n: usize| {
        let mut v: Vec<usize> = v.iter().copied().filter(|&i| i < n).collect();
        v.sort_unstable();
        v.dedup();
        if v.is_empty() {
            v.push(0);
        }
        v
    };
    let (r, c) = (pick(rows0, rows), pick(cols0, cols));
    let tab = Tableau::new(a, cols, &r, &c, shift);
    match rounds(a, rows, cols, tab, (r, c), 0, opts) {
        Some(out) => Ok(out),
        None => Ok((maximiser(a, rows, cols)?, None)),
    }
}

/// Constraint generation from `tab` over the sub-game `r` × `c` of `a`: solve, add every row
/// and column that beats the sub-game's value against its mixes, until none does. `None` when
/// the simplex gives up.
fn rounds(
    a: &[f64],
    rows: usize,
    cols: usize,
    mut tab: Tableau,
    (mut r, mut c): (Vec<usize>, Vec<usize>),
    uses: u32,
    opts: &SolveOptions,
) -> Option<(Solved, Option<Warm>)> {
    let scale = 1.0 + a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let start = std::time::Instant::now();
    loop {
        opts.trace(format_args!(
            "lp round: {} rows x {} cols (uses {uses}), {} pivots, {:.1} s",
            r.len(),
            c.len(),
            tab.pivots,
            start.elapsed().as_secs_f64()
        ));
        let why = |what: &str, t: &Tableau| opts.trace(format_args!("lp: {what} failed after {} pivots", t.pivots));
        let Some(()) = tab.primal() else {
            why("the primal simplex", &tab);
            return None;
        };
        let mut done = tab.clone();
        let Some(()) = done.dual(Rhs::True) else {
            why("the dual simplex on the true right-hand side", &done);
            return None;
        };
        let Some(s) = done.solution(a, cols, &r, &c) else {
            why("the answer's check", &done);
            return None;
        };
        let mut x = vec![0.0; rows];
        r.iter().zip(&s.x).for_each(|(&i, &w)| x[i] = w);
        let mut y = vec![0.0; cols];
        c.iter().zip(&s.y).for_each(|(&j, &w)| y[j] = w);
        let g: Vec<f64> = (0..cols).map(|j| (0..rows).map(|i| x[i] * a[i * cols + j]).sum()).collect();
        let h: Vec<f64> = (0..rows).map(|i| (0..cols).map(|j| a[i * cols + j] * y[j]).sum()).collect();
        let tol = 1e-9 * scale;
        let more_c: Vec<usize> = (0..cols).filter(|j| g[*j] < s.value - tol && c.binary_search(j).is_err()).collect();
        let more_r: Vec<usize> = (0..rows).filter(|i| h[*i] > s.value + tol && r.binary_search(i).is_err()).collect();
        if more_c.is_empty() && more_r.is_empty() {
            let guarantee = g.iter().copied().fold(f64::INFINITY, f64::min);
            let (r, c) = tab.prune();
            return Some(((guarantee, x), Some(Warm { tab, r, c, rows, cols, uses })));
        }
        // New columns keep the basis primal feasible (pivot on to the optimum), new rows keep
        // it dual feasible (the dual simplex restores the right-hand side).
        let p0 = tab.pivots;
        tab.extend(a, cols, &more_c, &[]);
        let Some(()) = tab.primal() else {
            why("the primal simplex on new columns", &tab);
            return None;
        };
        let p1 = tab.pivots;
        tab.extend(a, cols, &[], &more_r);
        let Some(()) = tab.dual(Rhs::Perturbed) else {
            why("the dual simplex on new rows", &tab);
            return None;
        };
        opts.trace(format_args!(
            "lp: {} new columns in {} primal pivots, {} new rows in {} dual pivots",
            more_c.len(),
            p1 - p0,
            more_r.len(),
            tab.pivots - p1
        ));
        r.extend(more_r);
        c.extend(more_c);
        r.sort_unstable();
        c.sort_unstable();
    }
}
