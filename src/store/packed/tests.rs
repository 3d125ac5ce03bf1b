//! Packed layers written, read back, and damaged.

use super::read::le_u32;
use super::*;
use crate::store::layer_file::{write_layer, Expected, Header, LayerFile};
use std::path::PathBuf;

fn header() -> Header {
    Header {
        format_version: 2,
        game: "g".into(),
        rules: "{}".into(),
        index_order: "lex".into(),
        layer: 9,
        entries: 0,
        checksum: 0,
    }
}

/// Values with order-1 structure, as layers have: runs and a skewed alphabet.
fn values(n: usize) -> Vec<i8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % 19) as i8 - 9) / ((x >> 20) % 3 + 1) as i8
        })
        .collect()
}

fn pack(d: &Path, v: &[i8]) -> (PathBuf, Header) {
    let raw = d.join("raw.db");
    write_layer(&raw, header(), v).unwrap();
    let src = LayerFile::open(
        &raw,
        &Expected { game: "g", rules: "{}", index_order: "lex", layer: 9, entries: v.len() as u64 },
    )
    .unwrap();
    let path = d.join("packed.db");
    let h = pack_layer(&src, &path).unwrap();
    assert_eq!(h.checksum, src.header.checksum, "a packed layer keeps its values' checksum");
    (path, h)
}

fn open(path: &Path, n: usize) -> Result<PackedFile, DbError> {
    PackedFile::open(path, &Expected { game: "g", rules: "{}", index_order: "lex", layer: 9, entries: n as u64 })
}

/// Every value read back equal, by single reads (in and out of order) and by the
/// whole-layer decode; the file is smaller than the values.
#[test]
fn every_value_reads_back() {
    let d = tempfile::tempdir().unwrap();
    let n = 3 * BLOCK + 1234;
    let v = values(n);
    let (path, _) = pack(d.path(), &v);
    assert!(is_packed(&path) && !is_packed(&d.path().join("raw.db")));
    let f = open(&path, n).unwrap();
    assert!(f.file_len() < n as u64 * 3 / 4, "{} bytes", f.file_len());
    assert!((0..n as u64).all(|r| f.value(r) == v[r as usize]));
    assert!((0..n as u64).rev().step_by(7).all(|r| f.value(r) == v[r as usize]));
    assert_eq!(f.values().unwrap(), v);
    assert!(f.damage().is_ok());
    f.make_resident().unwrap();
    assert!(f.is_resident() && (0..n as u64).step_by(3).all(|r| f.value(r) == v[r as usize]));
    // An empty layer and a one-value layer.
    for small in [vec![], vec![-3i8]] {
        let d = tempfile::tempdir().unwrap();
        let (path, _) = pack(d.path(), &small);
        let f = open(&path, small.len()).unwrap();
        assert_eq!(f.values().unwrap(), small);
    }
}

/// Reads from the file return the values of whole blocks (the last one short), checked:
/// a damaged block is an error naming it, the blocks before it read normally; the packer
/// replaces its own source file in one rename.
#[test]
fn reads_at_return_whole_checked_blocks() {
    let d = tempfile::tempdir().unwrap();
    let n = 9 * BLOCK + 77;
    let v = values(n);
    let (path, _) = pack(d.path(), &v);
    let f = open(&path, n).unwrap();
    for (start, len) in [(0, n), (0, BLOCK), (8 * BLOCK, BLOCK + 77), (2 * BLOCK, 3 * BLOCK), (n, 0)] {
        let mut out = vec![0i8; len];
        let start = start.min(n / BLOCK * BLOCK);
        f.read_at(start as u64, &mut out).unwrap();
        assert!(out == v[start..start + len], "{start} {len}");
    }
    f.check_reads().unwrap();
    let at = f.data + f.offsets[4] as usize + 3;
    drop(f);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[at] ^= 0x02;
    std::fs::write(&path, &bytes).unwrap();
    let f = open(&path, n).unwrap();
    let mut out = vec![0i8; 4 * BLOCK];
    f.read_at(0, &mut out).unwrap();
    let e = f.read_at(4 * BLOCK as u64, &mut out).unwrap_err();
    assert!(matches!(e, DbError::PackedBlock { block: 4, .. }), "{e}");
    assert!(f.check_reads().is_err());

    // Packed over its own raw file.
    let raw = d.path().join("raw.db");
    let src =
        LayerFile::open(&raw, &Expected { game: "g", rules: "{}", index_order: "lex", layer: 9, entries: n as u64 })
            .unwrap();
    pack_layer(&src, &raw).unwrap();
    drop(src);
    assert!(is_packed(&raw) && open(&raw, n).unwrap().values().unwrap() == v);
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 2, "no temporary is left");
}

/// One byte of the second block's compressed bytes flipped: the other blocks read
/// normally, the damaged one reads as 0 and is reported with its number, and so does a
/// whole check; the header and tables are checked on open.
#[test]
fn a_damaged_block_is_never_served() {
    let d = tempfile::tempdir().unwrap();
    let n = 3 * BLOCK;
    let v = values(n);
    let (path, _) = pack(d.path(), &v);
    let good = std::fs::read(&path).unwrap();
    let f = open(&path, n).unwrap();
    let at = f.data + f.offsets[1] as usize + 17;
    drop(f);
    let mut bytes = good.clone();
    bytes[at] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let f = open(&path, n).unwrap();
    assert_eq!(f.value(5), v[5]);
    assert_eq!(f.value(2 * BLOCK as u64 + 9), v[2 * BLOCK + 9]);
    assert!(f.damage().is_ok());
    assert_eq!(f.value(BLOCK as u64 + 3), 0);
    let e = f.damage().unwrap_err().to_string();
    assert!(e.contains("block 1") && e.contains("checksum mismatch"), "{e}");
    let e = open(&path, n).unwrap().verify().unwrap_err().to_string();
    assert!(e.contains("block 1"), "{e}");

    // A flip in the header, the ranking or the tables is refused on open.
    let hl = le_u32(&good[8..12]) as usize;
    for at in [12 + hl - 1, 12 + hl + 4 + 20, good.len() - 8 - 4 - 3, good.len() - 8 - 4 - 4 * 3 - 2] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x08;
        std::fs::write(&path, &bytes).unwrap();
        assert!(open(&path, n).is_err(), "byte {at} of {}", good.len());
    }
    // Truncated anywhere.
    for len in [4, 12 + hl / 2, good.len() / 2, good.len() - 1] {
        std::fs::write(&path, &good[..len]).unwrap();
        let e = open(&path, n).err().expect("refused").to_string();
        assert!(e.contains("truncated") || e.contains("magic"), "{len}: {e}");
    }
    // Another layer's expectations.
    std::fs::write(&path, &good).unwrap();
    assert!(matches!(
        PackedFile::open(&path, &Expected { game: "h", rules: "{}", index_order: "lex", layer: 9, entries: n as u64 }),
        Err(DbError::Foreign { .. })
    ));
    assert!(matches!(open(&path, n + 1), Err(DbError::Size { .. })));
}
