//! Oware as a layered game, and its database directory (one file per seed count).

use super::builder::{self, Progress, FRONTIER_SHARE, WORK_BYTES_PER_POSITION};
use super::{Edge, LayeredGame, Layers};
use crate::games::oware::{self, Node, Rules, View, PITS};
use crate::index::Compositions;
use crate::store::layer_file::{DbError, Family, Header, LayerFile};
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

/// Solve layers `0..=max` in memory.
pub fn tables_in_memory(rules: Rules, max_stones: usize) -> Vec<Vec<i8>> {
    builder::build_all(&OwareLayers::new(rules), max_stones)
}

/// The rules text recorded in database headers (the cycle rule is always `split`).
pub fn rules_text(rules: &Rules) -> String {
    let r = Rules { cycle: oware::Cycle::Split, ..*rules };
    r.to_json().to_string()
}

pub fn layer_path(dir: &Path, rules: &Rules, n: usize) -> PathBuf {
    dir.join(format!("oware-{}-{n}.db", rules.db_tag()))
}

/// Bytes of memory a build up to `max` needs at its peak: the finished lower layers (mapped,
/// touched at random) plus the working state of the largest layer and a frontier estimate.
pub fn memory_needed(max: usize) -> u64 {
    let idx = Compositions::new(PITS, MAX_STONES);
    let lower: u64 = (0..max).map(|n| idx.layer_size(n)).sum();
    let top = idx.layer_size(max);
    // The finished layer's values reuse the working value array (same layout).
    lower + top * WORK_BYTES_PER_POSITION + top / FRONTIER_SHARE * 4
}

/// An opened database directory: every layer `0..=max` mapped.
pub struct Database {
    pub rules: Rules,
    pub game: OwareLayers,
    pub layers: Vec<LayerFile>,
}

impl Database {
    /// Open the consecutive layers `0..` present in `dir`; errors on a file built under other
    /// rules, truncated or foreign. `None` layers beyond the first missing one are ignored.
    pub fn open(dir: &Path, rules: Rules) -> Result<Self, DbError> {
        let game = OwareLayers::new(rules);
        let text = rules_text(&rules);
        let mut layers = Vec::new();
        for n in 0..=MAX_STONES {
            let path = layer_path(dir, &rules, n);
            if !path.exists() {
                break;
            }
            layers.push(LayerFile::open(&path, "oware", &text, INDEX_ORDER, n as u32, game.layer_size(n))?);
        }
        if layers.is_empty() {
            // Say which files would be expected, and whether files of other rules are there.
            return Err(DbError::Missing { dir: dir.to_path_buf(), layer: 0 });
        }
        Ok(Database { rules, game, layers })
    }

    /// Largest seed count on the board that the database covers.
    pub fn max_stones(&self) -> usize {
        self.layers.len() - 1
    }

    /// Exact value of a mover's view, if its layer is present.
    pub fn probe(&self, v: &View) -> Option<i8> {
        let (n, r) = self.game.locate(v);
        self.layers.get(n).map(|l| l.values()[r as usize])
    }
}

impl Layers for Database {
    fn value(&self, layer: usize, rank: u64) -> i8 {
        self.layers[layer].values()[rank as usize]
    }
}

/// Build every missing layer `0..=max` into `dir`. Finished layers are kept (resumable).
/// `on_layer(n, built)` is called after each layer with `built = false` when it was already there.
pub fn build(
    dir: &Path,
    rules: Rules,
    max: usize,
    progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
    on_layer: &mut dyn FnMut(usize, bool, &Header),
) -> Result<(), DbError> {
    let game = OwareLayers::new(rules);
    let path = |n: usize| layer_path(dir, &rules, n);
    let family = Family { game: "oware", rules: rules_text(&rules), index_order: INDEX_ORDER, path: &path };
    super::build_files(&family, &game, dir, max, progress, on_layer).map(drop)
}
