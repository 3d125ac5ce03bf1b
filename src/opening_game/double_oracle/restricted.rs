//! The restricted game's matrix (members × members): each entry read from a swept vector of
//! either member, else played pairwise and kept in [`Solver`]'s pair cache.

use super::super::vectors::Kind;
use super::Solver;
use crate::sweep::play::play_pair;
use rayon::prelude::*;

impl Solver {
    /// A restricted member's vector when it is in memory: the column of a North member (`Col`)
    /// or the row of a South member (`Row`), with its sign (a row is a negated column in a
    /// symmetric game).
    fn held(&self, kind: Kind, id: u32) -> Option<(&[i16], i32)> {
        let (k, sign) = self.stored(kind);
        self.cache.get(&(k, id)).map(|v| (v.as_slice(), sign as i32))
    }

    /// Play every pair of `south` × `north` that is not played yet and whose payoff no vector
    /// holds (neither South's row nor North's column is swept), in parallel, caching South's
    /// payoff; in a symmetric game a pair's mirror is its negation and is cached with it.
    pub(in crate::opening_game) fn play_pairs(&mut self, south: &[u32], north: &[u32]) {
        let symmetric = self.def.symmetric();
        // A symmetric pair is played once, lower id as South.
        let canonical = |(s, n): (u32, u32)| if symmetric && n < s { (n, s) } else { (s, n) };
        let unswept: Vec<u32> = north.iter().copied().filter(|&n| self.held(Kind::Col, n).is_none()).collect();
        let north = &unswept;
        let mut todo: Vec<(u32, u32)> = south
            .iter()
            .filter(|&&s| self.held(Kind::Row, s).is_none())
            .flat_map(|&s| north.iter().map(move |&n| (s, n)))
            .filter(|p| !self.pairs.contains_key(p))
            .map(canonical)
            .collect();
        todo.sort_unstable();
        todo.dedup();
        if todo.is_empty() {
            return;
        }
        let (rules, model, payoff) = (&self.def.rules, self.def.model, self.def.payoff);
        let played: Vec<((u32, u32), i32)> = todo
            .par_iter()
            .map(|&(s, n)| {
                let (cs, cn) = (&self.choices[self.pos(s)], &self.choices[self.pos(n)]);
                let mut v = 0i32;
                play_pair(rules, &self.proven, model, cs, cn, |_, g| v += payoff.of(g));
                ((s, n), v)
            })
            .collect();
        // Not counted in `games`: the pairs are a cache that a resume rebuilds (it is not
        // saved), so counting them would make a resumed run's figures differ from an
        // uninterrupted one's; `games` counts the vector sweeps, the run's real cost (the
        // pairs are at most |S|·|N| games, a few percent of one sweep).
        for ((s, n), v) in played {
            self.pairs.insert((s, n), v);
            if symmetric {
                self.pairs.insert((n, s), -v);
            }
        }
    }

    /// South's payoffs (integer units, summed over the outcomes) of `south` × `north`, row by
    /// row: each entry from North's column or South's row when one is swept (the same
    /// integers as playing the pair: a vector's slot is that pair played with the same
    /// orientation, or in a symmetric game its mirror, exactly the negation), else played.
    pub(in crate::opening_game) fn restricted(&mut self, south: &[u32], north: &[u32]) -> Vec<i32> {
        self.play_pairs(south, north);
        // Each North member's position and column (if swept).
        let cols: Vec<_> = north.iter().map(|&n| (self.pos(n), self.held(Kind::Col, n))).collect();
        let mut a = Vec::with_capacity(south.len() * north.len());
        for &s in south {
            let (ps, row) = (self.pos(s), self.held(Kind::Row, s));
            a.extend(north.iter().zip(&cols).map(|(&n, &(pn, col))| match (col, row) {
                (Some((v, sign)), _) => sign * v[ps] as i32,
                (None, Some((v, sign))) => sign * v[pn] as i32,
                (None, None) => self.pairs[&(s, n)],
            }));
        }
        a
    }
}
