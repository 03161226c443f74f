//! A live table as the service keeps it: the rules' [`Table`] plus what a
//! table open to people needs around it — its id, its seed session, the
//! humans' client seeds, a counter of public messages, the events of the
//! hand being played (its record is built from them) and the last hand's
//! result while the next one is awaited.
//!
//! Pure like the rest of the crate: [`apply`] and [`request`] take the time
//! and every seed as arguments; [`view()`] cuts what one viewer may see;
//! [`driver::next`] says what the table does next by itself (an AI's turn,
//! the clock, the next deal). The service stores the state with
//! [`sealed::strip`] (no card and no seed in the stored text) and
//! supplies the time and the OS-random seeds.

pub mod driver;
#[cfg(feature = "log")]
pub mod entries;
#[cfg(test)]
mod fixtures;
#[cfg(feature = "log")]
pub mod machine;
mod message;
pub mod policy;
pub mod round;
pub mod sealed;
pub mod service_log;
mod view;
#[cfg(feature = "wire")]
pub mod wire;

use fairseed_core::selfpoker_v2;
use fairseed_play::{Code, Millis, PlayerId, RuleViolation};
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::rules::{apply as rules_apply, Action, Command, Event, HoldemError, Player, Table};

pub use message::{deal, logged_record, Fairplay, Message};
pub use policy::Policy;
pub use round::{HandRound, NoHandWhy, RoundNotice};
pub use view::{
    view, HandView, LastHand, LastHole, LastResult, LegalView, RoundView, SeatPlayer, SeatView,
    SessionView, TableView,
};

/// How a table's hand seeds are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// A fresh 63-bit seed per hand from the OS CSPRNG.
    Selfpoker,
    /// Derived from a committed session secret, the table, the hand number
    /// and the seated humans' client seeds (docs/spec.md).
    SelfpokerV2,
    /// As `selfpoker_v2` over the humans dealt in, each with a per-hand
    /// value committed before any was revealed (docs/spec.md §20).
    SelfpokerV3,
}

impl Scheme {
    /// The scheme's name in messages and records.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scheme::Selfpoker => "selfpoker",
            Scheme::SelfpokerV2 => "selfpoker_v2",
            Scheme::SelfpokerV3 => "selfpoker_v3",
        }
    }
}

/// The table's seed session: its scheme, the session secret's commitment
/// (v2) and, once the session ended, the secret itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// How hand seeds are made.
    pub scheme: Scheme,
    /// `sha256` of the session secret, hex (v2); public from the start.
    pub commit: Option<String>,
    /// The session secret, hex, once revealed (when the table closed).
    pub revealed: Option<String>,
}

/// A seat's client seed for the v2 derivation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientSeed {
    /// The seat.
    pub seat: usize,
    /// The seed as the player's browser gave it.
    pub seed: String,
}

/// How a person came to a table's seat (docs/spec.md §19.4), shown to
/// every viewer and named in each hand record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrival {
    /// The person who opened the table.
    Opener,
    /// With the invitation the opener shared.
    Invited,
    /// At a public table, with no invitation.
    Public,
    /// A player the operator created: the house's, however it came.
    House,
}

impl Arrival {
    /// The word views and records write.
    pub const fn as_str(self) -> &'static str {
        match self {
            Arrival::Opener => "opener",
            Arrival::Invited => "invited",
            Arrival::Public => "public",
            Arrival::House => "house",
        }
    }
}

/// The longest invitation a `sit` may give, in bytes.
pub const MAX_INVITATION: usize = 128;

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
    /// The policy fixed when the table opened; `None` for a table opened
    /// before tables carried one (the serving process's settings apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
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
    fn note_between_hands(&mut self, event: &Event) {
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

/// Why a table's session ended: both are its policy, and the transparency
/// log carries the reason with the revealed secret (docs/spec.md §17.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionEnd {
    /// The last human left.
    TableEmpty,
    /// Nobody could be dealt in for the table's idle limit.
    TableIdle,
    /// Nobody sat down within [`driver::UNJOINED_CLOSE_MS`] of served time
    /// after the table opened, whatever its idle limit: a table nobody
    /// joined holds a place among the service's tables for a minute at most.
    TableUnjoined,
}

impl SessionEnd {
    /// The reason as the log and the spec write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            SessionEnd::TableEmpty => "table_empty",
            SessionEnd::TableIdle => "table_idle",
            SessionEnd::TableUnjoined => "table_unjoined",
        }
    }
}

/// What a person asks of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Take `seat`, giving a client seed (1 to 64 bytes of printable text,
    /// as every chosen client seed: `ClientSeed::parse_chosen`).
    Sit {
        /// The seat.
        seat: usize,
        /// The client seed for the v2 derivation.
        client_seed: String,
        /// The table's invitation, as its opener shared it: what a person
        /// other than the opener needs at a private table.
        invitation: Option<String>,
        /// The player is the house's: one the operator created (the
        /// service knows it from its store).
        house: bool,
    },
    /// Act on the player's turn.
    Act(Action),
    /// Stop being dealt in.
    SitOut,
    /// Be dealt in again.
    SitIn,
    /// Refill the stack to the starting stack.
    TopUp,
    /// Leave the table.
    Leave,
    /// Commit to a per-hand value for `hand`'s round (`selfpoker_v3`).
    Commit {
        /// The hand.
        hand: u64,
        /// `sha256` of the value's 64 hex characters, hex.
        commit: String,
    },
    /// Reveal the per-hand value committed to for `hand`.
    Reveal {
        /// The hand.
        hand: u64,
        /// The value, 64 lowercase hex characters.
        value: String,
    },
}

/// A request the table refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// A rule of the game.
    #[error(transparent)]
    Rules(#[from] HoldemError),
    /// The player has no seat at this table.
    #[error("you have no seat at this table")]
    NotSeated,
    /// The player sits here already.
    #[error("you already sit at seat {0}")]
    AlreadySeated(usize),
    /// The client seed is unusable (the message names why).
    #[error("{0}")]
    ClientSeed(String),
    /// A private table refuses the seat: no invitation, or not this
    /// table's (the reason, after the field `invitation`).
    #[error("invitation: {0}")]
    Invitation(&'static str),
    /// The session's seeds cannot be derived (the message names why).
    #[error("{0}")]
    Derivation(String),
    /// The table closed when its last human left.
    #[error("the table is closed; open a new one")]
    Closed,
    /// The round of the next hand is open: seats stay as they are until
    /// it is dealt (docs/spec.md §20.2).
    #[error("hand {0} is being dealt; try again once it has started")]
    RoundOpen(u64),
    /// A commit or reveal that the round does not take (the message says why).
    #[error("{0}")]
    Round(String),
    /// A commit or value that is not 64 hex characters (the message names it).
    #[error("{0}")]
    HandValue(String),
    /// The revealed value is not the one the seat committed to.
    #[error("value: its sha256 is not your commit for hand {0}; send the value you committed to")]
    ValueMismatch(u64),
    /// What the driver planned is not due on this table (a caller's bug).
    #[error("nothing of the kind is due at this table")]
    NotDue,
}

impl RuleViolation for LiveError {
    fn code(&self) -> Code {
        match self {
            LiveError::Rules(e) => e.code(),
            LiveError::NotSeated => Code::NotSeated,
            LiveError::AlreadySeated(_) => Code::AlreadySeated,
            LiveError::ClientSeed(_) => Code::ClientSeedInvalid,
            LiveError::Invitation(_) => Code::InvitationRefused,
            LiveError::Derivation(_) => Code::DerivationFailed,
            LiveError::Closed => Code::TableClosed,
            LiveError::RoundOpen(_) => Code::RoundOpen,
            LiveError::Round(_) => Code::NotInRound,
            LiveError::HandValue(_) => Code::HandValueInvalid,
            LiveError::ValueMismatch(_) => Code::HandValueMismatch,
            LiveError::NotDue => Code::Internal,
        }
    }
}

impl LiveTable {
    /// A new table `table_id` over `table` (AIs seated already, if any).
    pub fn new(table_id: String, table: Table, session: Session) -> LiveTable {
        LiveTable {
            table_id,
            table,
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
            policy: None,
            round: None,
            spent_commits: Vec::new(),
            since_last_hand: Vec::new(),
            opener: None,
            invitation: None,
            arrivals: Vec::new(),
            evidence_key: None,
        }
    }

    /// Numbers `notice` as the table's next public message.
    pub(crate) fn notice(&mut self, notice: RoundNotice) -> Message {
        self.seq += 1;
        Message::Round {
            seq: self.seq,
            notice,
        }
    }

    /// A new table `table_id` playing by `policy`, its AIs seated.
    ///
    /// # Errors
    /// [`fairseed_core::Error`] naming the first field of `policy` out of bounds.
    pub fn open(
        table_id: String,
        policy: Policy,
        session: Session,
    ) -> Result<LiveTable, fairseed_core::Error> {
        let mut live = LiveTable::new(table_id, policy.table()?, session);
        live.policy = Some(policy);
        Ok(live)
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

    /// Anyone may sit: the policy says the table is public, or the table
    /// predates invitations.
    pub fn is_public(&self) -> bool {
        self.invitation.is_none() || self.policy.as_ref().is_some_and(|p| p.public)
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
        let public = self.policy.as_ref().is_some_and(|p| p.public);
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

    /// The idle limit: the policy's, else `default` (the serving process's).
    pub fn idle_close_ms(&self, default: i64) -> i64 {
        self.policy.as_ref().map_or(default, |p| p.idle_close_ms)
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

/// The seed of the next hand under `selfpoker_v2`: the HMAC of docs/spec.md
/// §17.2 over the table, the next hand's number and the seated humans'
/// client seeds, keyed by the session `secret`.
///
/// # Errors
/// [`LiveError::Derivation`] when no human with a client seed is seated, or
/// the table id is not an identifier.
pub fn derived_seed(live: &LiveTable, secret: &[u8; 32]) -> Result<u64, LiveError> {
    let hand = live.table.hands_played + 1;
    session_seed(live, secret, hand, &live.seated_client_seeds())
}

/// The seed of the hand being played under `selfpoker_v2` (`None` between
/// hands): what the service re-derives its cards from when it loads a table.
///
/// # Errors
/// As [`derived_seed`].
pub fn running_seed(live: &LiveTable, secret: &[u8; 32]) -> Result<Option<u64>, LiveError> {
    let Some(hand) = &live.table.hand else {
        return Ok(None);
    };
    if live.session.scheme == Scheme::SelfpokerV3 {
        let values = live
            .round
            .as_ref()
            .filter(|r| r.hand == hand.number)
            .map(|r| &r.values)
            .ok_or_else(|| LiveError::Derivation(format!("hand {} has no round", hand.number)))?;
        return round::hand_seed(live, secret, hand.number, &live.hand_client_seeds, values)
            .map(Some);
    }
    session_seed(live, secret, hand.number, &live.hand_client_seeds).map(Some)
}

fn session_seed(
    live: &LiveTable,
    secret: &[u8; 32],
    hand: u64,
    seeds: &[ClientSeed],
) -> Result<u64, LiveError> {
    let entries = seeds
        .iter()
        .map(|c| selfpoker_v2::ClientSeedEntry::new(c.seat, &c.seed))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| LiveError::Derivation(e.to_string()))?;
    selfpoker_v2::hand_seed(secret, &live.table_id, hand, &entries)
        .map_err(|e| LiveError::Derivation(e.to_string()))
}

/// Applies `request` from `player` at `now`.
///
/// # Errors
/// [`LiveError`] naming the refusal; the table is then unchanged.
pub fn request(
    live: &LiveTable,
    player: PlayerId,
    request: Request,
    now: Millis,
) -> Result<(LiveTable, Vec<Message>), LiveError> {
    if live.closed {
        return Err(LiveError::Closed);
    }
    let seated = live.seat_of(player);
    if let Some(round) = round::open_round(live) {
        if !matches!(
            request,
            Request::Commit { .. } | Request::Reveal { .. } | Request::Act(_)
        ) {
            return Err(LiveError::RoundOpen(round.hand));
        }
    }
    if let Request::Sit {
        seat,
        client_seed,
        invitation,
        house,
    } = request
    {
        if let Some(at) = seated {
            return Err(LiveError::AlreadySeated(at));
        }
        let came = live.admits(player, invitation.as_deref(), house)?;
        fairseed_core::ClientSeed::parse_chosen(&client_seed, "client_seed")
            .map_err(|e| LiveError::ClientSeed(e.to_string()))?;
        let human = Player::Human { id: player };
        let (mut next, messages) = apply(
            live,
            Command::Sit {
                seat,
                player: human,
            },
            now,
        )?;
        next.client_seeds.retain(|c| c.seat != seat);
        next.client_seeds.push(ClientSeed {
            seat,
            seed: client_seed,
        });
        next.arrivals.retain(|(s, _)| *s != seat);
        next.arrivals.extend(came.map(|came| (seat, came)));
        next.quiet_since = Some(now);
        return Ok((next, messages));
    }
    let seat = seated.ok_or(LiveError::NotSeated)?;
    let command = match request {
        Request::Sit { .. } => return Err(LiveError::AlreadySeated(seat)),
        Request::Commit { hand, commit } => {
            return round::commit(live, seat, hand, &commit, now).map(|(mut next, messages)| {
                next.quiet_since = Some(now);
                (next, messages)
            })
        }
        Request::Reveal { hand, value } => {
            return round::reveal(live, seat, hand, &value).map(|(mut next, messages)| {
                next.quiet_since = Some(now);
                (next, messages)
            })
        }
        Request::Act(action) => Command::Act { seat, action },
        Request::SitOut => Command::SitOut { seat },
        Request::SitIn => Command::SitIn { seat },
        Request::TopUp => Command::TopUp { seat },
        Request::Leave => Command::Leave { seat },
    };
    if let (Command::Leave { .. }, Some(hand)) = (command, &live.table.hand) {
        if live.humans().len() == 1 && !live.table.in_hand(seat) {
            // The last human's leave ends the session: never mid-hand. (A
            // seat dealt in, folded or not, is refused by the rules: `in_hand`.)
            return Err(HoldemError::HandRunning(hand.number).into());
        }
    }
    let (mut next, messages) = apply(live, command, now)?;
    if matches!(command, Command::Leave { .. }) {
        next.client_seeds.retain(|c| c.seat != seat);
        next.arrivals.retain(|(s, _)| *s != seat);
        next.closed = next.humans().is_empty();
        if next.closed {
            next.end = Some(SessionEnd::TableEmpty);
        }
    }
    next.quiet_since = Some(now);
    Ok((next, messages))
}

/// The table as a process that starts serving it finds it (docs/spec.md
/// §19.1): time counts only while a table is served, so after any downtime
/// the running turn's clock starts again in full at `now`, and so does the
/// quiet spell after which a table nobody can be dealt into closes. Nothing
/// else changes: no card, no seat, no chip.
pub fn resume(live: &LiveTable, now: Millis) -> LiveTable {
    let mut next = live.clone();
    if let Some(hand) = &mut next.table.hand {
        hand.deadline = Millis(now.0.saturating_add(hand.action_ms));
    }
    if next.quiet_since.is_some() {
        next.quiet_since = Some(now);
    }
    let phase_ms = round::phase_ms(next.table.config.action_ms);
    if let Some(round) = next.round.as_mut().filter(|r| r.is_open()) {
        round.deadline = Millis(now.0.saturating_add(phase_ms));
    }
    if let Some(ended) = next.ended_at {
        next.ended_at = Some(ended.max(now));
    }
    next
}

/// Closes a quiet table (see [`driver::Due::Close`]) or the operator's:
/// every person still seated leaves, and the table plays no more, so its
/// session ends. Never while a hand is played or its round is open: a close
/// then would end the session on a deck the house already knows, with no
/// record of the hand and no withheld seat named (docs/spec.md §17.4).
///
/// # Errors
/// [`HoldemError::HandRunning`] while a hand is being played,
/// [`LiveError::RoundOpen`] while the round of the next hand is open.
pub fn close(live: &LiveTable, now: Millis) -> Result<(LiveTable, Vec<Message>), LiveError> {
    if let Some(hand) = &live.table.hand {
        return Err(HoldemError::HandRunning(hand.number).into());
    }
    if let Some(round) = round::open_round(live) {
        return Err(LiveError::RoundOpen(round.hand));
    }
    let mut next = live.clone();
    let mut messages = Vec::new();
    for (seat, _) in live.humans() {
        let (after, more) = apply(&next, Command::Leave { seat }, now)?;
        next = after;
        messages.extend(more);
    }
    next.client_seeds.clear();
    next.arrivals.clear();
    next.closed = true;
    next.end = Some(if live.nobody_joined() {
        SessionEnd::TableUnjoined
    } else {
        SessionEnd::TableIdle
    });
    Ok((next, messages))
}

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
                next.last = Some(LastHand::of(live, &next.hand_events, number, seed));
                next.ended_at = Some(now);
                next.quiet_since = next.quiet_since.map(|q| q.max(now));
                next.hand_events.clear();
                let dealt = holes(live);
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

/// The two hole cards of every seat dealt into a hand.
pub(crate) fn holes(live: &LiveTable) -> Vec<(usize, [Card; 2])> {
    live.table
        .hand
        .as_ref()
        .map(|h| h.players.iter().map(|p| (p.seat, p.hole)).collect())
        .unwrap_or_default()
}

/// Whether the change from `before` to `next` ends the table's session:
/// the one place the machine, its log entries and the service tell a
/// closing change from any other.
pub fn ends_session(before: &LiveTable, next: &LiveTable) -> bool {
    next.closed && !before.closed
}

impl LiveTable {
    /// The table opened at `now`: the opening is the first thing a person
    /// did here, so the quiet spell after which a table nobody can be
    /// dealt into closes counts from it.
    #[must_use]
    pub fn opened_at(mut self, now: Millis) -> LiveTable {
        self.quiet_since = Some(now);
        self
    }
}
