//! Why a move is illegal, and the errors of the rules API.

/// Why a move is illegal. `Copy` and string-free: the move generator meets these in its hot loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("a sowing move on a redistribution turn (turn {turn})")]
    SowDuringOpening { turn: u32 },
    #[error("a redistribution after the opening (turn {turn})")]
    RedistributionAfterOpening { turn: u32 },
    #[error("own index {boma} is out of range 0..9")]
    BomaOutOfRange { boma: u8 },
    #[error("own boma {boma} is empty")]
    EmptyBoma { boma: u8 },
    #[error("lifts {lift} warriors from own boma {boma}, which holds {held} (need 1..={held})")]
    LiftOutOfRange { boma: u8, lift: u8, held: u8 },
    #[error("K4: the first lap ends in own boma {landing}, which was occupied")]
    FirstLap { landing: u8 },
    #[error("K7: the sowing never ends (its relay state repeats)")]
    Perpetual,
    #[error("max-relays {limit}: the sowing needs more relays (or never ends)")]
    RelayLimit { limit: u64 },
    /// Not a verdict on the move: the sowing reached the deadline its [`super::SowingCache`]
    /// was given ([`super::SowingCache::stop_at`]) before it ended or was shown perpetual.
    #[error("stopped at the caller's deadline before the sowing's verdict was known")]
    Stopped,
    #[error("empties {got} boma; the rules ({rule}) allow {allowed}")]
    EmptiedCount { got: u32, rule: &'static str, allowed: &'static str },
    #[error("emptied own boma {boma} is not occupied")]
    EmptiedNotOccupied { boma: u8 },
    #[error("places {placed} warriors but lifts {lifted}")]
    PlacementSum { placed: u32, lifted: u32 },
}

/// Errors of the Kiothi rules API.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KiothiError {
    /// Bad text (move notation, position JSON). `field` names the part that is wrong.
    #[error("{field}: {message} (expected {expected})")]
    Parse { field: &'static str, message: String, expected: &'static str },
    /// A position that breaks an invariant; `field` names the JSON field.
    #[error("position {field}: {message}")]
    Position { field: &'static str, message: String },
    #[error("move {mv} is illegal: {reason}")]
    Illegal { mv: String, reason: Illegal },
    #[error("the game has ended")]
    Ended,
    #[error("the count does not fit in 128 bits")]
    CountOverflow,
    #[error("{count} redistributions are too many to list (limit {limit}); count them instead")]
    TooManyMoves { count: u128, limit: u128 },
}
