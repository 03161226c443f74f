//! The transparency-log entries of a live table (docs/spec.md §16.1): under
//! the session's scheme (`selfpoker_v2` or `selfpoker_v3`) its session's
//! commitment and end and each hand's commit and seed; under the table's
//! own scheme `holdem_table` its policy and what it logs of its clocks
//! ([`service_log`]). The service queues exactly these, so an audit can
//! match each with the messages and records a player holds.

use fairseed_play::log_entries::entry;
use fairseed_play::Millis;
use fairseed_tlog::{EntryKind, LogEntry};

use super::hand_round::RoundNotice;
use super::message::Message;
use super::service_log::{self, end_reason};
use super::table::{ends_session, LiveTable};
use crate::rules::Event;

/// The scheme of a table's own entries: its policy when it opens and what
/// it logs of its clocks (docs/spec.md §19).
pub const TABLE_SCHEME: &str = "holdem_table";

/// What a table's session id starts with: `holdem_table:<T>` names the
/// session in the log (and the table's round in the service's store).
pub const SESSION_PREFIX: &str = "holdem_table:";

/// The second id of a table's policy entries.
pub const POLICY: &str = "policy";

/// The second id of a table's evidence key entries (docs/spec.md §20.7).
pub const EVIDENCE_KEY: &str = "evidence_key";

/// The first value of the entry that names a seat that withheld its
/// per-hand value (docs/spec.md §20.6).
pub const WITHHELD: &str = "withheld";

/// The first value of the entry that names a seat of a round that did not
/// commit in time, sat out and not in the hand (docs/spec.md §20.6).
pub const NOT_COMMITTED: &str = "not_committed";

/// The first value of the entry of a round as it opens, its seats after it
/// (docs/spec.md §20.6): a session that ends before the round's hand or its
/// `no_hand` is a close the audit reports.
pub const ROUND_OPENED: &str = "round_opened";

/// The first value of the entry of a round that ended without its hand,
/// the second being why (docs/spec.md §20.6).
pub const NO_HAND: &str = "no_hand";

/// The session id of table `table_id`: `holdem_table:<T>`.
pub fn session_id(table_id: &str) -> String {
    format!("{SESSION_PREFIX}{table_id}")
}

/// The ids of a table's policy entries: `[session, "policy"]`.
fn policy_ids(table_id: &str) -> Vec<String> {
    vec![session_id(table_id), POLICY.to_owned()]
}

/// The commitment to `live`'s seed session as it opens, under the session's
/// scheme: ids `[session]`, values `[sha256(session_secret)]` (docs/spec.md
/// §17.1); the session's end is its reveal ([`change`]). `None` for a
/// session without a commitment (plain `selfpoker`), which no table opens.
pub fn session_commitment(live: &LiveTable) -> Option<LogEntry> {
    let commit = live.session.commit.clone()?;
    Some(entry(
        EntryKind::Commitment,
        live.session.scheme.as_str(),
        vec![session_id(&live.table_id)],
        vec![commit],
    ))
}

/// The commitment to `live`'s policy as it opens, before any hand: ids
/// `[session, "policy"]`, values `[the policy as JSON]`; the session's end
/// logs the same value as its reveal ([`change`]).
///
/// # Errors
/// The policy does not serialize.
pub fn policy_commitment(live: &LiveTable) -> Result<LogEntry, serde_json::Error> {
    Ok(entry(
        EntryKind::Commitment,
        TABLE_SCHEME,
        policy_ids(&live.table_id),
        vec![serde_json::to_string(&live.policy)?],
    ))
}

/// The ids of a table's evidence key entries: `[session, "evidence_key"]`.
fn evidence_key_ids(table_id: &str) -> Vec<String> {
    vec![session_id(table_id), EVIDENCE_KEY.to_owned()]
}

/// The commitment to `live`'s evidence key as it opens, before any hand
/// (docs/spec.md §20.7): ids `[session, "evidence_key"]`, values `[the
/// key's public half, 64 hex]`; the session's end restates it as a reveal
/// ([`change`]). `None` for a table without one.
pub fn evidence_key_commitment(live: &LiveTable) -> Option<LogEntry> {
    let key = live.evidence_key.clone()?;
    Some(entry(
        EntryKind::Commitment,
        TABLE_SCHEME,
        evidence_key_ids(&live.table_id),
        vec![key],
    ))
}

/// A process starting to serve `live` at `since` (at its start or by taking
/// the table over from `took_over_from`): an outcome with ids `[session]`
/// and the values of [`service_log::served`].
pub fn served(
    live: &LiveTable,
    owner: &str,
    took_over_from: Option<&str>,
    since: Millis,
) -> LogEntry {
    clock_entry(
        &live.table_id,
        service_log::served(live, owner, took_over_from, since),
    )
}

/// An outcome of the table's own scheme with ids `[session]`: a start of
/// service, a timed-out action or the session's end ([`service_log`]).
fn clock_entry(table_id: &str, values: Vec<String>) -> LogEntry {
    entry(
        EntryKind::Outcome,
        TABLE_SCHEME,
        vec![session_id(table_id)],
        values,
    )
}

/// The entries the change from `before` to `next` with `messages` at `now`
/// calls for (docs/spec.md §16.7), `secret` being the session's secret, in
/// this order:
///
/// - each timed-out action, with the served time it had
///   ([`service_log::timeouts`]), before the seed of the hand it may end,
///   so the log shows it while its hand is in play;
/// - each hand's commit when it is dealt (a commitment, values `[commit]`)
///   and its seed when it ends (a reveal, values `[seed]`, decimal), and
///   each round as it opens (an outcome, values `["round_opened", seat…]`),
///   each seat that withheld its per-hand value or did not commit (an
///   outcome, values `["withheld", seat]` or `["not_committed", seat]`), and
///   each round that ended without its hand (an outcome, values
///   `["no_hand", why]`, §20.6), all with ids `[table, hand number]`;
/// - when the table closes: the figures of its end
///   ([`service_log::closed`]); the session's secret and why it ended (a
///   reveal with ids `[session]`, values `[secret, reason]`, §17.4); and
///   the policy committed at open, restated (a reveal with ids
///   `[session, "policy"]`), if the table has one; and its evidence key,
///   restated (a reveal with ids `[session, "evidence_key"]`, values `[the
///   public half]`, never the secret half), if it has one.
pub fn change(
    before: &LiveTable,
    secret: &[u8; 32],
    next: &LiveTable,
    messages: &[Message],
    now: Millis,
) -> Vec<LogEntry> {
    let scheme = next.session.scheme.as_str();
    let hand_entry = |kind, number: u64, values: Vec<String>| {
        entry(
            kind,
            scheme,
            vec![next.table_id.clone(), number.to_string()],
            values,
        )
    };
    let closing = ends_session(before, next);
    let session_end = closing.then(|| {
        entry(
            EntryKind::Reveal,
            scheme,
            vec![session_id(&next.table_id)],
            vec![hex::encode(secret), end_reason(next).to_owned()],
        )
    });
    let policy_end = closing
        .then(|| serde_json::to_string(&next.policy).ok())
        .flatten()
        .map(|policy| {
            entry(
                EntryKind::Reveal,
                TABLE_SCHEME,
                policy_ids(&next.table_id),
                vec![policy],
            )
        });
    let key_end = closing
        .then_some(next.evidence_key.as_ref())
        .flatten()
        .map(|key| {
            entry(
                EntryKind::Reveal,
                TABLE_SCHEME,
                evidence_key_ids(&next.table_id),
                vec![key.clone()],
            )
        });
    let timeouts = service_log::timeouts(before, messages, now)
        .into_iter()
        .map(|values| clock_entry(&next.table_id, values));
    let hands = messages.iter().filter_map(|m| match m {
        Message::Event {
            event: Event::HandStarted { number, commit, .. },
            ..
        } => Some(hand_entry(
            EntryKind::Commitment,
            *number,
            vec![commit.clone()],
        )),
        Message::HandEnd {
            number, fairplay, ..
        } => Some(hand_entry(
            EntryKind::Reveal,
            *number,
            vec![fairplay.seed.clone()],
        )),
        Message::Round {
            notice: RoundNotice::Withheld { hand, seat },
            ..
        } => Some(hand_entry(
            EntryKind::Outcome,
            *hand,
            vec![WITHHELD.to_owned(), seat.to_string()],
        )),
        Message::Round {
            notice: RoundNotice::Opened { hand, seats, .. },
            ..
        } => {
            let mut values = vec![ROUND_OPENED.to_owned()];
            values.extend(seats.iter().map(ToString::to_string));
            Some(hand_entry(EntryKind::Outcome, *hand, values))
        }
        Message::Round {
            notice: RoundNotice::NotCommitted { hand, seat },
            ..
        } => Some(hand_entry(
            EntryKind::Outcome,
            *hand,
            vec![NOT_COMMITTED.to_owned(), seat.to_string()],
        )),
        Message::Round {
            notice: RoundNotice::NoHand { hand, why },
            ..
        } => Some(hand_entry(
            EntryKind::Outcome,
            *hand,
            vec![NO_HAND.to_owned(), why.as_str().to_owned()],
        )),
        Message::Event { .. } | Message::Round { .. } => None,
    });
    let closed =
        service_log::closed(before, next, now).map(|values| clock_entry(&next.table_id, values));
    timeouts
        .chain(hands)
        .chain(closed)
        .chain(session_end)
        .chain(policy_end)
        .chain(key_end)
        .collect()
}

#[cfg(test)]
mod tests {
    use fairseed_core::selfpoker_v2;

    use super::*;
    use crate::live::{self, fixtures, Request, Scheme, Session};
    use crate::rules::Command;

    const SECRET: [u8; 32] = [9; 32];

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    fn shape(e: &LogEntry) -> (EntryKind, &str, Vec<String>, Vec<String>) {
        (e.kind, e.scheme.as_str(), e.ids.clone(), e.values.clone())
    }

    /// A heads-up table opened as the service opens one: a `selfpoker_v2`
    /// session committed to [`SECRET`].
    fn opened() -> LiveTable {
        fixtures::heads_up(Session {
            scheme: Scheme::SelfpokerV2,
            commit: Some(selfpoker_v2::session_commit(&SECRET)),
            revealed: None,
        })
    }

    fn seated() -> LiveTable {
        fixtures::seated(&opened(), Millis(0))
    }

    #[test]
    fn an_opening_table_commits_to_its_session_and_its_policy() {
        let table = opened();
        let commit = selfpoker_v2::session_commit(&SECRET);
        let session = session_commitment(&table).expect("a v2 session commits");
        assert_eq!(
            shape(&session),
            (
                EntryKind::Commitment,
                "selfpoker_v2",
                strings(&["holdem_table:t"]),
                vec![commit]
            )
        );
        assert_eq!(session.time_ms, 0, "the store sets the time");
        let policy = policy_commitment(&table).expect("a policy serializes");
        let json = serde_json::to_string(&table.policy).expect("a policy serializes");
        assert!(json.starts_with('{'), "{json}");
        assert_eq!(
            shape(&policy),
            (
                EntryKind::Commitment,
                "holdem_table",
                strings(&["holdem_table:t", "policy"]),
                vec![json]
            )
        );
        let plain = LiveTable {
            session: Session {
                commit: None,
                ..table.session.clone()
            },
            ..table
        };
        assert_eq!(session_commitment(&plain), None);
    }

    #[test]
    fn a_table_with_an_evidence_key_commits_to_it_at_open_and_restates_it_at_close() {
        let key = "ab".repeat(32);
        assert_eq!(evidence_key_commitment(&opened()), None);
        let keyed = opened().with_evidence_key(key.clone());
        let opening = evidence_key_commitment(&keyed).expect("a key is committed");
        assert_eq!(
            shape(&opening),
            (
                EntryKind::Commitment,
                "holdem_table",
                strings(&["holdem_table:t", "evidence_key"]),
                vec![key.clone()]
            )
        );
        let table = live::resume(&fixtures::seated(&keyed, Millis(0)), Millis(4_000));
        let (left, messages) =
            live::request(&table, 7, Request::Leave, Millis(5_000)).expect("seated");
        let entries = change(&table, &SECRET, &left, &messages, Millis(5_000));
        let last = entries.last().map(shape);
        assert_eq!(
            last,
            Some((
                EntryKind::Reveal,
                "holdem_table",
                strings(&["holdem_table:t", "evidence_key"]),
                vec![key]
            )),
            "the public half, restated; never a secret"
        );
    }

    #[test]
    fn a_start_of_service_is_an_outcome_of_the_tables_scheme() {
        let got = served(&seated(), "proc-b", Some("proc-a"), Millis(5_000));
        assert_eq!(
            shape(&got),
            (
                EntryKind::Outcome,
                "holdem_table",
                strings(&["holdem_table:t"]),
                strings(&["served", "proc-b", "proc-a", "-", "-", "5000"])
            )
        );
    }

    #[test]
    fn a_timeout_that_ends_its_hand_is_logged_before_the_hands_seed() {
        let seated = seated();
        let seed = live::derived_seed(&seated, &SECRET).expect("a human seated");
        let (dealt, messages) =
            live::apply(&seated, Command::StartHand { seed }, Millis(1)).expect("two seats");
        let hand = dealt.table.hand.as_ref().expect("a hand in play");
        let (number, seat, deadline) = (hand.number, hand.seat_to_act(), hand.deadline);
        let commit = messages
            .iter()
            .find_map(|m| match m {
                Message::Event {
                    event: Event::HandStarted { commit, .. },
                    ..
                } => Some(commit.clone()),
                _ => None,
            })
            .expect("a deal starts a hand");
        let started = change(&seated, &SECRET, &dealt, &messages, Millis(1));
        let hand_ids = vec!["t".to_owned(), number.to_string()];
        assert_eq!(
            started.iter().map(shape).collect::<Vec<_>>(),
            [(
                EntryKind::Commitment,
                "selfpoker_v2",
                hand_ids.clone(),
                vec![commit]
            )]
        );
        // Heads-up, the first to act faces the big blind: the clock folds it.
        let (ended, messages) =
            live::apply(&dealt, Command::Timeout { seat }, deadline).expect("the clock ran out");
        assert!(ended.table.hand.is_none(), "the fold ended the hand");
        let entries = change(&dealt, &SECRET, &ended, &messages, deadline);
        assert_eq!(
            entries.iter().map(shape).collect::<Vec<_>>(),
            [
                (
                    EntryKind::Outcome,
                    "holdem_table",
                    strings(&["holdem_table:t"]),
                    vec![
                        "timeout".to_owned(),
                        number.to_string(),
                        seat.to_string(),
                        "1".to_owned(),
                        deadline.0.to_string()
                    ]
                ),
                (
                    EntryKind::Reveal,
                    "selfpoker_v2",
                    hand_ids,
                    vec![seed.to_string()]
                ),
            ]
        );
    }

    #[test]
    fn a_closing_table_logs_its_end_its_secret_and_its_policy_again() {
        let table = live::resume(&seated(), Millis(4_000));
        let (left, messages) =
            live::request(&table, 7, Request::Leave, Millis(5_000)).expect("seated");
        let entries = change(&table, &SECRET, &left, &messages, Millis(5_000));
        let policy = serde_json::to_string(&table.policy).expect("a policy serializes");
        assert_eq!(
            entries.iter().map(shape).collect::<Vec<_>>(),
            [
                (
                    EntryKind::Outcome,
                    "holdem_table",
                    strings(&["holdem_table:t"]),
                    strings(&["closed", "table_empty", "4000", "5000"])
                ),
                (
                    EntryKind::Reveal,
                    "selfpoker_v2",
                    strings(&["holdem_table:t"]),
                    vec![hex::encode(SECRET), "table_empty".to_owned()]
                ),
                (
                    EntryKind::Reveal,
                    "holdem_table",
                    strings(&["holdem_table:t", "policy"]),
                    vec![policy]
                ),
            ]
        );
        assert_eq!(
            change(&left, &SECRET, &left, &[], Millis(6_000)),
            [],
            "a table closes once"
        );
    }

    #[test]
    fn a_round_that_ends_without_its_hand_is_logged_with_why() {
        let table = seated();
        let notices = [
            RoundNotice::Opened {
                hand: 4,
                seats: vec![0, 3],
                deadline: Millis(5),
            },
            RoundNotice::NotCommitted { hand: 4, seat: 0 },
            RoundNotice::NoHand {
                hand: 4,
                why: crate::live::NoHandWhy::TooFewReady,
            },
        ];
        let messages: Vec<Message> = notices
            .into_iter()
            .enumerate()
            .map(|(i, notice)| Message::Round {
                seq: table.seq + 1 + i as u64,
                notice,
            })
            .collect();
        let entries = change(&table, &SECRET, &table, &messages, Millis(9));
        assert_eq!(
            entries.iter().map(shape).collect::<Vec<_>>(),
            [
                (
                    EntryKind::Outcome,
                    "selfpoker_v2",
                    strings(&["t", "4"]),
                    strings(&["round_opened", "0", "3"])
                ),
                (
                    EntryKind::Outcome,
                    "selfpoker_v2",
                    strings(&["t", "4"]),
                    strings(&["not_committed", "0"])
                ),
                (
                    EntryKind::Outcome,
                    "selfpoker_v2",
                    strings(&["t", "4"]),
                    strings(&["no_hand", "too_few_ready"])
                ),
            ]
        );
    }

    #[test]
    fn a_seat_that_withheld_its_value_is_named_under_its_hand() {
        let table = seated();
        let withheld = Message::Round {
            seq: table.seq + 1,
            notice: RoundNotice::Withheld { hand: 4, seat: 1 },
        };
        let entries = change(&table, &SECRET, &table, &[withheld], Millis(9));
        assert_eq!(
            entries.iter().map(shape).collect::<Vec<_>>(),
            [(
                EntryKind::Outcome,
                "selfpoker_v2",
                strings(&["t", "4"]),
                strings(&["withheld", "1"])
            )]
        );
    }
}
