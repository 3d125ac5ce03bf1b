//! Integer ranges as users write them on the command line and in SPECs: `N`, `A..B` (B
//! excluded, as in Rust) and `A..=B`. One parser for every flag that takes a range, so the
//! edge rules are the same everywhere: `A..A` is empty, `B < A` is an error, and no bound
//! overflows.
use std::fmt;

/// Why a range was refused; the caller names the flag and the accepted form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeError {
    /// A bound is not a non-negative integer that fits in 64 bits.
    NotANumber(String),
    /// `A..B` with `B < A`, or `A..=B` with `B < A`.
    Backwards,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::NotANumber(s) => write!(f, "`{s}` is not a non-negative integer"),
            RangeError::Backwards => f.write_str("the range is written backwards"),
        }
    }
}

/// Parse `N`, `A..B` or `A..=B` into inclusive bounds; `Ok(None)` is an empty range (`A..A`).
pub fn parse_inclusive(s: &str) -> Result<Option<(u64, u64)>, RangeError> {
    let num = |x: &str| x.trim().parse::<u64>().map_err(|_| RangeError::NotANumber(x.trim().to_string()));
    let Some((a, b)) = s.split_once("..") else {
        let n = num(s)?;
        return Ok(Some((n, n)));
    };
    let a = num(a)?;
    match b.strip_prefix('=') {
        Some(b) => {
            let b = num(b)?;
            if b < a {
                return Err(RangeError::Backwards);
            }
            Ok(Some((a, b)))
        }
        None => {
            let b = num(b)?;
            match b.checked_sub(1) {
                _ if b < a => Err(RangeError::Backwards),
                Some(last) if last >= a => Ok(Some((a, last))),
                _ => Ok(None),
            }
        }
    }
}

/// Whether `s` is written as a range (`A..B`, `A..=B`) rather than a single number.
pub fn is_range(s: &str) -> bool {
    s.contains("..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_edges() {
        assert_eq!(parse_inclusive("7"), Ok(Some((7, 7))));
        assert_eq!(parse_inclusive("3..9"), Ok(Some((3, 8))));
        assert_eq!(parse_inclusive("3..=9"), Ok(Some((3, 9))));
        assert_eq!(parse_inclusive(" 3 ..= 3 "), Ok(Some((3, 3))));
        assert_eq!(parse_inclusive("5..5"), Ok(None));
        assert_eq!(parse_inclusive("0..0"), Ok(None));
        assert_eq!(parse_inclusive("5..2"), Err(RangeError::Backwards));
        assert_eq!(parse_inclusive("5..=4"), Err(RangeError::Backwards));
        assert_eq!(parse_inclusive("x..3"), Err(RangeError::NotANumber("x".into())));
        assert_eq!(parse_inclusive("-1"), Err(RangeError::NotANumber("-1".into())));
        // The largest bounds do not overflow: `..=MAX` is inclusive, `..MAX` ends one before.
        assert_eq!(parse_inclusive("0..=18446744073709551615"), Ok(Some((0, u64::MAX))));
        assert_eq!(parse_inclusive("0..18446744073709551615"), Ok(Some((0, u64::MAX - 1))));
        assert!(matches!(parse_inclusive("0..18446744073709551616"), Err(RangeError::NotANumber(_))));
    }
}
