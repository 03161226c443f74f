//! Record bodies read back byte for byte on both backends. On SQLite a
//! large body is stored deflated, as a BLOB in `records.body`, a small one
//! as TEXT; a body stored as TEXT before (any size) reads as it is, and a
//! BLOB that does not inflate is an error, not a panic.

mod common;

use fairseed_store::{
    NewRecord, Page, PgStore, RecordOut, RecordReader, RecordRow, RoundStore, SeedCipher,
    SqliteStore, Store,
};

/// A hand-like record over the threshold: repeated keys and cards, text
/// beyond ASCII, escapes and blanks that must survive as they are.
fn large_body() -> String {
    let seats: Vec<String> = (0..6)
        .map(|s| {
            format!(
                r#"{{"seat":{s},"name":"joueur é{s}","cards":["Ah","Kd"],"note":"a\nb  ","actions":[{}]}}"#,
                ["\"check\"", "\"call\"", "\"fold\""].repeat(20).join(",")
            )
        })
        .collect();
    format!(r#"{{"scheme":"holdem","seats":[{}]}} "#, seats.join(","))
}

const SMALL_BODY: &str = r#"{"scheme":"dice_v1","n":1}"#;

fn record(body: &str) -> RecordOut {
    RecordOut::operator(NewRecord {
        scheme: "holdem".to_owned(),
        body: body.to_owned(),
    })
}

/// Stores `body` and reads it back by id, in a page and in the export.
async fn stored_and_read(store: &dyn Store, body: &str) -> RecordRow {
    let written = store
        .import_record(record(body), None)
        .await
        .expect("store");
    let read = store
        .record(RecordReader::Operator, written.id)
        .await
        .expect("read");
    assert_eq!(read, written);
    assert_eq!(read.body.as_bytes(), body.as_bytes());
    let page = store
        .records(
            RecordReader::Operator,
            Page {
                before: None,
                limit: 1,
            },
        )
        .await
        .expect("page");
    assert_eq!(page, vec![read.clone()]);
    let export = store
        .records_after(RecordReader::Operator, written.id - 1, 10)
        .await
        .expect("export");
    assert_eq!(export, vec![read.clone()]);
    read
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_deflates_large_bodies_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("db.sqlite");
    let store = SqliteStore::open(&path, SeedCipher::random().expect("key")).expect("open");
    let large = stored_and_read(&store, &large_body()).await;
    let small = stored_and_read(&store, SMALL_BODY).await;

    let conn = rusqlite::Connection::open(&path).expect("open");
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .expect("busy timeout");
    let stored = |id: i64| -> (String, i64) {
        conn.query_row(
            "SELECT typeof(body), length(CAST(body AS BLOB)) FROM records WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("stored")
    };
    let (kind, bytes) = stored(large.id);
    assert_eq!(kind, "blob");
    assert!(
        bytes * 3 < large.body.len() as i64,
        "{bytes} of {}",
        large.body.len()
    );
    assert_eq!(
        stored(small.id),
        ("text".to_owned(), SMALL_BODY.len() as i64)
    );

    // A large body stored as TEXT, as every body was before, reads as it is.
    let old_body = large_body().replace("joueur", "player");
    conn.execute(
        "INSERT INTO records (scheme, body, created_at) VALUES ('holdem', ?1, 0)",
        [&old_body],
    )
    .expect("old row");
    let old = store
        .record(RecordReader::Operator, conn.last_insert_rowid())
        .await
        .expect("old");
    assert_eq!(old.body, old_body);

    // A BLOB that does not inflate fails the read, naming the record.
    conn.execute(
        "INSERT INTO records (scheme, body, created_at) VALUES ('holdem', x'00ff00ff', 0)",
        [],
    )
    .expect("bad row");
    let bad = conn.last_insert_rowid();
    let err = store
        .record(RecordReader::Operator, bad)
        .await
        .expect_err("does not inflate");
    assert!(
        err.to_string()
            .contains(&format!("record {bad}'s stored body")),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_reads_bodies_back_whole() {
    let Some(url) = common::postgres_url("record bodies on PostgreSQL") else {
        return;
    };
    let schema = common::fresh_schema_name();
    let store = PgStore::connect(&url, Some(&schema), SeedCipher::from_key([3; 32]))
        .await
        .expect("connect");
    stored_and_read(&store, &large_body()).await;
    stored_and_read(&store, SMALL_BODY).await;
    PgStore::drop_schema(&url, &schema).await.expect("clean up");
}
