//! `db verify` and `db export` for any layered game (Oware, Kiothi): the game's CLI module
//! supplies only how a position is named or written as a row.

use super::progress::bar;
use super::usage;
use anyhow::{Context, Result};
use mancala::export::{Column, Format, TableWriter, Value};
use mancala::retro::{verify, LayeredGame, Layers};
use mancala::store::layer_file::LayerFile;
use std::path::Path;

/// Check every layer file's checksum, then every entry against the Bellman equation (its
/// moves and the layers below); the first mismatch is a one-line error naming the position
/// as `describe` writes it.
pub fn verify_layers<G: LayeredGame, L: Layers>(
    game: &G,
    db: &L,
    files: &[LayerFile],
    dir: &Path,
    describe: impl Fn(&G::Pos) -> String,
) -> Result<()> {
    for (n, l) in files.iter().enumerate() {
        l.verify_checksum()?;
        let pb = bar(l.header.entries, &format!("layer {n}"));
        let bad = verify::verify_layer(game, db, n, 5, &|k| pb.inc(k));
        pb.finish_and_clear();
        if let Some(m) = bad.first() {
            return usage(format!(
                "{}: entry {} ({}) holds {} but its moves give {} ({} mismatches shown at most 5)",
                l.path.display(),
                m.rank,
                describe(&game.unrank(n, m.rank)),
                m.stored,
                m.recomputed,
                bad.len()
            ));
        }
        println!("layer {n:>2}: {:>13} positions ok (checksum {:08x}, Bellman)", l.header.entries, l.header.checksum);
    }
    println!("verified layers 0..={} in {}", files.len() - 1, dir.display());
    Ok(())
}

/// Every position of layers `a..=b` in rank order, one row each, written atomically (an
/// interrupted or failed export leaves nothing behind).
/// `fill(layer, rank, position, row)` appends the row of one position to the (cleared) `row`.
#[allow(clippy::too_many_arguments)]
pub fn export_layers<G: LayeredGame>(
    game: &G,
    layers: std::ops::RangeInclusive<usize>,
    out: &Path,
    format: Format,
    schema: Vec<Column>,
    header: &serde_json::Value,
    mut fill: impl FnMut(usize, u64, &G::Pos, &mut Vec<Value>),
) -> Result<()> {
    let width = schema.len();
    let mut w = match TableWriter::create(out, format, schema, header) {
        Ok(w) => w,
        // The writer names the field without its dashes (`format: …`).
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => return usage(format!("--{e}")),
        Err(e) => return Err(e).with_context(|| format!("--out: {}", out.display())),
    };
    let total: u64 = layers.clone().map(|n| game.layer_size(n)).sum();
    let pb = bar(total, "export");
    let mut row = Vec::with_capacity(width);
    let res: Result<()> = (|| {
        for n in layers {
            let mut pos = game.unrank(n, 0);
            for r in 0..game.layer_size(n) {
                if r > 0 {
                    game.next_in_layer(&mut pos);
                }
                row.clear();
                fill(n, r, &pos, &mut row);
                w.row(&row)?;
                if r & 0xffff == 0xffff {
                    pb.inc(0x10000);
                }
            }
        }
        Ok(())
    })();
    pb.finish_and_clear();
    match res {
        Ok(()) => {
            w.finish().with_context(|| format!("--out: {}", out.display()))?;
            eprintln!("wrote {total} rows to {}", out.display());
            Ok(())
        }
        Err(e) => {
            w.abandon();
            Err(e)
        }
    }
}
