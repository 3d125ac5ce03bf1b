//! What more than one bench measures on.

use mancala::games::lukho::{Chain, Races, Rules};
use mancala::opening_game::{OpeningGame, Payoff};
use mancala::sweep::Spec;

/// The mid-sized Lukho opening game the equilibrium benches solve: `lockstep`/`margin` over
/// the 2,368 choices of `all:remove=00*0*0*0`, default rules.
pub fn lockstep_2368() -> OpeningGame {
    OpeningGame {
        rules: Rules { chain: Chain::It, keep_one: false },
        model: "lockstep".parse::<Races>().unwrap(),
        payoff: Payoff::parse("margin").unwrap(),
        family: Spec::parse("all:remove=00*0*0*0").unwrap(),
    }
}
