//! The state each player's last bet in this process left: what the next
//! bet is drawn from without a read (see [`super::bet`]).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::types::SeedPair;

/// What a bet is drawn from: the player's balance and current pair.
#[derive(Debug, Clone)]
pub(super) struct Drawable {
    pub(super) balance: u128,
    pub(super) pair: SeedPair,
    pub(super) sealed: Vec<u8>,
}

/// The state each player's last bet in this process left, to draw the next
/// bet from without a read: one round trip a bet while nothing else changes
/// the player. Only a hint — the write checks all of it, and a bet drawn
/// from a stale state (another process's bet, a rotation, a grant) fails
/// its check and is drawn again from a read; so does a refusal drawn from
/// it (a balance too small may have grown since). Cleared when it holds
/// [`LAST_STATES_MAX`] players.
#[derive(Debug, Default)]
pub(super) struct LastStates(Mutex<HashMap<i64, Drawable>>);

/// Players whose last state is kept at most.
const LAST_STATES_MAX: usize = 65_536;

impl LastStates {
    pub(super) fn get(&self, player: i64) -> Option<Drawable> {
        self.lock().get(&player).cloned()
    }

    pub(super) fn put(&self, player: i64, state: Drawable) {
        let mut states = self.lock();
        if states.len() >= LAST_STATES_MAX && !states.contains_key(&player) {
            states.clear();
        }
        states.insert(player, state);
    }

    pub(super) fn forget(&self, player: i64) {
        self.lock().remove(&player);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Drawable>> {
        // A panic while holding the map cannot leave it inconsistent: each
        // entry is only a hint.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
