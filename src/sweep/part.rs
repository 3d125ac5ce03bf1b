//! Part files: one shard's per-South aggregates, checksummed and written atomically.
//!
//! Layout: one JSON header line, then one payload line per South choice of the shard
//! (`south_id` and the integers of [`Agg::to_ints`], comma-separated). The header names
//! everything that decides the result (magic, format, tool version, rules, race model, both
//! SPECs, the set sizes), the shard, the positions `range` it covers in the South set, the
//! row count and the CRC-32 of the payload bytes. Written to a temporary name, synced, then
//! renamed, so a part that exists is complete.

use super::definition::SweepDef;
use super::shard::Shard;
use super::summary::{Agg, AGG_INTS};
use serde_json::{json, Value as Json};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &str = "mancala-lukho-part";
pub const FORMAT: u64 = 1;

/// A bad or mismatched part; messages name the file and the field.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: {what}")]
    Bad { path: PathBuf, what: String },
}

impl PartError {
    fn bad(path: &Path, what: impl Into<String>) -> PartError {
        PartError::Bad { path: path.to_path_buf(), what: what.into() }
    }
}

/// The fields two parts of one sweep must share.
pub fn identity(def: &SweepDef, south_count: u64, north_count: u64) -> Json {
    json!({
        "magic": MAGIC,
        "format": FORMAT,
        "version": env!("CARGO_PKG_VERSION"),
        "rules": def.rules.to_json(),
        "race": def.model.name(),
        "south": def.south.text,
        "north": def.north.text,
        "symmetric": def.symmetric,
        "south_choices": south_count,
        "north_choices": north_count,
    })
}

/// The order identity fields are compared and named in.
const IDENTITY_FIELDS: [&str; 10] =
    ["magic", "format", "version", "rules", "race", "south", "north", "symmetric", "south_choices", "north_choices"];

#[derive(Clone, Debug)]
pub struct Part {
    pub path: PathBuf,
    /// [`identity`] fields plus shard, range, rows, crc32.
    pub header: Json,
    pub range: (u64, u64),
    pub rows: Vec<(u32, Agg)>,
}

impl Part {
    pub fn identity(&self) -> Json {
        let mut m = serde_json::Map::new();
        for f in IDENTITY_FIELDS {
            m.insert(f.to_string(), self.header.get(f).cloned().unwrap_or(Json::Null));
        }
        Json::Object(m)
    }
}

/// `part-KKKKK-of-NNNNN.lukho`: sorts in shard order.
pub fn part_name(shard: Shard) -> String {
    format!("part-{:05}-of-{:05}.lukho", shard.k, shard.n)
}

fn payload(rows: &[(u32, Agg)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rows.len() * 64);
    for (id, a) in rows {
        write!(out, "{id}").unwrap();
        for x in a.to_ints() {
            write!(out, ",{x}").unwrap();
        }
        out.push(b'\n');
    }
    out
}

/// Write a part atomically (temporary sibling, sync, rename).
pub fn write_part(
    path: &Path,
    identity: &Json,
    shard: Shard,
    range: (u64, u64),
    rows: &[(u32, Agg)],
) -> Result<(), PartError> {
    let io_err = |source| PartError::Io { path: path.to_path_buf(), source };
    let body = payload(rows);
    let mut header = identity.clone();
    let m = header.as_object_mut().unwrap();
    m.insert("shard".into(), json!([shard.k, shard.n]));
    m.insert("range".into(), json!([range.0, range.1]));
    m.insert("rows".into(), json!(rows.len()));
    m.insert("crc32".into(), json!(crc32fast::hash(&body)));
    let mut f = crate::store::AtomicFile::create(path).map_err(io_err)?;
    writeln!(f, "{header}").map_err(io_err)?;
    f.write_all(&body).map_err(io_err)?;
    f.commit().map_err(io_err)
}

/// Read and check a part: header form, row count, checksum, ids ascending.
pub fn read_part(path: &Path) -> Result<Part, PartError> {
    let bytes = fs::read(path).map_err(|source| PartError::Io { path: path.to_path_buf(), source })?;
    let nl = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| PartError::bad(path, "not a part file (no header line)"))?;
    let header: Json = serde_json::from_slice(&bytes[..nl])
        .map_err(|_| PartError::bad(path, "not a part file (header is not JSON)"))?;
    if header.get("magic").and_then(Json::as_str) != Some(MAGIC) {
        return Err(PartError::bad(path, format!("magic: not a part file (expected {MAGIC})")));
    }
    let num = |f: &str| {
        header
            .get(f)
            .and_then(Json::as_u64)
            .ok_or_else(|| PartError::bad(path, format!("{f}: missing from the header")))
    };
    let pair = |f: &str| -> Result<(u64, u64), PartError> {
        match header.get(f).and_then(Json::as_array).map(|a| a.iter().map(Json::as_u64).collect::<Vec<_>>()) {
            Some(v) if v.len() == 2 && v.iter().all(Option::is_some) => Ok((v[0].unwrap(), v[1].unwrap())),
            _ => Err(PartError::bad(path, format!("{f}: missing from the header"))),
        }
    };
    let range = pair("range")?;
    let body = &bytes[nl + 1..];
    if crc32fast::hash(body) as u64 != num("crc32")? {
        return Err(PartError::bad(path, "crc32: the payload does not match its checksum (corrupt or truncated)"));
    }
    let text = std::str::from_utf8(body).map_err(|_| PartError::bad(path, "payload is not text"))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let v: Vec<i64> = line
            .split(',')
            .map(|x| x.parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| PartError::bad(path, format!("row {i}: not integers")))?;
        if v.len() != AGG_INTS + 1 || v[0] < 0 || v[0] > u32::MAX as i64 {
            return Err(PartError::bad(path, format!("row {i}: expected {} fields", AGG_INTS + 1)));
        }
        let ints: [i64; AGG_INTS] =
            v[1..].try_into().map_err(|_| PartError::bad(path, format!("row {i}: not integers")))?;
        let agg = Agg::from_ints(&ints);
        if agg.to_ints() != ints || !within_a_sweep(&agg) {
            return Err(PartError::bad(path, format!("row {i}: counts out of range")));
        }
        rows.push((v[0] as u32, agg));
    }
    if rows.len() as u64 != num("rows")? || range.1.checked_sub(range.0) != Some(rows.len() as u64) {
        return Err(PartError::bad(path, "rows: the row count does not match the header's rows and range"));
    }
    if rows.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err(PartError::bad(path, "rows: South ids are not ascending"));
    }
    Ok(Part { path: path.to_path_buf(), header, range, rows })
}

/// Most games one South choice plays in any sweep: 2^32 (a sweep plays at most 6,356,992 North
/// choices under at most a few race outcomes each). Bounding every count, and the margin sum by
/// the largest margin (96 half-seeds) per game, keeps the merge of all 6,356,992 rows of a
/// South set within 64 bits.
const MAX_GAMES: u64 = 1 << 32;

fn within_a_sweep(a: &Agg) -> bool {
    let counts = [
        a.games,
        a.wins,
        a.draws,
        a.losses,
        a.cycles,
        a.perpetual_openings,
        a.perpetual_turns,
        a.south_points_first,
        a.north_points_first,
        a.south_points_later,
        a.north_points_later,
        a.south_first,
    ];
    counts.iter().all(|&c| c <= MAX_GAMES) && a.sum_margin.0.unsigned_abs() <= 96 * MAX_GAMES
}

/// Check that parts belong to one sweep and cover its South set exactly once; return the
/// rows in order.
pub fn combine(mut parts: Vec<Part>) -> Result<(Json, Vec<(u32, Agg)>), PartError> {
    let Some(first) = parts.first() else {
        return Err(PartError::Bad { path: PathBuf::from("merge"), what: "no part files given".into() });
    };
    let id = first.identity();
    for p in &parts[1..] {
        let other = p.identity();
        if let Some(f) = IDENTITY_FIELDS.into_iter().find(|f| other[f] != id[f]) {
            return Err(PartError::bad(
                &p.path,
                format!(
                    "{f}: {} here but {} in {} (parts of different sweeps, rules or versions)",
                    other[f],
                    id[f],
                    first.path.display()
                ),
            ));
        }
    }
    let total = id["south_choices"].as_u64().unwrap_or(0);
    parts.sort_by_key(|p| p.range);
    let mut next = 0u64;
    for (i, p) in parts.iter().enumerate() {
        if p.range.0 < next {
            return Err(PartError::bad(
                &p.path,
                format!(
                    "range: {}..{} overlaps {} ({}..{})",
                    p.range.0,
                    p.range.1,
                    parts[i - 1].path.display(),
                    parts[i - 1].range.0,
                    parts[i - 1].range.1
                ),
            ));
        }
        if p.range.0 > next {
            return Err(PartError::bad(
                &p.path,
                format!("range: South positions {next}..{} are in no part", p.range.0),
            ));
        }
        next = p.range.1;
    }
    if next != total {
        return Err(PartError::bad(
            &parts.last().unwrap().path,
            format!("range: South positions {next}..{total} are in no part"),
        ));
    }
    let rows = parts.into_iter().flat_map(|p| p.rows).collect::<Vec<_>>();
    if rows.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err(PartError::Bad {
            path: PathBuf::from("merge"),
            what: "rows: South ids are not ascending across parts".into(),
        });
    }
    Ok((id, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lukho::{Races, Rules};
    use crate::sweep::play::sweep;
    use crate::sweep::Spec;

    fn def(south: &str) -> SweepDef {
        SweepDef {
            rules: Rules::default(),
            model: "sequential".parse::<Races>().unwrap(),
            south: Spec::parse(south).unwrap(),
            north: Spec::parse("0..5").unwrap(),
            symmetric: false,
        }
    }

    /// Parts of shards K/3 round-trip, combine to the unsharded rows, and refuse gaps,
    /// overlaps and other sweeps.
    #[test]
    fn parts_round_trip_and_cover_exactly_once() {
        let dir = tempfile::tempdir().unwrap();
        let d = def("0..10");
        let sets = d.sets().unwrap();
        let id = identity(&d, sets.south.len() as u64, sets.north.len() as u64);
        let all: Vec<(u32, Agg)> = sets
            .south
            .iter()
            .copied()
            .zip(sweep(&d.rules, &crate::games::lukho::ProvenCycles::new(), d.model, &sets.south, &sets.north, &|_| {}))
            .collect();
        let mut parts = Vec::new();
        for k in 0..3 {
            let shard = Shard { k, n: 3 };
            let (lo, hi) = shard.range(sets.south.len() as u64);
            let path = dir.path().join(part_name(shard));
            write_part(&path, &id, shard, (lo, hi), &all[lo as usize..hi as usize]).unwrap();
            parts.push(read_part(&path).unwrap());
        }
        let (got_id, rows) = combine(parts.clone()).unwrap();
        assert_eq!(got_id, id);
        assert_eq!(rows, all);
        // A gap, an overlap.
        assert!(combine(vec![parts[0].clone(), parts[2].clone()]).unwrap_err().to_string().contains("in no part"));
        assert!(combine(vec![parts[0].clone(), parts[0].clone(), parts[1].clone(), parts[2].clone()])
            .unwrap_err()
            .to_string()
            .contains("overlaps"));
        // Another sweep (other South SPEC, same size).
        let other = def("1..11");
        let oid = identity(&other, 10, 5);
        let path = dir.path().join("other.lukho");
        write_part(&path, &oid, Shard { k: 1, n: 3 }, parts[1].range, &parts[1].rows).unwrap();
        let e = combine(vec![parts[0].clone(), read_part(&path).unwrap(), parts[2].clone()]).unwrap_err().to_string();
        assert!(e.contains("south:"), "{e}");
    }

    /// A header whose range ends before it starts (checksum right) is refused, not an
    /// overflow in the row count check.
    #[test]
    fn a_backwards_range_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let d = def("0..3");
        let path = dir.path().join("p.lukho");
        write_part(&path, &identity(&d, 3, 5), Shard { k: 0, n: 1 }, (3, 0), &[]).unwrap();
        let e = read_part(&path).unwrap_err().to_string();
        assert!(e.contains("rows:"), "{e}");
    }
}
