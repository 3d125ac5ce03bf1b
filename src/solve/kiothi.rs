//! Solving Kiothi positions (turn >= 3) with the shared alpha-beta (`search`): Kiothi as a
//! [`SearchGame`], move ordering for partial lifts, a cache of expensive expansions (K7), an
//! optional endgame-table probe, and when alpha-beta alone cannot close the interval the
//! exact component retrograde (`search::component`), as for Oware.
//!
//! Values are net warriors of those on the board, from the mover's view (docs/rules/kiothi.md "Common
//! conventions"): K8 (no legal move) is `-n` for the mover with `n` warriors on the board; a
//! repetition (K9, `split`) is 0.
//!
//! Redistribution turns (1 and 2) are not searched: a turn-1 position has 3·10^8 moves and
//! two plies 5.5·10^17 ([`solve`] refuses them with [`SolveError::Redistribution`]); the
//! openings analysis (`openings`) samples them instead.

pub use super::pipeline::Method;
use super::pipeline::{self, Plan, Solvable};
use crate::games::kiothi::{self, Illegal, Position, Rules, SowMove, SowingCache, ROW};
use crate::retro::kiothi::Database;
use crate::search::{Child, Limits, Observer, SearchGame};
use crate::side::Side;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// An endgame-table probe: the exact value (mover's view, net of the board) of a position it
/// covers. `retro::kiothi` tables plug in here (`--db`).
pub type Probe<'p> = &'p dyn Fn(&Position) -> Option<i32>;

/// Expansions whose sowings took more relays than this (or met a perpetual sowing) are kept.
pub const COSTLY_RELAYS: u64 = 256;
/// At most this many expensive expansions are kept (the cache then stops growing).
pub const COSTLY_CAP: usize = 1 << 18;

/// What the search's move generation met (counts of this searcher only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExpandStats {
    /// Positions expanded (moves generated), cache hits included.
    pub expansions: u64,
    /// Expansions served by the cache of expensive expansions.
    pub cache_hits: u64,
    /// Positions whose expansion met a perpetual sowing or a sowing of over
    /// [`COSTLY_RELAYS`] relays (each counted once: later visits hit the cache).
    pub costly_positions: u64,
    /// Perpetual sowings (K7) rejected while generating (cache hits not counted again).
    pub perpetual_moves: u64,
    /// Legal sowings of over [`kiothi::LONG_SOWING_RELAYS`] relays generated (same).
    pub long_moves: u64,
}

/// The moves of one position as the search sees them.
type Children = Rc<[Child<Position, SowMove>]>;

/// Kiothi as a search game: rules, an optional table probe, and the expansion cache.
pub struct KiothiSearch<'p> {
    pub rules: Rules,
    pub sowing: &'p SowingCache,
    probe: Option<Probe<'p>>,
    costly: RefCell<HashMap<u64, Children>>,
    stats: Cell<ExpandStats>,
    /// The last expansion met a sowing stopped at the search's deadline.
    stopped: Cell<bool>,
}

impl<'p> KiothiSearch<'p> {
    pub fn new(rules: Rules, sowing: &'p SowingCache, probe: Option<Probe<'p>>) -> Self {
        KiothiSearch {
            rules,
            sowing,
            probe,
            costly: RefCell::new(HashMap::new()),
            stats: Cell::new(ExpandStats::default()),
            stopped: Cell::new(false),
        }
    }

    pub fn stats(&self) -> ExpandStats {
        self.stats.get()
    }

    /// The legal moves in search order: captures (bigger first, so the K6 triple bonus leads),
    /// then full lifts before partial ones (emptying a boma is the move that changes the
    /// board most and leaves nothing behind to be captured), larger lifts first, lower boma
    /// first. Returns whether the generation was expensive (see [`COSTLY_RELAYS`]). A sowing
    /// stopped at the deadline ends it early with `stopped` set (the list is then incomplete).
    fn generate(&self, pos: &Position, out: &mut Vec<Child<Position, SowMove>>) -> bool {
        let base = pos.own_base();
        let mut costly = false;
        let mut st = self.stats.get();
        for b in 0..ROW as u8 {
            let held = pos.boma[base + b as usize];
            for lift in (1..=held).rev() {
                match pos.sow(&self.rules, self.sowing, SowMove { boma: b, lift }) {
                    Ok(c) => {
                        if c.relays > COSTLY_RELAYS {
                            costly = true;
                        }
                        if c.relays > kiothi::LONG_SOWING_RELAYS {
                            st.long_moves += 1;
                        }
                        out.push(Child { mv: c.mv, gain: c.captured as i32, child: c.position });
                    }
                    Err(Illegal::Perpetual) | Err(Illegal::RelayLimit { .. }) => {
                        costly = true;
                        st.perpetual_moves += 1;
                    }
                    Err(Illegal::Stopped) => {
                        self.stats.set(st);
                        self.stopped.set(true);
                        return true;
                    }
                    Err(_) => {}
                }
            }
        }
        self.stats.set(st);
        // Stable: within a class the generation order (boma ascending, lifts descending).
        out.sort_by_key(|c| (-c.gain, c.mv.lift != pos.boma[base + c.mv.boma as usize]));
        costly
    }
}

/// A 64-bit key of (boma, nki, side to move). The state itself is 181 bits (20 bytes, 20 flags,
/// a side), so the key is a hash: two different positions share a key with probability about
/// 2^-64 per comparison (some 10^-10 over a billion-node search).
pub fn position_key(pos: &Position) -> u64 {
    let mut bytes = [0u8; 24];
    bytes[..20].copy_from_slice(&pos.boma);
    let w = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap());
    let tail = w(2) | (pos.nki as u64) << 32 | (pos.to_move.index() as u64) << 52;
    mix(w(0) ^ mix(w(1) ^ mix(tail ^ 0x5851_f42d_4c95_7f2d)))
}

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SearchGame for KiothiSearch<'_> {
    type Pos = Position;
    type Move = SowMove;

    fn key(&self, pos: &Position) -> u64 {
        position_key(pos)
    }
    fn bound(&self, pos: &Position) -> i32 {
        pos.warriors_on_board() as i32
    }
    fn probe(&self, pos: &Position) -> Option<i32> {
        self.probe.and_then(|p| p(pos))
    }
    fn expand(&self, pos: &Position, out: &mut Vec<Child<Position, SowMove>>) -> Option<i32> {
        out.clear();
        self.stopped.set(false);
        let mut st = self.stats.get();
        st.expansions += 1;
        self.stats.set(st);
        let key = position_key(pos);
        let hit = match self.costly.borrow().get(&key) {
            Some(kids) => {
                out.extend_from_slice(kids);
                true
            }
            None => false,
        };
        if hit {
            let mut st = self.stats.get();
            st.cache_hits += 1;
            self.stats.set(st);
        } else if self.generate(pos, out) && !self.stopped.get() {
            let mut st = self.stats.get();
            st.costly_positions += 1;
            self.stats.set(st);
            let mut cache = self.costly.borrow_mut();
            if cache.len() < COSTLY_CAP {
                cache.insert(key, out.as_slice().into());
            }
        }
        // K8: no legal move, the other player takes every warrior on the board.
        out.is_empty().then(|| -(pos.warriors_on_board() as i32))
    }
    /// An ordering hint only (the table's best-move slot): distinct for lifts below 25.
    fn move_code(&self, mv: &SowMove) -> u8 {
        mv.boma * 25 + (mv.lift - 1) % 25
    }
    /// One sowing can relay billions of times (K7): the sowings stop at the deadline too.
    fn stop_at(&self, deadline: Option<std::time::Instant>) {
        self.sowing.stop_at(deadline);
    }
    fn stopped(&self) -> bool {
        self.stopped.get()
    }
}

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("turn {turn} is a redistribution turn (3·10^8 moves and more); search starts at turn >= 3 (sample openings with `kiothi openings --sample`)")]
    Redistribution { turn: u32 },
    #[error("{warriors} warriors on the board; search handles at most 127")]
    TooManyWarriors { warriors: u32 },
}

/// The answer of `kiothi solve`: moves ascending (boma, lift), with the search's expansion
/// counts.
pub type Solution = pipeline::Solution<SowMove, ExpandStats>;

/// Alpha-beta nodes before the exact mode tries the component retrograde.
pub const SEARCH_BUDGET: u64 = 4_000_000;
/// Largest component the exact mode builds (about 100 bytes a position).
pub const MAX_COMPONENT: usize = 2_000_000;
/// Largest transposition table (2^bits entries of 16 bytes: 64 MiB).
pub const TABLE_BITS: u32 = 22;

/// Table size for a position: small boards get small tables (allocating 64 MiB costs some
/// 40 ms, more than solving a 4-warrior position).
pub fn table_bits(pos: &Position) -> u32 {
    (12 + 2 * pos.warriors_on_board()).min(TABLE_BITS)
}

/// Check that a position can be searched.
pub fn check(pos: &Position) -> Result<(), SolveError> {
    if pos.is_redistribution() {
        return Err(SolveError::Redistribution { turn: pos.turn });
    }
    let w = pos.warriors_on_board();
    if w > i8::MAX as u32 {
        return Err(SolveError::TooManyWarriors { warriors: w });
    }
    Ok(())
}

/// The answer as `kiothi solve --json` prints it (and the Python bindings return it): final
/// score and winner when exact, value (null unless exact), bounds, best moves, PV, each
/// move's bounds, method, nodes, time, and the sowing counts of the search and of `sow`'s cache.
pub fn answer_json(rules: &Rules, p: &Position, s: &Solution, sow: &kiothi::SowingStats) -> serde_json::Value {
    use serde_json::json;
    let exact = s.bounds.is_exact();
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    let names = |v: &[SowMove]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let score = exact.then(|| p.final_totals(s.bounds.lo));
    let winner = score.map(|t| Side::ahead(t).map(|w| w.name()).unwrap_or("draw"));
    json!({
        "rules": rules.to_json(),
        "position": p.to_json(),
        "score": score,
        "winner": winner,
        "value": if exact { json!(s.bounds.lo) } else { serde_json::Value::Null },
        "exact": exact,
        "lower": s.bounds.lo,
        "upper": s.bounds.hi,
        "best_moves": names(&s.best_moves),
        "pv": names(&s.pv),
        "method": s.method.name(),
        "depth": s.depth,
        "nodes": s.nodes,
        "seconds": s.seconds,
        "nodes_per_second": nps.round(),
        "moves": s.moves.iter().map(|(m, b)| json!({"move": m.to_string(), "lower": b.lo, "upper": b.hi})).collect::<Vec<_>>(),
        "sowings": {
            "perpetual_rejected": s.game_stats.perpetual_moves,
            "long_legal": s.game_stats.long_moves,
            "costly_positions": s.game_stats.costly_positions,
            "expansions": s.game_stats.expansions,
            "expansion_cache_hits": s.game_stats.cache_hits,
            "long_threshold_relays": kiothi::LONG_SOWING_RELAYS,
            "long_simulated": sow.long_simulated,
            "relays_in_long": sow.relays_in_long,
            "max_relays_simulated": sow.max_relays_simulated,
            "distinguished_point_hits": sow.dp_hits,
        },
    })
}

/// Solve a position (turn >= 3). With a depth, time or node limit only alpha-beta runs and
/// the answer may be bounds; without limits the answer is exact: alpha-beta with a budget,
/// then the component retrograde, then (if the component is too big) alpha-beta without
/// limit.
pub fn solve(
    rules: Rules,
    sowing: &SowingCache,
    probe: Option<Probe<'_>>,
    root: &Position,
    limits: Limits,
) -> Result<Solution, SolveError> {
    solve_observed(rules, sowing, probe, root, limits, None)
}

/// [`solve`], its progress shown to `observer` (the command line's progress line).
pub fn solve_observed(
    rules: Rules,
    sowing: &SowingCache,
    probe: Option<Probe<'_>>,
    root: &Position,
    limits: Limits,
    observer: Option<Observer<'_>>,
) -> Result<Solution, SolveError> {
    check(root)?;
    let game = KiothiSearch::new(rules, sowing, probe);
    let plan = Plan {
        table_bits: table_bits(root),
        search_budget: SEARCH_BUDGET,
        max_component: MAX_COMPONENT,
        search_on_after_too_big: true,
        covered_stays_db: false,
        sort_moves: true,
        promising_by_upper: true,
    };
    let s = pipeline::solve(&game, root, limits, &plan, observer);
    Ok(s.with_game_stats(game.stats()))
}

/// [`solve`] with endgame tables probed wherever they cover the warriors on the board: the one
/// way the CLI, the web oracle and the Python bindings run a Kiothi solve, so that they cannot
/// differ in what they probe (`observer`: the CLI's progress line). Returns the sowing cache's figures beside the answer (the JSON
/// answer reports them). The caller checks `db.damage()` afterwards: a value read from a
/// damaged block reads as 0 and spoils the answer, and each caller reports that its own way.
pub fn solve_with_tables(
    rules: Rules,
    db: Option<&Database>,
    root: &Position,
    limits: Limits,
    observer: Option<Observer<'_>>,
) -> Result<(Solution, kiothi::SowingStats), SolveError> {
    let probe = |q: &Position| db.and_then(|t| t.probe_position(q));
    let sowing = SowingCache::new();
    let s = solve_observed(rules, &sowing, db.is_some().then_some(&probe as Probe<'_>), root, limits, observer)?;
    Ok((s, sowing.stats()))
}

/// The legal moves of `pos` with their children, ascending.
fn legal(rules: &Rules, sowing: &SowingCache, pos: &Position) -> Vec<kiothi::Child> {
    let mut v = Vec::new();
    pos.children(rules, sowing, &mut v);
    v
}

impl Solvable for KiothiSearch<'_> {
    /// The repetition key of the common rule (board, nki, side to move; turn >= 3 throughout).
    type RepetitionKey = ([u8; 20], u32, Side);

    fn legal(&self, pos: &Position) -> Vec<(SowMove, i32, Position)> {
        legal(&self.rules, self.sowing, pos).into_iter().map(|c| (c.mv, c.captured as i32, c.position)).collect()
    }
    fn repetition_key(&self, p: &Position) -> Self::RepetitionKey {
        (p.boma, p.nki, p.to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::horizon::horizon;

    fn pos(boma: [u8; 20], nki: u32, to_move: Side) -> Position {
        Position { boma, prisons: [0, 0], nki, to_move, turn: 5 }
    }

    /// Truncated negamax of the capture balance, no pruning, no table.
    fn balance(rules: &Rules, p: &Position, depth: u32) -> i32 {
        if depth == 0 {
            return 0;
        }
        let kids = legal(rules, &SowingCache::new(), p);
        if kids.is_empty() {
            return -(p.warriors_on_board() as i32);
        }
        kids.iter().map(|c| c.captured as i32 - balance(rules, &c.position, depth - 1)).max().unwrap()
    }

    #[test]
    fn horizon_equals_truncated_negamax() {
        let rules = Rules::default();
        let sowing = SowingCache::new();
        let game = KiothiSearch::new(rules, &sowing, None);
        let mut x = 12345u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200 {
            let mut boma = [0u8; 20];
            for _ in 0..1 + next() % 7 {
                boma[(next() % 20) as usize] += 1;
            }
            let occ = boma.iter().enumerate().fold(0u32, |m, (a, &c)| m | ((c > 0) as u32) << a);
            let p = pos(boma, occ & next() as u32, if next() % 2 == 0 { Side::South } else { Side::North });
            for d in [1, 3, 5] {
                let h = horizon(&game, &p, Limits { depth: Some(d), ..Limits::default() }, 12);
                let want = balance(&rules, &p, d);
                assert_eq!(h.value, want, "{p} depth {d}");
                for m in &h.best_moves {
                    let c = p.sow(&rules, &sowing, *m).unwrap();
                    assert_eq!(c.captured as i32 - balance(&rules, &c.position, d - 1), want, "{p} {m}");
                }
            }
        }
    }

    #[test]
    fn keys_tell_side_and_nki_apart_and_ordering_puts_captures_first() {
        let mut b = [0u8; 20];
        b[3] = 2;
        b[15] = 1;
        let p = pos(b, 0, Side::South);
        assert_ne!(position_key(&p), position_key(&Position { to_move: Side::North, ..p }));
        assert_ne!(position_key(&p), position_key(&Position { nki: 1 << 3, ..p }));
        assert_eq!(position_key(&p), position_key(&Position { turn: 40, prisons: [3, 4], ..p }));
        // S3 = 2, N5 = 1: 3:1 lands in the empty S4 and captures N5 (2); 3:2 ends in S5.
        let sowing = SowingCache::new();
        let game = KiothiSearch::new(Rules::default(), &sowing, None);
        let mut out = Vec::new();
        assert_eq!(game.expand(&p, &mut out), None);
        let order: Vec<String> = out.iter().map(|c| format!("{}/{}", c.mv, c.gain)).collect();
        assert_eq!(order, ["3:1/2", "3:2/0"]);
    }
}
