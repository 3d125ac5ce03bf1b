//! The format's checks: damaged blocks, reads from the file, the two writers agreeing,
//! version 1 files, the header's checksum against the block table, a huge header length.

use super::header::bincode_config;
use super::layout::{payload_offset, VERSION_WHOLE_CRC};
use super::*;
use std::path::Path;

fn header(version: u32) -> Header {
    Header {
        format_version: version,
        game: "g".into(),
        rules: "{}".into(),
        index_order: "lex".into(),
        layer: 3,
        entries: 0,
        checksum: 0,
    }
}

fn open(path: &Path, entries: u64) -> Result<LayerFile, DbError> {
    LayerFile::open(path, &Expected { game: "g", rules: "{}", index_order: "lex", layer: 3, entries })
}

/// Three blocks (the last one short), one byte of the middle one flipped: values of the
/// intact blocks read normally, the damaged block reads as 0 and is reported with its
/// number; a whole check says the same.
#[test]
fn a_damaged_block_is_found_on_first_touch_and_never_served() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("l.db");
    let n = 2 * BLOCK + 100;
    let values: Vec<i8> = (0..n).map(|i| (i % 7) as i8 - 3).collect();
    let h = write_layer(&path, header(FORMAT_VERSION), &values).unwrap();
    assert_eq!(h.checksum, checksum(as_bytes(&values)));
    let f = open(&path, n as u64).unwrap();
    assert!((0..n as u64).step_by(997).all(|r| f.value(r) == values[r as usize]));
    assert!(f.damage().is_ok() && f.values().unwrap() == &values[..]);

    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - n + BLOCK + 5;
    bytes[at] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();
    let f = open(&path, n as u64).unwrap();
    assert_eq!(f.value(3), values[3]);
    assert_eq!(f.value(2 * BLOCK as u64 + 1), values[2 * BLOCK + 1]);
    assert!(f.damage().is_ok(), "block 1 not touched yet");
    assert_eq!(f.value(BLOCK as u64 + 5), 0);
    let e = f.damage().unwrap_err().to_string();
    assert!(e.contains("damaged: checksum mismatch in block 1"), "{e}");
    let e = open(&path, n as u64).unwrap().verify().unwrap_err().to_string();
    assert!(e.contains("block 1"), "{e}");
}

/// Reads from the file return the values of whole blocks, the last one short, and a
/// damaged block is an error naming it (a streamed build stops there).
#[test]
fn reads_at_return_whole_checked_blocks() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("l.db");
    let n = 3 * BLOCK + 100;
    let values: Vec<i8> = (0..n).map(|i| (i % 11) as i8 - 5).collect();
    write_layer(&path, header(FORMAT_VERSION), &values).unwrap();
    let f = open(&path, n as u64).unwrap();
    let mut out = vec![0i8; 2 * BLOCK];
    f.read_at(BLOCK as u64, &mut out).unwrap();
    assert!(out == values[BLOCK..3 * BLOCK]);
    let mut tail = vec![0i8; BLOCK + 100];
    f.read_at(2 * BLOCK as u64, &mut tail).unwrap();
    assert!(tail == values[2 * BLOCK..]);

    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - n + 2 * BLOCK + 9;
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let f = open(&path, n as u64).unwrap();
    f.read_at(0, &mut out).unwrap();
    let e = f.read_at(BLOCK as u64, &mut out).unwrap_err();
    assert!(matches!(e, DbError::Block { block: 2, .. }), "{e}");
    assert!(!e.is_io());
}

/// A layer written from a file of values is the file [`write_layer`] writes, and checks
/// the same with its pages dropped as it goes.
#[test]
fn a_layer_written_from_a_file_is_the_same_file() {
    let d = tempfile::tempdir().unwrap();
    let n = 70 * BLOCK + 3;
    let values: Vec<i8> = (0..n).map(|i| (i * 13 % 9) as i8 - 4).collect();
    let src = d.path().join("values");
    std::fs::write(&src, as_bytes(&values)).unwrap();
    let (a, b) = (d.path().join("a.db"), d.path().join("b.db"));
    let ha = write_layer(&a, header(FORMAT_VERSION), &values).unwrap();
    let hb = write_layer_from(&b, header(FORMAT_VERSION), &src).unwrap();
    assert_eq!(ha, hb);
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
    open(&b, n as u64).unwrap().verify_dropping().unwrap();
    let mut bytes = std::fs::read(&b).unwrap();
    let at = bytes.len() - n + 66 * BLOCK;
    bytes[at] ^= 0x10;
    std::fs::write(&b, &bytes).unwrap();
    let e = open(&b, n as u64).unwrap().verify_dropping().unwrap_err();
    assert!(matches!(e, DbError::Block { block: 66, .. }), "{e}");
}

/// A version 1 file (no block table) is read, and checked whole when it is opened.
#[test]
fn version_1_files_are_checked_whole_on_open() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("l.db");
    let values: Vec<i8> = (0..1000).map(|i| (i % 5) as i8 - 2).collect();
    let mut h = header(VERSION_WHOLE_CRC);
    h.entries = values.len() as u64;
    h.checksum = checksum(as_bytes(&values));
    let head = bincode::serde::encode_to_vec(&h, bincode_config()).unwrap();
    let mut bytes = MAGIC.to_vec();
    bytes.extend((head.len() as u32).to_le_bytes());
    bytes.extend(&head);
    bytes.resize(payload_offset(head.len(), 0), 0);
    bytes.extend(as_bytes(&values));
    std::fs::write(&path, &bytes).unwrap();
    let f = open(&path, 1000).unwrap();
    assert_eq!(f.values().unwrap(), &values[..]);
    assert_eq!(f.value(999), values[999]);
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = open(&path, 1000).err().unwrap().to_string();
    assert!(e.contains("damaged: checksum mismatch"), "{e}");
}

/// The header's whole-payload CRC (its last field) and the block table must agree: a flip
/// in either is found on open, before any value is read.
#[test]
fn the_checksum_field_and_the_block_table_are_checked_against_each_other() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("l.db");
    let values: Vec<i8> = (0..BLOCK + 10).map(|i| (i % 3) as i8 - 1).collect();
    write_layer(&path, header(FORMAT_VERSION), &values).unwrap();
    let good = std::fs::read(&path).unwrap();
    let hl = u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
    for at in [12 + hl - 1, 12 + hl + 2, 12 + hl + 5] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        std::fs::write(&path, &bytes).unwrap();
        let e = open(&path, values.len() as u64).err().expect("refused on open").to_string();
        assert!(e.contains("damaged: checksum mismatch"), "byte {at}: {e}");
    }
}

/// A header length field that claims gigabytes is an error, not an allocation.
#[test]
fn a_huge_header_length_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("l.db");
    write_layer(&path, header(FORMAT_VERSION), &[1, 0, -1]).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    // The game name's length (u64, first field after format_version) set to 2^40.
    bytes[12 + 4..12 + 12].copy_from_slice(&(1u64 << 40).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(open(&path, 3), Err(DbError::Header { .. })));
}
