//! What a table logs of its clocks, so that an audit can hold every
//! timed-out action and every session end against the table's policy and
//! the time it was served (docs/spec.md §19.2): each start of service, each
//! timed-out action and the session's end, each with the figures, in
//! milliseconds since the Unix epoch, that the table itself counted by.
//! The service logs these values as outcome entries of scheme
//! `holdem_table` named `[holdem_table:T]`.

use fairseed_play::Millis;

use super::message::Message;
use super::table::{ends_session, LiveTable};
use super::view::turn_started;
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
    ClockEntry::Served {
        owner: owner.to_owned(),
        took_over_from: took_over_from.map(str::to_owned),
        hand: hand.map(|h| h.number),
        deadline: hand.map(|h| ms(h.deadline)),
        since: Some(ms(since)),
    }
    .values()
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
            } => Some(
                ClockEntry::Timeout {
                    hand: hand.number,
                    seat: *seat,
                    clock_from: ms(clock_from),
                    at: ms(now),
                }
                .values(),
            ),
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
    let closed = ClockEntry::Closed {
        reason: end_reason(next).to_owned(),
        quiet_from: before.quiet_since.map(ms),
        at: ms(now),
    };
    Some(closed.values())
}

/// Why `live`'s session ended, as the log writes it: a table closed before
/// tables kept the reason ended when its last human left.
pub(crate) fn end_reason(live: &LiveTable) -> &'static str {
    live.end.map_or("table_empty", |e| e.as_str())
}

/// One entry of what a table logs of its clocks, as the service writes it
/// and the audit reads it: the values of an outcome of scheme
/// `holdem_table` with ids `[holdem_table:T]`, times in milliseconds since
/// the Unix epoch, `-` for a figure that is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockEntry {
    /// `["served", owner, took_over_from, hand, deadline, since]`.
    Served {
        /// The process serving the table from now on.
        owner: String,
        /// The process it took the table over from.
        took_over_from: Option<String>,
        /// The hand in play.
        hand: Option<u64>,
        /// Its turn's new deadline.
        deadline: Option<u64>,
        /// When service began; `None` in an entry of five values, from a
        /// service that did not log it (the entry's own time stands in).
        since: Option<u64>,
    },
    /// `["timeout", hand, seat, clock_from, at]`.
    Timeout {
        /// The hand.
        hand: u64,
        /// The seat whose clock ran out.
        seat: usize,
        /// When the seat's clock started counting.
        clock_from: u64,
        /// When it ran out.
        at: u64,
    },
    /// `["closed", reason, quiet_from, at]`.
    Closed {
        /// Why the session ended (`table_empty`, `table_idle`, `table_unjoined`).
        reason: String,
        /// When the quiet spell the idle limit counts began.
        quiet_from: Option<u64>,
        /// When the table closed.
        at: u64,
    },
}

/// Clock entries that do not read: the field at fault, or their shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockEntryError {
    /// Not `served`, `timeout` or `closed` with as many values as each has.
    #[error("expected served, timeout or closed with their figures")]
    Shape,
    /// The named figure is not a decimal number.
    #[error("{0} is not a decimal number")]
    Number(&'static str),
}

fn dash(value: Option<String>) -> String {
    value.unwrap_or_else(|| "-".to_owned())
}

impl ClockEntry {
    /// The entry's values, as the log carries them.
    pub fn values(&self) -> Vec<String> {
        match self {
            ClockEntry::Served {
                owner,
                took_over_from,
                hand,
                deadline,
                since,
            } => {
                let mut values = vec![
                    SERVED.to_owned(),
                    owner.clone(),
                    dash(took_over_from.clone()),
                    dash(hand.map(|h| h.to_string())),
                    dash(deadline.map(|d| d.to_string())),
                ];
                values.extend(since.map(|s| s.to_string()));
                values
            }
            ClockEntry::Timeout {
                hand,
                seat,
                clock_from,
                at,
            } => vec![
                TIMEOUT.to_owned(),
                hand.to_string(),
                seat.to_string(),
                clock_from.to_string(),
                at.to_string(),
            ],
            ClockEntry::Closed {
                reason,
                quiet_from,
                at,
            } => vec![
                CLOSED.to_owned(),
                reason.clone(),
                dash(quiet_from.map(|q| q.to_string())),
                at.to_string(),
            ],
        }
    }

    /// Reads an entry's `values`: the figures an audit holds against the
    /// table's policy are canonical decimal numbers (no sign, no leading
    /// zero), read in the order the entry gives them.
    ///
    /// # Errors
    /// [`ClockEntryError`] naming the first figure that does not read, or
    /// the entry's shape.
    pub fn parse(values: &[String]) -> Result<ClockEntry, ClockEntryError> {
        let number = |i: usize, field: &'static str| -> Result<u64, ClockEntryError> {
            values
                .get(i)
                .and_then(|s| digits(s))
                .ok_or(ClockEntryError::Number(field))
        };
        let optional = |i: usize| values.get(i).filter(|v| *v != "-");
        match values.first().map(String::as_str) {
            Some(SERVED) if values.len() == 5 || values.len() == 6 => Ok(ClockEntry::Served {
                owner: values[1].clone(),
                took_over_from: optional(2).cloned(),
                hand: optional(3).and_then(|h| digits(h)),
                deadline: optional(4).and_then(|d| digits(d)),
                since: if values.len() == 6 {
                    Some(number(5, "since")?)
                } else {
                    None
                },
            }),
            Some(TIMEOUT) if values.len() == 5 => Ok(ClockEntry::Timeout {
                hand: number(1, "hand")?,
                seat: values
                    .get(2)
                    .and_then(|s| digits(s))
                    .ok_or(ClockEntryError::Number("seat"))?,
                clock_from: number(3, "clock_from")?,
                at: number(4, "at")?,
            }),
            Some(CLOSED) if values.len() == 4 => {
                let at = number(3, "at")?;
                Ok(ClockEntry::Closed {
                    reason: values[1].clone(),
                    quiet_from: optional(2).map(|_| number(2, "quiet_from")).transpose()?,
                    at,
                })
            }
            _ => Err(ClockEntryError::Shape),
        }
    }
}

/// A moment as the log writes it: milliseconds since the Unix epoch (a
/// moment before it, which no clock of the service gives, as 0).
fn ms(at: Millis) -> u64 {
    u64::try_from(at.0).unwrap_or(0)
}

/// `text` as a canonical decimal number: digits only, no leading zero.
fn digits<T: std::str::FromStr>(text: &str) -> Option<T> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
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
    fn clock_entries_read_back_as_written_and_name_the_figure_at_fault() {
        let strings = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        for values in [
            strings(&["served", "proc-b", "proc-a", "3", "25000", "20000"]),
            strings(&["served", "proc-a", "-", "-", "-", "5000"]),
            strings(&["served", "proc-a", "-", "-", "-"]),
            strings(&["timeout", "3", "1", "20000", "25000"]),
            strings(&["closed", "table_idle", "4000", "64000"]),
            strings(&["closed", "table_empty", "-", "5000"]),
        ] {
            let entry = ClockEntry::parse(&values).expect("a clock entry");
            assert_eq!(entry.values(), values);
        }
        let bad = |v: &[&str]| ClockEntry::parse(&strings(v)).unwrap_err().to_string();
        assert_eq!(
            bad(&["timeout", "3", "1", "-20", "25000"]),
            "clock_from is not a decimal number"
        );
        assert_eq!(
            bad(&["closed", "table_idle", "04000", "1"]),
            "quiet_from is not a decimal number"
        );
        assert_eq!(
            bad(&["served", "x", "-", "-", "-", ""]),
            "since is not a decimal number"
        );
        assert_eq!(
            bad(&["closed", "table_idle", "1"]),
            "expected served, timeout or closed with their figures"
        );
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
