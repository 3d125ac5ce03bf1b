//! Per-South-choice aggregates of a sweep, their merge, and the summary tables.
//!
//! An [`Agg`] is plain integers (margins in half-seeds), so partial aggregates merge exactly
//! and in any order: a sharded sweep merged later gives the same bytes as one run.

use crate::export::{Column, Value};
use crate::games::lukho::{Choice, Class, GameOutcome, Rules};
use crate::side::Side;
use serde_json::{json, Value as Json};

/// Outcome counts of the games of one South choice (or of a whole sweep), South's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agg {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub cycles: u64,
    pub perpetual_openings: u64,
    pub perpetual_turns: u64,
    /// Margins South − North ×2; min/max meaningless when `games == 0`.
    pub min_margin2: i32,
    pub max_margin2: i32,
    pub sum_margin2: i64,
    /// Match points won by South / North, first game of a series and later games.
    pub south_points_first: u64,
    pub north_points_first: u64,
    pub south_points_later: u64,
    pub north_points_later: u64,
    /// Games in which South moves first after the opening.
    pub south_first: u64,
}

impl Default for Agg {
    fn default() -> Self {
        Agg {
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            cycles: 0,
            perpetual_openings: 0,
            perpetual_turns: 0,
            min_margin2: i32::MAX,
            max_margin2: i32::MIN,
            sum_margin2: 0,
            south_points_first: 0,
            north_points_first: 0,
            south_points_later: 0,
            north_points_later: 0,
            south_first: 0,
        }
    }
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
        let m = o.margin2 as i32;
        self.min_margin2 = self.min_margin2.min(m);
        self.max_margin2 = self.max_margin2.max(m);
        self.sum_margin2 += m as i64;
        self.south_first += (o.first_player == Side::South) as u64;
    }

    pub fn merge(mut self, o: &Agg) -> Agg {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.cycles += o.cycles;
        self.perpetual_openings += o.perpetual_openings;
        self.perpetual_turns += o.perpetual_turns;
        self.min_margin2 = self.min_margin2.min(o.min_margin2);
        self.max_margin2 = self.max_margin2.max(o.max_margin2);
        self.sum_margin2 += o.sum_margin2;
        self.south_points_first += o.south_points_first;
        self.north_points_first += o.north_points_first;
        self.south_points_later += o.south_points_later;
        self.north_points_later += o.north_points_later;
        self.south_first += o.south_first;
        self
    }

    /// The integer fields in a fixed order (the part-file payload).
    pub fn to_ints(&self) -> [i64; 15] {
        [
            self.games as i64,
            self.wins as i64,
            self.draws as i64,
            self.losses as i64,
            self.cycles as i64,
            self.perpetual_openings as i64,
            self.perpetual_turns as i64,
            self.min_margin2 as i64,
            self.max_margin2 as i64,
            self.sum_margin2,
            self.south_points_first as i64,
            self.north_points_first as i64,
            self.south_points_later as i64,
            self.north_points_later as i64,
            self.south_first as i64,
        ]
    }

    pub fn from_ints(v: &[i64; 15]) -> Agg {
        Agg {
            games: v[0] as u64,
            wins: v[1] as u64,
            draws: v[2] as u64,
            losses: v[3] as u64,
            cycles: v[4] as u64,
            perpetual_openings: v[5] as u64,
            perpetual_turns: v[6] as u64,
            min_margin2: v[7] as i32,
            max_margin2: v[8] as i32,
            sum_margin2: v[9],
            south_points_first: v[10] as u64,
            north_points_first: v[11] as u64,
            south_points_later: v[12] as u64,
            north_points_later: v[13] as u64,
            south_first: v[14] as u64,
        }
    }

    fn margin(&self, m2: i32) -> Value {
        if self.games == 0 {
            Value::Null
        } else {
            Value::Float(m2 as f64 / 2.0)
        }
    }

    fn mean(&self) -> Value {
        if self.games == 0 {
            Value::Null
        } else {
            Value::Float(self.sum_margin2 as f64 / 2.0 / self.games as f64)
        }
    }

    /// The aggregate columns, in [`agg_columns`] order.
    pub fn values(&self) -> Vec<Value> {
        let i = |x: u64| Value::Int(x as i64);
        vec![
            i(self.games),
            i(self.wins),
            i(self.draws),
            i(self.losses),
            i(self.cycles),
            i(self.perpetual_openings),
            i(self.perpetual_turns),
            self.margin(self.min_margin2),
            self.margin(self.max_margin2),
            self.mean(),
            i(self.south_points_first),
            i(self.north_points_first),
            i(self.south_points_later),
            i(self.north_points_later),
            i(self.south_first),
        ]
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

/// Columns of an [`Agg`], in order.
pub fn agg_columns() -> Vec<Column> {
    vec![
        Column::Int("games"),
        Column::Int("wins"),
        Column::Int("draws"),
        Column::Int("losses"),
        Column::Int("cycles"),
        Column::Int("perpetual_openings"),
        Column::Int("perpetual_turns"),
        Column::Float("min_margin"),
        Column::Float("max_margin"),
        Column::Float("mean_margin"),
        Column::Int("south_points_first_game"),
        Column::Int("north_points_first_game"),
        Column::Int("south_points_later_game"),
        Column::Int("north_points_later_game"),
        Column::Int("south_moves_first"),
    ]
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
