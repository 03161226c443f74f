//! Live hold'em tables' clocks (docs/spec.md §19.2): every timed-out action
//! and every `table_idle` end held against the table's logged policy and the
//! time the log shows it served. The house must not run a player's clock or
//! a table's idle limit down by stopping the service, nor close a table
//! early and call it idle; what the log cannot explain is a finding naming
//! the table, the hand and the figures.
//!
//! Read, beside what other checkers read of the same entries:
//! - `holdem_table` commitment `[holdem_table:T, "policy"]`: `[policy JSON]`
//! - `holdem_table` outcome `[holdem_table:T]`: `["served", …, since]`,
//!   `["timeout", hand, seat, clock_from, at]`, `["closed", reason, quiet_from, at]`;
//!   a timeout whose `at` is later than its own entry's time was logged
//!   before the moment it says the clock ran out
//! - `selfpoker_v2` commitment / reveal `[T, hand]`: the hands in play
//! - `selfpoker_v2` reveal `[holdem_table:T]`: `[secret, reason]`
//! - `selfpoker_v3` outcome `[T, hand]`: `["round_opened", …]` and
//!   `["no_hand", why]`: the round of a hand open from the one to the other
//!   (or to the hand's commitment); a table closed meanwhile ended its
//!   session on a deck the house knew, with no hand and no withheld seat

use std::collections::{BTreeSet, HashMap};

use crate::context::Context;
use crate::entry::{Entry, Kind};
use crate::finding::FindingKind;

use fairseed_holdem::live::service_log::ClockEntry;

use super::dice::parse_digits;
use super::name;

/// The prefix of a table's session id.
const SESSION: &str = "holdem_table:";

/// What a table's policy bounds, in ms.
#[derive(Debug, Clone, Copy)]
struct Limits {
    action_ms: u64,
    idle_close_ms: u64,
}

/// A `closed` entry's figures.
#[derive(Debug, Clone)]
struct Closed {
    leaf: u64,
    reason: String,
}

/// What the log has shown of one table so far.
#[derive(Debug, Default)]
struct Table {
    limits: Option<Limits>,
    /// The latest start of service.
    since: Option<u64>,
    /// Hands committed and not yet revealed.
    in_play: BTreeSet<u64>,
    /// The hand whose round is open (logged opened, neither dealt nor ended).
    round_open: Option<u64>,
    /// The latest hand whose round or deal was logged: somebody joined.
    joined: Option<u64>,
    /// The session reveal's reason and leaf.
    ended: Option<(u64, String)>,
    closed: Option<Closed>,
}

/// The checker of live tables' clocks.
#[derive(Debug, Default)]
pub struct TableClock {
    tables: HashMap<String, Table>,
}

impl TableClock {
    /// Reads one entry if it belongs to a live table; others pass by.
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        let checked = match (entry.scheme.as_str(), entry.kind, entry.ids.as_slice()) {
            ("holdem_table", Kind::Commitment, [session, policy]) if policy == "policy" => {
                self.policy(session, entry)
            }
            ("holdem_table", Kind::Outcome, [session]) => self.outcome(ctx, leaf, session, entry),
            ("selfpoker_v2" | "selfpoker_v3", Kind::Commitment | Kind::Reveal, [table, hand])
                if !table.starts_with(SESSION) =>
            {
                self.hand(table, hand, entry.kind);
                Ok(())
            }
            ("selfpoker_v3", Kind::Outcome, [table, hand]) => {
                self.round(table, hand, entry.values.first().map(String::as_str));
                Ok(())
            }
            ("selfpoker_v2" | "selfpoker_v3", Kind::Reveal, [session])
                if entry.values.len() == 2 =>
            {
                self.session_end(ctx, leaf, session, &entry.values[1]);
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(message) = checked {
            ctx.find(FindingKind::BadEntry, leaf, message);
        }
    }

    /// A `table_idle` or `table_unjoined` end the log gives no figures for
    /// cannot be explained.
    pub fn finish(&mut self, ctx: &mut Context) {
        let mut unexplained: Vec<_> = self
            .tables
            .iter()
            .filter(|(_, t)| t.limits.is_some() && t.closed.is_none())
            .filter_map(|(id, t)| {
                let (leaf, reason) = t.ended.as_ref()?;
                quiet_limit(t, reason).map(|_| (*leaf, id.clone(), reason.clone()))
            })
            .collect();
        unexplained.sort();
        for (leaf, id, reason) in unexplained {
            ctx.find(
                FindingKind::EarlyEnd,
                leaf,
                format!(
                    "table {id} ended as {reason} with no logged quiet spell (no closed entry)"
                ),
            );
        }
    }

    /// The table id of `session` and what is known of it.
    fn table(&mut self, session: &str) -> Option<(String, &mut Table)> {
        let id = session.strip_prefix(SESSION)?.to_owned();
        let table = self.tables.entry(id.clone()).or_default();
        Some((id, table))
    }

    fn policy(&mut self, session: &str, entry: &Entry) -> Result<(), String> {
        let limits =
            parse_limits(entry.values.first().map_or("", String::as_str)).ok_or_else(|| {
                format!(
                    "{}: the policy has no action_ms and idle_close_ms",
                    name(entry)
                )
            })?;
        if let Some((_, table)) = self.table(session) {
            table.limits = Some(limits);
        }
        Ok(())
    }

    /// A round's opening or its end without a hand.
    fn round(&mut self, table: &str, hand: &str, what: Option<&str>) {
        let (Some(number), Some(t)) = (parse_digits(hand), self.tables.get_mut(table)) else {
            return;
        };
        match what {
            Some("round_opened") => {
                t.round_open = Some(number);
                t.joined = Some(number);
            }
            Some("no_hand") if t.round_open == Some(number) => t.round_open = None,
            _ => {}
        }
    }

    fn hand(&mut self, table: &str, hand: &str, kind: Kind) {
        let (Some(number), Some(t)) = (parse_digits(hand), self.tables.get_mut(table)) else {
            return;
        };
        if kind == Kind::Commitment {
            if t.round_open == Some(number) {
                t.round_open = None;
            }
            t.joined = Some(number);
            t.in_play.insert(number);
        } else {
            t.in_play.remove(&number);
        }
    }

    fn outcome(
        &mut self,
        ctx: &mut Context,
        leaf: u64,
        session: &str,
        entry: &Entry,
    ) -> Result<(), String> {
        let bad = |what: &str| format!("{}: {what}", name(entry));
        let Some((id, table)) = self.table(session) else {
            return Err(bad("not a table's session"));
        };
        let logged = ClockEntry::parse(&entry.values).map_err(|e| bad(&e.to_string()))?;
        match logged {
            ClockEntry::Served { since, .. } => {
                // An entry without `since` is from a service that did not log it.
                table.since = Some(since.unwrap_or(entry.time_ms));
            }
            ClockEntry::Timeout {
                hand,
                seat,
                clock_from: from,
                at,
            } => {
                if at > entry.time_ms {
                    ctx.find(
                        FindingKind::EarlyTimeout,
                        leaf,
                        format!(
                            "table {id}, hand {hand}: seat {seat}'s timeout at {at} was logged at {}, before the moment it says the clock ran out",
                            entry.time_ms
                        ),
                    );
                }
                if let Some(message) = timeout(table, hand, seat, from, at) {
                    ctx.find(
                        FindingKind::EarlyTimeout,
                        leaf,
                        format!("table {id}, hand {hand}: {message}"),
                    );
                }
            }
            ClockEntry::Closed {
                reason,
                quiet_from,
                at,
            } => {
                if let (Some(hand), "table_unjoined") = (table.joined, reason.as_str()) {
                    ctx.find(
                        FindingKind::EarlyEnd,
                        leaf,
                        format!(
                            "table {id} closed as table_unjoined though hand {hand} was logged there: somebody had joined, and its idle limit applies"
                        ),
                    );
                }
                if let Some(hand) = table.round_open {
                    ctx.find(
                        FindingKind::EarlyEnd,
                        leaf,
                        format!(
                            "table {id} closed as {reason} while the round of hand {hand} was open: the session ended on a deck the house knew, with no hand and no withheld seat logged"
                        ),
                    );
                }
                if let Some(limit) = quiet_limit(table, &reason) {
                    if let Some(message) = idle(table, &reason, limit, quiet_from, at) {
                        ctx.find(FindingKind::EarlyEnd, leaf, format!("table {id} {message}"));
                    }
                }
                table.closed = Some(Closed { leaf, reason });
                self.settle(ctx, &id);
            }
        }
        Ok(())
    }

    fn session_end(&mut self, ctx: &mut Context, leaf: u64, session: &str, reason: &str) {
        if let Some((id, table)) = self.table(session) {
            table.ended = Some((leaf, reason.to_owned()));
            self.settle(ctx, &id);
        }
    }

    /// Once a table's `closed` entry and its session's end are both seen,
    /// their reasons must agree, and nothing of the table is kept.
    fn settle(&mut self, ctx: &mut Context, id: &str) {
        let Some(table) = self.tables.get(id) else {
            return;
        };
        let (Some(closed), Some((_, reason))) = (&table.closed, &table.ended) else {
            return;
        };
        if &closed.reason != reason {
            ctx.find(
                FindingKind::EarlyEnd,
                closed.leaf,
                format!(
                    "table {id} closed as {} but its session ended as {reason}",
                    closed.reason
                ),
            );
        }
        self.tables.remove(id);
    }
}

/// How a span the table counted, from `from` to `at`, falls short of a
/// policy's limit of served time.
enum Short {
    /// It began before the table was last served, from this moment: it
    /// counted time nobody served the table.
    Unserved(u64),
    /// It lasted this many ms, below the limit.
    Served(u64),
}

/// Whether the span from `from` to `at` at `table` falls short of `limit` ms
/// of served time (`None`: it does not).
fn short_of(table: &Table, from: u64, at: u64, limit: u64) -> Option<Short> {
    if let Some(since) = table.since.filter(|&since| from < since) {
        return Some(Short::Unserved(since));
    }
    let served = at.saturating_sub(from);
    (served < limit).then_some(Short::Served(served))
}

/// Why a timeout of `seat` in `hand` at `at`, its clock counted from
/// `from`, is not what `table`'s policy and service explain (`None`: it is).
fn timeout(table: &Table, hand: u64, seat: usize, from: u64, at: u64) -> Option<String> {
    let Some(limits) = table.limits else {
        return Some(format!(
            "seat {seat} timed out at a table that logged no policy"
        ));
    };
    if !table.in_play.contains(&hand) {
        return Some(format!("seat {seat} timed out in a hand not in play"));
    }
    Some(match short_of(table, from, at, limits.action_ms)? {
        Short::Unserved(since) => format!(
            "seat {seat}'s clock counted from {from}, before the table was last served from {since}"
        ),
        Short::Served(served) => format!(
            "seat {seat} timed out after {served} ms of served time; its policy gives each turn {} ms",
            limits.action_ms
        ),
    })
}

/// A table nobody sat at closes after this much served quiet, whatever its
/// idle limit (docs/spec.md §17.4, `table_unjoined`).
const UNJOINED_CLOSE_MS: u64 = 60_000;

/// The served quiet an end for `reason` needs at `table`, with words for
/// it: the policy's idle limit for `table_idle`, a minute at most for
/// `table_unjoined`; `None` for any other reason or a table with no policy.
fn quiet_limit(table: &Table, reason: &str) -> Option<(u64, &'static str)> {
    let limits = table.limits?;
    match reason {
        "table_idle" => Some((limits.idle_close_ms, "its policy's idle limit is")),
        "table_unjoined" => Some((
            limits.idle_close_ms.min(UNJOINED_CLOSE_MS),
            "a table nobody joined closes after",
        )),
        _ => None,
    }
}

/// Why an end for `reason` at `at`, quiet from `quiet_from`, is not what
/// `table`'s policy and service explain (`None`: it is).
fn idle(
    table: &Table,
    reason: &str,
    (limit, words): (u64, &str),
    quiet_from: Option<u64>,
    at: u64,
) -> Option<String> {
    if let Some(hand) = table.in_play.first() {
        return Some(format!("closed as {reason} while hand {hand} was in play"));
    }
    let Some(from) = quiet_from else {
        return Some(format!("closed as {reason} with no quiet spell"));
    };
    Some(match short_of(table, from, at, limit)? {
        Short::Unserved(since) => format!(
            "closed as {reason} quiet from {from}, before the table was last served from {since}"
        ),
        Short::Served(quiet) => {
            format!("closed as {reason} after {quiet} ms of served quiet; {words} {limit} ms")
        }
    })
}

/// `config.action_ms` and `idle_close_ms` of a policy's JSON.
fn parse_limits(json: &str) -> Option<Limits> {
    let policy: serde_json::Value = serde_json::from_str(json).ok()?;
    Some(Limits {
        action_ms: policy["config"]["action_ms"].as_u64()?,
        idle_close_ms: policy["idle_close_ms"].as_u64()?,
    })
}
