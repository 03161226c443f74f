//! The live table as one machine: [`Machine::handle`] takes the table, one
//! [`Input`] — a person's request, the clock's tick, a start of service, the
//! operator's close, or the wind-down of a table restored from a backup —
//! and the time, and answers everything the change means in one
//! [`Output`]: the next state, its public messages, its transparency-log
//! entries, the session secret to reveal when the session ends, and the
//! table's status. What is due by itself ([`driver::next`]), whether a
//! change ends the session ([`ends_session`]), the reveal on close and the
//! quiet spell are worked out here only; a service loads the table, calls
//! [`Machine::handle`], commits the output and announces it.
//!
//! Pure: the time, the session secret (sealed by the service, never in the
//! state) and the pacing are arguments. The pacing (an AI's delay, the
//! pause between hands) is the machine's configuration, not the committed
//! policy's: adding it to the policy would change the bytes every table
//! commits to (docs/spec.md §19, §20).

use fairseed_play::{Millis, PlayerId};
use fairseed_tlog::LogEntry;

use super::command::apply;
use super::driver::{self, Due, Timing};
use super::entries;
use super::error::LiveError;
use super::message::Message;
use super::requests::{close, request, resume, Request};
use super::round;
use super::seed::derived_seed;
use super::session::{Scheme, SessionEnd};
use super::table::{ends_session, LiveTable};
use crate::rules::Command;

/// What the table is asked to take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A person's request.
    Request {
        /// Who asks.
        player: PlayerId,
        /// What they ask.
        request: Request,
    },
    /// The clock: what the table does by itself ([`driver::next`]), if it
    /// is due by now.
    Tick,
    /// A process starts serving the table (at its start, or taking it over
    /// from `took_over_from`): every running clock starts again in full
    /// ([`resume`]), and the log names the process.
    Serve {
        /// The process now serving the table.
        owner: String,
        /// The process it took the table over from, if any.
        took_over_from: Option<String>,
    },
    /// The operator closes the table now (never while a hand is played or
    /// its round is open: [`close`]).
    Close,
    /// The table was restored from a backup, whose secret may have dealt
    /// cards it does not know were seen: the hand or round under way plays
    /// on with every clock run out at once (each step at the later of
    /// `now` and its due time), no new hand starts, and once nothing is
    /// left to play the table closes as the operator's close does.
    WindDown,
}

/// Whether the table plays on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The session runs.
    Open,
    /// The session ended, and why (docs/spec.md §17.4).
    Closed(SessionEnd),
}

/// Everything one input changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The table after the input, secrets of the hand being played included
    /// (the service stores it with [`super::sealed::strip`]).
    pub next: LiveTable,
    /// The public messages the change adds, numbered on from the table's `seq`.
    pub messages: Vec<Message>,
    /// The transparency-log entries the change calls for, in the order
    /// [`entries::change`] gives (after the start of service's, for
    /// [`Input::Serve`]).
    pub entries: Vec<LogEntry>,
    /// The session secret, hex, when this change ends the session: what the
    /// store reveals with the session's commitment.
    pub reveal: Option<String>,
    /// Whether the table plays on after the change.
    pub status: Status,
    /// The moment the change was taken at: `now`, or for
    /// [`Input::WindDown`] the later of `now` and the step's due time.
    pub at: Millis,
}

/// The live table's machine: the session secret its hands and its AIs'
/// decisions derive from, and the service's pacing.
#[derive(Debug, Clone, Copy)]
pub struct Machine<'a> {
    /// The session secret.
    pub secret: &'a [u8; 32],
    /// An AI's delay and the pause between hands.
    pub pacing: Timing,
}

impl Machine<'_> {
    /// When `live` next does something by itself ([`driver::next`]);
    /// `None` while it waits for a person.
    pub fn due(&self, live: &LiveTable) -> Option<Millis> {
        driver::next(live, self.pacing, self.secret).map(|plan| plan.at)
    }

    /// Applies `input` to `live` at `now`.
    ///
    /// # Errors
    /// [`LiveError`] naming why the table refuses the input (the table is
    /// then unchanged): a request the rules refuse, a close while a hand is
    /// played or its round is open, any input but a tick on a closed table
    /// ([`LiveError::Closed`]), and a tick when nothing is due
    /// ([`LiveError::NotDue`]).
    pub fn handle(&self, live: &LiveTable, input: Input, now: Millis) -> Result<Output, LiveError> {
        let mut at = now;
        let mut logged = Vec::new();
        let (mut next, messages) = match input {
            Input::Request { player, request: r } => request(live, player, r, now)?,
            Input::Tick => self.tick(live, now)?,
            Input::Serve {
                owner,
                took_over_from,
            } => {
                if live.closed {
                    return Err(LiveError::Closed);
                }
                let next = resume(live, now);
                logged.push(entries::served(
                    &next,
                    &owner,
                    took_over_from.as_deref(),
                    now,
                ));
                (next, Vec::new())
            }
            Input::Close => {
                if live.closed {
                    return Err(LiveError::Closed);
                }
                close(live, now)?
            }
            Input::WindDown => {
                let (step_at, change) = self.wind_down(live, now)?;
                at = step_at;
                change
            }
        };
        let reveal = ends_session(live, &next).then(|| hex::encode(self.secret));
        if reveal.is_some() {
            next.session.revealed.clone_from(&reveal);
        }
        logged.extend(entries::change(live, self.secret, &next, &messages, at));
        let status = if next.closed {
            Status::Closed(next.end.unwrap_or(SessionEnd::TableEmpty))
        } else {
            Status::Open
        };
        Ok(Output {
            next,
            messages,
            entries: logged,
            reveal,
            status,
            at,
        })
    }

    /// What is due by `now`, applied.
    fn tick(&self, live: &LiveTable, now: Millis) -> Result<(LiveTable, Vec<Message>), LiveError> {
        let plan = driver::next(live, self.pacing, self.secret)
            .filter(|plan| plan.at <= now)
            .ok_or(LiveError::NotDue)?;
        let command = match plan.due {
            Due::Command(command) => command,
            Due::OpenRound => return round::open(live, now),
            Due::CloseCommits => return round::close_commits(live, now),
            Due::StartHand if live.session.scheme == Scheme::SelfpokerV3 => {
                return round::deal(live, self.secret, now)
            }
            Due::StartHand => Command::StartHand {
                seed: derived_seed(live, self.secret)?,
            },
            Due::Close => return close(live, now),
        };
        Ok(apply(live, command, now)?)
    }

    /// One step of [`Input::WindDown`] and the moment it was taken at.
    fn wind_down(
        &self,
        live: &LiveTable,
        now: Millis,
    ) -> Result<(Millis, (LiveTable, Vec<Message>)), LiveError> {
        if live.closed {
            return Err(LiveError::Closed);
        }
        let Some(plan) = driver::next(live, self.pacing, self.secret) else {
            return Ok((now, close(live, now)?));
        };
        let at = Millis(now.0.max(plan.at.0));
        Ok(match plan.due {
            Due::Command(command) => (at, apply(live, command, at)?),
            Due::CloseCommits => (at, round::close_commits(live, at)?),
            // A round under way ends only with its deal.
            Due::StartHand if round::open_round(live).is_some() => {
                (at, round::deal(live, self.secret, at)?)
            }
            Due::StartHand | Due::OpenRound | Due::Close => (now, close(live, now)?),
        })
    }
}
