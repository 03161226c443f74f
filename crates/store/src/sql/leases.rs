//! The statements of leases, for both backends.

use crate::sql::statement::Statement;

/// A resource's lease: owner, expiry.
pub(crate) static LEASE: Statement =
    Statement::new("SELECT owner, expires_at FROM leases WHERE resource = ?1");

/// Takes a resource for an owner until an expiry (`?3`) if it is free,
/// expired before `?4` or already the owner's.
pub(crate) static TAKE_LEASE: Statement = Statement::new(
    "INSERT INTO leases (resource, owner, expires_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (resource) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
     WHERE leases.owner = excluded.owner OR leases.expires_at < ?4",
);

/// Sets the expiry of every lease an owner holds.
pub(crate) static SET_LEASES_EXPIRY: Statement =
    Statement::new("UPDATE leases SET expires_at = ?1 WHERE owner = ?2");

/// The resources starting with a prefix whose lease expired before a time.
pub(crate) static EXPIRED_LEASES: Statement = Statement::new(
    "SELECT resource FROM leases
     WHERE substr(resource, 1, length(CAST(?1 AS TEXT))) = ?1 AND expires_at < ?2
     ORDER BY resource",
);

/// Gives up an owner's lease on a resource.
pub(crate) static RELEASE_LEASE: Statement =
    Statement::new("DELETE FROM leases WHERE resource = ?1 AND owner = ?2");

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 5] = [
    &LEASE,
    &TAKE_LEASE,
    &SET_LEASES_EXPIRY,
    &EXPIRED_LEASES,
    &RELEASE_LEASE,
];
