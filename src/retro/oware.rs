//! Oware as a layered game, and its database (one file per seed count on the board).

use super::builder;
use super::database::{self, TableGame};
use super::{Edge, LayeredGame};
use crate::games::oware::{self, Node, Rules, View, PITS};
use crate::index::{Compositions, SplitRows};
use crate::input::InputError;
use std::path::{Path, PathBuf};

/// The Oware index order: lexicographic `(p0, …)`, `p0` most significant, mover's row first
/// ([`crate::index`]); recorded in every header.
pub const INDEX_ORDER: &str = "lex-p0-msb-mover-view";
/// The order of the reachable index ([`SplitRows`]): by the opponent's seeds, then the mover's
/// row, then the opponent's row among those with an empty pit; recorded in every header.
pub const REACHABLE_INDEX_ORDER: &str = "reachable-opp-seeds-mover-lex-opp-lex-with-empty";

crate::variant::variants! {
    /// Which positions a database holds.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum IndexKind ("database index") {
        /// Every distribution of the seeds: `C(n+11, 11)` positions with `n` seeds.
        #[default]
        Full = "full": "every distribution of the seeds (C(n+11,11) positions per layer)",
        /// Only the boards that can arise after a move: the player not to move has an empty pit
        /// (the one he sowed from), `C(n+11, 11) − C(n+5, 11)` positions. Every child of such a
        /// position is one again (the mover's origin stays empty through every lap, captures only
        /// take from the other row), so a layer is closed under moves; any other position is one
        /// ply from the table.
        Reachable = "reachable": "only boards where the player not to move has an empty pit (13 % fewer at 30 seeds); others are valued from their children",
    }
}

impl IndexKind {
    /// The header's index order.
    pub fn order(self) -> &'static str {
        match self {
            IndexKind::Full => INDEX_ORDER,
            IndexKind::Reachable => REACHABLE_INDEX_ORDER,
        }
    }

    /// What the file name carries after the rules tag (nothing for the full index, so the
    /// databases built before the reachable index keep their names).
    fn file_tag(self) -> &'static str {
        match self {
            IndexKind::Full => "",
            IndexKind::Reachable => "-reachable",
        }
    }
}

/// The largest board: every seed of the game.
pub const MAX_STONES: usize = oware::TOTAL_SEEDS as usize;

/// Oware under fixed rules, ranked by seed distribution of the mover's view: every
/// distribution (`index`), or only the reachable ones (`reachable`, when that index is chosen).
pub struct OwareLayers {
    pub rules: Rules,
    pub index: Compositions,
    reachable: Option<SplitRows>,
}

impl OwareLayers {
    /// The full index.
    pub fn new(rules: Rules) -> Self {
        Self::with_index(rules, IndexKind::Full)
    }

    pub fn with_index(rules: Rules, kind: IndexKind) -> Self {
        let reachable = (kind == IndexKind::Reachable).then(|| SplitRows::new(oware::ROW, MAX_STONES));
        OwareLayers { rules, index: Compositions::new(PITS, MAX_STONES), reachable }
    }

    pub fn index_kind(&self) -> IndexKind {
        if self.reachable.is_some() {
            IndexKind::Reachable
        } else {
            IndexKind::Full
        }
    }

    /// Whether the index holds `pos` (the full index holds every board).
    #[inline]
    pub fn holds(&self, pos: &View) -> bool {
        self.reachable.is_none() || pos[oware::ROW..].contains(&0)
    }
}

impl LayeredGame for OwareLayers {
    type Pos = View;
    const BATCH_LOOKUPS: bool = true;

    fn layer_size(&self, n: usize) -> u64 {
        match &self.reachable {
            None => self.index.layer_size(n),
            Some(r) => r.layer_size(n),
        }
    }
    fn unrank(&self, n: usize, rank: u64) -> View {
        let mut v = [0u8; PITS];
        match &self.reachable {
            None => self.index.unrank(n, rank, &mut v),
            Some(r) => r.unrank(n, rank, &mut v),
        }
        v
    }
    fn next_in_layer(&self, pos: &mut View) -> bool {
        match &self.reachable {
            None => Compositions::next(pos),
            Some(r) => r.next(pos),
        }
    }
    /// # Panics
    /// Under the reachable index, for a position it does not hold ([`OwareLayers::holds`]).
    fn locate(&self, pos: &View) -> (usize, u64) {
        let rank = match &self.reachable {
            None => self.index.rank(pos),
            Some(r) => r.rank(pos).expect("the reachable index holds only boards whose second row has an empty pit"),
        };
        (oware::seeds(pos) as usize, rank)
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
    /// Predecessors the index holds: a position outside it has no entry to update.
    fn unmoves(&self, pos: &View, out: &mut Vec<View>) {
        out.clear();
        self.rules.unmoves(pos, |v| {
            if self.holds(&v) {
                out.push(v)
            }
        });
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
    /// The index of the layers present in `dir`: the one with more consecutive layers from
    /// 0 (the full one when neither has any, or both as many).
    fn for_dir(rules: Rules, dir: &Path) -> Result<Self, InputError> {
        let full = Self::with_rules(rules)?;
        let reach = OwareLayers::with_index(rules, IndexKind::Reachable);
        let present = |g: &OwareLayers| (0..=MAX_STONES).take_while(|&n| dir.join(g.file_name(n)).exists()).count();
        Ok(if present(&reach) > present(&full) { reach } else { full })
    }
    /// Full index: layers 25–27 in memory on 2 threads, a quiet machine, 3.95–4.32 M positions
    /// a second (results/BENCHMARKS.md, "Oware retrograde layers"). Reachable index (its rank
    /// costs more): layers 22–28 at 0.6–1.3 M a second on 2 threads (results/oware/scale.md).
    fn build_rate(&self) -> f64 {
        match self.index_kind() {
            IndexKind::Full => 2.0e6,
            IndexKind::Reachable => 0.5e6,
        }
    }

    fn index_order(&self) -> &'static str {
        self.index_kind().order()
    }
    #[inline]
    fn holds(&self, pos: &View) -> bool {
        OwareLayers::holds(self, pos)
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn rules_text(&self) -> String {
        rules_text(&self.rules)
    }
    fn file_name(&self, n: usize) -> String {
        format!("oware-{}{}-{n}.db", self.rules.db_tag(), self.index_kind().file_tag())
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

/// The file of layer `n` under `rules` in `dir` (full index).
pub fn layer_path(dir: &Path, rules: &Rules, n: usize) -> PathBuf {
    database::layer_path(&OwareLayers::new(*rules), dir, n)
}

/// Solve layers `0..=max_stones` in memory under an index.
pub fn tables_in_memory_with(rules: Rules, kind: IndexKind, max_stones: usize) -> Vec<Vec<i8>> {
    builder::build_all(&OwareLayers::with_index(rules, kind), max_stones)
}
