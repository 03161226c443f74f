//! The log's reads, decided once for both backends over the [`LogTx`]
//! primitives; each backend runs the ones that must see one snapshot
//! inside it (`LogTx::waiting_log_entries`, `log_leaves`, `log_entry_by_hash`).

use super::hash_buckets;
use super::hash_buckets::HASH_CHUNK;
use super::logged::LoggedEntry;
use super::order::Waiting;
use super::tx::{HashBytes, LogTx};
use crate::error::{StoreError, StoreResult};

/// Up to `limit` entries of each source waiting for a leaf.
pub(crate) async fn waiting<T: LogTx>(tx: &mut T, limit: u32) -> StoreResult<Waiting> {
    let queue = tx.waiting_queued(limit).await?;
    let bets = waiting_bets(tx, limit).await?;
    Ok(Waiting { queue, bets })
}

/// Up to `limit` logged bets waiting, in id order, with their leaf hashes:
/// those this process remembers as they are, the others rebuilt from their
/// rows (`translog/bet_leaves.rs`).
pub(crate) async fn waiting_bets<T: LogTx>(
    tx: &mut T,
    limit: u32,
) -> StoreResult<Vec<(i64, HashBytes)>> {
    let ids = tx.waiting_bet_ids(limit).await?;
    let remembered = tx.bet_leaves().get(&ids);
    let missed: Vec<i64> = ids
        .iter()
        .zip(&remembered)
        .filter_map(|(&id, hash)| hash.is_none().then_some(id))
        .collect();
    let mut rebuilt = tx.logged_bet_entries(&missed).await?.into_iter();
    ids.into_iter()
        .zip(remembered)
        .map(|(id, hash)| match hash {
            Some(hash) => Ok((id, hash)),
            None => rebuilt
                .next()
                .map(|entry| (id, fairseed_tlog::leaf_hash(&entry).0))
                .ok_or_else(|| StoreError::other("a waiting bet's row is missing")),
        })
        .collect()
}

/// The entries of leaves `from .. from + count` (fewer if the tree is
/// smaller): a queued entry as stored, a bet's rebuilt from its row, all of
/// them in one read of the bets (they are sequenced in id order).
pub(crate) async fn leaves<T: LogTx>(
    tx: &mut T,
    from: u64,
    count: u32,
) -> StoreResult<Vec<Vec<u8>>> {
    let rows = tx
        .leaf_rows(from, from.saturating_add(u64::from(count)))
        .await?;
    let bet_ids: Vec<i64> = rows.iter().filter_map(|(bet, _)| *bet).collect();
    let mut bets = tx.logged_bet_entries(&bet_ids).await?.into_iter();
    rows.into_iter()
        .map(|row| match row {
            (_, Some(entry)) => Ok(entry),
            (Some(_), None) => bets
                .next()
                .ok_or_else(|| StoreError::other("a leaf's entry is missing")),
            (None, None) => Err(StoreError::other("a leaf's entry is missing")),
        })
        .collect()
}

/// The leaf hashes of leaves `from .. to`, in order (fewer if the tree is
/// smaller), from the runs that hold them.
pub(crate) async fn leaf_hash_range<T: LogTx>(
    tx: &mut T,
    from: u64,
    to: u64,
) -> StoreResult<Vec<(u64, HashBytes)>> {
    let mut found = Vec::new();
    if from >= to {
        return Ok(found);
    }
    let first = fairseed_tlog::leaf_stored_index(from);
    let last = fairseed_tlog::leaf_stored_index(to - 1);
    for (first_index, hashes) in tx.hash_runs_over(first, last).await? {
        for (index, hash) in (first_index..).zip(hashes.chunks_exact(32)) {
            let Some(leaf) = fairseed_tlog::stored_leaf(index).filter(|n| (from..to).contains(n))
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

/// The leaf index of `leaf_hash` (the first, should two be equal) in a
/// tree of `size` leaves: its bucket in each complete chunk, then the
/// incomplete chunk's hashes.
async fn leaf_index_of<T: LogTx>(
    tx: &mut T,
    leaf_hash: &HashBytes,
    size: u64,
) -> StoreResult<Option<u64>> {
    let sealed = size / HASH_CHUNK;
    for (chunk, bucket) in tx.hash_buckets_for(leaf_hash, sealed).await? {
        if let Some(offset) = hash_buckets::find(&bucket, leaf_hash) {
            return Ok(Some(chunk * HASH_CHUNK + offset));
        }
    }
    let open = leaf_hash_range(tx, sealed * HASH_CHUNK, size).await?;
    Ok(open
        .into_iter()
        .filter(|(_, hash)| hash == leaf_hash)
        .map(|(index, _)| index)
        .min())
}

/// An entry by its leaf hash: a sequenced one through [`leaf_index_of`];
/// one still waiting among the queued entries, then the logged bets.
pub(crate) async fn entry_by_hash<T: LogTx>(
    tx: &mut T,
    leaf_hash: &HashBytes,
) -> StoreResult<Option<LoggedEntry>> {
    let size = tx.latest_log_checkpoint().await?.map_or(0, |c| c.size);
    if let Some(index) = leaf_index_of(tx, leaf_hash, size).await? {
        let found = leaves(tx, index, 1).await?.pop();
        return Ok(found.map(|entry| LoggedEntry {
            entry,
            leaf_index: Some(index),
        }));
    }
    let waiting = match tx.waiting_entry_by_hash(leaf_hash).await? {
        Some(entry) => Some(entry),
        None => {
            let bets = waiting_bets(tx, u32::MAX).await?;
            match bets.into_iter().find(|(_, hash)| hash == leaf_hash) {
                Some((id, _)) => tx.logged_bet_entries(&[id]).await?.pop(),
                None => None,
            }
        }
    };
    Ok(waiting.map(|entry| LoggedEntry {
        entry,
        leaf_index: None,
    }))
}
