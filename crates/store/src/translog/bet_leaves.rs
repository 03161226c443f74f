//! The leaf hashes of logged bets not yet sequenced, kept in memory.
//!
//! A dice bet is its own log entry: the sequencer, and a lookup by hash of
//! a bet still waiting, would otherwise read each waiting bet with its
//! pair's seeds, rebuild its entry and hash it — work the bet already did
//! when it was placed. The bet's caller hashes the entry it got back and
//! remembers it here once the bet is committed; readers take the hashes
//! from here and rebuild only the bets they miss (placed by an earlier
//! process or, on PostgreSQL, by another process of the fleet, or committed
//! a moment before their caller remembered them). Kept in memory only: a
//! restart starts empty and rebuilds.
//!
//! Nothing is remembered before its commit: on SQLite an id whose
//! transaction rolled back is given to the next bet, and a hash kept for it
//! would be that bet's wrong leaf. Forgetting early is always safe (a miss
//! rebuilds).

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::translog::logged::HashBytes;

/// Hashes kept at most (about 8 MB), the newest: a bet forgotten for room
/// is rebuilt when read. Room is needed when the sequencer stops for long,
/// and in every process of a PostgreSQL fleet but the sequencer's, which
/// never learns what a step took: its own bets' hashes serve only its
/// lookups, and a bounded memory of the newest is what those need.
const CAPACITY: usize = 1 << 17;

/// Committed bets' leaf hashes by bet id, until a sequencing step takes them.
#[derive(Debug, Default)]
pub(crate) struct BetLeaves {
    waiting: Mutex<BTreeMap<i64, HashBytes>>,
}

impl BetLeaves {
    fn waiting(&self) -> MutexGuard<'_, BTreeMap<i64, HashBytes>> {
        // Every change is one map operation: a panic cannot leave it half done.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps the leaf hash of `bet_id`, whose transaction has committed,
    /// forgetting the oldest kept if there is no room.
    pub(crate) fn remember(&self, bet_id: i64, leaf_hash: HashBytes) {
        let mut waiting = self.waiting();
        if waiting.len() >= CAPACITY {
            waiting.pop_first();
        }
        waiting.insert(bet_id, leaf_hash);
    }

    /// Keeps the leaf hash of the bet `placed` answers with, once its
    /// transaction has committed (a replay's bet was remembered, or not,
    /// when it was placed).
    pub(crate) fn remember_placed(&self, placed: &crate::types::BetReceipt) {
        if let (false, [entry]) = (placed.replayed, placed.appended.as_slice()) {
            self.remember(placed.bet.id, fairseed_tlog::leaf_hash(entry).0);
        }
    }

    /// The leaf hashes of these bets, `None` for each one not remembered.
    pub(crate) fn get(&self, bet_ids: &[i64]) -> Vec<Option<HashBytes>> {
        let waiting = self.waiting();
        bet_ids.iter().map(|id| waiting.get(id).copied()).collect()
    }

    /// Drops the hashes of bets up to `bet_id`: a sequencing step took them.
    pub(crate) fn forget_through(&self, bet_id: i64) {
        let mut waiting = self.waiting();
        let rest = waiting.split_off(&bet_id.saturating_add(1));
        *waiting = rest;
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.waiting().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_when_full() {
        let leaves = BetLeaves::default();
        let last = i64::try_from(CAPACITY).expect("small") + 2;
        for id in 1..=last {
            leaves.remember(id, [1; 32]);
        }
        assert_eq!(leaves.len(), CAPACITY);
        assert_eq!(
            leaves.get(&[1, 2, 3, last]),
            vec![None, None, Some([1; 32]), Some([1; 32])]
        );
    }

    #[test]
    fn forgets_what_a_step_took_and_keeps_the_rest() {
        let leaves = BetLeaves::default();
        for id in 1..=5 {
            leaves.remember(id, [id as u8; 32]);
        }
        leaves.forget_through(3);
        assert_eq!(
            leaves.get(&[2, 3, 4, 5, 6]),
            vec![None, None, Some([4; 32]), Some([5; 32]), None]
        );
        assert_eq!(leaves.len(), 2);
        leaves.forget_through(i64::MAX);
        assert_eq!(leaves.len(), 0);
    }
}
