//! Move-path enumeration (`perft`): the number of legal move sequences of a given length, the
//! standard check of a move generator. Repetition (K9) is ignored; a position without a legal
//! move (K8) is a dead end that counts nothing below it.
//!
//! Redistribution turns are counted, never listed, where a count suffices: one ply at turn 1 or
//! 2 is [`Position::redistribution_count`], two plies from turn 1 is
//! [`Position::redistribution_count_two_plies`]. Deeper paths through the opening list the
//! redistributions one by one, which only small setups allow.

use super::{Child, KiothiError, Move, Position, Rules, SowingCache};

/// Above this many redistributions `divide` refuses to list them.
pub const DIVIDE_LIMIT: u128 = 1 << 20;

/// The deepest perft worth asking for: even two moves a ply make 2^100 paths, which no
/// count finishes, and the recursion's stack grows with the depth. Callers refuse more.
pub const PERFT_MAX_DEPTH: u32 = 100;

/// The number of legal move paths of `depth` plies from `pos`.
///
/// Panics if the count exceeds `u64` (two plies from a full opening do): use [`perft_u128`].
///
/// ```
/// use mancala::games::kiothi::{perft, Position, Rules, Setup, SowingCache};
/// let rules = Rules::default();
/// // Turn 1 of the default setup: 15 pairs of boma, each with C(29, 19) placements of 10.
/// assert_eq!(perft(&Position::start(Setup::S6x5), &rules, &SowingCache::new(), 1), 15 * 20_030_010);
/// ```
pub fn perft(pos: &Position, rules: &Rules, sowing: &SowingCache, depth: u32) -> u64 {
    let n = perft_u128(pos, rules, sowing, depth);
    u64::try_from(n).unwrap_or_else(|_| panic!("perft count {n} exceeds u64; use perft_u128"))
}

/// [`perft`] in `u128`. Panics if even that overflows (see [`KiothiError::CountOverflow`]).
pub fn perft_u128(pos: &Position, rules: &Rules, sowing: &SowingCache, depth: u32) -> u128 {
    count(pos, rules, sowing, depth, &mut Vec::new())
}

/// `spare`: child buffers not in use, one taken per ply on the current path and given back
/// after, so they are reused across siblings and allocated only for the plies the tree
/// reaches (not for the depth asked, which may be far beyond where every path ends).
fn count(pos: &Position, rules: &Rules, sowing: &SowingCache, depth: u32, spare: &mut Vec<Vec<Child>>) -> u128 {
    if depth == 0 {
        return 1;
    }
    if pos.is_redistribution() {
        let exact = |r: Result<u128, KiothiError>| r.unwrap_or_else(|e| panic!("perft: {e}"));
        if depth == 1 {
            return exact(pos.redistribution_count(rules));
        }
        if depth == 2 && pos.turn == 1 {
            return exact(pos.redistribution_count_two_plies(rules));
        }
        let mut n = 0u128;
        pos.for_each_redistribution(rules, |r| {
            n += count(&pos.redistribute_unchecked(r), rules, sowing, depth - 1, spare);
        });
        return n;
    }
    let mut buf = spare.pop().unwrap_or_else(|| Vec::with_capacity(64));
    pos.children(rules, sowing, &mut buf);
    let n = if depth == 1 {
        buf.len() as u128
    } else {
        buf.iter().map(|c| count(&c.position, rules, sowing, depth - 1, spare)).sum()
    };
    spare.push(buf);
    n
}

/// `perft` split by first move: each legal move with the paths of `depth - 1` plies after it,
/// in generation order. On a redistribution turn with more than [`DIVIDE_LIMIT`] moves this
/// refuses with [`KiothiError::TooManyMoves`] (count them with `perft` instead).
pub fn divide(
    pos: &Position,
    rules: &Rules,
    sowing: &SowingCache,
    depth: u32,
) -> Result<Vec<(Move, u128)>, KiothiError> {
    let depth = depth.max(1);
    let mut buffers = Vec::new();
    let mut out = Vec::new();
    if pos.is_redistribution() {
        let n = pos.redistribution_count(rules)?;
        if n > DIVIDE_LIMIT {
            return Err(KiothiError::TooManyMoves { count: n, limit: DIVIDE_LIMIT });
        }
        pos.for_each_redistribution(rules, |r| {
            out.push((
                Move::Redistribute(*r),
                count(&pos.redistribute_unchecked(r), rules, sowing, depth - 1, &mut buffers),
            ));
        });
    } else {
        let mut children = Vec::new();
        pos.children(rules, sowing, &mut children);
        for c in &children {
            out.push((Move::Sow(c.mv), count(&c.position, rules, sowing, depth - 1, &mut buffers)));
        }
    }
    Ok(out)
}
