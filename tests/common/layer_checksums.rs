//! Layer checksums kept as data files with their provenance (`tests/data/*/layers.csv`) and
//! the shipped result tables (`results/*/layers.csv`), read by the tests and the benches.
//!
//! Both are CSV with `#` comment lines; the data files have a `rules,layer,crc32` header (the
//! rules column names the variant, e.g. Oware's grand-slam rule), the shipped tables the
//! header `db stats --csv` writes (`stones` or `warriors`, positions, wins, draws, losses,
//! crc32).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn data_lines(path: &Path) -> impl Iterator<Item = (usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect::<Vec<_>>()
        .into_iter()
}

fn crc(path: &Path, line: usize, s: &str) -> u32 {
    assert!(s.len() == 8, "{}:{line}: crc32 `{s}` is not 8 hex digits", path.display());
    u32::from_str_radix(s, 16).unwrap_or_else(|e| panic!("{}:{line}: crc32 `{s}`: {e}", path.display()))
}

/// `(rules, layer) -> crc32` of a data file such as `tests/data/oware/layers.csv`.
pub fn expected(file: &str) -> BTreeMap<(String, usize), u32> {
    let path = repo(file);
    let mut lines = data_lines(&path);
    let (_, head) = lines.next().expect("a header line");
    assert_eq!(head, "rules,layer,crc32", "{}: header", path.display());
    let mut out = BTreeMap::new();
    for (i, l) in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 3, "{}:{i}: `{l}`", path.display());
        let layer: usize = f[1].parse().unwrap_or_else(|e| panic!("{}:{i}: layer `{}`: {e}", path.display(), f[1]));
        let prev = out.insert((f[0].to_string(), layer), crc(&path, i, f[2]));
        assert!(prev.is_none(), "{}:{i}: layer {layer} of {} twice", path.display(), f[0]);
    }
    out
}

/// The checksum of one layer under the named rules, from a data file.
pub fn expected_crc(file: &str, rules: &str, layer: usize) -> u32 {
    *expected(file)
        .get(&(rules.to_string(), layer))
        .unwrap_or_else(|| panic!("{file}: no checksum for {rules} layer {layer}"))
}

/// One row of a shipped per-layer table (`db stats --csv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShippedLayer {
    pub layer: usize,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub crc32: u32,
}

/// The rules (from the sidecar `NAME.meta.json`, as compact JSON) and rows of a shipped table;
/// `count` is its first column's name. The CSV is its header line and rows only.
pub fn shipped(file: &str, count: &str) -> (String, Vec<ShippedLayer>) {
    let path = repo(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let meta_path = mancala::export::meta_path(&path);
    let meta: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&meta_path).unwrap_or_else(|e| panic!("{}: {e}", meta_path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", meta_path.display()));
    assert_eq!(meta["file"], path.file_name().unwrap().to_str().unwrap(), "{}", meta_path.display());
    let rules = meta["rules"].to_string();
    let mut lines = text.lines().enumerate();
    let (_, head) = lines.next().expect("a header line");
    assert_eq!(head, format!("{count},positions,wins,draws,losses,crc32"), "{}: header", path.display());
    let mut rows = Vec::new();
    for (i, l) in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 6, "{}:{}: `{l}`", path.display(), i + 1);
        let n = |k: usize| -> u64 {
            f[k].parse().unwrap_or_else(|e| panic!("{}:{}: `{}`: {e}", path.display(), i + 1, f[k]))
        };
        let row = ShippedLayer {
            layer: n(0) as usize,
            positions: n(1),
            wins: n(2),
            draws: n(3),
            losses: n(4),
            crc32: crc(&path, i + 1, f[5]),
        };
        assert_eq!(row.layer, rows.len(), "{}:{}: layers in order from 0", path.display(), i + 1);
        assert_eq!(row.wins + row.draws + row.losses, row.positions, "{}:{}: W + D + L", path.display(), i + 1);
        rows.push(row);
    }
    (rules.to_string(), rows)
}
