//! AI-only tables played deterministically from one seed, for benchmarks,
//! tests and the `simulate` command. Live tables draw each hand's seed from
//! the OS CSPRNG instead; here every seed comes from the one given.

use fairseed_core::numpy::Pcg64;
use fairseed_play::Millis;

use crate::ai::{decide, Level, SeatView};
use crate::record::{record_of, HandRecord};
use crate::rules::{apply, Command, Event, HoldemError, Player, Table, TableConfig};

/// The seeds of one hand: the deal's (63 bits) and the AIs' decisions'.
#[derive(Debug, Clone, Copy)]
pub struct HandSeeds {
    /// The selfpoker seed.
    pub deal: u64,
    /// Mixed with the seat and the action's index for each AI decision.
    pub decisions: u64,
}

impl HandSeeds {
    /// The seeds of hand `index` (from 0) of a run seeded with `seed`.
    pub fn derive(seed: u64, index: u64) -> HandSeeds {
        let mut rng = Pcg64::new(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        HandSeeds {
            deal: rng.next_u64() >> 1,
            decisions: rng.next_u64(),
        }
    }
}

/// Plays one hand at `table` to its end, every seat asked through `level_of`.
///
/// # Errors
/// [`HoldemError`] if the hand cannot start (fewer than two seats ready).
pub fn play_hand(
    table: &Table,
    seeds: HandSeeds,
    level_of: &dyn Fn(usize) -> Level,
    now: Millis,
) -> Result<(Table, HandRecord, Vec<Event>), HoldemError> {
    let (mut t, mut events) = apply(table, Command::StartHand { seed: seeds.deal }, now)?;
    let mut step = 0u64;
    while let Some(hand) = &t.hand {
        step += 1;
        let view = SeatView::of(hand);
        let seat = view.seat;
        let seed = seeds.decisions ^ (step << 8 | seat as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let action = decide(level_of(seat), &view, seed);
        let (next, more) = apply(
            &t,
            Command::Act { seat, action },
            Millis(now.0 + step as i64),
        )?;
        t = next;
        events.extend(more);
    }
    let log = action_log(&events);
    let record = record_of(table, seeds.deal, &events, log).ok_or(HoldemError::NoHand)?;
    Ok((t, record, events))
}

/// The action log of a finished hand, rebuilt from its events.
pub(crate) fn action_log(events: &[Event]) -> Vec<crate::rules::Logged> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Acted {
                seat,
                street,
                action,
                timed_out,
                ..
            } => Some(crate::rules::Logged {
                seat: *seat,
                street: *street,
                action: *action,
                timed_out: *timed_out,
            }),
            _ => None,
        })
        .collect()
}

/// Plays `hands` hands at an AI-only table with one seat per entry of
/// `seats` (2 to 6), default blinds and stacks, every seed derived from
/// `seed`. A seat below the starting stack tops up before each hand.
///
/// # Errors
/// [`HoldemError::Config`] for fewer than 2 or more than 6 seats.
pub fn simulate(seats: &[Level], hands: u64, seed: u64) -> Result<Vec<HandRecord>, HoldemError> {
    let config = TableConfig {
        seats: seats.len(),
        ..TableConfig::default()
    };
    let mut table = Table::new(config)?;
    for (seat, level) in seats.iter().enumerate() {
        let player = Player::Ai {
            level: *level as u8,
        };
        table = apply(&table, Command::Sit { seat, player }, Millis(0))?.0;
    }
    let mut records = Vec::new();
    for index in 0..hands {
        for seat in 0..seats.len() {
            if table.seats[seat]
                .as_ref()
                .is_some_and(|s| s.stack < config.starting_stack)
            {
                table = apply(&table, Command::TopUp { seat }, Millis(0))?.0;
            }
        }
        let now = Millis(index as i64 * 1_000_000);
        let (next, record, _) =
            play_hand(&table, HandSeeds::derive(seed, index), &|s| seats[s], now)?;
        table = next;
        records.push(record);
    }
    Ok(records)
}
