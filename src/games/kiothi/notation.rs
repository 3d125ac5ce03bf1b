//! Text forms (docs/rules/README.md, Notation): `B:K` for a sowing move, `E1,E2>A*C,A*C,…` for a redistribution
//! (emptied own indices ascending, then absolute boma ascending and unique, each count >= 1),
//! and the state JSON of a position. Syntax only here; legality is the rules' business.

use super::{Board, Game, GameResult, KiothiError, Move, Position, Redistribution, SowMove, ALL_BOMA, BOMA, ROW};
use crate::side::Side;
use std::fmt;
use std::str::FromStr;

fn parse_err(field: &'static str, message: String, expected: &'static str) -> KiothiError {
    KiothiError::Parse { field, message, expected }
}

const SOW_FORM: &str = "B:K, own index B 0..9 and K >= 1 warriors lifted";
const REDISTRIBUTION_FORM: &str =
    "E1,E2>A*C,A*C,… with own indices E ascending, absolute boma A 0..19 ascending, counts C >= 1";

fn number<T: FromStr>(s: &str, field: &'static str, expected: &'static str) -> Result<T, KiothiError> {
    s.trim().parse().map_err(|_| parse_err(field, format!("'{s}' is not a number in range"), expected))
}

impl fmt::Display for SowMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.boma, self.lift)
    }
}

impl FromStr for SowMove {
    type Err = KiothiError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some((b, k)) = s.split_once(':') else {
            return Err(parse_err("move", format!("'{s}' has no ':'"), SOW_FORM));
        };
        let boma: u8 = number(b, "boma", SOW_FORM)?;
        if boma as usize >= ROW {
            return Err(parse_err("boma", format!("own index {boma} is out of range"), SOW_FORM));
        }
        let lift: u8 = number(k, "lift", SOW_FORM)?;
        if lift == 0 {
            return Err(parse_err("lift", "lifts no warrior".into(), SOW_FORM));
        }
        Ok(SowMove { boma, lift })
    }
}

impl fmt::Display for Redistribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let emptied: Vec<String> = (0..ROW).filter(|i| self.emptied >> i & 1 == 1).map(|i| i.to_string()).collect();
        let placed: Vec<String> =
            (0..BOMA).filter(|&a| self.placement[a] > 0).map(|a| format!("{a}*{}", self.placement[a])).collect();
        write!(f, "{}>{}", emptied.join(","), placed.join(","))
    }
}

impl FromStr for Redistribution {
    type Err = KiothiError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some((e, p)) = s.split_once('>') else {
            return Err(parse_err("move", format!("'{s}' has no '>'"), REDISTRIBUTION_FORM));
        };
        let mut emptied = 0u16;
        let mut last: Option<u8> = None;
        for part in e.split(',') {
            let i: u8 = number(part, "emptied", REDISTRIBUTION_FORM)?;
            if i as usize >= ROW {
                return Err(parse_err("emptied", format!("own index {i} is out of range"), REDISTRIBUTION_FORM));
            }
            if last.is_some_and(|l| l >= i) {
                return Err(parse_err("emptied", format!("{i} is not in ascending order"), REDISTRIBUTION_FORM));
            }
            last = Some(i);
            emptied |= 1 << i;
        }
        let mut placement: Board = [0; BOMA];
        let mut last: Option<u8> = None;
        let mut total = 0u32;
        for part in p.split(',') {
            let Some((a, c)) = part.split_once('*') else {
                return Err(parse_err("placement", format!("'{part}' has no '*'"), REDISTRIBUTION_FORM));
            };
            let a: u8 = number(a, "placement boma", REDISTRIBUTION_FORM)?;
            if a as usize >= BOMA {
                return Err(parse_err(
                    "placement boma",
                    format!("absolute boma {a} is out of range"),
                    REDISTRIBUTION_FORM,
                ));
            }
            if last.is_some_and(|l| l >= a) {
                return Err(parse_err("placement boma", format!("{a} is not in ascending order"), REDISTRIBUTION_FORM));
            }
            last = Some(a);
            let c: u8 = number(c, "placement count", REDISTRIBUTION_FORM)?;
            total += c as u32;
            if c == 0 || total > u8::MAX as u32 {
                return Err(parse_err("placement count", format!("{c} warriors in boma {a}"), REDISTRIBUTION_FORM));
            }
            placement[a as usize] = c;
        }
        Ok(Redistribution { emptied, placement })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Sow(m) => m.fmt(f),
            Move::Redistribute(r) => r.fmt(f),
        }
    }
}

impl FromStr for Move {
    type Err = KiothiError;
    /// `>` makes it a redistribution, otherwise a sowing move.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.contains('>') {
            s.parse().map(Move::Redistribute)
        } else {
            s.parse().map(Move::Sow)
        }
    }
}

impl GameResult {
    /// The result JSON of a replay: `winner` (`south`, `north` or `draw`), `score` (final
    /// totals `[south, north]`) and `win_by_exactly_two` (K8's flagged win).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "winner": self.winner().map(|s| s.name()).unwrap_or("draw"),
            "score": self.score,
            "win_by_exactly_two": self.win_by_exactly_two(),
        })
    }
}

impl Game {
    /// The legal moves as `kiothi replay` prints them: none once the game has ended, the
    /// number of redistributions (a decimal string) on turns 1 and 2, too many to list (`null`
    /// past 128 bits), else every sowing `B:K`.
    pub fn legal_json(&self) -> serde_json::Value {
        if self.result.is_some() {
            return serde_json::json!([]);
        }
        if self.position.is_redistribution() {
            return match self.position.redistribution_count(&self.rules) {
                Ok(n) => serde_json::json!(n.to_string()),
                Err(_) => serde_json::Value::Null,
            };
        }
        serde_json::json!(self.legal_sowings().iter().map(|m| m.to_string()).collect::<Vec<_>>())
    }

    /// The position's state JSON with `legal`, `terminal` and, once ended, `result`: a line of
    /// `kiothi replay --jsonl` without its `ply`.
    pub fn state_json(&self) -> serde_json::Value {
        let mut v = self.position.to_json();
        v["legal"] = self.legal_json();
        v["terminal"] = serde_json::json!(self.result.is_some());
        if let Some(r) = &self.result {
            v["result"] = r.to_json();
        }
        v
    }
}

impl Position {
    /// The state JSON (docs/rules/README.md C3): absolute `pits`, `stores`, `to_move`, `nki`, `turn`.
    pub fn to_json(&self) -> serde_json::Value {
        let nki: Vec<bool> = (0..BOMA).map(|a| self.is_nki(a)).collect();
        serde_json::json!({
            "game": "kiothi",
            "pits": self.boma,
            "stores": self.prisons,
            "to_move": self.to_move.name(),
            "nki": nki,
            "turn": self.turn,
        })
    }

    /// Read the state JSON; errors name the field. `nki` may be omitted (none) and so may
    /// `stores` (0, 0); the result is validated ([`Position::validate`]).
    /// A checked position from a state's JSON text; an error names the field `position`.
    pub fn from_state_text(text: &str) -> Result<Position, crate::input::InputError> {
        let bad = |m: String| crate::input::InputError::new("position", m);
        let form = "expected a state object {\"game\":\"kiothi\",\"pits\":[20 counts],…}";
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON ({e}); {form}")))?;
        let p = Position::from_json(&v).map_err(|e| bad(e.to_string()))?;
        p.validate().map_err(|e| bad(e.to_string()))?;
        Ok(p)
    }

    pub fn from_json(v: &serde_json::Value) -> Result<Position, KiothiError> {
        let bad =
            |field: &'static str, expected: &'static str| parse_err(field, "missing or malformed".into(), expected);
        if let Some(g) = v.get("game") {
            if g != "kiothi" {
                return Err(parse_err("game", format!("{g} is not kiothi"), "\"kiothi\""));
            }
        }
        let list =
            |field: &'static str, len: usize, expected: &'static str| -> Result<Vec<serde_json::Value>, KiothiError> {
                match v.get(field).and_then(|x| x.as_array()) {
                    Some(a) if a.len() == len => Ok(a.clone()),
                    _ => Err(bad(field, expected)),
                }
            };
        const PITS: &str = "20 counts 0..255, South 0..9 then North 0..9";
        let mut boma: Board = [0; BOMA];
        for (b, x) in boma.iter_mut().zip(list("pits", BOMA, PITS)?) {
            *b = x.as_u64().and_then(|x| u8::try_from(x).ok()).ok_or_else(|| bad("pits", PITS))?;
        }
        const STORES: &str = "[south, north] counts 0..255";
        let mut prisons = [0u8; 2];
        if v.get("stores").is_some() {
            for (p, x) in prisons.iter_mut().zip(list("stores", 2, STORES)?) {
                *p = x.as_u64().and_then(|x| u8::try_from(x).ok()).ok_or_else(|| bad("stores", STORES))?;
            }
        }
        const NKI: &str = "20 booleans, absolute";
        let mut nki = 0u32;
        if v.get("nki").is_some() {
            for (a, x) in list("nki", BOMA, NKI)?.iter().enumerate() {
                nki |= (x.as_bool().ok_or_else(|| bad("nki", NKI))? as u32) << a;
            }
        }
        debug_assert_eq!(nki & !ALL_BOMA, 0);
        let to_move = match v.get("to_move").and_then(|x| x.as_str()) {
            Some("south") => Side::South,
            Some("north") => Side::North,
            _ => return Err(bad("to_move", "\"south\" or \"north\"")),
        };
        let turn = v
            .get("turn")
            .and_then(|x| x.as_u64())
            .and_then(|x| u32::try_from(x).ok())
            .filter(|&t| t >= 1)
            .ok_or_else(|| bad("turn", "the ply number, from 1 (1 and 2 are the redistributions)"))?;
        let p = Position { boma, prisons, nki, to_move, turn };
        p.validate()?;
        Ok(p)
    }
}
