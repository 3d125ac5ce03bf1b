//! The payoff vectors of the restricted members: a column `A(·, n)` or a row `A(s, ·)` over the
//! whole family, swept once, saved next to the state (checksummed) and cached in memory.

use super::double_oracle::{Observer, Solver};
use super::pass::{self, Term};
use super::{io_err, write_bytes_atomic, EqError, OpeningGame};
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

impl Kind {
    /// Whose mix a vector of this kind belongs to: columns are North's choices, rows South's.
    pub(super) fn side(self) -> &'static str {
        match self {
            Kind::Col => "North",
            Kind::Row => "South",
        }
    }
}

pub(super) const CHUNK: usize = 4096;

/// How wide a run's saved payoff entries are: `i8` when every sum over the outcomes fits
/// (one-outcome margins, |m| ≤ 96 half-seeds; results; points); `i8x2`, the `i8` of half the
/// sum, when only the grain of the payoff makes it fit (two-outcome margins reach ±192
/// half-seeds but are even, [`Payoff::grain`]); else `i16`. Half the bytes is half the page
/// cache a best reply streams through: thousand-member supports then fit in RAM.
///
/// [`Payoff::grain`]: super::Payoff::grain
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Width {
    I8,
    I8x2,
    I16,
}

impl Width {
    pub(super) fn of(def: &OpeningGame) -> Width {
        let most = def.payoff.bound() * def.races() as i32;
        if most <= i8::MAX as i32 {
            Width::I8
        } else if def.payoff.grain() == 2 && most / 2 <= i8::MAX as i32 {
            Width::I8x2
        } else {
            Width::I16
        }
    }

    pub(super) fn bytes(self) -> usize {
        match self {
            Width::I8 | Width::I8x2 => 1,
            Width::I16 => 2,
        }
    }

    pub(super) fn suffix(self) -> &'static str {
        match self {
            Width::I8 => ".i8",
            Width::I8x2 => ".i8x2",
            Width::I16 => ".i16",
        }
    }

    /// The width a vector file's name says.
    pub(super) fn of_name(name: &str) -> Option<Width> {
        [Width::I8, Width::I8x2, Width::I16].into_iter().find(|w| name.ends_with(w.suffix()))
    }

    /// Whether an entry (integer units) can be saved this wide.
    pub(super) fn fits(self, x: i16) -> bool {
        match self {
            Width::I8 => i8::try_from(x).is_ok(),
            Width::I8x2 => x % 2 == 0 && i8::try_from(x / 2).is_ok(),
            Width::I16 => true,
        }
    }

    /// Entries (integer units) as saved: little-endian, `bytes()` each (`i8x2`: halved).
    pub(super) fn encode(self, values: &[i16]) -> Vec<u8> {
        let narrow = |x: i16| {
            assert!(self.fits(x), "Width::of bounds every entry and Payoff::grain divides it: {x}");
            if self == Width::I8x2 {
                (x / 2) as i8 as u8
            } else {
                x as i8 as u8
            }
        };
        match self {
            Width::I16 => values.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Width::I8 | Width::I8x2 => values.iter().map(|&x| narrow(x)).collect(),
        }
    }
}

/// A vector's entries, however wide.
#[derive(Clone, Copy)]
pub(super) enum Values<'a> {
    I8(&'a [i8]),
    /// `i8x2`: each entry is twice the byte.
    Halved(&'a [i8]),
    I16(&'a [i16]),
}

impl Values<'_> {
    #[inline]
    pub(super) fn at(self, i: usize) -> i32 {
        match self {
            Values::I8(v) => v[i] as i32,
            Values::Halved(v) => 2 * v[i] as i32,
            Values::I16(v) => v[i] as i32,
        }
    }

    pub(super) fn len(self) -> usize {
        match self {
            Values::I8(v) | Values::Halved(v) => v.len(),
            Values::I16(v) => v.len(),
        }
    }

    /// `acc[k] += w · v[start + k]`: one loop per width, so each is vectorised.
    pub(super) fn add_scaled(self, acc: &mut [f64], start: usize, w: f64) {
        fn add<T: Copy + Into<f64>>(acc: &mut [f64], v: &[T], w: f64) {
            for (s, &x) in acc.iter_mut().zip(v) {
                *s += w * x.into();
            }
        }
        let end = start + acc.len();
        match self {
            Values::I8(v) => add(acc, &v[start..end], w),
            Values::Halved(v) => add(acc, &v[start..end], 2.0 * w),
            Values::I16(v) => add(acc, &v[start..end], w),
        }
    }
}

/// A payoff vector: mapped from its file (the page cache holds it, not the heap: thousands of
/// 6–13 MB vectors fit where RAM would not), or in memory where mapping is not possible.
pub(super) enum Vector {
    Mapped(memmap2::Mmap, Width),
    Wide(Vec<i16>),
    /// `i8` or `i8x2` entries.
    Narrow(Vec<i8>, Width),
}

impl Vector {
    pub(super) fn values(&self) -> Values<'_> {
        fn narrow(v: &[i8], w: Width) -> Values<'_> {
            if w == Width::I8x2 {
                Values::Halved(v)
            } else {
                Values::I8(v)
            }
        }
        match self {
            // Little-endian, aligned (checked when mapped).
            Vector::Mapped(m, Width::I16) => {
                Values::I16(unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<i16>(), m.len() / 2) })
            }
            Vector::Mapped(m, w) => narrow(unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<i8>(), m.len()) }, *w),
            Vector::Wide(v) => Values::I16(v),
            Vector::Narrow(v, w) => narrow(v, *w),
        }
    }

    /// The read-only file map behind the values, if they are mapped (a pass may page it out).
    pub(super) fn mapped(&self) -> Option<&[u8]> {
        match self {
            Vector::Mapped(m, _) => Some(m),
            Vector::Wide(_) | Vector::Narrow(..) => None,
        }
    }

    /// Its length in bytes and their CRC-32 (as saved: little-endian).
    fn crc(&self) -> (usize, u32) {
        match self {
            Vector::Mapped(m, _) => (m.len(), crc32fast::hash(m)),
            Vector::Wide(v) => {
                let bytes = Width::I16.encode(v);
                (bytes.len(), crc32fast::hash(&bytes))
            }
            Vector::Narrow(v, _) => {
                let bytes: Vec<u8> = v.iter().map(|&x| x as u8).collect();
                (bytes.len(), crc32fast::hash(&bytes))
            }
        }
    }

    /// The vector in `path` of entries `width` wide (its bytes already checked or just
    /// written), mapped on little-endian targets.
    fn open(path: &std::path::Path, width: Width) -> std::io::Result<Vector> {
        let owned = |b: &[u8]| match width {
            Width::I16 => Vector::Wide(b.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect()),
            Width::I8 | Width::I8x2 => Vector::Narrow(b.iter().map(|&x| x as i8).collect(), width),
        };
        let file = fs::File::open(path)?;
        if cfg!(target_endian = "little") && file.metadata()?.len() > 0 {
            // Read-only map of a file this run's lock keeps from other writers.
            let map = unsafe { memmap2::Mmap::map(&file) }?;
            if (map.as_ptr() as usize).is_multiple_of(width.bytes()) {
                return Ok(Vector::Mapped(map, width));
            }
            return Ok(owned(&map));
        }
        Ok(owned(&fs::read(path)?))
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

    /// A vector's file name: `col-ID` or `row-ID`, then the run's width (`.i8`, `.i8x2`, `.i16`).
    pub(super) fn file_name(&self, kind: Kind, id: u32) -> String {
        let side = match kind {
            Kind::Col => "col",
            Kind::Row => "row",
        };
        format!("{side}-{id}{}", self.width.suffix())
    }

    /// Where the vector file `name` is kept: `DIR/columns/name`.
    pub(super) fn vector_path(&self, name: &str) -> std::path::PathBuf {
        self.dir.join("columns").join(name)
    }

    /// The vector a file name under `columns/` names, of either width (the inverse of
    /// [`Solver::file_name`]).
    pub(super) fn parse_name(name: &str) -> Option<(Kind, u32)> {
        let stem = Width::of_name(name).and_then(|w| name.strip_suffix(w.suffix()))?;
        match stem.split_once('-') {
            Some(("col", id)) => id.parse::<u32>().ok().map(|id| (Kind::Col, id)),
            Some(("row", id)) => id.parse::<u32>().ok().map(|id| (Kind::Row, id)),
            _ => None,
        }
    }

    /// Rewrite a saved `i16` vector of a run whose entries are saved narrower (a state from
    /// before vectors were narrowed) as its file of the run's width (`.i8`, `.i8x2`), named in
    /// the state in its stead; returns the old file, to delete once the state is saved. Its
    /// bytes are checked first (refused as [`Solver::ensure`] refuses them).
    pub(super) fn narrow(&mut self, name: &str) -> Result<std::path::PathBuf, EqError> {
        let (kind, id) = Self::parse_name(name).expect("a vector name");
        let path = self.vector_path(name);
        let v = self.checked(&path, Width::I16, self.state.vectors[name])?;
        let Values::I16(wide) = v.values() else { unreachable!("opened as i16") };
        if !wide.iter().all(|&x| self.width.fits(x)) {
            let what =
                format!("an entry does not fit the run's {} vectors (not a vector of this run)", self.width.suffix());
            return Err(EqError::state(&path, what));
        }
        let bytes = self.width.encode(wide);
        let new = self.file_name(kind, id);
        write_bytes_atomic(&self.vector_path(&new), &bytes)?;
        self.state.vectors.remove(name);
        self.state.vectors.insert(new.clone(), crc32fast::hash(&bytes));
        if let Some(used) = self.state.vector_used.remove(name) {
            self.state.vector_used.insert(new, used);
        }
        Ok(path)
    }

    /// The saved vector in `path`, `width` wide, if its length and CRC-32 are the state's.
    fn checked(&self, path: &std::path::Path, width: Width, crc: u32) -> Result<Vector, EqError> {
        let v = Vector::open(path, width).map_err(io_err(path))?;
        let (len, got) = v.crc();
        let want = width.bytes() * self.ids.len();
        if len != want || got != crc {
            let what = format!(
                "{len} bytes, CRC-32 {got:08x}: the state expects {want} bytes, CRC-32 {crc:08x} (corrupt or truncated; delete the file to sweep it again)"
            );
            return Err(EqError::state(path, what));
        }
        Ok(v)
    }

    /// The state's CRC-32 of the vector file `name` ([`Solver::file_name`]), if the file is
    /// present: [`Solver::ensure`] opens it rather than sweeping.
    fn saved_crc(&self, name: &str) -> Option<u32> {
        let crc = *self.state.vectors.get(name)?;
        self.vector_path(name).exists().then_some(crc)
    }

    /// Whether [`Solver::ensure`] would sweep the vector (neither in memory nor saved).
    pub(super) fn needs_sweep(&self, kind: Kind, id: u32) -> bool {
        let (kind, _) = self.stored(kind);
        !self.cache.contains_key(&(kind, id)) && self.saved_crc(&self.file_name(kind, id)).is_none()
    }

    /// Make the vector available: in memory, else from its file, else swept (and saved).
    /// Returns the games played.
    pub(super) fn ensure(&mut self, kind: Kind, id: u32, obs: &dyn Observer) -> Result<u64, EqError> {
        let (kind, _) = self.stored(kind);
        if self.cache.contains_key(&(kind, id)) {
            return Ok(0);
        }
        let name = self.file_name(kind, id);
        let path = self.vector_path(&name);
        if let Some(crc) = self.saved_crc(&name) {
            let v = self.checked(&path, self.width, crc)?;
            self.cache.insert((kind, id), v);
            return Ok(0);
        }
        let v = self.sweep_vector(kind, id, obs);
        let games = self.ids.len() as u64 * self.def.races() as u64;
        let bytes = self.width.encode(&v);
        fs::create_dir_all(self.dir.join("columns")).map_err(io_err(&self.dir))?;
        write_bytes_atomic(&path, &bytes)?;
        self.state.vectors.insert(name, crc32fast::hash(&bytes));
        drop(v);
        self.cache.insert((kind, id), Vector::open(&path, self.width).map_err(io_err(&path))?);
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
                *slot = i16::try_from(v).expect("payoff sums fit i16 (|margin| ≤ 96 half-seeds per outcome)");
            }
            obs.games(ch.len() as u64 * races);
        });
        obs.sweep_end();
        out
    }

    /// The vector (integer units, summed over outcomes) with its sign applied lazily.
    pub(super) fn vector(&self, kind: Kind, id: u32) -> (Values<'_>, f64) {
        let (k, sign) = self.stored(kind);
        (self.cache.get(&(k, id)).expect("ensured").values(), sign)
    }

    /// A pass's term for the vector of `id` (ensured), weighed by `w` times its sign.
    pub(super) fn term(&self, kind: Kind, id: u32, w: f64) -> Term<'_> {
        let (k, sign) = self.stored(kind);
        let v = self.cache.get(&(k, id)).expect("ensured");
        Term { values: v.values(), weight: sign * w, mapped: v.mapped() }
    }

    /// The `k` largest distinct values over the family of Σ w·v[p] with their positions,
    /// largest first (equal values: the lowest position), in integer units. Every position
    /// sums the terms one after another, in their order ([`pass::sums`], which also keeps the
    /// page cache from thrashing when the vectors outgrow it).
    pub(super) fn ranked(&self, terms: &[Term<'_>], k: usize) -> Vec<(f64, usize)> {
        self.ranked_keep(terms, k, false).0
    }

    /// [`Solver::ranked`], and with `keep` the sums themselves (one per choice of the family:
    /// the score vector `--average-weights optimal` combines).
    pub(super) fn ranked_keep(
        &self,
        terms: &[Term<'_>],
        k: usize,
        keep: bool,
    ) -> (Vec<(f64, usize)>, Option<Vec<f64>>) {
        let sums = pass::sums(self.ids.len(), terms, pass::cache_budget(self.resident));
        let top = sums
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, acc)| top_of(acc, c * CHUNK, k))
            .reduce(Vec::new, |x, y| merge_top(x, y, k));
        (top, keep.then_some(sums))
    }
}

/// The `k` largest distinct values of sums over positions `0..n` with their positions, largest
/// first (equal values: the lowest position): `fill(start, acc)` writes the sums of the
/// positions from `start` into `acc`, a chunk at a time, in parallel.
pub(super) fn chunked_top(n: usize, k: usize, fill: impl Fn(usize, &mut [f64]) + Sync) -> Vec<(f64, usize)> {
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (a, b) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
            let mut acc = vec![0.0f64; b - a];
            fill(a, &mut acc);
            top_of(&acc, a, k)
        })
        .reduce(Vec::new, |x, y| merge_top(x, y, k))
}

/// The `k` largest distinct values of `acc` (positions from `start`), as [`offer`] keeps them.
fn top_of(acc: &[f64], start: usize, k: usize) -> Vec<(f64, usize)> {
    let mut top = Vec::with_capacity(k + 1);
    for (i, &s) in acc.iter().enumerate() {
        offer(&mut top, k, (s, start + i));
    }
    top
}

/// Two chunks' tops merged.
fn merge_top(mut x: Vec<(f64, usize)>, y: Vec<(f64, usize)>, k: usize) -> Vec<(f64, usize)> {
    for e in y {
        offer(&mut x, k, e);
    }
    x
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
