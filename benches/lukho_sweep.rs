//! Lukho sweep speed against the target of 5 million complete games per second for
//! `sequential`: whole games, opening sowing to final score, exact cycle and perpetual
//! detection included.
//!
//! - `one_south_*_vs_all_sequential`: the yardstick, one South choice against all
//!   6,356,992 North choices under both `sequential` outcomes (12,713,984 games), all cores,
//!   for an easy, a typical and a perpetual-rich South choice;
//!   `one_south_3456789_vs_all_lockstep`: the typical one under both `lockstep` outcomes (the
//!   equilibrium run's payoff vectors are such sweeps);
//!   `one_slow_south_vs_all_sequential`: the five slowest South choices found, each proving
//!   tens of thousands of perpetual cycles;
//! - `normal_games_one_core` / `perpetual_games_one_core`: games/s on one core for pairs of
//!   the uniform sample (`lukho sample --seed 1`) split by class, because the rare perpetual
//!   openings (about 1.7 in 10,000 pairs) cost orders of magnitude more than a normal game;
//!   `normal_games_one_core_batched`: the same normal games through `play_batch`, as the
//!   sweep plays them.
//!
//! Each benchmark asserts its aggregate (games, wins, draws, perpetuals, margin sum), so a
//! faster but wrong engine fails. Each run gets a fresh [`ProvenCycles`], so that it pays for
//! its own perpetual sowings (cycles shared from an earlier run would hide their cost). Figures: results/BENCHMARKS.md.

use mancala::games::lukho::{
    opening, play_batch, play_game, Choice, Class, GameOutcome, Position, ProvenCycles, Race, Races, Rules,
};
use mancala::side::Side;
use mancala::sweep::play::sweep;
use mancala::sweep::sample::pair;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

const RULES: Rules = Rules { chain: mancala::games::lukho::Chain::It, keep_one: false };

fn all_choices() -> &'static [Choice] {
    static ALL: OnceLock<Vec<Choice>> = OnceLock::new();
    ALL.get_or_init(|| (0..Choice::count(&RULES)).map(|id| Choice::from_id(id, &RULES).unwrap()).collect())
}

type Pairs = Vec<(Choice, Choice)>;

/// The first pairs of the seed-1 sample, split into normal pairs (no perpetual opening under
/// either `sequential` outcome) and perpetual ones.
fn sample_pairs() -> &'static (Pairs, Pairs) {
    static PAIRS: OnceLock<(Pairs, Pairs)> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let (mut normal, mut perpetual) = (Vec::new(), Vec::new());
        let n = Choice::count(&RULES);
        let proven = ProvenCycles::new();
        for i in 0..SCANNED {
            let (s, t) = pair(1, i, n);
            let (s, t) = (Choice::from_id(s, &RULES).unwrap(), Choice::from_id(t, &RULES).unwrap());
            let p = [Race::SouthFirst, Race::NorthFirst]
                .iter()
                .any(|&r| play_game(&RULES, &proven, &s, &t, r).class == Class::PerpetualOpening);
            if p {
                perpetual.push((s, t));
            } else if normal.len() < NORMAL {
                normal.push((s, t));
            }
        }
        (normal, perpetual)
    })
}

const SCANNED: u64 = 1_000_000;
const NORMAL: usize = 200_000;

/// Both `sequential` outcomes of every pair: (games, South wins, draws, perpetual openings,
/// sum of margins ×2).
fn play_all(proven: &ProvenCycles, pairs: &[(Choice, Choice)]) -> (u64, u64, u64, u64, i64) {
    let mut t = (0, 0, 0, 0, 0);
    for (s, n) in pairs {
        for r in [Race::SouthFirst, Race::NorthFirst] {
            let o = play_game(&RULES, proven, s, n, r);
            t.0 += 1;
            t.1 += (o.margin.0 > 0) as u64;
            t.2 += (o.margin.0 == 0) as u64;
            t.3 += (o.class == Class::PerpetualOpening) as u64;
            t.4 += o.margin.0 as i64;
        }
    }
    t
}

/// One South choice against every North choice, both `sequential` outcomes, all cores, each
/// run from a cold start (no perpetual cycle shared from an earlier run).
fn one_south(bencher: divan::Bencher, south: u32, expect: (u64, u64, u64, u64, u64, i64)) {
    one_south_under(bencher, "sequential", south, expect)
}

/// [`one_south`] under the race model `model`.
fn one_south_under(bencher: divan::Bencher, model: &str, south: u32, expect: (u64, u64, u64, u64, u64, i64)) {
    let north = all_choices();
    bencher.counter(divan::counter::ItemsCount::new(2 * north.len())).with_inputs(ProvenCycles::new).bench_values(
        |proven| {
            let a = sweep(&RULES, &proven, model.parse::<Races>().unwrap(), &[south], north, &|_| {});
            let a = &a[0];
            assert_eq!((a.games, a.wins, a.draws, a.losses, a.perpetual_openings, a.sum_margin.0), expect);
            proven
        },
    );
}

/// South keeps every seed (choice 0): he sows nothing, so both outcomes of most pairs leave
/// the same opening and share one game (the easy case).
#[divan::bench(sample_count = 3)]
fn one_south_vs_all_sequential(bencher: divan::Bencher) {
    one_south(bencher, 0, (12_713_984, 5_864_714, 469_996, 6_379_274, 0, -36_273_940));
}

/// A typical South choice (`2,1,1,3,3,0,2,3 3@1`, 87 perpetual openings).
#[divan::bench(sample_count = 3)]
fn one_south_3456789_vs_all_sequential(bencher: divan::Bencher) {
    one_south(bencher, 3_456_789, (12_713_984, 6_852_862, 490_157, 5_370_965, 87, 76_530_056));
}

/// The typical South choice under `lockstep`: both outcomes' openings share their ticks up to
/// the first stop (`lockstep_both`; 244 perpetual openings).
#[divan::bench(sample_count = 3)]
fn one_south_3456789_vs_all_lockstep(bencher: divan::Bencher) {
    one_south_under(bencher, "lockstep", 3_456_789, (12_713_984, 6_418_061, 482_695, 5_813_228, 244, 27_977_036));
}

/// A South choice rich in perpetual openings (2,948: the sample's rate is about 2,200 per
/// South choice on average).
#[divan::bench(sample_count = 3)]
fn one_south_1234567_vs_all_sequential(bencher: divan::Bencher) {
    one_south(bencher, 1_234_567, (12_713_984, 5_797_106, 505_819, 6_411_059, 2_948, -33_765_610));
}

/// The five slowest South choices found: the 3,002 South choices of a random sample (seed 45,
/// with 1234567 and 3456789) ranked by perpetual openings against 14,978 random North choices,
/// the eight richest then timed against all North choices. Each proves 20,000–32,000 perpetual
/// cycles in a sweep (the typical choice 56, 1234567 1,323), so walking their laps is most of
/// its time.
const SLOWEST: [(u32, Aggregate); 5] = [
    (2_241_315, (12_713_984, 5_402_214, 522_156, 6_789_614, 57_842, -74_267_378)),
    (1_467_385, (12_713_984, 5_866_536, 550_510, 6_296_938, 74_501, -24_686_750)),
    (4_370_483, (12_713_984, 5_629_453, 572_088, 6_512_443, 68_023, -33_105_650)),
    (3_001_468, (12_713_984, 5_375_442, 510_943, 6_827_599, 47_629, -73_272_706)),
    (4_132_901, (12_713_984, 6_566_015, 527_445, 5_620_524, 46_056, 48_216_954)),
];

/// A one-South sweep's games, South wins, draws, losses, perpetual openings and margin sum
/// (half-seeds).
type Aggregate = (u64, u64, u64, u64, u64, i64);

/// One of the [`SLOWEST`] South choices against all North choices.
#[divan::bench(args = [2_241_315, 1_467_385, 4_370_483, 3_001_468, 4_132_901], sample_count = 2)]
fn one_slow_south_vs_all_sequential(bencher: divan::Bencher, south: u32) {
    let expect = SLOWEST.iter().find(|(s, _)| *s == south).expect("a choice of SLOWEST").1;
    one_south(bencher, south, expect);
}

/// 200,000 normal pairs (400,000 games), one core.
#[divan::bench(sample_count = 5)]
fn normal_games_one_core(bencher: divan::Bencher) {
    let (normal, _) = sample_pairs();
    bencher.counter(divan::counter::ItemsCount::new(2 * normal.len())).with_inputs(ProvenCycles::new).bench_values(
        |proven| {
            assert_eq!(play_all(&proven, normal), EXPECT_NORMAL);
            proven
        },
    );
}

/// The same 400,000 games, the games after the openings played by `play_batch` (AVX-512
/// lanes where the CPU has them), one core: what the sweep does.
#[divan::bench(sample_count = 5)]
fn normal_games_one_core_batched(bencher: divan::Bencher) {
    let (normal, _) = sample_pairs();
    bencher.counter(divan::counter::ItemsCount::new(2 * normal.len())).with_inputs(ProvenCycles::new).bench_values(
        |proven| {
            let mut starts = Vec::with_capacity(1024);
            let mut outs = Vec::with_capacity(1024);
            let mut t = (0, 0, 0, 0, 0);
            for batch in normal.chunks(512) {
                starts.clear();
                for (s, n) in batch {
                    for r in [Race::SouthFirst, Race::NorthFirst] {
                        let o = opening(&RULES, &proven, s, n, r);
                        assert!(!o.perpetual);
                        starts.push(Position { board: o.board, to_move: o.first_player });
                    }
                }
                outs.resize(
                    starts.len(),
                    GameOutcome::new(Side::South, [mancala::games::lukho::HalfSeeds(0); 2], Class::Normal, 0),
                );
                play_batch(&RULES, &proven, &starts, &mut outs);
                for o in &outs {
                    t.0 += 1;
                    t.1 += (o.margin.0 > 0) as u64;
                    t.2 += (o.margin.0 == 0) as u64;
                    t.4 += o.margin.0 as i64;
                }
            }
            assert_eq!(t, EXPECT_NORMAL);
            proven
        },
    );
}

const EXPECT_NORMAL: (u64, u64, u64, u64, i64) = (400_000, 192_195, 15_096, 0, -31_004);

/// Every pair of the first 1,000,000 with a perpetual opening (both outcomes), one core.
#[divan::bench(sample_count = 3)]
fn perpetual_games_one_core(bencher: divan::Bencher) {
    let (_, perpetual) = sample_pairs();
    bencher.counter(divan::counter::ItemsCount::new(2 * perpetual.len())).with_inputs(ProvenCycles::new).bench_values(
        |proven| {
            assert_eq!(play_all(&proven, perpetual), EXPECT_PERPETUAL);
            proven
        },
    );
}

const EXPECT_PERPETUAL: (u64, u64, u64, u64, i64) = (592, 175, 233, 310, -202);
