//! How many sockets watch a table without a seat at it: spectators are
//! capped far below the table's streams, so a person seated at the table
//! always gets a socket of their own. A seat's own socket is not counted
//! here; every other socket of the table is, per table
//! ([`MAX_WATCHING_PER_TABLE`]) and, without a token, per address
//! ([`MAX_WATCHING_PER_ADDRESS`]). With at most six seats, each holding at
//! most `crate::events::MAX_STREAMS_PER_CALLER` streams, the table's
//! streams (`crate::events::MAX_STREAMS_PER_TOPIC`) never fill before
//! a seated person's socket is served.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;

use crate::error::{ApiError, ErrorCode};
use crate::events::{MAX_STREAMS_PER_CALLER, MAX_STREAMS_PER_TOPIC};

/// Sockets of one table, in this process, that hold no seat there.
pub const MAX_WATCHING_PER_TABLE: usize = 256;

/// Sockets of one table, in this process, from one address without a token.
pub const MAX_WATCHING_PER_ADDRESS: usize = 4;

// Six seats at their own cap and a full gallery still leave the table room.
const _: () = assert!(MAX_WATCHING_PER_TABLE + 6 * MAX_STREAMS_PER_CALLER < MAX_STREAMS_PER_TOPIC);

/// The counts, by key (`table`, `table|address`).
#[derive(Debug, Default, Clone)]
pub struct Viewers {
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

/// A watching socket's place, given back when dropped.
#[derive(Debug)]
pub struct Watching {
    counts: Arc<Mutex<HashMap<String, usize>>>,
    keys: Vec<String>,
}

impl Viewers {
    /// Takes a place watching `table` for a socket holding no seat there;
    /// `address` is the spectator's address key, `None` for a player's
    /// token (counted per table only: its own cap is per player).
    ///
    /// # Errors
    /// `429 too_many_streams` when the table, or the address, watches its most.
    pub fn watch(&self, table: &str, address: Option<&str>) -> Result<Watching, ApiError> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let mut keys = vec![table.to_owned()];
        let held = |counts: &HashMap<String, usize>, key: &str| counts.get(key).copied();
        if held(&counts, table).unwrap_or(0) >= MAX_WATCHING_PER_TABLE {
            return Err(refused(format!(
                "{MAX_WATCHING_PER_TABLE} sockets watch this table, the most it takes besides its seated players' own; try later"
            )));
        }
        if let Some(address) = address {
            let key = format!("{table}|{address}");
            if held(&counts, &key).unwrap_or(0) >= MAX_WATCHING_PER_ADDRESS {
                return Err(refused(format!(
                    "{MAX_WATCHING_PER_ADDRESS} sockets from your address watch this table, the most one address may without a seat; close one first"
                )));
            }
            keys.push(key);
        }
        for key in &keys {
            *counts.entry(key.clone()).or_insert(0) += 1;
        }
        Ok(Watching {
            counts: Arc::clone(&self.counts),
            keys,
        })
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        for key in &self.keys {
            if let Some(n) = counts.get_mut(key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.remove(key);
                }
            }
        }
    }
}

fn refused(message: String) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::TooManyStreams,
        message,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectators_are_capped_per_address_and_per_table_and_give_their_place_back() {
        let viewers = Viewers::default();
        let mine: Vec<Watching> = (0..MAX_WATCHING_PER_ADDRESS)
            .map(|_| viewers.watch("t", Some("a1")).expect("a place"))
            .collect();
        let refused = viewers
            .watch("t", Some("a1"))
            .expect_err("the address is full");
        assert_eq!(refused.code(), "too_many_streams");
        assert!(viewers.watch("other", Some("a1")).is_ok(), "per table");
        drop(mine);
        let mut all = Vec::new();
        for i in 0..MAX_WATCHING_PER_TABLE {
            all.push(viewers.watch("t", Some(&format!("a{i}"))).expect("a place"));
        }
        assert!(viewers.watch("t", None).is_err(), "the table is full");
        all.pop();
        assert!(viewers.watch("t", None).is_ok(), "a place came back");
    }
}
