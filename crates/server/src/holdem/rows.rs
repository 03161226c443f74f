//! Live hold'em tables in the store: one round per table (kind
//! `holdem_table`, id `holdem_table:<T>`). Its sealed secret is the
//! `selfpoker_v2` session secret (64 hex), its commitment the secret's
//! `sha256`, revealed when the table closes; its state is the
//! [`LiveTable`] stripped of the hand's cards and seed (re-derived from the
//! secret on load); its log holds the public messages, `seq` N at index
//! N − 1. Status: `open`, `closed` (the last human left; secret revealed),
//! then `archived` (every hand stored as a record for its players).

use fairseed_core::selfpoker_v2;
use fairseed_holdem::live::{
    self, sealed, service_log, LiveTable, Message, RoundNotice, TableView,
};
use fairseed_holdem::Event;
use fairseed_play::Millis;
use fairseed_store::{LoadedRound, NewRound, RoundChange, RoundWrite, SecretSeed};
use fairseed_tlog::{EntryKind, LogEntry};

use crate::error::ApiError;
use crate::log::shown;
use crate::rounds::save;

/// The round kind.
pub const KIND: &str = "holdem_table";
/// The id prefix of a table's round (also its lease's name).
pub const PREFIX: &str = "holdem_table:";
/// Being played.
pub const OPEN: &str = "open";
/// The last human left: no more hands; the secret is revealed.
pub const CLOSED: &str = "closed";
/// Closed, and every hand stored as a record.
pub const ARCHIVED: &str = "archived";

/// The round id of `table`.
pub fn round_id(table: &str) -> String {
    format!("{PREFIX}{table}")
}

/// The live-event topic of `table`.
pub fn topic(table: &str) -> String {
    format!("holdem:{table}")
}

/// A table as loaded: its full state (cards re-derived), its session
/// secret, and the row's version and log length.
pub struct Loaded {
    /// The table, secrets included.
    pub live: LiveTable,
    /// The session secret.
    pub secret: [u8; 32],
    /// The row's status.
    pub status: String,
    version: u64,
}

/// Reads a table's round, its hand's cards dealt again from the secret.
pub fn load(round: &LoadedRound) -> Result<Loaded, ApiError> {
    let row = &round.row;
    let stripped: LiveTable = serde_json::from_str(&row.state)
        .map_err(|e| ApiError::internal(format!("hold'em table state: {e}")))?;
    let hex = round
        .secret
        .as_ref()
        .map(|s| s.expose().to_owned())
        .or_else(|| row.revealed.clone())
        .ok_or_else(|| ApiError::internal("a hold'em table without its session secret"))?;
    let secret = selfpoker_v2::parse_secret(&hex, "session_secret")
        .map_err(|_| ApiError::internal("a stored session secret does not parse"))?;
    let seed = live::running_seed(&stripped, &secret)?;
    let live = sealed::restore(&stripped, seed)
        .map_err(|_| ApiError::internal("a hold'em hand does not match its commitment"))?;
    if live.seq != row.log_len {
        return Err(ApiError::internal(
            "a hold'em table's seq is not its log's length",
        ));
    }
    Ok(Loaded {
        live,
        secret,
        status: row.status.clone(),
        version: row.version,
    })
}

/// The round of a new table whose session secret is `secret_hex`.
pub fn new_round(live: &LiveTable, secret_hex: String) -> Result<NewRound, ApiError> {
    Ok(NewRound {
        id: round_id(&live.table_id),
        kind: KIND.into(),
        commitment: live.session.commit.clone().unwrap_or_default(),
        secret: SecretSeed::new(secret_hex),
        state: save(&sealed::strip(live).0)?,
        status: OPEN.into(),
    })
}

/// The write taking `loaded` to `next`, appending `messages` to the log and
/// revealing the secret when the table closed.
pub fn write(
    loaded: &Loaded,
    next: &LiveTable,
    messages: &[Message],
) -> Result<RoundWrite, ApiError> {
    let closing = next.closed && !loaded.live.closed;
    let mut stored = sealed::strip(next).0;
    if closing {
        stored.session.revealed = Some(hex::encode(loaded.secret));
    }
    Ok(RoundWrite {
        id: round_id(&next.table_id),
        expected_version: loaded.version,
        change: RoundChange {
            state: save(&stored)?,
            status: if next.closed { CLOSED } else { OPEN }.into(),
            log: messages.iter().map(save).collect::<Result<_, _>>()?,
            reveal: closing,
            records: Vec::new(),
        },
    })
}

/// The names of the log entries a view of `view` shows (docs/spec.md
/// §16.5): the session's commitment (and its end once revealed), the hand
/// in play's commit, and between hands the last hand's commit and seed,
/// named as [`log_entries`] and the store queue them.
pub fn shown(view: &TableView) -> Vec<String> {
    let mut names = session_names(&view.table_id, view.session.secret.is_some());
    if let Some(hand) = &view.hand {
        names.extend(shown::commitment(&[
            &view.table_id,
            &hand.number.to_string(),
        ]));
    }
    if let Some(last) = &view.last_hand {
        names.extend(ended_hand_names(&view.table_id, last.number));
    }
    names
}

/// The names of the log entries the finished hands `numbers` of table
/// `table_id` show (`GET /v1/holdem/tables/{id}/hands`): the session's
/// commitment (and its end once `revealed`), each hand's commit and seed.
pub fn shown_hands(table_id: &str, numbers: &[u64], revealed: bool) -> Vec<String> {
    let mut names = session_names(table_id, revealed);
    for &number in numbers {
        names.extend(ended_hand_names(table_id, number));
    }
    names
}

/// The session's commitment and its policy's and, once `revealed`, their
/// ends (a table opened before tables logged a policy has no policy entry).
fn session_names(table_id: &str, revealed: bool) -> Vec<String> {
    let session = round_id(table_id);
    let mut names = shown::commitment(&[&session]);
    names.extend(shown::commitment(&[&session, POLICY]));
    if revealed {
        names.extend(shown::reveal(&[&session]));
        names.extend(shown::reveal(&[&session, POLICY]));
    }
    names
}

/// An ended hand's commit and seed.
fn ended_hand_names(table_id: &str, number: u64) -> Vec<String> {
    let number = number.to_string();
    let mut names = shown::commitment(&[table_id, &number]);
    names.extend(shown::reveal(&[table_id, &number]));
    names
}

/// The scheme of a hold'em table's own log entries: its policy when it
/// opens and each start of its service (docs/spec.md §19).
pub const TABLE_SCHEME: &str = "holdem_table";

/// The ids of a table's policy entries: `[session, "policy"]`.
fn policy_ids(table_id: &str) -> Vec<String> {
    vec![round_id(table_id), POLICY.to_owned()]
}

const POLICY: &str = "policy";

/// The first value of the entry that names a seat that withheld its
/// per-hand value (docs/spec.md §20.6).
pub const WITHHELD: &str = "withheld";

/// The entry that commits to `live`'s seed session as it opens, under the
/// table's scheme: a commitment named `[session]`, its value
/// `sha256(session_secret)` (docs/spec.md §17.1); the session's end is its
/// reveal ([`log_entries`]).
pub fn session_entry(live: &LiveTable) -> Result<LogEntry, ApiError> {
    let commit = live
        .session
        .commit
        .clone()
        .ok_or_else(|| ApiError::internal("a live table's session has no commitment"))?;
    Ok(LogEntry {
        kind: EntryKind::Commitment,
        time_ms: 0,
        scheme: live.session.scheme.as_str().to_owned(),
        ids: vec![round_id(&live.table_id)],
        values: vec![commit],
    })
}

/// The entry that commits to `live`'s policy as it opens, before any hand:
/// a commitment named `[session, "policy"]`, its value the policy as JSON;
/// the session's end logs the same value as its reveal ([`log_entries`]).
pub fn policy_entry(live: &LiveTable) -> Result<LogEntry, ApiError> {
    let policy = serde_json::to_string(&live.policy).map_err(ApiError::internal)?;
    Ok(LogEntry {
        kind: EntryKind::Commitment,
        time_ms: 0,
        scheme: TABLE_SCHEME.to_owned(),
        ids: policy_ids(&live.table_id),
        values: vec![policy],
    })
}

/// The entry that logs a process starting to serve `live` at `since` (at
/// its start or by taking the table over from `took_over_from`): an outcome
/// named `[session]` with the values of [`service_log::served`].
pub fn served_entry(
    live: &LiveTable,
    owner: &str,
    took_over_from: Option<&str>,
    since: Millis,
) -> LogEntry {
    service_entry(
        &live.table_id,
        service_log::served(live, owner, took_over_from, since),
    )
}

/// An outcome of the table's own scheme named `[session]`: a start of
/// service, a timed-out action or the session's end ([`service_log`]).
fn service_entry(table_id: &str, values: Vec<String>) -> LogEntry {
    LogEntry {
        kind: EntryKind::Outcome,
        time_ms: 0,
        scheme: TABLE_SCHEME.to_owned(),
        ids: vec![round_id(table_id)],
        values,
    }
}

/// The log entries a change from `loaded` to `next` with `messages` at
/// `now` calls for (docs/spec.md §16.7): each hand's commit when it is dealt
/// and its seed when it ends, named `[table, hand number]`, as is each seat
/// that withheld its per-hand value (§20.6); each timed-out action with the
/// served time it had; when the table closes, the session's secret and why
/// it ended, named `[session]` as the session's commitment (which the store
/// logs when it creates the round), and the figures of its end.
pub fn log_entries(
    loaded: &Loaded,
    next: &LiveTable,
    messages: &[Message],
    now: Millis,
) -> Vec<LogEntry> {
    let scheme = next.session.scheme.as_str();
    let entry = |kind, number: u64, value: &str| LogEntry {
        kind,
        // Set when the entry is queued.
        time_ms: 0,
        scheme: scheme.to_owned(),
        ids: vec![next.table_id.clone(), number.to_string()],
        values: vec![value.to_owned()],
    };
    let session_end = (next.closed && !loaded.live.closed).then(|| LogEntry {
        kind: EntryKind::Reveal,
        time_ms: 0,
        scheme: scheme.to_owned(),
        ids: vec![round_id(&next.table_id)],
        values: vec![
            hex::encode(loaded.secret),
            next.end.map_or("table_empty", |e| e.as_str()).to_owned(),
        ],
    });
    // The policy committed at open, restated as the session ends.
    let policy_end = (next.closed && !loaded.live.closed)
        .then_some(next.policy.as_ref())
        .flatten()
        .and_then(|policy| serde_json::to_string(&Some(policy)).ok())
        .map(|policy| LogEntry {
            kind: EntryKind::Reveal,
            time_ms: 0,
            scheme: TABLE_SCHEME.to_owned(),
            ids: policy_ids(&next.table_id),
            values: vec![policy],
        });
    // A timed-out action comes before the seed of the hand it may end, so
    // the log shows it while its hand is in play.
    let timeouts = service_log::timeouts(&loaded.live, messages, now)
        .into_iter()
        .map(|values| service_entry(&next.table_id, values));
    let hands = messages.iter().filter_map(|m| match m {
        Message::Event {
            event: Event::HandStarted { number, commit, .. },
            ..
        } => Some(entry(EntryKind::Commitment, *number, commit)),
        Message::HandEnd {
            number, fairplay, ..
        } => Some(entry(EntryKind::Reveal, *number, &fairplay.seed)),
        Message::Round {
            notice: RoundNotice::Withheld { hand, seat },
            ..
        } => Some(LogEntry {
            values: vec![WITHHELD.to_owned(), seat.to_string()],
            ..entry(EntryKind::Outcome, *hand, "")
        }),
        Message::Event { .. } | Message::Round { .. } => None,
    });
    let closed = service_log::closed(&loaded.live, next, now)
        .map(|values| service_entry(&next.table_id, values));
    timeouts
        .chain(hands)
        .chain(closed)
        .chain(session_end)
        .chain(policy_end)
        .collect()
}

#[cfg(test)]
mod tests {
    use fairseed_holdem::live::{Policy, Request, Scheme, Session};
    use fairseed_holdem::{Command, TableConfig};

    use super::*;

    #[test]
    fn a_timeout_that_ends_its_hand_is_logged_before_the_hands_seed() {
        let policy = Policy {
            config: TableConfig {
                seats: 2,
                ..TableConfig::default()
            },
            ais: vec![1],
            idle_close_ms: 60_000,
        };
        // As the service opens a table: a `selfpoker_v2` session.
        let secret = [9; 32];
        let commit = Some(selfpoker_v2::session_commit(&secret));
        let session = Session {
            scheme: Scheme::SelfpokerV2,
            commit,
            revealed: None,
        };
        let open = LiveTable::open("t".into(), policy, session).expect("a policy in bounds");
        let sit = Request::Sit {
            seat: 0,
            client_seed: "mine".into(),
        };
        let seated = live::request(&open, 7, sit, Millis(0))
            .expect("a free seat")
            .0;
        let seed = live::derived_seed(&seated, &secret).expect("a human seated");
        let start = Command::StartHand { seed };
        let dealt = live::apply(&seated, start, Millis(1)).expect("two seats").0;
        let hand = dealt.table.hand.as_ref().expect("a hand in play");
        let (seat, deadline) = (hand.seat_to_act(), hand.deadline);
        // Heads-up, the first to act faces the big blind: the clock folds it.
        let (ended, messages) =
            live::apply(&dealt, Command::Timeout { seat }, deadline).expect("the clock ran out");
        assert!(ended.table.hand.is_none(), "the fold ended the hand");
        let loaded = Loaded {
            live: dealt,
            secret,
            status: OPEN.into(),
            version: 0,
        };
        let entries = log_entries(&loaded, &ended, &messages, deadline);
        let order: Vec<_> = entries
            .iter()
            .map(|e| (e.kind, e.scheme.as_str(), e.ids.clone()))
            .collect();
        let hand = vec!["t".to_owned(), "1".to_owned()];
        let session = vec![round_id("t")];
        assert_eq!(
            order,
            [
                (EntryKind::Outcome, TABLE_SCHEME, session),
                (EntryKind::Reveal, "selfpoker_v2", hand),
            ]
        );
        assert_eq!(entries[0].values[0], "timeout");
    }
}
