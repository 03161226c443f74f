//! Stored responses of idempotent calls.
//!
//! The trait, then its one implementation, expanded for each backend by
//! [`super::impl_store`].

use async_trait::async_trait;

use crate::error::StoreResult;

/// Stored responses of idempotent calls. Each method is one transaction.
#[async_trait]
pub trait IdempotencyStore: Send + Sync + 'static {
    /// A stored idempotent response: `(request_hash, response)`.
    async fn idempotent_response(
        &self,
        scope: &str,
        key: &str,
    ) -> StoreResult<Option<(String, String)>>;
}

/// Implements [`IdempotencyStore`] for a backend (see [`super::impl_store`]).
macro_rules! impl_idempotency {
    ($backend:ty) => {
        #[async_trait::async_trait]
        impl $crate::api::idempotency::IdempotencyStore for $backend {
            async fn idempotent_response(
                &self,
                scope: &str,
                key: &str,
            ) -> $crate::error::StoreResult<Option<(String, String)>> {
                let (scope, key) = (scope.to_owned(), key.to_owned());
                self.read_tx(async move |tx| $crate::tx::Tx::idempotent(tx, &scope, &key).await)
                    .await
            }
        }
    };
}

pub(crate) use impl_idempotency;
