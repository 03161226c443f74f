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
use fairseed_core::selfpoker_v3::{self, HandEntry, HandValue};
use fairseed_play::Millis;

use crate::ai::{decide, DecisionKey, Level, SeatView, ENGINE_V1};
use crate::deal::DealV2;
use crate::live::policy::Policy;
use crate::live::session::Scheme;
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
    let record = record_of(table, deal_seed, &events).ok_or(HoldemError::NoHand)?;
    Ok((t, record, events))
}

/// A simulated session: the table, the seats that are humans, with their
/// client seeds, and how hand seeds are derived.
#[derive(Debug, Clone)]
pub struct SessionV2 {
    /// The table id in every hand's message.
    pub table_id: String,
    /// The human seats' client seeds.
    pub client_seeds: Vec<ClientSeedEntry>,
    /// [`Scheme::SelfpokerV2`], or [`Scheme::SelfpokerV3`]: each human also
    /// commits to and reveals a per-hand value ([`simulated_value`]).
    pub scheme: Scheme,
}

/// The per-hand value a simulated human at `seat` reveals for hand `hand`
/// of table `table_id` (docs/spec.md §15.2): the `sha256` of
/// `"fairseed/simulated-hand-value:" + session_secret + ":" + T + ":" + n +
/// ":" + seat`, the secret as its 64 hex characters. A browser draws its
/// value from its CSPRNG; a simulation repeats exactly instead.
pub fn simulated_value(secret: &[u8; 32], table_id: &str, hand: u64, seat: usize) -> HandValue {
    let text = format!(
        "fairseed/simulated-hand-value:{}:{table_id}:{hand}:{seat}",
        hex::encode(secret)
    );
    let mut bytes = [0u8; 32];
    // A sha256 digest is 32 bytes of hex, always.
    let _ = hex::decode_to_slice(fairseed_core::sha256_hex(text.as_bytes()), &mut bytes);
    HandValue::from_bytes(bytes)
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

    /// The seed of hand `hand` under the session of `secret`, and the deal
    /// its record carries, the secret revealed.
    fn deal(&self, secret: &[u8; 32], hand: u64) -> Result<(u64, DealV2), fairseed_core::Error> {
        let mut deal = DealV2::new(secret, &self.table_id, &self.client_seeds, true);
        if self.scheme != Scheme::SelfpokerV3 {
            let seed = selfpoker_v2::hand_seed(secret, &self.table_id, hand, &self.client_seeds)?;
            return Ok((seed, deal));
        }
        let mut entries = Vec::with_capacity(self.client_seeds.len());
        for client in &self.client_seeds {
            let value = simulated_value(secret, &self.table_id, hand, client.seat);
            deal.hand_commits.insert(client.seat, value.commit());
            deal.hand_values
                .insert(client.seat, value.as_hex().to_owned());
            entries.push(HandEntry::new(
                client.seat,
                client.seed.as_str(),
                value.as_hex(),
            )?);
        }
        entries.sort_by_key(HandEntry::seat);
        deal.scheme = selfpoker_v3::SCHEME.to_owned();
        let seed = selfpoker_v3::hand_seed(secret, &self.table_id, hand, &entries)?;
        Ok((seed, deal))
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
    let policy = simulated_policy(&table);
    let secret = SessionV2::secret(seed);
    let mut records = Vec::new();
    for index in 0..hands {
        let mut top_ups = Vec::new();
        for seat in 0..seats.len() {
            if let Some(s) = table.seats[seat]
                .as_ref()
                .filter(|s| s.stack < config.starting_stack)
            {
                top_ups.push((seat, config.starting_stack - s.stack));
                table = apply(&table, Command::TopUp { seat }, Millis(0))?.0;
            }
        }
        let now = Millis(index as i64 * 1_000_000);
        let mut seeds = HandSeeds::derive(seed, index);
        let mut deal = None;
        if let Some(s) = session {
            let (derived, of_hand) =
                s.deal(&secret, index + 1)
                    .map_err(|e| HoldemError::Config {
                        field: "session",
                        reason: e.to_string(),
                    })?;
            seeds.deal = derived;
            deal = Some(of_hand);
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
                record.deal = deal;
                (next, record.with_ai_engine(ENGINE_V1))
            }
        };
        table = next;
        let mut record = HandRecord {
            policy: Some(policy.clone()),
            ..record
        };
        for s in &mut record.seats {
            let topped_up = top_ups.iter().find(|(seat, _)| *seat == s.seat);
            s.topped_up = Some(topped_up.map_or(0, |(_, amount)| *amount));
        }
        records.push(record);
    }
    Ok(records)
}

/// The idle limit a simulated table's policy states: the service's default
/// (nothing idles in a simulation).
const SIMULATED_IDLE_CLOSE_MS: i64 = 600_000;

/// The policy of the simulated `table` as its seats were taken: its AIs'
/// levels, at `ai_seats` unless they sit as at a live table (seats 1, 2, …).
fn simulated_policy(table: &Table) -> Policy {
    let ais: Vec<(usize, u8)> = table
        .seats
        .iter()
        .enumerate()
        .filter_map(|(seat, s)| match s.as_ref()?.player {
            Player::Ai { level } => Some((seat, level)),
            Player::Human { .. } => None,
        })
        .collect();
    let live_layout = ais.iter().enumerate().all(|(i, (seat, _))| *seat == i + 1);
    Policy {
        config: table.config,
        ais: ais.iter().map(|(_, level)| *level).collect(),
        ai_seats: if live_layout {
            Vec::new()
        } else {
            ais.iter().map(|(seat, _)| *seat).collect()
        },
        idle_close_ms: SIMULATED_IDLE_CLOSE_MS,
        public: false,
    }
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
