//! The store's API, one trait per concern, each with its one
//! implementation beside it: [`AccountStore`] (players, pairs, bets),
//! [`RoundStore`] (versioned rounds and records), [`LogStore`] (the
//! transparency log), [`LeaseStore`], [`IdempotencyStore`]; [`Store`] is
//! all of them, with the database's health and live events.
//!
//! Each implementation is a macro expanded for each backend
//! ([`impl_store`]), not a generic impl: each expansion is checked against
//! the backend's concrete transaction type, which is what lets
//! PostgreSQL's futures be `Send` while SQLite's run synchronously on its
//! writer thread. Each method seals what it must outside the transaction,
//! then runs the shared logic (`accounts`, `rounds`, `leases`, `translog`)
//! through the backend's `write_tx` (one transaction) or `read_tx` (a read).
//!
//! A backend provides `cipher: Arc<SeedCipher>`, `place_bet_at(req, now)`,
//! `write_tx`/`read_tx(f: impl AsyncFnOnce(&mut Tx) -> StoreResult<R> + Send + 'static)`,
//! whose transactions carry the store's log appender (none with the log
//! off), and the live-event transport `send_events`/`listen_events`.

pub(crate) mod accounts;
pub(crate) mod idempotency;
pub(crate) mod leases;
pub(crate) mod log;
pub(crate) mod rounds;

use async_trait::async_trait;

pub(crate) use accounts::impl_accounts;
pub use accounts::AccountStore;
pub(crate) use idempotency::impl_idempotency;
pub use idempotency::IdempotencyStore;
pub(crate) use leases::impl_leases;
pub use leases::LeaseStore;
pub(crate) use log::impl_log;
pub use log::LogStore;
pub(crate) use rounds::impl_rounds;
pub use rounds::RoundStore;

use crate::{error::StoreResult, types::EventFeed};

/// Every durable operation of the service, for callers that need them all
/// (the server holds an `Arc<dyn Store>`); each concern's trait has its
/// part. Each method is one transaction.
#[async_trait]
pub trait Store: AccountStore + RoundStore + LogStore + LeaseStore + IdempotencyStore {
    /// Checks that the database answers.
    async fn health(&self) -> StoreResult<()>;

    /// Checks that a change would commit now: a transaction whose commit
    /// is durable like a change's, through the same writer or pool.
    async fn can_commit(&self) -> StoreResult<()>;

    /// The connection pool's use: `(in use, most)`; `None` without one
    /// (SQLite has one writer and readers on demand).
    fn pool_use(&self) -> Option<(u32, u32)>;

    /// Sends live events (opaque texts), in order, to every process on this
    /// database, the sender's own feed included. Nothing on SQLite, whose
    /// database one process owns.
    async fn broadcast_events(&self, payloads: &[String]) -> StoreResult<()>;

    /// The live events every process broadcasts from now on, as they
    /// arrive; `None` when no other process can share this database.
    /// Delivery is best effort: an event sent while the feed reconnects is
    /// lost (live events are a convenience; the logs are the record).
    async fn event_feed(&self) -> StoreResult<Option<EventFeed>>;
}

/// Implements every trait of the store for a backend.
macro_rules! impl_store {
    ($backend:ty) => {
        $crate::api::impl_accounts!($backend);
        $crate::api::impl_rounds!($backend);
        $crate::api::impl_log!($backend);
        $crate::api::impl_leases!($backend);
        $crate::api::impl_idempotency!($backend);

        #[async_trait::async_trait]
        impl $crate::api::Store for $backend {
            async fn health(&self) -> $crate::error::StoreResult<()> {
                self.read_tx(async move |tx| $crate::tx::Tx::ping(tx).await)
                    .await
            }

            async fn can_commit(&self) -> $crate::error::StoreResult<()> {
                self.write_tx(async move |tx| $crate::tx::Tx::commit_probe(tx).await)
                    .await
            }

            fn pool_use(&self) -> Option<(u32, u32)> {
                self.pool_in_use()
            }

            async fn broadcast_events(
                &self,
                payloads: &[String],
            ) -> $crate::error::StoreResult<()> {
                self.send_events(payloads).await
            }

            async fn event_feed(
                &self,
            ) -> $crate::error::StoreResult<Option<$crate::types::EventFeed>> {
                self.listen_events().await
            }
        }

        /// Row timestamps: wall-clock milliseconds.
        fn now() -> i64 {
            $crate::time::now_ms()
        }
    };
}

pub(crate) use impl_store;
