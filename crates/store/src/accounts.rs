//! Players, dice seed pairs and bets, decided once for every backend over
//! the [`Tx`] primitives. The store keeps these atomic; what a bet may do
//! (balance, nonce range, payout) is the caller's settle function's call.

use crate::error::{StoreError, StoreResult};
use crate::rounds;
use crate::seal::{SecretSeed, SeedCipher};
use crate::translog::{self, append, entries, Appender};
use crate::tx::{BetRaw, SealedPair, Tx};
use crate::types::{
    BetDraw, BetReceipt, BetRequest, BetRow, NewSeedPair, Player, RecordOut, RecordRow, RecordsFn,
    RevealedPair, Rotation, SeedPair, ROTATION_PAGE,
};

/// Seals a new pair's server seed (outside the transaction).
pub(crate) fn seal_pair(cipher: &SeedCipher, pair: &NewSeedPair) -> StoreResult<SealedPair> {
    Ok(SealedPair {
        sealed: cipher.seal(&pair.server_seed, &pair.commitment)?,
        commitment: pair.commitment.clone(),
        client_seed: pair.client_seed.clone(),
    })
}

/// Inserts a pair and queues its commitment entry.
async fn insert_pair<T: Tx>(
    tx: &mut T,
    player_id: i64,
    pair: &SealedPair,
    now: i64,
) -> StoreResult<SeedPair> {
    let id = tx.insert_pair(player_id, pair, now).await?;
    let entry = entries::dice_commitment(player_id, &pair.commitment);
    let subject = translog::pair_subject(id);
    Ok(SeedPair {
        id,
        player_id,
        commitment: pair.commitment.clone(),
        client_seed: pair.client_seed.clone(),
        next_nonce: 0,
        appended: append(tx, Some(&subject), Some(entry), now).await?,
    })
}

pub(crate) async fn create_player<T: Tx>(
    tx: &mut T,
    token_hash: &str,
    balance: u128,
    pair: &SealedPair,
    now: i64,
) -> StoreResult<(Player, SeedPair)> {
    let id = tx.insert_player(token_hash, balance, now).await?;
    let pair = insert_pair(tx, id, pair, now).await?;
    Ok((Player { id, balance }, pair))
}

/// The player whose token hashes to `token_hash`, compared in constant time.
pub(crate) async fn player_by_token<T: Tx>(tx: &mut T, token_hash: &str) -> StoreResult<Player> {
    match tx.player_by_token(token_hash).await? {
        Some((id, stored, balance)) if crate::seal::ct_eq_str(&stored, token_hash) => {
            Ok(Player { id, balance })
        }
        _ => Err(StoreError::NotFound("player")),
    }
}

pub(crate) async fn player<T: Tx>(tx: &mut T, id: i64, lock: bool) -> StoreResult<Player> {
    let balance = tx
        .balance(id, lock)
        .await?
        .ok_or(StoreError::NotFound("player"))?;
    Ok(Player { id, balance })
}

async fn current_sealed<T: Tx>(
    tx: &mut T,
    player_id: i64,
    lock: bool,
) -> StoreResult<(SeedPair, Vec<u8>)> {
    tx.current_pair(player_id, lock)
        .await?
        .ok_or(StoreError::NotFound("seed pair"))
}

pub(crate) async fn current_pair<T: Tx>(tx: &mut T, player_id: i64) -> StoreResult<SeedPair> {
    Ok(current_sealed(tx, player_id, false).await?.0)
}

/// Sets the current pair's client seed if it is still the pair with
/// `commitment` and carries no bet; `None` if it is not.
pub(crate) async fn set_client_seed<T: Tx>(
    tx: &mut T,
    player_id: i64,
    commitment: &str,
    client_seed: &str,
) -> StoreResult<Option<SeedPair>> {
    if !tx
        .set_client_seed(player_id, commitment, client_seed)
        .await?
    {
        return Ok(None);
    }
    current_pair(tx, player_id).await.map(Some)
}

/// A bet: an idempotent replay, or the next nonce settled by `req.settle`
/// with the balance and bet written together.
pub(crate) async fn place_bet<T: Tx>(
    tx: &mut T,
    cipher: &SeedCipher,
    req: BetRequest,
    now: i64,
) -> StoreResult<BetReceipt> {
    // On PostgreSQL the player's row lock serializes this player's bets
    // across processes; it comes before the key check so a retry racing
    // its first attempt waits for it and replays it.
    let player = player(tx, req.player_id, true).await?;
    if let Some(existing) = tx.bet_by_key(req.player_id, &req.idempotency_key).await? {
        return replay(tx, existing).await;
    }
    let (pair, sealed) = current_sealed(tx, req.player_id, true).await?;
    let log = tx.appender();
    let (mut bet, logged) = draw_bet(cipher, &req, player.balance, &pair, &sealed, log, now)?;
    tx.bump_nonce(pair.id).await?;
    tx.set_balance(req.player_id, bet.balance_after).await?;
    bet.id = tx.insert_bet(&bet, logged.is_some(), now).await?;
    Ok(BetReceipt {
        bet,
        replayed: false,
        appended: logged.into_iter().collect(),
    })
}

/// The answer to a retried key: the stored bet and the entry its first
/// answer queued, found again so both answers carry one receipt.
pub(crate) async fn replay<T: Tx>(tx: &mut T, existing: BetRaw) -> StoreResult<BetReceipt> {
    let created_at = existing.created_at;
    let bet = existing.check()?;
    let appended = logged_outcome(tx, &bet, created_at).await?;
    Ok(BetReceipt {
        bet,
        replayed: true,
        appended,
    })
}

/// The outcome entry `bet` queued, if the log holds it: rebuilt from the bet
/// (stored at `created_at`, the entry's time) and its pair, whose client
/// seed is fixed from its first bet on, then found by its leaf hash. A bet
/// placed while the log was off finds none. Bets queue their entries with
/// no subject, so the log costs a bet no index entry; a replay pays this
/// lookup instead.
async fn logged_outcome<T: Tx>(
    tx: &mut T,
    bet: &BetRow,
    created_at: i64,
) -> StoreResult<Vec<Vec<u8>>> {
    let Some((commitment, client_seed)) = tx.pair_seeds(bet.pair_id).await? else {
        return Ok(Vec::new());
    };
    let bytes = outcome_bytes(bet, &commitment, &client_seed, created_at)?;
    let hash = fairseed_tlog::leaf_hash(&bytes).0;
    Ok(tx
        .log_entry_by_hash(&hash)
        .await?
        .map(|found| found.entry)
        .into_iter()
        .collect())
}

/// The outcome entry of a stored bet: what it queued, or (on SQLite) what
/// its row stands for in the log.
pub(crate) fn bet_entry(raw: BetRaw, commitment: &str, client_seed: &str) -> StoreResult<Vec<u8>> {
    let created_at = raw.created_at;
    outcome_bytes(&raw.check()?, commitment, client_seed, created_at)
}

/// The bytes of `bet`'s outcome entry, stored at `created_at` on a pair
/// with this commitment and client seed.
fn outcome_bytes(
    bet: &BetRow,
    commitment: &str,
    client_seed: &str,
    created_at: i64,
) -> StoreResult<Vec<u8>> {
    let outcome = entries::dice_outcome(commitment, client_seed, bet);
    translog::entry_bytes(outcome, created_at)
}

/// Settles `req` on `pair`'s next nonce from `balance`: the bet to store
/// (its id still 0) and, with a `log`, its outcome entry. Writes nothing.
pub(crate) fn draw_bet(
    cipher: &SeedCipher,
    req: &BetRequest,
    balance: u128,
    pair: &SeedPair,
    sealed: &[u8],
    log: Option<Appender>,
    now: i64,
) -> StoreResult<(BetRow, Option<Vec<u8>>)> {
    let server_seed: SecretSeed = cipher.open(sealed, &pair.commitment)?;
    let nonce = pair.next_nonce;
    let settled = (req.settle)(BetDraw {
        server_seed: &server_seed,
        client_seed: &pair.client_seed,
        nonce,
        balance,
    })?;
    drop(server_seed);
    let bet = BetRow {
        id: 0,
        player_id: req.player_id,
        pair_id: pair.id,
        nonce,
        amount: req.amount,
        condition: req.condition,
        target: req.target,
        roll: settled.roll,
        win: settled.win,
        payout: settled.payout,
        balance_after: settled.balance_after,
        idempotency_key: req.idempotency_key.clone(),
    };
    let outcome = entries::dice_outcome(&pair.commitment, &pair.client_seed, &bet);
    let logged = log.map(|log| log.encode(outcome, now)).transpose()?;
    Ok((bet, logged))
}

/// Reveals the current pair, stores its records (the player's) and commits
/// `next`, all in one transaction. The pair's bets are read and their
/// records stored a page at a time, so the memory a rotation holds is
/// bounded however many bets the pair carries.
pub(crate) async fn rotate<T: Tx>(
    tx: &mut T,
    cipher: &SeedCipher,
    player_id: i64,
    next: &SealedPair,
    records: RecordsFn,
    now: i64,
) -> StoreResult<Rotation> {
    player(tx, player_id, true).await?;
    let (pair, sealed) = current_sealed(tx, player_id, true).await?;
    let seed = cipher.open(&sealed, &pair.commitment)?;
    tx.reveal_pair(pair.id, seed.expose(), now).await?;
    let reveal = entries::dice_reveal(player_id, &pair.commitment, seed.expose());
    let appended = append(tx, None, Some(reveal), now).await?;
    let revealed = RevealedPair {
        id: pair.id,
        player_id,
        commitment: pair.commitment,
        server_seed: seed.expose().to_owned(),
        client_seed: pair.client_seed,
        bets: pair.next_nonce,
    };
    let stored = store_records(tx, &revealed, records, now).await?;
    let current = insert_pair(tx, player_id, next, now).await?;
    Ok(Rotation {
        revealed,
        first_records: stored.first,
        record_count: stored.count,
        current,
        appended,
    })
}

/// What [`store_records`] wrote: its first records and how many in all.
struct Stored {
    first: Vec<RecordRow>,
    count: u64,
}

/// Reads the pair's bets a page at a time (keyset on the nonce) and stores
/// each page's records before reading the next; a pair without bets gets
/// `records` called once with none. Keeps only the first records.
async fn store_records<T: Tx>(
    tx: &mut T,
    pair: &RevealedPair,
    mut records: RecordsFn,
    now: i64,
) -> StoreResult<Stored> {
    let mut stored = Stored {
        first: Vec::new(),
        count: 0,
    };
    let mut after = None;
    loop {
        let bets = tx
            .pair_bets(pair.id, after, ROTATION_PAGE)
            .await?
            .into_iter()
            .map(|b| b.check())
            .collect::<StoreResult<Vec<_>>>()?;
        if bets.is_empty() && after.is_some() {
            return Ok(stored);
        }
        for record in records(pair, &bets)? {
            let out = RecordOut::for_player(pair.player_id, record);
            let row = rounds::insert_record(tx, &out, now).await?;
            stored.count += 1;
            if stored.first.len() < ROTATION_PAGE as usize {
                stored.first.push(row);
            }
        }
        match bets.last() {
            Some(last) => after = Some(last.nonce),
            None => return Ok(stored),
        }
    }
}

pub(crate) async fn bets<T: Tx>(
    tx: &mut T,
    player_id: i64,
    pair_id: Option<i64>,
    page: crate::types::Page,
) -> StoreResult<Vec<BetRow>> {
    tx.bets(player_id, pair_id, page)
        .await?
        .into_iter()
        .map(|b| b.check())
        .collect()
}
