//! `mancala serve`: the web oracle. Parsing, opening the databases and printing the address
//! only: the server is `mancala::serve`.

use super::layer_db::db_error;
use super::usage;
use anyhow::Result;
use clap::Args;
use mancala::games::oware::{Cycle, GrandSlam, Rules as OwareRules};
use mancala::retro::database::TableGame;
use mancala::retro::{kiothi, oware};
use mancala::serve::{Oracle, Server};
use mancala::store::layer_file::DbError;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

#[derive(Args)]
pub struct ServeArgs {
    /// Oware database directory (`oware db build`): every grand-slam variant found in it is
    /// served; positions it does not cover are searched.
    #[arg(long)]
    db: Option<PathBuf>,
    /// Kiothi endgame tables (`kiothi db build`, default rules) probed by Kiothi solves.
    #[arg(long)]
    kiothi_db: Option<PathBuf>,
    /// The Lukho results to browse (default: results/lukho under the current directory, when
    /// it exists).
    #[arg(long)]
    results: Option<PathBuf>,
    /// TCP port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (default: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Worker threads answering requests (a running search holds one).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(2..=1024))]
    workers: u16,
    /// Most searches running at once (each has a 64 MiB table); more are answered 503.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    max_searches: u16,
    /// Longest search a request may ask for, in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = crate::cli::args::seconds)]
    max_time: f64,
}

pub fn serve(a: ServeArgs) -> Result<()> {
    let mut owares = Vec::new();
    if let Some(dir) = &a.db {
        if !dir.is_dir() {
            return usage(format!("--db: {} is not a directory of Oware layer files", dir.display()));
        }
        for grand_slam in GrandSlam::ALL {
            let rules = OwareRules { grand_slam, cycle: Cycle::Split };
            match oware::Database::open_through(dir, rules, oware::OwareLayers::MAX_LAYER) {
                Ok(d) => owares.push(d),
                Err(DbError::Missing { .. }) => {}
                Err(e) => return Err(db_error("--db", e)),
            }
        }
        if owares.is_empty() {
            return usage(format!(
                "--db: {} holds no Oware database (build one with `mancala oware db build`)",
                dir.display()
            ));
        }
    }
    let tables =
        match &a.kiothi_db {
            None => None,
            Some(dir) if !dir.is_dir() => {
                return usage(format!("--kiothi-db: {} is not a directory of Kiothi layer files", dir.display()))
            }
            Some(dir) => {
                match kiothi::Database::open_through(dir, Default::default(), kiothi::KiothiLayers::MAX_LAYER) {
                Ok(d) => Some(d),
                Err(DbError::Missing { .. }) => {
                    return usage(format!(
                        "--kiothi-db: {} holds no Kiothi tables for the default rules (build them with `mancala kiothi db build`)",
                        dir.display()
                    ))
                }
                Err(e) => return Err(db_error("--kiothi-db", e)),
            }
            }
        };
    let results = match a.results {
        Some(dir) if !dir.is_dir() => return usage(format!("--results: {} is not a directory", dir.display())),
        Some(dir) => Some(dir),
        None => Some(PathBuf::from("results/lukho")).filter(|d| d.is_dir()),
    };
    let server = Server::bind(SocketAddr::new(a.bind, a.port))
        .or_else(|e| usage(format!("--port: cannot listen on {}:{} ({e})", a.bind, a.port)))?;
    let mut oracle = Oracle::new(owares, tables, results);
    oracle.max_searches = a.max_searches as usize;
    oracle.max_seconds = a.max_time;
    // The first line of stdout is the address: tests and scripts that ask for port 0 read it.
    let mut out = std::io::stdout().lock();
    writeln!(out, "listening on http://{}/", server.addr())?;
    out.flush()?;
    drop(out);
    server.run(oracle, a.workers as usize)
}
