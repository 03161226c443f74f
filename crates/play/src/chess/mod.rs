//! A chess seek, its acceptance and the game (`chess_colour_v1`): each
//! player's connection holds a seed committed before the opponent is known.
//!
//! One [`Seed`] per committed seed: committed → seeking (a client seed and,
//! for a challenge, the one opponent allowed) → playing (paired: the
//! colours drawn from both seeds, or from one against a bot) → finished
//! (both seeds revealed, one record both players read). A committed or
//! seeking seed can be withdrawn by its owner, and a seek expires
//! [`SEEK_TTL_MS`] after it opened: a withdrawn seed is **revealed** to its
//! owner (no colours were drawn with it, so revealing harms nobody, and
//! the owner can check the commitment was honest) and never used again.
//!
//! The state holds no unrevealed seed: commands that draw or reveal carry
//! the unsealed seeds, and the machine checks each against its commitment.
//! Whether a challenged opponent exists is a fact the caller looks up and
//! hands in ([`Opponent`]); the machine decides what it means.

mod error;
mod state;
mod view;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

use fairseed_core::chess::{self as colours, ChessSide};
use fairseed_core::record::ChessRecord;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};
use serde_json::json;

use crate::{Millis, PlayerId, Record};

pub use error::ChessError;
pub use state::{Pairing, Seed, SeedPhase, Seek, Side, Withdrawal, SEEK_TTL_MS};
pub use view::{game_view, view, GameView, SeedView};

/// A challenged player as the caller found them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opponent {
    /// The id asked for.
    pub id: PlayerId,
    /// Whether an account with that id exists.
    pub exists: bool,
}

/// A command on one seed.
#[derive(Debug, Clone)]
pub enum Command {
    /// Seek any opponent, or challenge one.
    Seek {
        /// The caller.
        player: PlayerId,
        /// The commitment the caller was shown.
        shown: Commitment,
        /// The caller's client seed.
        client: ClientSeed,
        /// A challenge's opponent.
        opponent: Option<Opponent>,
    },
    /// Play a bot: the colours from this seed alone.
    Bot {
        /// The caller.
        player: PlayerId,
        /// The commitment the caller was shown.
        shown: Commitment,
        /// The caller's client seed.
        client: ClientSeed,
        /// The unsealed seed.
        seed: ServerSeed,
    },
    /// Withdraw an unused or seeking seed: it is revealed.
    Cancel {
        /// The caller.
        player: PlayerId,
        /// The unsealed seed.
        seed: ServerSeed,
    },
    /// End a bot game: the seed is revealed, the record made.
    Finish {
        /// The caller.
        player: PlayerId,
        /// The unsealed seed.
        seed: ServerSeed,
    },
}

/// A command on two seeds: side A's then side B's.
#[derive(Debug, Clone)]
pub enum PairCommand {
    /// B accepts A's seek with B's committed seed: the colours are drawn.
    Accept {
        /// The caller (B's owner).
        player: PlayerId,
        /// The commitment of B's seed the caller was shown.
        shown: Commitment,
        /// B's client seed.
        client: ClientSeed,
        /// A's and B's unsealed seeds.
        seeds: [ServerSeed; 2],
    },
    /// Either player ends the game: both seeds revealed, one record.
    Finish {
        /// The caller.
        player: PlayerId,
        /// A's and B's unsealed seeds.
        seeds: [ServerSeed; 2],
    },
}

/// What a command did.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A seek (or challenge) opened.
    Sought {
        /// The challenged player, if any.
        opponent: Option<PlayerId>,
    },
    /// The colours were drawn.
    Paired {
        /// Who plays White.
        white: Side,
        /// Against a bot.
        bot: bool,
    },
    /// A seed was withdrawn and revealed.
    Withdrawn(Withdrawal),
    /// The game ended: the record, read by both players.
    Finished {
        /// The `chess_colour_v1` record.
        record: Record,
    },
}

/// Applies a one-seed command.
pub fn apply(seed: &Seed, command: Command, now: Millis) -> Result<(Seed, Vec<Event>), ChessError> {
    match command {
        Command::Seek {
            player,
            shown,
            client,
            opponent,
        } => seek(seed, player, &shown, client, opponent, now),
        Command::Bot {
            player,
            shown,
            client,
            seed: secret,
        } => bot(seed, player, &shown, client, &secret, now),
        Command::Cancel {
            player,
            seed: secret,
        } => cancel(seed, player, secret, now),
        Command::Finish {
            player,
            seed: secret,
        } => finish_bot(seed, player, secret, now),
    }
}

/// Applies a two-seed command to side A's and side B's seeds.
pub fn apply_pair(
    a: &Seed,
    b: &Seed,
    command: PairCommand,
    now: Millis,
) -> Result<((Seed, Seed), Vec<Event>), ChessError> {
    match command {
        PairCommand::Accept {
            player,
            shown,
            client,
            seeds,
        } => accept(a, b, player, &shown, client, &seeds, now),
        PairCommand::Finish { player, seeds } => finish_pair(a, b, player, seeds, now),
    }
}

fn seek(
    seed: &Seed,
    player: PlayerId,
    shown: &Commitment,
    client: ClientSeed,
    opponent: Option<Opponent>,
    now: Millis,
) -> Result<(Seed, Vec<Event>), ChessError> {
    seed.own_committed(player, shown, now)?;
    if let Some(o) = opponent {
        if o.id == player {
            return Err(ChessError::OwnChallenge(o.id));
        }
        if !o.exists {
            return Err(ChessError::UnknownOpponent(o.id));
        }
    }
    let opponent = opponent.map(|o| o.id);
    let next = seed.with(SeedPhase::Seeking(Seek {
        client,
        opponent,
        since: now,
    }));
    Ok((next, vec![Event::Sought { opponent }]))
}

fn bot(
    seed: &Seed,
    player: PlayerId,
    shown: &Commitment,
    client: ClientSeed,
    secret: &ServerSeed,
    now: Millis,
) -> Result<(Seed, Vec<Event>), ChessError> {
    seed.own_committed(player, shown, now)?;
    seed.check_seed(secret)?;
    let white = draw_white((seed, secret, &client), None);
    let next = seed.with(SeedPhase::Playing(Pairing {
        game: seed.id.clone(),
        side: Side::A,
        white,
        client,
        other: None,
    }));
    Ok((next, vec![Event::Paired { white, bot: true }]))
}

/// One side as the colour draw needs it: its seed's state, the unsealed
/// seed, the client seed.
type DrawSide<'a> = (&'a Seed, &'a ServerSeed, &'a ClientSeed);

/// Who plays White (docs/spec.md §6), `b` `None` against a bot.
fn draw_white<'a>(a: DrawSide<'a>, b: Option<DrawSide<'a>>) -> Side {
    fn side<'a>((seed, secret, client): DrawSide<'a>) -> ChessSide<'a> {
        ChessSide {
            seed: secret,
            commitment: &seed.commitment,
            client: client.as_str(),
        }
    }
    match colours::white(&side(a), b.map(side).as_ref()) {
        colours::Colour::A => Side::A,
        colours::Colour::B => Side::B,
    }
}

fn cancel(
    seed: &Seed,
    player: PlayerId,
    secret: ServerSeed,
    now: Millis,
) -> Result<(Seed, Vec<Event>), ChessError> {
    if seed.owner != player {
        return Err(ChessError::NotFound("chess seed"));
    }
    let why = match &seed.phase {
        SeedPhase::Committed => Withdrawal::Cancelled,
        SeedPhase::Seeking(seek) if now >= seek.expires_at() => Withdrawal::Expired,
        SeedPhase::Seeking(_) => Withdrawal::Cancelled,
        _ => return Err(seed.wrong_status("committed or seeking", now)),
    };
    seed.check_seed(&secret)?;
    let next = seed.with(SeedPhase::Withdrawn {
        why,
        server_seed: secret,
    });
    Ok((next, vec![Event::Withdrawn(why)]))
}

fn accept(
    a: &Seed,
    b: &Seed,
    player: PlayerId,
    shown: &Commitment,
    client: ClientSeed,
    [seed_a, seed_b]: &[ServerSeed; 2],
    now: Millis,
) -> Result<((Seed, Seed), Vec<Event>), ChessError> {
    // The seek's own seed on side B, whoever names it, is its owner's seek
    // accepted with itself: refused before its phase is read twice.
    if a.id == b.id {
        return Err(ChessError::OwnSeek);
    }
    let SeedPhase::Seeking(seek) = &a.phase else {
        return Err(ChessError::WrongStatus {
            status: a.status(now),
            expected: "seeking",
        });
    };
    if a.owner == player {
        return Err(ChessError::OwnSeek);
    }
    if seek.opponent.is_some_and(|o| o != player) {
        return Err(ChessError::NotFound("seek"));
    }
    if now >= seek.expires_at() {
        return Err(ChessError::SeekExpired);
    }
    b.own_committed(player, shown, now)?;
    a.check_seed(seed_a)?;
    b.check_seed(seed_b)?;
    let white = draw_white((a, seed_a, &seek.client), Some((b, seed_b, &client)));
    let pairing = |side, client, other: &Seed| Pairing {
        game: a.id.clone(),
        side,
        white,
        client,
        other: Some(other.id.clone()),
    };
    let next_a = a.with(SeedPhase::Playing(pairing(Side::A, seek.client.clone(), b)));
    let next_b = b.with(SeedPhase::Playing(pairing(Side::B, client, a)));
    Ok(((next_a, next_b), vec![Event::Paired { white, bot: false }]))
}

/// The pairing of a seed in play.
fn playing(seed: &Seed, now: Millis) -> Result<&Pairing, ChessError> {
    match &seed.phase {
        SeedPhase::Playing(p) => Ok(p),
        _ => Err(seed.wrong_status("playing", now)),
    }
}

fn finish_bot(
    seed: &Seed,
    player: PlayerId,
    secret: ServerSeed,
    now: Millis,
) -> Result<(Seed, Vec<Event>), ChessError> {
    if seed.owner != player {
        return Err(ChessError::NotFound("chess game"));
    }
    let pairing = playing(seed, now)?;
    if pairing.other.is_some() {
        return Err(seed.wrong_status("in a bot game", now));
    }
    seed.check_seed(&secret)?;
    let record = record(
        (seed, pairing, &secret),
        None,
        pairing.white,
        vec![seed.owner],
    );
    let next = seed.with(SeedPhase::Finished {
        pairing: pairing.clone(),
        server_seed: secret,
    });
    Ok((next, vec![Event::Finished { record }]))
}

fn finish_pair(
    a: &Seed,
    b: &Seed,
    player: PlayerId,
    [seed_a, seed_b]: [ServerSeed; 2],
    now: Millis,
) -> Result<((Seed, Seed), Vec<Event>), ChessError> {
    if a.owner != player && b.owner != player {
        return Err(ChessError::NotFound("chess game"));
    }
    let (pa, pb) = (playing(a, now)?, playing(b, now)?);
    let paired = pa.side == Side::A
        && pb.game == a.id
        && pa.other.as_deref() == Some(b.id.as_str())
        && pb.other.as_deref() == Some(a.id.as_str());
    if !paired {
        return Err(ChessError::NotFound("chess game"));
    }
    a.check_seed(&seed_a)?;
    b.check_seed(&seed_b)?;
    let mut readers = vec![a.owner, b.owner];
    readers.sort_unstable();
    readers.dedup();
    let record = record((a, pa, &seed_a), Some((b, pb, &seed_b)), pa.white, readers);
    let next_a = a.with(SeedPhase::Finished {
        pairing: pa.clone(),
        server_seed: seed_a,
    });
    let next_b = b.with(SeedPhase::Finished {
        pairing: pb.clone(),
        server_seed: seed_b,
    });
    Ok(((next_a, next_b), vec![Event::Finished { record }]))
}

/// One side as the record needs it.
type RecordSide<'a> = (&'a Seed, &'a Pairing, &'a ServerSeed);

/// The `chess_colour_v1` record of a finished game, both seeds revealed.
fn record(
    a: RecordSide<'_>,
    b: Option<RecordSide<'_>>,
    white: Side,
    readers: Vec<PlayerId>,
) -> Record {
    let body = ChessRecord {
        seed_a: Some(a.2.clone()),
        commit_a: a.0.commitment,
        client_a: a.1.client.clone(),
        seed_b: b.map(|b| b.2.clone()),
        commit_b: b.map(|b| b.0.commitment),
        client_b: b.map_or_else(String::new, |b| b.1.client.as_str().to_owned()),
        outcome: json!({"white": white.as_str()}).as_object().cloned(),
    }
    .to_value();
    Record {
        scheme: "chess_colour_v1",
        body,
        readers,
    }
}
