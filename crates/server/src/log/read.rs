//! Reading the log from the store: tiles, bundles, proofs. The hashes come
//! from the store a few at a time ([`fairseed_tlog::SparseHashes`]).

use fairseed_store::{LogCheckpoint, Store};
use fairseed_tlog::{
    hash_tile_data, open_checkpoint, prove_inclusion, tile_exists, tile_hash_indexes, Hash,
    SparseHashes, TileKind, TilePath, TlogError,
};

use super::{LogKey, Receipt};
use crate::error::ApiError;
use crate::state::AppState;

/// Rounds of fetching before a computation is taken to be broken.
const MAX_FETCHES: usize = 4;

fn tlog(err: TlogError) -> ApiError {
    ApiError::internal(format!("transparency log: {err}"))
}

/// Runs `f` over hashes fetched from the store until it has what it asks for.
async fn with_hashes<R>(
    store: &dyn Store,
    first: &[u64],
    f: impl Fn(&SparseHashes) -> Result<R, TlogError>,
) -> Result<R, ApiError> {
    let mut hashes = SparseHashes::new();
    let mut wanted = first.to_vec();
    for _ in 0..MAX_FETCHES {
        for (index, hash) in store.log_hashes(&wanted).await? {
            hashes.insert(index, Hash(hash));
        }
        if let Some(out) = hashes.try_with(&f).map_err(tlog)? {
            return Ok(out);
        }
        wanted = hashes.take_missing();
    }
    Err(ApiError::internal(
        "transparency log: stored hashes are missing",
    ))
}

/// Runs `f` over the stored hashes it asks for (a proof, a root).
pub async fn hashes<R>(
    store: &dyn Store,
    f: impl Fn(&SparseHashes) -> Result<R, TlogError>,
) -> Result<R, ApiError> {
    with_hashes(store, &[], f).await
}

/// The latest checkpoint with its cosignatures, or `404` before the first one is signed.
pub async fn latest(store: &dyn Store) -> Result<LogCheckpoint, ApiError> {
    store
        .log_checkpoint()
        .await?
        .ok_or_else(|| ApiError::not_found("checkpoint"))
}

/// The newest checkpoint with at least `min` cosignatures, or `404`.
pub async fn cosigned(store: &dyn Store, min: u32) -> Result<LogCheckpoint, ApiError> {
    store
        .log_cosigned_checkpoint(min)
        .await?
        .ok_or_else(|| ApiError::not_found("cosigned checkpoint"))
}

/// The contents of `tile` in the tree of `size` leaves; `404` past its edge.
pub async fn tile(store: &dyn Store, tile: &TilePath, size: u64) -> Result<Vec<u8>, ApiError> {
    if !tile_exists(tile, size) {
        return Err(ApiError::not_found("tile"));
    }
    match tile.kind {
        TileKind::Hashes { .. } => {
            let indexes = tile_hash_indexes(tile);
            with_hashes(store, &indexes, |h| hash_tile_data(h, tile)).await
        }
        TileKind::Entries => {
            let from = tile.index * u64::from(fairseed_tlog::tiles::TILE_WIDTH);
            let entries = store.log_leaves(from, tile.width).await?;
            fairseed_tlog::encode_bundle(&entries).map_err(tlog)
        }
    }
}

/// The full receipt of the entry with leaf hash `entry_hash`, signed anew:
/// with its inclusion proof to the latest checkpoint once sequenced.
pub async fn receipt(
    state: &AppState,
    key: &LogKey,
    entry_hash: [u8; 32],
) -> Result<Receipt, ApiError> {
    let store = state.store();
    let found = store
        .log_entry(entry_hash)
        .await?
        .ok_or_else(|| ApiError::not_found("log entry"))?;
    let mut receipt = state
        .receipts(std::slice::from_ref(&found.entry))
        .await?
        .pop()
        .ok_or_else(|| ApiError::not_found("transparency log"))?;
    let Some(index) = found.leaf_index else {
        return Ok(receipt);
    };
    let head = latest(store).await?;
    // The checkpoint read after the entry's index: it covers it.
    let size = open_checkpoint(head.note.as_bytes(), key.vkey())
        .map_err(tlog)?
        .size();
    let proof = with_hashes(store, &[], |h| prove_inclusion(h, index, size)).await?;
    receipt.leaf_index = Some(index);
    receipt.inclusion_proof = Some(proof);
    receipt.checkpoint = Some(head.cosigned_note());
    Ok(receipt)
}
