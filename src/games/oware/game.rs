//! A game with its history: checked play, the endings O5–O7 before each move and the
//! repetition rule O8 after it, with final totals.

use super::board::{View, ROW};
use super::moves::{Ending, Node};
use super::position::Position;
use super::rules::{Cycle, Rules};
use crate::side::Side;

/// O7: a player who has captured this many has won.
pub const WINNING_STORE: u32 = 25;

/// How a game ended, with final totals (halves allowed).
pub type GameResult = crate::games::result::GameResult<EndReason>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// O5 / O6 sweep.
    Sweep(Ending),
    /// O7: someone reached 25, or both 24; the board is left unallocated.
    Majority,
    /// A repeated position under the cycle rule in force.
    Repetition(Cycle),
}

/// Errors of checked play.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlayError {
    #[error("move {pit} is not legal (legal: {legal:?})")]
    Illegal { pit: u8, legal: Vec<u8> },
    #[error("the game has ended")]
    Ended,
}

/// A game in progress: the position plus what the repetition rules need (positions seen since
/// the last capture; earlier ones cannot recur since seeds never return to the board).
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
    pub position: Position,
    seen: Vec<(View, Side)>,
    pub result: Option<GameResult>,
}

impl Game {
    pub fn new(rules: Rules, position: Position) -> Self {
        let mut g = Game { rules, position, seen: vec![(position.view(), position.to_move)], result: None };
        g.result = g.ending_now();
        g
    }

    /// Legal own indices, empty when the game has ended.
    pub fn legal(&self) -> Vec<u8> {
        if self.result.is_some() {
            return vec![];
        }
        match self.rules.node(&self.position.view()) {
            Node::Moves(ms) => ms.iter().map(|m| m.pit).collect(),
            Node::Ended(_) => vec![],
        }
    }

    /// O5–O7 at the current position (repetition is checked when a move is played).
    fn ending_now(&self) -> Option<GameResult> {
        let p = &self.position;
        let st = [p.stores[0] as f64, p.stores[1] as f64];
        if p.stores[0] as u32 >= WINNING_STORE
            || p.stores[1] as u32 >= WINNING_STORE
            || (p.stores[0] == 24 && p.stores[1] == 24)
        {
            return Some(GameResult { score: st, reason: EndReason::Majority });
        }
        match self.rules.node(&p.view()) {
            Node::Moves(_) => None,
            Node::Ended(e) => {
                let n = p.board_seeds() as f64;
                let mover_takes = matches!(e, Ending::CannotFeed);
                let mut score = st;
                let taker = if mover_takes { p.to_move } else { p.to_move.other() };
                score[taker.index()] += n;
                Some(GameResult { score, reason: EndReason::Sweep(e) })
            }
        }
    }

    /// Checked play of the mover's own pit index.
    pub fn play(&mut self, pit: u8) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::Ended);
        }
        let Node::Moves(ms) = self.rules.node(&self.position.view()) else {
            return Err(PlayError::Ended);
        };
        let Some(m) = ms.iter().find(|m| m.pit == pit) else {
            return Err(PlayError::Illegal { pit, legal: ms.iter().map(|m| m.pit).collect() });
        };
        let mover = self.position.to_move;
        let mut stores = self.position.stores;
        stores[mover.index()] += m.captured;
        let next = mover.other();
        self.position = Position::from_view(&m.child, next, stores);
        if m.captured > 0 {
            self.seen.clear();
        }
        let key = (m.child, next);
        if self.seen.contains(&key) {
            let p = &self.position;
            let mut score = [p.stores[0] as f64, p.stores[1] as f64];
            match self.rules.cycle {
                Cycle::Split => {
                    let half = p.board_seeds() as f64 / 2.0;
                    score[0] += half;
                    score[1] += half;
                }
                Cycle::OwnRows => {
                    score[0] += p.pits[..ROW].iter().map(|&x| x as f64).sum::<f64>();
                    score[1] += p.pits[ROW..].iter().map(|&x| x as f64).sum::<f64>();
                }
            }
            self.result = Some(GameResult { score, reason: EndReason::Repetition(self.rules.cycle) });
        } else {
            self.seen.push(key);
            self.result = self.ending_now();
        }
        Ok(())
    }
}
