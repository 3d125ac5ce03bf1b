//! Shards of a sweep: the K-th of N contiguous ranges of the South set, from `--shard K/N` or
//! a scheduler's environment (Slurm job arrays, Kubernetes Indexed Jobs).

use std::str::FromStr;

/// One shard of `count` items: `K/N` with `0 <= K < N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("{0}; expected K/N with 0 <= K < N (e.g. 0/8), or SLURM_ARRAY_TASK_ID + SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX + JOB_COMPLETIONS")]
pub struct ShardError(pub String);

impl Shard {
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(format!("`{s}`"));
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The shard from a scheduler's environment, if one is set: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`) or a
    /// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, of `JOB_COMPLETIONS`, which the job
    /// spec must set to its `completions`).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, ShardError> {
        let num = |name: &str| -> Result<Option<u64>, ShardError> {
            match get(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| ShardError(format!("{name}=`{v}` is not a number"))),
            }
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let count = num("SLURM_ARRAY_TASK_COUNT")?
                .ok_or_else(|| ShardError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not".into()))?;
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let k = id
                .checked_sub(min)
                .ok_or_else(|| ShardError(format!("SLURM_ARRAY_TASK_ID {id} < SLURM_ARRAY_TASK_MIN {min}")))?;
            return Shard::parse(&format!("{k}/{count}")).map(Some);
        }
        if let Some(k) = num("JOB_COMPLETION_INDEX")? {
            let count = num("JOB_COMPLETIONS")?.ok_or_else(|| {
                ShardError("JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS (the job's completions) is not".into())
            })?;
            return Shard::parse(&format!("{k}/{count}")).map(Some);
        }
        Ok(None)
    }

    /// The positions `lo..hi` of this shard among `count` items (contiguous, balanced).
    pub fn range(&self, count: u64) -> (u64, u64) {
        let at = |k: u64| (count as u128 * k as u128 / self.n as u128) as u64;
        (at(self.k), at(self.k + 1))
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        Shard::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_tile() {
        assert_eq!(Shard::parse("2/5").unwrap(), Shard { k: 2, n: 5 });
        for bad in ["5/5", "1/0", "1", "a/b", "-1/3", "1/2/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        // Ranges tile the items exactly.
        for n in 1..9u64 {
            let mut next = 0;
            for k in 0..n {
                let (lo, hi) = Shard { k, n }.range(13);
                assert_eq!(lo, next);
                next = hi;
            }
            assert_eq!(next, 13);
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(Shard::from_env(env(&[])).unwrap(), None);
        let s = Shard::from_env(env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]));
        assert_eq!(s.unwrap(), Some(Shard { k: 2, n: 4 }));
        let s = Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0"), ("JOB_COMPLETIONS", "2")]));
        assert_eq!(s.unwrap(), Some(Shard { k: 0, n: 2 }));
        assert!(Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0")])).is_err());
        assert!(Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_COUNT", "4")])).is_err());
    }
}
