//! Database layers against their own definitions: the rank bijection, the Bellman equation
//! on every entry, and the search (alpha-beta and component retrograde) on every position
//! of the small layers. The independent brute force is in `oware_db_bruteforce.rs`.

use mancala::games::oware::{Cycle, GrandSlam, Rules, PITS};
use mancala::index::{binomial, Compositions};
use mancala::retro::oware::{tables_in_memory, OwareLayers};
use mancala::retro::verify::verify_layer;
use mancala::retro::LayeredGame;
use mancala::search::component::ComponentSolver;
use mancala::search::{Limits, Searcher};
use mancala::solve::oware::OwareSearch;

#[test]
fn rank_is_a_bijection_up_to_twelve_seeds() {
    let c = Compositions::new(PITS, 48);
    for n in 0..=12 {
        let mut p = [0u8; PITS];
        p[PITS - 1] = n as u8;
        let mut r = 0u64;
        loop {
            assert_eq!(c.rank(&p), r);
            let mut u = [0u8; PITS];
            c.unrank(n, r, &mut u);
            assert_eq!(u, p);
            r += 1;
            if !Compositions::next(&mut p) {
                break;
            }
        }
        assert_eq!(r, c.layer_size(n), "layer {n}");
    }
}

#[test]
fn rank_spot_checks_on_large_layers() {
    let c = Compositions::new(PITS, 48);
    // Last distribution of a layer: everything in p0.
    for n in [20usize, 30, 48] {
        let mut p = [0u8; PITS];
        p[0] = n as u8;
        assert_eq!(c.rank(&p), c.layer_size(n) - 1);
        let mut u = [0u8; PITS];
        c.unrank(n, c.layer_size(n) / 3, &mut u);
        assert_eq!(c.rank(&u), c.layer_size(n) / 3);
    }
    assert_eq!(c.layer_size(48), 279_871_768_995);
    // The start position, ranked by counting directly: for each pit, the distributions that
    // agree on the pits before it and hold fewer seeds there (no hockey-stick shortcut).
    let start = [4u8; PITS];
    let mut left = 48usize;
    let mut want = 0u64;
    for (i, &p) in start[..PITS - 1].iter().enumerate() {
        let rest = PITS - 1 - i;
        want += (0..p as usize).map(|v| binomial((left - v + rest - 1) as u64, (rest - 1) as u64)).sum::<u64>();
        left -= p as usize;
    }
    assert_eq!(c.rank(&start), want);
    let mut u = [0u8; PITS];
    c.unrank(48, want, &mut u);
    assert_eq!(u, start);
}

#[test]
fn every_entry_satisfies_bellman_up_to_ten() {
    for gs in [GrandSlam::NoCapture, GrandSlam::Forbidden, GrandSlam::Awari] {
        let rules = Rules { grand_slam: gs, cycle: Cycle::Split };
        let t = tables_in_memory(rules, 10);
        let g = OwareLayers::new(rules);
        for n in 0..=10 {
            let bad = verify_layer(&g, &t, n, 3, &|_| {});
            assert!(bad.is_empty(), "{gs:?} layer {n}: {bad:?}");
        }
    }
}

#[test]
fn search_agrees_with_the_tables_up_to_six() {
    // Without any database: alpha-beta with a budget, and the component retrograde.
    let rules = Rules::default();
    let t = tables_in_memory(rules, 6);
    let game = OwareSearch::new(rules, None);
    let layers = OwareLayers::new(rules);
    let mut comp = ComponentSolver::new(&game, 1 << 20);
    let mut exact_by_search = 0;
    // One table for all: its intervals are facts about positions, valid across searches.
    let mut s = Searcher::new(&game, 18);
    for (n, table) in t.iter().enumerate() {
        for r in 0..layers.layer_size(n) {
            let v = layers.unrank(n, r);
            let want = table[r as usize] as i32;
            assert_eq!(comp.value(&v).unwrap(), want, "component: {v:?}");
            let a = s.analyse(&v, Limits { nodes: Some(5_000), ..Limits::default() });
            assert!(
                a.bounds.lo <= want && want <= a.bounds.hi,
                "alpha-beta bounds {:?} miss {want} at {v:?}",
                a.bounds
            );
            exact_by_search += a.bounds.is_exact() as u32;
        }
    }
    // Most small positions are proven by alpha-beta alone.
    eprintln!("alpha-beta alone proved {exact_by_search} of 18564 positions");
    assert!(exact_by_search > 5_000, "{exact_by_search}");
}
