//! A sweep's definition (the rules, the race model, both SPECs, symmetric or not) and the
//! sets of choices it resolves to.

use super::spec::{choices, Spec};
use crate::games::lukho::{Choice, Races, Rules};
use crate::input::InputError;

/// A sweep's definition: everything that decides its result (written into every part header).
#[derive(Clone, Debug)]
pub struct SweepDef {
    pub rules: Rules,
    pub model: Races,
    pub south: Spec,
    pub north: Spec,
    /// Each South choice against the same choice by North (the diagonal), not a product.
    pub symmetric: bool,
}

/// The resolved sets of a sweep. Symmetric sweeps have no North set: each South choice meets
/// its own mirror.
pub struct Sets {
    pub south: Vec<u32>,
    pub north_ids: Vec<u32>,
    pub north: Vec<Choice>,
    pub symmetric: bool,
}

impl Sets {
    /// North choices each South choice meets.
    pub fn north_per_south(&self) -> usize {
        if self.symmetric {
            1
        } else {
            self.north.len()
        }
    }
}

impl SweepDef {
    /// The definition from the flags: `north` is left out exactly when `symmetric`.
    pub fn new(
        rules: Rules,
        model: Races,
        south: Spec,
        north: Option<Spec>,
        symmetric: bool,
    ) -> Result<SweepDef, InputError> {
        let north = match (north, symmetric) {
            (None, true) => south.clone(),
            (None, false) => {
                return Err(InputError::new(
                    "north",
                    "required (or --symmetric to play each South choice against itself)",
                ))
            }
            (Some(_), true) => {
                return Err(InputError::new(
                    "north",
                    "--symmetric plays each South choice against the same choice by North; leave --north out",
                ))
            }
            (Some(n), false) => n,
        };
        Ok(SweepDef { rules, model, south, north, symmetric })
    }

    pub fn sets(&self) -> Result<Sets, InputError> {
        let south = self.south.nonempty_ids(&self.rules, "south")?;
        if self.symmetric {
            return Ok(Sets { south, north_ids: vec![], north: vec![], symmetric: true });
        }
        let north_ids = self.north.nonempty_ids(&self.rules, "north")?;
        let north = choices(&north_ids, &self.rules);
        Ok(Sets { south, north_ids, north, symmetric: false })
    }
}
