//! The signature run (`mancala bench`), in the manner of a chess engine's `bench`: one fixed,
//! small workload per engine, each summarised by one number that depends on everything the
//! engine computed (a checksum of every value, a node or game count, a hash of every
//! aggregate). A change that alters what an engine computes changes its number; the numbers
//! of this build are asserted by `tests/signature.rs`, so CI catches it at once. The times are
//! a rough speed figure beside them, not a benchmark (those are in `benches/`).

use crate::games::{kiothi, lukho, oware};
use crate::opening_game::{OpeningGame, Payoff, Quiet, Solver};
use crate::search::Limits;
use crate::sweep::{Plan, Spec, SweepDef};
use std::path::Path;
use std::time::Instant;

/// One engine's workload and what it gave.
#[derive(Clone, Debug)]
pub struct Entry {
    pub engine: &'static str,
    /// The workload, as the equivalent command line.
    pub workload: &'static str,
    /// The engine's number (see each workload).
    pub signature: u64,
    /// Work done: positions, nodes or games.
    pub work: u64,
    pub unit: &'static str,
    pub seconds: f64,
}

/// FNV-1a over `bytes`: a stable hash (the standard library's is not stable across releases).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The Kiothi position of the perft workload (60 warriors, turn 3; `examples/kiothi/`).
const MIDGAME: &str = include_str!("../examples/kiothi/midgame.json");

/// Run every workload; `dir` is a scratch directory for the one that writes files (the
/// equilibrium's run state), left empty of it afterwards.
pub fn run(dir: &Path) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let mut timed = |engine, workload, unit, f: &mut dyn FnMut() -> Result<(u64, u64), String>| {
        let start = Instant::now();
        let (signature, work) = f()?;
        out.push(Entry { engine, workload, signature, work, unit, seconds: start.elapsed().as_secs_f64() });
        Ok::<(), String>(())
    };

    // Every Oware position with up to 12 seeds, solved: the CRC-32 of every value in order.
    timed("oware-db", "oware db build --max-stones 12", "positions", &mut || {
        let layers = crate::retro::oware::tables_in_memory(oware::Rules::default(), 12);
        let mut crc = crc32fast::Hasher::new();
        for l in &layers {
            crc.update(crate::store::layer_file::as_bytes(l));
        }
        Ok((crc.finalize() as u64, layers.iter().map(|l| l.len() as u64).sum()))
    })?;

    // The opening position searched to depth 9: the node count.
    timed("oware-search", "oware solve --pits 4,4,4,4,4,4,4,4,4,4,4,4 --depth 9", "nodes", &mut || {
        let limits = Limits { depth: Some(9), ..Limits::default() };
        let s = crate::solve::oware::solve(oware::Rules::default(), None, &[4; 12], limits);
        Ok((s.nodes, s.nodes))
    })?;

    // Kiothi move generation: perft 4 of the midgame position, the leaf count.
    timed("kiothi-perft", "kiothi perft --position examples/kiothi/midgame.json --depth 4", "leaves", &mut || {
        let json: serde_json::Value = serde_json::from_str(MIDGAME).map_err(|e| e.to_string())?;
        let p = kiothi::Position::from_json(&json).map_err(|e| e.to_string())?;
        let n = kiothi::perft(&p, &kiothi::Rules::default(), &kiothi::SowingCache::new(), 4);
        Ok((n, n))
    })?;

    // 256 South choices against 4,000 North choices under both sequential outcomes: a hash of
    // every South choice's aggregate (its summary row).
    timed("lukho-sweep", "lukho sweep --south 0..256 --north 0..4000 --race sequential", "games", &mut || {
        let spec = |s: &str| s.parse::<Spec>().map_err(|e| e.to_string());
        let races = lukho::Races::Model(lukho::race::RaceModel::Sequential);
        let def = SweepDef::new(lukho::Rules::default(), races, spec("0..256")?, Some(spec("0..4000")?), false)
            .map_err(|e| e.to_string())?;
        let plan = Plan::new(def, None).map_err(|e| e.to_string())?;
        let rows = plan.aggregate(&|_| {});
        let text: String = rows.iter().map(|(id, a)| format!("{id}:{}\n", a.to_json())).collect();
        Ok((fnv(text.as_bytes()), rows.iter().map(|(_, a)| a.games).sum()))
    })?;

    // The opening game of the 52 choices that remove from the last pit only, south-first,
    // margin, solved by double oracle: a hash of the value, the bounds and both mixes.
    let eq_dir = dir.join("signature-equilibrium");
    let _ = std::fs::remove_dir_all(&eq_dir);
    timed(
        "lukho-equilibrium",
        "lukho equilibrium --race south-first --payoff margin --family 'all:remove=0000000*'",
        "games",
        &mut || {
            let family = "all:remove=0000000*".parse::<Spec>().map_err(|e| e.to_string())?;
            let races = lukho::Races::One(lukho::Race::SouthFirst);
            let def = OpeningGame { rules: lukho::Rules::default(), model: races, payoff: Payoff::Margin, family };
            let mut solver = Solver::open(def, &eq_dir).map_err(|e| e.to_string())?;
            solver.run(&Quiet).map_err(|e| e.to_string())?;
            let a = solver.answer(&[]);
            let mixes: String = [&a.south, &a.north]
                .iter()
                .flat_map(|m| m.iter().map(|e| format!("{}:{:.9};", e.id, e.weight)))
                .collect();
            let text = format!(
                "{:.9} {:?} {:?} {mixes}",
                a.value,
                a.lower.map(|x| (x * 1e9).round()),
                a.upper.map(|x| (x * 1e9).round())
            );
            Ok((fnv(text.as_bytes()), a.games))
        },
    )?;
    let _ = std::fs::remove_dir_all(&eq_dir);
    Ok(out)
}

/// The one number of a whole run: a hash of every engine's signature, in order.
pub fn combined(entries: &[Entry]) -> u64 {
    let text: String = entries.iter().map(|e| format!("{}={};", e.engine, e.signature)).collect();
    fnv(text.as_bytes())
}
