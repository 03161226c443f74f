//! Leases: which process serves a resource, until when.
//!
//! The trait, then its one implementation, expanded for each backend by
//! [`super::impl_store`].

use async_trait::async_trait;

use crate::{error::StoreResult, types::LeaseGrant};

/// Leases: which process serves a resource, until when. Each method is one transaction.
#[async_trait]
pub trait LeaseStore: Send + Sync + 'static {
    /// Takes `resource` for `owner` until `now_ms + ttl_ms` if it is free,
    /// expired or already `owner`'s.
    async fn acquire_lease(
        &self,
        resource: &str,
        owner: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> StoreResult<LeaseGrant>;

    /// Extends every lease `owner` holds to `now_ms + ttl_ms`; how many.
    async fn renew_leases(&self, owner: &str, now_ms: i64, ttl_ms: i64) -> StoreResult<u64>;

    /// Ends every lease `owner` holds, as expired just before `now_ms`, so
    /// another process takes each at once (a clean shutdown); how many.
    async fn release_leases(&self, owner: &str, now_ms: i64) -> StoreResult<u64>;

    /// Resources starting with `prefix` whose lease expired before `now_ms`
    /// (their owner is gone).
    async fn expired_leases(&self, prefix: &str, now_ms: i64) -> StoreResult<Vec<String>>;

    /// Gives up `owner`'s lease on `resource`.
    async fn release_lease(&self, resource: &str, owner: &str) -> StoreResult<()>;
}

/// Implements [`LeaseStore`] for a backend (see [`super::impl_store`]).
macro_rules! impl_leases {
    ($backend:ty) => {
        #[async_trait::async_trait]
        impl $crate::api::leases::LeaseStore for $backend {
            async fn acquire_lease(
                &self,
                resource: &str,
                owner: &str,
                now_ms: i64,
                ttl_ms: i64,
            ) -> $crate::error::StoreResult<$crate::types::LeaseGrant> {
                let (resource, owner) = (resource.to_owned(), owner.to_owned());
                self.write_tx(async move |tx| {
                    $crate::leases::acquire(tx, &resource, &owner, now_ms, ttl_ms).await
                })
                .await
            }

            async fn renew_leases(
                &self,
                owner: &str,
                now_ms: i64,
                ttl_ms: i64,
            ) -> $crate::error::StoreResult<u64> {
                let owner = owner.to_owned();
                let until = now_ms.saturating_add(ttl_ms);
                self.write_tx(async move |tx| {
                    $crate::tx::Tx::set_leases_expiry(tx, &owner, until).await
                })
                .await
            }

            async fn release_leases(
                &self,
                owner: &str,
                now_ms: i64,
            ) -> $crate::error::StoreResult<u64> {
                let owner = owner.to_owned();
                let ended = now_ms.saturating_sub(1);
                self.write_tx(async move |tx| {
                    $crate::tx::Tx::set_leases_expiry(tx, &owner, ended).await
                })
                .await
            }

            async fn expired_leases(
                &self,
                prefix: &str,
                now_ms: i64,
            ) -> $crate::error::StoreResult<Vec<String>> {
                let prefix = prefix.to_owned();
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::expired_leases(tx, &prefix, now_ms).await
                })
                .await
            }

            async fn release_lease(
                &self,
                resource: &str,
                owner: &str,
            ) -> $crate::error::StoreResult<()> {
                let (resource, owner) = (resource.to_owned(), owner.to_owned());
                self.write_tx(async move |tx| {
                    $crate::tx::Tx::release_lease(tx, &resource, &owner).await
                })
                .await
            }
        }
    };
}

pub(crate) use impl_leases;
