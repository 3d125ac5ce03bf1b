//! A player's opening choice (docs/rules/lukho.md "L6. Opening choices"): a removal `r0…r7` from his own pits and a
//! drop of `d` seeds into one opponent pit `j`; the rest of his hand is sown from opponent
//! index 0. Choice ids, their inverse, and the text forms `r0,…,r7` and `COUNT@PIT`.
//!
//! Ids: removals in lexicographic order of `(r0, …, r7)`, `r0` most significant; each
//! removal's block is `d = 0` first (offset 0), then offset `1 + 8(d-1) + j`. Both directions
//! are computed digit by digit from closed-form block sums, so neither needs a table.

use super::board::Board;
use super::geometry::ROW;
use super::Rules;
use crate::side::Side;
use std::fmt;

/// Most seeds a player may lift from one of his pits (all 3 it starts with).
pub const MAX_REMOVE: u8 = 3;

/// One player's opening choice. `pit` is the **opponent's** own index; it is 0 when `drop` is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Choice {
    /// Seeds lifted from each own pit, own indices 0..7.
    pub remove: [u8; ROW],
    /// Seeds put into the single opponent pit `pit`.
    pub drop: u8,
    pub pit: u8,
}

/// Bad opening input; each message names the field and its accepted form.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum ChoiceError {
    #[error("remove: expected r0,…,r7 (8 comma-separated counts, each 0..=3), got {0:?}")]
    Remove(String),
    #[error("drop: expected COUNT@PIT (PIT = the opponent's index 0..7; a zero drop is 0@0), got {0:?}")]
    Drop(String),
    #[error("drop: {drop} seeds but the removal lifts only {hand}{}", if *.keep_one { " and keep-one needs one left to sow" } else { "" })]
    DropTooLarge { drop: u8, hand: u8, keep_one: bool },
    #[error("id: {id} is out of range (0..{count} under these rules)")]
    Id { id: u64, count: u64 },
}

/// Number of ids in a removal block with hand `h`: `d = 0`, then 8 pits for each `d >= 1`.
#[inline]
fn block(h: u64, keep_one: bool) -> u64 {
    let max_drop = if keep_one && h > 0 { h - 1 } else { h };
    1 + 8 * max_drop
}

/// Total of the blocks of every removal whose first digits sum to `prefix` and which has
/// `k` free digits left: `Σ_{suffixes} block(prefix + Σ suffix)`.
/// There are `4^k` suffixes; their digit sums total `k · 4^(k-1) · (0+1+2+3)`; under
/// keep-one every block with a positive hand loses 8 ids, i.e. all but the all-zero one.
#[inline]
fn subtree(prefix: u64, k: u32, keep_one: bool) -> u64 {
    let n = 4u64.pow(k);
    let digit_sums = if k == 0 { 0 } else { 6 * k as u64 * 4u64.pow(k - 1) };
    let mut total = n + 8 * (prefix * n + digit_sums);
    if keep_one {
        total -= 8 * (n - (prefix == 0) as u64);
    }
    total
}

impl Choice {
    /// Number of choices per player: 6,356,992 by default, 5,832,712 with keep-one.
    pub fn count(rules: &Rules) -> u64 {
        subtree(0, ROW as u32, rules.keep_one)
    }

    /// A checked choice. A zero drop's pit is irrelevant and is stored as 0.
    pub fn new(remove: [u8; ROW], drop: u8, pit: u8, rules: &Rules) -> Result<Self, ChoiceError> {
        if remove.iter().any(|&r| r > MAX_REMOVE) {
            return Err(ChoiceError::Remove(join(&remove)));
        }
        if pit as usize >= ROW {
            return Err(ChoiceError::Drop(format!("{drop}@{pit}")));
        }
        let c = Choice { remove, drop, pit: if drop == 0 { 0 } else { pit } };
        let hand = c.hand();
        let max = if rules.keep_one && hand > 0 { hand - 1 } else { hand };
        if drop > max {
            return Err(ChoiceError::DropTooLarge { drop, hand, keep_one: rules.keep_one });
        }
        Ok(c)
    }

    /// Parse `--remove r0,…,r7` and `--drop COUNT@PIT`.
    pub fn parse(remove: &str, drop: &str, rules: &Rules) -> Result<Self, ChoiceError> {
        let r = parse_remove(remove)?;
        let (d, j) = parse_drop(drop)?;
        Choice::new(r, d, j, rules)
    }

    /// `h`: the seeds lifted.
    #[inline]
    pub fn hand(&self) -> u8 {
        self.remove.iter().sum()
    }

    /// `s = h - d`: the seeds sown from opponent index 0.
    #[inline]
    pub fn sow_count(&self) -> u8 {
        self.hand() - self.drop
    }

    /// The choice as `lukho opening --json` prints it (the CLI, the Python package and the web
    /// oracle answer with this one object): id, both text forms, and South's row after it is
    /// made with North untouched (`pits`).
    pub fn to_json(&self, rules: &Rules) -> serde_json::Value {
        let board = setup(self, &Choice::default());
        serde_json::json!({
            "rules": rules.to_json(),
            "id": self.id(rules),
            "remove": self.remove,
            "drop": self.drop,
            "pit": self.pit,
            "hand": self.hand(),
            "sow": self.sow_count(),
            "text": {"remove": self.remove_string(), "drop": self.drop_string()},
            "pits": board.pits(),
            "of": Choice::count(rules),
        })
    }

    /// The choice's id (the choice must be valid under `rules`).
    pub fn id(&self, rules: &Rules) -> u64 {
        let mut id = 0u64;
        let mut prefix = 0u64;
        for (i, &r) in self.remove.iter().enumerate() {
            let k = (ROW - 1 - i) as u32;
            for c in 0..r as u64 {
                id += subtree(prefix + c, k, rules.keep_one);
            }
            prefix += r as u64;
        }
        if self.drop > 0 {
            id += 1 + 8 * (self.drop as u64 - 1) + self.pit as u64;
        }
        id
    }

    /// The choice with this id.
    pub fn from_id(id: u64, rules: &Rules) -> Result<Self, ChoiceError> {
        let count = Choice::count(rules);
        if id >= count {
            return Err(ChoiceError::Id { id, count });
        }
        let mut rest = id;
        let mut remove = [0u8; ROW];
        let mut prefix = 0u64;
        for (i, r) in remove.iter_mut().enumerate() {
            let k = (ROW - 1 - i) as u32;
            let mut c = 0u64;
            loop {
                let t = subtree(prefix + c, k, rules.keep_one);
                if rest < t {
                    break;
                }
                rest -= t;
                c += 1;
            }
            *r = c as u8;
            prefix += c;
        }
        debug_assert!(rest < block(prefix, rules.keep_one));
        let (drop, pit) = if rest == 0 { (0, 0) } else { (1 + (rest - 1) / 8, (rest - 1) % 8) };
        Ok(Choice { remove, drop: drop as u8, pit: pit as u8 })
    }

    /// `r0,…,r7`.
    pub fn remove_string(&self) -> String {
        join(&self.remove)
    }

    /// `COUNT@PIT` (`0@0` for no drop).
    pub fn drop_string(&self) -> String {
        format!("{}@{}", self.drop, self.pit)
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.remove_string(), self.drop_string())
    }
}

fn join(r: &[u8]) -> String {
    r.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// `r0,…,r7`: eight counts 0..=3.
pub fn parse_remove(s: &str) -> Result<[u8; ROW], ChoiceError> {
    let err = || ChoiceError::Remove(s.to_string());
    let fields: Vec<&str> = s.split(',').map(str::trim).collect();
    if fields.len() != ROW {
        return Err(err());
    }
    let mut r = [0u8; ROW];
    for (x, f) in r.iter_mut().zip(fields) {
        *x = f.parse::<u8>().ok().filter(|&v| v <= MAX_REMOVE).ok_or_else(err)?;
    }
    Ok(r)
}

/// `COUNT@PIT`: COUNT seeds into the opponent's index PIT (0..7).
pub fn parse_drop(s: &str) -> Result<(u8, u8), ChoiceError> {
    let err = || ChoiceError::Drop(s.to_string());
    let (d, j) = s.trim().split_once('@').ok_or_else(err)?;
    let d: u8 = d.trim().parse().map_err(|_| err())?;
    let j: u8 = j.trim().parse().ok().filter(|&j| (j as usize) < ROW).ok_or_else(err)?;
    Ok((d, j))
}

/// The board after both removals and both drops (the drops are additions and commute).
pub fn setup(south: &Choice, north: &Choice) -> Board {
    let mut b = Board::default();
    // On the packed pits: a removal is one row subtracted (each pit holds 3 >= r, no borrow),
    // a drop one byte added.
    for (side, c) in [(Side::South, south), (Side::North, north)] {
        let own = side.index() * ROW;
        let opp = side.other().index() * ROW;
        b.pits -= (u64::from_le_bytes(c.remove) as u128) << (8 * own);
        b.pits += (c.drop as u128) << (8 * (opp + c.pit as usize));
    }
    b
}
