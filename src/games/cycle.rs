//! Exact cycle finding on a deterministic sequence of states: Brent's algorithm, plus a fixed
//! anchor (the first state fed in).
//!
//! Brent keeps one saved state and compares every new state with it, moving it forward at
//! powers of two; it finds any cycle within about `μ + 2λ` steps and never reports a false one
//! (a reported equality *is* a repetition). The anchor adds one comparison per step and finds a
//! cycle through the first state after exactly `λ` steps. That is the common case for Lukho
//! sowings: the lap map is injective on states that have an empty pit besides the one just
//! lifted (the previous lap's origin is then the nearest empty pit behind, so the previous
//! state can be rebuilt), so a perpetual sowing is almost always periodic from its first lap
//! (measured: μ = 1 on every random perpetual tried), and the anchor finds it 2–3× sooner than
//! Brent alone. Brent stays for the cases the argument does not cover.
///
/// Two ways to feed it: [`Cycles::next`], one state at a time, or, for a hot loop, by windows:
/// [`Cycles::power`] states, the `lam`-th (from 1) tested with [`Cycles::is_saved`] (a cycle of
/// λ = `lam`) and [`Cycles::is_anchor`] (λ = [`Cycles::before`] + `lam`), then
/// [`Cycles::next_window`]. The window bookkeeping then runs once per window, not once per
/// state, and each test keeps its own λ: in the Lukho sowing's lap loop (a handful of
/// instructions) a per-lap counter test, or one combined test with λ selected after, adds
/// instructions to every lap (measured: 2 more a lap for the combined test).
pub(crate) struct Cycles<K> {
    /// The first state fed.
    anchor: K,
    /// The last state of the previous window (the first state at first).
    saved: K,
    /// States fed before the current window.
    before: u64,
    /// The current window's length, a power of two: `saved` moves on when it is full.
    power: u64,
    /// States fed in the current window ([`Cycles::next`] only).
    lam: u64,
}

impl<K: Copy + PartialEq> Cycles<K> {
    pub(crate) fn new(first: K) -> Self {
        Cycles { anchor: first, saved: first, before: 0, power: 1, lam: 0 }
    }

    /// Feed the next state. Returns the cycle length λ when `key` repeats a compared state.
    #[inline(always)]
    pub(crate) fn next(&mut self, key: K) -> Option<u64> {
        self.lam += 1;
        if self.is_saved(key) {
            return Some(self.lam);
        }
        if self.is_anchor(key) {
            return Some(self.before + self.lam);
        }
        if self.lam == self.power {
            self.next_window(key);
            self.lam = 0;
        }
        None
    }

    /// The current window's length: how many states to compare before [`Cycles::next_window`].
    #[inline(always)]
    pub(crate) fn power(&self) -> u64 {
        self.power
    }

    /// States fed before the current window.
    #[inline(always)]
    pub(crate) fn before(&self) -> u64 {
        self.before
    }

    /// Whether `key` repeats the saved state (the previous window's last).
    #[inline(always)]
    pub(crate) fn is_saved(&self, key: K) -> bool {
        key == self.saved
    }

    /// Whether `key` is the first state fed.
    #[inline(always)]
    pub(crate) fn is_anchor(&self, key: K) -> bool {
        key == self.anchor
    }

    /// The current window is full and `last` was its last state: it becomes the saved state
    /// and the next window is twice as long.
    #[inline(always)]
    pub(crate) fn next_window(&mut self, last: K) {
        self.before += self.power;
        self.saved = last;
        self.power <<= 1;
    }
}

/// Given a sequence `start, next(start), …` known to have a cycle of length `lambda`, the
/// index of the first repeated state: μ + λ, with μ the steps before the cycle is entered.
/// (Walk one copy `lambda` steps ahead, then both together until they meet at index μ.)
pub(crate) fn first_repeat<S: Copy, K: PartialEq>(
    start: S,
    lambda: u64,
    mut next: impl FnMut(&mut S),
    key: impl Fn(&S) -> K,
) -> u64 {
    let (mut tortoise, mut hare) = (start, start);
    for _ in 0..lambda {
        next(&mut hare);
    }
    let mut mu = 0;
    while key(&tortoise) != key(&hare) {
        next(&mut tortoise);
        next(&mut hare);
        mu += 1;
    }
    mu + lambda
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Cycle finding on the sequences x -> (x² + c) mod m against a hash map of every
    /// state seen: the cycle length and the first repetition must match exactly.
    #[test]
    fn cycles_match_brute_force() {
        for m in [1u64, 2, 7, 97, 1009, 65_537, 1_000_003] {
            for c in [1u64, 3, 12_345] {
                for x0 in [0u64, 5, 999] {
                    let next = |x: &mut u64| *x = (*x * *x + c) % m;
                    // Brute force: index of each state until one repeats.
                    let mut seen = HashMap::new();
                    let mut x = x0 % m;
                    let mut i = 0u64;
                    let (mu, lambda) = loop {
                        if let Some(&j) = seen.get(&x) {
                            break (j, i - j);
                        }
                        seen.insert(x, i);
                        next(&mut x);
                        i += 1;
                    };
                    // The finder, fed from the start.
                    let mut x = x0 % m;
                    let mut cycles = Cycles::new(x);
                    let found = loop {
                        next(&mut x);
                        if let Some(l) = cycles.next(x) {
                            break l;
                        }
                    };
                    assert_eq!(found, lambda, "m {m} c {c} x0 {x0}");
                    // The same finder fed by windows, as a hot loop feeds it.
                    let mut x = x0 % m;
                    let mut cycles = Cycles::new(x);
                    let by_windows = 'walk: loop {
                        for lam in 1..cycles.power() + 1 {
                            next(&mut x);
                            if cycles.is_saved(x) {
                                break 'walk lam;
                            }
                            if cycles.is_anchor(x) {
                                break 'walk cycles.before() + lam;
                            }
                        }
                        cycles.next_window(x);
                    };
                    assert_eq!(by_windows, lambda, "by windows: m {m} c {c} x0 {x0}");
                    assert_eq!(first_repeat(x0 % m, found, next, |x| *x), mu + lambda);
                }
            }
        }
    }
}
