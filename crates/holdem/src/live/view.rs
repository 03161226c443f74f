//! What one viewer of a live table may see: [`view`]. Hole cards reach a
//! viewer only when they are theirs or were shown at showdown; board cards
//! only once dealt; the seed only once the hand is over; what the seat to
//! act may do only to that seat.

use std::collections::BTreeMap;

use fairseed_play::{Millis, Viewer};
use serde::Serialize;

use super::arrival::Arrival;
use super::hand_round::{HandRound, Phase};
use super::last_hand::LastResult;
use super::policy::{PRIVATE_WORDS, PUBLIC_WORDS};
use super::round::open_round;
use super::table::LiveTable;
use crate::card::Card;
use crate::rules::{Logged, Player, Street, TableConfig};

/// Who sits in a seat, as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatPlayer {
    /// A person.
    Human {
        /// How the table names them.
        name: String,
    },
    /// An AI and its level.
    Ai {
        /// 1 to 3.
        level: u8,
    },
}

/// One occupied seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The seat.
    pub seat: usize,
    /// Who sits there.
    pub player: SeatPlayer,
    /// `AI · level N` for an AI, always; `the house's` for a player the
    /// operator created, always; `None` for any other person.
    pub badge: Option<String>,
    /// How the person came to the table (`opener`, `invited`, `public`,
    /// `house`), shown to every viewer; `None` for an AI, and for a person
    /// seated before tables kept it.
    pub came: Option<Arrival>,
    /// Chips behind (not yet put in the pot).
    pub stack: u64,
    /// Not dealt in from the next hand.
    pub sitting_out: bool,
    /// Dealt into the hand being played.
    pub in_hand: bool,
    /// Folded in the hand being played.
    pub folded: bool,
    /// Chips in front of it on this street.
    pub street_bet: u64,
    /// Chips it put in this hand.
    pub total: u64,
    /// Its cards: the viewer's own, or shown at the last showdown.
    pub hole: Option<[Card; 2]>,
}

/// What the seat to act may do (sent to that seat only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LegalView {
    /// Chips a call costs (0: checking is free).
    pub to_call: u64,
    /// The smallest and largest raise-to totals, if raising is open.
    pub raise: Option<(u64, u64)>,
}

/// The hand being played, publicly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// Its number at the table.
    pub number: u64,
    /// `sha256("selfpoker:" + seed)`.
    pub commit: String,
    /// `selfpoker`, `selfpoker_v2` or `selfpoker_v3`.
    pub scheme: &'static str,
    /// The betting round.
    pub street: Street,
    /// The board dealt so far.
    pub board: Vec<Card>,
    /// Chips in the middle, this street's bets included.
    pub pot: u64,
    /// The seat to act.
    pub to_act: Option<usize>,
    /// When its clock runs out, Unix ms.
    pub deadline_ms: Option<i64>,
    /// What the viewer may do, when the viewer is to act.
    pub legal: Option<LegalView>,
    /// Every action of the hand so far (public; what the coach reads).
    pub actions: Vec<Logged>,
}

/// The seed session, publicly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionView {
    /// `selfpoker`, `selfpoker_v2` or `selfpoker_v3`.
    pub scheme: &'static str,
    /// `sha256` of the session secret (v2).
    pub commit: Option<String>,
    /// The secret, hex, once the session ended.
    pub secret: Option<String>,
    /// The public half of the table's evidence key, 64 hex (docs/spec.md
    /// §20.7): what the seat's signed items are checked with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_key: Option<String>,
}

/// A live table as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// The table.
    pub table_id: String,
    /// Its settings.
    pub config: TableConfig,
    /// The viewer's seat.
    pub you: Option<usize>,
    /// Every seat, `None` when empty.
    pub seats: Vec<Option<SeatView>>,
    /// The last hand's button.
    pub button: Option<usize>,
    /// Hands dealt so far.
    pub hands_played: u64,
    /// The hand being played.
    pub hand: Option<HandView>,
    /// The last hand's result, between hands.
    pub last_hand: Option<LastResult>,
    /// The seed session.
    pub session: SessionView,
    /// The table closed (its last human left).
    pub closed: bool,
    /// Anyone, the house included, may sit here (docs/spec.md §19.4);
    /// `false`: only the opener and the players they invite.
    pub public: bool,
    /// The same in words, for every viewer: "a public table: anyone, the
    /// house included, may sit here", or that only the opener and the
    /// players they invite may.
    pub seating: &'static str,
    /// The table's invitation, to its opener only (the page makes the link
    /// to share from it); absent for everyone else and at a public table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invitation: Option<String>,
    /// `selfpoker_v3`: the round of the next hand while it is open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<RoundView>,
}

/// An open round as everyone sees it: who is in it, who committed (and to
/// what) and who revealed; no value before its hand ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundView {
    /// The hand.
    pub hand: u64,
    /// `commit` or `reveal`.
    pub phase: Phase,
    /// The round's seats.
    pub seats: Vec<usize>,
    /// Seat → commit, as accepted.
    pub commits: BTreeMap<usize, String>,
    /// The seats that revealed.
    pub revealed: Vec<usize>,
    /// When the phase ends, ms since the epoch.
    pub deadline_ms: i64,
}

impl RoundView {
    fn of(round: &HandRound) -> RoundView {
        RoundView {
            hand: round.hand,
            phase: round.phase,
            seats: round.seats.clone(),
            commits: round.commits.clone(),
            revealed: round.values.keys().copied().collect(),
            deadline_ms: round.deadline.0,
        }
    }
}

/// The badge of a seat the house's player sits at.
pub const HOUSE_BADGE: &str = "the house's";

fn shown_player(player: Player) -> (SeatPlayer, Option<String>) {
    match player {
        Player::Human { id } => (
            SeatPlayer::Human {
                name: format!("player {id}"),
            },
            None,
        ),
        Player::Ai { level } => (
            SeatPlayer::Ai { level },
            Some(format!("AI · level {level}")),
        ),
    }
}

/// The cards of `seat` (held by `player`) that `viewer` may see.
fn visible_hole(live: &LiveTable, seat: usize, player: Player, own: bool) -> Option<[Card; 2]> {
    if let Some(hand) = &live.table.hand {
        return hand
            .players
            .iter()
            .find(|p| p.seat == seat && own)
            .map(|p| p.hole);
    }
    let last = live.last.as_ref()?;
    let shown = last
        .result
        .shown
        .iter()
        .find(|(s, _)| *s == seat)
        .map(|(_, c)| *c);
    let mine = last
        .holes
        .iter()
        .find(|h| own && h.seat == seat && h.player == player)
        .map(|h| h.hole);
    shown.or(mine)
}

/// `live` as `viewer` may see it.
pub fn view(live: &LiveTable, viewer: Viewer) -> TableView {
    let you = match viewer {
        Viewer::Player(id) => live.seat_of(id),
        Viewer::Operator | Viewer::Public => None,
    };
    let hand = live.table.hand.as_ref();
    let seats = live
        .table
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| {
            let s = s.as_ref()?;
            let came = live.arrival(seat);
            let (player, mut badge) = shown_player(s.player);
            if came == Some(Arrival::House) {
                badge = Some(HOUSE_BADGE.to_owned());
            }
            let dealt = hand.and_then(|h| h.players.iter().find(|p| p.seat == seat));
            Some(SeatView {
                seat,
                player,
                badge,
                came,
                stack: dealt.map_or(s.stack, |p| p.stack),
                sitting_out: s.sitting_out,
                in_hand: dealt.is_some(),
                folded: dealt.is_some_and(|p| p.folded),
                street_bet: dealt.map_or(0, |p| p.street_bet),
                total: dealt.map_or(0, |p| p.total),
                hole: visible_hole(live, seat, s.player, you == Some(seat)),
            })
        })
        .collect();
    let scheme = live.session.scheme.as_str();
    TableView {
        table_id: live.table_id.clone(),
        config: live.table.config,
        you,
        seats,
        button: live.table.button,
        hands_played: live.table.hands_played,
        hand: hand.map(|h| {
            let to_act = h.seat_to_act();
            let legal = h.legal();
            HandView {
                number: h.number,
                commit: h.commit.clone(),
                scheme,
                street: h.street,
                board: h.board_dealt().to_vec(),
                pot: h.pot(),
                to_act: Some(to_act),
                deadline_ms: Some(h.deadline.0),
                legal: (you == Some(to_act)).then_some(LegalView {
                    to_call: legal.to_call,
                    raise: legal.raise,
                }),
                actions: h.log.clone(),
            }
        }),
        last_hand: live.last.as_ref().map(|l| l.result.clone()),
        session: SessionView {
            scheme,
            commit: live.session.commit.clone(),
            secret: live.session.revealed.clone(),
            evidence_key: live.evidence_key.clone(),
        },
        closed: live.closed,
        public: live.is_public(),
        seating: if live.is_public() {
            PUBLIC_WORDS
        } else {
            PRIVATE_WORDS
        },
        invitation: live
            .invitation
            .clone()
            .filter(|_| !live.is_public())
            .filter(|_| matches!(viewer, Viewer::Player(id) if live.opener == Some(id))),
        round: open_round(live).map(RoundView::of),
    }
}

/// The moment the seat to act got its turn.
pub(crate) fn turn_started(live: &LiveTable) -> Option<Millis> {
    let hand = live.table.hand.as_ref()?;
    Some(Millis(hand.deadline.0.saturating_sub(hand.action_ms)))
}
