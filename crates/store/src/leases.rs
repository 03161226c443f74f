//! Leases: one owner at a time per resource (a process serving a table's
//! seed session), with an expiry its owner keeps pushing forward.

use crate::error::StoreResult;
use crate::tx::Tx;
use crate::types::LeaseGrant;

/// Takes `resource` for `owner` until `now + ttl` if it is free, expired or
/// already `owner`'s.
pub(crate) async fn acquire<T: Tx>(
    tx: &mut T,
    resource: &str,
    owner: &str,
    now: i64,
    ttl: i64,
) -> StoreResult<LeaseGrant> {
    let before = tx.lease(resource).await?;
    if let Some(held) = before
        .as_ref()
        .filter(|l| l.owner != owner && l.expires_at >= now)
    {
        return Ok(LeaseGrant::HeldBy(held.owner.clone()));
    }
    if tx
        .take_lease(resource, owner, now, now.saturating_add(ttl))
        .await?
    {
        let took_over_from = before.map(|l| l.owner).filter(|o| o != owner);
        return Ok(LeaseGrant::Granted { took_over_from });
    }
    // Another process took it between the read and the write.
    let holder = tx
        .lease(resource)
        .await?
        .map(|l| l.owner)
        .unwrap_or_default();
    Ok(LeaseGrant::HeldBy(holder))
}
