//! A live table as the service keeps it: the rules' [`Table`] plus its id,
//! its seed session and policy, the humans' client seeds and how they came,
//! a counter of public messages, the events of the hand being played and
//! the last hand's result while the next one is awaited.

use fairseed_play::{Millis, PlayerId};
use serde::{Deserialize, Serialize};

use super::arrival::{Arrival, MAX_INVITATION};
use super::error::LiveError;
use super::hand_round::HandRound;
use super::last_hand::LastHand;
use super::policy::Policy;
use super::session::{ClientSeed, Session, SessionEnd};
use crate::rules::{Event, Player, Table};

/// A live table: everything, secrets of the hand being played included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveTable {
    /// The table's id.
    pub table_id: String,
    /// The rules' state.
    pub table: Table,
    /// The seed session.
    pub session: Session,
    /// The humans' client seeds, one per seat they took.
    pub client_seeds: Vec<ClientSeed>,
    /// Public messages so far (the last one's `seq`).
    pub seq: u64,
    /// The events of the hand being played, from its `hand_started`.
    pub hand_events: Vec<Event>,
    /// The client seeds the hand being played was derived from (v2).
    pub hand_client_seeds: Vec<ClientSeed>,
    /// The last hand's public result, until the next hand starts.
    pub last: Option<LastHand>,
    /// When the last hand ended.
    pub ended_at: Option<Millis>,
    /// When a person last did something here (or a hand last ended): a
    /// table where nobody can be dealt in closes after a quiet spell, so its
    /// session ends and its secret is revealed. `None`: never closes so.
    #[serde(default)]
    pub quiet_since: Option<Millis>,
    /// No human is left: the session ended and the table plays no more.
    pub closed: bool,
    /// Why the session ended, once it has (docs/spec.md §17.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<SessionEnd>,
    /// The policy fixed when the table opened: every table opens with one.
    pub policy: Policy,
    /// `selfpoker_v3`: the round of the next hand while it is open, then
    /// the round the hand being played (or last played) was dealt from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<HandRound>,
    /// `selfpoker_v3`: the commits of the next hand's rounds that ended
    /// without it. Their values may be known by now, so a round run again
    /// takes none of them: each seat draws a fresh value (docs/spec.md §20.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent_commits: Vec<String>,
    /// What happened to each seat since it was last dealt in: what the
    /// record of its next hand names (`topped_up`, `sat_down`,
    /// docs/spec.md §19.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub since_last_hand: Vec<SinceLastHand>,
    /// The person who opened the table: they sit without an invitation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opener: Option<PlayerId>,
    /// The invitation a person other than the opener gives to sit at a
    /// private table, drawn by the service from the OS CSPRNG. `None`: a
    /// table opened before tables had invitations, where anyone may sit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation: Option<String>,
    /// How each seated person came to the table, by seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrivals: Vec<(usize, Arrival)>,
    /// The public half of the session's evidence key (docs/spec.md §20.7),
    /// 64 hex: the service signs what it tells a seat with its secret half,
    /// drawn from the OS CSPRNG and never revealed. The session's log
    /// entries commit to it and every hand record names it. `None`: a table
    /// opened before tables signed evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_key: Option<String>,
}

/// A seat between two of its hands: the chips topped up, and whether a
/// player sat down there (a stack of its own, not carried from a hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SinceLastHand {
    /// The seat.
    pub seat: usize,
    /// Chips topped up.
    #[serde(default)]
    pub topped_up: u64,
    /// A player sat down at the seat.
    #[serde(default)]
    pub sat_down: bool,
}

impl LiveTable {
    /// What happened to `seat` since it was last dealt in.
    pub fn since_last_hand(&self, seat: usize) -> SinceLastHand {
        self.since_last_hand
            .iter()
            .find(|s| s.seat == seat)
            .copied()
            .unwrap_or(SinceLastHand {
                seat,
                topped_up: 0,
                sat_down: false,
            })
    }

    /// Notes an event between hands in [`LiveTable::since_last_hand`].
    pub(crate) fn note_between_hands(&mut self, event: &Event) {
        let (seat, topped_up, sat_down) = match *event {
            Event::ToppedUp { seat, amount } => {
                let was = self.since_last_hand(seat);
                (seat, was.topped_up.saturating_add(amount), was.sat_down)
            }
            Event::Seated { seat, .. } => (seat, 0, true),
            Event::Left { seat } => {
                self.since_last_hand.retain(|s| s.seat != seat);
                return;
            }
            _ => return,
        };
        self.since_last_hand.retain(|s| s.seat != seat);
        self.since_last_hand.push(SinceLastHand {
            seat,
            topped_up,
            sat_down,
        });
    }
}

impl LiveTable {
    /// A new table `table_id` playing by `policy`, its AIs seated.
    ///
    /// # Errors
    /// [`fairseed_core::Error`] naming the first field of `policy` out of bounds.
    pub fn open(
        table_id: String,
        policy: Policy,
        session: Session,
    ) -> Result<LiveTable, fairseed_core::Error> {
        Ok(LiveTable {
            table_id,
            table: policy.table()?,
            session,
            client_seeds: Vec::new(),
            seq: 0,
            hand_events: Vec::new(),
            hand_client_seeds: Vec::new(),
            last: None,
            ended_at: None,
            quiet_since: None,
            closed: false,
            end: None,
            policy,
            round: None,
            spent_commits: Vec::new(),
            since_last_hand: Vec::new(),
            opener: None,
            invitation: None,
            arrivals: Vec::new(),
            evidence_key: None,
        })
    }

    /// The table opened by `opener`, with `invitation` (drawn by the
    /// service from the OS CSPRNG) for the people they invite.
    #[must_use]
    pub fn opened_by(mut self, opener: PlayerId, invitation: String) -> LiveTable {
        self.opener = Some(opener);
        self.invitation = Some(invitation);
        self
    }

    /// The table signing its evidence with the key whose public half is
    /// `key` (64 hex, docs/spec.md §20.7).
    #[must_use]
    pub fn with_evidence_key(mut self, key: String) -> LiveTable {
        self.evidence_key = Some(key);
        self
    }

    /// The table opened at `now`: the opening is the first thing a person
    /// did here, so the quiet spell after which a table nobody can be
    /// dealt into closes counts from it.
    #[must_use]
    pub fn opened_at(mut self, now: Millis) -> LiveTable {
        self.quiet_since = Some(now);
        self
    }

    /// Anyone may sit: the policy says the table is public, or the table
    /// predates invitations.
    pub fn is_public(&self) -> bool {
        self.invitation.is_none() || self.policy.public
    }

    /// How the person at `seat` came, `None` for an AI or an empty seat.
    pub fn arrival(&self, seat: usize) -> Option<Arrival> {
        self.arrivals
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, a)| *a)
    }

    /// How `player` may come to a seat here, or why not (docs/spec.md
    /// §19.4): the opener sits; at a public table anyone does; otherwise
    /// only with the table's invitation. A player the operator created is
    /// the house's, however it came. `None`: a table that predates
    /// invitations, where anyone sits and nobody says how.
    ///
    /// # Errors
    /// [`LiveError::Invitation`] naming why the invitation does not open
    /// the table.
    pub fn admits(
        &self,
        player: PlayerId,
        invitation: Option<&str>,
        house: bool,
    ) -> Result<Option<Arrival>, LiveError> {
        if house {
            self.came(player, invitation)?;
            return Ok(Some(Arrival::House));
        }
        self.came(player, invitation)
    }

    fn came(
        &self,
        player: PlayerId,
        invitation: Option<&str>,
    ) -> Result<Option<Arrival>, LiveError> {
        let public = self.policy.public;
        let came = match (&self.invitation, invitation) {
            (_, Some(given)) if given.len() > MAX_INVITATION => {
                return Err(LiveError::Invitation("longer than any invitation"));
            }
            (Some(code), Some(given)) => {
                if !fairseed_core::ct_eq(code.as_bytes(), given.as_bytes()) {
                    return Err(LiveError::Invitation(
                        "not this table's invitation; an invitation opens only the table it was made for",
                    ));
                }
                if self.opener == Some(player) {
                    Arrival::Opener
                } else {
                    Arrival::Invited
                }
            }
            _ if self.opener == Some(player) => Arrival::Opener,
            _ if public => Arrival::Public,
            (None, _) => return Ok(None),
            (Some(_), None) => {
                return Err(LiveError::Invitation(
                    "missing; this table is private: a player other than its opener sits only with the invitation the opener shares",
                ));
            }
        };
        Ok(Some(came))
    }

    /// Whether no person has sat at the table yet: nobody is seated, no
    /// hand was played, and no client seed was ever given (a person who sat
    /// and left closed the table).
    pub fn nobody_joined(&self) -> bool {
        self.humans().is_empty() && self.table.hands_played == 0 && self.client_seeds.is_empty()
    }

    /// The seat `player` sits at.
    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.table
            .seats
            .iter()
            .position(|s| s.as_ref().map(|s| s.player) == Some(Player::Human { id: player }))
    }

    /// The humans seated, by seat.
    pub fn humans(&self) -> Vec<(usize, PlayerId)> {
        self.table
            .seats
            .iter()
            .enumerate()
            .filter_map(|(seat, s)| match s.as_ref()?.player {
                Player::Human { id } => Some((seat, id)),
                Player::Ai { .. } => None,
            })
            .collect()
    }

    /// The seated humans' client seeds, seat order: what hand seeds derive from.
    pub fn seated_client_seeds(&self) -> Vec<ClientSeed> {
        let mut seeds: Vec<ClientSeed> = self
            .client_seeds
            .iter()
            .filter(|c| {
                self.table
                    .seats
                    .get(c.seat)
                    .and_then(Option::as_ref)
                    .is_some_and(|s| matches!(s.player, Player::Human { .. }))
            })
            .cloned()
            .collect();
        seeds.sort_by_key(|c| c.seat);
        seeds
    }
}

/// Whether the change from `before` to `next` ends the table's session:
/// the one place the machine, its log entries and the service tell a
/// closing change from any other.
pub fn ends_session(before: &LiveTable, next: &LiveTable) -> bool {
    next.closed && !before.closed
}
