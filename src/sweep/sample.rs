//! A uniform random sample of opening pairs, seeded and reproducible, with 95 % confidence
//! intervals. Pair `i` of a sample depends only on `(seed, i)` (SplitMix64), so a sample is
//! the same whatever the thread count or chunking, and can be extended or split.

use super::output::header_rules;
use super::play::play_pair;
use super::summary::Agg;
use crate::export::{Column, Format, TableWriter, Value};
use crate::games::lukho::{Choice, GameOutcome, ProvenCycles, Races, Rules};
use crate::input::InputError;
use crate::rng::{below, splitmix64};
use rayon::prelude::*;
use serde_json::{json, Value as Json};
use std::fs;
use std::io;
use std::path::Path;

/// Margins in half-seeds run over -96..=96.
const BINS: usize = 193;

/// The `i`-th pair of the sample with `seed`, as (South id, North id).
pub fn pair(seed: u64, i: u64, choices: u64) -> (u64, u64) {
    let a = splitmix64(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ splitmix64(2 * i));
    let b = splitmix64(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ splitmix64(2 * i + 1));
    (below(a, choices), below(b, choices))
}

/// Exact counts of a sample: everything else (rates, means, intervals) derives from them.
/// Outcome classes, results and first movers are the sweep's [`Agg`]; a sample adds the
/// whole margin distribution (for its variance) and who won relative to who moved first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleStats {
    pub pairs: u64,
    pub agg: Agg,
    /// `margin[m + 96]` = games with South − North = m half-seeds.
    pub margin: Vec<u64>,
    /// Games won by the player who moved first.
    pub first_mover_wins: u64,
    /// Games won by the player who moved second.
    pub second_mover_wins: u64,
}

impl Default for SampleStats {
    fn default() -> Self {
        SampleStats { pairs: 0, agg: Agg::default(), margin: vec![0; BINS], first_mover_wins: 0, second_mover_wins: 0 }
    }
}

impl SampleStats {
    fn add(&mut self, o: &GameOutcome) {
        self.agg.add(o);
        self.margin[(o.margin.0 as i32 + 96) as usize] += 1;
        match o.winner {
            Some(w) if w == o.first_player => self.first_mover_wins += 1,
            Some(_) => self.second_mover_wins += 1,
            None => {}
        }
    }

    fn merge(mut self, b: SampleStats) -> SampleStats {
        self.pairs += b.pairs;
        self.agg = self.agg.merge(&b.agg);
        self.margin.iter_mut().zip(&b.margin).for_each(|(x, y)| *x += y);
        self.first_mover_wins += b.first_mover_wins;
        self.second_mover_wins += b.second_mover_wins;
        self
    }

    /// Mean margin (seeds, South − North) and its 95 % confidence half-width.
    pub fn margin_mean_ci(&self) -> (f64, f64) {
        let n = self.agg.games as f64;
        let (mut s, mut s2) = (0f64, 0f64);
        for (k, &c) in self.margin.iter().enumerate() {
            let m = (k as f64 - 96.0) / 2.0;
            s += m * c as f64;
            s2 += m * m * c as f64;
        }
        let mean = s / n;
        let var = (s2 / n - mean * mean) * n / (n - 1.0).max(1.0);
        (mean, 1.96 * (var / n).sqrt())
    }

    /// A proportion `k / games` and its 95 % (Wilson) interval.
    pub fn rate(&self, k: u64) -> (f64, f64, f64) {
        wilson(k, self.agg.games)
    }
}

/// Wilson score interval at 95 %: sound also for rare events such as perpetual openings.
pub fn wilson(k: u64, n: u64) -> (f64, f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (p, c - h, c + h)
}

/// Play pairs `from..to` of the sample with `seed` under `model`.
pub fn sample(
    rules: &Rules,
    model: Races,
    seed: u64,
    from: u64,
    to: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> SampleStats {
    const CHUNK: u64 = 1 << 14;
    let choices = Choice::count(rules);
    let proven = ProvenCycles::new();
    (from / CHUNK..to.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (lo, hi) = ((c * CHUNK).max(from), ((c + 1) * CHUNK).min(to));
            let mut st = SampleStats::default();
            for i in lo..hi {
                let (s, n) = pair(seed, i, choices);
                let s = Choice::from_id(s, rules).unwrap();
                let n = Choice::from_id(n, rules).unwrap();
                play_pair(rules, &proven, model, &s, &n, |_, o| st.add(o));
                st.pairs += 1;
            }
            progress(hi.saturating_sub(lo));
            st
        })
        .reduce(SampleStats::default, SampleStats::merge)
}

/// The sample's summary (`sample.json`): rates with their 95 % intervals, the mean margin
/// with its interval, first-mover wins among decided games, and the speed.
pub fn summary(st: &SampleStats, rules: &Rules, model: Races, seed: u64, seconds: f64) -> Json {
    let (mean, half) = st.margin_mean_ci();
    let r = |k: u64| {
        let (p, lo, hi) = wilson(k, st.agg.games);
        json!({"count": k, "rate": p, "ci95": [lo, hi]})
    };
    let decided = st.first_mover_wins + st.second_mover_wins;
    let (fm, fm_lo, fm_hi) = wilson(st.first_mover_wins, decided.max(1));
    json!({
        "rules": header_rules(rules, model.name()),
        "seed": seed,
        "pairs": st.pairs,
        "games": st.agg.games,
        "margin_mean": mean,
        "margin_mean_ci95": [mean - half, mean + half],
        "south_wins": r(st.agg.wins),
        "draws": r(st.agg.draws),
        "cycles": r(st.agg.cycles),
        "perpetual_openings": r(st.agg.perpetual_openings),
        "perpetual_turns": r(st.agg.perpetual_turns),
        "south_moves_first": r(st.agg.south_first),
        "first_mover_wins_of_decided": {"count": st.first_mover_wins, "of": decided, "rate": fm, "ci95": [fm_lo, fm_hi]},
        "seconds": seconds,
        "games_per_second": st.agg.games as f64 / seconds.max(1e-9),
    })
}

/// `out` must not exist, or be an empty directory: a sample's files are written together.
pub fn check_out(out: &Path) -> Result<(), InputError> {
    if out.exists() && fs::read_dir(out).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return Err(InputError::new("out", format!("{} exists and is not empty", out.display())));
    }
    Ok(())
}

/// Write `out/sample.json`, `out/margins.csv` and `out/margins.svg` as one set
/// ([`crate::store::OutputSet`]): `out` appears complete or not at all.
pub fn write_files(out: &Path, st: &SampleStats, summary: &Json, rules: &Rules, model: Races) -> io::Result<()> {
    let set = crate::store::OutputSet::begin(out)?;
    let tmp = set.staging();
    crate::store::set::write_file(&set, "sample.json", format!("{summary:#}\n").as_bytes())?;
    let head = header_rules(rules, model.name());
    let mut csv = TableWriter::create(
        &tmp.join("margins.csv"),
        Format::Csv,
        vec![Column::Float("margin"), Column::Int("games")],
        &head,
    )?;
    let mut bars = Vec::new();
    for (k, &c) in st.margin.iter().enumerate() {
        if c > 0 {
            let m = (k as f64 - 96.0) / 2.0;
            csv.row(&[Value::Float(m), Value::Int(c as i64)])?;
            bars.push((m, c));
        }
    }
    csv.finish()?;
    let svg = crate::export::svg::histogram(
        &format!("Lukho: South − North over {} sampled games ({})", st.agg.games, model.name()),
        "margin (seeds)",
        &bars,
    );
    crate::store::set::write_file(&set, "margins.svg", svg.as_bytes())?;
    set.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Rules = Rules { chain: crate::games::lukho::Chain::It, keep_one: false };

    #[test]
    fn pairs_are_reproducible_and_cover_the_range() {
        let n = Choice::count(&R);
        assert_eq!(pair(7, 12345, n), pair(7, 12345, n));
        assert_ne!(pair(7, 12345, n), pair(8, 12345, n));
        let mut max = 0;
        for i in 0..100_000 {
            let (a, b) = pair(1, i, n);
            assert!(a < n && b < n);
            max = max.max(a).max(b);
        }
        assert!(max > n - n / 1000);
    }

    #[test]
    fn a_split_sample_equals_the_whole() {
        let m = "sequential".parse::<Races>().unwrap();
        let whole = sample(&R, m, 3, 0, 3000, &|_| {});
        let parts = sample(&R, m, 3, 0, 1234, &|_| {}).merge(sample(&R, m, 3, 1234, 3000, &|_| {}));
        assert_eq!(whole, parts);
        assert_eq!(whole.pairs, 3000);
        assert_eq!(whole.agg.games, 6000);
        // Direct evaluation of the same pairs.
        let mut direct = SampleStats::default();
        for i in 0..3000 {
            let (s, n) = pair(3, i, Choice::count(&R));
            let (s, n) = (Choice::from_id(s, &R).unwrap(), Choice::from_id(n, &R).unwrap());
            play_pair(&R, &ProvenCycles::new(), m, &s, &n, |_, o| direct.add(o));
            direct.pairs += 1;
        }
        assert_eq!(whole, direct);
    }

    #[test]
    fn wilson_interval_contains_the_rate() {
        let (p, lo, hi) = wilson(2, 10_000);
        assert!(lo < p && p < hi && lo > 0.0);
        assert!((p - 0.0002).abs() < 1e-12);
    }
}
