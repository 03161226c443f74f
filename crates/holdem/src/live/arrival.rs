//! How a person came to a table's seat (docs/spec.md §19.4).

use serde::{Deserialize, Serialize};

/// How a person came to a table's seat (docs/spec.md §19.4), shown to
/// every viewer and named in each hand record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrival {
    /// The person who opened the table.
    Opener,
    /// With the invitation the opener shared.
    Invited,
    /// At a public table, with no invitation.
    Public,
    /// A player the operator created: the house's, however it came.
    House,
}

impl Arrival {
    /// The word views and records write.
    pub const fn as_str(self) -> &'static str {
        match self {
            Arrival::Opener => "opener",
            Arrival::Invited => "invited",
            Arrival::Public => "public",
            Arrival::House => "house",
        }
    }
}

/// The longest invitation a `sit` may give, in bytes.
pub const MAX_INVITATION: usize = 128;
