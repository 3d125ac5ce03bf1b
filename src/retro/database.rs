//! An endgame database on disk: one layer file per count of pieces on the board, for any
//! [`TableGame`] (Oware, Kiothi). Opening maps the consecutive layers present; probing ranks a
//! position and reads its byte.

use super::builder::{self, Progress};
use super::plan::Lookups;
use super::stats::LayerStats;
use super::verify::{verify_layer, Mismatch};
use super::{LayeredGame, Layers};
use crate::input::InputError;
use crate::store::layer::Layer;
use crate::store::layer_file::{DbError, Family, Header};
use std::path::{Path, PathBuf};

/// A layered game whose layers are kept as files: its rules, the names written into every
/// header and file name, and its moves with their labels (for best moves).
pub trait TableGame: LayeredGame + Sized {
    type Rules: Copy;
    /// A move as the game writes it (Oware: own pit index; Kiothi: `B:K`).
    type Move: Copy;

    /// The game's name in headers and file names.
    const GAME: &'static str;
    /// The rank order of a layer, recorded in every header.
    const INDEX_ORDER: &'static str;
    /// The largest layer a database may hold.
    const MAX_LAYER: usize;
    /// Memory planning allows one frontier entry (a u32 rank) per this many positions of the
    /// layer being built.
    const FRONTIER_SHARE: u64 = builder::FRONTIER_SHARE;

    /// The game under `rules`, or why those rules have no tables (the error names the flag).
    fn with_rules(rules: Self::Rules) -> Result<Self, InputError>;
    /// The game under `rules` as the layers present in `dir` are indexed (a game with one
    /// index: [`TableGame::with_rules`]).
    fn for_dir(rules: Self::Rules, _dir: &Path) -> Result<Self, InputError> {
        Self::with_rules(rules)
    }
    /// Positions a thread builds a second in memory, as measured on this game's (and index's)
    /// middle layers: the plan's guide to a build's time ([`super::plan::BuildPlan::seconds`]).
    fn build_rate(&self) -> f64;
    /// The rank order of this game's layers, recorded in (and required of) every header.
    fn index_order(&self) -> &'static str {
        Self::INDEX_ORDER
    }
    /// Whether the index holds `pos`; one it does not hold is valued from its children, which
    /// it holds (a game with one index holds every position).
    fn holds(&self, _pos: &Self::Pos) -> bool {
        true
    }
    fn rules(&self) -> &Self::Rules;
    /// The rules text recorded in (and required of) every header: only what values depend on.
    fn rules_text(&self) -> String;
    /// The file name of layer `n` (it names the rules, so databases of several rule sets can
    /// share a directory).
    fn file_name(&self, n: usize) -> String;
    /// The layer of a position (pieces on the board), without ranking it: a probe checks it
    /// first, since an index knows only the boards its layers can hold.
    fn layer_of(&self, pos: &Self::Pos) -> usize;
    /// Every move of `pos` in the game's order, as `f(move, pieces captured, child)`; none
    /// when the position has ended.
    fn moves(&self, pos: &Self::Pos, f: impl FnMut(Self::Move, i32, Self::Pos));
}

/// Where layer `n` of `game` lives in `dir`.
pub fn layer_path<G: TableGame>(game: &G, dir: &Path, n: usize) -> PathBuf {
    dir.join(game.file_name(n))
}

fn with_family<G: TableGame, R>(game: &G, dir: &Path, f: impl FnOnce(&Family) -> R) -> R {
    let path = |n: usize| layer_path(game, dir, n);
    f(&Family { game: G::GAME, rules: game.rules_text(), index_order: game.index_order(), path: &path })
}

/// The finished layers a build resumes from: the consecutive layers `0..` present in a
/// directory (at most `0..=max`), raw or packed, each checked against its checksum, so a
/// damaged layer is an error before anything is built on it (it would otherwise be the base of
/// a wrong layer with a valid checksum).
pub struct Resume {
    dir: PathBuf,
    max: usize,
    layers: Vec<Layer>,
}

impl Resume {
    /// Create `dir` if needed and check the layers already built in it.
    pub fn open<G: TableGame>(game: &G, dir: &Path, max: usize) -> Result<Resume, DbError> {
        std::fs::create_dir_all(dir).map_err(|source| DbError::Io { path: dir.to_path_buf(), source })?;
        let layers = with_family(game, dir, |family| family.open_present_checked(max, |n| game.layer_size(n)))?;
        Ok(Resume { dir: dir.to_path_buf(), max, layers })
    }

    /// The headers of the layers already built, `0..present`.
    pub fn built(&self) -> impl Iterator<Item = &Header> {
        self.layers.iter().map(|l| l.header())
    }

    /// The first layer already built that is packed (only streamed lookups read it).
    pub fn first_packed(&self) -> Option<usize> {
        self.layers.iter().position(|l| l.is_packed())
    }

    /// The layers still to build.
    pub fn missing(&self) -> std::ops::RangeInclusive<usize> {
        self.layers.len()..=self.max
    }

    /// Bytes the missing layers take on disk (payloads; each header adds under a kilobyte).
    pub fn disk_needed<G: TableGame>(&self, game: &G) -> u64 {
        self.missing().map(|n| game.layer_size(n) + 1024).sum()
    }

    /// Build the missing layers; `on_layer(n, header)` follows each.
    pub fn build<G: TableGame>(
        self,
        game: &G,
        progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
        on_layer: &mut dyn FnMut(usize, &Header),
    ) -> Result<(), DbError> {
        self.build_in_parts(game, &|_| 1, progress, on_layer)
    }

    /// [`Resume::build`] with layer `n` in `parts(n)` partitions (1: in memory; more: out of
    /// core, [`super::outcore`]).
    pub fn build_in_parts<G: TableGame>(
        self,
        game: &G,
        parts: &dyn Fn(usize) -> u64,
        progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
        on_layer: &mut dyn FnMut(usize, &Header),
    ) -> Result<(), DbError> {
        self.build_within(game, parts, None, progress, on_layer)
    }

    /// [`Resume::build_in_parts`] keeping the resident memory within `memory` bytes (the pages
    /// of the lower layers are dropped as the budget nears, [`crate::store::resident`]).
    pub fn build_within<G: TableGame>(
        self,
        game: &G,
        parts: &dyn Fn(usize) -> u64,
        memory: Option<u64>,
        progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
        on_layer: &mut dyn FnMut(usize, &Header),
    ) -> Result<(), DbError> {
        self.build_planned(game, &|n| (parts(n), Lookups::Mapped), memory, false, progress, on_layer)
    }

    /// [`Resume::build_within`] with layer `n` in `plan(n)` partitions and lookups
    /// ([`super::plan::plan_layer`]): streamed lookups read the lower layers in rank order
    /// ([`super::stream`]), so they need not fit the memory. With `pack` every finished layer
    /// is kept packed, those found first ([`super::build_files`]: the layers built over packed
    /// ones must then stream their lookups).
    pub fn build_planned<G: TableGame>(
        self,
        game: &G,
        plan: &dyn Fn(usize) -> (u64, Lookups),
        memory: Option<u64>,
        pack: bool,
        progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
        on_layer: &mut dyn FnMut(usize, &Header),
    ) -> Result<(), DbError> {
        let Resume { dir, max, layers } = self;
        with_family(game, &dir, |family| {
            super::build_files(family, game, layers, max, plan, memory, pack, progress, on_layer)
        })
        .map(drop)
    }

    /// [`Resume::build`] by every process of `world`, each calling this ([`super::distributed`]);
    /// `on_layer` follows each layer on rank 0.
    #[cfg(feature = "mpi")]
    pub fn build_distributed<G: TableGame>(
        self,
        world: &mpi::topology::SimpleCommunicator,
        game: &G,
        progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
        on_layer: &mut dyn FnMut(usize, &Header, &super::distributed::Traffic),
    ) -> Result<(), super::distributed::Stop> {
        use super::distributed::{agree, Shares, Stop};
        let Resume { dir, max, layers } = self;
        // Each process keeps only its shares of the finished layers, read from their files
        // (every block checked); a failure anywhere is agreed on by all.
        let shares = Shares::read(world, &layers);
        drop(layers);
        let shares = agree(world, shares).map_err(Stop::Agreed)?;
        with_family(game, &dir, |family| {
            super::distributed::build_files(world, family, game, shares, max, progress, on_layer)
        })
        .map(drop)
    }
}

/// Build every missing layer `0..=max` of `game` into `dir` (resumable: a file with its final
/// name is complete, checked and kept).
pub fn build<G: TableGame>(
    dir: &Path,
    game: &G,
    max: usize,
    progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
) -> Result<(), DbError> {
    Resume::open(game, dir, max)?.build(game, progress, &mut |_, _| {})
}

/// An opened database directory: every layer `0..=max_layer` mapped, each raw or packed
/// ([`Layer`]; a directory may mix them).
pub struct Database<G: TableGame> {
    pub game: G,
    layers: Vec<Layer>,
}

impl<G: TableGame> Database<G> {
    /// Open the consecutive layers `0..` present in `dir`; errors on rules without tables, on a
    /// file built under other rules, truncated or foreign, and when layer 0 is missing. Values
    /// are checked as they are read: a query ends with [`Database::damage`].
    pub fn open(dir: &Path, rules: G::Rules) -> Result<Self, DbError> {
        Self::open_through(dir, rules, G::MAX_LAYER)
    }

    /// [`Database::open`] of the layers `0..=max` only: what a query from a position of layer
    /// `max` can reach (pieces never return to the board).
    pub fn open_through(dir: &Path, rules: G::Rules, max: usize) -> Result<Self, DbError> {
        let game = G::for_dir(rules, dir).map_err(DbError::Rules)?;
        let max = max.min(G::MAX_LAYER);
        let layers = with_family(&game, dir, |family| family.open_present_any(max, |n| game.layer_size(n)))?;
        if layers.is_empty() {
            return Err(DbError::Missing { dir: dir.to_path_buf(), layer: 0 });
        }
        Ok(Database { game, layers })
    }

    pub fn rules(&self) -> &G::Rules {
        self.game.rules()
    }

    /// The largest layer present (pieces on the board).
    pub fn max_layer(&self) -> usize {
        self.layers.len() - 1
    }

    /// Every layer file, `0..=max_layer`.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Exact value of a position for its mover, if its layer is present (a position the
    /// index does not hold: from its children, one ply).
    #[inline]
    pub fn probe(&self, pos: &G::Pos) -> Option<i8> {
        if self.game.layer_of(pos) > self.max_layer() {
            return None;
        }
        if !self.game.holds(pos) {
            return Some(super::bellman(&self.game, self, pos, &mut Vec::new()) as i8);
        }
        let (n, r) = self.game.locate(pos);
        Some(self.layers[n].value(r))
    }

    /// `Err` naming the file and block when a value read so far came from a damaged block
    /// (it read as 0): whatever was computed from the database must then not be reported.
    pub fn damage(&self) -> Result<(), DbError> {
        self.layers.iter().try_for_each(Layer::damage)
    }

    /// Check every block of every layer `0..=max` now (for a command that reads them all).
    pub fn verify_through(&self, max: usize) -> Result<(), DbError> {
        self.layers.iter().take(max + 1).try_for_each(Layer::verify)
    }

    /// [`Database::verify_through`], and keep the packed layers among `0..=max` decompressed
    /// in memory (their raw size), for a command that reads them all at random (a Bellman
    /// check, an export with best moves): a packed read otherwise decompresses a block.
    pub fn load_through(&self, max: usize) -> Result<(), DbError> {
        self.layers.iter().take(max + 1).try_for_each(Layer::make_resident)
    }

    /// The first best move of a covered position (in the game's move order) with its value;
    /// `None` when the position has ended or its layer is not present.
    pub fn best_move(&self, pos: &G::Pos) -> Option<(G::Move, i32)> {
        if self.game.layer_of(pos) > self.max_layer() {
            return None;
        }
        let mut best: Option<(G::Move, i32)> = None;
        self.game.moves(pos, |mv, gain, child| {
            let (layer, rank) = self.game.locate(&child);
            let x = gain - self.value(layer, rank) as i32;
            if best.is_none_or(|(_, b)| x > b) {
                best = Some((mv, x));
            }
        });
        best
    }

    /// Check layer `n`: its blocks against their checksums (and those of the layers below,
    /// which its moves read; packed layers are then kept in memory, [`Database::load_through`]),
    /// then every entry against its moves and the layers below
    /// (Bellman). Returns at most `limit` mismatches; `tick(k)` as entries are done.
    pub fn verify_layer(&self, n: usize, limit: usize, tick: &(dyn Fn(u64) + Sync)) -> Result<Vec<Mismatch>, DbError> {
        self.load_through(n)?;
        Ok(verify_layer(&self.game, self, n, limit, tick))
    }

    /// Positions, wins, draws, losses and the value histogram of every layer; an entry outside
    /// `-n..=n` (a file whose checksum matches what a faulty writer wrote) is an error.
    pub fn stats(&self) -> Result<Vec<LayerStats>, DbError> {
        (self.layers.iter().enumerate())
            .map(|(n, l)| {
                let values = l.values()?;
                LayerStats::of(n, &values, l.header().checksum).map_err(|rank| DbError::Value {
                    path: l.path().to_path_buf(),
                    rank,
                    value: values[rank as usize],
                    layer: n as u32,
                })
            })
            .collect()
    }
}

impl<G: TableGame> Layers for Database<G> {
    #[inline]
    fn value(&self, layer: usize, rank: u64) -> i8 {
        self.layers[layer].value(rank)
    }
}
