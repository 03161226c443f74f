//! The storage contract, one feature per test, each run against every
//! backend: SQLite (file and memory) always, PostgreSQL when
//! `FAIRSEED_TEST_DB_URI` is set (each test in a fresh schema dropped
//! afterwards). A feature's tests are `<feature>::sqlite_file`,
//! `<feature>::sqlite_memory` and `<feature>::postgres`; a feature that
//! builds on another (records need a rotation, a rotation needs bets) runs
//! that one's steps first.
//!
//! The settle function here is a stand-in for the core's dice: these tests
//! check storage semantics (atomicity, nonces, idempotency, sealing), not
//! the scheme, so it only needs to depend on every input.

use std::collections::BTreeSet;
use std::sync::Arc;

mod common;

// A blanket import: the store's traits, whichever of them a method is on.
#[allow(unused_imports)]
use fairseed_store::*;
use fairseed_store::{
    BetDraw, BetRequest, Commit, Condition, Idempotent, LeaseGrant, NewRecord, NewRound,
    NewSeedPair, Page, PgStore, Player, RecordOut, RecordReader, Refusal, Rotation, RoundChange,
    RoundWrite, SecretSeed, SeedCipher, SeedPair, Settled, SqliteStore, Store, StoreError,
};
use sha2::{Digest, Sha256};

/// Tests of one feature on every backend: `$feature(store)` on SQLite (a
/// file, then memory) and on PostgreSQL in a fresh schema (a visible skip
/// without `FAIRSEED_TEST_DB_URI`).
macro_rules! on_every_backend {
    ($($feature:ident),* $(,)?) => {$(
        mod $feature {
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_file() {
                let dir = tempfile::tempdir().expect("tempdir");
                super::$feature(Arc::new(sqlite_file_store(dir.path()))).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_memory() {
                let store =
                    SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("open");
                super::$feature(Arc::new(store)).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let test = concat!("store scenario ", stringify!($feature), " on PostgreSQL");
                let Some((store, url, schema)) = postgres_store(test).await else {
                    return;
                };
                super::$feature(Arc::new(store.clone())).await;
                store.close().await;
                PgStore::drop_schema(&url, &schema).await.expect("clean up");
            }
        }
    )*};
}

on_every_backend!(
    accounts,
    bets,
    nonces_and_ledger,
    rotation,
    records,
    racing_bets,
    rounds,
    commits,
    leases,
    round_keys,
    log_folds,
);

fn sqlite_file_store(dir: &std::path::Path) -> SqliteStore {
    let cipher = SeedCipher::load_or_create(&dir.join("seed.key")).expect("key");
    SqliteStore::open(&dir.join("db.sqlite"), cipher).expect("open")
}

/// A store on a fresh schema of the test database, with its URL and schema.
async fn postgres_store(test: &str) -> Option<(PgStore, String, String)> {
    let url = common::postgres_url(test)?;
    let schema = common::fresh_schema_name();
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([3u8; 32]))
        .await
        .expect("connect");
    Some((store, url, schema))
}

fn seed(n: u8) -> SecretSeed {
    SecretSeed::new(hex::encode([n; 32]))
}

fn pair(n: u8, client: &str) -> NewSeedPair {
    let server_seed = seed(n);
    let commitment = hex::encode(Sha256::digest(server_seed.expose().as_bytes()));
    NewSeedPair {
        server_seed,
        commitment,
        client_seed: client.to_owned(),
    }
}

/// Roll = a hash of all inputs; wins when roll is even; payout 2x.
fn fake_settle(seed: &SecretSeed, client: &str, nonce: u64, amount: u64, balance: u128) -> Settled {
    let h = Sha256::digest(format!("{}|{client}|{nonce}", seed.expose()));
    let roll = u16::from_be_bytes([h[0], h[1]]) % 10000;
    let win = roll % 2 == 0;
    let payout = if win { u128::from(amount) * 2 } else { 0 };
    Settled {
        roll,
        win,
        payout,
        balance_after: balance - u128::from(amount) + payout,
    }
}

/// A bet whose settle function refuses a stake above the balance (the
/// store only carries the refusal out, writing nothing).
fn bet(player_id: i64, key: &str, amount: u64) -> BetRequest {
    BetRequest {
        player_id,
        idempotency_key: key.to_owned(),
        amount,
        condition: Condition::Under,
        target: 5000,
        settle: Box::new(move |d: BetDraw<'_>| {
            if u128::from(amount) > d.balance {
                return Err(StoreError::conflict(Refusal::InsufficientBalance, "broke"));
            }
            Ok(fake_settle(
                d.server_seed,
                d.client_seed,
                d.nonce,
                amount,
                d.balance,
            ))
        }),
    }
}

/// Alice (1000 chips) and Bob (50), each with a first pair; Alice's client
/// seed is `mine`.
struct Accounts {
    alice: Player,
    bob: Player,
    a_pair: SeedPair,
}

/// Players and their first pair; a client seed only with the shown
/// commitment.
async fn open_accounts(store: &Arc<dyn Store>) -> Accounts {
    store.health().await.expect("health");

    // Players and their first pair.
    let (alice, a_pair) = store
        .create_player(&"a".repeat(64), 1000, pair(1, "alice-c"))
        .await
        .expect("alice");
    let (bob, _) = store
        .create_player(&"b".repeat(64), 50, pair(2, "bob-c"))
        .await
        .expect("bob");
    assert_eq!(alice.balance, 1000);
    assert_eq!(a_pair.next_nonce, 0);
    assert_eq!(
        store
            .player_by_token(&"a".repeat(64))
            .await
            .expect("by token")
            .id,
        alice.id
    );
    assert!(matches!(
        store.player_by_token(&"c".repeat(64)).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.create_player(&"a".repeat(64), 1, pair(3, "x")).await,
        Err(StoreError::Conflict { .. })
    ));

    // Client seed: only with the shown commitment, only before a bet.
    let wrong = store
        .set_client_seed(alice.id, &"0".repeat(64), "mine")
        .await
        .expect("wrong commitment");
    assert_eq!(wrong, None, "another commitment changes nothing");
    let set = store
        .set_client_seed(alice.id, &a_pair.commitment, "mine")
        .await
        .expect("set")
        .expect("the shown pair, unused");
    assert_eq!(set.client_seed, "mine");
    Accounts { alice, bob, a_pair }
}

/// A bet, its replay, a reused key, a refused bet; a pair with a bet keeps
/// its client seed.
async fn first_bets(store: &Arc<dyn Store>, accounts: &Accounts) {
    let (alice, bob, a_pair) = (
        accounts.alice.clone(),
        accounts.bob.clone(),
        accounts.a_pair.clone(),
    );
    // A bet, its replay, a reused key, a refused bet.
    let first = store
        .place_bet(bet(alice.id, "k1", 100))
        .await
        .expect("bet");
    assert!(!first.replayed);
    assert_eq!(first.bet.nonce, 0);
    assert_eq!(first.bet.pair_id, a_pair.id);
    let expected = fake_settle(&seed(1), "mine", 0, 100, 1000);
    assert_eq!(
        (first.bet.roll, first.bet.win, first.bet.payout),
        (expected.roll, expected.win, expected.payout)
    );
    assert_eq!(first.bet.balance_after, 1000 - 100 + expected.payout);
    let again = store
        .place_bet(bet(alice.id, "k1", 100))
        .await
        .expect("replay");
    assert!(again.replayed);
    assert_eq!(again.bet, first.bet);
    let reused = store
        .place_bet(bet(alice.id, "k1", 101))
        .await
        .expect("reused key");
    assert!(reused.replayed);
    assert_eq!(reused.bet, first.bet, "the first bet, whatever was asked");
    let broke = store.place_bet(bet(bob.id, "k1", 51)).await;
    assert!(
        matches!(
            broke,
            Err(StoreError::Conflict {
                code: Refusal::InsufficientBalance,
                ..
            })
        ),
        "{broke:?}"
    );
    assert_eq!(
        store.player(bob.id).await.expect("bob").balance,
        50,
        "a refused bet changes nothing"
    );
    assert_eq!(
        store
            .current_pair(bob.id)
            .await
            .expect("bob pair")
            .next_nonce,
        0,
        "and uses no nonce"
    );
    let locked = store
        .set_client_seed(alice.id, &a_pair.commitment, "late")
        .await
        .expect("after a bet");
    assert_eq!(locked, None, "a pair with a bet keeps its client seed");
    assert_eq!(
        store
            .current_pair(alice.id)
            .await
            .expect("pair")
            .client_seed,
        "mine"
    );
}

/// Concurrent bets on one pair take distinct, consecutive nonces; the
/// balance is the opening balance plus the history; history pages.
async fn concurrent_bets(store: &Arc<dyn Store>, accounts: &Accounts) {
    let (alice, bob, a_pair) = (
        accounts.alice.clone(),
        accounts.bob.clone(),
        accounts.a_pair.clone(),
    );
    // Concurrent bets on one pair: distinct, consecutive nonces.
    let mut tasks = Vec::new();
    for i in 0..40 {
        let store = Arc::clone(store);
        tasks.push(tokio::spawn(async move {
            store.place_bet(bet(alice.id, &format!("c{i}"), 1)).await
        }));
    }
    let mut nonces = BTreeSet::new();
    for t in tasks {
        let receipt = t.await.expect("join").expect("concurrent bet");
        assert!(
            nonces.insert(receipt.bet.nonce),
            "nonce {} reused",
            receipt.bet.nonce
        );
    }
    assert_eq!(nonces, (1..=40).collect::<BTreeSet<u64>>());

    // Balance equals opening balance plus history.
    let history = store
        .bets(
            alice.id,
            None,
            Page {
                before: None,
                limit: 1000,
            },
        )
        .await
        .expect("history");
    assert_eq!(history.len(), 41);
    let net: i128 = history
        .iter()
        .map(|b| b.payout as i128 - i128::from(b.amount))
        .sum();
    let alice_now = store.player(alice.id).await.expect("alice");
    assert_eq!(alice_now.balance as i128, 1000 + net);
    assert_eq!(history[0].balance_after, alice_now.balance, "newest first");

    // Paging.
    let page1 = store
        .bets(
            alice.id,
            Some(a_pair.id),
            Page {
                before: None,
                limit: 10,
            },
        )
        .await
        .expect("p1");
    let page2 = store
        .bets(
            alice.id,
            Some(a_pair.id),
            Page {
                before: Some(page1[9].id),
                limit: 10,
            },
        )
        .await
        .expect("p2");
    assert_eq!(page1.len(), 10);
    assert!(page2.iter().all(|b| b.id < page1[9].id));
    assert!(store
        .bets(
            bob.id,
            None,
            Page {
                before: None,
                limit: 10
            }
        )
        .await
        .expect("bob bets")
        .is_empty());
}

/// Rotation reveals the seed and writes its records in the same
/// transaction; the next bet lands on the new pair.
async fn rotate_with_records(store: &Arc<dyn Store>, accounts: &Accounts) -> Rotation {
    let (alice, bob, a_pair) = (
        accounts.alice.clone(),
        accounts.bob.clone(),
        accounts.a_pair.clone(),
    );
    // Rotation reveals the seed, writes records in the same transaction.
    let rotation = store
        .rotate(
            alice.id,
            pair(9, "next-c"),
            Box::new(|revealed, bets| {
                Ok(bets
                    .iter()
                    .map(|b| NewRecord {
                        scheme: "dice_v1".into(),
                        body: format!(
                            "{{\"seed\":\"{}\",\"nonce\":{}}}",
                            revealed.server_seed, b.nonce
                        ),
                    })
                    .collect())
            }),
        )
        .await
        .expect("rotate");
    assert_eq!(rotation.revealed.server_seed, seed(1).expose());
    assert_eq!(rotation.revealed.client_seed, "mine");
    assert_eq!(rotation.revealed.bets, 41);
    assert_eq!(rotation.record_count, 41);
    assert_eq!(rotation.first_records.len(), 41);
    assert_eq!(rotation.current.next_nonce, 0);
    assert_ne!(rotation.current.id, a_pair.id);
    let after = store
        .place_bet(bet(alice.id, "after", 1))
        .await
        .expect("bet on new pair");
    assert_eq!(
        (after.bet.pair_id, after.bet.nonce),
        (rotation.current.id, 0)
    );
    let revealed = store
        .revealed_pairs(
            alice.id,
            Page {
                before: None,
                limit: 10,
            },
        )
        .await
        .expect("revealed");
    assert_eq!(revealed, vec![rotation.revealed.clone()]);
    assert!(store
        .revealed_pairs(
            bob.id,
            Page {
                before: None,
                limit: 10
            }
        )
        .await
        .expect("bob")
        .is_empty());
    rotation
}

/// Records: a player reads only theirs; the operator reads all; the export
/// runs oldest first.
async fn records_by_viewer(store: &Arc<dyn Store>, accounts: &Accounts, rotation: &Rotation) {
    let (alice, bob) = (accounts.alice.clone(), accounts.bob.clone());
    // Records: a player sees only theirs; the operator sees all.
    let op = store
        .import_record(
            RecordOut::operator(NewRecord {
                scheme: "selfpoker".into(),
                body: "{}".into(),
            }),
            None,
        )
        .await
        .expect("operator record");
    let first_record = rotation.first_records[0].clone();
    assert_eq!(
        store
            .record(RecordReader::Player(alice.id), first_record.id)
            .await
            .expect("own"),
        first_record
    );
    assert!(matches!(
        store
            .record(RecordReader::Player(bob.id), first_record.id)
            .await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.record(RecordReader::Player(alice.id), op.id).await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(
        store
            .record(RecordReader::Operator, op.id)
            .await
            .expect("op")
            .scheme,
        "selfpoker"
    );
    // Several at once: only those the viewer may read, whatever the order
    // asked; an id of no record is left out.
    let asked = vec![op.id, i64::MAX, first_record.id];
    let ids = |rows: Vec<RecordRow>| {
        let mut ids: Vec<i64> = rows.into_iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids
    };
    assert_eq!(
        ids(store
            .records_with_ids(RecordReader::Player(alice.id), asked.clone())
            .await
            .expect("alice's among them")),
        vec![first_record.id]
    );
    assert!(store
        .records_with_ids(RecordReader::Player(bob.id), asked.clone())
        .await
        .expect("bob's among them")
        .is_empty());
    let mut both = vec![first_record.id, op.id];
    both.sort_unstable();
    assert_eq!(
        ids(store
            .records_with_ids(RecordReader::Operator, asked)
            .await
            .expect("the operator's")),
        both
    );
    let mine = store
        .records(
            RecordReader::Player(alice.id),
            Page {
                before: None,
                limit: 100,
            },
        )
        .await
        .expect("mine");
    assert_eq!(mine.len(), 41);
    let exported = store
        .records_after(RecordReader::Player(alice.id), 0, 1000)
        .await
        .expect("export");
    assert_eq!(exported.first(), Some(&first_record), "oldest first");
    assert!(exported.windows(2).all(|w| w[0].id < w[1].id));
}

async fn accounts(store: Arc<dyn Store>) {
    open_accounts(&store).await;
}

async fn bets(store: Arc<dyn Store>) {
    let accounts = open_accounts(&store).await;
    first_bets(&store, &accounts).await;
}

async fn nonces_and_ledger(store: Arc<dyn Store>) {
    let accounts = open_accounts(&store).await;
    first_bets(&store, &accounts).await;
    concurrent_bets(&store, &accounts).await;
}

async fn rotation(store: Arc<dyn Store>) {
    let accounts = open_accounts(&store).await;
    first_bets(&store, &accounts).await;
    concurrent_bets(&store, &accounts).await;
    rotate_with_records(&store, &accounts).await;
}

async fn records(store: Arc<dyn Store>) {
    let accounts = open_accounts(&store).await;
    first_bets(&store, &accounts).await;
    concurrent_bets(&store, &accounts).await;
    let rotation = rotate_with_records(&store, &accounts).await;
    records_by_viewer(&store, &accounts, &rotation).await;
}

/// Two players to own and read rounds and records.
async fn two_players(store: &Arc<dyn Store>) -> (i64, i64) {
    let (alice, _) = store
        .create_player(&"a".repeat(64), 1000, pair(1, "alice-c"))
        .await
        .expect("alice");
    let (bob, _) = store
        .create_player(&"b".repeat(64), 50, pair(2, "bob-c"))
        .await
        .expect("bob");
    (alice.id, bob.id)
}

async fn racing_bets(store: Arc<dyn Store>) {
    races(store).await;
}

async fn rounds(store: Arc<dyn Store>) {
    let (owner, other) = two_players(&store).await;
    rounds_of(store, owner, other).await;
}

async fn commits(store: Arc<dyn Store>) {
    let (alice, bob) = two_players(&store).await;
    commits_of(store, alice, bob).await;
}

async fn leases(store: Arc<dyn Store>) {
    leases_of(store).await;
}

/// Bets racing each other, their own retries, a client seed change and a
/// rotation: every bet is settled from the state it is stored with. Each
/// roll is checked against its pair's revealed seed and final client seed,
/// each pair's nonces run 0, 1, 2… and the balances chain bet to bet.
async fn races(store: Arc<dyn Store>) {
    let (racer, first) = store
        .create_player(&"r".repeat(64), 1_000_000, pair(20, "r0"))
        .await
        .expect("racer");

    // Sixteen sends of one key: one bet, fifteen replays of it.
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            store.place_bet(bet(racer.id, "same", 3)).await
        }));
    }
    let mut ids = BTreeSet::new();
    let mut fresh = 0;
    for t in tasks {
        let receipt = t.await.expect("join").expect("same-key bet");
        ids.insert(receipt.bet.id);
        fresh += usize::from(!receipt.replayed);
    }
    assert_eq!((ids.len(), fresh), (1, 1), "one bet under one key");

    // Bets while the pair rotates, then while the next pair's client seed
    // changes (allowed only before its first bet).
    let next = pair(21, "r1");
    let next_commitment = next.commitment.clone();
    let mut tasks = Vec::new();
    let mut revealed_with = None;
    for i in 0..60 {
        let racing = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            racing.place_bet(bet(racer.id, &format!("r{i}"), 1)).await
        }));
        if i == 20 {
            let rotation = store
                .rotate(racer.id, next.clone(), Box::new(|_, _| Ok(Vec::new())))
                .await
                .expect("rotate while betting");
            revealed_with = Some(rotation.revealed.bets);
            store
                .set_client_seed(racer.id, &next_commitment, "changed")
                .await
                .expect("set client seed while betting");
        }
    }
    for t in tasks {
        t.await.expect("join").expect("racing bet");
    }
    store
        .rotate(racer.id, pair(22, "r2"), Box::new(|_, _| Ok(Vec::new())))
        .await
        .expect("reveal the last pair");

    let all = Page {
        before: None,
        limit: 1000,
    };
    let pairs = store.revealed_pairs(racer.id, all).await.expect("pairs");
    let mut bets = store.bets(racer.id, None, all).await.expect("bets");
    bets.sort_by_key(|b| b.id);
    assert_eq!(bets.len(), 61);
    let mut balance = 1_000_000u128;
    for p in &pairs {
        let nonces: Vec<u64> = bets
            .iter()
            .filter(|b| b.pair_id == p.id)
            .map(|b| b.nonce)
            .collect();
        assert_eq!(nonces, (0..p.bets).collect::<Vec<u64>>(), "pair {}", p.id);
    }
    for b in &bets {
        let p = pairs.iter().find(|p| p.id == b.pair_id).expect("its pair");
        let seed = SecretSeed::new(p.server_seed.clone());
        let settled = fake_settle(&seed, &p.client_seed, b.nonce, b.amount, balance);
        assert_eq!(
            (b.roll, b.payout, b.balance_after),
            (settled.roll, settled.payout, settled.balance_after),
            "bet {} (pair {}, nonce {}) was settled from another state",
            b.id,
            b.pair_id,
            b.nonce
        );
        balance = b.balance_after;
    }
    assert_eq!(
        store.player(racer.id).await.expect("racer").balance,
        balance
    );
    let on_first = bets.iter().filter(|b| b.pair_id == first.id).count();
    assert_eq!(
        Some(on_first as u64),
        revealed_with,
        "no bet lands on a pair after its reveal"
    );
}

/// Rounds: sealed secret, versioned steps with a log, reveal with records.
async fn rounds_of(store: Arc<dyn Store>, owner: i64, other: i64) {
    let secret = seed(5);
    let new = NewRound {
        id: "match:m1".into(),
        kind: "match".into(),
        commitment: "c-m1".into(),
        secret: secret.clone(),
        key: None,
        state: "0".into(),
        status: "open".into(),
    };
    let created = store
        .commit(Commit {
            creates: vec![new.clone()],
            ..Commit::default()
        })
        .await
        .expect("create round");
    assert_eq!(
        (created[0].row.log_len, created[0].row.revealed.clone()),
        (0, None)
    );

    // Concurrent steps, each loading and committing until its version
    // holds: every one lands once, on the state the previous one left.
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let store = Arc::clone(&store);
        let expected = secret.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let loaded = store
                    .load_rounds(&["match:m1".to_owned()])
                    .await
                    .expect("load");
                assert_eq!(loaded[0].secret.as_ref(), Some(&expected));
                let row = &loaded[0].row;
                let n: u64 = row.state.parse().expect("a number");
                let write = RoundWrite {
                    id: row.id.clone(),
                    expected_version: row.version,
                    change: RoundChange {
                        state: (n + 1).to_string(),
                        status: "started".into(),
                        log: vec![format!("{{\"draw\":{n}}}")],
                        ..RoundChange::default()
                    },
                };
                let commit = Commit {
                    writes: vec![write],
                    ..Commit::default()
                };
                match store.commit(commit).await {
                    Ok(_) => return,
                    Err(e) => assert_eq!(conflict_code::<()>(Err(e)), "version_conflict"),
                }
            }
        }));
    }
    for t in tasks {
        t.await.expect("join");
    }
    let row = store.round("match:m1").await.expect("round");
    assert_eq!(
        (
            row.state.as_str(),
            row.status.as_str(),
            row.log_len,
            row.version
        ),
        ("20", "started", 20, 20)
    );
    let log = store.round_log("match:m1", 5, 3).await.expect("log");
    assert_eq!(log.iter().map(|l| l.seq).collect::<Vec<_>>(), vec![5, 6, 7]);
    assert_eq!(log[0].body, "{\"draw\":5}");
    assert_eq!(
        store
            .rounds_with_status("match", "started")
            .await
            .expect("list"),
        vec!["match:m1".to_owned()]
    );

    // Reveal with a record two players read and one only the operator reads.
    let reveal = RoundWrite {
        id: "match:m1".into(),
        expected_version: 20,
        change: RoundChange {
            state: row.state.clone(),
            status: "finished".into(),
            log: vec!["{}".into()],
            reveal: true,
            records: vec![
                RecordOut {
                    record: NewRecord {
                        scheme: "match_seed_v2".into(),
                        body: format!("{{\"s\":\"{}\"}}", secret.expose()),
                    },
                    readers: vec![other, owner, owner],
                },
                RecordOut::operator(NewRecord {
                    scheme: "match_seed_v2".into(),
                    body: "{}".into(),
                }),
            ],
            fold: None,
        },
    };
    let done = store
        .commit(Commit {
            writes: vec![reveal],
            ..Commit::default()
        })
        .await
        .expect("finish")
        .remove(0);
    assert_eq!(done.row.revealed.as_deref(), Some(secret.expose()));
    assert_eq!(done.log[0].seq, 20);
    assert_eq!(done.records.len(), 2);
    let mut both = vec![owner, other];
    both.sort_unstable();
    assert_eq!(done.records[0].readers, both, "each reader once, ascending");
    assert!(done.records[1].readers.is_empty());
    // Stored once, readable by each of its readers, exported once.
    let shared = done.records[0].clone();
    for viewer in [
        RecordReader::Player(owner),
        RecordReader::Player(other),
        RecordReader::Operator,
    ] {
        assert_eq!(
            store.record(viewer, shared.id).await.expect("readable"),
            shared
        );
    }
    let exported = store
        .records_after(RecordReader::Operator, shared.id - 1, 10)
        .await
        .expect("export");
    assert_eq!(
        exported.iter().filter(|r| r.body == shared.body).count(),
        1,
        "one export line per record"
    );
    assert!(matches!(
        store
            .record(RecordReader::Player(owner), done.records[1].id)
            .await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(
        store
            .round("match:m1")
            .await
            .expect("round")
            .revealed
            .as_deref(),
        Some(secret.expose())
    );
    let loaded = store
        .load_rounds(&["match:m1".to_owned()])
        .await
        .expect("load revealed");
    assert!(
        loaded[0].secret.is_none(),
        "a revealed round has no sealed secret left"
    );
    assert!(matches!(
        store.round("nope").await,
        Err(StoreError::NotFound(_))
    ));
}

/// A round's key (a live table's evidence key): stored sealed beside the
/// round, loaded with it, and still there, unrevealed, after the round's
/// secret is revealed; a round without one loads without one.
async fn round_keys(store: Arc<dyn Store>) {
    let key = seed(7);
    let with_key = NewRound {
        key: Some(key.clone()),
        ..new_round("holdem_table:k1", 3)
    };
    store
        .commit(Commit {
            creates: vec![with_key, new_round("holdem_table:k2", 4)],
            ..Commit::default()
        })
        .await
        .expect("create rounds");
    let ids = ["holdem_table:k1".to_owned(), "holdem_table:k2".to_owned()];
    let loaded = store.load_rounds(&ids).await.expect("load");
    assert_eq!(loaded[0].key.as_ref(), Some(&key));
    assert_eq!(loaded[0].secret.as_ref(), Some(&seed(3)));
    assert_eq!(loaded[1].key, None);
    let reveal = RoundWrite {
        change: RoundChange {
            reveal: true,
            status: "closed".into(),
            ..write("holdem_table:k1", 0, "done").change
        },
        ..write("holdem_table:k1", 0, "done")
    };
    let updates = store
        .commit(Commit {
            writes: vec![reveal],
            ..Commit::default()
        })
        .await
        .expect("reveal");
    assert_eq!(updates[0].row.revealed.as_deref(), Some(seed(3).expose()));
    let loaded = store.load_rounds(&ids[..1]).await.expect("load again");
    assert_eq!(
        (loaded[0].secret.as_ref(), loaded[0].key.as_ref()),
        (None, Some(&key)),
        "the seed is revealed, the key is not"
    );
    let row = store.round("holdem_table:k1").await.expect("row");
    assert_ne!(row.revealed.as_deref(), Some(key.expose()));
}

/// A log folded into the records its step stores: rows from the fold's
/// `before` on stay whole, the earlier rows records stand for become rows
/// naming them (at most `FOLDED_PER_ROW` each, at the last one's place),
/// the other earlier rows go, and so do the idempotency keys the fold
/// names (no other key); a fold that does not match its records changes
/// nothing at all.
async fn log_folds(store: Arc<dyn Store>) {
    let (alice, bob) = two_players(&store).await;
    let id = "holdem_table:f1";
    store
        .commit(Commit {
            creates: vec![new_round(id, 5)],
            ..Commit::default()
        })
        .await
        .expect("create");
    let body = |n: usize| format!("{{\"n\":{n}}}");
    let keyed = |scope: i64, key: &str| Idempotent {
        scope: format!("player:{scope}"),
        key: key.into(),
        request_hash: "h".into(),
        response: "{}".into(),
        record_ids_at: Vec::new(),
    };
    for (version, key) in [(0, "t:f1:a"), (1, "t:f1:b"), (2, "t:f10:a")] {
        store
            .commit(Commit {
                writes: vec![RoundWrite {
                    change: RoundChange {
                        log: (0..3).map(|i| body(3 * version as usize + i)).collect(),
                        ..write(id, version, "s").change
                    },
                    ..write(id, version, "s")
                }],
                idempotent: Some(keyed(alice, key)),
                ..Commit::default()
            })
            .await
            .expect("play");
    }
    store
        .commit(Commit {
            writes: vec![RoundWrite {
                change: RoundChange {
                    log: Vec::new(),
                    ..write(id, 3, "s").change
                },
                ..write(id, 3, "s")
            }],
            idempotent: Some(keyed(bob, "t:f1:c")),
            ..Commit::default()
        })
        .await
        .expect("bob");
    let record = |n: usize| RecordOut {
        record: NewRecord {
            scheme: "holdem_hand_v1".into(),
            body: body(100 + n),
        },
        readers: vec![alice],
    };
    let fold = |records_at: Vec<u64>| LogFold {
        before: 6,
        records_at,
        keys: vec![KeyPrefix {
            scope: format!("player:{alice}"),
            prefix: "t:f1:".into(),
        }],
    };
    let folding = |version: u64, records_at: Vec<u64>| Commit {
        writes: vec![RoundWrite {
            change: RoundChange {
                log: Vec::new(),
                status: "archived".into(),
                records: vec![record(0), record(1), record(2)],
                fold: Some(fold(records_at)),
                ..write(id, version, "s").change
            },
            ..write(id, version, "s")
        }],
        ..Commit::default()
    };
    let whole = store.round_log(id, 0, 100).await.expect("log");
    for wrong in [vec![2, 5], vec![5, 2, 7]] {
        assert!(store.commit(folding(4, wrong)).await.is_err());
    }
    assert_eq!(store.round_log(id, 0, 100).await.expect("log"), whole);
    let done = store.commit(folding(4, vec![2, 5, 7])).await.expect("fold");
    let ids: Vec<i64> = done[0].records.iter().map(|r| r.id).collect();
    let log = store.round_log(id, 0, 100).await.expect("log");
    let seqs: Vec<(u64, String)> = log.into_iter().map(|r| (r.seq, r.body)).collect();
    assert_eq!(
        seqs,
        vec![
            (5, folded_row(&[(2, ids[0]), (5, ids[1])])),
            (6, body(6)),
            (7, body(7)),
            (8, body(8)),
        ]
    );
    assert_eq!(
        folded_records(&seqs[0].1),
        Some(vec![(2, ids[0]), (5, ids[1])])
    );
    let row = store.round(id).await.expect("row");
    assert_eq!((row.log_len, row.status.as_str()), (9, "archived"));
    let kept = |scope: i64, key: &'static str| {
        let store = store.clone();
        async move {
            store
                .idempotent_response(&format!("player:{scope}"), key)
                .await
                .expect("read")
                .is_some()
        }
    };
    assert!(!kept(alice, "t:f1:a").await);
    assert!(!kept(alice, "t:f1:b").await);
    assert!(kept(alice, "t:f10:a").await, "another prefix");
    assert!(kept(bob, "t:f1:c").await, "another scope");

    // A long log: its records named a row's worth at a time.
    let long = "holdem_table:f2";
    let n = FOLDED_PER_ROW + 2;
    store
        .commit(Commit {
            creates: vec![new_round(long, 6)],
            ..Commit::default()
        })
        .await
        .expect("create");
    store
        .commit(Commit {
            writes: vec![RoundWrite {
                change: RoundChange {
                    log: (0..n).map(body).collect(),
                    ..write(long, 0, "s").change
                },
                ..write(long, 0, "s")
            }],
            ..Commit::default()
        })
        .await
        .expect("play");
    let every = n as u64;
    let done = store
        .commit(Commit {
            writes: vec![RoundWrite {
                change: RoundChange {
                    log: Vec::new(),
                    records: (0..n).map(record).collect(),
                    fold: Some(LogFold {
                        before: every,
                        records_at: (0..every).collect(),
                        keys: Vec::new(),
                    }),
                    ..write(long, 1, "s").change
                },
                ..write(long, 1, "s")
            }],
            ..Commit::default()
        })
        .await
        .expect("fold");
    let pairs: Vec<(u64, i64)> = (0..every)
        .zip(done[0].records.iter().map(|r| r.id))
        .collect();
    let log = store.round_log(long, 0, 100).await.expect("log");
    let rows: Vec<(u64, Vec<(u64, i64)>)> = log
        .iter()
        .map(|r| (r.seq, folded_records(&r.body).expect("folded")))
        .collect();
    let split = FOLDED_PER_ROW;
    assert_eq!(
        rows,
        vec![
            (split as u64 - 1, pairs[..split].to_vec()),
            (every - 1, pairs[split..].to_vec()),
        ]
    );
}

fn new_round(id: &str, n: u8) -> NewRound {
    NewRound {
        id: id.into(),
        kind: "poker".into(),
        commitment: format!("c-{id}"),
        secret: seed(n),
        key: None,
        state: "{}".into(),
        status: "open".into(),
    }
}

fn write(id: &str, expected_version: u64, state: &str) -> RoundWrite {
    RoundWrite {
        id: id.into(),
        expected_version,
        change: RoundChange {
            state: state.into(),
            status: "open".into(),
            log: vec![format!("{{\"state\":\"{state}\"}}")],
            ..RoundChange::default()
        },
    }
}

fn conflict_code<T: std::fmt::Debug>(result: Result<T, StoreError>) -> &'static str {
    match result {
        Err(StoreError::Conflict { code, .. }) => code.code(),
        other => panic!("expected a conflict, got {other:?}"),
    }
}

/// Versioned commits: creates, compare-and-swap writes, all or nothing,
/// idempotency entries and records with several readers.
async fn commits_of(store: Arc<dyn Store>, alice: i64, bob: i64) {
    let created = store
        .commit(Commit {
            creates: vec![new_round("poker:a", 11), new_round("poker:b", 12)],
            ..Commit::default()
        })
        .await
        .expect("create two");
    assert_eq!(created.len(), 2);
    assert_eq!(
        (created[0].row.version, created[1].row.id.as_str()),
        (0, "poker:b")
    );

    // Loads come in the order asked, with the secret of an unrevealed round.
    let ids = ["poker:b".to_owned(), "poker:a".to_owned()];
    let loaded = store.load_rounds(&ids).await.expect("load");
    assert_eq!(loaded[0].row.id, "poker:b");
    assert_eq!(loaded[0].secret, Some(seed(12)));
    assert_eq!(loaded[1].secret, Some(seed(11)));
    assert!(matches!(
        store
            .load_rounds(&["poker:a".to_owned(), "nope".to_owned()])
            .await,
        Err(StoreError::NotFound("round"))
    ));

    // A write at the loaded version lands and bumps it; the same write
    // again (a stale version) is refused.
    let first = store
        .commit(Commit {
            writes: vec![write("poker:b", 0, "b1"), write("poker:a", 0, "a1")],
            ..Commit::default()
        })
        .await
        .expect("write both");
    assert_eq!(
        first
            .iter()
            .map(|u| (u.row.id.as_str(), u.row.version))
            .collect::<Vec<_>>(),
        vec![("poker:b", 1), ("poker:a", 1)],
        "one update per write, in the order given"
    );
    assert_eq!(first[0].log[0].seq, 0);
    let stale = store
        .commit(Commit {
            writes: vec![write("poker:a", 0, "a-stale")],
            ..Commit::default()
        })
        .await;
    assert_eq!(conflict_code(stale), "version_conflict");

    // All or nothing: a create, a good write, a stale write, an idempotency
    // entry — the stale write refuses the whole commit.
    let key = Idempotent {
        scope: "operator".into(),
        key: "k-1".into(),
        request_hash: "h1".into(),
        response: "{\"ok\":1}".into(),
        record_ids_at: Vec::new(),
    };
    let mixed = store
        .commit(Commit {
            creates: vec![new_round("poker:c", 13)],
            writes: vec![write("poker:a", 1, "a2"), write("poker:b", 0, "b-stale")],
            idempotent: Some(key.clone()),
            log: Vec::new(),
        })
        .await;
    assert_eq!(conflict_code(mixed), "version_conflict");
    assert!(matches!(
        store.round("poker:c").await,
        Err(StoreError::NotFound(_))
    ));
    let a = store.round("poker:a").await.expect("a");
    assert_eq!((a.state.as_str(), a.version, a.log_len), ("a1", 1, 1));
    assert_eq!(
        store
            .idempotent_response("operator", "k-1")
            .await
            .expect("read key"),
        None
    );

    // An existing id refuses a create; a duplicate write is refused.
    let exists = store
        .commit(Commit {
            creates: vec![new_round("poker:a", 14)],
            ..Commit::default()
        })
        .await;
    assert_eq!(conflict_code(exists), "round_exists");
    let twice = store
        .commit(Commit {
            writes: vec![write("poker:a", 1, "x"), write("poker:a", 1, "y")],
            ..Commit::default()
        })
        .await;
    assert_eq!(conflict_code(twice), "duplicate_round");

    // The idempotency entry commits with the change and is read back; the
    // same key again is refused, in another scope it is free.
    let mut reveal = write("poker:a", 1, "a2");
    reveal.change.reveal = true;
    reveal.change.records = vec![RecordOut {
        record: NewRecord {
            scheme: "poker_hmac_v1".into(),
            body: "{\"session\":\"a\"}".into(),
        },
        readers: vec![alice, bob],
    }];
    let done = store
        .commit(Commit {
            writes: vec![reveal],
            idempotent: Some(key.clone()),
            ..Commit::default()
        })
        .await
        .expect("reveal with key");
    assert_eq!(done[0].row.revealed.as_deref(), Some(seed(11).expose()));
    assert_eq!(
        store
            .idempotent_response("operator", "k-1")
            .await
            .expect("read key"),
        Some(("h1".to_owned(), "{\"ok\":1}".to_owned()))
    );
    let used = store
        .commit(Commit {
            writes: vec![write("poker:a", 2, "a3")],
            idempotent: Some(key.clone()),
            ..Commit::default()
        })
        .await;
    assert_eq!(conflict_code(used), "idempotency_key_used");
    assert_eq!(store.round("poker:a").await.expect("a").version, 2);
    store
        .commit(Commit {
            idempotent: Some(Idempotent {
                scope: format!("player:{alice}"),
                ..key
            }),
            ..Commit::default()
        })
        .await
        .expect("same key, other scope");

    // The revealed round loads without a secret; its record is one row
    // both players read.
    let loaded = store
        .load_rounds(&["poker:a".to_owned()])
        .await
        .expect("load revealed");
    assert_eq!(loaded[0].secret, None);
    let record = &done[0].records[0];
    for viewer in [alice, bob] {
        let page = Page {
            before: None,
            limit: 5,
        };
        let mine = store
            .records(RecordReader::Player(viewer), page)
            .await
            .expect("mine");
        assert_eq!(mine.iter().filter(|r| r.id == record.id).count(), 1);
    }

    // Racing commits at one version: exactly one wins.
    let mut tasks = Vec::new();
    for i in 0..6 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            store
                .commit(Commit {
                    writes: vec![write("poker:b", 1, &format!("race-{i}"))],
                    ..Commit::default()
                })
                .await
        }));
    }
    let mut won = 0;
    for t in tasks {
        match t.await.expect("join") {
            Ok(_) => won += 1,
            Err(e) => assert_eq!(conflict_code::<()>(Err(e)), "version_conflict"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(store.round("poker:b").await.expect("b").version, 2);
}

/// Leases: one owner at a time; expiry lets another take over.
async fn leases_of(store: Arc<dyn Store>) {
    let granted = |took_over_from: Option<&str>| LeaseGrant::Granted {
        took_over_from: took_over_from.map(str::to_owned),
    };
    let acquire = |resource: &'static str, owner: &'static str, now: i64| {
        let store = Arc::clone(&store);
        async move {
            store
                .acquire_lease(resource, owner, now, 1000)
                .await
                .expect("acquire")
        }
    };
    assert_eq!(acquire("session:t1", "p1", 10_000).await, granted(None));
    assert_eq!(
        acquire("session:t1", "p1", 10_500).await,
        granted(None),
        "ours"
    );
    assert_eq!(
        acquire("session:t1", "p2", 11_000).await,
        LeaseGrant::HeldBy("p1".into()),
        "live until 11 500"
    );
    assert_eq!(acquire("session:t2", "p2", 11_000).await, granted(None));
    assert_eq!(
        store.renew_leases("p1", 12_000, 1000).await.expect("renew"),
        1
    );
    assert_eq!(
        acquire("session:t1", "p2", 12_900).await,
        LeaseGrant::HeldBy("p1".into()),
        "renewed to 13 000"
    );
    assert_eq!(
        store
            .expired_leases("session:", 13_001)
            .await
            .expect("expired"),
        vec!["session:t1".to_owned(), "session:t2".to_owned()]
    );
    assert!(store
        .expired_leases("other:", 13_001)
        .await
        .expect("prefix")
        .is_empty());
    assert_eq!(
        acquire("session:t1", "p2", 13_001).await,
        granted(Some("p1"))
    );
    store
        .release_lease("session:t1", "p1")
        .await
        .expect("not p1's any more");
    assert_eq!(
        acquire("session:t1", "p3", 13_002).await,
        LeaseGrant::HeldBy("p2".into())
    );
    store
        .release_lease("session:t1", "p2")
        .await
        .expect("release");
    assert_eq!(acquire("session:t1", "p3", 13_003).await, granted(None));

    // A clean shutdown hands every lease over at once, expiry or not.
    assert_eq!(acquire("session:t4", "p3", 13_004).await, granted(None));
    assert_eq!(
        store
            .release_leases("p3", 13_005)
            .await
            .expect("release all"),
        2,
        "t1 and t4"
    );
    assert_eq!(
        acquire("session:t4", "p4", 13_005).await,
        granted(Some("p3"))
    );
}

/// SQLite: reopening with the same key works, with another key is refused;
/// the database file alone holds no unrevealed seed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sealed_seeds_sqlite_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store: Arc<dyn Store> = Arc::new(sqlite_file_store(dir.path()));
    // Alice's pair rotated to pair 9, whose seed is unrevealed.
    let accounts = open_accounts(&store).await;
    first_bets(&store, &accounts).await;
    concurrent_bets(&store, &accounts).await;
    rotate_with_records(&store, &accounts).await;

    // Reopening with the same key works; with another key it is refused.
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("key");
    SqliteStore::open(&dir.path().join("db.sqlite"), cipher).expect("reopen");
    let other = SqliteStore::open(&dir.path().join("db.sqlite"), SeedCipher::from_key([1; 32]));
    assert!(other.is_err(), "a different key must be refused");

    // The database file alone holds no unrevealed seed.
    let raw = std::fs::read(dir.path().join("db.sqlite")).expect("read db");
    let wal = std::fs::read(dir.path().join("db.sqlite-wal")).unwrap_or_default();
    let unrevealed = seed(9);
    for bytes in [&raw, &wal] {
        assert!(
            !bytes
                .windows(64)
                .any(|w| w == unrevealed.expose().as_bytes()),
            "plain seed on disk"
        );
    }
}

/// PostgreSQL: a store with another key is refused on a schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sealed_seeds_postgres() {
    let Some((store, url, schema)) = postgres_store("store: another key on PostgreSQL").await
    else {
        return;
    };
    let store_dyn: Arc<dyn Store> = Arc::new(store.clone());
    open_accounts(&store_dyn).await;
    store.close().await;
    let other = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([4; 32])).await;
    assert!(other.is_err(), "a different key must be refused");
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_events_postgres() {
    let Some((store, url, schema)) = postgres_store("store: live events on PostgreSQL").await
    else {
        return;
    };
    live_events(&store, &url, &schema).await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_postgres() {
    let Some((store, url, schema)) = postgres_store("store: two processes on PostgreSQL").await
    else {
        return;
    };
    two_processes(&store, &url, &schema).await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// One player betting through two stores on one schema (two processes):
/// what each remembers of the player's last bet goes stale with every bet
/// and grant of the other, and every bet is still drawn from the state it
/// is stored with; a refusal is never decided on a stale balance.
async fn two_processes(a: &PgStore, url: &str, schema: &str) {
    let b = PgStore::connect(url, Some(schema), SeedCipher::from_key([3; 32]))
        .await
        .expect("second store");
    let player = a
        .operator_player("two", &"t".repeat(64), 0, pair(30, "two-c"))
        .await
        .expect("operator player")
        .player_id;
    // The house's player, known as such to either process; no other is.
    assert!(b.is_operator_player(player).await.expect("read"));
    assert!(!a.is_operator_player(player + 1).await.expect("read"));
    let refused = a.place_bet(bet(player, "k1", 5)).await;
    assert_eq!(conflict_code(refused), "insufficient_balance");
    b.grant_chips("two", "g1", 100).await.expect("grant");
    let mut placed = Vec::new();
    for (store, key) in [(a, "k2"), (&b, "k3"), (a, "k4"), (a, "k5"), (&b, "k6")] {
        let receipt = store.place_bet(bet(player, key, 5)).await.expect(key);
        assert!(!receipt.replayed, "{key}");
        placed.push(receipt.bet);
    }
    // A's last state says the balance is below this stake; a grant through
    // B made it enough.
    let last = placed.last().expect("bets").balance_after;
    b.grant_chips("two", "g2", 1000).await.expect("grant");
    let stake = u64::try_from(last).expect("small") + 500;
    let big = a.place_bet(bet(player, "k7", stake)).await.expect("k7");
    placed.push(big.bet);
    // Only the balance changed since A's last bet.
    b.grant_chips("two", "g3", 500).await.expect("grant");
    placed.push(a.place_bet(bet(player, "k8", 5)).await.expect("k8").bet);
    // A retry of a key A placed, with A's last state current.
    let again = a.place_bet(bet(player, "k8", 5)).await.expect("k8 again");
    assert!(again.replayed);
    assert_eq!(again.bet.id, placed.last().expect("k8").id);
    let nonces: Vec<u64> = placed.iter().map(|bet| bet.nonce).collect();
    assert_eq!(nonces, (0..7).collect::<Vec<u64>>());
    let seed = seed(30);
    let mut balance = 100u128;
    for (i, bet) in placed.iter().enumerate() {
        balance += match i {
            5 => 1000,
            6 => 500,
            _ => 0,
        };
        let settled = fake_settle(&seed, "two-c", bet.nonce, bet.amount, balance);
        assert_eq!(
            (bet.roll, bet.balance_after),
            (settled.roll, settled.balance_after)
        );
        balance = bet.balance_after;
    }
    assert_eq!(b.player(player).await.expect("player").balance, balance);
    b.close().await;
}

/// Live events reach every store on the schema, small ones inline and
/// large ones (past the 8000-byte notification limit) through a table, in
/// order; a store on another schema hears none of them.
async fn live_events(store: &PgStore, url: &str, schema: &str) {
    let other_schema = format!("{schema}_x");
    let other = PgStore::connect(url, Some(&other_schema), SeedCipher::from_key([5; 32]))
        .await
        .expect("other schema");
    let mut elsewhere = other
        .event_feed()
        .await
        .expect("feed")
        .expect("postgres has one");
    let peer = PgStore::connect(url, Some(schema), SeedCipher::from_key([3; 32]))
        .await
        .expect("second store");
    let mut feed = peer
        .event_feed()
        .await
        .expect("feed")
        .expect("postgres has one");
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(20_000));
    // Two equal events in one batch both arrive (PostgreSQL folds equal
    // notifications of one transaction).
    let one = "{\"n\":1}".to_owned();
    let sent = [one.clone(), one, big, "{\"n\":3}".to_owned()];
    store.broadcast_events(&sent[..3]).await.expect("broadcast");
    store.broadcast_events(&sent[3..]).await.expect("broadcast");
    for expected in &sent {
        let got = tokio::time::timeout(std::time::Duration::from_secs(10), feed.recv())
            .await
            .expect("an event within 10 s")
            .expect("feed open");
        assert_eq!(&got, expected);
    }
    // Sent to its own schema, the other store's first event is its own.
    other
        .broadcast_events(&["{\"mine\":1}".to_owned()])
        .await
        .expect("broadcast");
    let first = tokio::time::timeout(std::time::Duration::from_secs(10), elsewhere.recv())
        .await
        .expect("an event within 10 s");
    assert_eq!(first.as_deref(), Some("{\"mine\":1}"));
    peer.close().await;
    other.close().await;
    PgStore::drop_schema(url, &other_schema)
        .await
        .expect("clean up");
}
