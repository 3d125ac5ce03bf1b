//! Writing a layer file whole: from the values in memory or from a file of them, atomically
//! ([`crate::store::AtomicFile`]).

use super::header::{encode_head, io_err, DbError, Header};
use super::layout::{as_bytes, block_checksums, block_count, prefix, BLOCK, FORMAT_VERSION, SLICE_BLOCKS};
use crate::store::AtomicFile;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// Write `payload` under `path` atomically ([`crate::store::AtomicFile`]).
pub fn write_layer(path: &Path, mut header: Header, payload: &[i8]) -> Result<Header, DbError> {
    let bytes: &[u8] = as_bytes(payload);
    let (blocks, whole) = block_checksums(bytes);
    header.format_version = FORMAT_VERSION;
    header.entries = bytes.len() as u64;
    header.checksum = whole;
    let head = encode_head(path, &header)?;
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    f.write_all(&prefix(&head, &blocks)).map_err(io_err(&tmp))?;
    f.write_all(bytes).map_err(io_err(&tmp))?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}

/// [`write_layer`] of the values held in the file `values` (one byte per rank), read in
/// slices, twice (the block CRCs go before the payload, then the copy): a layer built out of
/// core is never whole in the process.
pub fn write_layer_from(path: &Path, mut header: Header, values: &Path) -> Result<Header, DbError> {
    use std::os::unix::fs::FileExt;
    let src = File::open(values).map_err(io_err(values))?;
    let entries = src.metadata().map_err(io_err(values))?.len();
    let mut buf = vec![0u8; SLICE_BLOCKS * BLOCK];
    let slices = |buf: &mut Vec<u8>, f: &mut dyn FnMut(&[u8]) -> Result<(), DbError>| -> Result<(), DbError> {
        let mut at = 0u64;
        while at < entries {
            let len = (entries - at).min(buf.len() as u64) as usize;
            src.read_exact_at(&mut buf[..len], at).map_err(io_err(values))?;
            f(&buf[..len])?;
            at += len as u64;
        }
        Ok(())
    };
    let mut blocks = Vec::with_capacity(block_count(entries));
    let mut whole = crc32fast::Hasher::new();
    slices(&mut buf, &mut |slice| {
        for b in slice.chunks(BLOCK) {
            let mut h = crc32fast::Hasher::new();
            h.update(b);
            whole.combine(&h);
            blocks.push(h.finalize());
        }
        Ok(())
    })?;
    header.format_version = FORMAT_VERSION;
    header.entries = entries;
    header.checksum = whole.finalize();
    let head = encode_head(path, &header)?;
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    f.write_all(&prefix(&head, &blocks)).map_err(io_err(&tmp))?;
    slices(&mut buf, &mut |slice| f.write_all(slice).map_err(io_err(&tmp)))?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}
