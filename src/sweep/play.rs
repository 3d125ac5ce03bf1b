//! The opening sweep: every South choice of a set against every North choice of a set,
//! under every race outcome of a model, aggregated per South choice.
//!
//! Parallel with rayon: South choices in parallel, and inside each the North choices in
//! chunks, each chunk folded into one [`Agg`] on the stack (no allocation per game, except
//! the `speeds` enumeration which builds its list of outcomes per pair).

use super::summary::Agg;
use crate::games::lukho::{
    each_opening, play_after, play_batch, speed_races, Choice, Class, GameOutcome, Opening, Position, ProvenCycles,
    Race, RaceLabel, Races, Rules,
};
use crate::side::Side;
use rayon::prelude::*;

/// Play one pair under every outcome of `model`; `f` sees each game.
///
/// The game after the opening is forced, so two race outcomes that leave the same opening
/// (board, first mover) have the same game: it is played once. That happens whenever one
/// player sows nothing (45 % of the games of South 0 against all North choices, 4.3 % for
/// South 3456789). A wider memo of post-opening positions costs more in cache misses than its
/// repeats save (`results/BENCHMARKS-journal.md`).
#[inline]
pub fn play_pair(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Races,
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
            each_opening(rules, proven, south, north, races, |r, o| f(RaceLabel::Named(r), &play(o)));
        }
        None => {
            for (k, sr) in speed_races(rules, proven, south, north).iter().enumerate() {
                f(RaceLabel::Speeds(k as u32), &play(sr.opening));
            }
        }
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
    model: Races,
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
pub(super) const BATCH: usize = 512;

/// [`play_pair`] for every North choice of `north` under fixed `races`, aggregated, with the
/// games after the openings played as batches ([`play_batch`]: several games side by side).
/// The same games as [`play_pair`]: an opening equal to the pair's previous one is played
/// once and counted again, a perpetual opening is scored without a game.
fn agg_batched(rules: &Rules, proven: &ProvenCycles, races: &[Race], south: &Choice, north: &[Choice]) -> Agg {
    agg_pairs_batched(rules, proven, races, north, |n| (south, n))
}

/// [`agg_batched`] over any pairs: `pair` gives the (South, North) choices of an item.
pub(super) fn agg_pairs_batched<'a, P>(
    rules: &Rules,
    proven: &ProvenCycles,
    races: &[Race],
    items: &'a [P],
    pair: impl Fn(&'a P) -> (&'a Choice, &'a Choice),
) -> Agg {
    let mut a = Agg::default();
    games_batched(rules, proven, races, items, pair, |_, o| a.add(o));
    a
}

/// Every game of the pairs of `items` under fixed `races`, reported as `f(i, outcome)` with
/// `i` the item's index in `items` (an item's games in no particular order), the games after
/// the openings played as batches ([`play_batch`]: several games side by side). The same games
/// as [`play_pair`]: an opening equal to the pair's previous one is played once and reported
/// again, a perpetual opening is scored without a game.
pub fn games_batched<'a, P>(
    rules: &Rules,
    proven: &ProvenCycles,
    races: &[Race],
    items: &'a [P],
    pair: impl Fn(&'a P) -> (&'a Choice, &'a Choice),
    mut f: impl FnMut(usize, &GameOutcome),
) {
    let blank = GameOutcome::new(Side::South, [crate::games::lukho::HalfSeeds(0); 2], Class::Normal, 0);
    let mut starts: Vec<Position> = Vec::with_capacity(BATCH * races.len());
    // Per start: the item it belongs to and how many of the item's outcomes it stands for.
    let mut owners: Vec<(usize, u8)> = Vec::with_capacity(BATCH * races.len());
    let mut outs = vec![blank; BATCH * races.len()];
    for (b, batch) in items.chunks(BATCH).enumerate() {
        starts.clear();
        owners.clear();
        for (j, (south, n)) in batch.iter().map(&pair).enumerate() {
            let i = b * BATCH + j;
            let mut last: Option<Opening> = None;
            each_opening(rules, proven, south, n, races, |_, o| {
                if o.perpetual {
                    f(i, &play_after(rules, proven, &o));
                } else if last == Some(o) {
                    owners.last_mut().expect("an opening was pushed").1 += 1;
                } else {
                    starts.push(Position { board: o.board, to_move: o.first_player });
                    owners.push((i, 1));
                }
                last = Some(o);
            });
        }
        let outs = &mut outs[..starts.len()];
        play_batch(rules, proven, &starts, outs);
        for (o, &(i, k)) in outs.iter().zip(&owners) {
            for _ in 0..k {
                f(i, o);
            }
        }
    }
}

/// Each South choice in `south` against the same choice played by North (`--symmetric`).
pub fn sweep_mirror(
    rules: &Rules,
    proven: &ProvenCycles,
    model: Races,
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
    model: Races,
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
    model: Races,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lukho::RaceModel;
    use crate::sweep::summary::Agg;

    const R: Rules = Rules { chain: crate::games::lukho::Chain::It, keep_one: false };

    #[test]
    fn symmetric_sweep_is_each_choice_against_itself() {
        let south: Vec<u32> = (0..2000).step_by(7).chain([123_456, 5_000_000]).collect();
        for model in ["sequential".parse::<Races>().unwrap(), "lockstep".parse::<Races>().unwrap()] {
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
            [Races::Model(RaceModel::Sequential), Races::Model(RaceModel::Lockstep), Races::One(Race::NorthFirst)]
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
        let got = sweep(&R, &proven, Races::Model(RaceModel::Speeds), &south, &north, &|_| {});
        for (&sid, agg) in south.iter().zip(&got) {
            let s = Choice::from_id(sid as u64, &R).unwrap();
            let n: usize = north.iter().map(|n| speed_races(&R, &proven, &s, n).len()).sum();
            assert_eq!(agg.games as usize, n);
        }
    }

    #[test]
    fn races_parse() {
        assert_eq!("sequential".parse::<Races>().unwrap(), Races::Model(RaceModel::Sequential));
        assert_eq!("lockstep-north".parse::<Races>().unwrap(), Races::One(Race::LockstepNorth));
        assert_eq!("speeds".parse::<Races>().unwrap(), Races::Model(RaceModel::Speeds));
        assert!("random".parse::<Races>().is_err());
        for r in Race::ALL {
            assert_eq!(r.as_slice(), [r]);
            assert_eq!(r.name().parse::<Race>(), Ok(r));
            assert_eq!(Races::One(r).outcomes(), Some(&[r][..]));
        }
        for k in ["speeds:0", "speeds:17", "south-first", "lockstep-north"] {
            assert_eq!(k.parse::<RaceLabel>().unwrap().to_string(), k);
        }
        assert!("speeds:x".parse::<RaceLabel>().is_err());
    }
}
