//! The opening sweep: every South choice of a set against every North choice of a set,
//! under every race outcome of a model, aggregated per South choice.
//!
//! Parallel with rayon: South choices in parallel, and inside each the North choices in
//! chunks, each chunk folded into one [`Agg`] on the stack (no allocation per game, except
//! the `speeds` enumeration which builds its list of outcomes per pair).

use super::spec::{Spec, SpecError};
use super::summary::Agg;
use crate::games::lukho::{
    opening, play_after, play_batch, speed_races, Choice, Class, GameOutcome, Opening, Position, ProvenCycles, Race,
    RaceModel, Rules,
};
use crate::side::Side;
use rayon::prelude::*;
use std::fmt;
use std::time::Instant;

/// What `--race` names in a sweep: a model (all its outcomes) or one fixed outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Fixed(RaceModel),
    Speeds,
    One(Race),
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("race: `{0}` is not a race model; expected sequential, lockstep, speeds, or one outcome: south-first, north-first, lockstep-south, lockstep-north")]
pub struct ModelError(pub String);

pub const RACES: [Race; 4] = [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth];

pub fn parse_race(s: &str) -> Option<Race> {
    RACES.into_iter().find(|r| r.name() == s)
}

impl Model {
    pub fn parse(s: &str) -> Result<Model, ModelError> {
        match s.trim() {
            "sequential" => Ok(Model::Fixed(RaceModel::Sequential)),
            "lockstep" => Ok(Model::Fixed(RaceModel::Lockstep)),
            "speeds" => Ok(Model::Speeds),
            o => parse_race(o).map(Model::One).ok_or_else(|| ModelError(s.to_string())),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Model::Fixed(m) => m.name(),
            Model::Speeds => "speeds",
            Model::One(r) => r.name(),
        }
    }

    /// The outcomes played for every pair, when they do not depend on the pair.
    pub fn outcomes(&self) -> Option<&'static [Race]> {
        match self {
            Model::Fixed(m) => Some(m.outcomes()),
            Model::One(r) => Some(std::slice::from_ref(match r {
                Race::SouthFirst => &RACES[0],
                Race::NorthFirst => &RACES[1],
                Race::LockstepSouth => &RACES[2],
                Race::LockstepNorth => &RACES[3],
            })),
            Model::Speeds => None,
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The race outcome a game was played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceLabel {
    Fixed(Race),
    /// The K-th `speeds` outcome in increasing ρ.
    Speeds(u32),
}

impl fmt::Display for RaceLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceLabel::Fixed(r) => f.write_str(r.name()),
            RaceLabel::Speeds(k) => write!(f, "speeds:{k}"),
        }
    }
}

/// Play one pair under every outcome of `model`; `f` sees each game.
///
/// The game after the opening is forced, so two race outcomes that leave the same opening
/// (board, first mover) have the same game: it is played once. That happens whenever one
/// player sows nothing (45 % of the games of South 0 against all North choices, 4.3 % for
/// South 3456789). A wider memo of post-opening positions was measured and dropped: a
/// per-thread direct-mapped table of 2^14–2^22 positions found 6–13 % repeats for South
/// 3456789 but made the sweep 13–35 % slower, its probes missing the cache
/// (`results/BENCHMARKS.md`).
#[inline]
pub fn play_pair(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Model,
    south: &Choice,
    north: &Choice,
    mut f: impl FnMut(RaceLabel, &GameOutcome),
) {
    let mut last: Option<(Opening, GameOutcome)> = None;
    let mut play = |o: Opening| -> GameOutcome {
        let g = match last {
            Some((p, g)) if p == o => g,
            _ => play_after(rules, proven, &o),
        };
        last = Some((o, g));
        g
    };
    match model.outcomes() {
        Some(races) => {
            for &r in races {
                f(RaceLabel::Fixed(r), &play(opening(rules, proven, south, north, r)));
            }
        }
        None => {
            for (k, sr) in speed_races(rules, proven, south, north).iter().enumerate() {
                f(RaceLabel::Speeds(k as u32), &play(sr.opening));
            }
        }
    }
}

/// A sweep's definition: everything that decides its result (written into every part header).
#[derive(Clone, Debug)]
pub struct SweepDef {
    pub rules: Rules,
    pub model: Model,
    pub south: Spec,
    pub north: Spec,
    /// Each South choice against the same choice by North (the diagonal), not a product.
    pub symmetric: bool,
}

/// The resolved sets of a sweep. Symmetric sweeps have no North set: each South choice meets
/// its own mirror.
pub struct Sets {
    pub south: Vec<u32>,
    pub north_ids: Vec<u32>,
    pub north: Vec<Choice>,
    pub symmetric: bool,
}

impl Sets {
    /// North choices each South choice meets.
    pub fn north_per_south(&self) -> usize {
        if self.symmetric {
            1
        } else {
            self.north.len()
        }
    }
}

/// Which side's SPEC failed.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("--{side}: {err}")]
pub struct SetError {
    pub side: &'static str,
    pub err: SpecError,
}

impl SweepDef {
    pub fn sets(&self) -> Result<Sets, SetError> {
        let south = self.south.ids(&self.rules).map_err(|err| SetError { side: "south", err })?;
        if self.symmetric {
            return Ok(Sets { south, north_ids: vec![], north: vec![], symmetric: true });
        }
        let north_ids = self.north.ids(&self.rules).map_err(|err| SetError { side: "north", err })?;
        let north = super::spec::choices(&north_ids, &self.rules);
        Ok(Sets { south, north_ids, north, symmetric: false })
    }
}

/// North choices per work item: big enough to amortise the scheduling, small enough to
/// spread one South choice over every core.
const CHUNK: usize = 4096;

/// Aggregate every game of each South choice in `south` against all of `north`.
/// `progress(n)` is called with the games finished, once per chunk.
pub fn sweep(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Model,
    south: &[u32],
    north: &[Choice],
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Agg> {
    south
        .par_iter()
        .map(|&sid| {
            let s = Choice::from_id(sid as u64, rules).expect("ids come from a SPEC");
            north
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let a = match model.outcomes() {
                        Some(races) => agg_batched(rules, proven, races, &s, chunk),
                        None => {
                            let mut a = Agg::default();
                            for n in chunk {
                                play_pair(rules, proven, model, &s, n, |_, o| a.add(o));
                            }
                            a
                        }
                    };
                    progress(a.games);
                    a
                })
                .reduce(Agg::default, |a, b| a.merge(&b))
        })
        .collect()
}

/// North choices whose games go to [`play_batch`] together (at most 2 games each: 32 KB of
/// positions, which stay in the core's first-level cache).
const BATCH: usize = 512;

/// [`play_pair`] for every North choice of `north` under fixed `races`, aggregated, with the
/// games after the openings played as batches ([`play_batch`]: several games side by side).
/// The same games as [`play_pair`]: an opening equal to the pair's previous one is played
/// once and counted again, a perpetual opening is scored without a game.
fn agg_batched(rules: &Rules, proven: &ProvenCycles, races: &[Race], south: &Choice, north: &[Choice]) -> Agg {
    agg_pairs_batched(rules, proven, races, north, |n| (south, n))
}

/// [`agg_batched`] over any pairs: `pair` gives the (South, North) choices of an item.
fn agg_pairs_batched<'a, P>(
    rules: &Rules,
    proven: &ProvenCycles,
    races: &[Race],
    items: &'a [P],
    pair: impl Fn(&'a P) -> (&'a Choice, &'a Choice),
) -> Agg {
    let mut a = Agg::default();
    let blank = GameOutcome::new(Side::South, [0, 0], Class::Normal, 0);
    let mut starts: Vec<Position> = Vec::with_capacity(BATCH * races.len());
    let mut counts: Vec<u8> = Vec::with_capacity(BATCH * races.len());
    let mut outs = vec![blank; BATCH * races.len()];
    for batch in items.chunks(BATCH) {
        starts.clear();
        counts.clear();
        for (south, n) in batch.iter().map(&pair) {
            let mut last: Option<Opening> = None;
            for &r in races {
                let o = opening(rules, proven, south, n, r);
                if o.perpetual {
                    a.add(&play_after(rules, proven, &o));
                } else if last == Some(o) {
                    *counts.last_mut().expect("an opening was pushed") += 1;
                } else {
                    starts.push(Position { board: o.board, to_move: o.first_player });
                    counts.push(1);
                }
                last = Some(o);
            }
        }
        let outs = &mut outs[..starts.len()];
        play_batch(rules, proven, &starts, outs);
        for (o, &k) in outs.iter().zip(&counts) {
            for _ in 0..k {
                a.add(o);
            }
        }
    }
    a
}

/// Each South choice in `south` against the same choice played by North (`--symmetric`).
pub fn sweep_mirror(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Model,
    south: &[u32],
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Agg> {
    south
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let aggs: Vec<Agg> = chunk
                .iter()
                .map(|&sid| {
                    let c = Choice::from_id(sid as u64, rules).expect("ids come from a SPEC");
                    let mut a = Agg::default();
                    play_pair(rules, proven, model, &c, &c, |_, o| a.add(o));
                    a
                })
                .collect();
            progress(aggs.iter().map(|a| a.games).sum());
            aggs
        })
        .collect()
}

/// Every game of a (small) symmetric sweep, in order: South id (= North id), race outcome.
pub fn games_mirror(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Model,
    south: &[u32],
) -> Vec<(u32, u32, RaceLabel, GameOutcome)> {
    south
        .par_iter()
        .flat_map_iter(|&sid| {
            let c = Choice::from_id(sid as u64, rules).expect("ids come from a SPEC");
            let mut out = Vec::new();
            play_pair(rules, proven, model, &c, &c, |r, o| out.push((sid, sid, r, *o)));
            out
        })
        .collect()
}

/// Every game of a (small) product, in order: South id, then North id, then race outcome.
pub fn games(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Model,
    south: &[u32],
    north: &[Choice],
    north_ids: &[u32],
) -> Vec<(u32, u32, RaceLabel, GameOutcome)> {
    south
        .par_iter()
        .flat_map_iter(|&sid| {
            let s = Choice::from_id(sid as u64, rules).expect("ids come from a SPEC");
            let mut out = Vec::new();
            for (n, &nid) in north.iter().zip(north_ids) {
                play_pair(rules, proven, model, &s, n, |r, o| out.push((sid, nid, r, *o)));
            }
            out
        })
        .collect()
}

/// A timing sample for `--dry-run`: games played and seconds on one thread.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    pub pairs: u64,
    pub games: u64,
    pub seconds: f64,
}

impl Calibration {
    pub fn games_per_pair(&self) -> f64 {
        self.games as f64 / self.pairs.max(1) as f64
    }
    pub fn games_per_core_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }
}

/// Time about `target_pairs` pairs spread evenly over the product, on this thread, for at
/// least `min_seconds` (slow models stop a second later with fewer pairs).
pub fn calibrate(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Model,
    south: &[u32],
    north: &[Choice],
    target_pairs: u64,
    min_seconds: f64,
) -> Calibration {
    let total = south.len() as u64 * north.len() as u64;
    if total == 0 {
        return Calibration { pairs: 0, games: 0, seconds: 0.0 };
    }
    // A stride coprime-ish to the North count, so the sample walks many South and North ids.
    let step = (total / target_pairs.max(1)).max(1) | 1;
    let start = Instant::now();
    let (mut pairs, mut games, mut k) = (0u64, 0u64, 0u64);
    let mut sink = 0i64;
    let mut batch: Vec<(Choice, Choice)> = Vec::with_capacity(BATCH);
    loop {
        let i = k % total;
        let (si, ni) = ((i / north.len() as u64) as usize, (i % north.len() as u64) as usize);
        let s = Choice::from_id(south[si] as u64, rules).unwrap();
        match model.outcomes() {
            // As the sweep plays them: the games in batches ([`agg_batched`]).
            Some(races) => {
                batch.push((s, north[ni]));
                if batch.len() == BATCH {
                    let a = agg_pairs_batched(rules, proven, races, &batch, |(s, n)| (s, n));
                    games += a.games;
                    sink += a.sum_margin2;
                    batch.clear();
                }
            }
            None => play_pair(rules, proven, model, &s, &north[ni], |_, o| {
                games += 1;
                sink += o.margin2 as i64;
            }),
        }
        pairs += 1;
        k += step;
        if (pairs % 64 == 0 && batch.is_empty()) || pairs >= target_pairs {
            let t = start.elapsed().as_secs_f64();
            // Enough pairs and time; or (slow models such as `speeds`) a second past the
            // minimum with a few hundred pairs timed.
            if (pairs >= target_pairs && t >= min_seconds) || (pairs >= 256 && t >= min_seconds + 1.0) {
                break;
            }
        }
    }
    if let (Some(races), false) = (model.outcomes(), batch.is_empty()) {
        let a = agg_pairs_batched(rules, proven, races, &batch, |(s, n)| (s, n));
        games += a.games;
        sink += a.sum_margin2;
    }
    std::hint::black_box(sink);
    Calibration { pairs, games, seconds: start.elapsed().as_secs_f64() }
}

/// One shard of `count` items: `K/N` with `0 <= K < N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("shard: {0}; expected K/N with 0 <= K < N (e.g. 0/8), or SLURM_ARRAY_TASK_ID + SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX + JOB_COMPLETIONS")]
pub struct ShardError(pub String);

impl Shard {
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(format!("`{s}`"));
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The shard from a scheduler's environment, if one is set: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`) or a
    /// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, of `JOB_COMPLETIONS`, which the job
    /// spec must set to its `completions`).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, ShardError> {
        let num = |name: &str| -> Result<Option<u64>, ShardError> {
            match get(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| ShardError(format!("{name}=`{v}` is not a number"))),
            }
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let count = num("SLURM_ARRAY_TASK_COUNT")?
                .ok_or_else(|| ShardError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not".into()))?;
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let k = id
                .checked_sub(min)
                .ok_or_else(|| ShardError(format!("SLURM_ARRAY_TASK_ID {id} < SLURM_ARRAY_TASK_MIN {min}")))?;
            return Shard::parse(&format!("{k}/{count}")).map(Some);
        }
        if let Some(k) = num("JOB_COMPLETION_INDEX")? {
            let count = num("JOB_COMPLETIONS")?.ok_or_else(|| {
                ShardError("JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS (the job's completions) is not".into())
            })?;
            return Shard::parse(&format!("{k}/{count}")).map(Some);
        }
        Ok(None)
    }

    /// The positions `lo..hi` of this shard among `count` items (contiguous, balanced).
    pub fn range(&self, count: u64) -> (u64, u64) {
        let at = |k: u64| (count as u128 * k as u128 / self.n as u128) as u64;
        (at(self.k), at(self.k + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lukho::summary::Agg;

    const R: Rules = Rules { chain: crate::games::lukho::Chain::It, keep_one: false };

    #[test]
    fn symmetric_sweep_is_each_choice_against_itself() {
        let south: Vec<u32> = (0..2000).step_by(7).chain([123_456, 5_000_000]).collect();
        for model in [Model::parse("sequential").unwrap(), Model::parse("lockstep").unwrap()] {
            let proven = ProvenCycles::new();
            let got = sweep_mirror(&R, &proven, model, &south, &|_| {});
            for (&sid, a) in south.iter().zip(&got) {
                let c = Choice::from_id(sid as u64, &R).unwrap();
                let want = &sweep(&R, &proven, model, &[sid], &[c], &|_| {})[0];
                assert_eq!(a, want, "choice {sid}");
            }
            let games = games_mirror(&R, &proven, model, &south);
            assert_eq!(games.len(), south.len() * 2);
            assert!(games.iter().all(|g| g.0 == g.1));
        }
    }

    #[test]
    fn sweep_equals_a_direct_loop() {
        let south: Vec<u32> = vec![0, 1, 77, 4000, 65_000, 3_000_000, 6_356_991];
        let north_ids: Vec<u32> = (0..300).chain([123_456, 5_000_000]).collect();
        let north: Vec<Choice> = north_ids.iter().map(|&i| Choice::from_id(i as u64, &R).unwrap()).collect();
        for model in
            [Model::Fixed(RaceModel::Sequential), Model::Fixed(RaceModel::Lockstep), Model::One(Race::NorthFirst)]
        {
            let proven = ProvenCycles::new();
            let got = sweep(&R, &proven, model, &south, &north, &|_| {});
            for (&sid, agg) in south.iter().zip(&got) {
                let s = Choice::from_id(sid as u64, &R).unwrap();
                let mut want = Agg::default();
                for n in &north {
                    for &r in model.outcomes().unwrap() {
                        want.add(&crate::games::lukho::play_game(&R, &proven, &s, n, r));
                    }
                }
                assert_eq!(*agg, want, "{model} south {sid}");
            }
        }
    }

    #[test]
    fn speeds_sweep_counts_every_interval() {
        let south = vec![0u32, 1234];
        let north: Vec<Choice> = (0..40).map(|i| Choice::from_id(i * 997, &R).unwrap()).collect();
        let proven = ProvenCycles::new();
        let got = sweep(&R, &proven, Model::Speeds, &south, &north, &|_| {});
        for (&sid, agg) in south.iter().zip(&got) {
            let s = Choice::from_id(sid as u64, &R).unwrap();
            let n: usize = north.iter().map(|n| speed_races(&R, &proven, &s, n).len()).sum();
            assert_eq!(agg.games as usize, n);
        }
    }

    #[test]
    fn models_and_shards_parse() {
        assert_eq!(Model::parse("sequential").unwrap(), Model::Fixed(RaceModel::Sequential));
        assert_eq!(Model::parse("lockstep-north").unwrap(), Model::One(Race::LockstepNorth));
        assert_eq!(Model::parse("speeds").unwrap(), Model::Speeds);
        assert!(Model::parse("random").is_err());
        assert_eq!(Shard::parse("2/5").unwrap(), Shard { k: 2, n: 5 });
        for bad in ["5/5", "1/0", "1", "a/b", "-1/3", "1/2/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        // Ranges tile the items exactly.
        for n in 1..9u64 {
            let mut next = 0;
            for k in 0..n {
                let (lo, hi) = Shard { k, n }.range(13);
                assert_eq!(lo, next);
                next = hi;
            }
            assert_eq!(next, 13);
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(Shard::from_env(env(&[])).unwrap(), None);
        let s = Shard::from_env(env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]));
        assert_eq!(s.unwrap(), Some(Shard { k: 2, n: 4 }));
        let s = Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0"), ("JOB_COMPLETIONS", "2")]));
        assert_eq!(s.unwrap(), Some(Shard { k: 0, n: 2 }));
        assert!(Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0")])).is_err());
        assert!(Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_COUNT", "4")])).is_err());
    }
}
