//! Scale-out: two `fairseed-server` processes on one PostgreSQL, bets for
//! the same players through both at once; nonces stay dense, balances add
//! up, every answer is stored. Runs when `FAIRSEED_TEST_DB_URI` is set.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::invariants as crash;
use common::process::{new_player, Server};
use fairseed_store::{PgStore, SeedCipher};

#[test]
fn two_processes_one_postgres() {
    let Ok(url) = std::env::var("FAIRSEED_TEST_DB_URI") else {
        eprintln!("FAIRSEED_TEST_DB_URI not set: skipping the scale-out test");
        return;
    };
    let schema = format!("fairseed_scaleout_{}", std::process::id());
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    // Both processes share the data dir for the seed key and operator key.
    let cipher = SeedCipher::load_or_create(&dir.path().join("seed.key")).expect("key");
    rt.block_on(async {
        let store = PgStore::connect(&url, Some(&schema), cipher)
            .await
            .expect("create schema");
        store.close().await;
    });
    let sep = if url.contains('?') { '&' } else { '?' };
    let scoped = format!("{url}{sep}options=-c%20search_path%3D{schema}");

    let result = std::panic::catch_unwind(|| {
        let a = Server::start(dir.path(), &["--database", &scoped]);
        let b = Server::start(dir.path(), &["--database", &scoped]);
        let tokens: Vec<String> = (0..2).map(|_| new_player(&a.addr)).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let loaders: Vec<_> = [a.addr.clone(), b.addr.clone()]
            .into_iter()
            .map(|addr| {
                let tokens = tokens.clone();
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || crash::load(&addr, &tokens, 4, &stop))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(1500));
        stop.store(true, Ordering::Relaxed);
        let mut acked = Vec::new();
        for l in loaders {
            let (a, unanswered) = l.join().expect("loader");
            assert!(unanswered.is_empty(), "no server died");
            acked.extend(a);
        }
        eprintln!("{} bets through two processes", acked.len());
        assert!(acked.len() > 20);
        for addr in [&a.addr, &b.addr] {
            crash::check_acked(addr, &acked);
            for token in &tokens {
                crash::check_player(addr, token);
            }
        }
        for token in &tokens {
            crash::check_export(&b.addr, token);
        }
    });
    rt.block_on(async { PgStore::drop_schema(&url, &schema).await.expect("clean up") });
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
