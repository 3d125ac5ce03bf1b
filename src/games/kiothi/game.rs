//! The end of a game (K8), repetition (K9, docs/rules/README.md C5) and the checked [`Game`].

use super::{Board, KiothiError, Move, Phase, Position, Rules, SowMove, SowingCache};
use crate::side::Side;

impl Position {
    /// K8 at this position: the ending when the mover has no legal move.
    pub fn ending(&self, rules: &Rules, sowing: &SowingCache) -> Option<GameResult> {
        if self.has_legal_move(rules, sowing) {
            return None;
        }
        let mut score = [self.prisons[0] as f64, self.prisons[1] as f64];
        score[self.to_move.other().index()] += self.warriors_on_board() as f64;
        Some(GameResult { score, reason: EndReason::NoLegalMove { stuck: self.to_move } })
    }
}

/// How a game ended, with final totals (halves allowed under `split`): each player's prison plus
/// what the ending gives.
pub type GameResult = crate::games::result::GameResult<EndReason>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// K8: `stuck` had no legal move; the other player took every warrior on the board.
    NoLegalMove { stuck: Side },
    /// K9 / common rule `split`: a position repeated; the board was divided evenly.
    Repetition,
}

impl GameResult {
    /// K8: a win by exactly two warriors ("victory by one warrior"), flagged.
    pub fn win_by_exactly_two(&self) -> bool {
        (self.score[0] - self.score[1]).abs() == 2.0
    }
}

/// The repetition key (K9): boma, marks, side to move and phase; prisons are left out, as
/// the common rule says (they cannot differ when the board repeats anyway: captures only grow).
type RepetitionKey = (Board, u32, Side, Phase);

/// A game in progress: the position plus the positions seen since the last capture (earlier
/// ones cannot recur, since warriors never return to the board), and the game's own sowing
/// cache.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
    pub position: Position,
    pub(super) seen: Vec<RepetitionKey>,
    pub result: Option<GameResult>,
    sowing: SowingCache,
}

pub(super) fn key(p: &Position) -> RepetitionKey {
    (p.boma, p.nki, p.to_move, p.phase())
}

impl Game {
    pub fn new(rules: Rules, position: Position) -> Result<Self, KiothiError> {
        position.validate()?;
        let sowing = SowingCache::new();
        let result = position.ending(&rules, &sowing);
        Ok(Game { rules, position, seen: vec![key(&position)], result, sowing })
    }

    /// The legal sowing moves (empty when the game has ended or on a redistribution turn:
    /// count those with [`Position::redistribution_count`]).
    pub fn legal_sowings(&self) -> Vec<SowMove> {
        if self.result.is_some() {
            return vec![];
        }
        let mut moves = Vec::new();
        self.position.for_each_child(&self.rules, &self.sowing, |c| moves.push(c.mv));
        moves
    }

    /// Checked play; on success the game may have ended (K8 or K9), see `result`.
    pub fn play(&mut self, m: &Move) -> Result<(), KiothiError> {
        if self.result.is_some() {
            return Err(KiothiError::Ended);
        }
        let next = self.position.play(&self.rules, &self.sowing, m)?;
        if next.prisons != self.position.prisons {
            self.seen.clear();
        }
        self.position = next;
        let k = key(&next);
        if self.seen.contains(&k) {
            let half = next.warriors_on_board() as f64 / 2.0;
            let score = [next.prisons[0] as f64 + half, next.prisons[1] as f64 + half];
            self.result = Some(GameResult { score, reason: EndReason::Repetition });
        } else {
            self.seen.push(k);
            self.result = next.ending(&self.rules, &self.sowing);
        }
        Ok(())
    }
}
