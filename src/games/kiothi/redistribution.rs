//! K2: the opening redistributions, their exact counts and their enumeration.
//!
//! A redistribution is the pair (emptied set E, placement p): E is a set of the mover's occupied
//! boma of the allowed size, p any distribution of the `w(E)` lifted warriors over the 20 boma
//! (stars and bars: `C(w+19, 19)` ways). Two moves that give the same board are still two
//! moves, so the count at one position is simply
//!
//! ```text
//! count = Σ_E C(w(E) + 19, 19).
//! ```
//!
//! Turn 2 summed over turn 1 (the number of two-ply opening sequences) needs more care: South's
//! placement can put warriors on North's row, which changes both which North boma are occupied
//! (and so can be emptied) and how many warriors North lifts. Swap the sums: for a South set E
//! with `w` lifted and a North set F (any one or two North boma, each needing `n_f + x_f > 0`
//! after South put `x_f` into it), the placements with given `x_F` number
//! `C(w - Σx_F + 19 - |F|, 19 - |F|)` (the rest go anywhere in the other `20 - |F|` boma), and
//! North then has `C(Σ(n_f + x_f) + 19, 19)` placements of his own:
//!
//! ```text
//! total = Σ_E Σ_F Σ_{x_F, Σx_F <= w, n_f + x_f > 0} C(w - Σx_F + 19 - |F|, 19 - |F|) · C(Σ_F (n_f + x_f) + 19, 19)
//! ```
//!
//! (South's emptying touches only his own row, so North's counts `n` are the ones before turn 1.)
//! At most 15 · 45 · 61² terms for the full setups: instant, exact in `u128` (checked).

use super::{occupied_mask, Board, Illegal, KiothiError, Position, Redistribute, Redistribution, Rules, BOMA, ROW};
use crate::index::Compositions;

/// `C(n, k)` in `u128`, `None` on overflow.
pub fn binomial_u128(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut acc: u128 = 1;
    for i in 0..k {
        // acc · (n-i) / (i+1) stays an integer: it is C(n, i+1) · (i+1)! / (i+1)!.
        acc = acc.checked_mul((n - i) as u128)? / (i + 1) as u128;
    }
    Some(acc)
}

/// Ways to put `warriors` into `boma` boma (stars and bars): `C(warriors + boma - 1, boma - 1)`.
pub fn placements(warriors: u32, boma: u32) -> Option<u128> {
    binomial_u128((warriors + boma - 1) as u64, (boma - 1) as u64)
}

/// Every allowed emptied set (bit = own index) of a row whose occupied own indices are `own`,
/// in increasing (first, second) order, a single `{i}` before the pairs starting at `i`.
fn emptied_sets(own: u32, rule: Redistribute, mut f: impl FnMut(u16)) {
    for i in 0..ROW {
        if own >> i & 1 == 0 {
            continue;
        }
        if rule.allows(1) {
            f(1 << i);
        }
        for j in i + 1..ROW {
            if own >> j & 1 == 1 && rule.allows(2) {
                f((1 << i | 1 << j) as u16);
            }
        }
    }
}

fn overflow<T>(x: Option<T>) -> Result<T, KiothiError> {
    x.ok_or(KiothiError::CountOverflow)
}

impl Position {
    /// Occupied own indices of the mover, as a 10-bit mask.
    fn own_occupied(&self) -> u32 {
        (occupied_mask(&self.boma) >> self.own_base()) & ((1 << ROW) - 1)
    }

    /// Warriors in the own boma of `emptied`.
    fn lifted(&self, emptied: u16) -> u32 {
        (0..ROW).filter(|i| emptied >> i & 1 == 1).map(|i| self.boma[self.own_base() + i] as u32).sum()
    }

    /// K2: the number of redistribution moves here (0 when not a redistribution turn).
    pub fn redistribution_count(&self, rules: &Rules) -> Result<u128, KiothiError> {
        if !self.is_redistribution() {
            return Ok(0);
        }
        let mut total = Some(0u128);
        emptied_sets(self.own_occupied(), rules.redistribute, |e| {
            total = total.and_then(|t| t.checked_add(placements(self.lifted(e), BOMA as u32)?));
        });
        overflow(total)
    }

    /// At turn 1: the number of (turn-1 move, turn-2 move) pairs, i.e. turn-2 redistributions
    /// summed over every turn-1 move (see the module comment for the formula). At turn 2 this
    /// is just [`Position::redistribution_count`]; 0 after the opening.
    pub fn redistribution_count_two_plies(&self, rules: &Rules) -> Result<u128, KiothiError> {
        if self.turn != 1 {
            return self.redistribution_count(rules);
        }
        let rule = rules.redistribute;
        let north = ROW - self.own_base(); // base of the turn-2 mover's row
        let n: [u32; ROW] = std::array::from_fn(|j| self.boma[north + j] as u32);
        let mut total = Some(0u128);
        emptied_sets(self.own_occupied(), rule, |e| {
            let w = self.lifted(e);
            let mut add = |t: Option<u128>| total = total.and_then(|s| s.checked_add(t?));
            for a in 0..ROW {
                if rule.allows(1) {
                    // F = {a}: South puts x into a, the rest into the other 19 boma.
                    let mut s = Some(0u128);
                    for x in (n[a] == 0) as u32..=w {
                        let term = (|| placements(w - x, 19)?.checked_mul(placements(n[a] + x, 20)?))();
                        s = s.and_then(|s| s.checked_add(term?));
                    }
                    add(s);
                }
                if !rule.allows(2) {
                    continue;
                }
                for b in a + 1..ROW {
                    let mut s = Some(0u128);
                    for x in (n[a] == 0) as u32..=w {
                        for y in (n[b] == 0) as u32..=w - x {
                            let term =
                                (|| placements(w - x - y, 18)?.checked_mul(placements(n[a] + n[b] + x + y, 20)?))();
                            s = s.and_then(|s| s.checked_add(term?));
                        }
                    }
                    add(s);
                }
            }
        });
        overflow(total)
    }

    /// Call `f` on every redistribution move here, emptied sets in increasing order, each with
    /// its placements in the rank order of `index::Compositions`. Nothing after the opening.
    /// The number of calls is [`Position::redistribution_count`]: check it before calling.
    pub fn for_each_redistribution(&self, rules: &Rules, mut f: impl FnMut(&Redistribution)) {
        if !self.is_redistribution() {
            return;
        }
        emptied_sets(self.own_occupied(), rules.redistribute, |emptied| {
            let w = self.lifted(emptied);
            let mut r = Redistribution { emptied, placement: [0; BOMA] };
            r.placement[BOMA - 1] = w as u8; // the first distribution in rank order
            loop {
                f(&r);
                if !Compositions::next(&mut r.placement) {
                    break;
                }
            }
        });
    }

    /// The redistribution of index `n` in the order of [`Position::for_each_redistribution`]
    /// (emptied sets in increasing order, placements in rank order): an unranking, so a
    /// uniform `n` below [`Position::redistribution_count`] draws a uniform move. `None` when
    /// `n` is out of range or this is not a redistribution turn.
    pub fn nth_redistribution(&self, rules: &Rules, mut n: u128) -> Option<Redistribution> {
        if !self.is_redistribution() {
            return None;
        }
        let mut found = None;
        emptied_sets(self.own_occupied(), rules.redistribute, |emptied| {
            if found.is_some() {
                return;
            }
            let w = self.lifted(emptied);
            let block = placements(w, BOMA as u32).expect("counted without overflow");
            if n >= block {
                n -= block;
                return;
            }
            // Unrank as `index::Compositions` does (p0 most significant), in u128.
            let mut placement: Board = [0; BOMA];
            let mut rest = w;
            for (i, slot) in placement.iter_mut().enumerate().take(BOMA - 1) {
                let k = (BOMA - 1 - i) as u32; // boma after this one
                let mut v = 0;
                loop {
                    let b = placements(rest - v, k).expect("smaller than the block");
                    if n < b {
                        break;
                    }
                    n -= b;
                    v += 1;
                }
                *slot = v as u8;
                rest -= v;
            }
            placement[BOMA - 1] = rest as u8;
            found = Some(Redistribution { emptied, placement });
        });
        found
    }

    /// K2 legality of a redistribution here.
    pub fn check_redistribution(&self, rules: &Rules, r: &Redistribution) -> Result<(), Illegal> {
        if !self.is_redistribution() {
            return Err(Illegal::RedistributionAfterOpening { turn: self.turn });
        }
        let got = r.emptied.count_ones();
        if r.emptied >> ROW != 0 || !rules.redistribute.allows(got) {
            let allowed = match rules.redistribute {
                Redistribute::Exactly2 => "exactly 2",
                Redistribute::UpTo2 => "1 or 2",
            };
            return Err(Illegal::EmptiedCount { got, rule: rules.redistribute.name(), allowed });
        }
        let own = self.own_occupied();
        if let Some(i) = (0..ROW).find(|&i| r.emptied >> i & 1 == 1 && own >> i & 1 == 0) {
            return Err(Illegal::EmptiedNotOccupied { boma: i as u8 });
        }
        let placed: u32 = r.placement.iter().map(|&c| c as u32).sum();
        let lifted = self.lifted(r.emptied);
        if placed != lifted {
            return Err(Illegal::PlacementSum { placed, lifted });
        }
        Ok(())
    }

    /// Apply a redistribution checked by [`Position::check_redistribution`]. After North's
    /// (turn 2) every occupied boma becomes nki (K2).
    pub fn redistribute_unchecked(&self, r: &Redistribution) -> Position {
        let base = self.own_base();
        let mut boma: Board = self.boma;
        for i in 0..ROW {
            if r.emptied >> i & 1 == 1 {
                boma[base + i] = 0;
            }
        }
        for (b, p) in boma.iter_mut().zip(r.placement.iter()) {
            *b += p;
        }
        let nki = if self.turn == 2 { occupied_mask(&boma) } else { self.nki };
        Position { boma, prisons: self.prisons, nki, to_move: self.to_move.other(), turn: self.turn + 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Position, Redistribute, Rules, Setup};
    use crate::side::Side;

    #[test]
    fn nth_redistribution_unranks_the_enumeration_order() {
        let mut p = Position::start(Setup::S6x5);
        p.boma = [0; 20];
        p.boma[2] = 1;
        p.boma[5] = 2;
        p.boma[9] = 1;
        p.boma[13] = 1;
        for redistribute in [Redistribute::Exactly2, Redistribute::UpTo2] {
            let rules = Rules { redistribute, ..Rules::default() };
            let mut all = Vec::new();
            p.for_each_redistribution(&rules, |r| all.push(*r));
            assert_eq!(all.len() as u128, p.redistribution_count(&rules).unwrap());
            for (i, r) in all.iter().enumerate() {
                assert_eq!(p.nth_redistribution(&rules, i as u128).as_ref(), Some(r), "{i}");
            }
            assert_eq!(p.nth_redistribution(&rules, all.len() as u128), None);
        }
        // The full opening: the first move empties S4, S5 and puts all 10 into the last boma
        // (rank 0: p0 = … = p18 = 0); the last empties S8, S9 and puts all 10 into boma 0.
        let start = Position::start(Setup::S6x5);
        let rules = Rules::default();
        let n = start.redistribution_count(&rules).unwrap();
        let last = start.nth_redistribution(&rules, n - 1).unwrap();
        assert_eq!(last.to_string(), "8,9>0*10");
        assert_eq!(start.nth_redistribution(&rules, 0).unwrap().to_string(), "4,5>19*10");
        let q = Position { turn: 3, to_move: Side::South, ..start };
        assert_eq!(q.nth_redistribution(&rules, 0), None);
    }
}
