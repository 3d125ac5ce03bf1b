//! The two players.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    South,
    North,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
    /// 0 for South, 1 for North: the index into `stores`.
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// The side with the larger final total (`[south, north]`), `None` on equal totals.
    pub fn ahead(score: [f64; 2]) -> Option<Side> {
        if score[0] > score[1] {
            Some(Side::South)
        } else if score[1] > score[0] {
            Some(Side::North)
        } else {
            None
        }
    }
}
