//! The transparency log (docs/spec.md §16): sequencing, checkpoints and cosignatures, and reads of its hashes and entries.
//!
//! The trait, then its one implementation, expanded for each backend by
//! [`super::impl_store`].

use async_trait::async_trait;

use crate::{
    error::StoreResult,
    translog::{LogCheckpoint, LogStep, LoggedEntry, SignFn},
};

/// The transparency log (docs/spec.md §16): sequencing, checkpoints and cosignatures, and reads of its hashes and entries. Each method is one transaction.
#[async_trait]
pub trait LogStore: Send + Sync + 'static {
    /// Gives up to `max` queued log entries their leaf indexes and stores
    /// the checkpoint `sign` signs for the grown tree (docs/spec.md §16);
    /// `None` if nothing was queued since the last one.
    async fn sequence_log(&self, max: u32, sign: SignFn) -> StoreResult<Option<LogStep>>;

    /// The latest signed checkpoint, with the cosignatures stored for it.
    async fn log_checkpoint(&self) -> StoreResult<Option<LogCheckpoint>>;

    /// The newest checkpoint with at least `min` witness cosignatures, with them.
    async fn log_cosigned_checkpoint(&self, min: u32) -> StoreResult<Option<LogCheckpoint>>;

    /// Stores a witness's cosignature line on the checkpoint of `size`; the
    /// caller has verified it against `witness` (its verifier key).
    async fn add_log_cosignature(&self, size: u64, witness: &str, line: &str) -> StoreResult<()>;

    /// Ends this database's log for a new one from size 0, in one
    /// transaction: its leaves, hashes, checkpoints and cosignatures are
    /// removed (freeze them first: `fairseed new-log`), and the entries the
    /// old log gave a leaf stay out of the new one; those still waiting go
    /// into it.
    async fn start_new_log(&self) -> StoreResult<()>;

    /// The largest checkpoint size `witness` (its verifier key) cosigned.
    async fn log_cosigned_size(&self, witness: &str) -> StoreResult<Option<u64>>;

    /// The log's stored hashes among `indexes` (`stored_hash_index` order of
    /// Go's `sumdb/tlog`); a missing one is left out.
    async fn log_hashes(&self, indexes: &[u64]) -> StoreResult<Vec<(u64, [u8; 32])>>;

    /// The entries of leaves `from .. from + count`, in order.
    async fn log_leaves(&self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>>;

    /// A log entry by its leaf hash, queued or sequenced.
    async fn log_entry(&self, leaf_hash: [u8; 32]) -> StoreResult<Option<LoggedEntry>>;

    /// The log entries a dice pair's commitment queued (none if the pair
    /// was committed while the log was off, or before pairs were keyed).
    async fn pair_log_entries(&self, pair_id: i64) -> StoreResult<Vec<Vec<u8>>>;

    /// The log entries queued under any of `names` ([`log_entry_name`](crate::log_entry_name)), in
    /// queue order (none for those queued while the log was off).
    async fn named_log_entries(&self, names: Vec<String>) -> StoreResult<Vec<Vec<u8>>>;

    /// The log entries the idempotent call `scope`/`key` queued, in queue
    /// order (for its replay's receipts).
    async fn idempotent_log_entries(&self, scope: &str, key: &str) -> StoreResult<Vec<Vec<u8>>>;
}

/// Implements [`LogStore`] for a backend (see [`super::impl_store`]).
macro_rules! impl_log {
    ($backend:ty) => {
        #[async_trait::async_trait]
        impl $crate::api::log::LogStore for $backend {
            async fn sequence_log(
                &self,
                max: u32,
                sign: $crate::translog::SignFn,
            ) -> $crate::error::StoreResult<Option<$crate::translog::LogStep>> {
                // Read and hashed beside the writer; only the new rows are written on it.
                let plan = self
                    .read_tx(async move |tx| $crate::translog::plan(tx, max).await)
                    .await?;
                let Some(plan) = plan else {
                    return Ok(None);
                };
                let planned = $crate::translog::prepare(plan, sign)?;
                self.write_tx(async move |tx| {
                    $crate::translog::append_planned(tx, planned, now()).await
                })
                .await
                .map(Some)
            }

            async fn log_checkpoint(
                &self,
            ) -> $crate::error::StoreResult<Option<$crate::translog::LogCheckpoint>> {
                self.read_tx(async move |tx| $crate::translog::with_cosignatures(tx, None).await)
                    .await
            }

            async fn log_cosigned_checkpoint(
                &self,
                min: u32,
            ) -> $crate::error::StoreResult<Option<$crate::translog::LogCheckpoint>> {
                self.read_tx(async move |tx| $crate::translog::cosigned(tx, min).await)
                    .await
            }

            async fn add_log_cosignature(
                &self,
                size: u64,
                witness: &str,
                line: &str,
            ) -> $crate::error::StoreResult<()> {
                let (witness, line) = (witness.to_owned(), line.to_owned());
                self.write_tx(async move |tx| {
                    $crate::translog::LogTx::insert_log_cosignature(
                        tx,
                        size,
                        &witness,
                        &line,
                        now(),
                    )
                    .await
                })
                .await
            }

            async fn start_new_log(&self) -> $crate::error::StoreResult<()> {
                self.write_tx(async move |tx| $crate::translog::LogTx::start_new_log(tx).await)
                    .await
            }

            async fn log_cosigned_size(
                &self,
                witness: &str,
            ) -> $crate::error::StoreResult<Option<u64>> {
                let witness = witness.to_owned();
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_cosigned_size(tx, &witness).await
                })
                .await
            }

            async fn log_hashes(
                &self,
                indexes: &[u64],
            ) -> $crate::error::StoreResult<Vec<(u64, [u8; 32])>> {
                let indexes = indexes.to_vec();
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_hashes(tx, &indexes).await
                })
                .await
            }

            async fn log_leaves(
                &self,
                from: u64,
                count: u32,
            ) -> $crate::error::StoreResult<Vec<Vec<u8>>> {
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_leaves(tx, from, count).await
                })
                .await
            }

            async fn log_entry(
                &self,
                leaf_hash: [u8; 32],
            ) -> $crate::error::StoreResult<Option<$crate::translog::LoggedEntry>> {
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entry_by_hash(tx, &leaf_hash).await
                })
                .await
            }

            async fn pair_log_entries(
                &self,
                pair_id: i64,
            ) -> $crate::error::StoreResult<Vec<Vec<u8>>> {
                let subject = $crate::translog::pair_subject(pair_id);
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entries_of(tx, &subject).await
                })
                .await
            }

            async fn named_log_entries(
                &self,
                names: Vec<String>,
            ) -> $crate::error::StoreResult<Vec<Vec<u8>>> {
                if names.is_empty() {
                    return Ok(Vec::new());
                }
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entries_named(tx, &names).await
                })
                .await
            }

            async fn idempotent_log_entries(
                &self,
                scope: &str,
                key: &str,
            ) -> $crate::error::StoreResult<Vec<Vec<u8>>> {
                let subject = $crate::translog::subject(scope, key);
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entries_of(tx, &subject).await
                })
                .await
            }
        }
    };
}

pub(crate) use impl_log;
