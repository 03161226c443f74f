//! What a live table does by itself, and when: an AI acts a moment after
//! its turn began, a person's clock runs out, a busted AI tops up, a new
//! hand is dealt a pause after the last one when two seats are ready and a
//! person is among them (under `selfpoker_v3` after its round, docs/spec.md
//! §20.2), and a table where nobody can be dealt in closes
//! after a quiet spell. The service calls [`next`] with the table and its
//! session secret, waits until the plan is due, and applies it
//! (re-planning on the state it then loads). An AI's decision is seeded from
//! the session secret (docs/spec.md §18), so once the secret is revealed
//! anyone replays it from the AI's seat's view.

use fairseed_play::Millis;

use super::hand_round::Phase;
use super::round::open_round;
use super::session::Scheme;
use super::table::LiveTable;
use super::view::turn_started;
use crate::ai::{DecisionKey, Level, SeatView, ENGINE_V1};
use crate::rules::{Command, Player};

/// The longest a table nobody has sat at stays open, in served time,
/// whatever its idle limit ([`super::SessionEnd::TableUnjoined`]).
pub const UNJOINED_CLOSE_MS: i64 = 60_000;

/// The service's pacing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// How long an AI waits after its turn began before it acts.
    pub ai_delay_ms: i64,
    /// The pause between the end of a hand and the next deal.
    pub next_hand_ms: i64,
    /// The idle limit a table's policy gets when its opener names none
    /// (the policy fixes it from then on: [`super::Policy::idle_close_ms`]).
    pub idle_close_ms: i64,
}

impl Default for Timing {
    /// 700 ms per AI action, 2 s between hands, closed after 10 idle minutes.
    fn default() -> Self {
        Timing {
            ai_delay_ms: 700,
            next_hand_ms: 2_000,
            idle_close_ms: 600_000,
        }
    }
}

/// What the table does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Apply this command (an AI's action, a timeout, an AI's top-up).
    Command(Command),
    /// Deal the next hand (the service supplies its seed); under
    /// `selfpoker_v3`, end its round and deal ([`super::round::deal`]).
    StartHand,
    /// Open the round of the next hand (`selfpoker_v3`, [`super::round::open`]).
    OpenRound,
    /// End the round's commit phase ([`super::round::close_commits`]).
    CloseCommits,
    /// Nobody could be dealt in for `idle_close_ms`: every person leaves and
    /// the table closes, ending its session ([`super::close`]).
    Close,
}

/// The clock's origin, Unix time 0: earlier than any moment a table is
/// served at, so a plan due then is due at once, whenever the table is next
/// looked at. A table that has played no hand yet counts the pause before
/// its first deal from it.
pub const CLOCK_ORIGIN: Millis = Millis(0);

/// [`Due`] and the moment it is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Not before this moment ([`CLOCK_ORIGIN`]: at once).
    pub at: Millis,
    /// What to do then.
    pub due: Due,
}

/// What `live` does next by itself; `None` when it waits for a person.
/// An AI decides from its seat's view only, under [`ENGINE_V1`] with the
/// seed the session `secret` derives for that decision.
pub fn next(live: &LiveTable, timing: Timing, secret: &[u8; 32]) -> Option<Plan> {
    if live.closed {
        return None;
    }
    if let Some(hand) = &live.table.hand {
        let seat = hand.seat_to_act();
        let player = live.table.seats.get(seat)?.as_ref()?.player;
        let started = turn_started(live)?;
        return Some(match player {
            Player::Ai { level } => {
                let level = Level::from_number(level).unwrap_or(Level::One);
                let key = DecisionKey {
                    secret,
                    table_id: &live.table_id,
                };
                let action = key.decide(ENGINE_V1, level, hand.number, &SeatView::of(hand));
                let at = Millis(started.0.saturating_add(timing.ai_delay_ms));
                Plan {
                    at: at.min(hand.deadline),
                    due: Due::Command(Command::Act { seat, action }),
                }
            }
            Player::Human { .. } => Plan {
                at: hand.deadline,
                due: Due::Command(Command::Timeout { seat }),
            },
        });
    }
    if let Some(round) = open_round(live) {
        return Some(match round.phase {
            Phase::Commit => Plan {
                at: round.deadline,
                due: Due::CloseCommits,
            },
            Phase::Reveal | Phase::Dealt => Plan {
                // Once every value is in there is nothing left to wait for.
                at: if round.all_revealed() {
                    CLOCK_ORIGIN
                } else {
                    round.deadline
                },
                due: Due::StartHand,
            },
        });
    }
    let since = live.ended_at.unwrap_or(CLOCK_ORIGIN);
    if let Some(seat) = busted_ai(live) {
        return Some(Plan {
            at: since,
            due: Due::Command(Command::TopUp { seat }),
        });
    }
    let ready = live.table.ready_seats();
    let human_ready = ready.iter().any(|&s| {
        live.table.seats[s]
            .as_ref()
            .is_some_and(|seat| matches!(seat.player, Player::Human { .. }))
    });
    if ready.len() >= 2 && human_ready {
        return Some(Plan {
            at: Millis(since.0.saturating_add(timing.next_hand_ms)),
            due: if live.session.scheme == Scheme::SelfpokerV3 {
                Due::OpenRound
            } else {
                Due::StartHand
            },
        });
    }
    let mut limit = live.policy.idle_close_ms;
    if live.nobody_joined() {
        limit = limit.min(UNJOINED_CLOSE_MS);
    }
    live.quiet_since.map(|quiet| Plan {
        at: Millis(quiet.0.saturating_add(limit)),
        due: Due::Close,
    })
}

/// An AI seat with no chips left (AIs top up for free, as a person may).
fn busted_ai(live: &LiveTable) -> Option<usize> {
    live.table.seats.iter().position(|s| {
        s.as_ref()
            .is_some_and(|s| matches!(s.player, Player::Ai { .. }) && s.stack == 0)
    })
}
