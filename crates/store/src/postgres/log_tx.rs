//! The [`LogTx`] primitives in PostgreSQL's dialect: batches go as arrays
//! (`UNNEST`), one round trip each.

use super::tx::PgTx;
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::translog::tx::{checkpoint_row, entry_row, hash_bytes, EntryAt, HashBytes, LogTx};
use crate::translog::{completed_chunks, LogCheckpoint, LoggedEntry, HASH_CHUNK};

/// The queued entries: above the floor (migration 12), read in id order
/// through the primary key. The index of leaf indexes holds no NULLs
/// (migration 13), so the planner cannot take it for these instead.
macro_rules! waiting {
    () => {
        "id > (SELECT floor FROM log_pending_floor) AND leaf_index IS NULL"
    };
}

fn to_i64s(values: impl Iterator<Item = u64>, what: &str) -> StoreResult<Vec<i64>> {
    values.map(|v| convert::to_i64(v, what)).collect()
}

impl LogTx for PgTx<'_> {
    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO log_entries (entry, leaf_hash, subject, name, created_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
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
        Ok(
            sqlx::query_scalar("SELECT entry FROM log_entries WHERE subject = $1 ORDER BY id")
                .bind(subject)
                .fetch_all(self.conn().await?)
                .await?,
        )
    }

    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>> {
        Ok(sqlx::query_scalar(
            "SELECT entry FROM log_entries WHERE name = ANY($1::text[]) ORDER BY id",
        )
        .bind(names)
        .fetch_all(self.conn().await?)
        .await?)
    }

    async fn pending_log_entries(&mut self, limit: u32) -> StoreResult<Vec<(EntryAt, HashBytes)>> {
        let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(concat!(
            "SELECT id, leaf_hash FROM log_entries WHERE ",
            waiting!(),
            " ORDER BY id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(self.conn().await?)
        .await?;
        rows.into_iter()
            .map(|(id, hash)| Ok((EntryAt::Queue(id), hash_bytes(hash)?)))
            .collect()
    }

    /// Every entry is queued here: bets queue theirs beside the bet.
    async fn set_leaf_indexes(
        &mut self,
        assigned: &[(EntryAt, u64, HashBytes)],
    ) -> StoreResult<u64> {
        let ids = assigned
            .iter()
            .map(|(at, _, _)| match at {
                EntryAt::Queue(id) => Ok(*id),
                EntryAt::Bet(_) => Err(StoreError::other("a bet is not its own entry here")),
            })
            .collect::<StoreResult<Vec<i64>>>()?;
        let indexes = to_i64s(assigned.iter().map(|(_, i, _)| *i), "leaf index")?;
        let done = sqlx::query(
            "UPDATE log_entries e SET leaf_index = v.idx
             FROM UNNEST($1::bigint[], $2::bigint[]) AS v(id, idx)
             WHERE e.id = v.id AND e.leaf_index IS NULL",
        )
        .bind(ids)
        .bind(indexes)
        .execute(self.conn().await?)
        .await?;
        if let (Some(first), Some(last)) = (assigned.first(), assigned.last()) {
            self.seal_hash_chunks(first.1, last.1 + 1).await?;
        }
        Ok(done.rows_affected())
    }

    /// The candidate, once every transaction that could hold an id up to it
    /// has ended (a queued entry's transaction has its id before the entry
    /// takes one, so any entry up to the candidate belongs to a transaction
    /// before `after_xid`). Read before the queue, in an earlier snapshot,
    /// so the queue's read sees every such entry that committed.
    async fn floor_within_reach(&mut self) -> StoreResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT candidate FROM log_pending_floor
             WHERE after_xid IS NOT NULL AND pg_snapshot_xmin(pg_current_snapshot()) >= after_xid",
        )
        .fetch_optional(self.conn().await?)
        .await?
        .flatten())
    }

    /// Raises the floor to `settled`, then takes a new candidate: the
    /// highest id given so far, read before the first transaction id not
    /// yet given. Three statements, three snapshots, in this order. The
    /// step settled the floor in its plan, so nothing here reads the queue.
    async fn raise_pending_floor(&mut self, settled: Option<i64>) -> StoreResult<()> {
        if let Some(settled) = settled {
            sqlx::query(
                "UPDATE log_pending_floor SET floor = candidate, candidate = NULL, after_xid = NULL
                 WHERE candidate = $1 AND after_xid IS NOT NULL",
            )
            .bind(settled)
            .execute(self.conn().await?)
            .await?;
        }
        sqlx::query(
            "UPDATE log_pending_floor SET candidate =
                (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM log_entries_id_seq)
             WHERE after_xid IS NULL",
        )
        .execute(self.conn().await?)
        .await?;
        sqlx::query(
            "UPDATE log_pending_floor SET after_xid = pg_snapshot_xmax(pg_current_snapshot())
             WHERE after_xid IS NULL",
        )
        .execute(self.conn().await?)
        .await?;
        Ok(())
    }

    async fn insert_log_hashes(&mut self, hashes: &[(u64, HashBytes)]) -> StoreResult<()> {
        let indexes = to_i64s(hashes.iter().map(|(i, _)| *i), "hash index")?;
        let values: Vec<Vec<u8>> = hashes.iter().map(|(_, h)| h.to_vec()).collect();
        sqlx::query(
            "INSERT INTO log_hashes (idx, hash) SELECT * FROM UNNEST($1::bigint[], $2::bytea[])",
        )
        .bind(indexes)
        .bind(values)
        .execute(self.conn().await?)
        .await?;
        Ok(())
    }

    async fn leaf_hashes(&mut self, leaves: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        self.hashes_at(
            "SELECT leaf_index, leaf_hash FROM log_entries WHERE leaf_index = ANY($1)",
            leaves,
            "leaf index",
        )
        .await
    }

    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        self.hashes_at(
            "SELECT idx, hash FROM log_hashes WHERE idx = ANY($1)",
            indexes,
            "hash index",
        )
        .await
    }

    async fn insert_log_checkpoint(&mut self, size: u64, note: &str, now: i64) -> StoreResult<()> {
        sqlx::query("INSERT INTO log_checkpoints (size, note, created_at) VALUES ($1, $2, $3)")
            .bind(convert::to_i64(size, "tree size")?)
            .bind(note)
            .bind(now)
            .execute(self.conn().await?)
            .await?;
        Ok(())
    }

    async fn latest_log_checkpoint(&mut self) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String)> =
            sqlx::query_as("SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1")
                .fetch_optional(self.conn().await?)
                .await?;
        checkpoint_row(row)
    }

    async fn log_checkpoint_at(&mut self, size: u64) -> StoreResult<Option<LogCheckpoint>> {
        let row: Option<(i64, String)> =
            sqlx::query_as("SELECT size, note FROM log_checkpoints WHERE size = $1")
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
        sqlx::query(
            "INSERT INTO log_cosignatures (size, witness, line, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (size, witness) DO NOTHING",
        )
        .bind(convert::to_i64(size, "tree size")?)
        .bind(witness)
        .bind(line)
        .bind(now)
        .execute(self.conn().await?)
        .await?;
        Ok(())
    }

    async fn log_cosignature_lines(&mut self, size: u64) -> StoreResult<Vec<String>> {
        Ok(
            sqlx::query_scalar(
                "SELECT line FROM log_cosignatures WHERE size = $1 ORDER BY witness",
            )
            .bind(convert::to_i64(size, "tree size")?)
            .fetch_all(self.conn().await?)
            .await?,
        )
    }

    async fn log_cosigned_size(&mut self, witness: &str) -> StoreResult<Option<u64>> {
        let size: Option<i64> =
            sqlx::query_scalar("SELECT MAX(size) FROM log_cosignatures WHERE witness = $1")
                .bind(witness)
                .fetch_one(self.conn().await?)
                .await?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn latest_cosigned_size(&mut self, min: u32) -> StoreResult<Option<u64>> {
        let size: Option<i64> = sqlx::query_scalar(
            "SELECT size FROM log_cosignatures GROUP BY size HAVING COUNT(*) >= $1
             ORDER BY size DESC LIMIT 1",
        )
        .bind(i64::from(min))
        .fetch_optional(self.conn().await?)
        .await?;
        size.map(|s| convert::to_u64(s, "tree size")).transpose()
    }

    async fn log_leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>> {
        let from = convert::to_i64(from, "leaf index")?;
        Ok(sqlx::query_scalar(
            "SELECT entry FROM log_entries WHERE leaf_index >= $1 AND leaf_index < $1 + $2
             ORDER BY leaf_index",
        )
        .bind(from)
        .bind(i64::from(count))
        .fetch_all(self.conn().await?)
        .await?)
    }

    /// A sequenced entry through the sorted chunks (one round trip, a probe
    /// per chunk), then the incomplete chunk; one still queued by reading the
    /// waiting entries.
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        let size: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(leaf_index) + 1, 0) FROM log_entries")
                .fetch_one(self.conn().await?)
                .await?;
        let sealed = convert::to_u64(size, "tree size")? / HASH_CHUNK;
        let open_from = convert::to_i64(sealed * HASH_CHUNK, "leaf index")?;
        let row: Option<(Vec<u8>, Option<i64>)> = sqlx::query_as(
            "WITH found AS (
                 SELECT h.leaf_index FROM generate_series(0, $2 - 1) AS c(chunk)
                 CROSS JOIN LATERAL (
                     SELECT leaf_index FROM log_hash_chunks
                     WHERE chunk = c.chunk AND leaf_hash = $1 ORDER BY leaf_index LIMIT 1
                 ) h
                 UNION ALL
                 SELECT leaf_index FROM log_entries WHERE leaf_index >= $3 AND leaf_hash = $1
             )
             SELECT e.entry, e.leaf_index FROM log_entries e
             WHERE e.leaf_index = (SELECT MIN(leaf_index) FROM found)",
        )
        .bind(&leaf_hash[..])
        .bind(convert::to_i64(sealed, "chunk")?)
        .bind(open_from)
        .fetch_optional(self.conn().await?)
        .await?;
        if row.is_some() {
            return entry_row(row);
        }
        let queued: Option<(Vec<u8>, Option<i64>)> = sqlx::query_as(concat!(
            "SELECT entry, leaf_index FROM log_entries WHERE ",
            waiting!(),
            " AND leaf_hash = $1 ORDER BY id LIMIT 1"
        ))
        .bind(&leaf_hash[..])
        .fetch_optional(self.conn().await?)
        .await?;
        entry_row(queued)
    }
}

impl PgTx<'_> {
    /// The `(key, hash)` rows `select` finds for `keys` (`what` they are),
    /// in one round trip; none asked, none sent.
    async fn hashes_at(
        &mut self,
        select: &'static str,
        keys: &[u64],
        what: &str,
    ) -> StoreResult<Vec<(u64, HashBytes)>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let wanted = to_i64s(keys.iter().copied(), what)?;
        let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(select)
            .bind(wanted)
            .fetch_all(self.conn().await?)
            .await?;
        rows.into_iter()
            .map(|(key, hash)| Ok((convert::to_u64(key, what)?, hash_bytes(hash)?)))
            .collect()
    }

    /// Writes the sorted hashes of every chunk completed by the leaves
    /// `from .. to` just given their indexes.
    async fn seal_hash_chunks(&mut self, from: u64, to: u64) -> StoreResult<()> {
        for chunk in completed_chunks(from, to) {
            sqlx::query(
                "INSERT INTO log_hash_chunks (chunk, leaf_hash, leaf_index)
                 SELECT $1, leaf_hash, leaf_index FROM log_entries
                 WHERE leaf_index >= $1 * $2 AND leaf_index < ($1 + 1) * $2
                 ORDER BY leaf_hash, leaf_index",
            )
            .bind(convert::to_i64(chunk, "chunk")?)
            .bind(convert::to_i64(HASH_CHUNK, "chunk size")?)
            .execute(self.conn().await?)
            .await?;
        }
        Ok(())
    }
}
