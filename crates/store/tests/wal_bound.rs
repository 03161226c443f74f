//! The SQLite WAL stays bounded while bets run without pause: the writer
//! restarts the log between group commits once it passes the threshold.

use std::sync::Arc;

use fairseed_store::{
    AccountStore, BetDraw, BetRequest, Condition, SeedCipher, Settled, SqliteStore, SqliteTuning,
};
use sha2::{Digest, Sha256};

#[path = "common/pair.rs"]
mod common_pair;
use common_pair::pair;

const THRESHOLD: u64 = 256 << 10;
/// The threshold plus one group commit of every bet in flight (a bet and its
/// log entry write a handful of 4 KiB pages), with room to spare. Without the
/// restart these bets leave a WAL of about 18 MiB.
const BOUND: u64 = 4 << 20;
const PLAYERS: usize = 16;
const WAVES: usize = 60;
const IN_FLIGHT: usize = 64;

fn bet(player_id: i64, key: String) -> BetRequest {
    BetRequest {
        player_id,
        idempotency_key: key,
        amount: 1,
        condition: Condition::Under,
        target: 5000,
        // Storage is under test, not the scheme: a fixed outcome will do.
        settle: Box::new(|d: BetDraw<'_>| {
            Ok(Settled {
                roll: 1,
                win: true,
                payout: 1,
                balance_after: d.balance,
            })
        }),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn wal_stays_bounded_under_steady_bets() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("fairseed.sqlite");
    let cipher = SeedCipher::from_key([7; 32]);
    let tuning = SqliteTuning {
        wal_checkpoint_bytes: THRESHOLD,
    };
    let store = Arc::new(SqliteStore::open_tuned(&db, cipher, tuning).expect("open"));
    let mut ids = Vec::new();
    for n in 0..PLAYERS {
        let token = hex::encode(Sha256::digest(format!("token-{n}")));
        let (player, _) = store
            .create_player(&token, 1_000_000, pair(n))
            .await
            .expect("player");
        ids.push(player.id);
    }

    let mut largest = 0;
    for wave in 0..WAVES {
        let bets = (0..IN_FLIGHT).map(|i| {
            let store = Arc::clone(&store);
            let player = ids[i % PLAYERS];
            tokio::spawn(async move { store.place_bet(bet(player, format!("{wave}-{i}"))).await })
        });
        for placed in futures_join(bets).await {
            placed.expect("bet");
        }
        largest = largest.max(store.wal_file_bytes().expect("a -wal file"));
    }

    let stats = store.wal_stats().expect("file database has stats");
    assert!(
        stats.checkpoints() >= 4,
        "the log passed the threshold many times; restarts: {}",
        stats.checkpoints()
    );
    assert!(
        largest <= BOUND,
        "the -wal file reached {largest} bytes, over the {BOUND} bound"
    );
    let mut total = 0;
    for n in 0..PLAYERS {
        let token = hex::encode(Sha256::digest(format!("token-{n}")));
        let player = store.player_by_token(&token).await.expect("player");
        total += store
            .current_pair(player.id)
            .await
            .expect("pair")
            .next_nonce;
    }
    assert_eq!(total, (WAVES * IN_FLIGHT) as u64, "every bet durable once");
    assert_private(&db);
}

/// The database and the `-wal`/`-shm` files SQLite made beside it are 0600.
#[cfg(unix)]
fn assert_private(db: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    for suffix in ["", "-wal", "-shm"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        let mode = std::fs::metadata(&name)
            .expect("file exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{name:?}");
    }
}

#[cfg(not(unix))]
#[path = "../../../tests/support/skip.rs"]
mod skip;

#[cfg(not(unix))]
fn assert_private(_: &std::path::Path) {
    skip::record("wal_bound: file modes", "file modes are a unix check");
}

async fn futures_join<T>(tasks: impl Iterator<Item = tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::new();
    for task in tasks.collect::<Vec<_>>() {
        out.push(task.await.expect("task"));
    }
    out
}
