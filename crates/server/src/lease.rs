//! This process's place in a fleet: the owner id it holds leases under and
//! their lifetime ([`crate::fleet`] renews and takes them over).

use crate::error::ApiError;

/// This process's place in the fleet: its owner id and the lease lifetime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fleet {
    owner: String,
    ttl_ms: i64,
}

impl Fleet {
    /// A process alone on its database (embedded SQLite): the same owner id
    /// at every start, so a restart finds the last run's leases its own and
    /// rotates what that run left open.
    pub fn alone(ttl_ms: i64) -> Self {
        Self {
            owner: "local".into(),
            ttl_ms,
        }
    }

    /// One process of a fleet: a fresh random owner id.
    ///
    /// # Errors
    /// The OS random generator failed.
    pub fn member(ttl_ms: i64) -> Result<Self, ApiError> {
        let bytes = crate::secrets::random_bytes()?;
        Ok(Self {
            owner: format!("p{}", hex::encode(&bytes[..12])),
            ttl_ms,
        })
    }

    /// The owner id this process holds leases under.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// A lease's lifetime without a heartbeat.
    pub fn ttl_ms(&self) -> i64 {
        self.ttl_ms
    }
}
