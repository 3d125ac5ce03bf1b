//! The payoff vectors of the restricted members: a column `A(·, n)` or a row `A(s, ·)` over the
//! whole family, swept once, saved next to the state (checksummed) and cached in memory.

use super::OpeningGame;
use crate::side::Side;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Kind {
    /// `A(·, id)`: the choice played by North, over every South choice of the family.
    Col,
    /// `A(id, ·)`: the choice played by South, over every North choice.
    Row,
}

impl Kind {
    /// The vectors a side's mix is answered through: South's members' rows, North's columns.
    pub(super) fn of(side: Side) -> Kind {
        match side {
            Side::South => Kind::Row,
            Side::North => Kind::Col,
        }
    }

    /// Whose mix a vector of this kind belongs to: columns are North's choices, rows South's.
    pub(super) fn side(self) -> &'static str {
        match self {
            Kind::Col => "North",
            Kind::Row => "South",
        }
    }
}

pub(super) const CHUNK: usize = 4096;

/// The saved vector files a state names: the run's record of which files hold a vector it may
/// map without sweeping again (their checksums), and when each was last in a mix (the vector
/// budget deletes the least recently used first). Kept in the state file, under these names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VectorFiles {
    /// File name under `columns/` → CRC-32 of its bytes.
    pub vectors: BTreeMap<String, u32>,
    /// Saved vector → the last iteration whose mix used it. Absent in older states (their
    /// vectors count as unused).
    #[serde(default)]
    pub vector_used: BTreeMap<String, u32>,
}

/// A vector's file name: `col-ID` or `row-ID`, then the run's width (`.i8`, `.i8x2`, `.i16`).
pub(super) fn file_name(kind: Kind, id: u32, width: Width) -> String {
    let side = match kind {
        Kind::Col => "col",
        Kind::Row => "row",
    };
    format!("{side}-{id}{}", width.suffix())
}

/// The vector a file name under `columns/` names, of either width (the inverse of
/// [`file_name`]).
pub(super) fn parse_name(name: &str) -> Option<(Kind, u32)> {
    let stem = Width::of_name(name).and_then(|w| name.strip_suffix(w.suffix()))?;
    match stem.split_once('-') {
        Some(("col", id)) => id.parse::<u32>().ok().map(|id| (Kind::Col, id)),
        Some(("row", id)) => id.parse::<u32>().ok().map(|id| (Kind::Row, id)),
        _ => None,
    }
}

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
    pub(super) fn crc(&self) -> (usize, u32) {
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
    pub(super) fn open(path: &std::path::Path, width: Width) -> std::io::Result<Vector> {
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
pub(super) fn top_of(acc: &[f64], start: usize, k: usize) -> Vec<(f64, usize)> {
    let mut top = Vec::with_capacity(k + 1);
    for (i, &s) in acc.iter().enumerate() {
        offer(&mut top, k, (s, start + i));
    }
    top
}

/// Two chunks' tops merged.
pub(super) fn merge_top(mut x: Vec<(f64, usize)>, y: Vec<(f64, usize)>, k: usize) -> Vec<(f64, usize)> {
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
