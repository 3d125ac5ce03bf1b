//! The packed board's helpers and the checked constructor's messages.

use super::*;

#[test]
fn packed_board_helpers() {
    let b = Board::default();
    assert_eq!(b.pits(), [3; 16]);
    assert_eq!(b.board_seeds(), 48);
    assert_eq!(byte_sum(b.packed()), 48);
    // Two laps' worth plus 3 from absolute 14: every pit +2, then 15, 0, 1 +1.
    let x = add_run(0, 14, 35);
    let p = x.to_le_bytes();
    assert_eq!(p[15], 3);
    assert_eq!(p[0], 3);
    assert_eq!(p[1], 3);
    assert_eq!(p[2], 2);
    assert_eq!(p[14], 2);
    let rules = Rules { chain: Chain::En, keep_one: true };
    assert_eq!(rules.to_json(), serde_json::json!({"game": "lukho", "chain": "en", "keep_one": true}));
}

#[test]
fn checked_boards_name_the_field() {
    let mut k = [-1i8; 16];
    assert!(Board::checked([3; 16], k, [0, 0]).is_ok());
    let e = Board::checked([3; 16], k, [1, 0]).unwrap_err();
    assert_eq!(e, BoardError::TooManySeeds { board: 48, stores: 1 });
    assert!(e.to_string().starts_with("pits:"));
    k[5] = 0;
    let mut pits = [0u8; 16];
    assert_eq!(Board::checked(pits, k, [0, 0]), Err(BoardError::KnifeTooSmall { pit: 5, seeds: 0 }));
    pits[5] = 2;
    assert_eq!(Board::checked(pits, k, [0, 0]).unwrap().knife(5), Some(Side::South));
    k[6] = 2;
    let e = Board::checked(pits, k, [0, 0]).unwrap_err();
    assert!(e.to_string().starts_with("knives:"), "{e}");
}
