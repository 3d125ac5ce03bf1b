//! Writing a packed layer: the raw layer read in slices, its values ranked and each block
//! compressed, the file checked as a reader sees it before it takes its name.

use super::codec::{encode_block, pair_counts, rank_table, ranking};
use super::read::PackedFile;
use super::{bincode_config, io_err, PackInfo, BLOCK, BLOCK_SHIFT, CODEC, END, FORMAT_VERSION, MAGIC, SLICE};
use crate::store::layer_file::{checksum, DbError, Header, LayerFile};
use crate::store::AtomicFile;
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// Pack the raw layer `src` into `path`, atomically; returns the packed header. The values are
/// read from the file in slices, each checked against its block CRCs ([`LayerFile::read_at`]),
/// and the packed file is checked before it takes its name: every block decompressed, the
/// values' CRC-32 equal to the source's ([`PackedFile::check_reads`]). So `path` may be the
/// source's own name: the rename then replaces the raw layer with its packed copy in one step,
/// and a stop at any moment leaves one of the two, each a finished layer.
pub fn pack_layer(src: &LayerFile, path: &Path) -> Result<Header, DbError> {
    let entries = src.header.entries;
    let mut buf = vec![0i8; SLICE.min(entries as usize)];
    let slices = |buf: &mut Vec<i8>, f: &mut dyn FnMut(&[i8]) -> Result<(), DbError>| -> Result<(), DbError> {
        let mut at = 0u64;
        while at < entries {
            let len = (entries - at).min(buf.len() as u64) as usize;
            src.read_at(at, &mut buf[..len])?;
            f(&buf[..len])?;
            at += len as u64;
        }
        Ok(())
    };
    let mut counts = vec![0u64; 1 << 16];
    slices(&mut buf, &mut |v| {
        counts.iter_mut().zip(pair_counts(v)).for_each(|(x, y)| *x += y);
        Ok(())
    })?;
    let mut header = src.header.clone();
    header.format_version = FORMAT_VERSION;
    let order = ranking(&counts);
    let ranks = rank_table(&order);
    let blocks = (entries as usize).div_ceil(BLOCK);
    let info = PackInfo { codec: CODEC.into(), block_shift: BLOCK_SHIFT, blocks: blocks as u64, order };
    let head = encode(path, &header)?;
    let info_bytes = encode(path, &info)?;
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    let mut meta = crc32fast::Hasher::new();
    meta.update(&head);
    meta.update(&info_bytes);
    f.write_all(MAGIC).map_err(io_err(&tmp))?;
    f.write_all(&(head.len() as u32).to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(&head).map_err(io_err(&tmp))?;
    f.write_all(&(info_bytes.len() as u32).to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(&info_bytes).map_err(io_err(&tmp))?;
    let mut offsets = Vec::with_capacity(blocks + 1);
    let mut crcs = Vec::with_capacity(blocks);
    let mut at = 0u64;
    offsets.push(at);
    slices(&mut buf, &mut |batch| {
        let packed: Vec<Vec<u8>> = batch.par_chunks(BLOCK).map(|b| encode_block(b, &ranks)).collect();
        for c in packed {
            f.write_all(&c).map_err(io_err(&tmp))?;
            crcs.push(checksum(&c));
            at += c.len() as u64;
            offsets.push(at);
        }
        Ok(())
    })?;
    let table: Vec<u8> =
        offsets.iter().flat_map(|o| o.to_le_bytes()).chain(crcs.iter().flat_map(|c| c.to_le_bytes())).collect();
    meta.update(&table);
    f.write_all(&table).map_err(io_err(&tmp))?;
    f.write_all(&meta.finalize().to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(END).map_err(io_err(&tmp))?;
    f.flush().map_err(io_err(&tmp))?;
    // The copy as a reader will see it, before it replaces anything.
    PackedFile::open(&tmp, &header.expected())?.check_reads()?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}

fn encode(path: &Path, x: &impl Serialize) -> Result<Vec<u8>, DbError> {
    bincode::serde::encode_to_vec(x, bincode_config())
        .map_err(|e| DbError::Header { path: path.to_path_buf(), why: e.to_string() })
}
