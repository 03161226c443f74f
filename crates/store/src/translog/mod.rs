//! The transparency log's storage (docs/spec.md §16), decided once for every
//! backend over the [`LogTx`] primitives.
//!
//! Appending is queueing: the transaction that shows a commitment or reveal
//! also inserts its entry, and a dice bet's row, marked `logged`, is its own
//! outcome entry, so nothing is shown that the log will not hold. The
//! sequencer later takes the waiting entries of both sources in commit
//! order ([`plan`], on a reader; [`order`]), gives each the next leaf
//! index, computes the tree's new hashes (only the frontier is read for
//! that) and signs the checkpoint with the caller's key ([`prepare`], in
//! memory), then stores them in one transaction ([`append_planned`]): a
//! second sequencer racing it fails on the checkpoint or the key of the
//! leaves it writes and writes nothing.
//!
//! Both backends keep the log in the same tables and run the same
//! statements, each written once (`crate::sql::log`), each backend's text
//! derived; the reads are in [`read`]. The log lives in the store, not in a crate of its
//! own, because its writes are part of other transactions: an entry is
//! queued in the transaction that shows it, and a bet's row is its entry.

pub(crate) mod appender;
pub(crate) mod bet_leaves;
pub(crate) mod entries;
pub(crate) mod hash_buckets;
pub(crate) mod logged;
pub(crate) mod order;
pub(crate) mod read;
pub(crate) mod tx;

use fairseed_tlog::{
    append_leaves, frontier_indexes, leaf_hash, stored_leaf, EntryKind, Hash, LogEntry,
    SparseHashes,
};

use crate::error::{Refusal, StoreError, StoreResult};
pub(crate) use appender::{entry_bytes, Appender};
pub(crate) use hash_buckets::{completed_chunks, HASH_CHUNK};
pub use logged::{LogCheckpoint, LogStep, LoggedEntry, SignFn};
use order::{commit_order, PerSource};
pub(crate) use tx::LogTx;
use tx::{EntryAt, HashBytes};

/// The most entries one sequencing step takes.
pub const MAX_BATCH: u32 = 1024;

/// The checkpoint of `size` (the latest if `None`) with its cosignatures.
pub(crate) async fn with_cosignatures<T: LogTx>(
    tx: &mut T,
    size: Option<u64>,
) -> StoreResult<Option<LogCheckpoint>> {
    let found = match size {
        Some(size) => tx.log_checkpoint_at(size).await?,
        None => tx.latest_log_checkpoint().await?,
    };
    let Some(mut head) = found else {
        return Ok(None);
    };
    head.cosignatures = tx.log_cosignature_lines(head.size).await?;
    Ok(Some(head))
}

/// The newest checkpoint cosigned by at least `min` witnesses, with its cosignatures.
pub(crate) async fn cosigned<T: LogTx>(tx: &mut T, min: u32) -> StoreResult<Option<LogCheckpoint>> {
    match tx.latest_cosigned_size(min).await? {
        Some(size) => with_cosignatures(tx, Some(size)).await,
        None => Ok(None),
    }
}

/// The subject of the entries an idempotent call queues: its scope and key.
pub(crate) fn subject(scope: &str, key: &str) -> String {
    format!("{scope}\n{key}")
}

/// Queues `entry` (its time set to `now`) if the transaction's store keeps
/// a log, under `subject`: the idempotent call queueing it, whose replay
/// reads it back. The bytes queued, to hand to the caller for a receipt.
pub(crate) async fn append<T: LogTx>(
    tx: &mut T,
    subject: Option<&str>,
    entry: Option<LogEntry>,
    now: i64,
) -> StoreResult<Vec<Vec<u8>>> {
    let (Some(log), Some(entry)) = (tx.appender(), entry) else {
        return Ok(Vec::new());
    };
    let name = entry_name(entry.kind, &entry.ids);
    let bytes = log.encode(entry, now)?;
    tx.insert_log_entry(&bytes, &leaf_hash(&bytes).0, subject, name.as_deref(), now)
        .await?;
    Ok(vec![bytes])
}

/// The name a commitment or reveal entry is queued under: its kind and ids,
/// which a view that shows the commitment (or the secret) knows, so the view
/// carries the entry's receipt (docs/spec.md §16.5). A bet's outcome has
/// none: only the bet's own answer shows it.
pub fn entry_name<S: AsRef<str>>(kind: EntryKind, ids: &[S]) -> Option<String> {
    let word = match kind {
        EntryKind::Commitment => "commitment",
        EntryKind::Reveal => "reveal",
        EntryKind::Outcome => return None,
    };
    // A JSON array: ids are free text, and this keeps them apart.
    let ids: Vec<&str> = ids.iter().map(AsRef::as_ref).collect();
    serde_json::to_string(&(word, ids)).ok()
}

/// The subject a dice pair's commitment entry is queued under, so the
/// pair's later views carry its receipt.
pub(crate) fn pair_subject(pair_id: i64) -> String {
    format!("dice-pair\n{pair_id:020}")
}

/// What one sequencing step appends, read on a reader so that the writer
/// (on SQLite the bets' only thread) spends nothing on reading or hashing.
pub(crate) struct Plan {
    /// The tree size of the latest checkpoint, `None` before the first.
    size: Option<u64>,
    /// The entries taken, in commit order: where they are and their leaf hashes.
    pending: Vec<(EntryAt, HashBytes)>,
    /// The stored hashes appending needs (the tree's frontier).
    frontier: Vec<(u64, HashBytes)>,
    /// The floors the step settles ([`LogTx::floor_within_reach`]).
    floor: PerSource<Option<i64>>,
}

/// The step [`plan`] read, hashed and signed: what [`append_planned`] writes.
pub(crate) struct Planned {
    size: u64,
    assigned: Vec<(EntryAt, u64, HashBytes)>,
    added: Vec<(u64, HashBytes)>,
    checkpoint: LogCheckpoint,
    floor: PerSource<Option<i64>>,
}

/// Reads what the next step appends: up to `max` queued entries; `None` if
/// nothing was queued and a checkpoint exists (the first step signs the
/// empty tree).
pub(crate) async fn plan<T: LogTx>(tx: &mut T, max: u32) -> StoreResult<Option<Plan>> {
    let size = tx.latest_log_checkpoint().await?.map(|c| c.size);
    let reach = tx.floor_within_reach().await?;
    let (pending, through) = commit_order(tx.waiting_log_entries(max).await?, max as usize);
    if pending.is_empty() && size.is_some() {
        return Ok(None);
    }
    let frontier = tx.log_hashes(&frontier_indexes(size.unwrap_or(0))).await?;
    // A candidate is settled if the step takes every entry waiting up to it.
    let floor = PerSource {
        queue: reach.queue.filter(|&id| through.queue >= id),
        bets: reach.bets.filter(|&id| through.bets >= id),
    };
    Ok(Some(Plan {
        size,
        pending,
        frontier,
        floor,
    }))
}

/// Gives the planned entries the next leaf indexes, computes the tree's new
/// hashes and root, and signs the new checkpoint; touches no store.
pub(crate) fn prepare(plan: Plan, sign: SignFn) -> StoreResult<Planned> {
    let size = plan.size.unwrap_or(0);
    let mut hashes = SparseHashes::new();
    for (index, hash) in plan.frontier {
        hashes.insert(index, Hash(hash));
    }
    let leaves: Vec<Hash> = plan.pending.iter().map(|(_, h)| Hash(*h)).collect();
    let (added, root) = append_leaves(size, &leaves, &mut hashes)
        .map_err(|e| StoreError::context("the stored log is incomplete", e))?;
    let assigned: Vec<(EntryAt, u64, HashBytes)> = plan
        .pending
        .iter()
        .zip(size..)
        .map(|(&(at, hash), index)| (at, index, hash))
        .collect();
    let new_size = size + assigned.len() as u64;
    let note = sign(new_size, root.0)?;
    Ok(Planned {
        size,
        assigned,
        added: added.into_iter().map(|(i, h)| (i, h.0)).collect(),
        checkpoint: LogCheckpoint {
            size: new_size,
            note,
            cosignatures: Vec::new(),
            signed_at_ms: 0,
        },
        floor: plan.floor,
    })
}

/// Writes a prepared step in one transaction, if the log is still where the
/// plan read it: another sequencer's step in between fails this one (on the
/// checkpoint it signed, or on the entries it took) and writes nothing.
pub(crate) async fn append_planned<T: LogTx>(
    tx: &mut T,
    planned: Planned,
    now: i64,
) -> StoreResult<LogStep> {
    let taken =
        || StoreError::conflict(Refusal::Constraint, "another sequencer took these entries");
    let latest = tx.latest_log_checkpoint().await?.map_or(0, |c| c.size);
    if latest != planned.size {
        return Err(taken());
    }
    // First: on PostgreSQL the floors' candidates are read before the
    // step's transaction has an id of its own ([`LogTx::raise_pending_floor`]).
    tx.raise_pending_floor(planned.floor, planned.checkpoint.size)
        .await?;
    let leaves: Vec<(EntryAt, u64)> = planned.assigned.iter().map(|&(at, i, _)| (at, i)).collect();
    tx.insert_leaves(&leaves, planned.checkpoint.size).await?;
    // Before the commit: a bet forgotten early is rebuilt if it waits.
    if let Some(bets_to) = leaves
        .iter()
        .filter_map(|(at, _)| match at {
            EntryAt::Bet(id) => Some(*id),
            EntryAt::Queue(_) => None,
        })
        .max()
    {
        tx.bet_leaves().forget_through(bets_to);
    }
    store_hashes(tx, &planned.added).await?;
    let mut head = planned.checkpoint;
    head.signed_at_ms = now;
    tx.insert_log_checkpoint(head.size, &head.note, now).await?;
    let appended = u32::try_from(planned.assigned.len())
        .map_err(|_| StoreError::other("a sequencing step outgrew u32"))?;
    Ok(LogStep {
        checkpoint: head,
        appended,
    })
}

/// Stores a step's hashes, leaves' and nodes', as one run, then the sorted
/// hashes of every chunk its leaves complete.
async fn store_hashes<T: LogTx>(tx: &mut T, hashes: &[(u64, HashBytes)]) -> StoreResult<()> {
    let Some(&(first, _)) = hashes.first() else {
        return Ok(());
    };
    if (first..).zip(hashes).any(|(index, (at, _))| *at != index) {
        return Err(StoreError::other("a step's hashes are not one run"));
    }
    let run: Vec<u8> = hashes.iter().flat_map(|(_, h)| *h).collect();
    tx.insert_hash_run(first, &run).await?;
    let mut leaves = hashes.iter().filter_map(|(i, _)| stored_leaf(*i));
    let Some(from) = leaves.next() else {
        return Ok(());
    };
    let to = leaves.next_back().unwrap_or(from) + 1;
    for chunk in completed_chunks(from, to) {
        let first = chunk * HASH_CHUNK;
        let leaves = read::leaf_hash_range(tx, first, first + HASH_CHUNK).await?;
        tx.insert_hash_buckets(chunk, hash_buckets::encode(first, &leaves))
            .await?;
    }
    Ok(())
}
