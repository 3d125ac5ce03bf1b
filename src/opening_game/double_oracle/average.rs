//! `--average K`: the uniform average of the last K iterations' LP mixes, answered like an LP
//! mix (one best-reply pass a side). The restricted games' optimal mixes jump between far-apart
//! vertices of large optimal faces, and what beats one vertex is often beaten at another: on the
//! full `lockstep` run five consecutive mixes each conceded 2.50–2.64 seeds to a best reply,
//! the average of the last two 1.94, of the last four 1.75. The average's bound may improve the
//! certificate, and its best reply joins the candidates.

use super::super::observer::Observer;
use super::super::options::Weights;
use super::super::state::{Certified, State};
use super::super::store::Mix;
use super::super::vectors::Kind;
use super::{Solver, TOLERANCE};
use crate::opening_game::EqError;
use crate::side::Side;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// An iteration's averaged mixes and what they prove (all `None` when averaging is off or
/// there is nothing to average yet).
pub(super) struct Averaged {
    /// South's average, what it guarantees; North's, what it concedes.
    south: Option<(Vec<(u32, f64)>, f64)>,
    north: Option<(Vec<(u32, f64)>, f64)>,
    /// The opponents' best replies to them that beat the restricted game's value, best first
    /// (at most `--average-replies`).
    pub(super) north_replies: Vec<u32>,
    pub(super) south_replies: Vec<u32>,
}

impl Averaged {
    pub(super) fn lower(&self) -> Option<f64> {
        self.south.as_ref().map(|s| s.1)
    }

    pub(super) fn upper(&self) -> Option<f64> {
        self.north.as_ref().map(|n| n.1)
    }

    /// Improve the run's certificate with the averages' bounds.
    pub(super) fn certify(self, st: &mut State, iteration: u32) {
        if let Some((mix, g)) = self.south {
            if st.best_south.as_ref().is_none_or(|b| g > b.bound) {
                st.best_south = Some(Certified { bound: g, iteration, mix });
            }
        }
        if let Some((mix, u)) = self.north {
            if st.best_north.as_ref().is_none_or(|b| u < b.bound) {
                st.best_north = Some(Certified { bound: u, iteration, mix });
            }
        }
    }
}

impl Solver {
    /// Average this iteration's mixes `x`, `y` with the state's recent ones and answer each
    /// average over the whole family (sweeping any member's missing vector).
    pub(super) fn answer_average(
        &mut self,
        x: Mix<'_>,
        y: Mix<'_>,
        restricted_value: f64,
        obs: &dyn Observer,
    ) -> Result<Averaged, EqError> {
        let mut out = Averaged { south: None, north: None, north_replies: vec![], south_replies: vec![] };
        let (average, k) = (self.options.average, self.options.average_replies.max(1));
        if self.options.average_weights.by_scores() {
            let scale = self.store.def.scale();
            let anchored = self.options.average_weights == Weights::Anchored;
            let st = &self.run.state;
            let (anchor_s, anchor_n) =
                if anchored { (st.best_south.clone(), st.best_north.clone()) } else { (None, None) };
            let recent = st.recent_south.clone();
            if let Some(ms) = window(average, &recent, x) {
                // North's scores are his gains: South's payoffs negated.
                let (mix, replies) = self.scores.optimal_average(
                    &self.store,
                    anchor_s.as_ref(),
                    Side::South,
                    &ms,
                    k,
                    &self.reply_time,
                )?;
                out.north_replies =
                    replies.iter().filter(|r| -r.0 / scale < restricted_value - TOLERANCE).map(|r| r.1).collect();
                out.south = Some((mix, -replies[0].0 / scale));
            }
            let recent = self.run.state.recent_north.clone();
            if self.store.def.symmetric() {
                out.north = out.south.as_ref().map(|(m, g)| (m.clone(), -g));
                out.south_replies = out.north_replies.clone();
            } else if let Some(ms) = window(average, &recent, y) {
                let (mix, replies) = self.scores.optimal_average(
                    &self.store,
                    anchor_n.as_ref(),
                    Side::North,
                    &ms,
                    k,
                    &self.reply_time,
                )?;
                out.south_replies =
                    replies.iter().filter(|r| r.0 / scale > restricted_value + TOLERANCE).map(|r| r.1).collect();
                out.north = Some((mix, replies[0].0 / scale));
            }
            return Ok(out);
        }
        if let Some(xa) = averaged(average, &self.run.state.recent_south, x) {
            self.ensure_mix(Kind::Row, &xa, obs)?;
            let t = Instant::now();
            let ranked = self.store.north_ranked(&xa, k);
            self.reply_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            out.north_replies =
                ranked.iter().filter(|&&(g, _)| g < restricted_value - TOLERANCE).map(|&(_, c)| c).collect();
            out.south = Some((xa, ranked[0].0));
        }
        if self.store.def.symmetric() {
            // North's average is South's, its best replies mirror South's.
            out.north = out.south.as_ref().map(|(m, g)| (m.clone(), -g));
            out.south_replies = out.north_replies.clone();
        } else if let Some(ya) = averaged(average, &self.run.state.recent_north, y) {
            self.ensure_mix(Kind::Col, &ya, obs)?;
            let t = Instant::now();
            let ranked = self.store.south_ranked(&ya, k);
            self.reply_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            out.south_replies =
                ranked.iter().filter(|&&(u, _)| u > restricted_value + TOLERANCE).map(|&(_, c)| c).collect();
            out.north = Some((ya, ranked[0].0));
        }
        Ok(out)
    }
}

/// The uniform average of `mix` and the last `average − 1` mixes of `recent`, by choice id
/// (summed in a fixed order, so a resumed run gets the same bits); `None` when averaging is
/// off or there is nothing before `mix` yet.
fn averaged(average: usize, recent: &[Vec<(u32, f64)>], mix: Mix<'_>) -> Option<Vec<(u32, f64)>> {
    let mixes = window(average, recent, mix)?;
    let k = mixes.len() as f64;
    let mut sum: BTreeMap<u32, f64> = BTreeMap::new();
    for m in mixes {
        for &(id, w) in m {
            *sum.entry(id).or_default() += w / k;
        }
    }
    Some(sum.into_iter().collect())
}

/// `mix` after the last `average − 1` mixes of `recent` (oldest first); `None` when averaging
/// is off or there is nothing before `mix` yet.
fn window<'a>(average: usize, recent: &'a [Vec<(u32, f64)>], mix: Mix<'a>) -> Option<Vec<Mix<'a>>> {
    if average < 2 || recent.is_empty() {
        return None;
    }
    let from = recent.len().saturating_sub(average - 1);
    Some(recent[from..].iter().map(Vec::as_slice).chain([mix]).collect())
}
