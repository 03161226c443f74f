//! AI-only tables played deterministically from one seed, for benchmarks,
//! tests and the `simulate` command. Live tables draw each hand's seed from
//! the OS CSPRNG instead; here every seed comes from the one given.
//!
//! With a [`SessionV2`] some seats are humans (played by the AI of their
//! level, standing in) with client seeds, and every hand's seed is derived
//! under `selfpoker_v2` from a session secret that also derives from the run's
//! seed: test data for the derivation's verifier, not a live session. Its
//! AIs then decide as at a live table, each decision seeded from the session
//! secret (docs/spec.md §18), and each AI seat names its engine, so
//! `fairseed verify` replays their decisions too.

use fairseed_core::numpy::Pcg64;
use fairseed_core::selfpoker_v2::{self, ClientSeedEntry};
use fairseed_play::Millis;

use crate::ai::{decide, DecisionKey, Level, SeatView, ENGINE_V1};
use crate::deal::DealV2;
use crate::record::{record_of, HandRecord};
use crate::rules::{
    apply, Action, Command, Event, HandState, HoldemError, Player, Table, TableConfig,
};

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
    let mut step = 0u64;
    play_hand_with(table, seeds.deal, now, &mut |hand| {
        step += 1;
        let view = SeatView::of(hand);
        let seat = view.seat;
        let seed = seeds.decisions ^ (step << 8 | seat as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        decide(level_of(seat), &view, seed)
    })
}

/// Plays one hand at `table` dealt from `deal_seed` to its end, asking
/// `act` for the action of the seat to act each time. `act` sees the whole
/// hand (every seat's cards): honest players cut their seat's view from it
/// ([`SeatView::of`]); a test double may peek, and `fairseed verify` catches it.
///
/// # Errors
/// [`HoldemError`] if the hand cannot start, or `act` answers an illegal action.
pub fn play_hand_with(
    table: &Table,
    deal_seed: u64,
    now: Millis,
    act: &mut dyn FnMut(&HandState) -> Action,
) -> Result<(Table, HandRecord, Vec<Event>), HoldemError> {
    let (mut t, mut events) = apply(table, Command::StartHand { seed: deal_seed }, now)?;
    let mut step = 0i64;
    while let Some(hand) = &t.hand {
        step += 1;
        let seat = hand.seat_to_act();
        let action = act(hand);
        let (next, more) = apply(&t, Command::Act { seat, action }, Millis(now.0 + step))?;
        t = next;
        events.extend(more);
    }
    let log = action_log(&events);
    let record = record_of(table, deal_seed, &events, log).ok_or(HoldemError::NoHand)?;
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

/// A simulated `selfpoker_v2` session: the table and the seats that are
/// humans, with their client seeds.
#[derive(Debug, Clone)]
pub struct SessionV2 {
    /// The table id in every hand's message.
    pub table_id: String,
    /// The human seats' client seeds.
    pub client_seeds: Vec<ClientSeedEntry>,
}

impl SessionV2 {
    /// The session secret of a run seeded with `seed`: 32 bytes from the
    /// run's generator (a live session draws them from the OS CSPRNG).
    pub fn secret(seed: u64) -> [u8; 32] {
        let mut rng = Pcg64::new(seed ^ 0x5e55_10f5_ec2e_7000);
        let mut out = [0u8; 32];
        for chunk in out.chunks_exact_mut(8) {
            chunk.copy_from_slice(&rng.next_u64().to_be_bytes());
        }
        out
    }

    fn is_human(&self, seat: usize) -> bool {
        self.client_seeds.iter().any(|e| e.seat == seat)
    }
}

/// Plays `hands` hands at an AI-only table with one seat per entry of
/// `seats` (2 to 6), default blinds and stacks, every seed derived from
/// `seed`. A seat below the starting stack tops up before each hand.
///
/// # Errors
/// [`HoldemError::Config`] for fewer than 2 or more than 6 seats.
pub fn simulate(seats: &[Level], hands: u64, seed: u64) -> Result<Vec<HandRecord>, HoldemError> {
    simulate_session(seats, hands, seed, None)
}

/// [`simulate`], and under `session` its human seats and `selfpoker_v2` deals,
/// every record carrying its deal with the secret revealed.
///
/// # Errors
/// As [`simulate`]; [`HoldemError::NoSuchSeat`] for a client seed of a seat
/// the table lacks, [`HoldemError::Config`] for a table id that is not an
/// identifier.
pub fn simulate_session(
    seats: &[Level],
    hands: u64,
    seed: u64,
    session: Option<&SessionV2>,
) -> Result<Vec<HandRecord>, HoldemError> {
    let config = TableConfig {
        seats: seats.len(),
        ..TableConfig::default()
    };
    let mut table = Table::new(config)?;
    for (seat, level) in seats.iter().enumerate() {
        let player = match session {
            Some(s) if s.is_human(seat) => Player::Human {
                id: seat as i64 + 1,
            },
            _ => Player::Ai {
                level: *level as u8,
            },
        };
        table = apply(&table, Command::Sit { seat, player }, Millis(0))?.0;
    }
    if let Some(s) = session {
        if let Some(e) = s.client_seeds.iter().find(|e| e.seat >= seats.len()) {
            return Err(HoldemError::NoSuchSeat {
                seat: e.seat,
                last: seats.len() - 1,
            });
        }
    }
    let secret = SessionV2::secret(seed);
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
        let mut seeds = HandSeeds::derive(seed, index);
        if let Some(s) = session {
            seeds.deal = selfpoker_v2::hand_seed(&secret, &s.table_id, index + 1, &s.client_seeds)
                .map_err(|e| HoldemError::Config {
                    field: "session",
                    reason: e.to_string(),
                })?;
        }
        let (next, record) = match session {
            None => {
                let (next, record, _) = play_hand(&table, seeds, &|s| seats[s], now)?;
                (next, record)
            }
            Some(s) => {
                // Every decision seeded from the session secret, as at a live
                // table (docs/spec.md §18), so `fairseed verify` replays the AIs'.
                let key = DecisionKey {
                    secret: &secret,
                    table_id: &s.table_id,
                };
                let (next, mut record, _) = play_hand_with(&table, seeds.deal, now, &mut |h| {
                    key.decide(
                        ENGINE_V1,
                        seats[h.seat_to_act()],
                        h.number,
                        &SeatView::of(h),
                    )
                })?;
                record.deal = Some(DealV2::new(&secret, &s.table_id, &s.client_seeds, true));
                (next, record.with_ai_engine(ENGINE_V1))
            }
        };
        table = next;
        records.push(record);
    }
    Ok(records)
}

/// The table id of [`ai_decisions`]' session.
pub const BATCH_TABLE: &str = "batch";

/// The first `count` decisions of six AIs (levels 1, 2, 3, 1, 2, 3 from
/// seat 0) under [`ENGINE_V1`], hand after hand at table [`BATCH_TABLE`],
/// each seeded from the session secret [`SessionV2::secret`]`(seed)` as at
/// a live table, every hand dealt from [`HandSeeds::derive`]: a pure
/// function of `(seed, count)`, for comparing builds (native and wasm).
///
/// # Errors
/// Never for these settings; [`HoldemError`] if the rules refuse a hand.
pub fn ai_decisions(seed: u64, count: usize) -> Result<Vec<Action>, HoldemError> {
    let levels = [
        Level::One,
        Level::Two,
        Level::Three,
        Level::One,
        Level::Two,
        Level::Three,
    ];
    let config = TableConfig::default();
    let mut table = Table::new(config)?;
    for (seat, level) in levels.iter().enumerate() {
        let player = Player::Ai {
            level: *level as u8,
        };
        table = apply(&table, Command::Sit { seat, player }, Millis(0))?.0;
    }
    let secret = SessionV2::secret(seed);
    let key = DecisionKey {
        secret: &secret,
        table_id: BATCH_TABLE,
    };
    let mut out = Vec::with_capacity(count);
    let mut index = 0;
    while out.len() < count {
        for seat in 0..levels.len() {
            if table.seats[seat]
                .as_ref()
                .is_some_and(|s| s.stack < config.starting_stack)
            {
                table = apply(&table, Command::TopUp { seat }, Millis(0))?.0;
            }
        }
        let deal = HandSeeds::derive(seed, index).deal;
        let now = Millis(index as i64 * 1_000_000);
        table = play_hand_with(&table, deal, now, &mut |h| {
            let action = key.decide(
                ENGINE_V1,
                levels[h.seat_to_act()],
                h.number,
                &SeatView::of(h),
            );
            out.push(action);
            action
        })?
        .0;
        index += 1;
    }
    out.truncate(count);
    Ok(out)
}

/// [`ai_decisions`] as text, one action per line (`fold`, `check`, `call`,
/// `raise to 1,200`): what the native and the wasm builds both print, so
/// the two are compared byte for byte.
///
/// # Errors
/// As [`ai_decisions`].
pub fn ai_decisions_text(seed: u64, count: usize) -> Result<String, HoldemError> {
    let actions = ai_decisions(seed, count)?;
    let mut out = String::with_capacity(actions.len() * 8);
    for action in actions {
        out.push_str(&action.to_string());
        out.push('\n');
    }
    Ok(out)
}
