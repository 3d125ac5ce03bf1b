//! The SPEC language naming a set of opening choices (docs/cli.md, `lukho sweep`):
//!
//! ```text
//! SPEC   := BASE (':' FILTER)*
//! BASE   := all | N | A..B | A..=B | N,M,…          (choice ids; A..B excludes B)
//! FILTER := remove=R                                 R: 8 symbols, a digit 0..3 or '*' per own pit
//!                                                    (written `3*0*****` or `3,*,0,*,*,*,*,*`)
//!         | drop=D | drop=A..B | drop=A..=B          seeds dropped
//!         | pit=J                                    drop pit J (opponent's index 0..7); only
//!                                                    choices that drop something (d >= 1)
//! ```
//! e.g. `all:drop=0`, `0..65536:pit=3`. A set is the sorted, duplicate-free list of ids.

use crate::games::lukho::MAX_REMOVE;
use crate::games::lukho::{Choice, Rules, ROW};
use crate::input::InputError;
use std::fmt;

/// A bad SPEC; the message names the part and the accepted form.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("{0}; expected all | N | A..B | N,M,… with optional filters :remove=r0…r7 (a digit 0..3 or * per pit), :drop=D or :drop=A..B, :pit=J (0..7)")]
pub struct SpecError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(msg.into()))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    All,
    /// Ids `lo..hi`.
    Range(u64, u64),
    List(Vec<u64>),
}

/// Filters on a choice; all must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Per own pit: the removal it must have, or any.
    pub remove: Option<[Option<u8>; ROW]>,
    /// Drop count range, inclusive.
    pub drop: Option<(u8, u8)>,
    /// Drop pit (and a drop of at least one seed).
    pub pit: Option<u8>,
}

impl Filters {
    pub fn accepts(&self, c: &Choice) -> bool {
        if let Some(r) = &self.remove {
            if r.iter().zip(&c.remove).any(|(want, &got)| want.is_some_and(|w| w != got)) {
                return false;
            }
        }
        if let Some((lo, hi)) = self.drop {
            if c.drop < lo || c.drop > hi {
                return false;
            }
        }
        if let Some(j) = self.pit {
            if c.drop == 0 || c.pit != j {
                return false;
            }
        }
        true
    }
}

/// A parsed SPEC, with its text kept for headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub text: String,
    pub base: Base,
    pub filters: Filters,
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn parse_u64(what: &str, s: &str) -> Result<u64, SpecError> {
    s.trim().parse::<u64>().or_else(|_| err(format!("{what} `{s}` is not a non-negative integer")))
}

/// `A..B` (exclusive) or `A..=B` (inclusive) as an exclusive range (`crate::range`, so the
/// edge rules are every flag's); None if `s` has no `..`.
fn parse_range(what: &str, s: &str) -> Result<Option<(u64, u64)>, SpecError> {
    if !crate::range::is_range(s) {
        return Ok(None);
    }
    match crate::range::parse_inclusive(s) {
        Ok(Some((a, b))) => match b.checked_add(1) {
            Some(end) => Ok(Some((a, end))),
            None => err(format!("{what} `{s}` ends past the last id")),
        },
        Ok(None) => {
            let a = parse_u64(what, s.split_once("..").map_or(s, |p| p.0))?;
            Ok(Some((a, a)))
        }
        Err(crate::range::RangeError::Backwards) => err(format!("{what} `{s}` is an empty range written backwards")),
        Err(crate::range::RangeError::NotANumber(x)) => err(format!("{what} `{x}` is not a non-negative integer")),
    }
}

impl std::str::FromStr for Spec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Spec, SpecError> {
        Spec::parse(s)
    }
}

impl Spec {
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let text = text.trim();
        let mut parts = text.split(':');
        let base_s = parts.next().unwrap_or("").trim();
        let base = if base_s.is_empty() {
            return err("the set is empty (write `all`)");
        } else if base_s == "all" {
            Base::All
        } else if let Some((a, b)) = parse_range("id range", base_s)? {
            Base::Range(a, b)
        } else {
            let ids = base_s.split(',').map(|x| parse_u64("id", x)).collect::<Result<Vec<_>, _>>()?;
            Base::List(ids)
        };
        let mut filters = Filters::default();
        for f in parts {
            let Some((key, value)) = f.split_once('=') else {
                return err(format!("filter `{f}` is not KEY=VALUE"));
            };
            let value = value.trim();
            match key.trim() {
                "remove" => {
                    if filters.remove.is_some() {
                        return err("remove= given twice");
                    }
                    let symbols: Vec<&str> = if value.contains(',') {
                        value.split(',').map(str::trim).collect()
                    } else {
                        value.char_indices().map(|(i, c)| &value[i..i + c.len_utf8()]).collect()
                    };
                    if symbols.len() != ROW {
                        return err(format!("remove=`{value}` has {} symbols, not 8", symbols.len()));
                    }
                    let mut r = [None; ROW];
                    for (slot, s) in r.iter_mut().zip(&symbols) {
                        *slot = match *s {
                            "*" => None,
                            d => match d.parse::<u8>() {
                                Ok(v) if v <= MAX_REMOVE => Some(v),
                                _ => return err(format!("remove=`{value}`: `{d}` is not 0..3 or *")),
                            },
                        };
                    }
                    filters.remove = Some(r);
                }
                "drop" => {
                    if filters.drop.is_some() {
                        return err("drop= given twice");
                    }
                    let (lo, hi) = match parse_range("drop", value)? {
                        Some((a, b)) if b > a => (a, b - 1),
                        Some(_) => return err(format!("drop=`{value}` is an empty range")),
                        None => {
                            let d = parse_u64("drop", value)?;
                            (d, d)
                        }
                    };
                    // A hand holds at most 24 seeds.
                    if hi > 24 {
                        return err(format!("drop=`{value}`: a drop is at most 24 seeds"));
                    }
                    filters.drop = Some((lo as u8, hi as u8));
                }
                "pit" => {
                    if filters.pit.is_some() {
                        return err("pit= given twice");
                    }
                    match value.parse::<u8>() {
                        Ok(j) if (j as usize) < ROW => filters.pit = Some(j),
                        _ => return err(format!("pit=`{value}` is not an opponent index 0..7")),
                    }
                }
                k => return err(format!("unknown filter `{k}`")),
            }
        }
        Ok(Spec { text: text.to_string(), base, filters })
    }

    /// The sorted, duplicate-free ids of the set under `rules`. Ids past the last choice are
    /// an error naming the id.
    pub fn ids(&self, rules: &Rules) -> Result<Vec<u32>, SpecError> {
        let count = Choice::count(rules);
        let mut out = Vec::new();
        match &self.base {
            Base::All => each_choice(rules, 0, count, |id, c| {
                if self.filters.accepts(c) {
                    out.push(id as u32)
                }
            }),
            &Base::Range(lo, hi) => {
                if hi > count {
                    return err(format!(
                        "id range {lo}..{hi} ends past the last id {} (there are {count} choices)",
                        count - 1
                    ));
                }
                each_choice(rules, lo, hi, |id, c| {
                    if self.filters.accepts(c) {
                        out.push(id as u32)
                    }
                })
            }
            Base::List(ids) => {
                for &id in ids {
                    let c = Choice::from_id(id, rules).or_else(|_| {
                        err(format!("id {id} is past the last id {} (there are {count} choices)", count - 1))
                    })?;
                    if self.filters.accepts(&c) {
                        out.push(id as u32);
                    }
                }
                out.sort_unstable();
                out.dedup();
            }
        }
        Ok(out)
    }
}

impl Spec {
    /// The ids of a SPEC that must name at least one choice (each side of a sweep, an
    /// equilibrium's family, the South set of best replies): a set that selects nothing would
    /// write empty results with success, so it is bad input of `field`, as a malformed SPEC is.
    pub fn nonempty_ids(&self, rules: &Rules, field: &'static str) -> Result<Vec<u32>, InputError> {
        let ids = self.ids(rules).map_err(|e| InputError::new(field, e.to_string()))?;
        if ids.is_empty() {
            let message = format!("`{}` names no choice; expected a SPEC with at least one choice", self.text);
            return Err(InputError::new(field, message));
        }
        Ok(ids)
    }
}

/// The choice after `c` in id order (`None` after the last).
pub fn next_choice(c: &Choice, rules: &Rules) -> Option<Choice> {
    let h = c.hand();
    let max = if rules.keep_one && h > 0 { h - 1 } else { h };
    let mut n = *c;
    if c.drop == 0 {
        if max >= 1 {
            n.drop = 1;
            n.pit = 0;
            return Some(n);
        }
    } else if c.pit < ROW as u8 - 1 {
        n.pit += 1;
        return Some(n);
    } else if c.drop < max {
        n.drop += 1;
        n.pit = 0;
        return Some(n);
    }
    // Next removal (r7 least significant), zero drop.
    n.drop = 0;
    n.pit = 0;
    for i in (0..ROW).rev() {
        if n.remove[i] < MAX_REMOVE {
            n.remove[i] += 1;
            return Some(n);
        }
        n.remove[i] = 0;
    }
    None
}

/// Call `f(id, choice)` for every id in `lo..hi`, in order.
pub fn each_choice(rules: &Rules, lo: u64, hi: u64, mut f: impl FnMut(u64, &Choice)) {
    if lo >= hi {
        return;
    }
    let mut c = Choice::from_id(lo, rules).expect("lo < count");
    let mut id = lo;
    loop {
        f(id, &c);
        id += 1;
        if id >= hi {
            break;
        }
        c = next_choice(&c, rules).expect("id < count");
    }
}

/// The choices of sorted or unsorted `ids`: each run of consecutive ids is walked with
/// [`next_choice`], cheaper than decoding each id (`results/BENCHMARKS-journal.md`).
pub fn choices(ids: &[u32], rules: &Rules) -> Vec<Choice> {
    let mut out: Vec<Choice> = Vec::with_capacity(ids.len());
    for (k, &id) in ids.iter().enumerate() {
        let c = match (k.checked_sub(1).map(|j| ids[j]), out.last()) {
            (Some(prev), Some(c)) if prev + 1 == id => next_choice(c, rules).expect("ids come from a SPEC"),
            _ => Choice::from_id(id as u64, rules).expect("ids come from a SPEC"),
        };
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_of_ids_decode_each_id() {
        for rules in [R, Rules { keep_one: true, ..R }] {
            let last = Choice::count(&rules) as u32 - 1;
            let ids: Vec<u32> =
                (0..3000).chain([9, 8, 7]).chain(last - 20..=last).chain([5, 6, 100_000, 100_001]).collect();
            let want: Vec<Choice> = ids.iter().map(|&i| Choice::from_id(i as u64, &rules).unwrap()).collect();
            assert_eq!(choices(&ids, &rules), want);
        }
    }

    const R: Rules = Rules { chain: crate::games::lukho::Chain::It, keep_one: false };

    #[test]
    fn next_choice_walks_the_ids() {
        for rules in [R, Rules { keep_one: true, ..R }] {
            let count = Choice::count(&rules);
            let mut n = 0u64;
            each_choice(&rules, 0, count, |id, c| {
                assert_eq!(id, n);
                if id % 9973 == 0 || id < 300 {
                    assert_eq!(c.id(&rules), id);
                }
                n += 1;
            });
            assert_eq!(n, count);
        }
    }

    #[test]
    fn bases() {
        assert_eq!(Spec::parse("all").unwrap().base, Base::All);
        assert_eq!(Spec::parse("7").unwrap().base, Base::List(vec![7]));
        assert_eq!(Spec::parse("3..9").unwrap().base, Base::Range(3, 9));
        assert_eq!(Spec::parse("3..=9").unwrap().base, Base::Range(3, 10));
        assert_eq!(Spec::parse("9,3,3").unwrap().ids(&R).unwrap(), vec![3, 9]);
        assert_eq!(Spec::parse("3..9").unwrap().ids(&R).unwrap(), (3..9).collect::<Vec<_>>());
        assert_eq!(Spec::parse("all").unwrap().ids(&R).unwrap().len(), 6_356_992);
        let last = Choice::count(&R) - 1;
        assert_eq!(Spec::parse(&format!("{last}")).unwrap().ids(&R).unwrap(), vec![last as u32]);
    }

    #[test]
    fn filters() {
        // drop=0: one choice per removal.
        assert_eq!(Spec::parse("all:drop=0").unwrap().ids(&R).unwrap().len(), 65_536);
        // Id 0 is the empty removal; ids 1..=9 remove one seed from own pit 7 ((0,…,0,1)):
        // 0@0, then 1@0..1@7 (ids 2..=9).
        let ids = Spec::parse("0..10:pit=3").unwrap().ids(&R).unwrap();
        assert_eq!(ids, vec![5]);
        assert_eq!(Choice::from_id(5, &R).unwrap().drop_string(), "1@3");
        // remove pattern: first pit 3, all others 0 -> hand 3: 1 + 8*3 choices.
        let s = Spec::parse("all:remove=30000000").unwrap();
        assert_eq!(s.ids(&R).unwrap().len(), 25);
        let s2 = Spec::parse("all:remove=3,0,0,0,0,0,0,0:drop=1..3").unwrap();
        assert_eq!(s2.ids(&R).unwrap().len(), 16);
        let s3 = Spec::parse("all:remove=3*******:drop=2..=3:pit=7").unwrap();
        for id in s3.ids(&R).unwrap() {
            let c = Choice::from_id(id as u64, &R).unwrap();
            assert_eq!(c.remove[0], 3);
            assert!(c.drop >= 2 && c.drop <= 3 && c.pit == 7);
        }
        // Filters compose with lists.
        assert_eq!(Spec::parse("0,1,2,9:drop=1").unwrap().ids(&R).unwrap(), vec![2, 9]);
    }

    #[test]
    fn a_set_that_selects_nothing_is_refused_naming_its_field() {
        for text in ["5..5", "0..10:drop=24", "0..1:pit=3", "0,1:remove=3*******"] {
            let e = Spec::parse(text).unwrap().nonempty_ids(&R, "south").unwrap_err();
            assert_eq!(e.field, "south");
            assert_eq!(e.message, format!("`{text}` names no choice; expected a SPEC with at least one choice"));
        }
        assert_eq!(Spec::parse("0..10:pit=3").unwrap().nonempty_ids(&R, "north"), Ok(vec![5]));
        let e = Spec::parse("0..=18446744073709551615").and_then(|s| s.ids(&R)).unwrap_err();
        assert!(e.to_string().contains("ends past the last id"), "{e}");
        let e = Spec::parse("0..18446744073709551615").unwrap().nonempty_ids(&R, "north").unwrap_err();
        assert!(e.message.contains("ends past the last id"), "{e}");
    }

    #[test]
    fn errors_name_the_part() {
        for (s, part) in [
            ("", "empty"),
            ("al", "id `al`"),
            ("5..2", "backwards"),
            ("0..6356993", "ends past"),
            ("6356992", "id 6356992"),
            ("all:remove=3000000", "7 symbols"),
            ("all:remove=4*******", "`4`"),
            ("all:drop=x", "drop `x`"),
            ("all:drop=25", "at most 24"),
            ("all:pit=8", "pit=`8`"),
            ("all:colour=red", "unknown filter"),
            ("all:drop", "KEY=VALUE"),
            ("all:pit=1:pit=2", "twice"),
        ] {
            let e = Spec::parse(s).and_then(|x| x.ids(&R).map(|_| x)).unwrap_err().to_string();
            assert!(e.contains(part), "{s}: {e}");
        }
    }
}
