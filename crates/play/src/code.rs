//! The stable code of every refusal a game flow gives, in one place.

/// What a flow's error answers as (`docs/api.md` lists every code): each
/// code is spelled here only, whichever flows share it. Two are not rules:
/// [`Code::NotFound`] (a hand or move that does not exist) and
/// [`Code::Internal`] (a stored state that contradicts itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// No such hand, seek or game.
    NotFound,
    /// A stored state that contradicts itself: a bug, not a rule.
    Internal,
    /// The commitment the caller saw is not the current one.
    CommitmentMismatch,
    /// The table's seed session was rotated (or is due to be).
    SessionRotated,
    /// A seat number out of range (poker).
    InvalidSeat,
    /// A seat number out of range (hold'em).
    SeatInvalid,
    /// Someone sits there.
    SeatTaken,
    /// Nobody sits there.
    SeatEmpty,
    /// The player sits at the table already.
    AlreadySeated,
    /// The player has no seat at the table.
    NotSeated,
    /// Too few players for a hand.
    NotEnoughPlayers,
    /// The hand ended.
    HandOver,
    /// The step does not fit the game's status.
    WrongStatus,
    /// A player accepted their own chess seek.
    OwnSeek,
    /// A player challenged themselves.
    OwnChallenge,
    /// The challenged player does not exist.
    UnknownOpponent,
    /// The seek expired.
    SeekExpired,
    /// A match index out of range.
    InvalidIndex,
    /// The match's seed was set already.
    SeedAlreadySet,
    /// The match has no client seed.
    NoClientSeeds,
    /// Some players' client seeds are missing.
    ClientSeedsMissing,
    /// A match step the game does not allow now.
    InvalidStep,
    /// A buyer that is not a player of the match.
    InvalidBuyer,
    /// The wall has no tile left.
    WallEmpty,
    /// The match passed its length limit.
    MatchTooLong,
    /// A hold'em table's settings are out of range.
    ConfigInvalid,
    /// A hand is running.
    HandRunning,
    /// The player is in the running hand.
    InHand,
    /// No hand is running.
    NoHand,
    /// The table's seed does not parse.
    SeedInvalid,
    /// Another seat is to act.
    NotYourTurn,
    /// A check facing a bet.
    CannotCheck,
    /// A call with nothing to call.
    NothingToCall,
    /// A raise below the minimum.
    RaiseTooSmall,
    /// A raise above the stack or the limit.
    RaiseTooLarge,
    /// Raising is closed to this seat.
    RaiseClosed,
    /// The action clock has not run out.
    ClockRunning,
    /// The stack is at or above the top-up level.
    TopUpNotNeeded,
    /// The client seed is unusable.
    ClientSeedInvalid,
    /// A private table's seat, asked without its invitation or with
    /// another table's.
    InvitationRefused,
    /// The session's seeds cannot be derived.
    DerivationFailed,
    /// The table closed.
    TableClosed,
    /// The round before a hand is open: seats stay as they are until it is dealt.
    RoundOpen,
    /// A commit or reveal the hand's round does not take.
    NotInRound,
    /// A per-hand commit or value that is not 64 hex characters.
    HandValueInvalid,
    /// A revealed per-hand value whose sha256 is not the seat's commit.
    HandValueMismatch,
}

impl Code {
    /// The code as the API answers it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotFound => "not_found",
            Self::Internal => "internal",
            Self::CommitmentMismatch => "commitment_mismatch",
            Self::SessionRotated => "session_rotated",
            Self::InvalidSeat => "invalid_seat",
            Self::SeatInvalid => "seat_invalid",
            Self::SeatTaken => "seat_taken",
            Self::SeatEmpty => "seat_empty",
            Self::AlreadySeated => "already_seated",
            Self::NotSeated => "not_seated",
            Self::NotEnoughPlayers => "not_enough_players",
            Self::HandOver => "hand_over",
            Self::WrongStatus => "wrong_status",
            Self::OwnSeek => "own_seek",
            Self::OwnChallenge => "own_challenge",
            Self::UnknownOpponent => "unknown_opponent",
            Self::SeekExpired => "seek_expired",
            Self::InvalidIndex => "invalid_index",
            Self::SeedAlreadySet => "seed_already_set",
            Self::NoClientSeeds => "no_client_seeds",
            Self::ClientSeedsMissing => "client_seeds_missing",
            Self::InvalidStep => "invalid_step",
            Self::InvalidBuyer => "invalid_buyer",
            Self::WallEmpty => "wall_empty",
            Self::MatchTooLong => "match_too_long",
            Self::ConfigInvalid => "config_invalid",
            Self::HandRunning => "hand_running",
            Self::InHand => "in_hand",
            Self::NoHand => "no_hand",
            Self::SeedInvalid => "seed_invalid",
            Self::NotYourTurn => "not_your_turn",
            Self::CannotCheck => "cannot_check",
            Self::NothingToCall => "nothing_to_call",
            Self::RaiseTooSmall => "raise_too_small",
            Self::RaiseTooLarge => "raise_too_large",
            Self::RaiseClosed => "raise_closed",
            Self::ClockRunning => "clock_running",
            Self::TopUpNotNeeded => "top_up_not_needed",
            Self::ClientSeedInvalid => "client_seed_invalid",
            Self::InvitationRefused => "invitation_refused",
            Self::DerivationFailed => "derivation_failed",
            Self::TableClosed => "table_closed",
            Self::RoundOpen => "round_open",
            Self::NotInRound => "not_in_round",
            Self::HandValueInvalid => "hand_value_invalid",
            Self::HandValueMismatch => "hand_value_mismatch",
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tests read a code against its documented spelling.
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
