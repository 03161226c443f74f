//! The commands a poker table takes, and the rules each one checks.

use std::collections::BTreeMap;

use fairseed_core::poker;
use fairseed_core::{ClientSeed, Commitment, ServerSeed};

use super::error::PokerError;
use super::hand_view::{view_hand, HandView};
use super::rotation::{RotateWhy, MAX_AGE_MS, MAX_HANDS};
use super::state::{Hand, RotatedSession, Seat, Session, SessionSeed, State, Street, MAX_SEAT};
use crate::{Millis, PlayerId, Viewer};

/// What a caller asks of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `player` sits at `seat` (or gives a new client seed at their seat),
    /// with a client seed chosen after seeing the session commitment `shown`.
    Sit {
        /// The player.
        player: PlayerId,
        /// 0..=9.
        seat: u8,
        /// Their client seed.
        client_seed: ClientSeed,
        /// The commitment they saw.
        shown: Commitment,
    },
    /// The operator starts the next hand with every ready seat.
    StartHand,
    /// The operator deals the next street of hand `n` (the latest).
    DealStreet {
        /// The hand.
        n: u64,
    },
    /// `player` leaves; if the table empties, the session rotates and
    /// `next_seed` opens the next one.
    Leave {
        /// The player.
        player: PlayerId,
        /// The next session's seed, used only if the table empties.
        next_seed: ServerSeed,
    },
    /// The session rotates; `next_seed` opens the next one.
    Rotate {
        /// Why.
        why: RotateWhy,
        /// The next session's seed.
        next_seed: ServerSeed,
    },
}

/// What happened. Events name what changed; what a viewer may learn of it
/// comes from [`super::view`], [`super::view_hand`] and [`super::public_event`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A player sat (or re-seeded) at a seat.
    Sat {
        /// The seat.
        seat: u8,
        /// The player.
        player: PlayerId,
    },
    /// Hand `n` started: its commitments are published, no card.
    HandStarted {
        /// The hand.
        n: u64,
    },
    /// The next street of hand `n` was dealt.
    StreetDealt {
        /// The hand.
        n: u64,
        /// The street now public.
        street: Street,
    },
    /// A player left their seat.
    Left {
        /// The seat they left.
        seat: u8,
        /// The player.
        player: PlayerId,
        /// Their view, as they left, of each hand they played and had not
        /// left before: each holds the proofs for one `poker_hmac_v1_proof` record.
        proofs: Vec<HandView>,
    },
    /// The session rotated and the next one opened (the state's session).
    Rotated(Box<RotatedSession>),
}

/// Runs `command` on `state` at `now`.
///
/// # Errors
/// The command breaks a rule; `state` is unchanged (it was consumed, the
/// caller keeps the loaded copy).
pub fn apply(
    state: State,
    command: Command,
    now: Millis,
) -> Result<(State, Vec<Event>), PokerError> {
    match command {
        Command::Sit {
            player,
            seat,
            client_seed,
            shown,
        } => sit(state, player, seat, client_seed, shown),
        Command::StartHand => start_hand(state, now),
        Command::DealStreet { n } => deal_street(state, n),
        Command::Leave { player, next_seed } => leave(state, player, next_seed, now),
        Command::Rotate { why, next_seed } => {
            let (state, event) = rotate(state, why, next_seed, now)?;
            Ok((state, vec![event]))
        }
    }
}

/// Whether the session must rotate before another hand, and why.
pub fn due(state: &State, now: Millis) -> Option<RotateWhy> {
    if state.session.hands.len() >= MAX_HANDS {
        Some(RotateWhy::Hands)
    } else if now.since(state.session.opened) >= MAX_AGE_MS {
        Some(RotateWhy::Age)
    } else {
        None
    }
}

fn sit(
    mut state: State,
    player: PlayerId,
    seat: u8,
    client_seed: ClientSeed,
    shown: Commitment,
) -> Result<(State, Vec<Event>), PokerError> {
    if !state.seed.commitment.ct_eq_commitment(&shown) {
        return Err(PokerError::CommitmentMismatch);
    }
    if seat > MAX_SEAT {
        return Err(PokerError::InvalidSeat(seat));
    }
    let seats = &mut state.table.seats;
    if let Some(other) = seats
        .iter()
        .find(|(s, v)| v.player == player && **s != seat)
        .map(|(s, _)| *s)
    {
        return Err(PokerError::AlreadySeated(other));
    }
    if seats.get(&seat).is_some_and(|s| s.player != player) {
        return Err(PokerError::SeatTaken(seat));
    }
    seats.insert(
        seat,
        Seat {
            player,
            client_seed: Some(client_seed),
        },
    );
    Ok((state, vec![Event::Sat { seat, player }]))
}

fn start_hand(mut state: State, now: Millis) -> Result<(State, Vec<Event>), PokerError> {
    if let Some(why) = due(&state, now) {
        return Err(PokerError::SessionDue(why));
    }
    let ready: BTreeMap<u8, (PlayerId, ClientSeed)> = state
        .table
        .seats
        .iter()
        .filter_map(|(seat, s)| Some((*seat, (s.player, s.client_seed.clone()?))))
        .collect();
    if ready.len() < 2 {
        return Err(PokerError::NotEnoughPlayers(ready.len()));
    }
    let n = state.session.hands.len() as u64 + 1;
    let seats: BTreeMap<u8, ClientSeed> = ready
        .iter()
        .map(|(seat, (_, c))| (*seat, c.clone()))
        .collect();
    let value = poker::hand_value(
        &state.seed.seed,
        &state.session.table,
        &state.session.session,
        n,
    );
    let deck = poker::deal(
        &value,
        &state.session.table,
        &state.session.session,
        n,
        &seats,
    )?;
    state.session.hands.push(Hand {
        n,
        players: ready.iter().map(|(seat, (p, _))| (*seat, *p)).collect(),
        seats,
        hand_commitment: value.commitment(),
        deck_root: Commitment::parse_field(&deck.root(), "deck_root")?,
        street: Street::Preflop,
        left: BTreeMap::new(),
    });
    Ok((state, vec![Event::HandStarted { n }]))
}

fn deal_street(mut state: State, n: u64) -> Result<(State, Vec<Event>), PokerError> {
    state.session.hand(n)?;
    let latest = state.session.hands.len() as u64;
    let hand = state
        .session
        .hands
        .last_mut()
        .filter(|_| n == latest)
        .ok_or(PokerError::HandOver("only the latest hand deals streets"))?;
    let street = hand
        .street
        .next()
        .ok_or(PokerError::HandOver("the river is already dealt"))?;
    hand.street = street;
    Ok((state, vec![Event::StreetDealt { n, street }]))
}

fn leave(
    mut state: State,
    player: PlayerId,
    next_seed: ServerSeed,
    now: Millis,
) -> Result<(State, Vec<Event>), PokerError> {
    let seat = state
        .table
        .seats
        .iter()
        .find(|(_, s)| s.player == player)
        .map(|(seat, _)| *seat)
        .ok_or(PokerError::NotSeated)?;
    state.table.seats.remove(&seat);
    let mut hands = Vec::new();
    for hand in &mut state.session.hands {
        let Some(hand_seat) = hand.seat_of(player) else {
            continue;
        };
        if let std::collections::btree_map::Entry::Vacant(slot) = hand.left.entry(hand_seat) {
            slot.insert(hand.street);
            hands.push(hand.n);
        }
    }
    let proofs = hands
        .into_iter()
        .map(|n| view_hand(&state, n, Viewer::Player(player)))
        .collect::<Result<_, _>>()?;
    let mut events = vec![Event::Left {
        seat,
        player,
        proofs,
    }];
    if state.table.seats.is_empty() {
        let (next, rotated) = rotate(state, RotateWhy::Empty, next_seed, now)?;
        state = next;
        events.push(rotated);
    }
    Ok((state, events))
}

fn rotate(
    state: State,
    why: RotateWhy,
    next_seed: ServerSeed,
    now: Millis,
) -> Result<(State, Event), PokerError> {
    let State {
        mut table,
        session,
        seed,
    } = state;
    table.session_no += 1;
    for seat in table.seats.values_mut() {
        seat.client_seed = None;
    }
    let next = State {
        session: Session::open(table.table.clone(), table.session_no, now)?,
        table,
        seed: SessionSeed::new(next_seed),
    };
    let rotated = RotatedSession { why, session, seed };
    Ok((next, Event::Rotated(Box::new(rotated))))
}
