//! Many games at once: [`play_batch`] plays a batch of positions to the end, exactly as
//! [`play_from`] plays each, four games side by side in the 128-bit lanes of AVX-512
//! registers when the CPU has them ([`Engine`]; `MANCALA_NO_SIMD=1` forces the scalar path).
//!
//! Why: the scalar game loop spends most of its time on branches it cannot predict (does this
//! lap relay? does it capture?), one per lap. Here every lap of the four games is the same
//! straight-line code; each decision becomes a mask that selects which lanes an instruction
//! changes, so no lap ever mispredicts. Each lane's board is the scalar engine's `u128` (byte
//! `p` = pit `p`), the side to move, the knives and the lane's run masks are 16-bit fields of
//! 64-bit masks (bit `16 l + p` = pit `p` of lane `l`).
//!
//! What the lanes leave to [`play_from`]: a game that reaches [`CYCLE_CHECK_AFTER_TURNS`] turns (cycle
//! finding starts there) or a sowing of [`LONG_SOWING`] laps (it may be perpetual) is played
//! again from its start by the scalar engine, which is then the only judge of cycles and
//! perpetual sowings. Both are rare (0.2 % of the games of a typical sweep reach 32 turns).
//! So a lane only ever ends a game by rule "no pit to lift": class `normal`.

use super::game::{play_from, GameOutcome, Position, CYCLE_CHECK_AFTER_TURNS};
use super::perpetual::ProvenCycles;
use super::Rules;
use std::sync::OnceLock;

/// Laps in one sowing after which the lanes hand the game to the scalar engine.
pub const LONG_SOWING: u8 = 32;

/// The environment variable that forces the scalar path: `MANCALA_NO_SIMD=1` (any value but
/// empty or `0`) makes [`play_batch`] play one game at a time even where the CPU has the
/// lanes, e.g. to time the two paths or to rule the lanes out when chasing a difference.
pub const NO_SIMD_VAR: &str = "MANCALA_NO_SIMD";

/// Which code plays a batch: the AVX-512 lanes or the scalar game loop, one game at a time.
/// Both give the same outcomes. A value naming the lanes exists only where the CPU has them
/// ([`Engine::lanes`]), so [`Engine::play`] never runs instructions the CPU lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    lanes: bool,
}

impl Engine {
    /// One game at a time ([`play_from`]): every CPU.
    pub const SCALAR: Engine = Engine { lanes: false };

    /// The AVX-512 lanes, if this CPU has them.
    pub fn lanes() -> Option<Engine> {
        simd_available().then_some(Engine { lanes: true })
    }

    /// The lanes where the CPU has them, unless `no_simd` (the value of [`NO_SIMD_VAR`])
    /// forces the scalar path.
    pub fn choose(no_simd: Option<&std::ffi::OsStr>) -> Engine {
        let forced = no_simd.is_some_and(|v| !v.is_empty() && v != "0");
        match forced {
            true => Engine::SCALAR,
            false => Engine::lanes().unwrap_or(Engine::SCALAR),
        }
    }

    /// This process's engine: [`Engine::choose`] with the environment's [`NO_SIMD_VAR`], read
    /// once (a configuration flag, fixed for the run) so that a batch costs no lookup.
    pub fn configured() -> Engine {
        static CONFIGURED: OnceLock<Engine> = OnceLock::new();
        *CONFIGURED.get_or_init(|| Engine::choose(std::env::var_os(NO_SIMD_VAR).as_deref()))
    }

    /// Whether this engine runs the AVX-512 lanes.
    pub fn uses_lanes(self) -> bool {
        self.lanes
    }

    /// Play every position of `starts` to the end: `out[i]` = [`play_from`]`(rules, proven, starts[i])`.
    pub fn play(self, rules: &Rules, proven: &ProvenCycles, starts: &[Position], out: &mut [GameOutcome]) {
        assert_eq!(starts.len(), out.len());
        #[cfg(target_arch = "x86_64")]
        if self.lanes {
            // SAFETY: `lanes` is true only in a value made by `Engine::lanes`, which checked
            // that the CPU has every feature `avx512::play` is compiled for.
            unsafe { avx512::play(rules, proven, starts, out) };
            return;
        }
        play_batch_scalar(rules, proven, starts, out);
    }
}

/// Play every position of `starts` to the end: `out[i]` = [`play_from`]`(rules, proven, starts[i])`,
/// on this process's engine ([`Engine::configured`]).
pub fn play_batch(rules: &Rules, proven: &ProvenCycles, starts: &[Position], out: &mut [GameOutcome]) {
    Engine::configured().play(rules, proven, starts, out);
}

/// [`play_batch`] one game at a time (the reference, and the path on other CPUs).
pub fn play_batch_scalar(rules: &Rules, proven: &ProvenCycles, starts: &[Position], out: &mut [GameOutcome]) {
    assert_eq!(starts.len(), out.len());
    for (o, &s) in out.iter_mut().zip(starts) {
        *o = play_from(rules, proven, s);
    }
}

/// Whether this CPU has what the AVX-512 lanes need (AVX-512 F, BW, DQ and BMI2).
pub fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::board::Board;
    use super::super::game::{Class, GameOutcome, Position};
    use super::super::{Chain, Rules};
    use super::{play_from, ProvenCycles, CYCLE_CHECK_AFTER_TURNS, LONG_SOWING};
    use crate::side::Side;
    use std::arch::x86_64::*;

    /// Bit 0 of each lane's 16-bit field.
    const FIELD_LOW: u64 = 0x0001_0001_0001_0001;
    /// South's row (pits 0..7) in every lane.
    const SOUTH_ROW: u64 = 0x00ff_00ff_00ff_00ff;

    /// All 16 bits of lane `l`.
    #[inline(always)]
    fn lane(l: usize) -> u64 {
        0xffff << (16 * l)
    }

    /// The sum of each lane's 16 bytes (below 256), in all 16 of its bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    fn lane_sum(x: __m512i) -> __m512i {
        let s = _mm512_sad_epu8(x, _mm512_setzero_si512());
        let s = _mm512_add_epi64(s, _mm512_bsrli_epi128::<8>(s));
        _mm512_shuffle_epi8(s, _mm512_setzero_si512())
    }

    /// The per-lane state, and where each lane's game came from.
    #[derive(Clone, Copy)]
    struct Lanes {
        /// Pits, byte `16 l + p`.
        pits: __m512i,
        /// The current pit (the one just lifted or sown into) and the hand, in every byte of
        /// the lane.
        pos: __m512i,
        hand: __m512i,
        /// Completed turns, and laps of the current sowing, in every byte of the lane.
        turns: __m512i,
        laps: __m512i,
        /// The stores of South and North: the position's in each lane's low half, plus the
        /// seeds captured since in both halves (`vpsadbw` sums each 64-bit half).
        caught: [__m512i; 2],
        /// Knives of South and North, and the side to move (all 16 bits of a lane set when
        /// South is to move).
        knives: [u64; 2],
        south_moves: u64,
        /// Lanes playing a game, and lanes about to lift (the start of a turn).
        active: u64,
        start: u64,
        /// Index in the batch of each lane's game.
        game: [usize; 4],
    }

    /// Play every position of `starts` to the end, four games to a register.
    ///
    /// # Safety
    ///
    /// Compiled for AVX-512 F, BW, DQ and BMI2: it may only run on a CPU that has all four
    /// ([`super::simd_available`]). The compiler makes every caller not compiled for them
    /// call it inside `unsafe`; nothing else is required.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    pub(super) fn play(rules: &Rules, proven: &ProvenCycles, starts: &[Position], out: &mut [GameOutcome]) {
        match rules.chain {
            Chain::It => run::<0>(rules, proven, starts, out),
            Chain::En => run::<1>(rules, proven, starts, out),
            Chain::None => run::<2>(rules, proven, starts, out),
        }
    }

    /// Put game `g` into lane `l`.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    fn load(s: &mut Lanes, l: usize, g: usize, p: &Position) {
        let f = lane(l);
        let k16: __mmask16 = 0xf << (4 * l);
        let pits = _mm_set_epi64x((p.board.pits >> 64) as i64, p.board.pits as i64);
        s.pits = _mm512_mask_broadcast_i32x4(s.pits, k16, pits);
        let z = _mm512_setzero_si512();
        s.pos = _mm512_mask_mov_epi8(s.pos, f, z);
        s.hand = _mm512_mask_mov_epi8(s.hand, f, z);
        s.turns = _mm512_mask_mov_epi8(s.turns, f, z);
        s.laps = _mm512_mask_mov_epi8(s.laps, f, z);
        let k8: __mmask8 = 0b11 << (2 * l);
        // The stores so far go in the low half; the captures of the lanes are added to both.
        for (caught, &st) in s.caught.iter_mut().zip(&p.board.stores) {
            *caught = _mm512_mask_mov_epi64(*caught, k8, _mm512_maskz_set1_epi64(0x55, st as i64));
        }
        for side in 0..2 {
            s.knives[side] = (s.knives[side] & !f) | ((p.board.knives >> (16 * side)) as u64 & 0xffff) << (16 * l);
        }
        s.south_moves = (s.south_moves & !f) | if p.to_move == Side::South { f } else { 0 };
        s.active |= f;
        s.start |= f;
        s.game[l] = g;
    }

    /// Take lane `l` out of play (no game left to put in).
    fn retire(s: &mut Lanes, l: usize) {
        let f = lane(l);
        s.active &= !f;
        s.start &= !f;
    }

    /// The outcome of lane `l`'s game: its mover has no pit to lift.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    fn finish(s: &Lanes, l: usize, first: Side) -> GameOutcome {
        let bytes = to_bytes(s.pits);
        let caught = s.caught.map(|v| {
            let b = to_bytes(v);
            std::array::from_fn::<u64, 8, _>(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
        });
        let turns = to_bytes(s.turns);
        let pits = u128::from_le_bytes(bytes[16 * l..16 * l + 16].try_into().unwrap());
        let knives = ((s.knives[0] >> (16 * l)) & 0xffff) as u32 | (((s.knives[1] >> (16 * l)) & 0xffff) as u32) << 16;
        let stores = [(caught[0][2 * l] + caught[0][2 * l + 1]) as u8, (caught[1][2 * l] + caught[1][2 * l + 1]) as u8];
        let board = Board { pits, knives, stores };
        let mover = if s.south_moves & lane(l) != 0 { Side::South } else { Side::North };
        GameOutcome::new(first, board.sweep_totals(mover), Class::Normal, turns[16 * l] as u32)
    }

    /// The 64 bytes of a register.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    fn to_bytes(v: __m512i) -> [u8; 64] {
        let mut bytes = [0u8; 64];
        // SAFETY: an unaligned store of 64 bytes into a 64-byte array.
        unsafe { _mm512_storeu_si512(bytes.as_mut_ptr() as *mut __m512i, v) };
        bytes
    }

    /// Constant vectors of the lap code.
    struct Consts {
        iota: __m512i,
        /// `iota` + 1 and − 1.
        iota1: __m512i,
        iota_1: __m512i,
        rev: __m512i,
    }

    /// Groups of four lanes stepped side by side: one group's lap is a chain of dependent
    /// instructions, and the other groups' laps fill the core while it waits.
    const GROUPS: usize = 2;

    /// The lanes' loop for chain rule `CHAIN` (0 it, 1 en, 2 none).
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    fn run<const CHAIN: u8>(rules: &Rules, proven: &ProvenCycles, starts: &[Position], out: &mut [GameOutcome]) {
        let z = _mm512_setzero_si512();
        let blank = Lanes {
            pits: z,
            pos: z,
            hand: z,
            turns: z,
            laps: z,
            caught: [z, z],
            knives: [0, 0],
            south_moves: 0,
            active: 0,
            start: 0,
            game: [0; 4],
        };
        let mut groups = [blank; GROUPS];
        let mut next = 0;
        for s in groups.iter_mut() {
            for l in 0..4 {
                if next < starts.len() {
                    load(s, l, next, &starts[next]);
                    next += 1;
                }
            }
        }
        let iota = _mm512_set_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        );
        let one = _mm512_set1_epi8(1);
        let c = Consts {
            iota,
            iota1: _mm512_add_epi8(iota, one),
            iota_1: _mm512_sub_epi8(iota, one),
            rev: _mm512_sub_epi8(_mm512_set1_epi8(15), iota),
        };
        while groups.iter().any(|s| s.active != 0) {
            let mut events = [(0u64, 0u64); GROUPS];
            for (e, s) in events.iter_mut().zip(groups.iter_mut()) {
                *e = step::<CHAIN>(s, &c);
            }
            for ((events, stuck), s) in events.into_iter().zip(groups.iter_mut()) {
                if events == 0 {
                    continue;
                }
                for l in 0..4 {
                    if events & (1 << l) == 0 {
                        continue;
                    }
                    let g = s.game[l];
                    out[g] = if stuck & lane(l) != 0 {
                        finish(s, l, starts[g].to_move)
                    } else {
                        play_from(rules, proven, starts[g])
                    };
                    if next < starts.len() {
                        load(s, l, next, &starts[next]);
                        next += 1;
                    } else {
                        retire(s, l);
                    }
                }
            }
        }
    }

    /// One lap in every lane of a group (after a lift in the lanes at the start of a turn).
    /// Returns the lanes (4-bit mask) whose game is over or goes to the scalar engine, and the
    /// lanes (fields) of the first kind.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,bmi2")]
    fn step<const CHAIN: u8>(s: &mut Lanes, c: &Consts) -> (u64, u64) {
        let (iota, rev) = (c.iota, c.rev);
        let z = _mm512_setzero_si512();
        let one = _mm512_set1_epi8(1);
        // 15: the highest pit, and the mask of a byte's low 4 bits (pit numbers are mod 16).
        let fifteen = _mm512_set1_epi8(15);
        let pits = s.pits;
        let knives = s.knives[0] | s.knives[1];
        let own = (s.south_moves & SOUTH_ROW) | (!s.south_moves & !SOUTH_ROW);

        // 1. Lanes at the start of a turn lift their lowest non-empty non-knife own pit.
        let nonempty = _mm512_test_epi8_mask(pits, pits);
        // The movable pits as 0xff bytes lie in one 64-bit half (the mover's row), so the
        // lowest is `x & -x` on 64-bit elements: 0x01 in its byte, and no lane-crossing carry.
        let movable = _mm512_maskz_mov_epi8(nonempty & !knives & own & s.start, _mm512_set1_epi8(-1));
        let lowest = _mm512_and_si512(movable, _mm512_sub_epi64(z, movable));
        let lift = _mm512_test_epi8_mask(lowest, lowest);
        // Pit + 1 of the lift, 0 where nothing is lifted: that lane's game is over if it was
        // at the start of a turn.
        let lift_at = lane_sum(_mm512_maskz_mov_epi8(lift, c.iota1));
        let stuck = s.start & _mm512_testn_epi8_mask(lift_at, lift_at);
        let new_pos = _mm512_sub_epi8(lift_at, one);
        let new_hand = _mm512_shuffle_epi8(pits, new_pos);
        let pits = _mm512_maskz_mov_epi8(!lift, pits);
        let pos = _mm512_mask_mov_epi8(s.pos, s.start, new_pos);
        let hand = _mm512_mask_mov_epi8(s.hand, s.start, new_hand);
        let laps = _mm512_maskz_mov_epi8(!s.start, s.laps);
        let live = s.active & !stuck;

        // 2. One lap in every live lane: `hand` seeds into the pits after `pos`.
        let d = _mm512_and_si512(_mm512_sub_epi8(c.iota_1, pos), fifteen);
        let full = _mm512_and_si512(_mm512_srli_epi16::<4>(hand), fifteen);
        let rest = _mm512_and_si512(hand, fifteen);
        let run = _mm512_cmplt_epu8_mask(d, rest) & live;
        let pits = _mm512_mask_add_epi8(pits, live, pits, full);
        let pits = _mm512_mask_add_epi8(pits, run, pits, one);
        let pos = _mm512_and_si512(_mm512_add_epi8(pos, hand), fifteen);
        let here = _mm512_cmpeq_epi8_mask(iota, pos);
        let now = _mm512_shuffle_epi8(pits, pos);
        let knife_v = _mm512_maskz_mov_epi8(knives, _mm512_set1_epi8(-1));
        let at_knife = _mm512_test_epi8_mask(_mm512_shuffle_epi8(knife_v, pos), one);
        // Rule 3 (normal turns): not a knife and at least 3 now.
        let relay = _mm512_cmpge_epu8_mask(now, _mm512_set1_epi8(3)) & !at_knife & live;
        let pits = _mm512_mask_mov_epi8(pits, here & relay, z);
        let hand = _mm512_mask_mov_epi8(hand, relay, now);
        let laps = _mm512_mask_add_epi8(laps, relay, laps, one);
        let stop = live & !relay;

        // 3. The lanes whose lap stops. Rule 2: held 1, now 2: the mover's new knife.
        let new_knife = _mm512_cmpeq_epi8_mask(now, _mm512_set1_epi8(2)) & !at_knife & stop & here;
        s.knives[0] |= new_knife & s.south_moves;
        s.knives[1] |= new_knife & !s.south_moves;
        // Rule 4: was empty (now 1), in the mover's row, facing a non-empty non-knife pit.
        let opp_pos = _mm512_sub_epi8(fifteen, pos);
        let opp_here = _mm512_cmpeq_epi8_mask(iota, opp_pos);
        let takeable = _mm512_test_epi8_mask(pits, pits) & !knives;
        let low = _mm512_cmplt_epu8_mask(pos, _mm512_set1_epi8(8));
        let in_own_row = !(low ^ s.south_moves);
        let opp_seeds = _mm512_shuffle_epi8(pits, opp_pos);
        let opp_knife = _mm512_shuffle_epi8(knife_v, opp_pos);
        let opp_ok = _mm512_test_epi8_mask(opp_seeds, opp_seeds) & _mm512_testn_epi8_mask(opp_knife, opp_knife);
        let capture = _mm512_cmpeq_epi8_mask(now, one) & !at_knife & in_own_row & opp_ok & stop;
        let taken = match CHAIN {
            0 => {
                // Own pits after `pos` in the row, while empty, not a knife, and facing a
                // takeable pit: a run of set bits from `pos + 1`. Adding its lowest bit
                // clears the run and carries just past it; no carry reaches the next
                // field's bit 0 (never in a window: the window is above `pos`).
                let facing = _mm512_movepi8_mask(_mm512_shuffle_epi8(
                    _mm512_maskz_mov_epi8(takeable, _mm512_set1_epi8(-1)),
                    rev,
                ));
                let above = _mm512_cmpgt_epu8_mask(iota, pos);
                let f = !_mm512_test_epi8_mask(pits, pits) & !knives & facing & own & above;
                let first = (here & capture) << 1;
                let chain = ((f.wrapping_add(first)) ^ f) & f;
                let chain_opp =
                    _mm512_movepi8_mask(_mm512_shuffle_epi8(_mm512_maskz_mov_epi8(chain, _mm512_set1_epi8(-1)), rev));
                ((here | opp_here) & capture) | chain_opp
            }
            1 => {
                // Opponent pits after the one taken, in his row, while takeable.
                let above = _mm512_cmpgt_epu8_mask(iota, opp_pos);
                let f = takeable & !own & above;
                let first = (opp_here & capture) << 1;
                let chain = ((f.wrapping_add(first)) ^ f) & f;
                ((here | opp_here) & capture) | chain
            }
            _ => (here | opp_here) & capture,
        };
        let got = _mm512_sad_epu8(_mm512_maskz_mov_epi8(taken, pits), z);
        let south8 = _pext_u64(s.south_moves, 0x0101_0101_0101_0101) as __mmask8;
        s.caught[0] = _mm512_mask_add_epi64(s.caught[0], south8, s.caught[0], got);
        s.caught[1] = _mm512_mask_add_epi64(s.caught[1], !south8, s.caught[1], got);
        let pits = _mm512_maskz_mov_epi8(!taken, pits);

        // 4. The turn is over in the stopped lanes: the other side moves next.
        s.south_moves ^= stop;
        let turns = _mm512_mask_add_epi8(s.turns, stop, s.turns, one);
        s.pits = pits;
        s.pos = pos;
        s.hand = hand;
        s.laps = laps;
        s.turns = turns;
        s.start = stop;

        // 5. Lanes whose game is over (stuck), or that leave it to the scalar engine.
        let long = _mm512_cmpge_epu8_mask(laps, _mm512_set1_epi8(LONG_SOWING as i8)) & relay;
        let late = _mm512_cmpge_epu8_mask(turns, _mm512_set1_epi8(CYCLE_CHECK_AFTER_TURNS as i8)) & stop;
        (_pext_u64(stuck | long | late, FIELD_LOW), stuck)
    }
}
