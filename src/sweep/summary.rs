//! Per-South-choice aggregates of a sweep, their merge, and the summary tables.
//!
//! An [`Agg`] is plain integers (margins in [`HalfSeeds`]), so partial aggregates merge exactly
//! and in any order: a sharded sweep merged later gives the same bytes as one run.

use crate::export::{Column, Value};
use crate::games::lukho::{Choice, Class, GameOutcome, HalfSeeds, Rules};
use crate::side::Side;
use serde_json::{json, Value as Json};

/// A field of an [`Agg`] as one integer of a part file.
trait Int: Copy {
    fn to_int(self) -> i64;
    fn from_int(v: i64) -> Self;
}

impl Int for u64 {
    fn to_int(self) -> i64 {
        self as i64
    }
    fn from_int(v: i64) -> u64 {
        v as u64
    }
}

impl Int for HalfSeeds<i32> {
    fn to_int(self) -> i64 {
        self.0 as i64
    }
    fn from_int(v: i64) -> Self {
        HalfSeeds(v as i32)
    }
}

impl Int for HalfSeeds<i64> {
    fn to_int(self) -> i64 {
        self.0
    }
    fn from_int(v: i64) -> Self {
        HalfSeeds(v)
    }
}

fn sum<T: std::ops::Add<Output = T>>(a: T, b: T) -> T {
    a + b
}

fn count(_: &Agg, x: u64) -> Value {
    Value::Int(x as i64)
}

/// A margin in seeds; none without games.
fn margin(a: &Agg, m: HalfSeeds<i32>) -> Value {
    if a.games == 0 {
        Value::Null
    } else {
        Value::Float(m.seeds())
    }
}

/// The mean margin in seeds; none without games.
fn mean(a: &Agg, sum: HalfSeeds<i64>) -> Value {
    if a.games == 0 {
        Value::Null
    } else {
        Value::Float(sum.seeds() / a.games as f64)
    }
}

/// The aggregate's fields, each written once: its type, its empty value, how two partial
/// aggregates combine it, its column and the column's value. From this list come the struct,
/// its merge, the part-file integers, the table columns and the JSON fields, all in this order.
macro_rules! agg_fields {
    ($( $(#[$doc:meta])* $field:ident: $ty:ty = $empty:expr, $merge:path, $column:expr, $value:path; )*) => {
        /// Outcome counts of the games of one South choice (or of a whole sweep), South's view.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Agg {
            $( $(#[$doc])* pub $field: $ty, )*
        }

        impl Default for Agg {
            fn default() -> Self {
                Agg { $( $field: $empty, )* }
            }
        }

        /// Integers per aggregate in a part file.
        pub const AGG_INTS: usize = [$( stringify!($field) ),*].len();

        impl Agg {
            pub fn merge(mut self, o: &Agg) -> Agg {
                $( self.$field = $merge(self.$field, o.$field); )*
                self
            }

            /// The fields as integers, in order (the part-file payload).
            pub fn to_ints(&self) -> [i64; AGG_INTS] {
                [$( Int::to_int(self.$field) ),*]
            }

            pub fn from_ints(v: &[i64; AGG_INTS]) -> Agg {
                let mut v = v.iter().copied();
                Agg { $( $field: Int::from_int(v.next().unwrap_or_default()), )* }
            }

            /// The aggregate columns, in [`agg_columns`] order.
            pub fn values(&self) -> Vec<Value> {
                vec![$( $value(self, self.$field) ),*]
            }
        }

        /// Columns of an [`Agg`], in order.
        pub fn agg_columns() -> Vec<Column> {
            vec![$( $column ),*]
        }
    };
}

agg_fields! {
    games: u64 = 0, sum, Column::Int("games"), count;
    wins: u64 = 0, sum, Column::Int("wins"), count;
    draws: u64 = 0, sum, Column::Int("draws"), count;
    losses: u64 = 0, sum, Column::Int("losses"), count;
    cycles: u64 = 0, sum, Column::Int("cycles"), count;
    perpetual_openings: u64 = 0, sum, Column::Int("perpetual_openings"), count;
    perpetual_turns: u64 = 0, sum, Column::Int("perpetual_turns"), count;
    /// Margins South − North; min/max meaningless when `games == 0`.
    min_margin: HalfSeeds<i32> = HalfSeeds(i32::MAX), Ord::min, Column::Float("min_margin"), margin;
    max_margin: HalfSeeds<i32> = HalfSeeds(i32::MIN), Ord::max, Column::Float("max_margin"), margin;
    sum_margin: HalfSeeds<i64> = HalfSeeds(0), sum, Column::Float("mean_margin"), mean;
    /// Match points won by South / North, first game of a series and later games.
    south_points_first: u64 = 0, sum, Column::Int("south_points_first_game"), count;
    north_points_first: u64 = 0, sum, Column::Int("north_points_first_game"), count;
    south_points_later: u64 = 0, sum, Column::Int("south_points_later_game"), count;
    north_points_later: u64 = 0, sum, Column::Int("north_points_later_game"), count;
    /// Games in which South moves first after the opening.
    south_first: u64 = 0, sum, Column::Int("south_moves_first"), count;
}

impl Agg {
    #[inline]
    pub fn add(&mut self, o: &GameOutcome) {
        self.games += 1;
        match o.winner {
            Some(Side::South) => {
                self.wins += 1;
                self.south_points_first += o.points_first_game as u64;
                self.south_points_later += o.points_later_game as u64;
            }
            Some(Side::North) => {
                self.losses += 1;
                self.north_points_first += o.points_first_game as u64;
                self.north_points_later += o.points_later_game as u64;
            }
            None => self.draws += 1,
        }
        match o.class {
            Class::Normal => {}
            Class::Cycle => self.cycles += 1,
            Class::PerpetualOpening => self.perpetual_openings += 1,
            Class::PerpetualTurn => self.perpetual_turns += 1,
        }
        let m: HalfSeeds<i32> = o.margin.widen();
        self.min_margin = self.min_margin.min(m);
        self.max_margin = self.max_margin.max(m);
        self.sum_margin += m.widen();
        self.south_first += (o.first_player == Side::South) as u64;
    }

    /// The aggregate as JSON fields (global summary).
    pub fn to_json(&self) -> Json {
        let mut m = serde_json::Map::new();
        for (c, v) in agg_columns().iter().zip(self.values()) {
            m.insert(c.name().to_string(), value_json(&v));
        }
        Json::Object(m)
    }
}

pub fn value_json(v: &Value) -> Json {
    match v {
        Value::Int(x) => json!(x),
        Value::Float(x) => half_json(*x),
        Value::Str(s) => json!(s),
        Value::Null => Json::Null,
    }
}

/// A number that is an integer when it is one (`24`, not `24.0`).
pub fn half_json(x: f64) -> Json {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// Summary table: one row per South choice.
pub fn summary_columns() -> Vec<Column> {
    let mut c = vec![Column::Int("south_id"), Column::Str("south_remove"), Column::Str("south_drop")];
    c.extend(agg_columns());
    c
}

pub fn summary_row(south_id: u32, rules: &Rules, agg: &Agg) -> Vec<Value> {
    let c = Choice::from_id(south_id as u64, rules).expect("ids come from a SPEC");
    let mut row = vec![Value::Int(south_id as i64), Value::Str(c.remove_string()), Value::Str(c.drop_string())];
    row.extend(agg.values());
    row
}

/// Per-game table (`--games`).
pub fn game_columns() -> Vec<Column> {
    vec![
        Column::Int("south_id"),
        Column::Int("north_id"),
        Column::Str("race"),
        Column::Str("first_player"),
        Column::Float("south_total"),
        Column::Float("north_total"),
        Column::Str("winner"),
        Column::Float("margin"),
        Column::Str("class"),
        Column::Int("turns"),
        Column::Int("points_first_game"),
        Column::Int("points_later_game"),
    ]
}

pub fn game_row(south_id: u32, north_id: u32, race: &str, o: &GameOutcome) -> Vec<Value> {
    let t = o.totals();
    vec![
        Value::Int(south_id as i64),
        Value::Int(north_id as i64),
        Value::Str(race.to_string()),
        Value::Str(o.first_player.name().to_string()),
        Value::Float(t[0]),
        Value::Float(t[1]),
        Value::Str(o.winner.map_or("draw", |w| w.name()).to_string()),
        Value::Float(o.margin()),
        Value::Str(o.class.name().to_string()),
        Value::Int(o.turns as i64),
        Value::Int(o.points_first_game as i64),
        Value::Int(o.points_later_game as i64),
    ]
}
