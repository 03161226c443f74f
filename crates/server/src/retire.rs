//! A restore retires every secret it cannot prove unused.
//!
//! A backup's unrevealed server seeds may have served draws after the
//! backup was taken: players saw those outcomes, the restored database
//! forgot them, and drawing from the same seeds again would repeat them
//! (a player who saw them would know what comes next). So after `fairseed
//! restore`, before the service serves a draw, every player's current dice
//! seed pair is revealed and replaced, as an ordinary rotation: the player
//! finds the old pair among their revealed ones with its bets, and a new
//! commitment in place. Open poker sessions rotate at every start anyway
//! ([`crate::fleet`]).
//!
//! The restore's marker goes only once every pair is retired, so a start
//! interrupted midway retires the rest at the next one.

use std::path::Path;

use anyhow::Context as _;

use crate::fork_guard::RESTORED_FILE;
use crate::state::AppState;

/// Players read at once.
const PAGE: u32 = 500;

/// Whether `data_dir` was restored and its secrets not yet retired.
pub fn pending(data_dir: &Path) -> bool {
    data_dir.join(RESTORED_FILE).exists()
}

/// Retires every unrevealed dice seed pair, then removes the marker.
///
/// # Errors
/// The store failed (the marker stays: the next start goes on), or the
/// marker cannot be removed.
pub async fn after_restore(state: &AppState, data_dir: &Path) -> anyhow::Result<()> {
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
    let marker = data_dir.join(RESTORED_FILE);
    std::fs::remove_file(&marker).with_context(|| format!("removing {}", marker.display()))?;
    tracing::info!(
        pairs = retired,
        "restore: every seed pair unrevealed in the backup is revealed and replaced"
    );
    Ok(())
}
