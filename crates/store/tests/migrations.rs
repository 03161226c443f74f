//! A database from before records had readers opens and migrates: each
//! record owned by a player becomes a record that player reads, operator
//! records stay operator-only, ids are kept.

mod common;

use fairseed_store::{Page, PgStore, RecordReader, RecordRow, SeedCipher, SqliteStore, Store};

/// The schema of migrations 1 and 2, with players and owned records.
fn old_database(path: &std::path::Path) {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.execute_batch(include_str!("../migrations/sqlite/0001_dice.sql"))
        .expect("0001");
    conn.execute_batch(include_str!("../migrations/sqlite/0002_rounds.sql"))
        .expect("0002");
    conn.execute_batch(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
         INSERT INTO schema_migrations (version) VALUES (1), (2);",
    )
    .expect("old schema");
    conn.execute_batch(OLD_ROWS).expect("old rows");
}

/// The old rows, for either backend.
const OLD_ROWS: &str = "INSERT INTO players (token_hash, balance, created_at) VALUES
        ('h1', 10, 0), ('h2', 10, 0);
    INSERT INTO records (owner_id, scheme, body, created_at) VALUES
        (1, 'dice_v1', '{\"n\":1}', 0),
        (NULL, 'selfpoker', '{\"n\":2}', 0),
        (2, 'dice_v1', '{\"n\":3}', 0);";

#[tokio::test]
async fn sqlite_owned_records_become_readable_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.sqlite");
    old_database(&path);
    let store = SqliteStore::open(&path, SeedCipher::random().expect("key")).expect("migrate");
    readers_kept(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_owned_records_become_readable_records() {
    let Some(url) = common::postgres_url("PostgreSQL migration of records") else {
        return;
    };
    let schema = common::fresh_schema_name();
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("connect");
    let old = format!(
        "CREATE SCHEMA \"{schema}\"; SET search_path TO \"{schema}\";
         {}; {};
         CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY);
         INSERT INTO schema_migrations (version) VALUES (1), (2);
         {OLD_ROWS}",
        include_str!("../migrations/postgres/0001_dice.sql"),
        include_str!("../migrations/postgres/0002_rounds.sql"),
    );
    sqlx::raw_sql(&old)
        .execute(&mut conn)
        .await
        .expect("old schema");
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::random().expect("key"))
        .await
        .expect("migrate");
    readers_kept(&store).await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// Player 1 reads record 1, player 2 record 3, the operator all three.
async fn readers_kept(store: &dyn Store) {
    let page = Page {
        before: None,
        limit: 10,
    };
    let ids = |rows: Vec<RecordRow>| -> Vec<(i64, Vec<i64>)> {
        rows.into_iter().map(|r| (r.id, r.readers)).collect()
    };
    assert_eq!(
        ids(store
            .records(RecordReader::Player(1), page)
            .await
            .expect("1")),
        vec![(1, vec![1])]
    );
    assert_eq!(
        ids(store
            .records(RecordReader::Player(2), page)
            .await
            .expect("2")),
        vec![(3, vec![2])]
    );
    assert_eq!(
        ids(store
            .records(RecordReader::Operator, page)
            .await
            .expect("operator")),
        vec![(3, vec![2]), (2, vec![]), (1, vec![1])]
    );
    let body = store
        .record(RecordReader::Operator, 2)
        .await
        .expect("kept")
        .body;
    assert_eq!(body, "{\"n\":2}");
}

/// A log queued and sequenced in the `log_entries` table of migrations 5–8
/// moves to the queue and leaves of migration 9: every entry is found by its
/// hash with its leaf index, a waiting one without, and the leaves read back
/// in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_log_entries_become_queue_and_leaves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.sqlite");
    let entries: [&[u8]; 3] = [b"first", b"second", b"waiting"];
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        for sql in [
            include_str!("../migrations/sqlite/0001_dice.sql"),
            include_str!("../migrations/sqlite/0002_rounds.sql"),
            include_str!("../migrations/sqlite/0003_versions.sql"),
            include_str!("../migrations/sqlite/0004_players.sql"),
            include_str!("../migrations/sqlite/0005_log.sql"),
            include_str!("../migrations/sqlite/0006_log_subjects.sql"),
            include_str!("../migrations/sqlite/0007_log_pending.sql"),
            include_str!("../migrations/sqlite/0008_log_cosignatures.sql"),
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
             INSERT INTO schema_migrations (version) VALUES (1), (2), (3), (4), (5), (6), (7), (8);",
        ] {
            conn.execute_batch(sql).expect("old schema");
        }
        for (index, entry) in (0i64..).zip(entries) {
            let leaf = (index < 2).then_some(index);
            conn.execute(
                "INSERT INTO log_entries (entry, leaf_hash, leaf_index, subject, created_at)
                 VALUES (?1, ?2, ?3, NULL, 0)",
                rusqlite::params![entry, &fairseed_tlog::leaf_hash(entry).0[..], leaf],
            )
            .expect("old entry");
        }
    }
    let store = SqliteStore::open(&path, SeedCipher::random().expect("key")).expect("migrate");
    for (index, entry) in (0u64..).zip(entries) {
        let found = store
            .log_entry(fairseed_tlog::leaf_hash(entry).0)
            .await
            .expect("read")
            .expect("kept");
        assert_eq!(found.entry, entry);
        assert_eq!(found.leaf_index, (index < 2).then_some(index));
    }
    assert_eq!(
        store.log_leaves(0, 10).await.expect("leaves"),
        vec![b"first".to_vec(), b"second".to_vec()]
    );
    // Migration 11: the queue's ids are rowids, and a new entry's is one past the last.
    let conn = rusqlite::Connection::open(&path).expect("open");
    let (queue, sequenced): (String, i64) = conn
        .query_row(
            "SELECT sql, (SELECT count(*) FROM sqlite_sequence WHERE name = 'log_queue')
             FROM sqlite_master WHERE name = 'log_queue'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("schema");
    assert!(!queue.contains("AUTOINCREMENT"), "{queue}");
    assert_eq!(sequenced, 0);
    // Migration 12: the sequencer resumes after the last leaf's queued entry.
    let resumes: (i64, i64) = conn
        .query_row("SELECT entry_id, bet_id FROM log_sequenced", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("sequenced");
    assert_eq!(resumes, (2, 0));
    conn.execute(
        "INSERT INTO log_queue (entry, leaf_hash, created_at) VALUES (x'00', zeroblob(32), 0)",
        [],
    )
    .expect("queued");
    assert_eq!(conn.last_insert_rowid(), 4);
}
