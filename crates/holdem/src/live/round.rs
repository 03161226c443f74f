//! The round before each hand of a `selfpoker_v3` table (docs/spec.md §20.2):
//! every human to be dealt in commits to a fresh per-hand value, no value is
//! accepted before the commits are in, and the hand is dealt from the values
//! revealed. A seat that commits and does not reveal is sat out and dealt
//! without, and the table says so in a public message and the hand's record:
//! the last to reveal can choose nothing but that, in plain sight.
//!
//! Pure: the time is an argument; the service supplies the session secret.

use std::collections::BTreeMap;

use fairseed_core::selfpoker_v3::{self, HandEntry, HandValue};
use fairseed_core::Commitment;
use fairseed_play::Millis;

use super::command::apply;
use super::error::{DerivationError, HandValueError, LiveError, RoundRefusal};
pub use super::hand_round::{phase_ms, HandRound, NoHandWhy, Phase, RoundNotice, MAX_PHASE_MS};
use super::message::Message;
use super::session::{ClientSeed, Scheme};
use super::table::LiveTable;
use crate::rules::{Command, Player};

/// The open round of `live`, if one is.
pub fn open_round(live: &LiveTable) -> Option<&HandRound> {
    live.round.as_ref().filter(|r| r.is_open())
}

/// Opens the round of the next hand at `now` for the humans ready to be
/// dealt in (docs/spec.md §20.2, step 1).
///
/// # Errors
/// [`LiveError::NotDue`] unless the table is `selfpoker_v3`, between hands,
/// with no round open, two seats ready and a human among them.
pub fn open(live: &LiveTable, now: Millis) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let ready = live.table.ready_seats();
    let seats: Vec<usize> = ready
        .iter()
        .copied()
        .filter(|&s| is_human(live, s))
        .collect();
    let due = live.session.scheme == Scheme::SelfpokerV3
        && live.table.hand.is_none()
        && open_round(live).is_none()
        && ready.len() >= 2
        && !seats.is_empty();
    if !due {
        return Err(LiveError::NotDue);
    }
    let hand = live.table.hands_played + 1;
    let deadline = after(now, live);
    let mut next = live.clone();
    next.round = Some(HandRound {
        hand,
        seats: seats.clone(),
        commits: BTreeMap::new(),
        values: BTreeMap::new(),
        phase: Phase::Commit,
        deadline,
    });
    let notice = RoundNotice::Opened {
        hand,
        seats,
        deadline,
    };
    let messages = vec![announce(&mut next, notice)];
    Ok((next, messages))
}

/// `seat` commits to `commit` for `hand` (step 2); once every seat of the
/// round has, the reveal phase opens.
///
/// # Errors
/// [`LiveError::Round`] when no round of `hand` takes commits or `seat` is
/// not in it or committed already; [`LiveError::HandValue`] for a commit
/// that is not 64 hex characters.
pub fn commit(
    live: &LiveTable,
    seat: usize,
    hand: u64,
    commit: &str,
    now: Millis,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let round = phase_round(live, hand, Phase::Commit)?;
    if !round.seats.contains(&seat) {
        return Err(RoundRefusal::NotInRound { seat, hand }.into());
    }
    if round.commits.contains_key(&seat) {
        return Err(RoundRefusal::CommittedAlready { seat, hand }.into());
    }
    let commit = Commitment::parse_field(commit, "commit")
        .map_err(HandValueError::Form)?
        .to_hex();
    if live.spent_commits.contains(&commit) {
        return Err(HandValueError::SpentCommit { hand }.into());
    }
    let mut next = live.clone();
    let mut messages = vec![];
    if let Some(r) = next.round.as_mut() {
        r.commits.insert(seat, commit.clone());
    }
    messages.push(announce(
        &mut next,
        RoundNotice::Committed { hand, seat, commit },
    ));
    let all_in = next
        .round
        .as_ref()
        .is_some_and(|r| r.commits.len() == r.seats.len());
    if all_in {
        let (after, more) = close_commits(&next, now)?;
        next = after;
        messages.extend(more);
    }
    Ok((next, messages))
}

/// Ends the commit phase at `now` (every seat committed, or its deadline
/// passed): a seat that did not commit is sat out, and the reveal phase
/// opens (step 3). With no commit at all the round ends without a hand.
///
/// # Errors
/// [`LiveError::Round`] when no round is in its commit phase.
pub fn close_commits(
    live: &LiveTable,
    now: Millis,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let round = open_round(live)
        .filter(|r| r.phase == Phase::Commit)
        .ok_or(RoundRefusal::NoCommitPhase)?
        .clone();
    let hand = round.hand;
    let absent = round
        .seats
        .iter()
        .filter(|s| !round.commits.contains_key(s));
    let (mut next, mut messages) = sit_out(live, absent, now, |seat| RoundNotice::NotCommitted {
        hand,
        seat,
    })?;
    if round.commits.is_empty() {
        next.round = None;
        let why = NoHandWhy::NobodyCommitted;
        messages.push(announce(&mut next, RoundNotice::NoHand { hand, why }));
        return Ok((next, messages));
    }
    let deadline = after(now, &next);
    if let Some(r) = next.round.as_mut() {
        r.phase = Phase::Reveal;
        r.deadline = deadline;
    }
    messages.push(announce(
        &mut next,
        RoundNotice::Revealing { hand, deadline },
    ));
    Ok((next, messages))
}

/// `seat` reveals `value` for `hand` (step 3).
///
/// # Errors
/// [`LiveError::Round`] when no round of `hand` takes values or `seat`
/// did not commit or revealed already; [`LiveError::HandValue`] for a value
/// that is not 64 lowercase hex characters; [`LiveError::ValueMismatch`]
/// when its `sha256` is not the seat's commit (the seat may send the right
/// one until the deadline).
pub fn reveal(
    live: &LiveTable,
    seat: usize,
    hand: u64,
    value: &str,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let round = phase_round(live, hand, Phase::Reveal)?;
    let Some(commit) = round.commits.get(&seat) else {
        return Err(RoundRefusal::NotCommitted { seat, hand }.into());
    };
    if round.values.contains_key(&seat) {
        return Err(RoundRefusal::RevealedAlready { seat, hand }.into());
    }
    let parsed = HandValue::parse_field(value, "value").map_err(HandValueError::Form)?;
    if !parsed.matches(commit) {
        return Err(LiveError::ValueMismatch(hand));
    }
    let mut next = live.clone();
    if let Some(r) = next.round.as_mut() {
        r.values.insert(seat, parsed.as_hex().to_owned());
    }
    let messages = vec![announce(&mut next, RoundNotice::Revealed { hand, seat })];
    Ok((next, messages))
}

/// Ends the round at `now` and deals its hand (step 4): each seat that
/// committed and did not reveal is sat out and named, then the hand is dealt
/// from the seed of docs/spec.md §20.3 when two seats, a human among them,
/// are still ready; otherwise the round ends without a hand.
///
/// # Errors
/// [`LiveError::Round`] when no round is in its reveal phase;
/// [`LiveError::Derivation`] when the seed cannot be derived.
pub fn deal(
    live: &LiveTable,
    secret: &[u8; 32],
    now: Millis,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let round = open_round(live)
        .filter(|r| r.phase == Phase::Reveal)
        .ok_or(RoundRefusal::NoRevealPhase)?
        .clone();
    let hand = round.hand;
    let withheld = round.withheld();
    let (mut next, mut messages) = sit_out(live, withheld.iter(), now, |seat| {
        RoundNotice::Withheld { hand, seat }
    })?;
    let ready = next.table.ready_seats();
    if ready.len() < 2 || !ready.iter().any(|&s| is_human(&next, s)) {
        next.round = None;
        next.spent_commits.extend(round.commits.into_values());
        let why = NoHandWhy::TooFewReady;
        messages.push(announce(&mut next, RoundNotice::NoHand { hand, why }));
        return Ok((next, messages));
    }
    let dealt_in: Vec<ClientSeed> = next
        .client_seeds
        .iter()
        .filter(|c| round.values.contains_key(&c.seat))
        .cloned()
        .collect();
    let humans_ready: Vec<usize> = ready.into_iter().filter(|&s| is_human(&next, s)).collect();
    let revealed: Vec<usize> = round.values.keys().copied().collect();
    if humans_ready != revealed {
        return Err(DerivationError::ReadyNotRevealed {
            ready: humans_ready,
            revealed,
        }
        .into());
    }
    let seed = hand_seed(&next, secret, hand, &dealt_in, &round.values)?;
    let (mut after, more) = apply(&next, Command::StartHand { seed }, now)?;
    messages.extend(more);
    let mut sorted = dealt_in;
    sorted.sort_by_key(|c| c.seat);
    after.hand_client_seeds = sorted;
    if let Some(r) = after.round.as_mut() {
        r.phase = Phase::Dealt;
    }
    Ok((after, messages))
}

/// The seed of hand `hand` under `selfpoker_v3` from the humans dealt in
/// (`seeds`) and their revealed `values`.
///
/// # Errors
/// [`LiveError::Derivation`] when a seat has no value or an input is out
/// of range.
pub(crate) fn hand_seed(
    live: &LiveTable,
    secret: &[u8; 32],
    hand: u64,
    seeds: &[ClientSeed],
    values: &BTreeMap<usize, String>,
) -> Result<u64, LiveError> {
    let entries = seeds
        .iter()
        .map(|c| {
            let value = values
                .get(&c.seat)
                .ok_or(DerivationError::NoValue { seat: c.seat })?;
            HandEntry::new(c.seat, &c.seed, value).map_err(DerivationError::Input)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(
        selfpoker_v3::hand_seed(secret, &live.table_id, hand, &entries)
            .map_err(DerivationError::Input)?,
    )
}

/// The open round of `hand` in `phase`.
fn phase_round(live: &LiveTable, hand: u64, phase: Phase) -> Result<&HandRound, LiveError> {
    let round = open_round(live).ok_or(RoundRefusal::NoneOpen { hand })?;
    if round.hand != hand {
        let open = round.hand;
        return Err(RoundRefusal::OtherHand { open, hand }.into());
    }
    if round.phase != phase {
        let phase = round.phase;
        return Err(RoundRefusal::OtherPhase { hand, phase }.into());
    }
    Ok(round)
}

/// Sits each of `seats` out at `now`, with the notice `notice` gives it.
fn sit_out<'a>(
    live: &LiveTable,
    seats: impl Iterator<Item = &'a usize>,
    now: Millis,
    notice: impl Fn(usize) -> RoundNotice,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    let mut next = live.clone();
    let mut messages = Vec::new();
    for &seat in seats {
        let (after, more) = apply(&next, Command::SitOut { seat }, now)?;
        next = after;
        messages.extend(more);
        messages.push(announce(&mut next, notice(seat)));
    }
    Ok((next, messages))
}

fn is_human(live: &LiveTable, seat: usize) -> bool {
    live.table
        .seats
        .get(seat)
        .and_then(Option::as_ref)
        .is_some_and(|s| matches!(s.player, Player::Human { .. }))
}

/// When a phase beginning at `now` ends.
fn after(now: Millis, live: &LiveTable) -> Millis {
    Millis(now.0.saturating_add(phase_ms(live.table.config.action_ms)))
}

/// Numbers `notice` as the table's next public message.
fn announce(next: &mut LiveTable, notice: RoundNotice) -> Message {
    next.seq += 1;
    Message::Round {
        seq: next.seq,
        notice,
    }
}
