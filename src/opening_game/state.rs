//! The resumable state file of a run: a checksummed header naming the run, then the body.

use super::double_oracle::IterRecord;
use super::{io_err, write_bytes_atomic, EqError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

pub const STATE_MAGIC: &str = "mancala-lukho-equilibrium-state";
pub const STATE_FORMAT: u64 = 1;
pub const STATE_FILE: &str = "state.lukho-eq";

/// The resumable state: everything after the last completed iteration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Restricted sets, in the order members were added.
    pub south: Vec<u32>,
    pub north: Vec<u32>,
    pub log: Vec<IterRecord>,
    /// The last iteration's mixes (id, weight), support only.
    pub south_strategy: Vec<(u32, f64)>,
    pub north_strategy: Vec<(u32, f64)>,
    /// Converged, or stopped because neither best response was new.
    pub done: bool,
    pub stalled: bool,
    /// Saved vectors: file name under `columns/` → CRC-32 of its bytes.
    pub vectors: BTreeMap<String, u32>,
    pub games: u64,
    pub seconds: f64,
    /// The run's certificate: the South mix with the best (highest) guarantee and the North
    /// mix with the best (lowest) concession seen in any iteration, each evaluated over every
    /// choice of the family. Absent in states written before it was kept.
    #[serde(default)]
    pub best_south: Option<Certified>,
    #[serde(default)]
    pub best_north: Option<Certified>,
    /// Saved vector → the last iteration whose mix used it: with a vector budget the least
    /// recently used are deleted first. Absent in older states (their vectors count as unused).
    #[serde(default)]
    pub vector_used: BTreeMap<String, u32>,
    /// The last iterations' LP mixes (oldest first, at most `--average K` − 1 of them): with
    /// this iteration's, their uniform average is a mix evaluated each iteration too (see
    /// [`super::double_oracle::Solver::average`]). Absent in older states (none yet).
    #[serde(default)]
    pub recent_south: Vec<Vec<(u32, f64)>>,
    #[serde(default)]
    pub recent_north: Vec<Vec<(u32, f64)>>,
}

/// A mix and the bound it proves: South's mix guarantees at least `bound` against every North
/// choice of the family, North's concedes at most `bound` to every South choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certified {
    pub bound: f64,
    /// The iteration whose mix it is.
    pub iteration: u32,
    /// (choice id, weight), support only, in the order the bound was evaluated.
    pub mix: Vec<(u32, f64)>,
}

impl State {
    /// The certificate of a state written before it was kept: the last iteration's mixes,
    /// which are saved with the bounds they proved.
    pub(super) fn seed_certificate(&mut self) {
        let Some(last) = self.log.last() else { return };
        if self.best_south.is_none() && !self.south_strategy.is_empty() {
            let mix = self.south_strategy.clone();
            self.best_south = Some(Certified { bound: last.lower, iteration: last.iteration, mix });
        }
        if self.best_north.is_none() && !self.north_strategy.is_empty() {
            let mix = self.north_strategy.clone();
            self.best_north = Some(Certified { bound: last.upper, iteration: last.iteration, mix });
        }
    }

    /// The certified bounds so far: (best lower, best upper), infinite while unknown.
    pub fn certified(&self) -> (f64, f64) {
        (
            self.best_south.as_ref().map_or(f64::NEG_INFINITY, |c| c.bound),
            self.best_north.as_ref().map_or(f64::INFINITY, |c| c.bound),
        )
    }

    /// Refuse a state whose restricted sets are empty or whose sets or mixes name a choice
    /// outside the family `ids` (sorted): a resume looks every member up in the family. The
    /// checksum cannot tell: such a state was written by another tool or edited by hand.
    pub fn check_members(&self, path: &Path, ids: &[u32]) -> Result<(), EqError> {
        let mixes = |m: &[(u32, f64)]| m.iter().map(|&(id, _)| id).collect::<Vec<_>>();
        let lists = [
            ("south", self.south.clone()),
            ("north", self.north.clone()),
            ("south_strategy", mixes(&self.south_strategy)),
            ("north_strategy", mixes(&self.north_strategy)),
            ("best_south", self.best_south.as_ref().map_or(vec![], |c| mixes(&c.mix))),
            ("best_north", self.best_north.as_ref().map_or(vec![], |c| mixes(&c.mix))),
        ];
        for (field, list) in &lists[..2] {
            if list.is_empty() {
                return Err(EqError::state(path, format!("{field}: the restricted set is empty")));
            }
        }
        for (field, list) in &lists {
            if let Some(id) = list.iter().find(|id| ids.binary_search(id).is_err()) {
                return Err(EqError::state(path, format!("{field}: choice {id} is not in the family")));
            }
        }
        Ok(())
    }
}

/// The state file: a JSON header line (magic, format, identity, CRC-32 and length of the
/// body), then the body (the [`State`] as JSON). Written to a temporary name, then renamed.
pub fn write_state(path: &Path, identity: &Json, st: &State) -> Result<(), EqError> {
    let body = serde_json::to_string(st).expect("state serialises");
    let head = json!({"magic": STATE_MAGIC, "format": STATE_FORMAT, "identity": identity, "crc32": crc32fast::hash(body.as_bytes()), "bytes": body.len()});
    write_bytes_atomic(path, format!("{head}\n{body}\n").as_bytes())
}

/// Read a state, refusing one that is corrupt or belongs to another run (naming the field).
pub fn read_state(path: &Path, identity: &Json) -> Result<State, EqError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| EqError::state(path, "not an equilibrium state (not text)"))?;
    let (head, body) =
        text.split_once('\n').ok_or_else(|| EqError::state(path, "not an equilibrium state (no header line)"))?;
    let head: Json =
        serde_json::from_str(head).map_err(|_| EqError::state(path, "not an equilibrium state (bad header)"))?;
    if head["magic"] != STATE_MAGIC {
        return Err(EqError::state(path, "magic: not an equilibrium state"));
    }
    if head["format"] != STATE_FORMAT {
        return Err(EqError::state(path, format!("format: {} (this tool reads {STATE_FORMAT})", head["format"])));
    }
    let body = body.strip_suffix('\n').unwrap_or(body);
    if head["bytes"].as_u64() != Some(body.len() as u64)
        || head["crc32"].as_u64() != Some(crc32fast::hash(body.as_bytes()) as u64)
    {
        return Err(EqError::state(path, "crc32: the body does not match its checksum (corrupt or truncated)"));
    }
    if let Some(obj) = identity.as_object() {
        for (k, want) in obj {
            let got = &head["identity"][k];
            if got != want {
                return Err(EqError::state(
                    path,
                    format!("{k}: the state is of {got}, this run is {want} (a different run)"),
                ));
            }
        }
    }
    serde_json::from_str(body).map_err(|e| EqError::state(path, format!("body: {e}")))
}

#[cfg(test)]
mod fuzz_regressions {
    use super::*;

    /// A state naming a choice outside the family (checksum right) is refused before a
    /// resume looks the choice up among the family's vectors.
    #[test]
    fn members_outside_the_family_are_refused() {
        let path = Path::new("state.lukho-eq");
        let ids = [0, 1, 2];
        let ok = State { south: vec![0, 1], north: vec![0, 2], south_strategy: vec![(1, 1.0)], ..State::default() };
        ok.check_members(path, &ids).unwrap();
        let cases = [
            ("south", State { south: vec![0, 1, 5000], ..ok.clone() }),
            ("north", State { north: vec![], ..ok.clone() }),
            ("north_strategy", State { north_strategy: vec![(3, 1.0)], ..ok.clone() }),
        ];
        for (field, st) in cases {
            let e = st.check_members(path, &ids).unwrap_err().to_string();
            assert!(e.contains(&format!("{field}: ")), "{field}: {e}");
        }
    }
}
