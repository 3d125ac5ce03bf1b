//! Worked examples of choice ids and the text forms of a choice (docs/rules/lukho.md "L14.
//! Choice ids and the number of choices").

use super::*;

#[test]
fn choice_ids_first_and_last() {
    let r = Rules::default();
    assert_eq!(Choice::from_id(0, &r).unwrap(), choice([0; 8], 0, 0));
    // Removal 0,…,0 (h = 0) has the single id 0; removal 0,…,0,1 (h = 1) holds ids 1..=9:
    // id 1 = d = 0, ids 2..9 = d = 1 at pits 0..7; removal 0,…,0,2 starts at id 10.
    assert_eq!(Choice::from_id(1, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 1], 0, 0));
    assert_eq!(Choice::from_id(2, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 1], 1, 0));
    assert_eq!(Choice::from_id(9, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 1], 1, 7));
    assert_eq!(Choice::from_id(10, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 2], 0, 0));
    // The last id: remove everything, drop all 24 into the opponent's index 7.
    assert_eq!(Choice::from_id(6_356_991, &r).unwrap(), choice([3; 8], 24, 7));
    assert_eq!(choice([3; 8], 24, 7).id(&r), 6_356_991);
    assert!(matches!(Choice::from_id(6_356_992, &r), Err(ChoiceError::Id { .. })));
    let k = Rules { chain: Chain::It, keep_one: true };
    assert_eq!(Choice::from_id(5_832_711, &k).unwrap(), Choice::new([3; 8], 23, 7, &k).unwrap());
}

#[test]
fn choice_text_forms() {
    let r = Rules::default();
    let c = Choice::parse("3,2,0,0,0,0,0,1", "4@6", &r).unwrap();
    assert_eq!(c, choice([3, 2, 0, 0, 0, 0, 0, 1], 4, 6));
    assert_eq!((c.remove_string(), c.drop_string()), ("3,2,0,0,0,0,0,1".to_string(), "4@6".to_string()));
    assert_eq!(c.sow_count(), 2);
    assert_eq!(Choice::parse("0,0,0,0,0,0,0,0", "0@0", &r).unwrap(), Choice::default());
    // A zero drop's pit is irrelevant and normalised to 0.
    assert_eq!(Choice::parse("1,0,0,0,0,0,0,0", "0@5", &r).unwrap().pit, 0);
    // Errors name the field.
    for bad in ["3,2,0", "4,0,0,0,0,0,0,0", "a,0,0,0,0,0,0,0", "0,0,0,0,0,0,0,0,0"] {
        let e = Choice::parse(bad, "0@0", &r).unwrap_err();
        assert!(matches!(e, ChoiceError::Remove(_)), "{bad}");
        assert!(e.to_string().starts_with("remove:"), "{e}");
    }
    for bad in ["4", "4@8", "x@1", "1@-1"] {
        let e = Choice::parse("3,3,0,0,0,0,0,0", bad, &r).unwrap_err();
        assert!(e.to_string().starts_with("drop:"), "{bad}: {e}");
    }
    let e = Choice::parse("1,0,0,0,0,0,0,0", "2@0", &r).unwrap_err();
    assert_eq!(e, ChoiceError::DropTooLarge { drop: 2, hand: 1, keep_one: false });
    let k = Rules { chain: Chain::It, keep_one: true };
    assert!(Choice::parse("1,0,0,0,0,0,0,0", "1@0", &k).is_err());
    assert!(Choice::parse("1,0,0,0,0,0,0,0", "0@0", &k).is_ok());
    assert!(Choice::parse("0,0,0,0,0,0,0,0", "0@0", &k).is_ok());
}
