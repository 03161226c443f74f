//! A stopped service leaves one complete database file: after
//! `checkpoint_to_file` the `-wal` file is empty and a copy of the database
//! file alone holds every write acknowledged before it.

use fairseed_store::{AccountStore, SeedCipher, SqliteStore};
use sha2::{Digest, Sha256};

#[path = "common/pair.rs"]
mod common_pair;
use common_pair::pair;

const PLAYERS: usize = 40;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_file_alone_holds_every_write_after_the_stop_checkpoint() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("fairseed.sqlite");
    let store = SqliteStore::open(&db, SeedCipher::from_key([7; 32])).expect("open");
    for n in 0..PLAYERS {
        let token = hex::encode(Sha256::digest(format!("token-{n}")));
        store
            .create_player(&token, 1_000, pair(n))
            .await
            .expect("player");
    }
    assert!(
        store.wal_file_bytes().expect("a -wal file") > 0,
        "the writes are in the WAL before the checkpoint"
    );

    store.checkpoint_to_file().await.expect("checkpoint");

    assert_eq!(store.wal_file_bytes(), Some(0), "the WAL is emptied");
    // What an operator does with a stopped service's data directory: the
    // database file moved on its own, without its -wal and -shm.
    let copy = dir.path().join("copy.sqlite");
    std::fs::copy(&db, &copy).expect("copy");
    let conn = rusqlite::Connection::open(&copy).expect("open the copy");
    let players: i64 = conn
        .query_row("SELECT COUNT(*) FROM players", [], |r| r.get(0))
        .expect("count");
    assert_eq!(players, PLAYERS as i64);
}
