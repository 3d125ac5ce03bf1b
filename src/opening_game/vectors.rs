//! The payoff vectors of the restricted members: a column `A(·, n)` or a row `A(s, ·)` over the
//! whole family, swept once, saved next to the state (checksummed) and cached in memory.

use super::double_oracle::{Observer, Solver};
use super::{io_err, write_bytes_atomic, EqError};
use crate::games::lukho::{Choice, GameOutcome};
use crate::sweep::play::games_batched;
use rayon::prelude::*;
use std::fs;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Kind {
    /// `A(·, id)`: the choice played by North, over every South choice of the family.
    Col,
    /// `A(id, ·)`: the choice played by South, over every North choice.
    Row,
}

const CHUNK: usize = 4096;

/// A payoff vector: mapped from its file (the page cache holds it, not the heap: thousands of
/// 12.7 MB vectors fit where RAM would not), or in memory where mapping is not possible.
pub(super) enum Vector {
    Mapped(memmap2::Mmap),
    Owned(Vec<i16>),
}

impl Vector {
    pub(super) fn as_slice(&self) -> &[i16] {
        match self {
            // Little-endian i16s, page-aligned (checked when mapped).
            Vector::Mapped(m) => unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<i16>(), m.len() / 2) },
            Vector::Owned(v) => v,
        }
    }

    /// Its length in bytes and their CRC-32 (as saved: little-endian).
    fn crc(&self) -> (usize, u32) {
        match self {
            Vector::Mapped(m) => (m.len(), crc32fast::hash(m)),
            Vector::Owned(v) => {
                let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                (bytes.len(), crc32fast::hash(&bytes))
            }
        }
    }

    /// The vector in `path` (its bytes already checked or just written), mapped on
    /// little-endian targets.
    fn open(path: &std::path::Path) -> std::io::Result<Vector> {
        let bytes_to_vec = |b: &[u8]| b.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
        let file = fs::File::open(path)?;
        if cfg!(target_endian = "little") && file.metadata()?.len() > 0 {
            // Read-only map of a file this run's lock keeps from other writers.
            let map = unsafe { memmap2::Mmap::map(&file) }?;
            if (map.as_ptr() as usize).is_multiple_of(2) {
                return Ok(Vector::Mapped(map));
            }
            return Ok(Vector::Owned(bytes_to_vec(&map)));
        }
        Ok(Vector::Owned(bytes_to_vec(&fs::read(path)?)))
    }
}

impl Solver {
    pub(super) fn pos(&self, id: u32) -> usize {
        self.ids.binary_search(&id).expect("restricted sets hold family members")
    }

    /// The stored kind and sign for a wanted vector: in a symmetric game a row is the
    /// negated column of the same choice.
    pub(super) fn stored(&self, kind: Kind) -> (Kind, f64) {
        match (kind, self.def.symmetric()) {
            (Kind::Row, true) => (Kind::Col, -1.0),
            (k, _) => (k, 1.0),
        }
    }

    pub(super) fn file_name(kind: Kind, id: u32) -> String {
        match kind {
            Kind::Col => format!("col-{id}.i16"),
            Kind::Row => format!("row-{id}.i16"),
        }
    }

    /// Where the vector file `name` is kept: `DIR/columns/name`.
    pub(super) fn vector_path(&self, name: &str) -> std::path::PathBuf {
        self.dir.join("columns").join(name)
    }

    /// The vector a file name under `columns/` names (the inverse of [`Solver::file_name`]).
    pub(super) fn parse_name(name: &str) -> Option<(Kind, u32)> {
        match name.strip_suffix(".i16").and_then(|n| n.split_once('-')) {
            Some(("col", id)) => id.parse::<u32>().ok().map(|id| (Kind::Col, id)),
            Some(("row", id)) => id.parse::<u32>().ok().map(|id| (Kind::Row, id)),
            _ => None,
        }
    }

    /// Make the vector available: in memory, else from its file, else swept (and saved).
    /// Returns the games played.
    pub(super) fn ensure(&mut self, kind: Kind, id: u32, obs: &dyn Observer) -> Result<u64, EqError> {
        let (kind, _) = self.stored(kind);
        if self.cache.contains_key(&(kind, id)) {
            return Ok(0);
        }
        let name = Self::file_name(kind, id);
        let path = self.vector_path(&name);
        if let Some(&crc) = self.state.vectors.get(&name) {
            if path.exists() {
                let v = Vector::open(&path).map_err(io_err(&path))?;
                let (len, got) = v.crc();
                if len != 2 * self.ids.len() || got != crc {
                    let what = format!(
                        "{len} bytes, CRC-32 {got:08x}: the state expects {} bytes, CRC-32 {crc:08x} (corrupt or truncated; delete the file to sweep it again)",
                        2 * self.ids.len()
                    );
                    return Err(EqError::state(&path, what));
                }
                self.cache.insert((kind, id), v);
                return Ok(0);
            }
        }
        let v = self.sweep_vector(kind, id, obs);
        let games = self.ids.len() as u64 * self.def.races() as u64;
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        fs::create_dir_all(self.dir.join("columns")).map_err(io_err(&self.dir))?;
        write_bytes_atomic(&path, &bytes)?;
        self.state.vectors.insert(name, crc32fast::hash(&bytes));
        drop(v);
        self.cache.insert((kind, id), Vector::open(&path).map_err(io_err(&path))?);
        Ok(games)
    }

    /// One vector by the parallel sweep: `id` against every family choice, every outcome.
    pub(super) fn sweep_vector(&self, kind: Kind, id: u32, obs: &dyn Observer) -> Vec<i16> {
        let (rules, model, payoff) = (&self.def.rules, self.def.model, self.def.payoff);
        let races = self.def.races() as u64;
        let c = Choice::from_id(id as u64, rules).expect("family member");
        let label = match kind {
            Kind::Col => format!("vs N {id}"),
            Kind::Row => format!("vs S {id}"),
        };
        obs.sweep_start(&label, self.ids.len() as u64 * races);
        let outcomes = model.outcomes().expect("Solver::open refuses models whose outcomes depend on the pair");
        let mut out = vec![0i16; self.ids.len()];
        out.par_chunks_mut(CHUNK).zip(self.choices.par_chunks(CHUNK)).for_each(|(o, ch)| {
            let mut sums = [0i32; CHUNK];
            let add = |i: usize, g: &GameOutcome| sums[i] += payoff.of(g);
            // The games after the openings in batches (the sweep's lanes: about a fifth less
            // CPU per game than one pair at a time).
            match kind {
                Kind::Col => games_batched(rules, &self.proven, outcomes, ch, |x| (x, &c), add),
                Kind::Row => games_batched(rules, &self.proven, outcomes, ch, |x| (&c, x), add),
            }
            for (slot, &v) in o.iter_mut().zip(&sums) {
                *slot = v as i16;
            }
            obs.games(ch.len() as u64 * races);
        });
        obs.sweep_end();
        out
    }

    /// The vector (integer units, summed over outcomes) with its sign applied lazily.
    pub(super) fn vector(&self, kind: Kind, id: u32) -> (&[i16], f64) {
        let (k, sign) = self.stored(kind);
        (self.cache.get(&(k, id)).expect("ensured").as_slice(), sign)
    }

    /// The `k` largest distinct values over the family of Σ w·v[p] with their positions,
    /// largest first (equal values: the lowest position), in integer units. Each chunk of
    /// positions sums the vectors one after another (streaming reads, the same order of
    /// terms for every position).
    pub(super) fn ranked(&self, terms: &[(&[i16], f64)], k: usize) -> Vec<(f64, usize)> {
        let n = self.ids.len();
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (a, b) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                let mut acc = vec![0.0f64; b - a];
                for (v, w) in terms {
                    for (s, &x) in acc.iter_mut().zip(&v[a..b]) {
                        *s += w * x as f64;
                    }
                }
                let mut top = Vec::with_capacity(k + 1);
                for (i, &s) in acc.iter().enumerate() {
                    offer(&mut top, k, (s, a + i));
                }
                top
            })
            .reduce(Vec::new, |mut x, y| {
                for e in y {
                    offer(&mut x, k, e);
                }
                x
            })
    }
}

/// Keep `top` the `k` largest distinct values (largest first; of equal values the lowest
/// position).
fn offer(top: &mut Vec<(f64, usize)>, k: usize, e: (f64, usize)) {
    if top.len() == k && top.last().is_some_and(|l| e.0 < l.0) {
        return;
    }
    match top.iter().position(|t| t.0 <= e.0) {
        Some(i) if top[i].0 == e.0 => {
            if e.1 < top[i].1 {
                top[i].1 = e.1;
            }
        }
        Some(i) => {
            top.insert(i, e);
            top.truncate(k);
        }
        None => {
            if top.len() < k {
                top.push(e);
            }
        }
    }
}
