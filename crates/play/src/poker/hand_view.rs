//! One hand as a viewer sees it: a player's own holes and, once they left,
//! the proofs of what was dealt; the board as far as it is public.

use std::collections::BTreeMap;

use fairseed_core::poker::{LeafProof, PokerDeck};
use fairseed_core::record::PokerProofRecord;
use fairseed_core::{ClientSeed, Commitment, Ident};
use serde::Serialize;
use serde_json::{json, Value};

use super::error::PokerError;
use super::state::{deal, Hand, Session, State, Street};
use crate::{codec, Viewer};

/// One hand as a viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// The table.
    #[serde(with = "codec::ident")]
    pub table: Ident,
    /// The session.
    #[serde(with = "codec::ident")]
    pub session: Ident,
    /// The hand's number.
    pub n: u64,
    /// Client seeds by seat, as dealt.
    #[serde(with = "codec::client_seeds_by_seat")]
    pub seats: BTreeMap<u8, ClientSeed>,
    /// `sha256(hand_value)`.
    #[serde(with = "codec::commitment")]
    pub hand_commitment: Commitment,
    /// The deck's Merkle root.
    #[serde(with = "codec::commitment")]
    pub deck_root: Commitment,
    /// How far it is dealt.
    pub street: Street,
    /// The board dealt so far.
    pub board: Vec<u8>,
    /// The viewer's seat, if they were dealt in.
    pub seat: Option<u8>,
    /// The viewer's two cards, if they were dealt in.
    pub hole: Option<[u8; 2]>,
    /// For a player who left: proofs of their holes and of the board dealt when they left.
    pub proofs: Vec<LeafProof>,
}

impl HandView {
    /// The `poker_hmac_v1_proof` record of the proofs in this view, if any.
    pub fn proof_record(&self) -> Option<PokerProofRecord> {
        if self.proofs.is_empty() {
            return None;
        }
        let cards: Vec<Value> = self
            .proofs
            .iter()
            .map(|l| json!({"i": l.i, "card": l.card}))
            .collect();
        Some(PokerProofRecord {
            deck_root: self.deck_root,
            leaves: self.proofs.clone(),
            outcome: json!({ "cards": cards }).as_object().cloned(),
        })
    }
}

/// Hand `n` of the current session as `viewer` sees it.
///
/// # Errors
/// No such hand ([`PokerError::NoSuchHand`]).
pub fn view_hand(state: &State, n: u64, viewer: Viewer) -> Result<HandView, PokerError> {
    let hand = state.session.hand(n)?;
    let deck = deal(&state.session, &state.seed.seed, hand)?;
    Ok(hand_view(&state.session, hand, viewer, &deck))
}

/// Where a view reads cards from. The view reads a position only when the
/// viewer may see it, which the property tests check by changing every
/// other position and finding the view unchanged.
pub(super) trait Cards {
    /// The card at deck position `i`.
    fn card(&self, i: usize) -> u8;
    /// The proof of position `i`.
    fn proof(&self, i: usize) -> LeafProof;
}

impl Cards for PokerDeck {
    fn card(&self, i: usize) -> u8 {
        self.deck()[i]
    }
    fn proof(&self, i: usize) -> LeafProof {
        PokerDeck::proof(self, i)
    }
}

pub(super) fn viewer_seat(hand: &Hand, viewer: Viewer) -> Option<u8> {
    match viewer {
        Viewer::Player(p) => hand.seat_of(p),
        Viewer::Operator | Viewer::Public => None,
    }
}

/// Deck positions of `seat`'s holes: the `j`-th seat ascending holds `2j`, `2j+1`.
pub(super) fn hole_positions(hand: &Hand, seat: u8) -> Option<[usize; 2]> {
    let j = hand.seats.keys().position(|s| *s == seat)?;
    Some([2 * j, 2 * j + 1])
}

/// Deck positions of the board public at `street`.
pub(super) fn board_positions(hand: &Hand, street: Street) -> std::ops::Range<usize> {
    let first = 2 * hand.seats.len();
    first..first + street.board_len()
}

pub(super) fn hand_view(
    session: &Session,
    hand: &Hand,
    viewer: Viewer,
    cards: &dyn Cards,
) -> HandView {
    let seat = viewer_seat(hand, viewer);
    let holes = seat.and_then(|s| hole_positions(hand, s));
    let proofs = match (seat, holes) {
        (Some(s), Some(holes)) => hand.left.get(&s).map_or_else(Vec::new, |left_at| {
            holes
                .into_iter()
                .chain(board_positions(hand, *left_at))
                .map(|i| cards.proof(i))
                .collect()
        }),
        _ => Vec::new(),
    };
    HandView {
        table: session.table.clone(),
        session: session.session.clone(),
        n: hand.n,
        seats: hand.seats.clone(),
        hand_commitment: hand.hand_commitment,
        deck_root: hand.deck_root,
        street: hand.street,
        board: board_positions(hand, hand.street)
            .map(|i| cards.card(i))
            .collect(),
        seat,
        hole: holes.map(|[a, b]| [cards.card(a), cards.card(b)]),
        proofs,
    }
}
