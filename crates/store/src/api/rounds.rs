//! Rounds (versioned rows: every committed secret but dice pairs) and the records they and dice pairs leave.
//!
//! The trait, then its one implementation, expanded for each backend by
//! [`super::impl_store`].

use async_trait::async_trait;

use crate::{
    error::StoreResult,
    types::{
        Commit, Idempotent, LoadedRound, LogRow, Page, RecordOut, RecordReader, RecordRow,
        RoundRow, RoundUpdate,
    },
};

/// Rounds (versioned rows: every committed secret but dice pairs) and the records they and dice pairs leave. Each method is one transaction.
#[async_trait]
pub trait RoundStore: Send + Sync + 'static {
    /// A round (its secret only if revealed).
    async fn round(&self, id: &str) -> StoreResult<RoundRow>;

    /// The rounds in the given order, with their secrets while unrevealed;
    /// `NotFound("round")` if any is missing. A read: no lock is held after.
    async fn load_rounds(&self, ids: &[String]) -> StoreResult<Vec<LoadedRound>>;

    /// All or nothing: the idempotency entry, the new rounds and every write.
    /// A version that moved → `Conflict` `version_conflict` (retryable: load
    /// again, decide again); an id in `creates` that exists → `round_exists`;
    /// an idempotency key already stored → `idempotency_key_used`. One update
    /// per create, then one per write, in the order given.
    async fn commit(&self, commit: Commit) -> StoreResult<Vec<RoundUpdate>>;

    /// Log entries of a round from `from_seq` on.
    async fn round_log(&self, id: &str, from_seq: u64, limit: u32) -> StoreResult<Vec<LogRow>>;

    /// Ids of the rounds of `kind` with `status`, oldest first.
    async fn rounds_with_status(&self, kind: &str, status: &str) -> StoreResult<Vec<String>>;

    /// One record the viewer may see.
    async fn record(&self, viewer: RecordReader, id: i64) -> StoreResult<RecordRow>;

    /// The records the viewer may see among `ids`, in no order: one read
    /// for a page of them.
    async fn records_with_ids(
        &self,
        viewer: RecordReader,
        ids: Vec<i64>,
    ) -> StoreResult<Vec<RecordRow>>;

    /// Records the viewer may see, newest first.
    async fn records(&self, viewer: RecordReader, page: Page) -> StoreResult<Vec<RecordRow>>;

    /// Records the viewer may see with id above `after`, oldest first (export).
    async fn records_after(
        &self,
        viewer: RecordReader,
        after: i64,
        limit: u32,
    ) -> StoreResult<Vec<RecordRow>>;

    /// Stores one record alone (an import), with its readers and an
    /// optional idempotency entry (record ids put where it says): all or nothing;
    /// a key already stored → `idempotency_key_used`.
    async fn import_record(
        &self,
        record: RecordOut,
        idempotent: Option<Idempotent>,
    ) -> StoreResult<RecordRow>;
}

/// Implements [`RoundStore`] for a backend (see [`super::impl_store`]).
macro_rules! impl_rounds {
    ($backend:ty) => {
        #[async_trait::async_trait]
        impl $crate::api::rounds::RoundStore for $backend {
            async fn round(&self, id: &str) -> $crate::error::StoreResult<$crate::types::RoundRow> {
                let id = id.to_owned();
                self.read_tx(async move |tx| $crate::rounds::round(tx, &id).await)
                    .await
            }

            async fn load_rounds(
                &self,
                ids: &[String],
            ) -> $crate::error::StoreResult<Vec<$crate::types::LoadedRound>> {
                let ids = ids.to_vec();
                let cipher = std::sync::Arc::clone(&self.cipher);
                self.read_tx(async move |tx| $crate::rounds::load_rounds(tx, &cipher, &ids).await)
                    .await
            }

            async fn commit(
                &self,
                commit: $crate::types::Commit,
            ) -> $crate::error::StoreResult<Vec<$crate::types::RoundUpdate>> {
                let sealed = $crate::rounds::seal_commit(&self.cipher, commit)?;
                let cipher = std::sync::Arc::clone(&self.cipher);
                self.write_tx(async move |tx| {
                    $crate::rounds::commit(tx, &cipher, sealed, now()).await
                })
                .await
            }

            async fn round_log(
                &self,
                id: &str,
                from_seq: u64,
                limit: u32,
            ) -> $crate::error::StoreResult<Vec<$crate::types::LogRow>> {
                let id = id.to_owned();
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::round_log(tx, &id, from_seq, limit).await
                })
                .await
            }

            async fn rounds_with_status(
                &self,
                kind: &str,
                status: &str,
            ) -> $crate::error::StoreResult<Vec<String>> {
                let (kind, status) = (kind.to_owned(), status.to_owned());
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::rounds_with_status(tx, &kind, &status).await
                })
                .await
            }

            async fn record(
                &self,
                viewer: $crate::types::RecordReader,
                id: i64,
            ) -> $crate::error::StoreResult<$crate::types::RecordRow> {
                self.read_tx(async move |tx| $crate::rounds::record(tx, viewer, id).await)
                    .await
            }

            async fn records_with_ids(
                &self,
                viewer: $crate::types::RecordReader,
                ids: Vec<i64>,
            ) -> $crate::error::StoreResult<Vec<$crate::types::RecordRow>> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::records_with_ids(tx, viewer, &ids).await
                })
                .await
            }

            async fn records(
                &self,
                viewer: $crate::types::RecordReader,
                page: $crate::types::Page,
            ) -> $crate::error::StoreResult<Vec<$crate::types::RecordRow>> {
                self.read_tx(async move |tx| $crate::tx::Tx::records(tx, viewer, page).await)
                    .await
            }

            async fn records_after(
                &self,
                viewer: $crate::types::RecordReader,
                after: i64,
                limit: u32,
            ) -> $crate::error::StoreResult<Vec<$crate::types::RecordRow>> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::records_after(tx, viewer, after, limit).await
                })
                .await
            }

            async fn import_record(
                &self,
                record: $crate::types::RecordOut,
                idempotent: Option<$crate::types::Idempotent>,
            ) -> $crate::error::StoreResult<$crate::types::RecordRow> {
                self.write_tx(async move |tx| {
                    $crate::rounds::import_record(tx, &record, idempotent.as_ref(), now()).await
                })
                .await
            }
        }
    };
}

pub(crate) use impl_rounds;
