//! A hand held to its table's policy (docs/spec.md §19.3): the policy the
//! table committed to in the log when it opened travels in every record,
//! and a hand whose seats, AI levels, engines, blinds, clock or starting
//! stacks are not that policy's fails, so the house cannot seat a stronger
//! AI for a hand it knows the deck of, and write that level into the record.

use crate::ai::ENGINE_V1;
use crate::live::Policy;
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
        .or_else(|| first_hand_breach(record, policy));
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
