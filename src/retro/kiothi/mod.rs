//! Kiothi endgame tables: every position with up to N warriors on the board, exact values.
//!
//! A table position is what the rules need after the opening (turn >= 3): the boma from the
//! mover's view (his row is boma 0..9, the opponent's 10..19, sowing order) and the nki flags.
//! Prisons do not matter (a value counts only the warriors on the board), nor the turn number,
//! nor the setup and redistribution variants (they only shape turns 1 and 2). A value is the
//! net number of board warriors the mover ends up with under perfect play, repetition `split`
//! (endless play is worth 0); K8: a mover without a legal move loses every board warrior
//! (value `-n`). Only `nki-clear=lift` with unbounded relays is supported: the predecessor
//! generation ([`unmove`]) relies on flags changing only by lifts.
//!
//! Layers are built by the generic threshold builder ([`super::builder`]); the index is in
//! [`index`], the predecessors in [`unmove`]. Both the forward moves and the predecessors of
//! a board are the same for all its nki masks, and the layer order puts the masks of a board
//! next to each other (lowest rank bits), so each thread keeps the last board's sowings and
//! unmoves and applies the flags per position.

pub mod index;
mod layers;
pub mod unmove;
mod view;

use super::builder;
use super::database::{self, TableGame};
use crate::games::kiothi::{NkiClear, Position, Rules, SowMove};
use crate::input::InputError;
pub use index::{TableIndex, INDEX_ORDER};
pub use layers::KiothiLayers;
use std::path::{Path, PathBuf};
pub use view::View;

/// Largest layer a build accepts: layer 10 has 3,339,504,032 positions, layer 11 more than
/// the builder's u32 ranks hold.
pub const MAX_WARRIORS: usize = 10;

/// Whether a rule set has tables: `nki-clear=lift`, no relay limit. The error names the flag.
pub fn check_rules(rules: &Rules) -> Result<(), InputError> {
    if rules.nki_clear != NkiClear::Lift {
        return Err(InputError::new("nki_clear", "tables support `lift` only (under `pass` relay laps change flags, which the predecessor generation does not model)"));
    }
    if rules.max_relays.is_some() {
        return Err(InputError::new("max_relays", "tables need unbounded relays (exact K7); drop the flag"));
    }
    Ok(())
}

/// Solve layers `0..=max` in memory.
pub fn tables_in_memory(rules: Rules, max: usize) -> Vec<Vec<i8>> {
    builder::build_all(&KiothiLayers::new(rules), max)
}

/// The rules text recorded in table headers: only what the tables depend on.
pub fn rules_text(rules: &Rules) -> String {
    serde_json::json!({
        "game": "kiothi",
        "nki_clear": rules.nki_clear.name(),
        "max_relays": rules.max_relays,
        "repetition": "split",
    })
    .to_string()
}

pub fn layer_path(dir: &Path, rules: &Rules, n: usize) -> PathBuf {
    database::layer_path(&KiothiLayers::new(*rules), dir, n)
}

/// Frontier entries (u32 ranks) planned per position of the top layer: Kiothi frontiers are
/// larger than Oware's (`FRONTIER_SHARE`); layer 9 (800 M positions) peaked at 2.97 GiB RSS,
/// 0.53 GiB over its lower layers and working arrays, about one entry per 5.6 positions.
const KIOTHI_FRONTIER_SHARE: u64 = 4;

impl TableGame for KiothiLayers {
    type Rules = Rules;
    type Move = SowMove;
    const GAME: &'static str = "kiothi";
    const INDEX_ORDER: &'static str = INDEX_ORDER;
    const MAX_LAYER: usize = MAX_WARRIORS;
    const FRONTIER_SHARE: u64 = KIOTHI_FRONTIER_SHARE;

    /// Layer 7 in memory on 2 threads: 9.1 M positions a second (results/BENCHMARKS.md,
    /// "Kiothi endgame tables").
    fn build_rate(&self) -> f64 {
        4.5e6
    }

    fn with_rules(rules: Rules) -> Result<Self, InputError> {
        check_rules(&rules)?;
        Ok(KiothiLayers::new(rules))
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn rules_text(&self) -> String {
        rules_text(&self.rules)
    }
    fn file_name(&self, n: usize) -> String {
        let relays = match self.rules.max_relays {
            Some(r) => r.to_string(),
            None => "any".into(),
        };
        format!("kiothi-nki-{}-relays-{relays}-{n}.db", self.rules.nki_clear.name())
    }
    #[inline]
    fn layer_of(&self, pos: &View) -> usize {
        pos.warriors() as usize
    }
    fn moves(&self, pos: &View, mut f: impl FnMut(SowMove, i32, View)) {
        self.moves(pos, |mv, child, captured| f(mv, captured as i32, child));
    }
}

/// A Kiothi table directory (`Database::open(dir, rules)`).
pub type Database = database::Database<KiothiLayers>;

impl Database {
    /// Exact value of a position after the opening (turn >= 3) for its mover: the net number
    /// of board warriors he ends up with under perfect play. `None` on turns 1 and 2 and when
    /// the board holds more warriors than the tables cover.
    pub fn probe_position(&self, p: &Position) -> Option<i32> {
        self.probe(&View::of(p)?).map(i32::from)
    }
}

#[cfg(test)]
mod tests;
