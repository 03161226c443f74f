//! The one door out of chess seeds: what each viewer may see of a seed
//! (a seek, in a list) and of a game.
//!
//! The owner and the operator see a seed whole (its seed once revealed);
//! another player sees an open seek only — and a challenge only if it is
//! theirs; the public sees open seeks that challenge nobody. A game is
//! seen by its two players and the operator.

use serde::Serialize;

use super::state::{Pairing, Seed, SeedPhase, Side};
use crate::{PlayerId, Viewer};

/// A seed as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeedView {
    /// The seed's (and the seek's) id.
    pub seed_id: String,
    /// Its commitment.
    pub commitment: String,
    /// `committed`, `seeking`, `playing`, `finished`, `cancelled` or `expired`.
    pub status: &'static str,
    /// True for a challenge.
    pub challenge: bool,
    /// A seek: when it stops being acceptable (Unix ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
    /// Owner and operator: the challenged player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent: Option<PlayerId>,
    /// Owner and operator: the client seed given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
    /// Owner and operator: the game the seed plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
    /// Owner and operator: the seed, once revealed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
}

/// A game as one of its players (or the operator) sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// Side A's seed id.
    pub game_id: String,
    /// Who plays White.
    pub white: &'static str,
    /// The viewer's side (`None` for the operator).
    pub you: Option<&'static str>,
    /// The viewer's colour (`None` for the operator).
    pub colour: Option<&'static str>,
    /// Against a bot.
    pub bot: bool,
    /// `playing` or `finished`.
    pub status: &'static str,
}

/// The status word of a seed, time aside (an expired seek still reads
/// `seeking` here; its `expires_at` says when it closed).
fn status(seed: &Seed) -> &'static str {
    seed.status(crate::Millis(i64::MIN))
}

/// What `viewer` may see of `seed`, or nothing.
pub fn view(seed: &Seed, viewer: Viewer) -> Option<SeedView> {
    let whole = match viewer {
        Viewer::Operator => true,
        Viewer::Player(p) => p == seed.owner,
        Viewer::Public => false,
    };
    let seek = match &seed.phase {
        SeedPhase::Seeking(seek) => Some(seek),
        _ => None,
    };
    let visible = whole
        || seek.is_some_and(|s| match viewer {
            Viewer::Player(p) => s.opponent.is_none_or(|o| o == p),
            _ => s.opponent.is_none(),
        });
    if !visible {
        return None;
    }
    let mut out = SeedView {
        seed_id: seed.id.clone(),
        commitment: seed.commitment.to_hex(),
        status: status(seed),
        challenge: seek.is_some_and(|s| s.opponent.is_some()),
        expires_at: seek.map(|s| s.expires_at().0),
        opponent: None,
        client_seed: None,
        game_id: None,
        server_seed: None,
    };
    if whole {
        out.opponent = seek.and_then(|s| s.opponent);
        let (client, game, revealed) = match &seed.phase {
            SeedPhase::Committed => (None, None, None),
            SeedPhase::Seeking(s) => (Some(&s.client), None, None),
            SeedPhase::Playing(p) => (Some(&p.client), Some(&p.game), None),
            SeedPhase::Finished {
                pairing,
                server_seed,
            } => (
                Some(&pairing.client),
                Some(&pairing.game),
                Some(server_seed),
            ),
            SeedPhase::Withdrawn { server_seed, .. } => (None, None, Some(server_seed)),
        };
        out.client_seed = client.map(|c| c.as_str().to_owned());
        out.game_id = game.cloned();
        out.server_seed = revealed.map(|s| s.reveal().to_owned());
    }
    Some(out)
}

fn pairing(seed: &Seed) -> Option<&Pairing> {
    match &seed.phase {
        SeedPhase::Playing(p) | SeedPhase::Finished { pairing: p, .. } => Some(p),
        _ => None,
    }
}

/// What `viewer` may see of the game `seed` plays (either side's seed, with
/// the other side's when there is one), or nothing.
pub fn game_view(seed: &Seed, other: Option<&Seed>, viewer: Viewer) -> Option<GameView> {
    let mine = pairing(seed)?;
    let you = match viewer {
        Viewer::Operator => None,
        Viewer::Player(p) if p == seed.owner => Some(mine.side),
        Viewer::Player(p) if other.is_some_and(|o| o.owner == p) => Some(match mine.side {
            Side::A => Side::B,
            Side::B => Side::A,
        }),
        Viewer::Player(_) | Viewer::Public => return None,
    };
    Some(GameView {
        game_id: mine.game.clone(),
        white: mine.white.as_str(),
        you: you.map(Side::as_str),
        colour: you.map(|s| if s == mine.white { "white" } else { "black" }),
        bot: mine.other.is_none(),
        status: status(seed),
    })
}
