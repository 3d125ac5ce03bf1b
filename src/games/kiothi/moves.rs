//! The move types and the legal sowing moves: K3 flag clearing and K5/K6 captures on top of
//! the sowing (`sow.rs`), the generator, checked and unchecked play.

use super::sow::{self, SownBoard};
use super::SowingCache;
use super::{Board, Illegal, KiothiError, NkiClear, Position, Redistribute, Rules, ROW};

/// A later move (K3): lift `lift` warriors from own index `boma`. Written `B:K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SowMove {
    /// The mover's own index 0..9.
    pub boma: u8,
    /// Warriors lifted, `1..=c`.
    pub lift: u8,
}

/// An opening move (K2): empty the own boma in `emptied` and place the lifted warriors as
/// `placement` says. Written `E1,E2>A*C,…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Redistribution {
    /// Bit `i` set = own index `i` emptied.
    pub emptied: u16,
    /// Warriors placed in each absolute boma (their sum is the number lifted).
    pub placement: Board,
}

/// Any move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Sow(SowMove),
    Redistribute(Redistribution),
}

/// A legal sowing move with its result, as the generator produces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    pub mv: SowMove,
    pub position: Position,
    /// Warriors the mover captured (K5, K6).
    pub captured: u8,
    /// Relays the sowing took (0 = the first lap ended it).
    pub relays: u64,
}

impl Position {
    /// K3, K4, K7 for one sowing move, before the capture and without the nki flags: the
    /// board when the last warrior has fallen, where it fell and which boma were lifted. Where
    /// a sowing goes never depends on the flags, so endgame tables share this among positions
    /// that differ only in nki. [`Position::sow`] is this plus K3's flag clearing and K5/K6.
    #[inline]
    pub fn sow_uncaptured(&self, rules: &Rules, sowing: &SowingCache, mv: SowMove) -> Result<SownBoard, Illegal> {
        if self.is_redistribution() {
            return Err(Illegal::SowDuringOpening { turn: self.turn });
        }
        if mv.boma as usize >= ROW {
            return Err(Illegal::BomaOutOfRange { boma: mv.boma });
        }
        let base = self.own_base();
        let origin = base + mv.boma as usize;
        let held = self.boma[origin];
        if held == 0 {
            return Err(Illegal::EmptyBoma { boma: mv.boma });
        }
        if mv.lift == 0 || mv.lift > held {
            return Err(Illegal::LiftOutOfRange { boma: mv.boma, lift: mv.lift, held });
        }
        sow::sow(&self.boma, origin, mv.lift, base, rules.max_relays, sowing)
    }

    /// K3–K7 for one sowing move, without building error text: the child position with its
    /// capture and relay count, or why the move is illegal. `self` must be past the opening.
    #[inline(always)]
    pub fn sow(&self, rules: &Rules, sowing: &SowingCache, mv: SowMove) -> Result<Child, Illegal> {
        let s = self.sow_uncaptured(rules, sowing, mv)?;
        let base = self.own_base();
        let mut b = s.board;
        // K3: lifting clears nki for good; under `pass` so does a relay lap's drop.
        let mut nki = self.nki & !s.lifted;
        if rules.nki_clear == NkiClear::Pass {
            nki &= !s.relay_sown;
        }
        let end = s.end as usize;
        let mut captured = 0u8;
        if end.wrapping_sub(base) < ROW {
            // K5: the sowing ended in an empty own boma (it holds the one last warrior now).
            let i = end - base;
            let opp = ROW - base; // absolute index of the opponent's own index 0
            let take = |b: &mut Board, a: usize| -> Option<u8> {
                if b[a] > 0 && nki >> a & 1 == 0 {
                    Some(std::mem::take(&mut b[a]))
                } else {
                    None
                }
            };
            if let Some(c) = take(&mut b, opp + ROW - 1 - i) {
                captured = c + b[end];
                b[end] = 0;
                if i == 0 {
                    // K6: opponent indices 8, 7, 6 in this order, stopping at the first that is
                    // empty or nki.
                    for j in [8, 7, 6] {
                        match take(&mut b, opp + j) {
                            Some(c) => captured += c,
                            None => break,
                        }
                    }
                }
            }
        }
        let mut prisons = self.prisons;
        prisons[self.to_move.index()] += captured;
        let position = Position { boma: b, prisons, nki, to_move: self.to_move.other(), turn: self.turn + 1 };
        Ok(Child { mv, position, captured, relays: s.relays })
    }

    /// Call `f` on every legal sowing move with its child, own indices ascending, then lifts
    /// ascending. Nothing on redistribution turns.
    #[inline]
    pub fn for_each_child(&self, rules: &Rules, sowing: &SowingCache, mut f: impl FnMut(Child)) {
        if self.is_redistribution() {
            return;
        }
        let base = self.own_base();
        for b in 0..ROW as u8 {
            for lift in 1..=self.boma[base + b as usize] {
                if let Ok(c) = self.sow(rules, sowing, SowMove { boma: b, lift }) {
                    f(c);
                }
            }
        }
    }

    /// Every legal sowing move with its child, into a reusable buffer (cleared first).
    /// Empty on redistribution turns.
    pub fn children(&self, rules: &Rules, sowing: &SowingCache, out: &mut Vec<Child>) {
        out.clear();
        self.for_each_child(rules, sowing, |c| out.push(c));
    }

    /// The legal moves into a reusable buffer (cleared first). On a redistribution turn this
    /// lists every redistribution, which is hopeless at full setups: check
    /// [`Position::redistribution_count`] first.
    pub fn legal_moves(&self, rules: &Rules, sowing: &SowingCache, out: &mut Vec<Move>) {
        out.clear();
        if self.is_redistribution() {
            self.for_each_redistribution(rules, |r| out.push(Move::Redistribute(*r)));
        } else {
            self.for_each_child(rules, sowing, |c| out.push(Move::Sow(c.mv)));
        }
    }

    /// Whether the mover has a legal move (K8 ends the game when not).
    pub fn has_legal_move(&self, rules: &Rules, sowing: &SowingCache) -> bool {
        if self.is_redistribution() {
            let own = (self.occupied() >> self.own_base()) & 0x3ff;
            return match rules.redistribute {
                Redistribute::Exactly2 => own.count_ones() >= 2,
                Redistribute::UpTo2 => own != 0,
            };
        }
        let base = self.own_base();
        (0..ROW as u8).any(|b| {
            (1..=self.boma[base + b as usize]).any(|lift| self.sow(rules, sowing, SowMove { boma: b, lift }).is_ok())
        })
    }

    /// Checked play: the position after `m`, or why it is not legal.
    pub fn play(&self, rules: &Rules, sowing: &SowingCache, m: &Move) -> Result<Position, KiothiError> {
        let illegal = |reason| KiothiError::Illegal { mv: m.to_string(), reason };
        match m {
            Move::Sow(s) => self.sow(rules, sowing, *s).map(|c| c.position).map_err(illegal),
            Move::Redistribute(r) => {
                self.check_redistribution(rules, r).map_err(illegal)?;
                Ok(self.redistribute_unchecked(r))
            }
        }
    }

    /// Fast path for a move known to be legal (from the generator or a checked replay).
    /// A sowing move is still simulated (that is what computes its result); its legality is
    /// only asserted in debug builds.
    pub fn play_unchecked(&mut self, rules: &Rules, sowing: &SowingCache, m: &Move) {
        *self = match m {
            Move::Sow(s) => {
                let c = self.sow(rules, sowing, *s);
                debug_assert!(c.is_ok(), "illegal move {m}: {c:?}");
                match c {
                    Ok(c) => c.position,
                    Err(_) => return,
                }
            }
            Move::Redistribute(r) => self.redistribute_unchecked(r),
        };
    }
}
