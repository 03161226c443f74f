//! The transparency log's storage on every backend: what each change queues,
//! sequencing into a tree that the stored hashes and entries rebuild, and one
//! sequencer winning when two race on one PostgreSQL database.

use std::sync::Arc;

mod common;

use fairseed_store::{
    AccountStore, BetDraw, BetRequest, Commit, Condition, LogCheckpoint, LogStore, NewRound,
    NewSeedPair, PgStore, RoundChange, RoundWrite, SecretSeed, SeedCipher, Settled, SignFn,
    SqliteStore, Store,
};
use fairseed_tlog::{
    checkpoint, decode_bundle, leaf_hash, new_entry_bundles, open_checkpoint, prove_inclusion,
    root_from_tiles, sign_checkpoint, tile_hash_indexes, verify_inclusion, EntryKind, Hash,
    LogEntry, NoteKey, SparseHashes, TileKind,
};
use sha2::{Digest, Sha256};

const ORIGIN: &str = "store.test/fairseed";

fn key() -> NoteKey {
    NoteKey::from_private_bytes(ORIGIN, &[5; 32]).expect("key")
}

fn signer() -> SignFn {
    Box::new(|size, root| {
        let body =
            checkpoint(ORIGIN, size, Hash(root), &[]).map_err(fairseed_store::StoreError::other)?;
        sign_checkpoint(&key(), &body).map_err(fairseed_store::StoreError::other)
    })
}

fn pair(n: u8) -> NewSeedPair {
    let server_seed = SecretSeed::new(hex::encode([n; 32]));
    NewSeedPair {
        commitment: hex::encode(Sha256::digest(server_seed.expose().as_bytes())),
        server_seed,
        client_seed: format!("client-{n}"),
    }
}

fn bet(player_id: i64, key: &str) -> BetRequest {
    BetRequest {
        player_id,
        idempotency_key: key.to_owned(),
        amount: 1,
        condition: Condition::Under,
        target: 5000,
        settle: Box::new(|d: BetDraw<'_>| {
            Ok(Settled {
                roll: 42,
                win: false,
                payout: 0,
                balance_after: d.balance - 1,
            })
        }),
    }
}

fn round(id: &str, kind: &str, n: u8) -> NewRound {
    let secret = SecretSeed::new(hex::encode([n; 32]));
    NewRound {
        id: id.into(),
        kind: kind.into(),
        commitment: hex::encode(Sha256::digest(secret.expose().as_bytes())),
        secret,
        key: None,
        state: "{}".into(),
        status: "open".into(),
    }
}

fn decode(bytes: &[u8]) -> LogEntry {
    LogEntry::decode(bytes).expect("entry decodes")
}

/// Every change queues the entries docs/spec.md §16.1 names (a replay none: the
/// sequenced count below shows it); returns them in order.
async fn changes(store: &dyn Store) -> Vec<Vec<u8>> {
    let mut queued = Vec::new();
    let (player, first) = store
        .create_player(&"a".repeat(64), 100, pair(1))
        .await
        .expect("player");
    let commitment = decode(&first.appended[0]);
    assert_eq!(commitment.kind, EntryKind::Commitment);
    // Named by its owner, so a monitor links the player's pairs (§16.7).
    assert_eq!(
        commitment.ids,
        vec![format!("p{}", player.id), first.commitment.clone()]
    );
    assert_eq!(commitment.values, vec![first.commitment.clone()]);
    queued.extend(first.appended.clone());

    let placed = store.place_bet(bet(player.id, "b1")).await.expect("bet");
    let outcome = decode(&placed.appended[0]);
    assert_eq!(outcome.kind, EntryKind::Outcome);
    assert_eq!(outcome.ids, vec![first.commitment.clone(), "0".into()]);
    assert_eq!(
        outcome.values,
        ["client-1", "1", "under", "5000", "42", "0"]
    );
    let replay = store.place_bet(bet(player.id, "b1")).await.expect("replay");
    assert!(replay.replayed);
    assert_eq!(
        replay.appended, placed.appended,
        "a replay reads back the entry its bet queued, and queues nothing"
    );
    queued.extend(placed.appended);

    let rotation = store
        .rotate(player.id, pair(2), Box::new(|_, _| Ok(Vec::new())))
        .await
        .expect("rotate");
    let reveal = decode(&rotation.appended[0]);
    assert_eq!(reveal.kind, EntryKind::Reveal);
    assert_eq!(
        reveal.ids, commitment.ids,
        "the reveal names the pair as its commitment"
    );
    assert_eq!(reveal.values, vec![hex::encode([1u8; 32])]);
    queued.extend(rotation.appended);
    queued.extend(rotation.current.appended);
    // A bet between two queued entries keeps its place among them.
    let second = store.place_bet(bet(player.id, "b2")).await.expect("bet");
    assert_eq!(
        decode(&second.appended[0]).ids,
        vec![rotation.current.commitment.clone(), "0".into()]
    );
    queued.extend(second.appended);

    let extra = LogEntry {
        kind: EntryKind::Commitment,
        time_ms: 0,
        scheme: "poker_hmac_v1".into(),
        ids: vec!["poker:t:s1".into(), "1".into()],
        values: vec!["aa".into(), "bb".into()],
    };
    let created = store
        .commit(Commit {
            creates: vec![
                round("poker:t:s1", "poker", 3),
                round("poker_table:t", "poker_table", 4),
            ],
            log: vec![extra],
            ..Commit::default()
        })
        .await
        .expect("create");
    assert_eq!(
        created[0].appended.len(),
        2,
        "the session's commitment, then the hand's"
    );
    assert!(created[1].appended.is_empty(), "a table commits to nothing");
    queued.extend(created[0].appended.clone());
    let revealed = store
        .commit(Commit {
            writes: vec![RoundWrite {
                id: "poker:t:s1".into(),
                expected_version: 0,
                change: RoundChange {
                    state: "{}".into(),
                    status: "rotated".into(),
                    reveal: true,
                    ..RoundChange::default()
                },
            }],
            ..Commit::default()
        })
        .await
        .expect("reveal");
    assert_eq!(
        decode(&revealed[0].appended[0]).values,
        vec![hex::encode([3u8; 32])]
    );
    queued.extend(revealed[0].appended.clone());
    queued
}

/// Rebuilds the tree from the stored hashes and entries, as the served tiles are.
async fn check_tree(store: &dyn Store, head: &LogCheckpoint, queued: &[Vec<u8>]) {
    let parsed = open_checkpoint(head.note.as_bytes(), &key().vkey()).expect("signed");
    assert_eq!(parsed.size(), head.size);
    let size = head.size;
    let mut tiles = std::collections::BTreeMap::new();
    for tile in fairseed_tlog::new_hash_tiles(0, size) {
        let indexes = tile_hash_indexes(&tile);
        let mut hashes = SparseHashes::new();
        for (i, h) in store.log_hashes(&indexes).await.expect("hashes") {
            hashes.insert(i, Hash(h));
        }
        tiles.insert(
            tile,
            fairseed_tlog::hash_tile_data(&hashes, &tile).expect("tile"),
        );
    }
    let root = root_from_tiles(size, |t| tiles.get(t).cloned()).expect("root");
    assert_eq!(&root, parsed.hash());
    let mut leaves = Vec::new();
    for bundle in new_entry_bundles(0, size) {
        assert_eq!(bundle.kind, TileKind::Entries);
        let from = bundle.index * 256;
        let entries = store.log_leaves(from, bundle.width).await.expect("leaves");
        let encoded = fairseed_tlog::encode_bundle(&entries).expect("bundle");
        leaves.extend(
            decode_bundle(&encoded)
                .expect("decodes")
                .into_iter()
                .map(<[u8]>::to_vec),
        );
    }
    assert_eq!(
        leaves, queued,
        "the log holds every queued entry, in queue order"
    );
    for (index, entry) in (0..).zip(queued) {
        let found = store
            .log_entry(leaf_hash(entry).0)
            .await
            .expect("read")
            .expect("found");
        assert_eq!(found.leaf_index, Some(index));
        let mut hashes = SparseHashes::new();
        let proof = loop {
            if let Some(proof) = hashes
                .try_with(|h| prove_inclusion(h, index, size))
                .expect("proof")
            {
                break proof;
            }
            let missing = hashes.take_missing();
            for (i, h) in store.log_hashes(&missing).await.expect("hashes") {
                hashes.insert(i, Hash(h));
            }
        };
        verify_inclusion(&proof, size, root, index, leaf_hash(entry)).expect("included");
    }
}

async fn scenario(store: Arc<dyn Store>) {
    let empty = store
        .sequence_log(100, signer())
        .await
        .expect("first")
        .expect("signs the empty tree");
    assert_eq!((empty.checkpoint.size, empty.appended), (0, 0));
    assert!(store
        .sequence_log(100, signer())
        .await
        .expect("idle")
        .is_none());
    let queued = changes(store.as_ref()).await;
    assert_eq!(queued.len(), 8);
    let queued_only = store
        .log_entry(leaf_hash(&queued[0]).0)
        .await
        .expect("read")
        .expect("queued");
    assert_eq!(queued_only.leaf_index, None, "not sequenced yet");
    // Two steps of at most 5: sequencing resumes from the stored frontier.
    let first = store
        .sequence_log(5, signer())
        .await
        .expect("step")
        .expect("grew");
    assert_eq!((first.checkpoint.size, first.appended), (5, 5));
    let first = first.checkpoint;
    check_tree(store.as_ref(), &first, &queued[..5]).await;
    let second = store
        .sequence_log(5, signer())
        .await
        .expect("step")
        .expect("grew");
    assert_eq!((second.checkpoint.size, second.appended), (8, 3));
    let second = second.checkpoint;
    assert_eq!(
        store.log_checkpoint().await.expect("latest"),
        Some(second.clone())
    );
    check_tree(store.as_ref(), &second, &queued).await;
    cosignatures(store.as_ref(), &first, &second).await;
}

/// Witness lines are kept per checkpoint and witness, served with it, and
/// the newest checkpoint with enough of them is found.
async fn cosignatures(store: &dyn Store, first: &LogCheckpoint, second: &LogCheckpoint) {
    let (a, b) = ("w.test/a+00000001+BA==", "w.test/b+00000002+BA==");
    assert_eq!(store.log_cosigned_size(a).await.expect("none"), None);
    assert_eq!(store.log_cosigned_checkpoint(1).await.expect("none"), None);
    store
        .add_log_cosignature(5, a, "— w.test/a AAAA\n")
        .await
        .expect("a on 5");
    store
        .add_log_cosignature(5, b, "— w.test/b BBBB\n")
        .await
        .expect("b on 5");
    store
        .add_log_cosignature(second.size, a, "— w.test/a CCCC\n")
        .await
        .expect("a on the second");
    // A second line of one witness on one size keeps the first.
    store
        .add_log_cosignature(second.size, a, "— w.test/a DDDD\n")
        .await
        .expect("again");
    assert_eq!(
        store.log_cosigned_size(a).await.expect("a"),
        Some(second.size)
    );
    assert_eq!(store.log_cosigned_size(b).await.expect("b"), Some(5));
    let latest = store.log_checkpoint().await.expect("latest").expect("some");
    assert_eq!(latest.note, second.note);
    assert_eq!(latest.cosignatures, vec!["— w.test/a CCCC\n".to_owned()]);
    assert_eq!(
        latest.cosigned_note(),
        format!("{}— w.test/a CCCC\n", second.note)
    );
    let one = store
        .log_cosigned_checkpoint(1)
        .await
        .expect("one")
        .expect("the second");
    assert_eq!(one.size, second.size);
    let two = store
        .log_cosigned_checkpoint(2)
        .await
        .expect("two")
        .expect("5");
    assert_eq!((two.size, two.note.as_str()), (5, first.note.as_str()));
    assert_eq!(two.cosignatures.len(), 2);
    assert_eq!(store.log_cosigned_checkpoint(3).await.expect("three"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SqliteStore::open(
        &dir.path().join("db.sqlite"),
        SeedCipher::random().expect("key"),
    )
    .expect("open");
    scenario(Arc::new(store)).await;
    // Every hash a step adds, the 8 leaves' and the 4 + 2 + 1 above them,
    // stored once, in one row per step.
    let conn = rusqlite::Connection::open(dir.path().join("db.sqlite")).expect("open");
    let (runs, stored): (i64, i64) = conn
        .query_row(
            "SELECT count(*), sum(length(hashes)) / 32 FROM log_hash_runs",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("count");
    assert_eq!(stored, 15);
    assert!(runs >= 2, "steps in scenario(): {runs}");
    let memory = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("open");
    scenario(Arc::new(memory)).await;
}

/// A committed bet's leaf hash is remembered in memory until sequenced; a
/// restart forgets it, and the bet's row rebuilds it. Bets of both kinds,
/// waiting together, are found by hash and sequenced into the tree that the
/// served entries rebuild.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bets_from_before_a_restart_are_rebuilt_for_their_leaves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let cipher = SeedCipher::from_key([9; 32]);
    let mut queued = Vec::new();
    let player = {
        let store = SqliteStore::open(&path, cipher.clone()).expect("open");
        let (player, first) = store
            .create_player(&"b".repeat(64), 100, pair(2))
            .await
            .expect("player");
        queued.extend(first.appended);
        for key in ["r1", "r2"] {
            let placed = store.place_bet(bet(player.id, key)).await.expect("bet");
            queued.extend(placed.appended);
        }
        player
    };
    let store = SqliteStore::open(&path, cipher).expect("reopen");
    for key in ["r3", "r4"] {
        let placed = store.place_bet(bet(player.id, key)).await.expect("bet");
        queued.extend(placed.appended);
    }
    assert_eq!(queued.len(), 5);
    for entry in &queued[1..] {
        let found = store
            .log_entry(leaf_hash(entry).0)
            .await
            .expect("read")
            .expect("a waiting bet is found by its hash");
        assert_eq!((&found.entry, found.leaf_index), (entry, None));
    }
    let step = store
        .sequence_log(100, signer())
        .await
        .expect("step")
        .expect("signed");
    assert_eq!(step.appended, 5);
    check_tree(&store, &step.checkpoint, &queued).await;
}

/// A bet placed while the log was off has no entry: replayed once the log
/// is on, it carries none (its outcome is rebuilt and looked for, not
/// assumed), while a bet placed with the log on replays its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_carries_only_an_entry_the_log_holds() {
    let off = SqliteStore::open_memory(SeedCipher::random().expect("key"))
        .expect("open")
        .with_log(false);
    let (player, _) = off
        .create_player(&"e".repeat(64), 10, pair(8))
        .await
        .expect("player");
    assert!(off
        .place_bet(bet(player.id, "dark"))
        .await
        .expect("bet")
        .appended
        .is_empty());
    let on = off.clone().with_log(true);
    let replay = on.place_bet(bet(player.id, "dark")).await.expect("replay");
    assert!(replay.replayed);
    assert!(
        replay.appended.is_empty(),
        "no receipt for an entry never queued"
    );
    let placed = on.place_bet(bet(player.id, "lit")).await.expect("bet");
    assert_eq!(placed.appended.len(), 1);
    on.sequence_log(100, signer()).await.expect("sequenced");
    let replay = on.place_bet(bet(player.id, "lit")).await.expect("replay");
    assert_eq!(replay.appended, placed.appended, "found once sequenced too");
}

/// On SQLite a bet is its own entry: the bets placed while the log was off
/// are not leaves, even between logged ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bets_placed_while_the_log_was_off_are_no_leaves() {
    let on = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("open");
    let off = on.clone().with_log(false);
    let (player, created) = on
        .create_player(&"f".repeat(64), 10, pair(9))
        .await
        .expect("player");
    let mut logged = created.appended;
    logged.extend(on.place_bet(bet(player.id, "a")).await.expect("a").appended);
    off.place_bet(bet(player.id, "dark")).await.expect("dark");
    logged.extend(on.place_bet(bet(player.id, "b")).await.expect("b").appended);
    assert_eq!(logged.len(), 3);
    let head = on
        .sequence_log(100, signer())
        .await
        .expect("step")
        .expect("grew");
    assert_eq!(head.checkpoint.size, 3);
    assert_eq!(on.log_leaves(0, 10).await.expect("leaves"), logged);
    assert_eq!(on.log_leaves(2, 1).await.expect("one leaf"), logged[2..]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn off_queues_nothing() {
    let store = SqliteStore::open_memory(SeedCipher::random().expect("key"))
        .expect("open")
        .with_log(false);
    let (player, pair) = store
        .create_player(&"c".repeat(64), 10, pair(7))
        .await
        .expect("player");
    assert!(pair.appended.is_empty());
    assert!(store
        .place_bet(bet(player.id, "k"))
        .await
        .expect("bet")
        .appended
        .is_empty());
    store.sequence_log(100, signer()).await.expect("empty tree");
    assert!(store
        .sequence_log(100, signer())
        .await
        .expect("idle")
        .is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres() {
    let Some(url) = common::postgres_url("transparency log on PostgreSQL") else {
        return;
    };
    let schema = common::fresh_schema_name();
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([3; 32]))
        .await
        .expect("connect");
    scenario(Arc::new(store.clone())).await;

    // Two stores sequencing the same queue at once: every entry gets one
    // index, and the tree the checkpoints sign stays one tree.
    let peer = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([3; 32]))
        .await
        .expect("peer");
    let before = store
        .log_checkpoint()
        .await
        .expect("latest")
        .expect("some")
        .size;
    let mut queued = Vec::new();
    for n in 0..40u8 {
        let (_, p) = store
            .create_player(&format!("{n:064}"), 1, pair(100 + n))
            .await
            .expect("player");
        queued.extend(p.appended);
    }
    let (a, b) = tokio::join!(
        store.sequence_log(25, signer()),
        peer.sequence_log(25, signer())
    );
    assert!(a.is_ok() || b.is_ok(), "one of them sequences");
    while store
        .sequence_log(25, signer())
        .await
        .expect("drain")
        .is_some()
    {}
    let head = store.log_checkpoint().await.expect("latest").expect("some");
    assert_eq!(head.size, before + 40);
    let all: Vec<Vec<u8>> = store
        .log_leaves(0, u32::try_from(head.size).expect("small"))
        .await
        .expect("all");
    assert_eq!(&all[usize::try_from(before).expect("small")..], &queued[..]);
    check_tree(&store, &head, &all).await;
    store.close().await;
    peer.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// Leaves per chunk of sorted hashes in both stores.
const CHUNK: usize = 16_384;

/// Sequences everything queued (`queued`, in queue order, the first leaf
/// being leaf 0), then finds entries by their hash in the first and second
/// complete chunks, the incomplete one and (`waiting`, queued afterwards)
/// the queue, each with its leaf index; an unknown hash is not found.
async fn finds_across_chunks(
    store: &dyn Store,
    queued: &[Vec<u8>],
    waiting: impl AsyncFnOnce() -> Vec<u8>,
) {
    while store
        .sequence_log(1000, signer())
        .await
        .expect("step")
        .is_some()
    {}
    let waiting = waiting().await;
    for index in [
        0,
        1,
        CHUNK - 1,
        CHUNK,
        2 * CHUNK - 1,
        2 * CHUNK,
        queued.len() - 1,
    ] {
        let found = store
            .log_entry(leaf_hash(&queued[index]).0)
            .await
            .expect("read")
            .expect("found");
        assert_eq!(found.entry, queued[index]);
        assert_eq!(found.leaf_index, Some(index as u64), "leaf {index}");
    }
    let found = store
        .log_entry(leaf_hash(&waiting).0)
        .await
        .expect("read")
        .expect("found in the queue");
    assert_eq!((found.entry, found.leaf_index), (waiting, None));
    assert!(store.log_entry([7; 32]).await.expect("read").is_none());
}

/// On SQLite, with entries queued by bets; a replayed bet reads back its own entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_finds_entries_across_hash_chunks() {
    let store = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("open");
    let (player, first) = store
        .create_player(&"d".repeat(64), 1 << 40, pair(4))
        .await
        .expect("player");
    let mut queued = first.appended.clone();
    while queued.len() < 2 * CHUNK + 100 {
        let key = format!("k{}", queued.len());
        let placed = store.place_bet(bet(player.id, &key)).await.expect("bet");
        queued.extend(placed.appended);
    }
    finds_across_chunks(&store, &queued, async || {
        let tail = store.place_bet(bet(player.id, "tail")).await.expect("bet");
        tail.appended[0].clone()
    })
    .await;
    let replay = store
        .place_bet(bet(player.id, "k5000"))
        .await
        .expect("replay");
    assert!(replay.replayed);
    assert_eq!(replay.appended, vec![queued[5000].clone()]);
}

/// A store in a fresh schema, and a plain connection to the same database
/// that writes to it directly (its tables named with the schema).
async fn pg_store_and_connection(url: &str) -> (String, PgStore, sqlx::PgConnection) {
    let schema = common::fresh_schema_name();
    let store = PgStore::connect(url, Some(&schema), SeedCipher::from_key([3; 32]))
        .await
        .expect("connect");
    let conn = <sqlx::PgConnection as sqlx::Connection>::connect(url)
        .await
        .expect("connect");
    (schema, store, conn)
}

/// Queues `entry <n>` for each n in `from ..= to` in `schema`, in order,
/// their leaf hashes computed by PostgreSQL's own `sha256` (no bet before them).
fn queue_entries_sql(schema: &str, from: usize, to: usize) -> String {
    format!(
        "INSERT INTO \"{schema}\".log_entries (entry, leaf_hash, created_at, bets_before)
         SELECT e, sha256('\\x00'::bytea || e), 0, 0
         FROM (SELECT n, convert_to('entry ' || n, 'UTF8') AS e
               FROM generate_series({from}, {to}) AS n) s ORDER BY n"
    )
}

/// Sequences in steps of 100 until nothing waits.
async fn drain(store: &PgStore) {
    while store
        .sequence_log(100, signer())
        .await
        .expect("step")
        .is_some()
    {}
}

/// Steps until the floor of `source` in `schema` rises past `id`, with new
/// work (`more`, given a fresh player number) before each step: a step takes
/// a candidate, a later one's plan settles it once no transaction older than
/// the candidate runs anywhere in the cluster (other tests' may, for a while).
async fn floor_passes(
    store: &PgStore,
    conn: &mut sqlx::PgConnection,
    schema: &str,
    source: &str,
    id: i64,
    mut more: impl AsyncFnMut(&PgStore, u8),
) {
    let mut floor = 0;
    for n in 4..=200u8 {
        more(store, n).await;
        store.sequence_log(100, signer()).await.expect("step");
        floor = sqlx::query_scalar(&format!(
            "SELECT floor FROM \"{schema}\".log_waiting_floors WHERE source = $1"
        ))
        .bind(source)
        .fetch_one(&mut *conn)
        .await
        .expect("floor");
        if floor >= id {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(floor >= id, "the {source} floor rose past {id}: {floor}");
}

/// On PostgreSQL, with entries queued directly in SQL (a bet per entry would
/// take minutes), their leaf hashes computed by PostgreSQL's own `sha256`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_finds_entries_across_hash_chunks() {
    let Some(url) = common::postgres_url("transparency log chunks on PostgreSQL") else {
        return;
    };
    let (schema, store, mut conn) = pg_store_and_connection(&url).await;
    let count = 2 * CHUNK + 100;
    let queue = |from: usize, to: usize| queue_entries_sql(&schema, from, to);
    sqlx::raw_sql(&queue(0, count - 1))
        .execute(&mut conn)
        .await
        .expect("queued");
    let queued: Vec<Vec<u8>> = (0..count)
        .map(|n| format!("entry {n}").into_bytes())
        .collect();
    finds_across_chunks(&store, &queued, async || {
        sqlx::raw_sql(&queue(count, count))
            .execute(&mut conn)
            .await
            .expect("queued");
        format!("entry {count}").into_bytes()
    })
    .await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// PostgreSQL gives ids out of commit order: an entry whose transaction
/// stays open while later entries are sequenced, step after step, is still
/// sequenced once it commits — the floor the sequencer reads above does not
/// pass a transaction still open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_sequences_an_entry_committed_after_later_ones() {
    let Some(url) = common::postgres_url("late entries on PostgreSQL") else {
        return;
    };
    let (schema, store, mut conn) = pg_store_and_connection(&url).await;
    let mut late = sqlx::Connection::begin(&mut conn).await.expect("begin");
    let straggler = b"an entry committed late".to_vec();
    let straggler_id: i64 = sqlx::query_scalar(&format!(
        "INSERT INTO \"{schema}\".log_entries (entry, leaf_hash, created_at, bets_before)
         VALUES ($1, $2, 0, 0) RETURNING id"
    ))
    .bind(&straggler)
    .bind(&leaf_hash(&straggler).0[..])
    .fetch_one(&mut *late)
    .await
    .expect("queued, not committed");
    let mut queued = Vec::new();
    for n in 0..4u8 {
        let (_, p) = store
            .create_player(&format!("{n:064}"), 1, pair(n))
            .await
            .expect("player");
        queued.extend(p.appended);
        drain(&store).await;
    }
    late.commit().await.expect("committed");
    drain(&store).await;
    let head = store.log_checkpoint().await.expect("latest").expect("some");
    let all = store
        .log_leaves(0, u32::try_from(head.size).expect("small"))
        .await
        .expect("all");
    assert_eq!(all.len(), queued.len() + 1, "every entry has its leaf");
    assert_eq!(all.last(), Some(&straggler), "the late one last");
    assert_eq!(&all[..queued.len()], &queued[..]);
    check_tree(&store, &head, &all).await;
    // The floor then rises past the late entry.
    floor_passes(
        &store,
        &mut conn,
        &schema,
        "queue",
        straggler_id,
        async |store, n| {
            store
                .create_player(&format!("{n:064}"), 1, pair(n))
                .await
                .expect("player");
        },
    )
    .await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// Writes a logged bet of `player` at `nonce` in `schema` as the store
/// writes one (time 1234, key `late`) inside `late`, left uncommitted; its id.
async fn open_bet(
    late: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    schema: &str,
    player: i64,
    nonce: i64,
) -> i64 {
    sqlx::query_scalar(&format!(
        "INSERT INTO \"{schema}\".bets (player_id, pair_id, nonce, amount, condition, target,
             roll, win, payout, balance_after, idempotency_key, created_at, logged)
         SELECT $1, id, $2, 1, 'under', 5000, 42, FALSE, 0, 9, 'late', 1234, TRUE
         FROM \"{schema}\".seed_pairs WHERE player_id = $1 RETURNING id"
    ))
    .bind(player)
    .bind(nonce)
    .fetch_one(&mut **late)
    .await
    .expect("placed, not committed")
}

/// As above for a dice bet, its own log entry: a bet whose transaction stays
/// open while later bets are sequenced is sequenced once it commits, its
/// entry rebuilt from its row, and the bets' floor then rises past it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_sequences_a_bet_committed_after_later_ones() {
    let Some(url) = common::postgres_url("late bets on PostgreSQL") else {
        return;
    };
    let (schema, store, mut conn) = pg_store_and_connection(&url).await;
    let (late_player, late_pair) = store
        .create_player(&"f".repeat(64), 10, pair(9))
        .await
        .expect("player");
    let mut late = sqlx::Connection::begin(&mut conn).await.expect("begin");
    let straggler_id = open_bet(&mut late, &schema, late_player.id, 77).await;
    let mut logged = late_pair.appended.clone();
    for n in 0..4u8 {
        let (player, p) = store
            .create_player(&format!("{n:064}"), 10, pair(n))
            .await
            .expect("player");
        logged.extend(p.appended);
        for key in ["a", "b"] {
            let placed = store.place_bet(bet(player.id, key)).await.expect("bet");
            logged.extend(placed.appended);
        }
        drain(&store).await;
    }
    late.commit().await.expect("committed");
    drain(&store).await;
    let head = store.log_checkpoint().await.expect("latest").expect("some");
    let all = store
        .log_leaves(0, u32::try_from(head.size).expect("small"))
        .await
        .expect("all");
    assert_eq!(all.len(), logged.len() + 1, "every entry has its leaf");
    assert_eq!(&all[..logged.len()], &logged[..]);
    let straggler = decode(all.last().expect("the late one last"));
    assert_eq!(straggler.kind, EntryKind::Outcome);
    assert_eq!(straggler.time_ms, 1234);
    assert_eq!(
        straggler.ids,
        vec![late_pair.commitment.clone(), "77".into()]
    );
    assert_eq!(
        straggler.values,
        ["client-9", "1", "under", "5000", "42", "0"]
    );
    check_tree(&store, &head, &all).await;
    let found = store
        .log_entry(leaf_hash(all.last().expect("late")).0)
        .await
        .expect("read")
        .expect("found by its hash");
    assert_eq!(found.leaf_index, Some(head.size - 1));
    floor_passes(
        &store,
        &mut conn,
        &schema,
        "bets",
        straggler_id,
        async |store, n| {
            let (player, _) = store
                .create_player(&format!("{n:064}"), 10, pair(n))
                .await
                .expect("player");
            store.place_bet(bet(player.id, "c")).await.expect("bet");
        },
    )
    .await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// A bet whose transaction has the newest transaction id is still open
/// when a step takes the bets' next candidate, and no later transaction has
/// ended: PostgreSQL's snapshot `xmax` is one past the newest *ended*
/// transaction, so it is not past the open one. The floor must still not
/// pass the bet before it commits: once it does, the bet is sequenced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_candidate_taken_while_the_newest_transaction_is_open_waits_for_it() {
    let Some(url) = common::postgres_url("a floor past an open bet on PostgreSQL") else {
        return;
    };
    let (schema, store, mut conn) = pg_store_and_connection(&url).await;
    let (late_player, late_pair) = store
        .create_player(&"e".repeat(64), 10, pair(8))
        .await
        .expect("player");
    let mut logged = late_pair.appended.clone();
    drain(&store).await;
    // Waiting when the bet opens, so the next step writes (and takes a candidate).
    let (_, waiting) = store
        .create_player(&format!("{:064}", 1), 10, pair(1))
        .await
        .expect("player");
    logged.extend(waiting.appended);
    let mut late = sqlx::Connection::begin(&mut conn).await.expect("begin");
    let straggler_id = open_bet(&mut late, &schema, late_player.id, 0).await;
    // This step's candidate covers the open bet's id.
    store
        .sequence_log(100, signer())
        .await
        .expect("step")
        .expect("took the waiting commitment");
    // The next step's plan must not settle it while the bet is open.
    let (_, after) = store
        .create_player(&format!("{:064}", 2), 10, pair(2))
        .await
        .expect("player");
    logged.extend(after.appended);
    store
        .sequence_log(100, signer())
        .await
        .expect("step")
        .expect("took the later commitment");
    let floor: i64 = sqlx::query_scalar(&format!(
        "SELECT floor FROM \"{schema}\".log_waiting_floors WHERE source = 'bets'"
    ))
    .fetch_one(&mut *late)
    .await
    .expect("floor");
    assert!(
        floor < straggler_id,
        "the bets' floor {floor} passed bet {straggler_id} while its transaction was open"
    );
    late.commit().await.expect("committed");
    drain(&store).await;
    let head = store.log_checkpoint().await.expect("latest").expect("some");
    let all = store
        .log_leaves(0, u32::try_from(head.size).expect("small"))
        .await
        .expect("all");
    assert_eq!(all.len(), logged.len() + 1, "every entry has its leaf");
    assert_eq!(&all[..logged.len()], &logged[..]);
    assert_eq!(decode(all.last().expect("the late one")).time_ms, 1234);
    check_tree(&store, &head, &all).await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// On PostgreSQL a chunk's sorted hashes are written by the step whose
/// leaves complete it, a step of one leaf too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_step_of_one_leaf_seals_the_chunk_it_completes() {
    let Some(url) = common::postgres_url("hash chunks sealed by one leaf on PostgreSQL") else {
        return;
    };
    let (schema, store, mut conn) = pg_store_and_connection(&url).await;
    let queue = |from: usize, to: usize| queue_entries_sql(&schema, from, to);
    let sealed = async |conn: &mut sqlx::PgConnection| -> i64 {
        sqlx::query_scalar(&format!(
            "SELECT COALESCE(SUM(length(leaves)), 0) / 34 FROM \"{schema}\".log_hash_buckets
             WHERE chunk = 0"
        ))
        .fetch_one(conn)
        .await
        .expect("count")
    };
    sqlx::raw_sql(&queue(0, CHUNK - 2))
        .execute(&mut conn)
        .await
        .expect("queued");
    while store
        .sequence_log(1000, signer())
        .await
        .expect("step")
        .is_some()
    {}
    assert_eq!(sealed(&mut conn).await, 0, "one leaf short of a chunk");
    sqlx::raw_sql(&queue(CHUNK - 1, CHUNK - 1))
        .execute(&mut conn)
        .await
        .expect("queued");
    let step = store
        .sequence_log(1000, signer())
        .await
        .expect("step")
        .expect("grew");
    assert_eq!(step.appended, 1);
    assert_eq!(sealed(&mut conn).await, CHUNK as i64);
    let first = store
        .log_entry(leaf_hash(b"entry 0").0)
        .await
        .expect("read")
        .expect("found in the sealed chunk");
    assert_eq!(first.leaf_index, Some(0));
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}
