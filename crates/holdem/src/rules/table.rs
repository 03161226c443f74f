//! The table: seats, the button, and the hand being played.

use fairseed_core::selfpoker::MAX_SEED;
use fairseed_play::Millis;
use serde::{Deserialize, Serialize};

use super::error::HoldemError;
use super::event::Event;
use super::hand::{HandState, Opening, Progress};
use super::terms::{Action, Player};

/// The most seats a table has.
pub const MAX_SEATS: usize = 6;

/// A table's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableConfig {
    /// 2 to 6.
    pub seats: usize,
    /// The small blind, at least 1.
    pub small_blind: u64,
    /// The big blind, at least the small blind.
    pub big_blind: u64,
    /// Chips a seat starts with, and what a top-up refills to.
    pub starting_stack: u64,
    /// Time for each turn, milliseconds.
    pub action_ms: i64,
}

impl Default for TableConfig {
    /// Six seats, blinds 50/100, 10,000 chips (100 big blinds), 30 s a turn.
    fn default() -> Self {
        TableConfig {
            seats: MAX_SEATS,
            small_blind: 50,
            big_blind: 100,
            starting_stack: 10_000,
            action_ms: 30_000,
        }
    }
}

impl TableConfig {
    /// Checks the settings.
    ///
    /// # Errors
    /// [`HoldemError::Config`] naming the first setting out of range.
    pub fn validate(&self) -> Result<(), HoldemError> {
        let bad = |field, reason: String| Err(HoldemError::Config { field, reason });
        if !(2..=MAX_SEATS).contains(&self.seats) {
            return bad(
                "seats",
                format!("{} seats, expected 2 to {MAX_SEATS}", self.seats),
            );
        }
        if self.small_blind == 0 || self.big_blind < self.small_blind {
            return bad(
                "big_blind",
                format!(
                    "blinds {}/{}, expected 1 <= small blind <= big blind",
                    self.small_blind, self.big_blind
                ),
            );
        }
        if self.starting_stack < self.big_blind || self.starting_stack > 1 << 40 {
            return bad(
                "starting_stack",
                format!("{}, expected a big blind to 2^40", self.starting_stack),
            );
        }
        if self.action_ms <= 0 {
            return bad(
                "action_ms",
                format!("{}, expected more than 0", self.action_ms),
            );
        }
        Ok(())
    }
}

/// An occupied seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Who sits there.
    pub player: Player,
    /// Chips, outside any hand being played.
    pub stack: u64,
    /// Not dealt in while set.
    pub sitting_out: bool,
}

/// A hold'em table, everything included (hole cards and the seed of the hand
/// being played too): views are cut from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Its settings.
    pub config: TableConfig,
    /// `config.seats` seats, `None` when empty.
    pub seats: Vec<Option<Seat>>,
    /// The last hand's button, if a hand was dealt.
    pub button: Option<usize>,
    /// Hands dealt so far.
    pub hands_played: u64,
    /// The hand being played.
    pub hand: Option<HandState>,
}

/// Something a player, the clock or the dealer asks of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// Take an empty seat with the starting stack (dealt in from the next hand).
    Sit {
        /// The seat.
        seat: usize,
        /// Who.
        player: Player,
    },
    /// Leave the table (not while in the hand being played).
    Leave {
        /// The seat.
        seat: usize,
    },
    /// Stop being dealt in.
    SitOut {
        /// The seat.
        seat: usize,
    },
    /// Be dealt in again.
    SitIn {
        /// The seat.
        seat: usize,
    },
    /// Refill the stack to the starting stack (not while in the hand being played).
    TopUp {
        /// The seat.
        seat: usize,
    },
    /// Deal a hand from `seed` (the caller draws it from the OS CSPRNG).
    StartHand {
        /// A 63-bit selfpoker seed.
        seed: u64,
    },
    /// The seat to act acts.
    Act {
        /// The seat.
        seat: usize,
        /// What it does.
        action: Action,
    },
    /// The seat's clock ran out: check if free, else fold.
    Timeout {
        /// The seat whose turn it is.
        seat: usize,
    },
}

impl Table {
    /// An empty table.
    ///
    /// # Errors
    /// [`HoldemError::Config`] for settings out of range.
    pub fn new(config: TableConfig) -> Result<Table, HoldemError> {
        config.validate()?;
        Ok(Table {
            config,
            seats: vec![None; config.seats],
            button: None,
            hands_played: 0,
            hand: None,
        })
    }

    fn seat_mut(&mut self, seat: usize) -> Result<&mut Seat, HoldemError> {
        let last = self.seats.len() - 1;
        self.seats
            .get_mut(seat)
            .ok_or(HoldemError::NoSuchSeat { seat, last })?
            .as_mut()
            .ok_or(HoldemError::SeatEmpty(seat))
    }

    pub(crate) fn in_hand(&self, seat: usize) -> bool {
        self.hand
            .as_ref()
            .is_some_and(|h| h.players.iter().any(|p| p.seat == seat))
    }

    /// Seats that would be dealt in now: sitting in, with chips.
    pub fn ready_seats(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&s| {
                self.seats[s]
                    .as_ref()
                    .is_some_and(|seat| !seat.sitting_out && seat.stack > 0)
            })
            .collect()
    }

    /// Every chip at the table: stacks, and what the hand being played holds.
    pub fn chips_in_play(&self) -> u64 {
        let stacks: u64 = (0..self.seats.len())
            .filter(|&s| !self.in_hand(s))
            .filter_map(|s| self.seats[s].as_ref())
            .map(|seat| seat.stack)
            .sum();
        let hand: u64 = self
            .hand
            .as_ref()
            .map_or(0, |h| h.players.iter().map(|p| p.stack + p.total).sum());
        stacks + hand
    }
}

/// Applies `command` at time `now`: the next table and what happened, or
/// the rule it breaks (the table is then unchanged).
///
/// # Errors
/// [`HoldemError`] naming the broken rule.
pub fn apply(
    table: &Table,
    command: Command,
    now: Millis,
) -> Result<(Table, Vec<Event>), HoldemError> {
    let mut next = table.clone();
    let mut events = Vec::new();
    match command {
        Command::Sit { seat, player } => {
            let last = next.seats.len() - 1;
            let slot = next
                .seats
                .get_mut(seat)
                .ok_or(HoldemError::NoSuchSeat { seat, last })?;
            if slot.is_some() {
                return Err(HoldemError::SeatTaken(seat));
            }
            let stack = next.config.starting_stack;
            *slot = Some(Seat {
                player,
                stack,
                sitting_out: false,
            });
            events.push(Event::Seated {
                seat,
                player,
                stack,
            });
        }
        Command::Leave { seat } => {
            next.seat_mut(seat)?;
            if next.in_hand(seat) {
                return Err(HoldemError::InHand(seat));
            }
            next.seats[seat] = None;
            events.push(Event::Left { seat });
        }
        Command::SitOut { seat } => {
            next.seat_mut(seat)?.sitting_out = true;
            events.push(Event::SatOut { seat });
        }
        Command::SitIn { seat } => {
            next.seat_mut(seat)?.sitting_out = false;
            events.push(Event::SatIn { seat });
        }
        Command::TopUp { seat } => {
            let in_hand = next.in_hand(seat);
            let cap = next.config.starting_stack;
            let s = next.seat_mut(seat)?;
            if in_hand {
                return Err(HoldemError::InHand(seat));
            }
            if s.stack >= cap {
                return Err(HoldemError::TopUpNotNeeded {
                    seat,
                    stack: s.stack,
                    cap,
                });
            }
            let amount = cap - s.stack;
            s.stack = cap;
            events.push(Event::ToppedUp { seat, amount });
        }
        Command::StartHand { seed } => start_hand(&mut next, seed, now, &mut events)?,
        Command::Act { seat, action } => play(&mut next, seat, action, false, now, &mut events)?,
        Command::Timeout { seat } => {
            let hand = next.hand.as_ref().ok_or(HoldemError::NoHand)?;
            if hand.seat_to_act() == seat && now < hand.deadline {
                return Err(HoldemError::ClockRunning {
                    seat,
                    left_ms: hand.deadline.0 - now.0,
                });
            }
            let action = if hand.legal().to_call == 0 {
                Action::Check
            } else {
                Action::Fold
            };
            play(&mut next, seat, action, true, now, &mut events)?;
        }
    }
    Ok((next, events))
}

fn start_hand(
    table: &mut Table,
    seed: u64,
    now: Millis,
    events: &mut Vec<Event>,
) -> Result<(), HoldemError> {
    if let Some(hand) = &table.hand {
        return Err(HoldemError::HandRunning(hand.number));
    }
    if seed > MAX_SEED {
        return Err(HoldemError::Seed(seed));
    }
    let ready = table.ready_seats();
    if ready.len() < 2 {
        return Err(HoldemError::NotEnoughPlayers(ready.len()));
    }
    let button = table
        .button
        .and_then(|b| ready.iter().copied().find(|&s| s > b))
        .unwrap_or(ready[0]);
    table.button = Some(button);
    table.hands_played += 1;
    let stacks = ready
        .iter()
        .map(|&s| (s, table.seats[s].as_ref().map_or(0, |seat| seat.stack)))
        .collect();
    let open = Opening {
        number: table.hands_played,
        seed,
        button,
        stacks,
        small_blind: table.config.small_blind,
        big_blind: table.config.big_blind,
        action_ms: table.config.action_ms,
    };
    settle(table, HandState::start(open, now, events));
    Ok(())
}

fn play(
    table: &mut Table,
    seat: usize,
    action: Action,
    timed_out: bool,
    now: Millis,
    events: &mut Vec<Event>,
) -> Result<(), HoldemError> {
    // `table` is the caller's copy: on an error it is dropped, so the hand need not be put back.
    let hand = table.hand.take().ok_or(HoldemError::NoHand)?;
    let progress = hand.act(seat, action, timed_out, now, events)?;
    settle(table, progress);
    Ok(())
}

/// Keeps a hand still playing, or writes the stacks of one that ended.
fn settle(table: &mut Table, progress: Progress) {
    match progress {
        Progress::Playing(hand) => table.hand = Some(hand),
        Progress::Ended(stacks) => {
            for (seat, stack) in stacks {
                if let Some(s) = table.seats[seat].as_mut() {
                    s.stack = stack;
                }
            }
            table.hand = None;
        }
    }
}
