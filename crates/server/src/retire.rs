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
//!   hands are archived for their players;
//! - **chess seeds** (`chess` rounds, one seed per player's connection): a
//!   committed or seeking seed is withdrawn and revealed, as its owner's
//!   cancel does; a game in play ends as either player's finish does (both
//!   seeds revealed, the record made for both players);
//! - **matches** (`match` rounds, one seed per match): an open match (not
//!   started) is withdrawn, its seed revealed; a started one is finished
//!   with what it drew so far, its seed revealed and its record made (no
//!   account linked: the operator's to read and hand on).
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
    /// Chess seeds withdrawn, or games finished (each seed counted).
    pub chess_seeds: usize,
    /// Matches withdrawn or finished.
    pub matches: usize,
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
        chess_seeds: chess_seeds(state).await?,
        matches: matches(state).await?,
    };
    let marker = data_dir.join(RESTORED_FILE);
    std::fs::remove_file(&marker).with_context(|| format!("removing {}", marker.display()))?;
    tracing::info!(
        pairs = retired.pairs,
        poker_sessions = retired.poker_sessions,
        selfpoker_hands = retired.selfpoker_hands,
        holdem_tables = retired.holdem_tables,
        chess_seeds = retired.chess_seeds,
        matches = retired.matches,
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

/// Withdraws every chess seed not yet in play and finishes every game in
/// play; how many seeds were revealed.
async fn chess_seeds(state: &AppState) -> anyhow::Result<usize> {
    use crate::rounds::chess::{self as rows, KIND};
    let mut retired = 0;
    for status in ["committed", rows::SEEKING, "playing"] {
        let ids = state
            .store()
            .rounds_with_status(KIND, status)
            .await
            .context("listing restored chess seeds")?;
        for id in ids {
            let fail = |e: crate::error::ApiError| {
                anyhow::anyhow!("retiring restored chess seed {id}: {}", e.chain())
            };
            let ids = chess_game(state, &id).await.map_err(fail)?;
            let ended = crate::step::step_if(state, &ids, chess_to_end)
                .await
                .map_err(fail)?;
            retired += ended.map_or(0, |(_, n)| n);
        }
    }
    Ok(retired)
}

/// The rounds a chess seed's step loads: the seed alone, or both seeds of
/// a game between two players (side A's first).
async fn chess_game(state: &AppState, id: &str) -> Result<Vec<String>, crate::error::ApiError> {
    use fairseed_play::chess::{SeedPhase, Side};
    let loaded = state.store().load_rounds(&[id.to_owned()]).await?;
    let seed = crate::rounds::chess::load(&loaded[0])?;
    let round_id = crate::rounds::chess::round_id;
    Ok(match &seed.phase {
        SeedPhase::Playing(p) => match (&p.other, p.side) {
            (None, _) => vec![id.to_owned()],
            (Some(_), Side::B) => vec![round_id(&p.game)?, id.to_owned()],
            (Some(other), Side::A) => vec![id.to_owned(), round_id(other)?],
        },
        _ => vec![id.to_owned()],
    })
}

/// The commit revealing the loaded chess seeds (one, or a game's two), as
/// the owner's cancel or finish does, and how many seeds it reveals; `None`
/// when they were revealed meanwhile (a game's other seed listed first).
fn chess_to_end(
    loaded: &[fairseed_store::LoadedRound],
) -> Result<Option<(fairseed_store::Commit, usize)>, crate::error::ApiError> {
    use crate::error::ApiError;
    use crate::rounds::chess as rows;
    use fairseed_play::chess::{self, Command, PairCommand, SeedPhase};
    let current = loaded
        .iter()
        .map(rows::load)
        .collect::<Result<Vec<_>, _>>()?;
    let now = crate::clock::now();
    let (next, events) = match current.as_slice() {
        [seed] => {
            let command = match seed.phase {
                SeedPhase::Committed | SeedPhase::Seeking(_) => Command::Cancel {
                    player: seed.owner,
                    seed: rows::secret(&loaded[0])?,
                },
                SeedPhase::Playing(_) => Command::Finish {
                    player: seed.owner,
                    seed: rows::secret(&loaded[0])?,
                },
                SeedPhase::Finished { .. } | SeedPhase::Withdrawn { .. } => return Ok(None),
            };
            let (next, events) = chess::apply(seed, command, now).map_err(ApiError::rule)?;
            (vec![next], events)
        }
        [a, b] => {
            let playing = |s: &chess::Seed| matches!(s.phase, SeedPhase::Playing(_));
            if !playing(a) || !playing(b) {
                return Ok(None);
            }
            let command = PairCommand::Finish {
                player: a.owner,
                seeds: [rows::secret(&loaded[0])?, rows::secret(&loaded[1])?],
            };
            let ((a, b), events) = chess::apply_pair(a, b, command, now).map_err(ApiError::rule)?;
            (vec![a, b], events)
        }
        _ => {
            return Err(ApiError::internal(
                "a chess step over no seed or over three",
            ))
        }
    };
    let writes = loaded
        .iter()
        .zip(&next)
        .enumerate()
        .map(|(i, (round, seed))| rows::write(round, seed, &events, i == 0))
        .collect::<Result<_, _>>()?;
    let commit = fairseed_store::Commit {
        writes,
        ..fairseed_store::Commit::default()
    };
    Ok(Some((commit, next.len())))
}

/// Withdraws every open match and finishes every started one; how many.
async fn matches(state: &AppState) -> anyhow::Result<usize> {
    use crate::error::ApiError;
    use crate::rounds::matches as rows;
    use fairseed_play::matches::{self, Command, Phase};
    let mut retired = 0;
    for status in ["open", "started"] {
        let ids = state
            .store()
            .rounds_with_status(rows::KIND, status)
            .await
            .context("listing restored matches")?;
        for id in ids {
            let ended = crate::step::step_if(state, std::slice::from_ref(&id), |loaded| {
                let (current, seed) = rows::load(&loaded[0])?;
                let command = match current.phase {
                    Phase::Committed { .. } => Command::Withdraw { seed },
                    Phase::Drawing(_) => Command::Finish {
                        seed,
                        accounts: Vec::new(),
                    },
                    Phase::Revealed { .. } | Phase::Withdrawn { .. } => return Ok(None),
                };
                let (next, events) = matches::apply(&current, command, crate::clock::now())
                    .map_err(ApiError::rule)?;
                let commit = fairseed_store::Commit {
                    writes: vec![rows::write(&loaded[0], &next, &events)?],
                    ..fairseed_store::Commit::default()
                };
                Ok(Some((commit, ())))
            })
            .await
            .map_err(|e| anyhow::anyhow!("retiring restored match {id}: {}", e.chain()))?;
            retired += usize::from(ended.is_some());
        }
    }
    Ok(retired)
}
