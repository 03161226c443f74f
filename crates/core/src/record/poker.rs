//! The `poker_hmac_v1` session record and the `poker_hmac_v1_proof` record.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::common::{finish, object, only_keys, read_outcome};
use super::fields::{join, kind, Fields};
use crate::error::Error;
use crate::merkle::DEPTH;
use crate::poker::{LeafProof, CARDS, MAX_SEAT};
use crate::seed::{is_lower_hex, ClientSeed, Commitment, Ident, ServerSeed};

/// The most hands one session record may hold (sessions rotate after 500).
pub const MAX_HANDS: usize = 10_000;

/// One hand of a session as published before its deal.
#[derive(Debug, Clone, PartialEq)]
pub struct PokerHand {
    /// The hand's number within the session, from 1.
    pub n: u64,
    /// Client seeds by seat.
    pub seats: BTreeMap<u8, ClientSeed>,
    /// `sha256(hand_value)`.
    pub hand_commitment: Commitment,
    /// The deck's Merkle root.
    pub deck_root: Commitment,
}

/// A seed session of a poker table: the seed and every hand.
#[derive(Debug, Clone, PartialEq)]
pub struct PokerRecord {
    /// The table.
    pub table: Ident,
    /// The seed session.
    pub session: Ident,
    /// `sha256(server_seed)`.
    pub commitment: Commitment,
    /// The session's seed, once rotated.
    pub server_seed: Option<ServerSeed>,
    /// The hands in the order played.
    pub hands: Vec<PokerHand>,
    /// What the server says happened.
    pub outcome: Option<Map<String, Value>>,
}

impl PokerRecord {
    pub(super) fn read(f: &Fields<'_>) -> Result<Self, Error> {
        only_keys(
            f,
            &["table", "session", "commitment", "server_seed", "hands"],
        )?;
        let arr = f.array("hands")?;
        if arr.len() > MAX_HANDS {
            return Err(Error::invalid(
                "hands",
                format!("{} hands, expected at most {MAX_HANDS}", arr.len()),
            ));
        }
        let hands = arr
            .iter()
            .enumerate()
            .map(|(i, h)| read_hand(h, &format!("hands[{i}]")))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            table: Ident::parse_field(f.str("table")?, "table")?,
            session: Ident::parse_field(f.str("session")?, "session")?,
            commitment: Commitment::parse_field(f.str("commitment")?, "commitment")?,
            server_seed: f
                .opt_str("server_seed")?
                .map(|s| ServerSeed::parse_field(s, "server_seed"))
                .transpose()?,
            hands,
            outcome: read_outcome(f)?,
        })
    }

    /// The record as docs/spec.md §10.4 JSON.
    pub fn to_value(&self) -> Value {
        let mut m = object("poker_hmac_v1");
        m.insert("table".into(), self.table.as_str().into());
        m.insert("session".into(), self.session.as_str().into());
        m.insert("commitment".into(), self.commitment.to_hex().into());
        if let Some(seed) = &self.server_seed {
            m.insert("server_seed".into(), seed.reveal().into());
        }
        let hands = self.hands.iter().map(|h| {
            let mut o = Map::new();
            o.insert("n".into(), h.n.into());
            let seats = h
                .seats
                .iter()
                .map(|(seat, seed)| (seat.to_string(), Value::from(seed.as_str())));
            o.insert("seats".into(), Value::Object(seats.collect()));
            o.insert("hand_commitment".into(), h.hand_commitment.to_hex().into());
            o.insert("deck_root".into(), h.deck_root.to_hex().into());
            Value::Object(o)
        });
        m.insert("hands".into(), Value::Array(hands.collect()));
        finish(m, &self.outcome)
    }
}

fn read_hand(v: &Value, path: &str) -> Result<PokerHand, Error> {
    let h = Fields::of(v, path)?;
    h.only(&["n", "seats", "hand_commitment", "deck_root"])?;
    let n = h.uint("n", u64::MAX)?;
    if n == 0 {
        return Err(Error::invalid(
            h.name("n"),
            "hand 0 does not exist, hands are numbered from 1",
        ));
    }
    let seats_path = h.name("seats");
    let seats_obj = Fields::of(h.get("seats")?, &seats_path)?;
    let mut seats = BTreeMap::new();
    for (key, seed) in seats_obj.map() {
        let field = join(&seats_path, key);
        let seat = parse_seat(key).ok_or_else(|| {
            Error::invalid(&field, "not a seat, expected a decimal seat number 0 to 9")
        })?;
        let text = seed.as_str().ok_or_else(|| {
            Error::invalid(&field, format!("expected a string, got {}", kind(seed)))
        })?;
        seats.insert(seat, ClientSeed::parse_field(text, &field)?);
    }
    crate::poker::check_seats(&seats).map_err(|e| e.within(path))?;
    Ok(PokerHand {
        n,
        seats,
        hand_commitment: Commitment::parse_field(
            h.str("hand_commitment")?,
            &h.name("hand_commitment"),
        )?,
        deck_root: Commitment::parse_field(h.str("deck_root")?, &h.name("deck_root"))?,
    })
}

/// `"0"` to `"9"`: one decimal digit, the only canonical form of a seat.
fn parse_seat(key: &str) -> Option<u8> {
    match key.as_bytes() {
        [d @ b'0'..=b'9'] if d - b'0' <= MAX_SEAT => Some(d - b'0'),
        _ => None,
    }
}

/// The cards a player who left can check against a published deck root.
#[derive(Debug, Clone, PartialEq)]
pub struct PokerProofRecord {
    /// The root published before the hand's first card.
    pub deck_root: Commitment,
    /// One proof per card.
    pub leaves: Vec<LeafProof>,
    /// What the server says happened.
    pub outcome: Option<Map<String, Value>>,
}

impl PokerProofRecord {
    pub(super) fn read(f: &Fields<'_>) -> Result<Self, Error> {
        only_keys(f, &["deck_root", "leaves"])?;
        let arr = f.array("leaves")?;
        if arr.len() > CARDS {
            return Err(Error::invalid(
                "leaves",
                format!("{} leaves, expected at most {CARDS}", arr.len()),
            ));
        }
        let leaves = arr
            .iter()
            .enumerate()
            .map(|(k, v)| read_leaf(v, &format!("leaves[{k}]")))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            deck_root: Commitment::parse_field(f.str("deck_root")?, "deck_root")?,
            leaves,
            outcome: read_outcome(f)?,
        })
    }

    /// The record as docs/spec.md §10.6 JSON.
    pub fn to_value(&self) -> Value {
        let mut m = object("poker_hmac_v1_proof");
        m.insert("deck_root".into(), self.deck_root.to_hex().into());
        let leaves = self.leaves.iter().map(|l| {
            let mut o = Map::new();
            o.insert("i".into(), l.i.into());
            o.insert("card".into(), l.card.into());
            o.insert("salt".into(), l.salt.clone().into());
            o.insert("path".into(), l.path.to_vec().into());
            Value::Object(o)
        });
        m.insert("leaves".into(), Value::Array(leaves.collect()));
        finish(m, &self.outcome)
    }
}

fn read_leaf(v: &Value, path: &str) -> Result<LeafProof, Error> {
    let l = Fields::of(v, path)?;
    l.only(&["i", "card", "salt", "path"])?;
    // Both are at most 51 after these checks.
    let i = l.uint("i", CARDS as u64 - 1)? as usize;
    let card = l.uint("card", CARDS as u64 - 1)? as u8;
    let salt = l.str("salt")?;
    if !is_lower_hex(salt, 64) {
        return Err(Error::invalid(
            l.name("salt"),
            "expected 64 lowercase hex characters",
        ));
    }
    let siblings = l.array("path")?;
    if siblings.len() != DEPTH {
        return Err(Error::invalid(
            l.name("path"),
            format!(
                "merkle path has {} siblings, expected {DEPTH}",
                siblings.len()
            ),
        ));
    }
    let mut hashes: [String; DEPTH] = Default::default();
    for (k, (dst, src)) in hashes.iter_mut().zip(siblings).enumerate() {
        let field = format!("{}[{k}]", l.name("path"));
        let text = src.as_str().ok_or_else(|| {
            Error::invalid(&field, format!("expected a string, got {}", kind(src)))
        })?;
        if !is_lower_hex(text, 64) {
            return Err(Error::invalid(
                &field,
                "expected 64 lowercase hex characters",
            ));
        }
        text.clone_into(dst);
    }
    Ok(LeafProof {
        i,
        card,
        salt: salt.to_owned(),
        path: hashes,
    })
}
