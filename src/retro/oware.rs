//! Oware as a layered game, and its database (one file per seed count on the board).

use super::builder;
use super::database::{self, TableGame};
use super::{Edge, LayeredGame};
use crate::games::oware::{self, Node, Rules, View, PITS};
use crate::index::Compositions;
use crate::input::InputError;
use std::path::{Path, PathBuf};

/// The Oware index order: lexicographic `(p0, …)`, `p0` most significant, mover's row first
/// ([`crate::index`]); recorded in every header.
pub const INDEX_ORDER: &str = "lex-p0-msb-mover-view";

/// The largest board: every seed of the game.
pub const MAX_STONES: usize = oware::TOTAL_SEEDS as usize;

/// Oware under fixed rules, ranked by seed distribution of the mover's view.
pub struct OwareLayers {
    pub rules: Rules,
    pub index: Compositions,
}

impl OwareLayers {
    pub fn new(rules: Rules) -> Self {
        OwareLayers { rules, index: Compositions::new(PITS, MAX_STONES) }
    }
}

impl LayeredGame for OwareLayers {
    type Pos = View;

    fn layer_size(&self, n: usize) -> u64 {
        self.index.layer_size(n)
    }
    fn unrank(&self, n: usize, rank: u64) -> View {
        let mut v = [0u8; PITS];
        self.index.unrank(n, rank, &mut v);
        v
    }
    fn next_in_layer(&self, pos: &mut View) -> bool {
        Compositions::next(pos)
    }
    fn locate(&self, pos: &View) -> (usize, u64) {
        (oware::seeds(pos) as usize, self.index.rank(pos))
    }
    fn expand(&self, pos: &View, out: &mut Vec<Edge<View>>) -> Option<i32> {
        out.clear();
        match self.rules.node(pos) {
            Node::Ended(e) => Some(e.mover_net(oware::seeds(pos) as i32)),
            Node::Moves(ms) => {
                out.extend(ms.iter().map(|m| Edge {
                    gain: m.captured as i32,
                    child: m.child,
                    same_layer: m.captured == 0,
                }));
                None
            }
        }
    }
    fn unmoves(&self, pos: &View, out: &mut Vec<View>) {
        out.clear();
        self.rules.unmoves(pos, |v| out.push(v));
    }
}

impl TableGame for OwareLayers {
    type Rules = Rules;
    type Move = u8;
    const GAME: &'static str = "oware";
    const INDEX_ORDER: &'static str = INDEX_ORDER;
    const MAX_LAYER: usize = MAX_STONES;

    /// Databases hold a value per position, which `own-rows` does not give: what a repetition
    /// is worth under it depends on the game's history.
    fn with_rules(rules: Rules) -> Result<Self, InputError> {
        if rules.cycle == oware::Cycle::OwnRows {
            return Err(InputError::new(
                "cycle",
                "databases need `split` (own-rows depends on the game's history, so a position has no value of its own)",
            ));
        }
        Ok(OwareLayers::new(rules))
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn rules_text(&self) -> String {
        rules_text(&self.rules)
    }
    fn file_name(&self, n: usize) -> String {
        format!("oware-{}-{n}.db", self.rules.db_tag())
    }
    #[inline]
    fn layer_of(&self, pos: &View) -> usize {
        oware::seeds(pos) as usize
    }
    fn moves(&self, pos: &View, mut f: impl FnMut(u8, i32, View)) {
        if let Node::Moves(ms) = self.rules.node(pos) {
            for m in ms.iter() {
                f(m.pit, m.captured as i32, m.child);
            }
        }
    }
}

/// An Oware database directory (`Database::open(dir, rules)`).
pub type Database = database::Database<OwareLayers>;

/// Solve layers `0..=max` in memory.
pub fn tables_in_memory(rules: Rules, max_stones: usize) -> Vec<Vec<i8>> {
    builder::build_all(&OwareLayers::new(rules), max_stones)
}

/// The rules text recorded in database headers (the cycle rule is always `split`).
pub fn rules_text(rules: &Rules) -> String {
    let r = Rules { cycle: oware::Cycle::Split, ..*rules };
    r.to_json().to_string()
}

/// The file of layer `n` under `rules` in `dir`.
pub fn layer_path(dir: &Path, rules: &Rules, n: usize) -> PathBuf {
    database::layer_path(&OwareLayers::new(*rules), dir, n)
}
