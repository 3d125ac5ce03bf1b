//! North's best replies to a set of South choices, and the most common one
//! (`mancala lukho replies`).
//!
//! For each South choice `s` of the set, its row `A(s, ·)` over the whole family (one sweep,
//! or the saved vector of an earlier equilibrium run in the same directory) gives South's
//! worst payoff `min_n A(s, n)`, and every North choice reaching it is *a* best reply to `s`.
//! Best replies are rarely unique (a 48–0 win is often reached many ways), so "North's most
//! common best reply" is defined as the North choice that is a best reply to the most South
//! choices of the set; ties go to the lowest mean payoff to South over the set, then to the
//! lowest id. Counting every best reply, not one per South choice, makes the answer
//! independent of any tie-breaking inside a row.

use super::observer::Observer;
use super::vectors::Kind;
use super::{EqError, Solver};
use crate::export::{Column, Format, TableWriter, Value};
use crate::games::lukho::Choice;
use crate::sweep::InputError;
use rayon::prelude::*;
use std::path::PathBuf;

/// One South choice of the set: what North's best replies hold it to.
#[derive(Clone, Debug, PartialEq)]
pub struct SouthBest {
    pub id: u32,
    /// South's worst payoff over the family (payoff units).
    pub value: f64,
    /// How many North choices reach it.
    pub replies: u64,
    /// The lowest-id one.
    pub first_reply: u32,
}

/// A North choice and how often it is a best reply.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplyCount {
    pub id: u32,
    /// South choices of the set it is a best reply to.
    pub best_for: u32,
    /// Mean payoff to South over the set (payoff units).
    pub mean: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Replies {
    pub south: Vec<SouthBest>,
    /// The `top` most common best replies, most common first (ties as in the module doc).
    pub top: Vec<ReplyCount>,
    /// North choices that are a best reply to at least one South choice of the set.
    pub distinct: u64,
    pub games: u64,
}

impl Solver {
    /// Best replies to each of `south` (family members) over the whole family, counted per
    /// North choice. Vectors are saved in the run's directory like the equilibrium's own
    /// (a rerun sweeps nothing) but are not kept in memory, so the set may be large.
    pub fn replies(&mut self, south: &[u32], top: usize, obs: &dyn Observer) -> Result<Replies, EqError> {
        for &id in south {
            if self.ids().binary_search(&id).is_err() {
                let family = &self.def().family.text;
                return Err(InputError::new("south", format!("choice {id} is not in the family `{family}`")).into());
            }
        }
        self.hold()?;
        // Saved rows of an earlier run, in this run's width (else they would be swept again).
        self.store.narrow_saved(&mut self.run)?;
        let n = self.ids().len();
        let mut best_for = vec![0u32; n];
        let mut sums = vec![0i64; n];
        let mut rows = Vec::with_capacity(south.len());
        let mut games = 0;
        for &s in south {
            let swept = self.ensure(Kind::Row, s, obs)?;
            games += swept;
            // Saved now and then after a sweep, so an interrupted run resumes near where it
            // stopped (a vector swept but not yet named in the state is swept again).
            if swept > 0 {
                self.run.save_throttled()?;
            }
            let (v, sign) = self.store.vector(Kind::Row, s);
            let sign = sign as i64;
            let min = (0..v.len()).into_par_iter().map(|k| sign * v.at(k) as i64).min().expect("non-empty family");
            let (count, first) = best_for
                .par_iter_mut()
                .zip(sums.par_iter_mut())
                .enumerate()
                .map(|(k, (b, sum))| {
                    let x = sign * v.at(k) as i64;
                    *sum += x;
                    if x == min {
                        *b += 1;
                        (1u64, k)
                    } else {
                        (0, usize::MAX)
                    }
                })
                .reduce(|| (0, usize::MAX), |a, b| (a.0 + b.0, a.1.min(b.1)));
            rows.push(SouthBest {
                id: s,
                value: min as f64 / self.def().scale(),
                replies: count,
                first_reply: self.ids()[first],
            });
            // Free the vector's pages now; the file stays.
            self.store.release(Kind::Row, s);
        }
        let distinct = best_for.par_iter().filter(|&&b| b > 0).count() as u64;
        let mut order: Vec<usize> = (0..n).filter(|&k| best_for[k] > 0).collect();
        order.sort_by_key(|&k| (std::cmp::Reverse(best_for[k]), sums[k], k));
        let scale = self.def().scale() * south.len().max(1) as f64;
        let top = order
            .iter()
            .take(top)
            .map(|&k| ReplyCount { id: self.ids()[k], best_for: best_for[k], mean: sums[k] as f64 / scale })
            .collect();
        self.run.state.games += games;
        if games > 0 {
            self.run.save()?;
        }
        Ok(Replies { south: rows, top, distinct, games })
    }
}

/// A family member as text (`r0,…,r7 COUNT@PIT`).
fn choice_text(solver: &Solver, id: u32) -> String {
    Choice::from_id(id as u64, &solver.def().rules).expect("family member").to_string()
}

impl Replies {
    /// The answer as JSON: the run's identity, the most common reply, the top list and
    /// every South choice's best value.
    pub fn to_json(&self, solver: &Solver) -> serde_json::Value {
        let text = |id: u32| choice_text(solver, id);
        let top: Vec<_> = self
            .top
            .iter()
            .map(|t| serde_json::json!({"id": t.id, "choice": text(t.id), "best_reply_to": t.best_for, "mean_south_payoff": t.mean}))
            .collect();
        serde_json::json!({
            "identity": solver.identity(),
            "south_choices": self.south.len(),
            "distinct_best_replies": self.distinct,
            "games": self.games,
            "most_common": top.first(),
            "top": top,
            "south": self.south.iter().map(|b| serde_json::json!({
                "id": b.id, "choice": text(b.id), "value": b.value, "best_replies": b.replies,
                "first_reply": b.first_reply})).collect::<Vec<_>>(),
        })
    }

    /// Writes `replies.json`, `replies-top.csv` and `replies-south.csv` in the run's
    /// directory, as one set (the tables carry the run's identity); returns their paths.
    pub fn write(&self, solver: &Solver) -> Result<Vec<PathBuf>, EqError> {
        let set = crate::store::OutputSet::begin(&solver.store.dir).map_err(super::io_err(&solver.store.dir))?;
        self.write_into(solver, set.staging())?;
        set.commit().map_err(super::io_err(&solver.store.dir))?;
        Ok(["replies.json", "replies-top.csv", "replies-south.csv"].map(|n| solver.store.dir.join(n)).to_vec())
    }

    fn write_into(&self, solver: &Solver, dir: &std::path::Path) -> Result<(), EqError> {
        let text = |id: u32| Value::Str(choice_text(solver, id));
        let int = |x: u64| Value::Int(x as i64);
        let top_path = dir.join("replies-top.csv");
        let top_columns = vec![
            Column::Int("north_id"),
            Column::Str("north_choice"),
            Column::Int("best_reply_to"),
            Column::Int("of_south_choices"),
            Column::Float("mean_south_payoff"),
        ];
        let south_path = dir.join("replies-south.csv");
        let south_columns = vec![
            Column::Int("south_id"),
            Column::Str("south_choice"),
            Column::Float("value"),
            Column::Int("best_replies"),
            Column::Int("first_reply_id"),
            Column::Str("first_reply_choice"),
        ];
        let mut top = TableWriter::create(&top_path, Format::Csv, top_columns, solver.identity())
            .map_err(super::io_err(&top_path))?;
        for t in &self.top {
            let row = [
                int(t.id as u64),
                text(t.id),
                int(t.best_for as u64),
                int(self.south.len() as u64),
                Value::Float(t.mean),
            ];
            top.row(&row).map_err(super::io_err(&top_path))?;
        }
        let mut south = TableWriter::create(&south_path, Format::Csv, south_columns, solver.identity())
            .map_err(super::io_err(&south_path))?;
        for b in &self.south {
            let row = [
                int(b.id as u64),
                text(b.id),
                Value::Float(b.value),
                int(b.replies),
                int(b.first_reply as u64),
                text(b.first_reply),
            ];
            south.row(&row).map_err(super::io_err(&south_path))?;
        }
        let json_path = dir.join("replies.json");
        super::write_bytes_atomic(&json_path, format!("{:#}\n", self.to_json(solver)).as_bytes())?;
        top.finish().map_err(super::io_err(&top_path))?;
        south.finish().map_err(super::io_err(&south_path))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{full_matrix, OpeningGame, Payoff, Quiet, Solver};
    use crate::games::lukho::Races;
    use crate::games::lukho::Rules;
    use crate::sweep::Spec;

    /// The counts equal a direct reading of the full payoff matrix of a small family.
    #[test]
    fn replies_match_the_full_matrix() {
        let rules = Rules::default();
        for race in ["sequential", "south-first"] {
            let def = OpeningGame {
                rules,
                model: race.parse::<Races>().unwrap(),
                payoff: Payoff::Margin,
                family: Spec::parse("all:remove=000000**").unwrap(),
            };
            let dir = tempfile::tempdir().unwrap();
            let mut solver = Solver::open(def.clone(), dir.path()).unwrap();
            let ids = solver.store.ids.clone();
            let south: Vec<u32> = ids.iter().copied().step_by(7).collect();
            let r = solver.replies(&south, ids.len(), &Quiet).unwrap();
            let a = full_matrix(&def, &ids);
            let n = ids.len();
            let mut count = vec![0u32; n];
            for (row, sb) in south.iter().zip(&r.south) {
                let i = ids.binary_search(row).unwrap();
                let line = &a[i * n..(i + 1) * n];
                let min = line.iter().cloned().fold(f64::INFINITY, f64::min);
                assert_eq!(sb.value, min);
                let best: Vec<usize> = (0..n).filter(|&k| line[k] == min).collect();
                assert_eq!(sb.replies, best.len() as u64);
                assert_eq!(sb.first_reply, ids[best[0]]);
                for k in best {
                    count[k] += 1;
                }
            }
            let max = *count.iter().max().unwrap();
            assert_eq!(r.top[0].best_for, max, "{race}");
            assert_eq!(r.distinct, count.iter().filter(|&&c| c > 0).count() as u64);
            // A rerun (once the first run has let go of the directory) reads the saved vectors
            // and plays no game.
            drop(solver);
            let mut again = Solver::open(def, dir.path()).unwrap();
            let r2 = again.replies(&south, ids.len(), &Quiet).unwrap();
            assert_eq!(r2.games, 0);
            assert_eq!((r2.south, r2.top), (r.south, r.top));
        }
    }
}
