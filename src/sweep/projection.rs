//! The dry-run projection of a sweep: a timing sample on one core, scaled to the whole
//! sweep (games, core-hours). The sample is timed by its thread's CPU clock: core-hours are
//! CPU time, and on a shared machine the wall clock also counts the other work's turns.

use super::output::header_rules;
use super::plan::Plan;
use super::play::{agg_pairs_batched, play_pair, BATCH};
use crate::games::lukho::{Choice, ProvenCycles, Races, Rules};
use serde_json::{json, Value as Json};

/// CPU seconds this thread has run.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    assert!(ok, "the thread CPU clock is readable");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// A timing sample for `--dry-run`: games played and CPU seconds on one thread.
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
/// least `min_seconds` of its CPU time (slow models stop a second later with fewer pairs).
pub fn calibrate(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Races,
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
    let start = thread_cpu_seconds();
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
                    sink += a.sum_margin.0;
                    batch.clear();
                }
            }
            None => play_pair(rules, proven, model, &s, &north[ni], |_, o| {
                games += 1;
                sink += o.margin.0 as i64;
            }),
        }
        pairs += 1;
        k += step;
        // Once a batch (every 64 pairs without one): the thread's CPU clock is a system call,
        // and its cost is timed too.
        if pairs % 64 == 0 && batch.is_empty() {
            let t = thread_cpu_seconds() - start;
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
        sink += a.sum_margin.0;
    }
    std::hint::black_box(sink);
    Calibration { pairs, games, seconds: thread_cpu_seconds() - start }
}

/// A dry run's projection of a sweep run: its size, a timing sample, and the core-hours.
#[derive(Clone, Debug)]
pub struct Projection {
    pub south_choices: usize,
    pub north_choices: usize,
    pub pairs: u64,
    pub games_per_pair: f64,
    pub games: f64,
    /// The games are exact (fixed outcomes), not estimated from the sample (`speeds`).
    pub games_exact: bool,
    pub sample: Calibration,
    pub cores: usize,
}

impl Projection {
    pub fn games_per_core_second(&self) -> f64 {
        self.sample.games_per_core_second()
    }

    pub fn core_hours(&self) -> f64 {
        let rate = self.games_per_core_second();
        if rate > 0.0 {
            self.games / rate / 3600.0
        } else {
            0.0
        }
    }

    pub fn hours_here(&self) -> f64 {
        self.core_hours() / self.cores as f64
    }

    /// The projection with the sweep it is of (rules, SPECs, shard).
    pub fn to_json(&self, plan: &Plan) -> Json {
        let def = &plan.def;
        json!({
            "rules": header_rules(&def.rules, def.model.name()),
            "south": def.south.text,
            "north": def.north.text,
            "shard": plan.shard.map(|s| json!([s.k, s.n])),
            "south_choices": self.south_choices,
            "north_choices": self.north_choices,
            "pairs": self.pairs,
            "games_per_pair": self.games_per_pair,
            "games": self.games.round(),
            "games_exact": self.games_exact,
            "sample_games": self.sample.games,
            "sample_seconds": self.sample.seconds,
            "games_per_core_second": self.games_per_core_second().round(),
            "core_hours": self.core_hours(),
            "hours_here": self.hours_here(),
            "cores_here": self.cores,
        })
    }
}

impl Plan {
    /// Time a sample for `seconds` of this thread's CPU time and project this run. The sample is spread
    /// over the whole product, not only this shard; a symmetric sweep is timed on South × a
    /// sample of its own choices (the same kind of games).
    pub fn project(&self, seconds: f64) -> Projection {
        let (def, sets) = (&self.def, &self.sets);
        let sample: Vec<Choice>;
        let north = if sets.symmetric {
            let step = (sets.south.len() / 1000).max(1);
            sample =
                crate::sweep::spec::choices(&sets.south.iter().copied().step_by(step).collect::<Vec<_>>(), &def.rules);
            &sample
        } else {
            &sets.north
        };
        // A fresh set of proven cycles: the sample pays for its perpetual openings as a shard
        // of the sweep would on a cold start.
        let cal = calibrate(&def.rules, &ProvenCycles::new(), def.model, &sets.south, north, 20_000, seconds);
        let per_pair = def.model.outcomes().map_or(cal.games_per_pair(), |o| o.len() as f64);
        let pairs = self.pairs();
        Projection {
            south_choices: self.south_ids().len(),
            north_choices: sets.north_per_south(),
            pairs,
            games_per_pair: per_pair,
            games: pairs as f64 * per_pair,
            games_exact: def.model.outcomes().is_some(),
            sample: cal,
            cores: rayon::current_num_threads(),
        }
    }
}
