//! The [`LogTx`] primitives on PostgreSQL: the PostgreSQL text of each
//! shared statement in [`sql::log`], bound and run, and the few only
//! PostgreSQL runs, below: batches go as arrays (`UNNEST`), one round trip
//! each. Ids are given out of commit order, so a step raises the floors in
//! two steps ([`floors`]).

use std::collections::HashMap;

use sqlx::Connection;

use super::floors;
use super::tx::{bet_raw, PgTx};
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::sql;
use crate::translog::bet_leaves::BetLeaves;
use crate::translog::logged::{LogCheckpoint, LoggedEntry};
use crate::translog::order::{PerSource, Queued, Waiting};
use crate::translog::tx::{
    checkpoint_row, hash_bytes, in_order, EntryAt, HashBytes, LeafRow, LogTx,
};
use crate::translog::{read, Appender};

/// Gives a step's leaves their sources: leaf indexes, queued entries' ids
/// and bets' ids (one of each pair NULL), as arrays. The leaf index is the
/// key, so a second step from the same tree size fails here.
const INSERT_LEAVES: &str = "INSERT INTO log_leaves (leaf_index, entry_id, bet_id)
     SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[])";

/// The stored hashes asked for (`$1`, a list), each a 32-byte slice of the
/// last run that starts at or before it, sliced here in one round trip.
const RUN_HASHES: &str =
    "SELECT i, substring(r.hashes FROM ((i - r.first_index) * 32 + 1)::int FOR 32)
     FROM UNNEST($1::bigint[]) AS i
     CROSS JOIN LATERAL (
         SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= i
         ORDER BY first_index DESC LIMIT 1
     ) r
     WHERE i < r.first_index + octet_length(r.hashes) / 32";

/// Stores every bucket of a completed chunk's sorted hashes at once
/// (buckets and bytes as arrays).
const INSERT_BUCKETS: &str = "INSERT INTO log_hash_buckets (chunk, bucket, leaves)
     SELECT $1, b, l FROM UNNEST($2::smallint[], $3::bytea[]) AS v(b, l)";

/// The buckets that may hold a hash, of all complete chunks below `$2` at
/// once, sending only the buckets that hold the hash's bytes.
const BUCKETS: &str = "SELECT chunk, leaves FROM log_hash_buckets
     WHERE bucket = $1 AND chunk < $2 AND position($3 IN leaves) > 0
     ORDER BY chunk";

fn to_i64s(values: impl Iterator<Item = u64>, what: &str) -> StoreResult<Vec<i64>> {
    values.map(|v| convert::to_i64(v, what)).collect()
}

impl LogTx for PgTx<'_> {
    fn bet_leaves(&self) -> &BetLeaves {
        self.leaves
    }

    fn appender(&self) -> Option<Appender> {
        self.appender
    }

    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        sqlx::query(sql::log::INSERT_ENTRY.postgres())
            .bind(entry)
            .bind(&leaf_hash[..])
            .bind(subject)
            .bind(name)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn log_entries_of(&mut self, subject: &str) -> StoreResult<Vec<Vec<u8>>> {
        Ok(sqlx::query_scalar(sql::log::ENTRIES_OF_SUBJECT.postgres())
            .bind(subject)
            .fetch_all(self.conn().await?)
            .await?)
    }

    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>> {
        Ok(sqlx::query_scalar(sql::log::ENTRIES_NAMED.postgres())
            .bind(names)
            .fetch_all(self.conn().await?)
            .await?)
    }

    /// Both sources in one snapshot: a commit between two reads could
    /// otherwise add bets that belong before a queued entry read.
    async fn waiting_log_entries(&mut self, limit: u32) -> StoreResult<Waiting> {
        self.in_snapshot(async move |tx| read::waiting(tx, limit).await)
            .await
    }

    async fn waiting_queued(&mut self, limit: u32) -> StoreResult<Vec<Queued>> {
        let rows: Vec<(i64, Vec<u8>, i64)> = sqlx::query_as(sql::log::WAITING_ENTRIES.postgres())
            .bind(i64::from(limit))
            .fetch_all(self.conn().await?)
            .await?;
        rows.into_iter()
            .map(|(id, hash, before)| Ok((id, hash_bytes(hash)?, before)))
            .collect()
    }

    async fn waiting_bet_ids(&mut self, limit: u32) -> StoreResult<Vec<i64>> {
        Ok(sqlx::query_scalar(sql::log::WAITING_BETS.postgres())
            .bind(i64::from(limit))
            .fetch_all(self.conn().await?)
            .await?)
    }

    async fn waiting_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<Vec<u8>>> {
        Ok(
            sqlx::query_scalar(sql::log::WAITING_ENTRY_BY_HASH.postgres())
                .bind(&leaf_hash[..])
                .fetch_optional(self.conn().await?)
                .await?,
        )
    }

    async fn logged_bet_entries(&mut self, ids: &[i64]) -> StoreResult<Vec<Vec<u8>>> {
        let found = self.bet_entries(ids.to_vec()).await?;
        in_order(ids, found)
    }

    /// The step's leaves in one statement; the floors were raised first
    /// ([`LogTx::raise_pending_floor`]).
    async fn insert_leaves(&mut self, assigned: &[(EntryAt, u64)], _size: u64) -> StoreResult<()> {
        if assigned.is_empty() {
            return Ok(());
        }
        let mut indexes = Vec::with_capacity(assigned.len());
        let mut entry_ids = Vec::with_capacity(assigned.len());
        let mut bet_ids = Vec::with_capacity(assigned.len());
        for &(at, index) in assigned {
            indexes.push(convert::to_i64(index, "leaf index")?);
            let (entry_id, bet_id) = match at {
                EntryAt::Queue(id) => (Some(id), None),
                EntryAt::Bet(id) => (None, Some(id)),
            };
            entry_ids.push(entry_id);
            bet_ids.push(bet_id);
        }
        sqlx::query(INSERT_LEAVES)
            .bind(indexes)
            .bind(entry_ids)
            .bind(bet_ids)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn leaf_rows(&mut self, from: u64, to: u64) -> StoreResult<Vec<LeafRow>> {
        Ok(sqlx::query_as(sql::log::LEAVES.postgres())
            .bind(convert::to_i64(from, "leaf index")?)
            .bind(convert::to_i64(to, "leaf index")?)
            .fetch_all(self.conn().await?)
            .await?)
    }

    /// Each source's candidate, once every transaction that could hold an
    /// id up to it has ended (a queued entry's or a bet's transaction has
    /// its id before the row takes one, so any row up to the candidate
    /// belongs to a transaction before `after_xid`). Read before the
    /// waiting entries, in an earlier snapshot, so their read sees every
    /// such row that committed.
    async fn floor_within_reach(&mut self) -> StoreResult<PerSource<Option<i64>>> {
        let rows: Vec<(String, Option<i64>)> = sqlx::query_as(floors::WITHIN_REACH)
            .fetch_all(self.conn().await?)
            .await?;
        let mut reach = PerSource::default();
        for (source, candidate) in rows {
            match source.as_str() {
                "queue" => reach.queue = candidate,
                _ => reach.bets = candidate,
            }
        }
        Ok(reach)
    }

    /// Raises each floor to its `settled` candidate, then takes new
    /// candidates: the highest id given so far in each source (with the
    /// tree size reached, from which on leaves may hold ids above it), and
    /// as `after_xid` this transaction's own id, given after that read.
    ///
    /// A row's transaction has its id before the row takes one, so every
    /// transaction that holds an id up to a candidate has a lower
    /// transaction id than `after_xid`, and a later plan settles the
    /// candidate only once none of them runs. The transaction id must be
    /// given after the ids are read: a snapshot's `xmax` will not do, as it
    /// is one past the newest transaction that *ended*, and the newest
    /// transaction given an id may still be open, holding a row up to the
    /// candidate that the floor would then pass for good. So this is the
    /// step's first write, and refuses to run after another.
    async fn raise_pending_floor(
        &mut self,
        settled: PerSource<Option<i64>>,
        size: u64,
    ) -> StoreResult<()> {
        let (fresh, queue, bets): (bool, i64, i64) = sqlx::query_as(floors::LAST_IDS)
            .fetch_one(self.conn().await?)
            .await?;
        if !fresh {
            return Err(StoreError::other(
                "a step must take the floors' candidates before its first write",
            ));
        }
        if settled != PerSource::default() {
            sqlx::query(floors::SETTLE)
                .bind(settled.queue)
                .bind(settled.bets)
                .execute(self.conn().await?)
                .await?;
        }
        sqlx::query(floors::TAKE_CANDIDATES)
            .bind(convert::to_i64(size, "tree size")?)
            .bind(queue)
            .bind(bets)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn insert_hash_run(&mut self, first_index: u64, hashes: &[u8]) -> StoreResult<()> {
        sqlx::query(sql::log::INSERT_HASH_RUN.postgres())
            .bind(convert::to_i64(first_index, "hash index")?)
            .bind(hashes)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    /// In one round trip; none asked, none sent.
    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        if indexes.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(RUN_HASHES)
            .bind(to_i64s(indexes.iter().copied(), "hash index")?)
            .fetch_all(self.conn().await?)
            .await?;
        rows.into_iter()
            .map(|(index, hash)| Ok((convert::to_u64(index, "hash index")?, hash_bytes(hash)?)))
            .collect()
    }

    async fn hash_runs_over(&mut self, first: u64, last: u64) -> StoreResult<Vec<(u64, Vec<u8>)>> {
        let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(sql::log::RUNS_OVER.postgres())
            .bind(convert::to_i64(first, "hash index")?)
            .bind(convert::to_i64(last, "hash index")?)
            .fetch_all(self.conn().await?)
            .await?;
        rows.into_iter()
            .map(|(first, hashes)| Ok((convert::to_u64(first, "hash index")?, hashes)))
            .collect()
    }

    async fn insert_hash_buckets(
        &mut self,
        chunk: u64,
        buckets: Vec<(i16, Vec<u8>)>,
    ) -> StoreResult<()> {
        let (buckets, bytes): (Vec<i16>, Vec<Vec<u8>>) = buckets.into_iter().unzip();
        sqlx::query(INSERT_BUCKETS)
            .bind(convert::to_i64(chunk, "chunk")?)
            .bind(buckets)
            .bind(bytes)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    /// Every chunk's in one round trip, only those holding the hash's bytes sent.
    async fn hash_buckets_for(
        &mut self,
        leaf_hash: &HashBytes,
        sealed: u64,
    ) -> StoreResult<Vec<(u64, Vec<u8>)>> {
        let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(BUCKETS)
            .bind(i16::from(leaf_hash[0]))
            .bind(convert::to_i64(sealed, "chunk")?)
            .bind(&leaf_hash[..])
            .fetch_all(self.conn().await?)
            .await?;
        rows.into_iter()
            .map(|(chunk, bucket)| Ok((convert::to_u64(chunk, "chunk")?, bucket)))
            .collect()
    }

    async fn start_new_log(&mut self) -> StoreResult<()> {
        sqlx::query(sql::log::NEW_LOG_FLOORS.postgres())
            .execute(self.conn().await?)
            .await?;
        for statement in &sql::log::NEW_LOG_EMPTIED {
            sqlx::query(statement.postgres())
                .execute(self.conn().await?)
                .await?;
        }
        Ok(())
    }

    async fn insert_log_checkpoint(&mut self, size: u64, note: &str, now: i64) -> StoreResult<()> {
        sqlx::query(sql::log::INSERT_CHECKPOINT.postgres())
            .bind(convert::to_i64(size, "tree size")?)
            .bind(note)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn latest_log_checkpoint(&mut self) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String, i64)> =
            sqlx::query_as(sql::log::LATEST_CHECKPOINT.postgres())
                .fetch_optional(self.conn().await?)
                .await?;
        checkpoint_row(row)
    }

    async fn log_checkpoint_at(&mut self, size: u64) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String, i64)> = sqlx::query_as(sql::log::CHECKPOINT_AT.postgres())
            .bind(convert::to_i64(size, "tree size")?)
            .fetch_optional(self.conn().await?)
            .await?;
        checkpoint_row(row)
    }

    async fn insert_log_cosignature(
        &mut self,
        size: u64,
        witness: &str,
        line: &str,
        now: i64,
    ) -> StoreResult<()> {
        sqlx::query(sql::log::INSERT_COSIGNATURE.postgres())
            .bind(convert::to_i64(size, "tree size")?)
            .bind(witness)
            .bind(line)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn log_cosignature_lines(&mut self, size: u64) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(sql::log::COSIGNATURE_LINES.postgres())
            .bind(convert::to_i64(size, "tree size")?)
            .fetch_all(self.conn().await?)
            .await?)
    }

    async fn log_cosigned_size(&mut self, witness: &str) -> StoreResult<Option<u64>> {
        let size: Option<i64> = sqlx::query_scalar(sql::log::COSIGNED_SIZE.postgres())
            .bind(witness)
            .fetch_one(self.conn().await?)
            .await?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn latest_cosigned_size(&mut self, min: u32) -> StoreResult<Option<u64>> {
        let size: Option<i64> = sqlx::query_scalar(sql::log::LATEST_COSIGNED.postgres())
            .bind(i64::from(min))
            .fetch_optional(self.conn().await?)
            .await?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn log_leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>> {
        self.in_snapshot(async move |tx| read::leaves(tx, from, count).await)
            .await
    }

    /// In one snapshot: a step committing between the reads would otherwise
    /// move the entry from the waiting ones to the leaves unseen.
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        self.in_snapshot(async move |tx| read::entry_by_hash(tx, leaf_hash).await)
            .await
    }
}

impl PgTx<'_> {
    /// Runs `read` in one snapshot of the database: on a pooled connection
    /// a read-only `REPEATABLE READ` transaction, rolled back when dropped
    /// on an error; inside a transaction already, as it is.
    async fn in_snapshot<R>(
        &mut self,
        read: impl AsyncFnOnce(&mut PgTx<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        if self.conn().await?.is_in_transaction() {
            return read(self).await;
        }
        let (leaves, appender) = (self.leaves, self.appender);
        let mut snapshot = self
            .conn()
            .await?
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .await?;
        let out = read(&mut PgTx::new(&mut snapshot, leaves, appender)).await?;
        snapshot.commit().await?;
        Ok(out)
    }

    /// The outcome entries of the bets `ids`, by id.
    async fn bet_entries(&mut self, ids: Vec<i64>) -> StoreResult<HashMap<i64, Vec<u8>>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = sqlx::query(sql::bets::BET_ENTRIES.postgres())
            .bind(ids)
            .fetch_all(self.conn().await?)
            .await?;
        rows.iter().map(bet_entry_row).collect()
    }
}

/// A bet's id and outcome entry, from a row of a bet with its pair's seeds.
fn bet_entry_row(row: &sqlx::postgres::PgRow) -> StoreResult<(i64, Vec<u8>)> {
    use sqlx::Row;
    let raw = bet_raw(row)?;
    let id = raw.id;
    let entry = crate::accounts::bet_entry(
        raw,
        &row.try_get::<String, _>("commitment")?,
        &row.try_get::<String, _>("client_seed")?,
    )?;
    Ok((id, entry))
}
