//! A hand record: everything needed to replay a hand and check every chip.
//!
//! The record holds the seed and its commitment, the seats (a person, or an
//! AI and its level) with their chips, the public action log and the
//! results. [`replay`] recomputes the deck from the seed, plays every action
//! under [`crate::rules`] and compares the pots, the winners and the final
//! stacks with the record, naming the first difference in words. A hand dealt
//! under `selfpoker_v2` also carries its [`DealV2`], and its seed is first
//! checked against the session secret and the client seeds ([`crate::deal`]).
//!
//! As JSON (cards are selfpoker ids, `rank × 4 + suit`; seats 0 to 5; an
//! action's `to` is the total the seat has in front of it on that street):
//!
//! ```text
//! {"scheme":"holdem_hand_v1","hand":1,"seed":7424841456459477716,
//!  "commit":"c2012fae…","config":{"seats":3,"small_blind":50,"big_blind":100,
//!  "starting_stack":10000,"action_ms":30000},"button":0,
//!  "seats":[{"seat":0,"player":{"kind":"ai","level":1},"stack":10000},…],
//!  "actions":[{"seat":0,"street":"preflop","action":{"kind":"fold"}},
//!             {"seat":1,"street":"preflop","action":{"kind":"raise_to","to":300}},…],
//!  "results":{"board":[4,27,3,33,45],"returned":[],"shown":[[1,[39,19]],[2,[50,20]]],
//!             "pots":[{"amount":200,"winners":[[2,200]]}],
//!             "stacks":[[0,10000],[1,9900],[2,10100]]}}
//! ```

use core::fmt::Write as _;

use fairseed_play::{Millis, PlayerId};
use serde::{Deserialize, Serialize};

use crate::ai::{DecisionKey, Engine, Level, SeatView};
use crate::card::Card;
use crate::deal::{self, DealStatus, DealV2, DealtHand};
use crate::live::arrival::Arrival;
use crate::live::policy::Policy;
pub use crate::replay_error::{ReplayError, SCHEME};
use crate::rules::{
    apply, chips, Action, Command, Event, HoldemError, Logged, Player, Seat, Table, TableConfig,
};

/// A seat dealt into the hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSeat {
    /// The seat, 0 to 5.
    pub seat: usize,
    /// A person or an AI (with its level).
    pub player: Player,
    /// Chips at the start of the hand.
    pub stack: u64,
    /// An AI whose decisions derive from the session secret: its engine's
    /// version (docs/spec.md §18). Absent for a person, and for an AI whose
    /// decisions nobody can replay (a plain `selfpoker` simulation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Engine>,
    /// Chips a top-up added to the seat since its previous hand at this
    /// table (docs/spec.md §19.3), 0 for none: when it is not 0, `stack` is
    /// the starting stack and `stack - topped_up` what the seat had before.
    /// Absent only from records written before records named top-ups:
    /// their stacks are not held to the hand before (`carried`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topped_up: Option<u64>,
    /// A player sat down at the seat since its previous hand at this table
    /// (hand 1 included): its stack is new, not carried from a hand.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sat_down: bool,
    /// How the person at the seat came to the table (docs/spec.md §19.4):
    /// `opener`, `invited`, `public`, or `house` for a player the operator
    /// created. Absent for an AI, and in records of tables that predate it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub came: Option<Arrival>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
const fn is_false(b: &bool) -> bool {
    !*b
}

/// One pot's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PotResult {
    /// The pot's size.
    pub amount: u64,
    /// Who got what, seat order.
    pub winners: Vec<(usize, u64)>,
}

/// How a hand ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The board cards dealt.
    pub board: Vec<Card>,
    /// Uncalled chips returned: (seat, chips).
    pub returned: Vec<(usize, u64)>,
    /// Hands shown at showdown, in showing order.
    pub shown: Vec<(usize, [Card; 2])>,
    /// The main pot, then side pots.
    pub pots: Vec<PotResult>,
    /// Each seat's chips after the hand.
    pub stacks: Vec<(usize, u64)>,
}

impl Outcome {
    /// The outcome the events of one hand describe.
    pub fn from_events(events: &[Event]) -> Outcome {
        let mut out = Outcome::default();
        for e in events {
            match e {
                Event::Dealt { cards, .. } => out.board.extend(cards),
                Event::Returned { seat, amount } => out.returned.push((*seat, *amount)),
                Event::Showed { seat, cards, .. } => out.shown.push((*seat, *cards)),
                Event::Awarded {
                    amount, winners, ..
                } => out.pots.push(PotResult {
                    amount: *amount,
                    winners: winners.clone(),
                }),
                Event::HandEnded { stacks, .. } => out.stacks.clone_from(stacks),
                _ => {}
            }
        }
        out
    }
}

/// One hand, replayable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRecord {
    /// Always [`SCHEME`].
    pub scheme: String,
    /// The hand's number at its table, from 1.
    pub hand: u64,
    /// The selfpoker seed: the deck is `default_rng(seed).permutation(52)`.
    pub seed: u64,
    /// `sha256("selfpoker:" + seed)`, published before the first card.
    pub commit: String,
    /// The table's blinds and settings.
    pub config: TableConfig,
    /// The button's seat.
    pub button: usize,
    /// The seats dealt in, seat order.
    pub seats: Vec<RecordSeat>,
    /// Every action, in order.
    pub actions: Vec<Logged>,
    /// How the hand ended.
    pub results: Outcome,
    /// Under `selfpoker_v2`, where `seed` comes from; absent under plain
    /// `selfpoker`, where the house drew it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<DealV2>,
    /// The policy the table committed to when it opened (docs/spec.md
    /// §19.3): the hand is held to it. Optional because the verifier reads
    /// whatever record it is given, and one without a policy gets a verdict,
    /// not a refusal to read it: a `selfpoker_v3` record that drops its
    /// policy fails the `policy` check by name (as a house hiding its seats
    /// would hand out), and a record of a table opened before records
    /// carried one is not held to it (docs/spec.md §19.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    /// The public half of the table's evidence key (docs/spec.md §20.7),
    /// 64 hex, as the session's log entries commit to it: what a seat's
    /// signed evidence of this hand is checked with. Absent from records of
    /// tables that did not sign evidence, and of simulated hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_key: Option<String>,
}

impl HandRecord {
    /// The record with every AI seat naming `engine`: its AIs decided with
    /// seeds from the session secret (docs/spec.md §18).
    #[must_use]
    pub fn with_ai_engine(mut self, engine: Engine) -> HandRecord {
        for s in &mut self.seats {
            if matches!(s.player, Player::Ai { .. }) {
                s.engine = Some(engine);
            }
        }
        self
    }

    /// The record with `secret`, the session secret once revealed, in its
    /// deal, so the record checks its seed alone; a plain `selfpoker` hand
    /// has no deal and is returned as it is.
    #[must_use]
    pub fn with_session_secret(mut self, secret: &str) -> HandRecord {
        if let Some(deal) = &mut self.deal {
            deal.session_secret = Some(secret.to_owned());
        }
        self
    }

    /// The people dealt in, by account, in seat order: the readers of the
    /// hand's record.
    pub fn humans(&self) -> Vec<PlayerId> {
        self.seats
            .iter()
            .filter_map(|s| match s.player {
                Player::Human { id } => Some(id),
                Player::Ai { .. } => None,
            })
            .collect()
    }

    /// What of the record its deal is checked against ([`deal::check`]).
    pub fn dealt(&self) -> DealtHand {
        DealtHand {
            hand: self.hand,
            seed: self.seed,
            table_seats: self.config.seats,
            dealt_in: self.seats.iter().map(|s| (s.seat, s.player)).collect(),
        }
    }
}

/// The table just before the hand of `record`.
fn table_before(record: &HandRecord) -> Result<Table, ReplayError> {
    let hand = record.hand;
    let setup = |error| ReplayError::Setup { hand, error };
    let mut table = Table::new(record.config).map_err(setup)?;
    for s in &record.seats {
        let slot = table
            .seats
            .get_mut(s.seat)
            .ok_or(HoldemError::NoSuchSeat {
                seat: s.seat,
                last: record.config.seats - 1,
            })
            .map_err(setup)?;
        if slot.is_some() {
            return Err(setup(HoldemError::SeatTaken(s.seat)));
        }
        *slot = Some(Seat {
            player: s.player,
            stack: s.stack,
            sitting_out: false,
        });
    }
    // The button moves to the first seat dealt in at or after the recorded one.
    table.button = record.button.checked_sub(1);
    table.hands_played = hand.saturating_sub(1);
    Ok(table)
}

/// Checks `record` whole: its deal ([`check_deal`]; an unrevealed
/// `selfpoker_v2` session is an error here), then [`replay_hand`].
///
/// # Errors
/// [`ReplayError`] naming the first thing that differs.
pub fn replay(record: &HandRecord) -> Result<Outcome, ReplayError> {
    match check_deal(record)? {
        Some(DealStatus::Unrevealed) => Err(ReplayError::Unrevealed(record.hand)),
        Some(DealStatus::Derived) => match revealed_secret(record)? {
            Some((secret, table_id)) => {
                let key = DecisionKey {
                    secret: &secret,
                    table_id,
                };
                replay_with_ais(record, key).map(|(outcome, _)| outcome)
            }
            None => Err(ReplayError::Unrevealed(record.hand)),
        },
        None => replay_hand(record),
    }
}

/// The revealed session secret and the table of a `selfpoker_v2` record;
/// `None` while the secret is not revealed or under plain `selfpoker`.
///
/// # Errors
/// [`ReplayError::Input`] for a secret that is not 64 hex characters.
pub fn revealed_secret(record: &HandRecord) -> Result<Option<([u8; 32], &str)>, ReplayError> {
    let Some(deal) = &record.deal else {
        return Ok(None);
    };
    let Some(text) = &deal.session_secret else {
        return Ok(None);
    };
    let secret = fairseed_core::selfpoker_v2::parse_secret(text, "deal.session_secret").map_err(
        |error| ReplayError::Input {
            hand: record.hand,
            error,
        },
    )?;
    Ok(Some((secret, deal.table_id.as_str())))
}

/// The scheme, then under `selfpoker_v2` the seed's derivation: `None` for
/// a plain `selfpoker` hand.
///
/// # Errors
/// [`ReplayError`] naming the first thing that differs.
pub fn check_deal(record: &HandRecord) -> Result<Option<DealStatus>, ReplayError> {
    if record.scheme != SCHEME {
        return Err(ReplayError::Scheme {
            hand: record.hand,
            scheme: record.scheme.clone(),
        });
    }
    record
        .deal
        .as_ref()
        .map(|d| deal::check(d, &record.dealt()))
        .transpose()
}

/// The seed against `commit`, then every action replayed under the rules and
/// the results compared, whatever the deal's scheme.
///
/// # Errors
/// [`ReplayError`] naming the first thing that differs.
pub fn replay_hand(record: &HandRecord) -> Result<Outcome, ReplayError> {
    replay_checking_ais(record, None).map(|(outcome, _)| outcome)
}

/// [`replay_hand`], and every AI decision replayed on the way from its
/// seat's view alone with `key`'s seed for it (docs/spec.md §18): the
/// outcome and the number of AI decisions replayed.
///
/// # Errors
/// [`ReplayError`] naming the first thing that differs; an AI action that is
/// not what its engine and level decide is [`ReplayError::Ai`].
pub fn replay_with_ais(
    record: &HandRecord,
    key: DecisionKey<'_>,
) -> Result<(Outcome, usize), ReplayError> {
    replay_checking_ais(record, Some(key))
}

/// The engine and level of every AI seat of `record`, by seat.
fn ai_seats(record: &HandRecord) -> Result<Vec<Option<(Engine, Level)>>, ReplayError> {
    let mut out = vec![None; record.config.seats.max(1)];
    for s in &record.seats {
        let Player::Ai { level } = s.player else {
            continue;
        };
        let problem = |problem: String| ReplayError::AiSeat {
            hand: record.hand,
            seat: s.seat,
            problem,
        };
        let engine = s.engine.ok_or_else(|| {
            problem("is an AI that names no engine: its decisions cannot be replayed".into())
        })?;
        let level = Level::from_number(level)
            .ok_or_else(|| problem(format!("is an AI of level {level}, expected 1 to 3")))?;
        if let Some(slot) = out.get_mut(s.seat) {
            *slot = Some((engine, level));
        }
    }
    Ok(out)
}

/// An action in the past tense ("raised to 900"), as the record says it.
fn did(action: Action, timed_out: bool) -> String {
    let done = match action {
        Action::Fold => "folded".to_owned(),
        Action::Check => "checked".to_owned(),
        Action::Call => "called".to_owned(),
        Action::RaiseTo(to) => format!("raised to {}", chips(to)),
    };
    if timed_out {
        format!("ran out of time ({done})")
    } else {
        done
    }
}

/// An action in the present tense ("raises to 900"), as an engine decides it.
fn decides(action: Action) -> String {
    match action {
        Action::Fold => "folds".to_owned(),
        Action::Check => "checks".to_owned(),
        Action::Call => "calls".to_owned(),
        Action::RaiseTo(to) => format!("raises to {}", chips(to)),
    }
}

/// [`replay_hand`], and with `key` [`replay_with_ais`].
///
/// # Errors
/// As [`replay_with_ais`].
pub fn replay_checking_ais(
    record: &HandRecord,
    key: Option<DecisionKey<'_>>,
) -> Result<(Outcome, usize), ReplayError> {
    let hand = record.hand;
    let ais = match key {
        Some(_) => ai_seats(record)?,
        None => Vec::new(),
    };
    let mut replayed = 0;
    if !fairseed_core::ct_eq(
        fairseed_core::selfpoker::commit(record.seed).as_bytes(),
        record.commit.to_ascii_lowercase().as_bytes(),
    ) {
        return Err(ReplayError::Commit(hand));
    }
    let mut table = table_before(record)?;
    let mut now = Millis(0);
    let (next, mut events) = apply(&table, Command::StartHand { seed: record.seed }, now)
        .map_err(|error| ReplayError::Setup { hand, error })?;
    table = next;
    if table.button != Some(record.button) {
        let difference = format!(
            "the button is seat {}, the record says seat {}",
            table.button.unwrap_or(0),
            record.button
        );
        return Err(ReplayError::Mismatch { hand, difference });
    }
    for (index, logged) in record.actions.iter().enumerate() {
        if table.hand.is_none() {
            return Err(ReplayError::AfterEnd {
                hand,
                index: index + 1,
                seat: logged.seat,
            });
        }
        if let (Some(key), Some(h)) = (key, &table.hand) {
            let ai = ais.get(logged.seat).copied().flatten();
            if let (Some((engine, level)), true) = (ai, h.seat_to_act() == logged.seat) {
                let decided = key.decide(engine, level, hand, &SeatView::of(h));
                if logged.timed_out || decided != logged.action {
                    return Err(ReplayError::Ai {
                        hand,
                        street: h.street,
                        seat: logged.seat,
                        level: level as u8,
                        engine,
                        did: did(logged.action, logged.timed_out),
                        decides: decides(decided),
                    });
                }
                replayed += 1;
            }
        }
        now = Millis(now.0 + 1);
        let command = Command::Act {
            seat: logged.seat,
            action: logged.action,
        };
        let (next, more) =
            apply(&table, command, now).map_err(|error| ReplayError::Rule { hand, error })?;
        table = next;
        events.extend(more);
    }
    if let Some(h) = &table.hand {
        return Err(ReplayError::Unfinished {
            hand,
            street: h.street,
            seat: h.seat_to_act(),
        });
    }
    let outcome = Outcome::from_events(&events);
    match first_difference(&outcome, &record.results) {
        Some(difference) => Err(ReplayError::Mismatch { hand, difference }),
        None => Ok((outcome, replayed)),
    }
}

fn cards(list: &[Card]) -> String {
    list.iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn payments(list: &[(usize, u64)]) -> String {
    let mut out = String::new();
    for (i, (seat, amount)) in list.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(out, "{sep}seat {seat} {}", chips(*amount));
    }
    if out.is_empty() {
        out.push_str("nobody");
    }
    out
}

/// The first way `got` (replayed) differs from `want` (recorded), in words.
fn first_difference(got: &Outcome, want: &Outcome) -> Option<String> {
    if got.board != want.board {
        return Some(format!(
            "the board is {}, the record says {}",
            cards(&got.board),
            cards(&want.board)
        ));
    }
    if got.returned != want.returned {
        return Some(format!(
            "uncalled chips returned: {}, the record says {}",
            payments(&got.returned),
            payments(&want.returned)
        ));
    }
    if got.shown != want.shown {
        let show = |s: &[(usize, [Card; 2])]| {
            s.iter()
                .map(|(seat, c)| format!("seat {seat} {}", cards(c)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Some(format!(
            "showdown: {}, the record says {}",
            show(&got.shown),
            show(&want.shown)
        ));
    }
    if got.pots.len() != want.pots.len() {
        return Some(format!(
            "{} pots, the record says {}",
            got.pots.len(),
            want.pots.len()
        ));
    }
    for (i, (g, w)) in got.pots.iter().zip(&want.pots).enumerate() {
        if g.amount != w.amount {
            return Some(format!(
                "pot {i} holds {}, the record says {}",
                chips(g.amount),
                chips(w.amount)
            ));
        }
        if g.winners != w.winners {
            return Some(format!(
                "pot {i} pays {}, the record says {}",
                payments(&g.winners),
                payments(&w.winners)
            ));
        }
    }
    if got.stacks != want.stacks {
        return Some(format!(
            "final stacks {}, the record says {}",
            payments(&got.stacks),
            payments(&want.stacks)
        ));
    }
    None
}

/// The record of a hand played from `before` with `seed` and its `events`
/// (its action log is rebuilt from them).
pub fn record_of(before: &Table, seed: u64, events: &[Event]) -> Option<HandRecord> {
    let (hand, commit, button, stacks) = events.iter().find_map(|e| match e {
        Event::HandStarted {
            number,
            commit,
            button,
            stacks,
        } => Some((*number, commit.clone(), *button, stacks.clone())),
        _ => None,
    })?;
    let seats = stacks
        .iter()
        .filter_map(|&(seat, stack)| {
            let player = before.seats.get(seat)?.as_ref()?.player;
            Some(RecordSeat {
                seat,
                player,
                stack,
                engine: None,
                topped_up: None,
                sat_down: false,
                came: None,
            })
        })
        .collect();
    Some(HandRecord {
        scheme: SCHEME.to_owned(),
        hand,
        seed,
        commit,
        config: before.config,
        button,
        seats,
        actions: action_log(events),
        results: Outcome::from_events(events),
        deal: None,
        policy: None,
        evidence_key: None,
    })
}

/// The action log of a finished hand, rebuilt from its events.
fn action_log(events: &[Event]) -> Vec<Logged> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Acted {
                seat,
                street,
                action,
                timed_out,
                at,
                ..
            } => Some(Logged {
                seat: *seat,
                street: *street,
                action: *action,
                timed_out: *timed_out,
                at: *at,
            }),
            _ => None,
        })
        .collect()
}
