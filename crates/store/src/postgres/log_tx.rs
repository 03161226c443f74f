//! The [`LogTx`] primitives in PostgreSQL's dialect: batches go as arrays
//! (`UNNEST`), one round trip each.
//!
//! Two sources wait for leaves: the queue (`log_entries`: commitments and
//! reveals) and the logged dice bets, each its own outcome entry, rebuilt
//! from its row when read. A step writes its leaves as one row
//! (`log_leaf_runs`: each leaf's source) and the hashes it adds to the tree,
//! leaves' and nodes', as another (`log_hash_runs`). Ids are given out of
//! commit order, so each source is read above its floor
//! (`log_waiting_floors`), leaving out what the leaf runs since the floor
//! hold.

use std::collections::HashMap;

use sqlx::Connection;

use super::tx::{bet_raw, PgTx, BET_COLUMNS};
use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::translog::hash_buckets;
use crate::translog::order::{PerSource, Queued, Waiting};
use crate::translog::tx::{checkpoint_row, hash_bytes, EntryAt, HashBytes, LogTx};
use crate::translog::{completed_chunks, LogCheckpoint, LoggedEntry, HASH_CHUNK};

/// The ids a run holds of `$source` since its floor's leaf, with the sign
/// the runs give them (queued entries positive, bets negated).
macro_rules! taken_since_floor {
    ($source:literal, $sign:literal) => {
        concat!(
            "SELECT s FROM log_leaf_runs, UNNEST(sources) AS s
             WHERE first_leaf >= (SELECT floor_leaf FROM log_waiting_floors WHERE source = '",
            $source,
            "') AND s ",
            $sign,
            " 0"
        )
    };
}

/// The queued entries waiting: above the queue's floor and in no run since
/// the floor.
macro_rules! waiting_queued {
    () => {
        concat!(
            "id > (SELECT floor FROM log_waiting_floors WHERE source = 'queue')
             AND id NOT IN (",
            taken_since_floor!("queue", ">"),
            ")"
        )
    };
}

/// The logged bets waiting: above the bets' floor and in no run since it.
macro_rules! waiting_bets {
    () => {
        concat!(
            "id > (SELECT floor FROM log_waiting_floors WHERE source = 'bets')
             AND logged AND -id NOT IN (",
            taken_since_floor!("bets", "<"),
            ")"
        )
    };
}

/// The stored hashes among `$1` that runs hold: each the 32-byte slice of
/// the last run starting at or before it, read without the rest of the run.
const RUN_HASHES: &str =
    "SELECT i, substring(r.hashes FROM ((i - r.first_index) * 32 + 1)::int FOR 32)
    FROM UNNEST($1::bigint[]) AS i
    CROSS JOIN LATERAL (
        SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= i
        ORDER BY first_index DESC LIMIT 1
    ) r
    WHERE i < r.first_index + octet_length(r.hashes) / 32";

fn to_i64s(values: impl Iterator<Item = u64>, what: &str) -> StoreResult<Vec<i64>> {
    values.map(|v| convert::to_i64(v, what)).collect()
}

/// Leaves `from .. to` as the database's integers.
fn leaf_range(from: u64, to: u64) -> StoreResult<(i64, i64)> {
    Ok((
        convert::to_i64(from, "leaf index")?,
        convert::to_i64(to, "leaf index")?,
    ))
}

/// Where a run's source id says a leaf's entry is.
fn entry_at(source: i64) -> EntryAt {
    if source < 0 {
        EntryAt::Bet(-source)
    } else {
        EntryAt::Queue(source)
    }
}

impl LogTx for PgTx<'_> {
    /// With the last bet id given so far: the bets up to it come before
    /// this entry (`crate::translog::order`).
    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO log_entries (entry, leaf_hash, subject, name, created_at, bets_before)
             VALUES ($1, $2, $3, $4, $5,
                     (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq))",
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

    /// Both sources in one snapshot: a commit between two reads could
    /// otherwise add bets that belong before a queued entry read.
    async fn waiting_log_entries(&mut self, limit: u32) -> StoreResult<Waiting> {
        self.in_snapshot(async move |tx| {
            let queue = tx.waiting_queued(limit).await?;
            let bets = tx.waiting_bets(limit).await?;
            Ok(Waiting { queue, bets })
        })
        .await
    }

    /// The step's leaves as one run; its first leaf is the run's key, so a
    /// second step from the same tree size fails here. Their hashes are
    /// stored with the nodes' ([`LogTx::insert_log_hashes`]).
    async fn set_leaf_indexes(
        &mut self,
        assigned: &[(EntryAt, u64, HashBytes)],
    ) -> StoreResult<u64> {
        let Some(first) = assigned.first() else {
            return Ok(0);
        };
        if (first.1..)
            .zip(assigned)
            .any(|(index, (_, leaf, _))| *leaf != index)
        {
            return Err(StoreError::other("a step's leaves are not one run"));
        }
        let bets_to = assigned
            .iter()
            .filter_map(|(at, _, _)| match at {
                EntryAt::Bet(id) => Some(*id),
                EntryAt::Queue(_) => None,
            })
            .max();
        let sources: Vec<i64> = assigned
            .iter()
            .map(|(at, _, _)| match *at {
                EntryAt::Queue(id) => id,
                EntryAt::Bet(id) => -id,
            })
            .collect();
        sqlx::query("INSERT INTO log_leaf_runs (first_leaf, sources) VALUES ($1, $2)")
            .bind(convert::to_i64(first.1, "leaf index")?)
            .bind(sources)
            .execute(self.conn().await?)
            .await?;
        // Before the commit: a bet forgotten early is rebuilt if it waits.
        if let Some(bets_to) = bets_to {
            self.leaves.forget_through(bets_to);
        }
        Ok(assigned.len() as u64)
    }

    /// Each source's candidate, once every transaction that could hold an
    /// id up to it has ended (a queued entry's or a bet's transaction has
    /// its id before the row takes one, so any row up to the candidate
    /// belongs to a transaction before `after_xid`). Read before the
    /// waiting entries, in an earlier snapshot, so their read sees every
    /// such row that committed.
    async fn floor_within_reach(&mut self) -> StoreResult<PerSource<Option<i64>>> {
        let rows: Vec<(String, Option<i64>)> = sqlx::query_as(
            "SELECT source, candidate FROM log_waiting_floors
             WHERE after_xid IS NOT NULL AND pg_snapshot_xmin(pg_current_snapshot()) >= after_xid",
        )
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
    /// tree size reached, from which on runs may hold ids above it), and as
    /// `after_xid` this transaction's own id, given after that read.
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
        let (fresh, queue, bets): (bool, i64, i64) = sqlx::query_as(
            "SELECT pg_current_xact_id_if_assigned() IS NULL,
                    (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM log_entries_id_seq),
                    (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq)",
        )
        .fetch_one(self.conn().await?)
        .await?;
        if !fresh {
            return Err(StoreError::other(
                "a step must take the floors' candidates before its first write",
            ));
        }
        if settled != PerSource::default() {
            sqlx::query(
                "UPDATE log_waiting_floors SET floor = candidate, floor_leaf = candidate_leaf,
                     candidate = NULL, candidate_leaf = NULL, after_xid = NULL
                 WHERE after_xid IS NOT NULL
                   AND candidate = CASE source WHEN 'queue' THEN $1 ELSE $2 END",
            )
            .bind(settled.queue)
            .bind(settled.bets)
            .execute(self.conn().await?)
            .await?;
        }
        sqlx::query(
            "UPDATE log_waiting_floors SET candidate_leaf = $1,
                 candidate = CASE source WHEN 'queue' THEN $2 ELSE $3 END,
                 after_xid = pg_current_xact_id()
             WHERE after_xid IS NULL",
        )
        .bind(convert::to_i64(size, "tree size")?)
        .bind(queue)
        .bind(bets)
        .execute(self.conn().await?)
        .await?;
        Ok(())
    }

    /// The step's hashes, leaves' and nodes', as one run (`log_hash_runs`);
    /// then the sorted hashes of the chunks its leaves complete.
    async fn insert_log_hashes(&mut self, hashes: &[(u64, HashBytes)]) -> StoreResult<()> {
        let Some(&(first, _)) = hashes.first() else {
            return Ok(());
        };
        if (first..).zip(hashes).any(|(index, (at, _))| *at != index) {
            return Err(StoreError::other("a step's hashes are not one run"));
        }
        let run: Vec<u8> = hashes.iter().flat_map(|(_, h)| *h).collect();
        sqlx::query("INSERT INTO log_hash_runs (first_index, hashes) VALUES ($1, $2)")
            .bind(convert::to_i64(first, "hash index")?)
            .bind(run)
            .execute(self.conn().await?)
            .await?;
        let mut leaves = hashes
            .iter()
            .filter_map(|(i, _)| fairseed_tlog::stored_leaf(*i));
        if let Some(from) = leaves.next() {
            let last = leaves.next_back().unwrap_or(from);
            self.seal_hash_chunks(from, last + 1).await?;
        }
        Ok(())
    }

    /// From the runs of hashes.
    async fn leaf_hashes(&mut self, leaves: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        let stored: Vec<u64> = leaves
            .iter()
            .map(|&n| fairseed_tlog::leaf_stored_index(n))
            .collect();
        Ok(self
            .hashes_at(RUN_HASHES, &stored, "hash index")
            .await?
            .into_iter()
            .filter_map(|(i, h)| Some((fairseed_tlog::stored_leaf(i)?, h)))
            .collect())
    }

    /// From the runs of hashes.
    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>> {
        self.hashes_at(RUN_HASHES, indexes, "hash index").await
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
        self.in_snapshot(async move |tx| tx.leaves(from, count).await)
            .await
    }

    /// A sequenced entry through the sorted chunks (one round trip, a probe
    /// per chunk), then the incomplete chunk's hashes; one still waiting by
    /// reading the waiting entries. In one snapshot: a step committing
    /// between the reads would otherwise move the entry from the waiting
    /// ones to the leaves unseen.
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>> {
        self.in_snapshot(async move |tx| tx.entry_by_hash(leaf_hash).await)
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
        let leaves = self.leaves;
        let mut snapshot = self
            .conn()
            .await?
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .await?;
        let out = read(&mut PgTx::new(&mut snapshot, leaves)).await?;
        snapshot.commit().await?;
        Ok(out)
    }

    /// Up to `limit` queued entries waiting, in id order.
    async fn waiting_queued(&mut self, limit: u32) -> StoreResult<Vec<Queued>> {
        let rows: Vec<(i64, Vec<u8>, i64)> = sqlx::query_as(concat!(
            "SELECT id, leaf_hash, bets_before FROM log_entries WHERE ",
            waiting_queued!(),
            " ORDER BY id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(self.conn().await?)
        .await?;
        rows.into_iter()
            .map(|(id, hash, before)| Ok((id, hash_bytes(hash)?, before)))
            .collect()
    }

    /// Up to `limit` logged bets waiting, in id order, with their leaf
    /// hashes: those this process remembers as they are, the others
    /// rebuilt from their rows (`translog::bet_leaves`).
    async fn waiting_bets(&mut self, limit: u32) -> StoreResult<Vec<(i64, HashBytes)>> {
        let ids: Vec<i64> = sqlx::query_scalar(concat!(
            "SELECT id FROM bets WHERE ",
            waiting_bets!(),
            " ORDER BY id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(self.conn().await?)
        .await?;
        let remembered = self.leaves.get(&ids);
        let missed: Vec<i64> = ids
            .iter()
            .zip(&remembered)
            .filter_map(|(&id, hash)| hash.is_none().then_some(id))
            .collect();
        let rebuilt = self.bet_entries(missed).await?;
        ids.into_iter()
            .zip(remembered)
            .map(|(id, hash)| match hash {
                Some(hash) => Ok((id, hash)),
                None => rebuilt
                    .get(&id)
                    .map(|entry| (id, fairseed_tlog::leaf_hash(entry).0))
                    .ok_or_else(|| StoreError::other("a waiting bet's row is missing")),
            })
            .collect()
    }

    /// The outcome entries of the bets `ids`, by id.
    async fn bet_entries(&mut self, ids: Vec<i64>) -> StoreResult<HashMap<i64, Vec<u8>>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT {BET_COLUMNS}, commitment, client_seed FROM bets
             JOIN (SELECT id AS pair, commitment, client_seed FROM seed_pairs) p
                 ON p.pair = bets.pair_id
             WHERE bets.id = ANY($1)",
            BET_COLUMNS = BET_COLUMNS
        );
        let rows = sqlx::query(&sql)
            .bind(ids)
            .fetch_all(self.conn().await?)
            .await?;
        rows.iter().map(bet_entry_row).collect()
    }

    /// The entries of leaves `from .. from + count` (fewer if the tree is
    /// smaller), from the runs: a queued entry read by its id and a bet's
    /// rebuilt from its row.
    async fn leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>> {
        let to = from.saturating_add(u64::from(count));
        let (from_i, to_i) = leaf_range(from, to)?;
        let mut entries: HashMap<u64, Vec<u8>> = HashMap::new();
        // The runs that hold leaves `from .. to`: the last to start at or
        // before `from`, and every later one starting before `to`.
        let runs: Vec<(i64, Vec<i64>)> = sqlx::query_as(
            "SELECT first_leaf, sources FROM log_leaf_runs WHERE first_leaf < $2 AND first_leaf >=
                 COALESCE((SELECT MAX(first_leaf) FROM log_leaf_runs WHERE first_leaf <= $1), 0)
             ORDER BY first_leaf",
        )
        .bind(from_i)
        .bind(to_i)
        .fetch_all(self.conn().await?)
        .await?;
        let mut at = Vec::new();
        for (first_leaf, sources) in runs {
            let first = convert::to_u64(first_leaf, "leaf index")?;
            at.extend(
                (first..)
                    .zip(sources)
                    .filter(|(index, _)| (from..to).contains(index))
                    .map(|(index, source)| (index, entry_at(source))),
            );
        }
        let (mut queued, mut bets) = (Vec::new(), Vec::new());
        for (_, source) in &at {
            match *source {
                EntryAt::Queue(id) => queued.push(id),
                EntryAt::Bet(id) => bets.push(id),
            }
        }
        let mut queued: HashMap<i64, Vec<u8>> =
            sqlx::query_as("SELECT id, entry FROM log_entries WHERE id = ANY($1)")
                .bind(queued)
                .fetch_all(self.conn().await?)
                .await?
                .into_iter()
                .collect();
        let mut bets = self.bet_entries(bets).await?;
        for (index, source) in at {
            let entry = match source {
                EntryAt::Queue(id) => queued.remove(&id),
                EntryAt::Bet(id) => bets.remove(&id),
            };
            let entry = entry.ok_or_else(|| StoreError::other("a leaf's entry is missing"))?;
            entries.insert(index, entry);
        }
        Ok((from..to).map_while(|i| entries.remove(&i)).collect())
    }

    /// The leaf hashes of leaves `from .. to`, in order (fewer if the tree
    /// is smaller).
    async fn leaf_hash_range(&mut self, from: u64, to: u64) -> StoreResult<Vec<(u64, HashBytes)>> {
        let mut found = Vec::new();
        if from >= to {
            return Ok(found);
        }
        // The runs holding the leaves' stored hashes, nodes' between them.
        let (first, last) = (
            fairseed_tlog::leaf_stored_index(from),
            fairseed_tlog::leaf_stored_index(to - 1),
        );
        let runs: Vec<(i64, Vec<u8>)> = sqlx::query_as(
            "SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= $2 AND first_index >=
                 COALESCE((SELECT MAX(first_index) FROM log_hash_runs WHERE first_index <= $1), 0)
             ORDER BY first_index",
        )
        .bind(convert::to_i64(first, "hash index")?)
        .bind(convert::to_i64(last, "hash index")?)
        .fetch_all(self.conn().await?)
        .await?;
        for (first_index, hashes) in runs {
            let first_index = convert::to_u64(first_index, "hash index")?;
            for (index, hash) in (first_index..).zip(hashes.chunks_exact(32)) {
                let Some(leaf) =
                    fairseed_tlog::stored_leaf(index).filter(|n| (from..to).contains(n))
                else {
                    continue;
                };
                let hash = hash
                    .try_into()
                    .map_err(|_| StoreError::other("a run's hash is short"))?;
                found.push((leaf, hash));
            }
        }
        Ok(found)
    }

    /// [`LogTx::log_entry_by_hash`], inside a snapshot.
    async fn entry_by_hash(&mut self, leaf_hash: &HashBytes) -> StoreResult<Option<LoggedEntry>> {
        if let Some(index) = self.leaf_index_of(leaf_hash).await? {
            let found = self.leaves(index, 1).await?.pop();
            return Ok(found.map(|entry| LoggedEntry {
                entry,
                leaf_index: Some(index),
            }));
        }
        let queued: Option<Vec<u8>> = sqlx::query_scalar(concat!(
            "SELECT entry FROM log_entries WHERE ",
            waiting_queued!(),
            " AND leaf_hash = $1 ORDER BY id LIMIT 1"
        ))
        .bind(&leaf_hash[..])
        .fetch_optional(self.conn().await?)
        .await?;
        let waiting = match queued {
            Some(entry) => Some(entry),
            None => {
                let bets = self.waiting_bets(u32::MAX).await?;
                match bets.into_iter().find(|(_, hash)| hash == leaf_hash) {
                    Some((id, _)) => self.bet_entries(vec![id]).await?.remove(&id),
                    None => None,
                }
            }
        };
        Ok(waiting.map(|entry| LoggedEntry {
            entry,
            leaf_index: None,
        }))
    }

    /// The leaf index of `leaf_hash` (the first, should two be equal): its
    /// bucket in each complete chunk (only those holding its bytes are
    /// sent), then the incomplete chunk's hashes.
    async fn leaf_index_of(&mut self, leaf_hash: &HashBytes) -> StoreResult<Option<u64>> {
        let size: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(size), 0) FROM log_checkpoints")
            .fetch_one(self.conn().await?)
            .await?;
        let size = convert::to_u64(size, "tree size")?;
        let sealed = size / HASH_CHUNK;
        let buckets: Vec<(i64, Vec<u8>)> = sqlx::query_as(
            "SELECT chunk, leaves FROM log_hash_buckets
             WHERE bucket = $1 AND chunk < $2 AND position($3 IN leaves) > 0
             ORDER BY chunk",
        )
        .bind(i16::from(leaf_hash[0]))
        .bind(convert::to_i64(sealed, "chunk")?)
        .bind(&leaf_hash[..])
        .fetch_all(self.conn().await?)
        .await?;
        for (chunk, leaves) in buckets {
            if let Some(offset) = hash_buckets::find(&leaves, leaf_hash) {
                let chunk = convert::to_u64(chunk, "chunk")?;
                return Ok(Some(chunk * HASH_CHUNK + offset));
            }
        }
        let open = self.leaf_hash_range(sealed * HASH_CHUNK, size).await?;
        Ok(open
            .into_iter()
            .filter(|(_, hash)| hash == leaf_hash)
            .map(|(index, _)| index)
            .min())
    }

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

    /// Writes the buckets of sorted hashes of every chunk completed by the
    /// leaves `from .. to` just given.
    async fn seal_hash_chunks(&mut self, from: u64, to: u64) -> StoreResult<()> {
        for chunk in completed_chunks(from, to) {
            let first = chunk * HASH_CHUNK;
            let leaves = self.leaf_hash_range(first, first + HASH_CHUNK).await?;
            let (buckets, bytes): (Vec<i16>, Vec<Vec<u8>>) =
                hash_buckets::encode(first, &leaves).into_iter().unzip();
            sqlx::query(
                "INSERT INTO log_hash_buckets (chunk, bucket, leaves)
                 SELECT $1, b, l FROM UNNEST($2::smallint[], $3::bytea[]) AS v(b, l)",
            )
            .bind(convert::to_i64(chunk, "chunk")?)
            .bind(buckets)
            .bind(bytes)
            .execute(self.conn().await?)
            .await?;
        }
        Ok(())
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
