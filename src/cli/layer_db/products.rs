//! What a finished database yields: `db stats` (tables, histogram, plot), `db pack` (the
//! compressed tables) and `db export` (rows of chosen layers).

use super::*;

fn rules_json<G: TableGame>(game: &G) -> serde_json::Value {
    serde_json::from_str(&game.rules_text()).expect("rules text is JSON")
}

pub(super) fn stats<G: TableGame>(spec: &DbSpec<G>, d: &Database<G>, flags: StatsFlags) -> Result<()> {
    let StatsFlags { json: json_out, svg, csv, histogram_csv: hist, .. } = flags;
    let all: Vec<LayerStats> = d.stats().map_err(|e| db_error("--dir", e))?;
    let rj = rules_json(&d.game);
    let word = spec.pieces;
    if json_out {
        let layers: Vec<_> = all
            .iter()
            .map(|s| {
                let hist: serde_json::Map<String, serde_json::Value> =
                    s.values().filter(|&(_, c)| c > 0).map(|(v, c)| (v.to_string(), json!(c))).collect();
                let mut o = serde_json::Map::new();
                o.insert(word.into(), json!(s.layer));
                o.insert("positions".into(), json!(s.positions));
                o.insert("wins".into(), json!(s.wins));
                o.insert("draws".into(), json!(s.draws));
                o.insert("losses".into(), json!(s.losses));
                o.insert("histogram".into(), json!(hist));
                o.insert("checksum".into(), json!(format!("{:08x}", s.checksum)));
                serde_json::Value::Object(o)
            })
            .collect();
        println!("{}", json!({"rules": rj, "layers": layers}));
    } else {
        let w = word.len();
        println!("rules: {rj}");
        println!("{word:>w$} {:>13} {:>13} {:>13} {:>13}  crc32", "positions", "wins", "draws", "losses");
        for s in &all {
            println!(
                "{:>w$} {:>13} {:>13} {:>13} {:>13}  {:08x}",
                s.layer, s.positions, s.wins, s.draws, s.losses, s.checksum
            );
        }
    }
    if let Some(path) = csv {
        let schema = [word, "positions", "wins", "draws", "losses"]
            .map(Column::Int)
            .into_iter()
            .chain([Column::Str("crc32")])
            .collect();
        let mut w = TableWriter::create(&path, Format::Csv, schema, &rj)
            .with_context(|| format!("--csv: {}", path.display()))?;
        for s in &all {
            let ints = [s.layer as u64, s.positions, s.wins, s.draws, s.losses].map(|x| Value::Int(x as i64));
            w.row(&ints.into_iter().chain([Value::Str(format!("{:08x}", s.checksum))]).collect::<Vec<_>>())?;
        }
        w.finish()?;
    }
    if let Some(path) = hist {
        let schema = vec![Column::Int(word), Column::Int("value"), Column::Int("positions")];
        let mut w = TableWriter::create(&path, Format::Csv, schema, &rj)
            .with_context(|| format!("--histogram-csv: {}", path.display()))?;
        for s in &all {
            for (v, c) in s.values() {
                w.row(&[Value::Int(s.layer as i64), Value::Int(v as i64), Value::Int(c as i64)])?;
            }
        }
        w.finish()?;
    }
    if let Some(path) = svg {
        let bars: Vec<StackedBar> = all
            .iter()
            .map(|s| {
                let p = s.positions.max(1) as f64;
                StackedBar {
                    label: format!("{} {}", s.layer, spec.svg_unit),
                    parts: vec![s.wins as f64 / p, s.draws as f64 / p, s.losses as f64 / p],
                }
            })
            .collect();
        let text =
            stacked_bars(&spec.svg_title, &[("win", "#2e7d32"), ("draw", "#9e9e9e"), ("loss", "#c62828")], &bars);
        write_atomic(&path, text.as_bytes()).with_context(|| format!("--svg: {}", path.display()))?;
    }
    Ok(())
}

/// Pack every layer of `dir` into `out` ([`mancala::store::packed`]): each source layer is
/// checked whole first, each packed layer is written atomically, and a layer already packed in
/// `out` from the same values (same checksum) is kept, so a stopped run resumes.
pub(super) fn pack<G: TableGame>(
    spec: &DbSpec<G>,
    dir: &Path,
    out: &Path,
    rules: G::Rules,
    threads: Option<crate::cli::args::Threads>,
) -> Result<()> {
    use mancala::store::layer::Layer;
    use mancala::store::packed;
    crate::cli::args::set_threads(threads)?;
    let d = open(spec, dir, rules, "--dir", None)?;
    crate::cli::args::make_out_dir("--out", out)?;
    if let Some(l) = d.layers().iter().find(|l| l.is_packed()) {
        return usage(format!("--dir: {} is packed already; `db pack` reads raw layers", l.path().display()));
    }
    std::fs::create_dir_all(out).with_context(|| format!("--out: {}", out.display()))?;
    if std::fs::canonicalize(out).ok() == std::fs::canonicalize(dir).ok() {
        return usage(format!("--out: {} is the source directory; packed layers go to another one", out.display()));
    }
    let _lock =
        mancala::store::DirLock::acquire(out, "db-pack").map_err(|e| crate::cli::args::lock_error("--out", e))?;
    let raw: u64 = d.layers().iter().map(|l| l.header().entries).sum();
    // Oware layers pack to about 0.45 of their bytes; the estimate leaves room above that.
    if let Some(short) = mancala::store::space::shortfall(out, raw * 3 / 5) {
        return usage(format!("--out: {short}"));
    }
    let t0 = std::time::Instant::now();
    let (mut total_in, mut total_out) = (0u64, 0u64);
    for (n, l) in d.layers().iter().enumerate() {
        let Layer::Raw(src) = l else { unreachable!("refused above") };
        let dest = database::layer_path(&d.game, out, n);
        let h = l.header();
        let done = packed::is_packed(&dest)
            && packed::PackedFile::open(&dest, &h.expected()).is_ok_and(|p| p.header.checksum == h.checksum);
        let t = std::time::Instant::now();
        if !done {
            src.verify().map_err(|e| db_error("--dir", e))?;
            packed::pack_layer(src, &dest).map_err(|e| db_error("--out", e))?;
        }
        let bytes = std::fs::metadata(&dest).with_context(|| format!("--out: {}", dest.display()))?.len();
        total_in += h.entries;
        total_out += bytes;
        eprintln!(
            "layer {n:>2}: {:>13} positions -> {:>12} bytes ({:.3} bits/position) {}, crc32 {:08x}",
            h.entries,
            bytes,
            bytes as f64 * 8.0 / h.entries.max(1) as f64,
            if done { "already packed".to_string() } else { format!("in {:.2} s", t.elapsed().as_secs_f64()) },
            h.checksum
        );
    }
    eprintln!(
        "packed layers 0..={} of {} into {}: {total_in} positions in {total_out} bytes ({:.3} bits/position), {:.2} s",
        d.max_layer(),
        dir.display(),
        out.display(),
        total_out as f64 * 8.0 / total_in.max(1) as f64,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `A..=B`, `A..B` or `N`, within `0..=G::MAX_LAYER`.
fn parse_range<G: TableGame>(spec: &DbSpec<G>, s: &str) -> Result<(usize, usize)> {
    let form = format!("N, A..B or A..=B with 0 <= A <= B <= {}", G::MAX_LAYER);
    match mancala::range::parse_inclusive(s) {
        Ok(Some((a, b))) if b <= G::MAX_LAYER as u64 => Ok((a as usize, b as usize)),
        _ => usage(format!("{}: `{s}`; expected {form}", spec.range_flag)),
    }
}

pub(super) fn export<G: TableGame>(
    spec: &DbSpec<G>,
    dir: &Path,
    range: &str,
    format: Format,
    out: &Path,
    rules: G::Rules,
) -> Result<()> {
    let (a, b) = parse_range(spec, range)?;
    let d = open(spec, dir, rules, "--dir", Some(b))?;
    if b > d.max_layer() {
        return usage(format!(
            "{}: {} holds layers 0..={}, asked for up to {b}",
            spec.range_flag,
            dir.display(),
            d.max_layer()
        ));
    }
    d.load_through(b).map_err(|e| db_error("--dir", e))?;
    let mut schema = vec![Column::Int(spec.pieces)];
    schema.extend(spec.position_columns.iter().copied());
    schema.push(Column::Int("value"));
    schema.push(spec.move_column);
    export_layers(&d.game, a..=b, out, format, schema, &rules_json(&d.game), |n, r, v, row| {
        let value = d.layers()[n].value(r);
        row.push(Value::Int(n as i64));
        (spec.position_cells)(v, row);
        row.push(Value::Int(value as i64));
        row.push(match d.best_move(v) {
            Some((m, best)) => {
                debug_assert_eq!(best, value as i32);
                (spec.move_cell)(m)
            }
            None => Value::Null,
        });
    })
}

/// Every position of layers `a..=b` in rank order, one row each, written atomically (an
/// interrupted or failed export leaves nothing behind).
/// `fill(layer, rank, position, row)` appends the row of one position to the (cleared) `row`.
#[allow(clippy::too_many_arguments)]
fn export_layers<G: LayeredGame>(
    game: &G,
    layers: std::ops::RangeInclusive<usize>,
    out: &Path,
    format: Format,
    schema: Vec<Column>,
    header: &serde_json::Value,
    mut fill: impl FnMut(usize, u64, &G::Pos, &mut Vec<Value>),
) -> Result<()> {
    let width = schema.len();
    let total: u64 = layers.clone().map(|n| game.layer_size(n)).sum();
    // A row's bytes at most, roughly: short integers in CSV, keyed in JSON lines; Parquet
    // compresses below the CSV figure.
    let row_bytes = match format {
        Format::Jsonl => 16 * width as u64,
        _ => 4 * width as u64,
    };
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Some(short) = mancala::store::space::shortfall(parent, total * row_bytes) {
        return usage(format!("--out: {short} ({total} rows)"));
    }
    let mut w = match TableWriter::create(out, format, schema, header) {
        Ok(w) => w,
        // The writer names the field without its dashes (`format: …`).
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => return usage(format!("--{e}")),
        Err(e) => return Err(e).with_context(|| format!("--out: {}", out.display())),
    };
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
    let failed = |e: anyhow::Error| match e.downcast_ref::<std::io::Error>() {
        Some(io) if mancala::store::space::is_disk_full(io) => {
            anyhow::anyhow!("--out: {}: the disk is full ({io}); the partial file was removed", out.display())
        }
        _ => e.context(format!("--out: {}", out.display())),
    };
    match res {
        Ok(()) => {
            w.finish().map_err(|e| failed(e.into()))?;
            eprintln!("wrote {total} rows to {}", out.display());
            Ok(())
        }
        Err(e) => {
            w.abandon();
            Err(failed(e))
        }
    }
}
