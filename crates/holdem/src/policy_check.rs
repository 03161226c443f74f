//! A hand held to its table's policy (docs/spec.md §19.3): the policy the
//! table committed to in the log when it opened travels in every record,
//! and a hand whose seats, AI levels, engines, blinds, clock, starting
//! stacks or top-ups are not that policy's fails, so the house cannot seat a stronger
//! AI for a hand it knows the deck of, and write that level into the record.

use crate::ai::ENGINE_V1;
use crate::live::{Arrival, Policy};
use crate::record::{HandRecord, ReplayError};
use crate::rules::{chips, Player, TableConfig};

/// What every breach's words end with.
const COMMITTED: &str = "the table's policy, committed at open,";

/// Holds `record` to its policy: `Some(commit)` (the policy's `sha256`,
/// to compare with the table's log) when it holds, `None` when the record
/// has no policy and need not (a record of a table that predates policies:
/// anything but `selfpoker_v3`).
///
/// # Errors
/// [`ReplayError::Policy`] naming the first seat or setting that is not
/// the policy's; [`ReplayError::Input`] for a malformed policy, the field
/// named (`policy.ais[1]`).
pub fn check(record: &HandRecord) -> Result<Option<String>, ReplayError> {
    let hand = record.hand;
    let Some(policy) = &record.policy else {
        return match record.deal.as_ref().filter(|d| d.is_v3()) {
            Some(_) => Err(ReplayError::Policy {
                hand,
                problem: "the record carries no policy: its seats cannot be held to what the table committed to at open".to_owned(),
            }),
            None => Ok(None),
        };
    };
    let layout = policy.layout().map_err(|e| ReplayError::Input {
        hand,
        error: in_policy(e),
    })?;
    let breach = config_breach(&record.config, &policy.config)
        .or_else(|| seat_breach(record, &layout))
        .or_else(|| stranger_breach(record, policy))
        .or_else(|| first_hand_breach(record, policy))
        .or_else(|| top_up_breach(record, policy));
    match breach {
        Some(problem) => Err(ReplayError::Policy { hand, problem }),
        None => Ok(Some(policy.commit())),
    }
}

/// The first setting of `got` (the record's) that is not the policy's.
fn config_breach(got: &TableConfig, want: &TableConfig) -> Option<String> {
    let fields = [
        ("seats", got.seats as u64, want.seats as u64),
        ("small_blind", got.small_blind, want.small_blind),
        ("big_blind", got.big_blind, want.big_blind),
        ("starting_stack", got.starting_stack, want.starting_stack),
    ];
    let setting = fields
        .iter()
        .find(|(_, g, w)| g != w)
        .map(|(name, g, w)| format!("{name} is {g}; {COMMITTED} sets {w}"));
    setting.or_else(|| {
        (got.action_ms != want.action_ms).then(|| {
            format!(
                "action_ms is {}; {COMMITTED} gives each turn {} ms",
                got.action_ms, want.action_ms
            )
        })
    })
}

/// The first seat dealt in that is not what the policy seats there, or an
/// AI of the policy the hand was dealt without (AIs never sit out).
fn seat_breach(record: &HandRecord, layout: &[Option<u8>]) -> Option<String> {
    let derived = record.deal.is_some();
    for s in &record.seats {
        let want = layout.get(s.seat).copied().flatten();
        let problem = match (s.player, want) {
            (Player::Ai { level }, Some(w)) if level != w => format!(
                "seat {} plays as AI level {level}; {COMMITTED} seats level {w} there",
                s.seat
            ),
            (Player::Ai { level }, None) => format!(
                "seat {} plays as AI level {level}; {COMMITTED} leaves it to people",
                s.seat
            ),
            (Player::Ai { .. }, Some(_)) if derived && s.engine != Some(ENGINE_V1) => format!(
                "seat {} is an AI that names no engine; {COMMITTED} plays its AIs under engine {}",
                s.seat,
                ENGINE_V1.as_str()
            ),
            (Player::Human { .. }, Some(w)) => format!(
                "seat {} is a person; {COMMITTED} seats AI level {w} there",
                s.seat
            ),
            _ => continue,
        };
        return Some(problem);
    }
    layout.iter().enumerate().find_map(|(seat, level)| {
        let level = (*level)?;
        (!record.seats.iter().any(|s| s.seat == seat)).then(|| {
            format!(
                "{COMMITTED} seats AI level {level} at seat {seat}; the hand was dealt without it"
            )
        })
    })
}

/// A person who came as to a public table (`came: public`) at a table
/// the policy keeps private (docs/spec.md §19.4).
fn stranger_breach(record: &HandRecord, policy: &Policy) -> Option<String> {
    if policy.public {
        return None;
    }
    record
        .seats
        .iter()
        .find(|s| s.came == Some(Arrival::Public))
        .map(|s| {
            format!(
                "seat {} sat down without an invitation, as at a public table; {COMMITTED} keeps the table private",
                s.seat
            )
        })
}

/// Hand 1: every seat starts with the policy's starting stack (nobody has
/// won or lost a chip yet, and a top-up refills to it).
fn first_hand_breach(record: &HandRecord, policy: &Policy) -> Option<String> {
    if record.hand != 1 {
        return None;
    }
    let start = policy.config.starting_stack;
    record.seats.iter().find(|s| s.stack != start).map(|s| {
        format!(
            "seat {} starts hand 1 with {} chips; {COMMITTED} starts every seat with {}",
            s.seat,
            chips(s.stack),
            chips(start)
        )
    })
}

/// A seat sat down anew (`sat_down`) with the starting stack, and every
/// top-up the record names (`topped_up`) as the policy allows it
/// (docs/spec.md §19.3): only between hands, so never before hand 1 (every
/// seat starts it with the starting stack), and only from below the
/// starting stack up to it exactly.
fn top_up_breach(record: &HandRecord, policy: &Policy) -> Option<String> {
    let start = policy.config.starting_stack;
    let newcomer = record.seats.iter().find(|s| s.sat_down && s.stack != start);
    if let Some(s) = newcomer {
        return Some(format!(
            "seat {} sat down with {} chips; {COMMITTED} seats every player with {}",
            s.seat,
            chips(s.stack),
            chips(start)
        ));
    }
    record.seats.iter().find_map(|s| {
        let topped_up = s.topped_up.filter(|&n| n > 0)?;
        let (seat, amount) = (s.seat, chips(topped_up));
        let problem = if record.hand == 1 {
            format!("seat {seat} was topped up {amount} before hand 1; {COMMITTED} starts every seat with {} and tops a stack up only between hands", chips(start))
        } else if s.stack != start {
            format!(
                "seat {seat} was topped up {amount} to {} chips; {COMMITTED} tops a stack up to its starting stack, {}",
                chips(s.stack),
                chips(start)
            )
        } else if topped_up > start {
            format!(
                "seat {seat} was topped up {amount}, more than the starting stack; {COMMITTED} tops a stack up from what it has to {}",
                chips(start)
            )
        } else {
            return None;
        };
        Some(problem)
    })
}

/// `next` held to `prev`, the hand before it at the same table: every
/// seat dealt into both by the same player, not sat down anew since
/// (`sat_down`) and whose record names its top-ups (`topped_up`), starts `next` with the chips it ended `prev` with plus
/// what it was topped up (`topped_up`), so no chip comes or goes between
/// hands but by a top-up the record names and the policy allows.
///
/// # Errors
/// [`ReplayError::Policy`] naming the first seat whose stack is not carried.
pub fn carried(prev: &HandRecord, next: &HandRecord) -> Result<(), ReplayError> {
    for s in next.seats.iter().filter(|s| !s.sat_down) {
        // A record that predates naming top-ups is not held so.
        let Some(topped_up) = s.topped_up else {
            continue;
        };
        let Some(before) = prev.seats.iter().find(|p| p.seat == s.seat) else {
            continue;
        };
        if before.player != s.player {
            continue;
        }
        let Some(&(_, ended)) = prev.results.stacks.iter().find(|(seat, _)| *seat == s.seat) else {
            continue;
        };
        if ended.checked_add(topped_up) != Some(s.stack) {
            let topped = match topped_up {
                0 => "no top-up".to_owned(),
                n => format!("a top-up of {}", chips(n)),
            };
            return Err(ReplayError::Policy {
                hand: next.hand,
                problem: format!(
                    "seat {} starts with {} chips; it ended hand {} with {} and the record names {topped}",
                    s.seat,
                    chips(s.stack),
                    prev.hand,
                    chips(ended)
                ),
            });
        }
    }
    Ok(())
}

/// A policy's field named from the record's root (`policy.ais[1]`).
fn in_policy(error: fairseed_core::Error) -> fairseed_core::Error {
    match error.field() {
        Some(field) => {
            let reason = error.to_string();
            let reason = reason
                .strip_prefix(&format!("{field}: "))
                .unwrap_or(&reason);
            fairseed_core::Error::invalid(format!("policy.{field}"), reason)
        }
        None => error,
    }
}
