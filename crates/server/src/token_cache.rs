//! Token hashes → player ids, cached so a bet costs no extra read.
//!
//! A token never changes owner, but the operator can revoke or rotate one.
//! The event hub forgets a token here when its revocation arrives, from
//! this process or through the cross-process events (PostgreSQL), so a
//! revoked token stops authenticating on every process within the events'
//! delay; [`TTL`] only bounds how long an entry lives if an event was lost
//! (a relay reconnecting).

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

/// Entries kept at most; the cache is emptied when full.
const MAX: usize = 200_000;

/// How long an entry answers without the database.
const TTL: Duration = Duration::from_secs(30);

/// The cache. Shared through the event hub.
#[derive(Default)]
pub struct TokenCache {
    players: RwLock<HashMap<String, (i64, Instant)>>,
}

impl std::fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenCache").finish_non_exhaustive()
    }
}

impl TokenCache {
    /// The player of `token_hash`, if cached and fresh.
    pub fn get(&self, token_hash: &str) -> Option<i64> {
        let (id, at) = self.players.read().ok()?.get(token_hash).copied()?;
        (at.elapsed() < TTL).then_some(id)
    }

    /// Remembers that `token_hash` is `id`'s.
    pub fn put(&self, token_hash: String, id: i64) {
        if let Ok(mut players) = self.players.write() {
            if players.len() >= MAX {
                players.clear();
            }
            players.insert(token_hash, (id, Instant::now()));
        }
    }

    /// Forgets `token_hash` (revoked or rotated away).
    pub fn forget(&self, token_hash: &str) {
        if let Ok(mut players) = self.players.write() {
            players.remove(token_hash);
        }
    }
}
