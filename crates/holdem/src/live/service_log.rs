//! What a table logs of its clocks, so that an audit can hold every
//! timed-out action and every session end against the table's policy and
//! the time it was served (docs/spec.md §19.2): each start of service, each
//! timed-out action and the session's end, each with the figures, in
//! milliseconds since the Unix epoch, that the table itself counted by.
//! The service logs these values as outcome entries of scheme
//! `holdem_table` named `[holdem_table:T]`.

use fairseed_play::Millis;

use super::view::turn_started;
use super::{ends_session, LiveTable, Message};
use crate::rules::Event;

/// The first value of a start-of-service entry.
pub const SERVED: &str = "served";
/// The first value of a timed-out action's entry.
pub const TIMEOUT: &str = "timeout";
/// The first value of a session end's entry.
pub const CLOSED: &str = "closed";

/// A process starts serving `live` at `since` (taking it over from
/// `took_over_from`, if any): `["served", owner, took_over_from or "-", the
/// hand in play or "-", its turn's new deadline or "-", since]`. Every clock
/// counts from `since` at the earliest (docs/spec.md §19.1).
pub fn served(
    live: &LiveTable,
    owner: &str,
    took_over_from: Option<&str>,
    since: Millis,
) -> Vec<String> {
    let hand = live.table.hand.as_ref();
    vec![
        SERVED.to_owned(),
        owner.to_owned(),
        took_over_from.unwrap_or("-").to_owned(),
        hand.map_or_else(|| "-".to_owned(), |h| h.number.to_string()),
        hand.map_or_else(|| "-".to_owned(), |h| h.deadline.0.to_string()),
        since.0.to_string(),
    ]
}

/// The timed-out actions among `messages`, the change from `before` at
/// `now`: for each, `["timeout", hand, seat, clock_from, now]`, where
/// `clock_from` is when the seat's clock started counting (its turn's start,
/// or the latest start of service if later), so `now − clock_from` is the
/// served time the seat had.
pub fn timeouts(before: &LiveTable, messages: &[Message], now: Millis) -> Vec<Vec<String>> {
    let (Some(hand), Some(clock_from)) = (before.table.hand.as_ref(), turn_started(before)) else {
        return Vec::new();
    };
    messages
        .iter()
        .filter_map(|m| match m {
            Message::Event {
                event:
                    Event::Acted {
                        seat,
                        timed_out: true,
                        ..
                    },
                ..
            } => Some(vec![
                TIMEOUT.to_owned(),
                hand.number.to_string(),
                seat.to_string(),
                clock_from.0.to_string(),
                now.0.to_string(),
            ]),
            _ => None,
        })
        .collect()
}

/// The session's end, if the change from `before` to `next` at `now` closes
/// the table: `["closed", reason, quiet_from or "-", now]`, `quiet_from`
/// being when the quiet spell the idle limit counts began (the last thing a
/// person did, the last hand's end or the latest start of service).
pub fn closed(before: &LiveTable, next: &LiveTable, now: Millis) -> Option<Vec<String>> {
    if !ends_session(before, next) {
        return None;
    }
    Some(vec![
        CLOSED.to_owned(),
        end_reason(next).to_owned(),
        before
            .quiet_since
            .map_or_else(|| "-".to_owned(), |q| q.0.to_string()),
        now.0.to_string(),
    ])
}

/// Why `live`'s session ended, as the log writes it: a table closed before
/// tables kept the reason ended when its last human left.
pub(crate) fn end_reason(live: &LiveTable) -> &'static str {
    live.end.map_or("table_empty", |e| e.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::{apply, close, fixtures, request, resume, Request, Scheme, Session};
    use crate::rules::Command;

    fn seated() -> LiveTable {
        let session = Session {
            scheme: Scheme::Selfpoker,
            commit: None,
            revealed: None,
        };
        fixtures::seated(&fixtures::heads_up(session), Millis(1_000))
    }

    #[test]
    fn a_timeout_logs_the_served_time_from_the_latest_start_of_service() {
        let dealt = apply(&seated(), Command::StartHand { seed: 3 }, Millis(2_000))
            .expect("two seats ready")
            .0;
        let hand = dealt.table.hand.as_ref().expect("a hand in play");
        let (number, seat) = (hand.number, hand.seat_to_act());
        let served = resume(&dealt, Millis(20_000));
        let fired = Millis(25_000);
        let (_, messages) =
            apply(&served, Command::Timeout { seat }, fired).expect("clock ran out");
        let got = timeouts(&served, &messages, fired);
        let want = vec![
            "timeout".to_owned(),
            number.to_string(),
            seat.to_string(),
            "20000".to_owned(),
            "25000".to_owned(),
        ];
        assert_eq!(got, vec![want]);
    }

    #[test]
    fn an_idle_close_logs_its_quiet_spell_and_a_leave_logs_no_idle_figures() {
        let table = resume(&seated(), Millis(4_000));
        let (next, _) = close(&table, Millis(64_000)).expect("no hand in play");
        let got = closed(&table, &next, Millis(64_000));
        assert_eq!(
            got,
            Some(vec![
                "closed".into(),
                "table_idle".into(),
                "4000".into(),
                "64000".into()
            ])
        );
        let (left, _) = request(&table, 7, Request::Leave, Millis(5_000)).expect("seated");
        let got = closed(&table, &left, Millis(5_000)).expect("the last human left");
        assert_eq!(got[1], "table_empty");
        assert_eq!(
            closed(&left, &left, Millis(6_000)),
            None,
            "closed once only"
        );
    }
}
