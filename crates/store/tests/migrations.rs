//! The schema, on both backends: a fresh database has exactly the catalog
//! checked in beside the migrations (`migrations/<backend>/schema.txt`),
//! and a database made by the previous migrations opens, its rows read and
//! its log going on (migrations/README.md).

mod common;

use fairseed_store::{
    LogStep, NewSeedPair, Page, PgStore, RecordReader, RecordRow, SecretSeed, SeedCipher, SignFn,
    SqliteStore, Store,
};

/// Tables (but the migrations' own), columns with their types, indexes:
/// one line each, in a fixed order.
const SQLITE_CATALOG: &str = "
SELECT line FROM (
    SELECT m.name AS t, 0 AS k, printf('%04d', c.cid) AS n,
           'column ' || m.name || '.' || c.name || ' ' || c.type
           || CASE WHEN c.\"notnull\" THEN ' not null' ELSE '' END
           || CASE WHEN c.pk > 0 THEN ' pk' || c.pk ELSE '' END
           || ifnull(' default ' || c.dflt_value, '') AS line
    FROM sqlite_master m, pragma_table_info(m.name) c
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'schema_migrations'
    UNION ALL
    SELECT m.name, 1, i.name,
           'index ' || m.name || ' ' || CASE WHEN i.\"unique\" THEN 'unique ' ELSE '' END
           || i.name || ' (' || (SELECT group_concat(name, ', ')
                                 FROM (SELECT name FROM pragma_index_info(i.name) ORDER BY seqno))
           || ')' || CASE WHEN i.partial THEN ' where ' || trim(substr(x.sql, instr(x.sql, 'WHERE') + 5)) ELSE '' END
    FROM sqlite_master m, pragma_index_list(m.name) i
    LEFT JOIN sqlite_master x ON x.type = 'index' AND x.name = i.name
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'schema_migrations'
    UNION ALL
    SELECT m.name, 2, '', 'table ' || m.name || ' without rowid'
    FROM sqlite_master m WHERE m.type = 'table' AND m.sql LIKE '%WITHOUT ROWID%'
)
ORDER BY t, k, n";

/// As [`SQLITE_CATALOG`], with constraints, storage and table options, in
/// the connection's current schema (a line's runs of blanks made one space).
const POSTGRES_CATALOG: &str = "
SELECT regexp_replace(line, '\\s+', ' ', 'g') FROM (
    SELECT c.relname AS t, 0 AS k, lpad(a.attnum::text, 4, '0') AS n,
           'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
           || CASE WHEN a.attidentity <> '' THEN ' identity' ELSE '' END
           || COALESCE(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
           || CASE WHEN a.attstorage <> ty.typstorage THEN ' storage ' || a.attstorage::text ELSE '' END
           AS line
    FROM pg_class c
    JOIN pg_namespace ns ON ns.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_type ty ON ty.oid = a.atttypid
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    WHERE ns.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
    UNION ALL
    SELECT tablename, 1, indexname,
           'index ' || tablename || ' ' || replace(indexdef, ' ' || current_schema() || '.', ' ')
    FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'
    UNION ALL
    SELECT c.relname, 2, co.conname,
           'constraint ' || c.relname || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid)
    FROM pg_constraint co
    JOIN pg_class c ON c.oid = co.conrelid
    JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = current_schema() AND co.contype IN ('c', 'f')
    UNION ALL
    SELECT c.relname, 3, '', 'table ' || c.relname || ' with ' || array_to_string(c.reloptions, ', ')
    FROM pg_class c
    JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = current_schema() AND c.relkind = 'r' AND c.reloptions IS NOT NULL
) catalog
ORDER BY t, k, n";

/// The expected catalog's lines (comments left out).
fn expected(file: &str) -> Vec<String> {
    file.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Fails with the lines missing and the lines extra, and the whole catalog
/// found, to compare with the migration that changed it.
fn assert_catalog(found: &[String], file: &str, which: &str) {
    let want = expected(file);
    if found == want.as_slice() {
        return;
    }
    let missing: Vec<&String> = want.iter().filter(|l| !found.contains(l)).collect();
    let extra: Vec<&String> = found.iter().filter(|l| !want.contains(l)).collect();
    panic!(
        "{which}: a fresh database is not the expected schema\nmissing: {missing:#?}\nextra: {extra:#?}\nfound (in order):\n{}",
        found.join("\n")
    );
}

#[tokio::test]
async fn sqlite_fresh_schema_is_the_expected_catalog() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("fresh.sqlite");
    let store = SqliteStore::open(&path, SeedCipher::random().expect("key")).expect("open");
    store.health().await.expect("health");
    let conn = rusqlite::Connection::open(&path).expect("open");
    let mut stmt = conn.prepare(SQLITE_CATALOG).expect("catalog");
    let found: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .expect("catalog")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_catalog(
        &found,
        include_str!("../migrations/sqlite/schema.txt"),
        "SQLite",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_fresh_schema_is_the_expected_catalog() {
    let Some(url) = common::postgres_url("PostgreSQL fresh schema") else {
        return;
    };
    let schema = common::fresh_schema_name();
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::random().expect("key"))
        .await
        .expect("connect");
    let mut conn = schema_connection(&url, &schema).await;
    let found: Vec<String> = sqlx::query_scalar(POSTGRES_CATALOG)
        .fetch_all(&mut conn)
        .await
        .expect("catalog");
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
    assert_catalog(
        &found,
        include_str!("../migrations/postgres/schema.txt"),
        "PostgreSQL",
    );
}

/// A plain connection whose current schema is `schema`.
async fn schema_connection(url: &str, schema: &str) -> sqlx::PgConnection {
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(url)
        .await
        .expect("connect");
    sqlx::raw_sql(&format!("SET search_path TO \"{schema}\""))
        .execute(&mut conn)
        .await
        .expect("search path");
    conn
}

/// The entries already logged in the old database, in leaf order: two
/// sequencing steps took leaves 0–2 and 3–4.
const LOGGED: [&[u8]; 5] = [b"first", b"second", b"third", b"fourth", b"fifth"];

/// The entry queued in the old database, waiting for its leaf.
const OLD_ENTRY: &[u8] = b"an entry queued before the upgrade";

/// The first leaf of each old sequencing step, and the tree size after the last.
const OLD_STEPS: [u64; 3] = [0, 3, 5];

/// The log of the old database as an outside implementation computes it.
fn old_log() -> fairseed_tlog::MemoryLog {
    let mut log = fairseed_tlog::MemoryLog::new();
    for entry in LOGGED {
        log.append(entry);
    }
    log
}

/// The stored hashes (leaves' and nodes') between two leaves, and the
/// nodes' alone.
fn step_hashes(log: &fairseed_tlog::MemoryLog, from: u64, to: u64) -> (String, String) {
    let (a, b) = (
        fairseed_tlog::leaf_stored_index(from),
        fairseed_tlog::leaf_stored_index(to),
    );
    let all = (a..b).map(|i| hex::encode(log.stored_hashes()[i as usize].0));
    let nodes = (a..b)
        .filter(|&i| fairseed_tlog::stored_leaf(i).is_none())
        .map(|i| hex::encode(log.stored_hashes()[i as usize].0));
    (all.collect(), nodes.collect())
}

/// Rows the previous migrations' schema holds, for either backend (ids in
/// insertion order): two players, a record each reads and one only the
/// operator reads; in the log's previous layout, `LOGGED` sequenced in two
/// steps and `OLD_ENTRY` queued after them.
fn old_rows(dialect: Dialect) -> String {
    let log = old_log();
    let queue = match dialect {
        Dialect::Sqlite => "log_queue",
        Dialect::Postgres => "log_entries",
    };
    let mut sql = String::from(
        "INSERT INTO players (token_hash, balance, created_at) VALUES ('h1', 10, 0), ('h2', 10, 0);
         INSERT INTO records (scheme, body, created_at) VALUES
             ('dice_v1', '{\"n\":1}', 0), ('selfpoker', '{\"n\":2}', 0), ('dice_v1', '{\"n\":3}', 0);
         INSERT INTO record_readers (record_id, player_id) VALUES (1, 1), (3, 2);\n"
    );
    for entry in LOGGED.iter().chain([&OLD_ENTRY]) {
        sql += &format!(
            "INSERT INTO {queue} (entry, leaf_hash, created_at, bets_before) VALUES ({}, {}, 0, 0);\n",
            hex_literal(&hex::encode(entry), dialect),
            hex_literal(&hex::encode(fairseed_tlog::leaf_hash(entry).0), dialect),
        );
    }
    for step in OLD_STEPS.windows(2) {
        let (from, to) = (step[0], step[1]);
        let (all, nodes) = step_hashes(&log, from, to);
        sql += &format!(
            "INSERT INTO log_checkpoints (size, note, created_at) VALUES ({to}, '{}', 0);\n",
            checkpoint_note(to, log.root(to).expect("root"))
        );
        sql += &match dialect {
            Dialect::Sqlite => {
                let mut rows = format!(
                    "INSERT INTO log_hash_runs (first_leaf, hashes) VALUES ({from}, {});\n",
                    hex_literal(&nodes, dialect)
                );
                for leaf in from..to {
                    rows += &format!(
                        "INSERT INTO log_leaves (leaf_index, entry_id, leaf_hash) VALUES ({leaf}, {}, {});\n",
                        leaf + 1,
                        hex_literal(&hex::encode(fairseed_tlog::leaf_hash(LOGGED[leaf as usize]).0), dialect),
                    );
                }
                rows
            }
            Dialect::Postgres => {
                let ids: Vec<String> = (from + 1..=to).map(|id| id.to_string()).collect();
                format!(
                    "INSERT INTO log_leaf_runs (first_leaf, sources) VALUES ({from}, ARRAY[{}]::bigint[]);
                     INSERT INTO log_hash_runs (first_index, hashes) VALUES ({}, {});\n",
                    ids.join(", "),
                    fairseed_tlog::leaf_stored_index(from),
                    hex_literal(&all, dialect)
                )
            }
        };
    }
    let size = OLD_STEPS[2];
    sql += &match dialect {
        Dialect::Sqlite => format!("UPDATE log_sequenced SET entry_id = {size};"),
        Dialect::Postgres => format!(
            "UPDATE log_waiting_floors SET floor = {size}, floor_leaf = {size} WHERE source = 'queue';
             UPDATE log_waiting_floors SET floor_leaf = {size} WHERE source = 'bets';"
        ),
    };
    sql
}

/// The SQL dialect of a backend.
#[derive(Clone, Copy)]
enum Dialect {
    Sqlite,
    Postgres,
}

/// A byte string literal in `dialect`.
fn hex_literal(hex: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::Sqlite => format!("x'{hex}'"),
        Dialect::Postgres => format!("'\\x{hex}'::bytea"),
    }
}

/// The checkpoint note [`signer`] signs.
fn checkpoint_note(size: u64, root: fairseed_tlog::Hash) -> String {
    format!("test checkpoint {size} {}\n", hex::encode(root.0))
}

fn signer() -> SignFn {
    Box::new(|size, root| Ok(checkpoint_note(size, fairseed_tlog::Hash(root))))
}

/// Opened over the previous schema: its rows read as before; the logged
/// entries keep their leaves, the waiting entry is found, then sequenced as
/// leaf 5, and the tree is the one an outside implementation builds from
/// the six entries; a new player is created beside the old ones.
async fn old_rows_kept(store: &dyn Store) {
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
    assert_eq!(store.player_by_token("h2").await.expect("h2").id, 2);
    for (leaf, entry) in LOGGED.iter().enumerate() {
        let found = store
            .log_entry(fairseed_tlog::leaf_hash(entry).0)
            .await
            .expect("read")
            .expect("logged");
        assert_eq!(found.leaf_index, Some(leaf as u64), "{leaf}");
    }
    let hash = fairseed_tlog::leaf_hash(OLD_ENTRY).0;
    let waiting = store.log_entry(hash).await.expect("read").expect("queued");
    assert_eq!(
        (waiting.entry.as_slice(), waiting.leaf_index),
        (OLD_ENTRY, None)
    );
    let step: LogStep = store
        .sequence_log(100, signer())
        .await
        .expect("step")
        .expect("grew");
    assert_eq!(step.appended, 1);
    let mut log = old_log();
    log.append(OLD_ENTRY);
    let root = log.root(6).expect("root");
    assert_eq!(step.checkpoint.note, checkpoint_note(6, root));
    let leaves = store.log_leaves(0, 100).await.expect("leaves");
    let want: Vec<&[u8]> = LOGGED.iter().copied().chain([OLD_ENTRY]).collect();
    assert_eq!(leaves.iter().map(Vec::as_slice).collect::<Vec<_>>(), want);
    let found = store.log_entry(hash).await.expect("read").expect("leaf");
    assert_eq!(found.leaf_index, Some(5));
    let pair = NewSeedPair {
        server_seed: SecretSeed::new(hex::encode([9; 32])),
        commitment: hex::encode([8; 32]),
        client_seed: "new".into(),
    };
    let (player, _) = store
        .create_player("h3", 5, pair)
        .await
        .expect("new player");
    assert_eq!(player.id, 3);
}

/// A SQLite database at `path` made by the baseline alone, with [`old_rows`].
fn old_sqlite_database(path: &std::path::Path) {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.execute_batch(include_str!("../migrations/sqlite/0001_baseline.sql"))
        .expect("baseline");
    conn.execute_batch(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
         INSERT INTO schema_migrations (version) VALUES (1);",
    )
    .expect("versions");
    conn.execute_batch(&old_rows(Dialect::Sqlite))
        .expect("old rows");
}

/// The pattern of every later migration: a database made by the migrations
/// before it (here the baseline alone), with rows, opens and migrates.
#[tokio::test]
async fn sqlite_a_database_made_by_the_baseline_opens() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.sqlite");
    old_sqlite_database(&path);
    let store = SqliteStore::open(&path, SeedCipher::random().expect("key")).expect("migrate");
    old_rows_kept(&store).await;
}

/// A log whose stored node hashes are not the ones its leaves make is not
/// carried into the new layout: the upgrade refuses, and the database is as
/// it was.
#[tokio::test]
async fn sqlite_an_upgrade_refuses_a_log_whose_nodes_do_not_match_its_leaves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.sqlite");
    old_sqlite_database(&path);
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch(
            "UPDATE log_hash_runs SET hashes = zeroblob(length(hashes)) WHERE first_leaf = 3",
        )
        .expect("tamper");
    }
    let Err(err) = SqliteStore::open(&path, SeedCipher::random().expect("key")) else {
        panic!("a log whose nodes do not match its leaves was upgraded");
    };
    // The refusal is the migration's cause, kept whole in the chain.
    let chain = fairseed_store::Chain(&err).to_string();
    assert!(chain.contains("node hashes"), "{chain}");
    assert!(chain.contains("migration"), "{chain}");
    let conn = rusqlite::Connection::open(&path).expect("open");
    let versions: i64 = conn
        .query_row("SELECT max(version) FROM schema_migrations", [], |r| {
            r.get(0)
        })
        .expect("versions");
    let queue: i64 = conn
        .query_row("SELECT count(*) FROM log_queue", [], |r| r.get(0))
        .expect("the old queue is still there");
    assert_eq!((versions, queue), (1, 6));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_database_made_by_the_baseline_opens() {
    let Some(url) = common::postgres_url("PostgreSQL database made by the baseline") else {
        return;
    };
    let schema = common::fresh_schema_name();
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("connect");
    let old = format!(
        "CREATE SCHEMA \"{schema}\"; SET search_path TO \"{schema}\";
         {};
         CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY);
         INSERT INTO schema_migrations (version) VALUES (1);
         {}",
        include_str!("../migrations/postgres/0001_baseline.sql"),
        old_rows(Dialect::Postgres),
    );
    sqlx::raw_sql(&old)
        .execute(&mut conn)
        .await
        .expect("old schema");
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::random().expect("key"))
        .await
        .expect("migrate");
    old_rows_kept(&store).await;
    store.close().await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}

/// The log's tables and columns (`log_*`) in a backend's expected catalog.
fn log_columns(file: &str) -> std::collections::BTreeSet<String> {
    expected(file)
        .iter()
        .filter_map(|line| line.strip_prefix("column log_"))
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_owned)
        .collect()
}

/// The log is one table layout on both backends: the same tables with the
/// same columns, but for what PostgreSQL alone needs to raise a floor past
/// ids that commit out of order (docs/decisions/0017-postgres-floors.md).
#[test]
fn the_log_has_one_layout_on_both_backends() {
    let sqlite = log_columns(include_str!("../migrations/sqlite/schema.txt"));
    let mut postgres = log_columns(include_str!("../migrations/postgres/schema.txt"));
    for dialect in [
        "waiting_floors.candidate",
        "waiting_floors.candidate_leaf",
        "waiting_floors.after_xid",
    ] {
        assert!(postgres.remove(dialect), "PostgreSQL has {dialect}");
    }
    assert!(sqlite.contains("leaves.bet_id"), "{sqlite:?}");
    assert_eq!(sqlite, postgres);
}
