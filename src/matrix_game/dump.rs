//! A matrix game with its guessed supports as bytes: what `mancala lukho equilibrium
//! --dump-lp FILE` writes (docs/equilibrium.md, "The restricted game's file"), for solvers and
//! scripts outside a run.
//!
//! The layout, all little-endian: `rows`, `cols`, the lengths of the two guesses, the guessed
//! rows, the guessed columns (each a `u64`), then the `rows × cols` payoffs row by row (each
//! an `f64`). The row player maximises.

use super::solution::LpError;

/// A matrix game (`a`, `rows × cols`, row-major, the row player's payoffs) and the supports a
/// solve may start from (row and column indices, sorted).
#[derive(Clone, Debug, PartialEq)]
pub struct GameDump {
    pub rows: usize,
    pub cols: usize,
    pub rows0: Vec<usize>,
    pub cols0: Vec<usize>,
    pub a: Vec<f64>,
}

impl GameDump {
    pub fn to_bytes(&self) -> Vec<u8> {
        let heads = [self.rows, self.cols, self.rows0.len(), self.cols0.len()];
        let mut out = Vec::with_capacity(8 * (4 + self.rows0.len() + self.cols0.len() + self.a.len()));
        for &x in heads.iter().chain(&self.rows0).chain(&self.cols0) {
            out.extend_from_slice(&(x as u64).to_le_bytes());
        }
        self.a.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        out
    }

    /// A game written by [`GameDump::to_bytes`]; an error says what does not fit.
    pub fn from_bytes(bytes: &[u8]) -> Result<GameDump, LpError> {
        let bad = |why: String| LpError(format!("not a dumped game: {why}"));
        let word = |k: usize| -> Result<u64, LpError> {
            let at = bytes.get(8 * k..8 * k + 8).ok_or_else(|| bad(format!("{} bytes, too short", bytes.len())))?;
            Ok(u64::from_le_bytes(at.try_into().expect("8 bytes")))
        };
        let (rows, cols, nr, nc) = (word(0)? as usize, word(1)? as usize, word(2)? as usize, word(3)? as usize);
        if nr > rows || nc > cols {
            return Err(bad(format!("guesses of {nr} and {nc} in a {rows} × {cols} game")));
        }
        let heads = 4 + nr + nc;
        let want = rows.checked_mul(cols).and_then(|n| n.checked_add(heads)).and_then(|n| n.checked_mul(8));
        if want != Some(bytes.len()) {
            return Err(bad(format!("{} bytes for a {rows} × {cols} game with guesses of {nr} and {nc}", bytes.len())));
        }
        let indices = |from: usize, n: usize, limit: usize| -> Result<Vec<usize>, LpError> {
            let v: Vec<usize> = (from..from + n).map(|k| word(k).map(|x| x as usize)).collect::<Result<_, _>>()?;
            match v.iter().find(|&&i| i >= limit) {
                Some(i) => Err(bad(format!("guessed index {i} beyond {limit}"))),
                None => Ok(v),
            }
        };
        let rows0 = indices(4, nr, rows)?;
        let cols0 = indices(4 + nr, nc, cols)?;
        let a =
            bytes[8 * heads..].chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        Ok(GameDump { rows, cols, rows0, cols0, a })
    }
}
