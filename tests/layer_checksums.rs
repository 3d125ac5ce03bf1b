//! Layer checksums against their data files (`tests/data/*/layers.csv`, which say how each
//! number was produced and checked) and against the shipped result tables
//! (`results/oware/layers.csv`, `results/kiothi/tables/layers.csv`): the layers built here in
//! memory have exactly the recorded crc32, and the files agree with each other.

mod common;
use common::layer_checksums;

use layer_checksums::{expected, shipped};
use mancala::games::kiothi;
use mancala::games::oware::{Cycle, GrandSlam, Rules};
use mancala::retro::kiothi::KiothiLayers;
use mancala::retro::oware::OwareLayers;
use mancala::retro::{builder, LayeredGame};
use mancala::store::layer_file::{as_bytes, checksum};

const OWARE: &str = "tests/data/oware/layers.csv";
const KIOTHI: &str = "tests/data/kiothi/layers.csv";

/// Built here for every grand-slam rule (as the Bellman test in oware_db.rs does).
const OWARE_BUILT: usize = 10;
/// Built here (as the brute force in kiothi_db_bruteforce.rs does).
const KIOTHI_BUILT: usize = 6;

#[test]
fn oware_layers_have_the_recorded_checksums() {
    let want = expected(OWARE);
    for gs in GrandSlam::ALL {
        let rules = Rules { grand_slam: gs, cycle: Cycle::Split };
        let layers = builder::build_all(&OwareLayers::new(rules), OWARE_BUILT);
        for (n, l) in layers.iter().enumerate() {
            let w =
                want.get(&(rules.db_tag(), n)).unwrap_or_else(|| panic!("{OWARE}: no {} layer {n}", rules.db_tag()));
            assert_eq!(checksum(as_bytes(l)), *w, "{} layer {n}", rules.db_tag());
        }
    }
}

#[test]
fn kiothi_layers_have_the_recorded_checksums() {
    let want = expected(KIOTHI);
    let game = KiothiLayers::new(kiothi::Rules::default());
    let tag = "nki-lift-relays-any";
    assert_eq!(
        mancala::retro::database::TableGame::file_name(&game, 0),
        format!("kiothi-{tag}-0.db"),
        "the data file's rules column is the file-name tag"
    );
    let layers = builder::build_all(&game, KIOTHI_BUILT);
    for (n, l) in layers.iter().enumerate() {
        assert_eq!(checksum(as_bytes(l)), want[&(tag.to_string(), n)], "layer {n}");
    }
}

#[test]
fn shipped_oware_table_matches_the_built_layers_and_the_data_file() {
    let (rules, rows) = shipped("results/oware/layers.csv", "stones");
    let default = Rules::default();
    assert_eq!(rules, mancala::retro::oware::rules_text(&default));
    let game = OwareLayers::new(default);
    let built = builder::build_all(&game, OWARE_BUILT);
    for (n, l) in built.iter().enumerate() {
        assert_eq!(rows[n].crc32, checksum(as_bytes(l)), "results/oware/layers.csv layer {n}");
        assert_eq!(rows[n].positions, l.len() as u64, "layer {n} positions");
    }
    for r in &rows {
        assert_eq!(r.positions, game.layer_size(r.layer), "layer {} positions", r.layer);
    }
    for ((tag, n), crc) in expected(OWARE) {
        if tag == default.db_tag() {
            assert_eq!(rows[n].crc32, crc, "{OWARE} and results/oware/layers.csv disagree on layer {n}");
        }
    }
}

#[test]
fn shipped_kiothi_table_matches_the_built_layers_and_the_data_file() {
    let (rules, rows) = shipped("results/kiothi/tables/layers.csv", "warriors");
    let default = kiothi::Rules::default();
    assert_eq!(rules, mancala::retro::kiothi::rules_text(&default));
    let game = KiothiLayers::new(default);
    let built = builder::build_all(&game, KIOTHI_BUILT);
    for (n, l) in built.iter().enumerate() {
        assert_eq!(rows[n].crc32, checksum(as_bytes(l)), "results/kiothi/tables/layers.csv layer {n}");
    }
    for r in &rows {
        assert_eq!(r.positions, game.layer_size(r.layer), "layer {} positions", r.layer);
    }
    for ((_, n), crc) in expected(KIOTHI) {
        assert_eq!(rows[n].crc32, crc, "{KIOTHI} and results/kiothi/tables/layers.csv disagree on layer {n}");
    }
}
