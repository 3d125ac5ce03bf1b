//! One player's mix for an iteration: the restricted LP's, refined against the opponent's best
//! replies over the whole family (`--cuts`), with the pass that ranks those replies.

use super::super::observer::Observer;
use super::super::store::Mix;
use super::super::vectors::Kind;
use super::{EqError, Solver, TOLERANCE};
use crate::side::Side;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// A refined mix: what it guarantees over the whole family, the opponent's best reply to it,
/// and the plain restricted game's LP value and reply (the first step).
pub(super) struct Refined {
    pub(super) guarantee: f64,
    pub(super) mix: Vec<(u32, f64)>,
    pub(super) reply: u32,
    /// The opponent's best replies to `mix` with distinct payoffs, best first (the first is `reply`).
    pub(super) replies: Vec<(f64, u32)>,
    pub(super) first_value: f64,
    pub(super) first_reply: u32,
    /// The opponent's score vector against `mix` (`--average-weights optimal` only).
    pub(super) scores: Option<Vec<f64>>,
}

impl Refined {
    /// The opponent's further replies that beat the restricted game's value (best first).
    pub(super) fn more(&self) -> Vec<u32> {
        self.replies.iter().skip(1).filter(|&&(g, _)| g < self.first_value - TOLERANCE).map(|&(_, c)| c).collect()
    }
}

impl Solver {
    /// One player's best mix over his restricted set `own` against EVERY opposing choice of
    /// the family, by constraint generation: the LP starts with the opponent's restricted set
    /// as its columns (the plain double-oracle game), then adds the opponent's best reply to
    /// the current mix while that reply beats the LP's value (at most `--cuts` times;
    /// 0 = plain double oracle). The LP's entries are played pairwise; the opponent's best
    /// reply over the family needs the vectors of the mix's support only (swept the first
    /// time a member is in one). `side`: the player (North's payoff is South's negated).
    pub(super) fn refine(
        &mut self,
        side: Side,
        own: &[u32],
        cuts0: &[u32],
        hints: (Mix<'_>, Mix<'_>),
        mut first: Option<(f64, Vec<f64>)>,
        obs: &dyn Observer,
    ) -> Result<Refined, EqError> {
        let mut cuts = cuts0.to_vec();
        let mut best: Option<Refined> = None;
        for step in 0..=self.options.cuts {
            let (v, w) = match first.take() {
                Some(solved) => solved,
                None => {
                    let gap = self.gap_now();
                    let mut lp = self.game.lp(&self.store, side, own, &cuts, cuts0, hints, gap, &self.options);
                    let t = Instant::now();
                    let solved = lp.solve()?;
                    self.lp_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
                    if step == 0 {
                        self.game.keep_warm(side, &mut lp, self.options.cuts);
                    }
                    solved
                }
            };
            let mix: Vec<(u32, f64)> = own.iter().copied().zip(w).filter(|&(_, w)| w > 0.0).collect();
            // South's mix is answered through its members' rows, North's through their columns.
            self.ensure_mix(Kind::of(side), &mix, obs)?;
            let t = Instant::now();
            // The opponent's scores (North's gains against South's mix, South's against North's)
            // as the player's payoffs: the mix's guarantee first.
            let keep = self.options.average > 1 && self.options.average_weights.by_scores();
            let store = &self.store;
            let (top, scores) = store.ranked_keep(&store.side_terms(side, &mix), self.options.replies.max(1), keep);
            let replies: Vec<(f64, u32)> =
                top.into_iter().map(|(b, p)| (-b / store.def.scale(), store.ids[p])).collect();
            self.reply_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            let (g, br) = replies[0];
            let (first_value, first_reply) = best.as_ref().map_or((v, br), |b| (b.first_value, b.first_reply));
            if best.as_ref().is_none_or(|b| g > b.guarantee) {
                best = Some(Refined { guarantee: g, mix, reply: br, replies, first_value, first_reply, scores });
            }
            if v - g <= TOLERANCE / 4.0 || cuts.contains(&br) || step == self.options.cuts {
                break;
            }
            cuts.push(br);
        }
        Ok(best.expect("at least one step"))
    }
}
