//! The bytes of a layer file around its payload: the magic and versions, the block table of
//! CRC-32s and where the payload starts. What is checked, and how, is fixed here for the
//! reader and every writer alike.

pub const MAGIC: &[u8; 8] = b"MNCLADB\0";
pub const FORMAT_VERSION: u32 = 2;
/// The version without the block table, read and checked whole on open.
pub(super) const VERSION_WHOLE_CRC: u32 = 1;
/// Bytes per checked block (64 KiB: the table costs 4 bytes per 64 KiB, and a cold probe
/// reads one block).
pub const BLOCK_SHIFT: u32 = 16;
pub const BLOCK: usize = 1 << BLOCK_SHIFT;

pub fn checksum(payload: &[u8]) -> u32 {
    // crc32fast uses the CPU's carry-less multiply: gigabytes per second.
    let mut h = crc32fast::Hasher::new();
    h.update(payload);
    h.finalize()
}

/// Where the payload starts after a header of `header_len` bytes and a table of `blocks` CRCs.
pub(super) fn payload_offset(header_len: usize, blocks: usize) -> usize {
    (MAGIC.len() + 4 + header_len + 4 * blocks).div_ceil(64) * 64
}

/// Blocks of a payload of `entries` bytes.
pub(super) fn block_count(entries: u64) -> usize {
    entries.div_ceil(BLOCK as u64) as usize
}

/// The CRC-32 of a payload of `entries` bytes from the CRCs of its blocks.
pub(super) fn combine_blocks(crcs: &[u32], entries: u64) -> u32 {
    let mut whole = crc32fast::Hasher::new();
    for (b, &crc) in crcs.iter().enumerate() {
        let len = (entries - (b * BLOCK) as u64).min(BLOCK as u64);
        whole.combine(&crc32fast::Hasher::new_with_initial_len(crc, len));
    }
    whole.finalize()
}

/// The CRC-32 of every block of `payload`, and of the whole (combined from the blocks').
pub(super) fn block_checksums(payload: &[u8]) -> (Vec<u32>, u32) {
    let mut whole = crc32fast::Hasher::new();
    let crcs = payload
        .chunks(BLOCK)
        .map(|b| {
            let mut h = crc32fast::Hasher::new();
            h.update(b);
            whole.combine(&h);
            h.finalize()
        })
        .collect();
    (crcs, whole.finalize())
}

/// Everything before the payload: magic, header length, header, block table, zero padding to
/// the payload's offset.
pub(super) fn prefix(head: &[u8], blocks: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(payload_offset(head.len(), blocks.len()));
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(head.len() as u32).to_le_bytes());
    bytes.extend_from_slice(head);
    bytes.extend(blocks.iter().flat_map(|c| c.to_le_bytes()));
    bytes.resize(payload_offset(head.len(), blocks.len()), 0);
    bytes
}

/// Blocks read, checked or written at a time by the passes that keep a layer out of the
/// process ([`write_layer_from`], [`LayerFile::verify_dropping`]): 4 MiB.
pub(super) const SLICE_BLOCKS: usize = 64;

pub fn as_bytes(v: &[i8]) -> &[u8] {
    // SAFETY: i8 and u8 have the same size and alignment.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len()) }
}
