//! When a poker session rotates: 500 hands or 24 hours, an empty table, or
//! the end of the process serving it.

/// Hands per session before it rotates.
pub const MAX_HANDS: usize = 500;
/// A session's lifetime before it rotates (24 h).
pub const MAX_AGE_MS: i64 = 24 * 60 * 60 * 1000;

/// Why a session rotated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RotateWhy {
    /// It reached [`MAX_HANDS`].
    Hands,
    /// It reached [`MAX_AGE_MS`].
    Age,
    /// The last player left.
    Empty,
    /// The process serving it is gone.
    Restart,
}

impl RotateWhy {
    /// The word logged and published with the rotation.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hands => "hands",
            Self::Age => "age",
            Self::Empty => "empty",
            Self::Restart => "restart",
        }
    }

    pub(super) fn limit(self) -> &'static str {
        match self {
            Self::Hands => "500 hands",
            Self::Age => "24 hours",
            Self::Empty => "an empty table",
            Self::Restart => "the end of its server",
        }
    }
}
