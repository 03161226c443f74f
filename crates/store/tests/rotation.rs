//! A rotation of a pair with more bets than one page, on every backend:
//! SQLite (file and memory) always, PostgreSQL when `FAIRSEED_TEST_DB_URI`
//! is set (in a fresh schema dropped afterwards).
//!
//! The records function sees the pair's bets a page at a time; what is
//! stored must still be one record per bet in nonce order, written with the
//! reveal and the next commitment in one transaction.

use std::sync::{Arc, Mutex};

mod common;

use fairseed_store::{
    BetDraw, BetRequest, BetRow, Condition, NewRecord, NewSeedPair, Page, PgStore, RecordReader,
    RecordRow, RecordsFn, RevealedPair, SecretSeed, SeedCipher, Settled, SqliteStore, Store,
    StoreError, ROTATION_PAGE,
};
use sha2::{Digest, Sha256};

/// Bets sent at once, so the SQLite writer commits them in shared batches.
const CONCURRENT: usize = 100;

fn seed(n: u8) -> SecretSeed {
    SecretSeed::new(hex::encode([n; 32]))
}

fn commitment(n: u8) -> String {
    hex::encode(Sha256::digest(seed(n).expose().as_bytes()))
}

fn pair(n: u8, client: &str) -> NewSeedPair {
    NewSeedPair {
        server_seed: seed(n),
        commitment: commitment(n),
        client_seed: client.to_owned(),
    }
}

/// A bet whose roll and stake vary with its nonce, so each record differs.
fn bet(player_id: i64, key: String) -> BetRequest {
    BetRequest {
        player_id,
        idempotency_key: key,
        amount: 1,
        condition: Condition::Over,
        target: 100,
        settle: Box::new(|d: BetDraw<'_>| {
            let roll = u16::try_from(d.nonce * 7919 % 10_000).expect("below 10000");
            Ok(Settled {
                roll,
                win: false,
                payout: 0,
                balance_after: d.balance - 1,
            })
        }),
    }
}

/// Places `n` bets keyed `{prefix}{i}`; the stored rows by nonce.
async fn place(store: &Arc<dyn Store>, player_id: i64, prefix: &str, n: usize) -> Vec<BetRow> {
    let mut placed = Vec::with_capacity(n);
    for start in (0..n).step_by(CONCURRENT) {
        let mut tasks = tokio::task::JoinSet::new();
        for i in start..n.min(start + CONCURRENT) {
            let store = Arc::clone(store);
            let req = bet(player_id, format!("{prefix}{i}"));
            tasks.spawn(async move { store.place_bet(req).await });
        }
        while let Some(done) = tasks.join_next().await {
            let receipt = done.expect("task").expect("bet");
            assert!(!receipt.replayed);
            placed.push(receipt.bet);
        }
    }
    placed.sort_by_key(|b| b.nonce);
    placed
}

/// What the test's records function writes for one bet: every value it
/// depends on, so a record built from the wrong bet or pair shows.
fn body(pair: &RevealedPair, bet: &BetRow) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}",
        pair.server_seed, pair.client_seed, bet.nonce, bet.roll, bet.id, bet.idempotency_key
    )
}

/// A records function noting the size of each page it is given; a pair
/// without bets gets one bare record. With `fail_at`, that call fails.
fn recorder(pages: Arc<Mutex<Vec<usize>>>, fail_at: Option<usize>) -> RecordsFn {
    Box::new(move |pair: &RevealedPair, bets: &[BetRow]| {
        let mut pages = pages.lock().expect("lock");
        pages.push(bets.len());
        if Some(pages.len()) == fail_at {
            return Err(StoreError::other("this page is refused"));
        }
        if bets.is_empty() {
            return Ok(vec![NewRecord {
                scheme: "test".into(),
                body: format!("{}|bare", pair.server_seed),
            }]);
        }
        Ok(bets
            .iter()
            .map(|b| NewRecord {
                scheme: "test".into(),
                body: body(pair, b),
            })
            .collect())
    })
}

/// Every record the player may read, oldest first, read in pages.
async fn all_records(store: &Arc<dyn Store>, player_id: i64) -> Vec<RecordRow> {
    let mut all: Vec<RecordRow> = Vec::new();
    loop {
        let after = all.last().map_or(0, |r| r.id);
        let page = store
            .records_after(RecordReader::Player(player_id), after, 1000)
            .await
            .expect("records");
        if page.is_empty() {
            return all;
        }
        all.extend(page);
    }
}

fn pages() -> Arc<Mutex<Vec<usize>>> {
    Arc::new(Mutex::new(Vec::new()))
}

fn taken(pages: &Arc<Mutex<Vec<usize>>>) -> Vec<usize> {
    std::mem::take(&mut *pages.lock().expect("lock"))
}

async fn rotation(store: Arc<dyn Store>) {
    assert_eq!(ROTATION_PAGE, 1000, "the page sizes below assume it");
    let (player, first) = store
        .create_player(&"r".repeat(64), 1_000_000, pair(1, "client-1"))
        .await
        .expect("player");
    let placed = place(&store, player.id, "a", 2500).await;
    assert!(placed.iter().map(|b| b.nonce).eq(0..2500), "nonces dense");

    // A records function failing on the third page: the pages already
    // stored and the reveal go with it; the pair stays current.
    let seen = pages();
    let failed = store
        .rotate(
            player.id,
            pair(2, "client-2"),
            recorder(seen.clone(), Some(3)),
        )
        .await;
    assert!(matches!(failed, Err(StoreError::Backend(_))), "{failed:?}");
    assert_eq!(taken(&seen), [1000, 1000, 500]);
    let current = store.current_pair(player.id).await.expect("current");
    assert_eq!(
        (current.id, current.commitment, current.next_nonce),
        (first.id, commitment(1), 2500)
    );
    assert!(all_records(&store, player.id).await.is_empty());
    let newest = Page {
        before: None,
        limit: 10,
    };
    assert!(store
        .revealed_pairs(player.id, newest)
        .await
        .expect("revealed")
        .is_empty());

    // The rotation: three pages, every record once, in nonce order.
    let rotation = store
        .rotate(player.id, pair(3, "client-3"), recorder(seen.clone(), None))
        .await
        .expect("rotate");
    assert_eq!(taken(&seen), [1000, 1000, 500]);
    let revealed = RevealedPair {
        id: first.id,
        player_id: player.id,
        commitment: commitment(1),
        server_seed: seed(1).expose().to_owned(),
        client_seed: "client-1".into(),
        bets: 2500,
    };
    assert_eq!(rotation.revealed, revealed);
    assert_eq!(rotation.record_count, 2500);
    let stored = all_records(&store, player.id).await;
    let bodies: Vec<String> = stored.iter().map(|r| r.body.clone()).collect();
    let expected: Vec<String> = placed.iter().map(|b| body(&revealed, b)).collect();
    assert_eq!(bodies, expected, "one record per bet, in nonce order");
    assert!(stored.windows(2).all(|w| w[0].id < w[1].id));
    assert!(stored.iter().all(|r| r.readers == [player.id]));
    assert_eq!(rotation.first_records, stored[..1000], "the first page");
    assert_eq!(
        store
            .revealed_pairs(player.id, newest)
            .await
            .expect("revealed"),
        [revealed]
    );

    // The next pair is committed and takes the next bet at nonce 0.
    let current = store.current_pair(player.id).await.expect("current");
    assert_eq!(
        (current.id, &current.commitment, &current.client_seed),
        (rotation.current.id, &commitment(3), &"client-3".to_owned())
    );
    assert_ne!(current.id, first.id);
    let one_page = place(&store, player.id, "b", 1000).await;
    assert!(one_page.iter().all(|b| b.pair_id == current.id));
    assert!(one_page.iter().map(|b| b.nonce).eq(0..1000));

    // Exactly one page: one call, no bare record after it.
    let again = store
        .rotate(player.id, pair(4, "client-4"), recorder(seen.clone(), None))
        .await
        .expect("rotate a full page");
    assert_eq!(taken(&seen), [1000]);
    assert_eq!(
        (again.record_count, again.first_records.len()),
        (1000, 1000)
    );

    // No bet: one call with none, one bare record.
    let bare = store
        .rotate(player.id, pair(5, "client-5"), recorder(seen.clone(), None))
        .await
        .expect("rotate an empty pair");
    assert_eq!(taken(&seen), [0]);
    assert_eq!(bare.record_count, 1);
    assert_eq!(
        bare.first_records[0].body,
        format!("{}|bare", seed(4).expose())
    );
    assert_eq!(all_records(&store, player.id).await.len(), 2500 + 1000 + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("key");
    let store = SqliteStore::open(&dir.path().join("db.sqlite"), cipher).expect("open");
    rotation(Arc::new(store)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_memory() {
    let store = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("open");
    rotation(Arc::new(store)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres() {
    let Some(url) = common::postgres_url("rotation on PostgreSQL") else {
        return;
    };
    let schema = common::fresh_schema_name();
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([6; 32]))
        .await
        .expect("connect");
    rotation(Arc::new(store.clone())).await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}
