//! What a person asks of a live table ([`request`]), and what the service
//! does to a table as a whole: [`resume`] it when a process starts serving
//! it, [`close`] it when it is quiet or the operator says so.

use fairseed_play::{Millis, PlayerId};

use super::command::apply;
use super::error::LiveError;
use super::message::Message;
use super::round;
use super::session::{ClientSeed, SessionEnd};
use super::table::LiveTable;
use crate::rules::{Action, Command, HoldemError, Player};

/// What a person asks of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Take `seat`, giving a client seed (1 to 64 bytes of printable text,
    /// as every chosen client seed: `ClientSeed::parse_chosen`).
    Sit {
        /// The seat.
        seat: usize,
        /// The client seed for the v2 derivation.
        client_seed: String,
        /// The table's invitation, as its opener shared it: what a person
        /// other than the opener needs at a private table.
        invitation: Option<String>,
        /// The player is the house's: one the operator created (the
        /// service knows it from its store).
        house: bool,
    },
    /// Act on the player's turn.
    Act(Action),
    /// Stop being dealt in.
    SitOut,
    /// Be dealt in again.
    SitIn,
    /// Refill the stack to the starting stack.
    TopUp,
    /// Leave the table.
    Leave,
    /// Commit to a per-hand value for `hand`'s round (`selfpoker_v3`).
    Commit {
        /// The hand.
        hand: u64,
        /// `sha256` of the value's 64 hex characters, hex.
        commit: String,
    },
    /// Reveal the per-hand value committed to for `hand`.
    Reveal {
        /// The hand.
        hand: u64,
        /// The value, 64 lowercase hex characters.
        value: String,
    },
}

/// Applies `request` from `player` at `now`.
///
/// # Errors
/// [`LiveError`] naming the refusal; the table is then unchanged.
pub fn request(
    live: &LiveTable,
    player: PlayerId,
    request: Request,
    now: Millis,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    if live.closed {
        return Err(LiveError::Closed);
    }
    let seated = live.seat_of(player);
    if let Some(round) = round::open_round(live) {
        if !matches!(
            request,
            Request::Commit { .. } | Request::Reveal { .. } | Request::Act(_)
        ) {
            return Err(LiveError::RoundOpen(round.hand));
        }
    }
    if let Request::Sit {
        seat,
        client_seed,
        invitation,
        house,
    } = request
    {
        if let Some(at) = seated {
            return Err(LiveError::AlreadySeated(at));
        }
        let came = live.admits(player, invitation.as_deref(), house)?;
        fairseed_core::ClientSeed::parse_chosen(&client_seed, "client_seed")
            .map_err(LiveError::ClientSeed)?;
        let human = Player::Human { id: player };
        let (mut next, messages) = apply(
            live,
            Command::Sit {
                seat,
                player: human,
            },
            now,
        )?;
        next.client_seeds.retain(|c| c.seat != seat);
        next.client_seeds.push(ClientSeed {
            seat,
            seed: client_seed,
        });
        next.arrivals.retain(|(s, _)| *s != seat);
        next.arrivals.extend(came.map(|came| (seat, came)));
        next.quiet_since = Some(now);
        return Ok((next, messages));
    }
    let seat = seated.ok_or(LiveError::NotSeated)?;
    let command = match request {
        Request::Sit { .. } => return Err(LiveError::AlreadySeated(seat)),
        Request::Commit { hand, commit } => {
            return round::commit(live, seat, hand, &commit, now).map(|(mut next, messages)| {
                next.quiet_since = Some(now);
                (next, messages)
            })
        }
        Request::Reveal { hand, value } => {
            return round::reveal(live, seat, hand, &value).map(|(mut next, messages)| {
                next.quiet_since = Some(now);
                (next, messages)
            })
        }
        Request::Act(action) => Command::Act { seat, action },
        Request::SitOut => Command::SitOut { seat },
        Request::SitIn => Command::SitIn { seat },
        Request::TopUp => Command::TopUp { seat },
        Request::Leave => Command::Leave { seat },
    };
    if let (Command::Leave { .. }, Some(hand)) = (command, &live.table.hand) {
        if live.humans().len() == 1 && !live.table.in_hand(seat) {
            // The last human's leave ends the session: never mid-hand. (A
            // seat dealt in, folded or not, is refused by the rules: `in_hand`.)
            return Err(HoldemError::HandRunning(hand.number).into());
        }
    }
    let (mut next, messages) = apply(live, command, now)?;
    if matches!(command, Command::Leave { .. }) {
        next.client_seeds.retain(|c| c.seat != seat);
        next.arrivals.retain(|(s, _)| *s != seat);
        next.closed = next.humans().is_empty();
        if next.closed {
            next.end = Some(SessionEnd::TableEmpty);
        }
    }
    next.quiet_since = Some(now);
    Ok((next, messages))
}

/// The table as a process that starts serving it finds it (docs/spec.md
/// §19.1): time counts only while a table is served, so after any downtime
/// the running turn's clock starts again in full at `now`, and so does the
/// quiet spell after which a table nobody can be dealt into closes. Nothing
/// else changes: no card, no seat, no chip.
pub fn resume(live: &LiveTable, now: Millis) -> LiveTable {
    let mut next = live.clone();
    if let Some(hand) = &mut next.table.hand {
        hand.deadline = Millis(now.0.saturating_add(hand.action_ms));
    }
    if next.quiet_since.is_some() {
        next.quiet_since = Some(now);
    }
    let phase_ms = round::phase_ms(next.table.config.action_ms);
    if let Some(round) = next.round.as_mut().filter(|r| r.is_open()) {
        round.deadline = Millis(now.0.saturating_add(phase_ms));
    }
    if let Some(ended) = next.ended_at {
        next.ended_at = Some(ended.max(now));
    }
    next
}

/// Closes a quiet table (see [`super::driver::Due::Close`]) or the operator's:
/// every person still seated leaves, and the table plays no more, so its
/// session ends. Never while a hand is played or its round is open: a close
/// then would end the session on a deck the house already knows, with no
/// record of the hand and no withheld seat named (docs/spec.md §17.4).
///
/// # Errors
/// [`HoldemError::HandRunning`] while a hand is being played,
/// [`LiveError::RoundOpen`] while the round of the next hand is open.
pub fn close(live: &LiveTable, now: Millis) -> Result<(LiveTable, Vec<Message>), LiveError> {
    if let Some(hand) = &live.table.hand {
        return Err(HoldemError::HandRunning(hand.number).into());
    }
    if let Some(round) = round::open_round(live) {
        return Err(LiveError::RoundOpen(round.hand));
    }
    let mut next = live.clone();
    let mut messages = Vec::new();
    for (seat, _) in live.humans() {
        let (after, more) = apply(&next, Command::Leave { seat }, now)?;
        next = after;
        messages.extend(more);
    }
    next.client_seeds.clear();
    next.arrivals.clear();
    next.closed = true;
    next.end = Some(if live.nobody_joined() {
        SessionEnd::TableUnjoined
    } else {
        SessionEnd::TableIdle
    });
    Ok((next, messages))
}
