//! The game after the opening (docs/rules/lukho.md "L10. Normal turns", "L11. End of the game",
//! "L12. Cycles and perpetual turns"), its endings, and match points.
//!
//! Every turn is forced, so the game is a deterministic sequence of positions and a repeated
//! position can be found with Brent's cycle finding: one comparison per turn, no set of seen
//! positions, no allocation.

use super::board::Board;
use super::choice::Choice;
use super::geometry::abs_pit;
use super::perpetual::ProvenCycles;
use super::race::{opening, Opening, Race};
use super::sow::{LapEnd, SowingEnd};
use super::units::HalfSeeds;
use super::{Phase, Rules};
use crate::games::cycle::{first_repeat, Cycles};
use crate::side::Side;
use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// The mover had no pit to lift; the other player swept the board.
    Normal,
    /// A position at the start of a turn repeated; scored `split`.
    Cycle,
    /// An opening sowing never ends; scored `split` with the seeds in hand.
    PerpetualOpening,
    /// A turn's sowing never ends; scored `split` from the position before that turn.
    PerpetualTurn,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Normal => "normal",
            Class::Cycle => "cycle",
            Class::PerpetualOpening => "perpetual-opening",
            Class::PerpetualTurn => "perpetual-turn",
        }
    }
}

/// A position of the game proper: board (pits, knives, stores) and side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub to_move: Side,
}

/// What one turn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The mover lifted absolute pit `pit`; his last lap ended at `last` as `how`.
    Played { pit: u8, last: u8, how: LapEnd, laps: u64 },
    /// The mover has no non-empty non-knife pit: the game is over (nothing changed).
    NoMove,
    /// The sowing never ends (the position is left as it was before the turn).
    Perpetual,
}

impl Position {
    /// Play the forced turn: lift the mover's lowest-index non-empty non-knife pit and sow.
    #[inline(always)]
    pub fn turn(&mut self, rules: &Rules, proven: &ProvenCycles) -> TurnEnd {
        // One copy of the turn per mover, each compiled for a known side (its row, its
        // knives, its captures are then constants); the sides alternate, so the choice
        // between the copies is always predicted.
        match self.to_move {
            Side::South => self.turn_of(rules, proven, Side::South),
            Side::North => self.turn_of(rules, proven, Side::North),
        }
    }

    #[inline(always)]
    fn turn_of(&mut self, rules: &Rules, proven: &ProvenCycles, side: Side) -> TurnEnd {
        let Some(i) = self.board.forced_pit(side) else {
            return TurnEnd::NoMove;
        };
        // A perpetual sowing changes only the pits (a knife would stop it; no capture happens
        // before it stops). Only they are kept: copying the whole board here would reload
        // the knives just stored by the turn before, as part of a wider load, which stalls.
        let before = self.board.pits;
        let p = abs_pit(side, i);
        let hand = self.board.pit(p);
        self.board.clear_pit(p);
        match self.board.sow(rules, proven, side, p, hand, Phase::Turn) {
            SowingEnd::Ended { last, how, laps } => {
                self.to_move = side.other();
                TurnEnd::Played { pit: p as u8, last, how, laps }
            }
            SowingEnd::Perpetual { .. } => {
                self.board.pits = before;
                TurnEnd::Perpetual
            }
        }
    }

    /// What a repetition compares: pits, knives, side to move (not the stores).
    #[inline(always)]
    fn key(&self) -> (u128, u32, Side) {
        (self.board.packed(), self.board.knives, self.to_move)
    }
}

/// The result of one game, final totals in half-seeds so splits stay exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub first_player: Side,
    /// Final totals `[south, north]`: store + knives + sweep or split share.
    pub final_totals: [HalfSeeds<u16>; 2],
    pub winner: Option<Side>,
    /// South − North.
    pub margin: HalfSeeds,
    pub class: Class,
    /// Completed normal turns after the opening.
    pub turns: u32,
    /// The winner's match points if this is the first game of a series (0 for a draw).
    pub points_first_game: u8,
    /// The winner's match points in any later game.
    pub points_later_game: u8,
}

impl GameOutcome {
    pub fn new(first_player: Side, final_totals: [HalfSeeds<u16>; 2], class: Class, turns: u32) -> Self {
        let margin = HalfSeeds(final_totals[0].0 as i16 - final_totals[1].0 as i16);
        let winner = match margin.0 {
            m if m > 0 => Some(Side::South),
            m if m < 0 => Some(Side::North),
            _ => None,
        };
        GameOutcome {
            first_player,
            final_totals,
            winner,
            margin,
            class,
            turns,
            points_first_game: match_points(final_totals, true),
            points_later_game: match_points(final_totals, false),
        }
    }

    /// Final totals in seeds (halves possible).
    pub fn totals(&self) -> [f64; 2] {
        [self.final_totals[0].seeds(), self.final_totals[1].seeds()]
    }

    /// South − North in seeds (halves possible).
    pub fn margin(&self) -> f64 {
        self.margin.seeds()
    }
}

/// Match points of the winner (docs/rules/lukho.md "L13. Match scoring"): 2; 4 if the
/// loser's total is 0; 4 for a bull (margin exactly 2 seeds), 12 if it is the first game of a
/// series; a draw scores 0. (A loser at 0 loses by 48, never a bull, so the cases never meet.)
pub fn match_points(totals: [HalfSeeds<u16>; 2], first_game: bool) -> u8 {
    let [s, n] = totals.map(|h| h.0);
    let (w, l) = (s.max(n), s.min(n));
    if w == l {
        0
    } else if w - l == 4 {
        if first_game {
            12
        } else {
            4
        }
    } else if l == 0 {
        4
    } else {
        2
    }
}

/// Play a whole game: the opening under `race`, then the forced turns.
pub fn play_game(rules: &Rules, proven: &ProvenCycles, south: &Choice, north: &Choice, race: Race) -> GameOutcome {
    play_after(rules, proven, &opening(rules, proven, south, north, race))
}

/// The game after a given opening (e.g. one of [`super::speed_races`]).
pub fn play_after(rules: &Rules, proven: &ProvenCycles, o: &Opening) -> GameOutcome {
    if o.perpetual {
        return GameOutcome::new(o.first_player, o.board.split_totals(o.hands()), Class::PerpetualOpening, 0);
    }
    play_from(rules, proven, Position { board: o.board, to_move: o.first_player })
}

/// Turns before Brent's check starts: 99.8 % of a typical South choice's games end within 30
/// turns (`examples/lukho_probe turns`), so almost none pay for it.
pub(crate) const CYCLE_CHECK_AFTER_TURNS: u32 = 32;

/// Play the forced turns from `start` (the position right after the opening) to the end.
/// `first_player` in the outcome is `start.to_move`.
pub fn play_from(rules: &Rules, proven: &ProvenCycles, start: Position) -> GameOutcome {
    let first = start.to_move;
    let mut pos = start;
    let mut turns = 0u32;
    // Cycle finding ([`Cycles`]) over the positions at turn starts, from turn
    // `CYCLE_CHECK_AFTER_TURNS` on. Brent needs no help from the rules to be exact and finds a
    // cycle within about μ + 2λ turns; and when the key (pits, knives, side to move)
    // repeats, the stores are equal too (every capture takes seeds off the board for good),
    // so the repeat is of the whole state. Restarting the search after each irreversible
    // event (a capture, a new knife, a seed sown into a knife) finds cycles sooner, but
    // recognising those events takes data-dependent branches every turn, for cycles that
    // almost never happen (none in 794,624 games of a typical South choice); without them
    // the game loop measured no slower, with less code.
    let mut cycles: Option<Cycles<(u128, u32, Side)>> = None;
    loop {
        match pos.turn(rules, proven) {
            TurnEnd::Played { .. } => {}
            TurnEnd::NoMove => {
                return GameOutcome::new(first, pos.board.sweep_totals(pos.to_move), Class::Normal, turns);
            }
            TurnEnd::Perpetual => {
                // `turn` left the position as it was before that turn.
                return GameOutcome::new(first, pos.board.split_totals(0), Class::PerpetualTurn, turns);
            }
        }
        turns += 1;
        if turns < CYCLE_CHECK_AFTER_TURNS {
            continue;
        }
        let key = pos.key();
        match &mut cycles {
            None => cycles = Some(Cycles::new(key)),
            Some(c) => {
                if let Some(lambda) = c.next(key) {
                    // Every position of the cycle has the same stores and knives (nothing
                    // irreversible happens on it), so the split can be taken here; `turns`
                    // is when the first repetition happened: μ + λ.
                    let repeat = first_repeat(start, lambda, |p| _ = p.turn(rules, proven), Position::key) as u32;
                    return GameOutcome::new(first, pos.board.split_totals(0), Class::Cycle, repeat);
                }
            }
        }
    }
}
