//! A rules command applied to a live table: the table's events become its
//! public messages, and a hand's end its record and last result.

use fairseed_play::Millis;

use super::last_hand::{holes, LastHand};
use super::message::{self, Message};
use super::table::LiveTable;
use crate::rules::{apply as rules_apply, Command, Event, HoldemError, Player};

/// Applies a rules `command` at `now`: the next live table and the public
/// messages it adds (numbered on from `live.seq`). A human whose clock ran
/// out is sat out as well, so an absent player does not hold up every hand.
///
/// # Errors
/// The rule the command breaks; the table is then unchanged.
pub fn apply(
    live: &LiveTable,
    command: Command,
    now: Millis,
) -> Result<(LiveTable, Vec<Message>), HoldemError> {
    let (mut table, mut events) = rules_apply(&live.table, command, now)?;
    if let Command::Timeout { seat } = command {
        let human = table.seats[seat]
            .as_ref()
            .is_some_and(|s| matches!(s.player, Player::Human { .. }) && !s.sitting_out);
        if human {
            let (after, more) = rules_apply(&table, Command::SitOut { seat }, now)?;
            table = after;
            events.extend(more);
        }
    }
    let mut next = LiveTable {
        table,
        ..live.clone()
    };
    let mut messages = Vec::with_capacity(events.len() + 1);
    for event in events {
        next.seq += 1;
        messages.push(Message::Event {
            seq: next.seq,
            event: event.clone(),
        });
        match &event {
            Event::HandStarted { .. } => {
                next.spent_commits.clear();
                next.last = None;
                next.ended_at = None;
                next.hand_client_seeds = next.seated_client_seeds();
                next.hand_events = vec![event];
            }
            Event::HandEnded { number, seed, .. } => {
                let (number, seed) = (*number, *seed);
                next.hand_events.push(event);
                let hand_end = message::hand_end(live, &next, number, seed)?;
                next.seq += 1;
                messages.push(hand_end.at(next.seq));
                next.last = Some(LastHand::of(&live.table, &next.hand_events, number, seed));
                next.ended_at = Some(now);
                next.quiet_since = next.quiet_since.map(|q| q.max(now));
                next.hand_events.clear();
                let dealt = holes(&live.table);
                next.since_last_hand
                    .retain(|s| dealt.iter().all(|(seat, _)| *seat != s.seat));
            }
            Event::ToppedUp { .. } | Event::Seated { .. } | Event::Left { .. } => {
                next.note_between_hands(&event);
                if !next.hand_events.is_empty() {
                    next.hand_events.push(event);
                }
            }
            _ if next.hand_events.is_empty() => {}
            _ => next.hand_events.push(event),
        }
    }
    Ok((next, messages))
}
