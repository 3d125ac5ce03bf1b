//! `lukho merge`: the part files of a sharded sweep checked and combined into the summaries
//! an unsharded run writes.

use super::output::write_summaries;
use super::part::{combine, read_part, PartError};
use super::plan::{RunError, SWEEP_LOCK};
use crate::games::lukho::{Choice, Rules};
use crate::input::{check_out_dir, InputError};
use crate::store::{DirLock, OutputSet};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// What a merge wrote: the global summary and the South choices it covers.
pub struct Merged {
    pub summary: Json,
    pub south_choices: usize,
}

/// Check the part files of one sweep (any read or cover failure is bad input, field `parts`)
/// and write the summaries into `out` as an unsharded run would.
pub fn merge(out: &Path, paths: &[PathBuf]) -> Result<Merged, RunError> {
    let bad = |e: PartError| InputError::new("parts", e.to_string());
    let parts = paths.iter().map(|p| read_part(p).map_err(bad)).collect::<Result<Vec<_>, _>>()?;
    let (identity, rows) = combine(parts).map_err(bad)?;
    let rules: Rules = serde_json::from_value(identity["rules"].clone())
        .map_err(|_| InputError::new("parts", "rules: not Lukho rules"))?;
    // Ids and set sizes past the rules' choices are no sweep's (and would overflow the pair
    // count or name no choice in the summary).
    let count = Choice::count(&rules);
    if identity["north_choices"].as_u64().is_none_or(|n| n > count) {
        return Err(InputError::new(
            "parts",
            format!("north_choices: {} is not a set of choices", identity["north_choices"]),
        )
        .into());
    }
    if let Some((id, _)) = rows.iter().find(|(id, _)| *id as u64 >= count) {
        return Err(
            InputError::new("parts", format!("rows: South id {id} is past the last choice {}", count - 1)).into()
        );
    }
    check_out_dir(out)?;
    // Alone in the directory: the summaries replace an unsharded run's, as one set.
    let _lock = DirLock::acquire(out, SWEEP_LOCK)?;
    let io = |source| RunError::Io { what: format!("writing {}", out.display()), source };
    let set = OutputSet::begin(out).map_err(io)?;
    let summary = write_summaries(set.staging(), &identity, &rules, &rows).map_err(io)?;
    set.commit().map_err(io)?;
    Ok(Merged { summary, south_choices: rows.len() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lukho::Races;
    use crate::sweep::part::{identity, write_part};
    use crate::sweep::summary::{Agg, AGG_INTS};
    use crate::sweep::{Shard, Spec, SweepDef};
    use serde_json::json;

    /// A part file with `rows` (ids and their integers), consistent header and checksum.
    fn crafted(dir: &Path, name: &str, north_choices: u64, rows: &[(u32, [i64; AGG_INTS])]) -> PathBuf {
        let (south, north) = (Spec::parse("0..3").unwrap(), Spec::parse("0..5").unwrap());
        let d = SweepDef::new(Rules::default(), "sequential".parse::<Races>().unwrap(), south, Some(north), false);
        let mut id = identity(&d.unwrap(), rows.len() as u64, north_choices);
        id["north_choices"] = json!(north_choices);
        let rows: Vec<(u32, Agg)> = rows.iter().map(|(i, v)| (*i, Agg::from_ints(v))).collect();
        let path = dir.join(name);
        write_part(&path, &id, Shard { k: 0, n: 1 }, (0, rows.len() as u64), &rows).unwrap();
        path
    }

    /// Merging crafted parts (checksums right) refuses what no sweep writes instead of
    /// panicking: a North set larger than the choices (the pair count would overflow), a South
    /// id past the last choice (its summary row names no choice), and counts that overflow
    /// when rows are added (a negative count is a huge one).
    #[test]
    fn merge_refuses_what_no_sweep_writes() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let zero = Agg::default().to_ints();
        let p = crafted(dir.path(), "a.lukho", u64::MAX, &[(0, zero), (1, zero)]);
        let e = merge(&out, &[p]).err().unwrap().to_string();
        assert!(e.contains("north_choices"), "{e}");
        let p = crafted(dir.path(), "b.lukho", 5, &[(0, zero), (4_202_726_611, zero)]);
        let e = merge(&out, &[p]).err().unwrap().to_string();
        assert!(e.contains("South id 4202726611"), "{e}");
        let mut huge = zero;
        huge[0] = -1;
        let p = crafted(dir.path(), "c.lukho", 5, &[(0, huge), (1, huge)]);
        let e = merge(&out, &[p]).err().unwrap().to_string();
        assert!(e.contains("row 0: counts out of range"), "{e}");
        assert!(!out.exists());
    }
}
