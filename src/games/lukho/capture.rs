//! Captures (docs/rules/lukho.md "L3. The end of a lap", rule 4) and the chain rule variants
//! ("L4. Chain rule").

use super::geometry::{opposite, row_of, ROW};
use super::tables::{get, CLEAR};
use crate::side::Side;
use serde::{Deserialize, Serialize};

crate::variant::variants! {
    /// What happens after a capture (docs/rules/lukho.md "L4. Chain rule").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    pub enum Chain ("chain rule") {
        /// Italian text: after capturing at own index `i`, own `i+1, i+2, …` while each is empty
        /// (not a knife) and faces a non-empty non-knife pit, whose seeds are taken too. Default.
        #[default]
        It = "it": "Own pits onward from the capture (Italian text; default)",
        /// English text: after the captured opponent index `j`, opponent `j+1, j+2, …` (no wrap)
        /// while each is non-empty and not a knife.
        En = "en": "Opponent pits onward from the captured one (English text)",
        /// Only the single opposite pit.
        None = "none": "Only the opposite pit",
    }
}

/// Rule 4 capture at `x` (the last seed of `sower`'s lap just fell there into an empty pit)
/// and the chain rule, on the packed pits: the pits after it. Nothing is taken when `x` is not
/// the sower's or the opposite pit is empty or a knife. Inlined: each mover's copy of the
/// turn then knows its row (see `Position::turn`).
#[inline(always)]
pub(super) fn captured(mut b: u128, knives: u16, chain: Chain, sower: Side, x: usize) -> u128 {
    let s = sower.index();
    if row_of(x) != sower {
        return b;
    }
    let takeable = |b: u128, q: usize| get(b, q) > 0 && knives & (1 << q) == 0;
    let opp = opposite(x);
    if !takeable(b, opp) {
        return b;
    }
    b &= CLEAR[opp] & CLEAR[x];
    let i = x % ROW;
    match chain {
        Chain::It => {
            // Own i+1, i+2, … while empty, not a knife, and facing a takeable pit.
            for own in x + 1..(s + 1) * ROW {
                let o = opposite(own);
                if get(b, own) == 0 && knives & (1 << own) == 0 && takeable(b, o) {
                    b &= CLEAR[o];
                } else {
                    break;
                }
            }
        }
        Chain::En => {
            // Opponent j+1, j+2, … (j = 7-i, the pit just taken) while takeable, no wrap.
            let opp_base = sower.other().index() * ROW;
            for j in (ROW - 1 - i) + 1..ROW {
                let o = opp_base + j;
                if takeable(b, o) {
                    b &= CLEAR[o];
                } else {
                    break;
                }
            }
        }
        Chain::None => {}
    }
    b
}
