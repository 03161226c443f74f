//! A restore retires every secret it cannot prove unused.
//!
//! A backup's unrevealed secrets may have served draws after the backup
//! was taken: players saw those outcomes, the restored database forgot
//! them, and drawing from the same secrets again would repeat them (a
//! player who saw them would know what comes next). So after `fairseed
//! restore`, before the service serves a draw, every secret the backup
//! holds unrevealed is revealed, each kind as its own flow ends it, and
//! replaced where the flow goes on:
//!
//! - **dice seed pairs**: every player's current pair is revealed and
//!   replaced, as an ordinary rotation: the player finds the old pair among
//!   their revealed ones with its bets, and a new commitment in place;
//! - **poker seed sessions** (`poker` rounds): every open session rotates,
//!   as at any restart ([`crate::fleet`] rotates them at every start, but
//!   only where no live process holds the table's lease; the leases of a
//!   restored database were copied from the backup, so here every session
//!   rotates whatever its lease says);
//! - **selfpoker hands** (`selfpoker` rounds, one seed per deck): every
//!   hand not yet at `hand_end` is dealt to its end at once, as the owner's
//!   last `next` would: its seed is revealed and its record written;
//! - **hold'em tables** (`holdem_table` rounds, one session secret per
//!   table): every open table plays the hand or round running at the
//!   backup to its end with every clock run out (each person times out, as
//!   an absent one does), starts no new hand, and closes as the operator's
//!   close does: the people leave, the session secret is published, the
//!   hands are archived for their players.
//!
//! The restore's marker goes only once every secret is retired, so a start
//! interrupted midway retires the rest at the next one.

use std::path::Path;

use anyhow::Context as _;

use crate::fork_guard::RESTORED_FILE;
use crate::rounds::selfpoker;
use crate::state::AppState;

/// Players read at once.
const PAGE: u32 = 500;

/// Whether `data_dir` was restored and its secrets not yet retired.
pub fn pending(data_dir: &Path) -> bool {
    data_dir.join(RESTORED_FILE).exists()
}

/// How many secrets of each kind a restore retired.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Retired {
    /// Dice seed pairs revealed and replaced.
    pub pairs: u64,
    /// Poker seed sessions rotated.
    pub poker_sessions: usize,
    /// Selfpoker hands dealt to their end.
    pub selfpoker_hands: usize,
    /// Hold'em tables closed with their session secret published.
    pub holdem_tables: usize,
}

/// Retires every unrevealed secret of the restored database, then removes
/// the marker.
///
/// # Errors
/// The store failed (the marker stays: the next start goes on), or the
/// marker cannot be removed.
pub async fn after_restore(state: &AppState, data_dir: &Path) -> anyhow::Result<Retired> {
    let retired = Retired {
        pairs: dice_pairs(state).await?,
        poker_sessions: crate::fleet::rotate_open_sessions(state, true)
            .await
            .map_err(|e| anyhow::anyhow!("rotating restored poker sessions: {}", e.chain()))?,
        selfpoker_hands: selfpoker_hands(state).await?,
        holdem_tables: holdem_tables(state).await?,
    };
    let marker = data_dir.join(RESTORED_FILE);
    std::fs::remove_file(&marker).with_context(|| format!("removing {}", marker.display()))?;
    tracing::info!(
        pairs = retired.pairs,
        poker_sessions = retired.poker_sessions,
        selfpoker_hands = retired.selfpoker_hands,
        holdem_tables = retired.holdem_tables,
        "restore: every secret unrevealed in the backup is revealed and replaced"
    );
    Ok(retired)
}

/// Reveals and replaces every player's unrevealed dice seed pair.
async fn dice_pairs(state: &AppState) -> anyhow::Result<u64> {
    let mut after = 0;
    let mut retired = 0_u64;
    loop {
        let players = state
            .store()
            .players_with_unrevealed_pair(after, PAGE)
            .await
            .context("retiring restored seed pairs")?;
        let Some(&last) = players.last() else { break };
        for player in players {
            let next = crate::secrets::new_seed_pair()
                .map_err(|_| anyhow::anyhow!("the OS random generator failed"))?;
            state
                .store()
                .rotate(player, next, Box::new(crate::dice_records::build))
                .await
                .with_context(|| format!("retiring player {player}'s seed pair"))?;
            retired += 1;
        }
        tracing::info!(retired, "retiring the restored seed pairs");
        after = last;
    }
    Ok(retired)
}

/// Deals every selfpoker hand not yet ended to its end.
async fn selfpoker_hands(state: &AppState) -> anyhow::Result<usize> {
    let mut retired = 0;
    for stage in fairseed_play::selfpoker::STAGES {
        if stage == fairseed_play::selfpoker::Stage::HandEnd {
            continue;
        }
        let ids = state
            .store()
            .rounds_with_status(selfpoker::KIND, stage.as_str())
            .await
            .context("listing restored selfpoker hands")?;
        for id in ids {
            crate::step::step_if(state, std::slice::from_ref(&id), |rounds| {
                selfpoker::to_end(&rounds[0])
            })
            .await
            .map_err(|e| anyhow::anyhow!("ending restored selfpoker hand {id}: {}", e.chain()))?;
            retired += 1;
        }
    }
    Ok(retired)
}

/// Closes every open hold'em table, its secret published, and archives it.
async fn holdem_tables(state: &AppState) -> anyhow::Result<usize> {
    let ids = state
        .store()
        .rounds_with_status(crate::holdem::rows::KIND, crate::holdem::rows::OPEN)
        .await
        .context("listing restored hold'em tables")?;
    let mut retired = 0;
    for id in ids {
        let Some(table) = id.strip_prefix(crate::holdem::rows::PREFIX) else {
            continue;
        };
        let fail = |e: crate::error::ApiError| {
            anyhow::anyhow!("closing restored hold'em table {table}: {}", e.chain())
        };
        let steps = crate::holdem::close_restored(state, table)
            .await
            .map_err(fail)?;
        crate::holdem::archive(state, table).await.map_err(fail)?;
        tracing::info!(table, steps, "restored hold'em table closed");
        retired += 1;
    }
    Ok(retired)
}
