//! The flags of the `db` subcommands, one clap enum for every game: `build`'s flags are the
//! game's own (`B`), the others the same for every game, each with the game's rule flags (`R`);
//! the game's words in their help (its directories, the export's layer range flag, the
//! examples) come from its [`DbWords`].

use clap::{Args, Command, Subcommand};
use mancala::export::Format;
use std::path::PathBuf;

/// A game's `db` flags: its subcommands, in its words.
#[derive(Args)]
#[command(mut_subcommands(|c| B::WORDS.apply(c)))]
pub struct DbArgs<B: GameDb, R: Args> {
    #[command(subcommand)]
    pub cmd: DbCmd<B, R>,
}

/// A game's `db build` flags, and the words of its `db` help.
pub trait GameDb: Args {
    const WORDS: DbWords;
}

/// A game's `db` subcommand, parsed.
#[derive(Subcommand)]
pub enum DbCmd<B: Args, R: Args> {
    // The game's `db build`: its help is that of `B`.
    Build(B),
    /// Check every layer: checksums, and each entry against its moves (Bellman).
    Verify {
        #[arg(long)]
        dir: PathBuf,
        #[command(flatten)]
        rules: R,
    },
    /// Per layer: positions, wins / draws / losses for the mover, value histogram.
    Stats {
        #[command(flatten)]
        stats: StatsFlags,
        #[command(flatten)]
        rules: R,
    },
    // Described, and its range flag named, by the game's words.
    Export {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long, allow_hyphen_values = true)]
        layers: String,
        /// Table format (CSV files get a `.meta.json` data dictionary beside them).
        #[arg(long, value_parser = crate::cli::args::format())]
        format: Format,
        /// File to write (its directory must exist; replaced atomically when the export is complete).
        #[arg(long, value_parser = crate::cli::args::out_file())]
        out: PathBuf,
        #[command(flatten)]
        rules: R,
    },
    // Described by the game's words.
    Pack {
        #[arg(long)]
        dir: PathBuf,
        /// Directory of the packed layer files (created if missing).
        #[arg(long, value_parser = crate::cli::args::out_dir())]
        out: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = crate::cli::args::threads)]
        threads: Option<crate::cli::args::Threads>,
        #[command(flatten)]
        rules: R,
    },
}

/// `db stats`'s flags, the same for every game.
#[derive(Args)]
pub struct StatsFlags {
    /// The database's directory (its `db build --dir`).
    #[arg(long)]
    pub dir: PathBuf,
    /// Print the statistics as one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write an SVG chart of the W/D/L share per layer.
    #[arg(long, value_parser = crate::cli::args::out_file())]
    pub svg: Option<PathBuf>,
    /// Also write the per-layer rows as CSV (the layer's pieces, stones or warriors, then
    /// positions, wins, draws, losses, crc32).
    #[arg(long, value_parser = crate::cli::args::out_file())]
    pub csv: Option<PathBuf>,
    /// Also write the value histograms as CSV (pieces, value, positions).
    #[arg(long, value_parser = crate::cli::args::out_file())]
    pub histogram_csv: Option<PathBuf>,
}

/// What a game's `db` help says in its own words (each line as help shows it).
pub struct DbWords {
    /// `--dir` of `verify` and `export`.
    pub dir: &'static str,
    /// `export`'s layer range flag (`warriors`: `--warriors WARRIORS`) and its help.
    pub range: &'static str,
    pub range_value: &'static str,
    pub range_help: &'static str,
    /// `export`'s description (its columns) and example.
    pub export_about: &'static str,
    pub export_example: &'static str,
    /// `pack`'s description, its `--dir` and its example, if any.
    pub pack_about: &'static str,
    pub pack_dir: &'static str,
    pub pack_example: Option<&'static str>,
}

impl DbWords {
    /// Subcommand `c` of [`DbCmd`] in these words (its flags changed in place: their order is
    /// the order usage lines list them in).
    pub fn apply(&self, c: Command) -> Command {
        let dir = match c.get_name() {
            "verify" | "export" => self.dir,
            "pack" => self.pack_dir,
            _ => return c,
        };
        let c = c.mut_args(|a| match a.get_id().as_str() {
            "dir" => a.help(dir),
            "layers" => a.long(self.range).value_name(self.range_value).help(self.range_help),
            _ => a,
        });
        match (c.get_name(), self.pack_example) {
            ("export", _) => c.about(self.export_about).after_help(self.export_example),
            ("pack", Some(e)) => c.about(self.pack_about).after_help(e),
            ("pack", None) => c.about(self.pack_about),
            _ => c,
        }
    }
}
