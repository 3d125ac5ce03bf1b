use super::*;
use crate::games::kiothi::BOMA;
use crate::retro::verify::verify_layer;
use crate::retro::LayeredGame;

/// (child, parent) rank pairs.
type Edges = Vec<(u64, u64)>;

/// Every (child, parent) pair of capture-free moves of layer `n`, by forward generation and
/// by `unmoves`, as sorted rank pairs.
fn pairs(game: &KiothiLayers, n: usize) -> (Edges, Edges) {
    let size = game.layer_size(n);
    let mut fwd = Vec::new();
    let mut bwd = Vec::new();
    let mut edges = Vec::new();
    let mut preds = Vec::new();
    let mut ranks = Vec::new();
    let mut v = game.unrank(n, 0);
    for r in 0..size {
        if r > 0 {
            assert!(game.next_in_layer(&mut v));
        }
        if game.expand(&v, &mut edges).is_none() {
            for e in edges.iter().filter(|e| e.same_layer) {
                let (layer, c) = game.locate(&e.child);
                assert_eq!(layer, n);
                fwd.push((c, r));
            }
        }
        game.unmoves(&v, &mut preds);
        let before = bwd.len();
        for p in &preds {
            let (layer, pr) = game.locate(p);
            assert_eq!(layer, n);
            bwd.push((r, pr));
        }
        // The builder's path: ranks straight from the rank.
        game.unmove_ranks(n, r, &mut preds, &mut ranks);
        let mut a: Vec<u64> = bwd[before..].iter().map(|x| x.1).collect();
        a.sort_unstable();
        ranks.sort_unstable();
        assert_eq!(a, ranks, "unmove_ranks at {v:?}");
    }
    assert!(!game.next_in_layer(&mut v));
    fwd.sort_unstable();
    bwd.sort_unstable();
    (fwd, bwd)
}

#[test]
fn unmoves_are_exactly_the_reversed_moves_up_to_six() {
    // About 3 s in release for the 6.7 M positions.
    let game = KiothiLayers::new(Rules::default());
    for n in 0..=6 {
        let (fwd, bwd) = pairs(&game, n);
        if fwd != bwd {
            let only_f: Vec<_> = fwd.iter().filter(|x| bwd.binary_search(x).is_err()).take(3).collect();
            let only_b: Vec<_> = bwd.iter().filter(|x| fwd.binary_search(x).is_err()).take(3).collect();
            let show = |&&(c, p): &&(u64, u64)| format!("{:?} <- {:?}", game.unrank(n, c), game.unrank(n, p));
            panic!(
                "layer {n}: {} forward pairs, {} backward; forward only: {:?}; backward only: {:?}",
                fwd.len(),
                bwd.len(),
                only_f.iter().map(show).collect::<Vec<_>>(),
                only_b.iter().map(show).collect::<Vec<_>>()
            );
        }
        eprintln!("layer {n}: {} capture-free moves, forward = backward", fwd.len());
    }
}

/// Children and captures against the rules module's own move application.
#[test]
fn moves_match_the_rules_module() {
    let rules = Rules::default();
    let game = KiothiLayers::new(rules);
    let mut rng = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut checked = 0;
    for n in 0..=10 {
        let size = game.layer_size(n);
        let ranks: Vec<u64> =
            if size <= 50_000 { (0..size).collect() } else { (0..20_000).map(|_| next() % size).collect() };
        for r in ranks {
            let v = game.unrank(n, r);
            let p = v.position();
            let mut want = Vec::new();
            p.for_each_child(&rules, &game.sowing, |c| {
                let child = View::of(&c.position).unwrap();
                want.push((c.mv, child, c.captured));
            });
            let mut got = Vec::new();
            let any = game.moves(&v, |mv, child, captured| got.push((mv, child, captured)));
            assert_eq!(got, want, "{v:?}");
            assert_eq!(any, p.has_legal_move(&rules, &game.sowing));
            checked += 1;
        }
    }
    assert!(checked > 100_000);
}

#[test]
fn every_entry_satisfies_bellman_up_to_five() {
    let rules = Rules::default();
    let t = tables_in_memory(rules, 5);
    let g = KiothiLayers::new(rules);
    for n in 0..=5 {
        let bad = verify_layer(&g, &t, n, 3, &|_| {});
        assert!(bad.is_empty(), "layer {n}: {bad:?}");
    }
    // Worked examples. One warrior, on the mover's own index 3: 3:1 puts it on own index 4
    // (empty, opposite boma empty: no capture) and the opponent, with nothing, is stuck (K8):
    // the mover takes it, +1. On own index 9 the only move 9:1 hands it over to the
    // opponent's index 0; he walks it to his index 1 and now the first mover is stuck: -1.
    let at = |i: usize| {
        let mut b = [0u8; BOMA];
        b[i] = 1;
        t[1][g.locate(&View { boma: b, nki: 0 }).1 as usize]
    };
    assert_eq!((at(3), at(9)), (1, -1));
    // The mover has nothing: K8, the opponent takes the board.
    let mut b = [0u8; BOMA];
    b[15] = 2;
    assert_eq!(t[2][g.locate(&View { boma: b, nki: 0 }).1 as usize], -2);
}
