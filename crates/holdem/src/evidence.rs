//! The player's clock as evidence (docs/spec.md §20.7): what a live table
//! tells a seat about its turn, and its acceptance of the seat's commit and
//! reveal, signed with the session's evidence key, so a seat can show a
//! third party what it was told against what its hand record says.
//!
//! Every signed item is a **notice**: a turn notice (`table`, `hand`,
//! `seat`, `actions` — the action log's length when the turn began —,
//! `deadline_ms`, `server_ms`) or an acknowledgement (`table`, `hand`,
//! `seat`, `kind` — `commit` or `reveal` —, `value_hash` — the commit
//! accepted, or the `sha256` of the value revealed, which is that commit —,
//! `server_ms`). Its message is domain-separated text
//! ([`Notice::message`]), signed with Ed25519 (RFC 8032). [`check_evidence`]
//! holds a file of them (an [`Evidence`]) against one hand record.
//!
//! Pure: no clock, no randomness. Signing is deterministic (the key is
//! the shell's, drawn once per session).

use std::fmt;

use ed25519_dalek::{Signature, Signer};
pub use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::live::LiveTable;
use crate::record::HandRecord;

/// The `scheme` of an evidence file.
pub const SCHEME: &str = "holdem_evidence_v1";

/// What every signed message starts with: no message of another kind, or of
/// another version of this one, is one of these.
pub const DOMAIN: &str = "fairseed_evidence_v1";

/// How far the clocks of a table's processes may differ, in ms: a timeout
/// is held to a signed deadline less this much (docs/spec.md §20.7).
pub const SKEW_MS: u64 = 1_000;

/// The largest number an item holds, 2^53 − 1: the page reads JSON numbers
/// as doubles, exact up to here.
pub const MAX_NUMBER: u64 = (1 << 53) - 1;

/// What the table told a seat about its turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnNotice {
    /// The table.
    pub table: String,
    /// The hand's number.
    pub hand: u64,
    /// The seat to act.
    pub seat: usize,
    /// How many actions the hand's log held when the turn began: the turn
    /// is the record's action of this index.
    pub actions: u64,
    /// When the seat's clock runs out, Unix ms, as the table counts it.
    pub deadline_ms: u64,
    /// When the table said so, Unix ms.
    pub server_ms: u64,
}

/// Which of a seat's round messages the table accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AckKind {
    /// The commit to a per-hand value (docs/spec.md §20.2).
    Commit,
    /// The value itself.
    Reveal,
}

impl AckKind {
    /// The word in the message and the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            AckKind::Commit => "commit",
            AckKind::Reveal => "reveal",
        }
    }
}

/// The table's acceptance of a seat's commit or reveal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ack {
    /// The table.
    pub table: String,
    /// The hand's number.
    pub hand: u64,
    /// The seat.
    pub seat: usize,
    /// What was accepted.
    pub kind: AckKind,
    /// The commit accepted, or `sha256` of the value revealed (the same
    /// commit), 64 lowercase hex.
    pub value_hash: String,
    /// When the table accepted it, Unix ms.
    pub server_ms: u64,
}

/// A turn notice or an acknowledgement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Notice {
    /// What the seat was told about its turn.
    Turn(TurnNotice),
    /// What the table accepted from the seat.
    Ack(Ack),
}

impl Notice {
    /// The table it is about.
    pub fn table(&self) -> &str {
        match self {
            Notice::Turn(t) => &t.table,
            Notice::Ack(a) => &a.table,
        }
    }

    /// The hand it is about.
    pub fn hand(&self) -> u64 {
        match self {
            Notice::Turn(t) => t.hand,
            Notice::Ack(a) => a.hand,
        }
    }

    /// The exact text its signature covers (docs/spec.md §20.7): the
    /// domain, the type, the table prefixed by its length in UTF-8 bytes,
    /// then each field in decimal (or its word, or its hex), `:` between.
    pub fn message(&self) -> String {
        let table = |t: &str| format!("{}:{t}", t.len());
        match self {
            Notice::Turn(t) => format!(
                "{DOMAIN}:turn:{}:{}:{}:{}:{}:{}",
                table(&t.table),
                t.hand,
                t.seat,
                t.actions,
                t.deadline_ms,
                t.server_ms
            ),
            Notice::Ack(a) => format!(
                "{DOMAIN}:ack:{}:{}:{}:{}:{}:{}",
                table(&a.table),
                a.hand,
                a.seat,
                a.kind.as_str(),
                a.value_hash,
                a.server_ms
            ),
        }
    }

    /// The notice signed with `key`.
    pub fn sign(self, key: &SigningKey) -> Signed {
        let sig = hex::encode(key.sign(self.message().as_bytes()).to_bytes());
        Signed { notice: self, sig }
    }
}

/// What `live` tells `seat` about its turn at `server_ms`: the turn notice
/// the table signs for that seat's own socket (docs/spec.md §20.7), `None`
/// when no hand is in play or another seat is to act.
pub fn turn_notice(live: &LiveTable, seat: usize, server_ms: u64) -> Option<TurnNotice> {
    let hand = live.table.hand.as_ref()?;
    if hand.seat_to_act() != seat {
        return None;
    }
    Some(TurnNotice {
        table: live.table_id.clone(),
        hand: hand.number,
        seat,
        actions: u64::try_from(hand.log.len()).ok()?,
        deadline_ms: u64::try_from(hand.deadline.0).ok()?,
        server_ms,
    })
}

/// The table's acceptance, at `server_ms`, of `seat`'s `hand_commit` or
/// `hand_reveal` (`kind`) for hand `hand`, as `live` stands once it took
/// it: its `value_hash` is the commit the round holds for the seat, which
/// a value accepted hashes to (docs/spec.md §20.2). `None` when the round
/// of `hand` holds no commit of the seat (or, for a reveal, no value).
pub fn ack(live: &LiveTable, hand: u64, seat: usize, kind: AckKind, server_ms: u64) -> Option<Ack> {
    let round = live.round.as_ref().filter(|r| r.hand == hand)?;
    let commit = round.commits.get(&seat)?;
    if kind == AckKind::Reveal && !round.values.contains_key(&seat) {
        return None;
    }
    Some(Ack {
        table: live.table_id.clone(),
        hand,
        seat,
        kind,
        value_hash: commit.clone(),
        server_ms,
    })
}

/// A notice and the table's signature of its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Signed {
    /// What was said.
    #[serde(flatten)]
    pub notice: Notice,
    /// Ed25519 signature of [`Notice::message`], 128 lowercase hex.
    pub sig: String,
}

impl Signed {
    /// Whether `sig` is `key`'s signature of the notice's message.
    pub fn verifies(&self, key: &VerifyingKey) -> bool {
        let Some(bytes) = hex_bytes::<64>(&self.sig) else {
            return false;
        };
        key.verify_strict(
            self.notice.message().as_bytes(),
            &Signature::from_bytes(&bytes),
        )
        .is_ok()
    }

    /// The notice of the JSON object `value` (`path` names it in errors):
    /// `type`, its fields and `sig`, each checked.
    ///
    /// # Errors
    /// A field missing or malformed, named.
    pub fn from_value(value: &Value, path: &str) -> Result<Signed, EvidenceError> {
        let object = value
            .as_object()
            .ok_or_else(|| EvidenceError::new(path, "expected an object"))?;
        let f = Fields { object, path };
        let (table, hand, seat) = (f.text("table")?, f.number("hand")?, f.seat()?);
        let notice = match f.text("type")?.as_str() {
            "turn" => Notice::Turn(TurnNotice {
                table,
                hand,
                seat,
                actions: f.number("actions")?,
                deadline_ms: f.number("deadline_ms")?,
                server_ms: f.number("server_ms")?,
            }),
            "ack" => Notice::Ack(Ack {
                table,
                hand,
                seat,
                kind: match f.text("kind")?.as_str() {
                    "commit" => AckKind::Commit,
                    "reveal" => AckKind::Reveal,
                    other => {
                        return Err(f.bad("kind", &format!("{other:?}, expected commit or reveal")))
                    }
                },
                value_hash: f.hex("value_hash", 32)?,
                server_ms: f.number("server_ms")?,
            }),
            other => return Err(f.bad("type", &format!("{other:?}, expected turn or ack"))),
        };
        Ok(Signed {
            notice,
            sig: f.hex("sig", 64)?,
        })
    }
}

/// The fields of one JSON object, read with the field named on an error.
struct Fields<'a> {
    object: &'a Map<String, Value>,
    path: &'a str,
}

impl Fields<'_> {
    fn bad(&self, field: &str, message: &str) -> EvidenceError {
        EvidenceError::new(&format!("{}.{field}", self.path), message)
    }

    fn get(&self, field: &str) -> Result<&Value, EvidenceError> {
        self.object
            .get(field)
            .ok_or_else(|| self.bad(field, "missing"))
    }

    fn text(&self, field: &str) -> Result<String, EvidenceError> {
        self.get(field)?
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.bad(field, "expected a string"))
    }

    fn number(&self, field: &str) -> Result<u64, EvidenceError> {
        self.get(field)?
            .as_u64()
            .filter(|&n| n <= MAX_NUMBER)
            .ok_or_else(|| self.bad(field, "expected a whole number from 0 to 2^53 − 1"))
    }

    fn seat(&self) -> Result<usize, EvidenceError> {
        usize::try_from(self.number("seat")?)
            .ok()
            .filter(|&s| s < 64)
            .ok_or_else(|| self.bad("seat", "not a seat"))
    }

    fn hex(&self, field: &str, bytes: usize) -> Result<String, EvidenceError> {
        let text = self.text(field)?;
        let ok = text.len() == 2 * bytes
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if ok {
            Ok(text)
        } else {
            Err(self.bad(
                field,
                &format!("expected {} lowercase hex characters", 2 * bytes),
            ))
        }
    }
}

/// `text` as `N` bytes, if it is `2N` hex characters.
fn hex_bytes<const N: usize>(text: &str) -> Option<[u8; N]> {
    let bytes = hex::decode(text).ok()?;
    bytes.try_into().ok()
}

/// A table's evidence key from its 64 hex characters.
///
/// # Errors
/// Not 64 hex characters, or not a point of the curve; the error names `field`.
pub fn parse_key(text: &str, field: &str) -> Result<VerifyingKey, EvidenceError> {
    let bytes = hex_bytes::<32>(text)
        .ok_or_else(|| EvidenceError::new(field, "expected 64 hex characters"))?;
    VerifyingKey::from_bytes(&bytes)
        .map_err(|_| EvidenceError::new(field, "not an Ed25519 public key"))
}

/// The public half of `key`, 64 lowercase hex: what the session's log
/// entries and hand records name.
pub fn public_hex(key: &SigningKey) -> String {
    hex::encode(key.verifying_key().to_bytes())
}

/// A seat's evidence, as the page keeps it and offers it as a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Always [`SCHEME`].
    pub scheme: &'static str,
    /// The key the items say they are signed with, 64 hex.
    pub key: String,
    /// What the table signed, in the order kept.
    pub items: Vec<Signed>,
}

impl Evidence {
    /// The evidence in `text` (JSON).
    ///
    /// # Errors
    /// Not JSON, or a field missing or malformed, named (`items[2].sig: …`).
    pub fn parse(text: &str) -> Result<Evidence, EvidenceError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| EvidenceError::new("evidence", &format!("not JSON: {e}")))?;
        Evidence::from_value(&value)
    }

    /// The evidence of a parsed JSON value.
    ///
    /// # Errors
    /// As [`Evidence::parse`].
    pub fn from_value(value: &Value) -> Result<Evidence, EvidenceError> {
        let object = value
            .as_object()
            .ok_or_else(|| EvidenceError::new("evidence", "expected an object"))?;
        let scheme = object.get("scheme").and_then(Value::as_str);
        if scheme != Some(SCHEME) {
            return Err(EvidenceError::new(
                "scheme",
                &format!("expected {SCHEME:?}, found {}", shown(object.get("scheme"))),
            ));
        }
        let key = object
            .get("key")
            .and_then(Value::as_str)
            .ok_or_else(|| EvidenceError::new("key", "expected 64 hex characters"))?;
        parse_key(key, "key")?;
        let items = object
            .get("items")
            .and_then(Value::as_array)
            .ok_or_else(|| EvidenceError::new("items", "expected an array"))?
            .iter()
            .enumerate()
            .map(|(i, v)| Signed::from_value(v, &format!("items[{i}]")))
            .collect::<Result<_, _>>()?;
        Ok(Evidence {
            scheme: SCHEME,
            key: key.to_owned(),
            items,
        })
    }
}

/// A JSON value as words in an error (its JSON, or "nothing").
fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "nothing".to_owned(), Value::to_string)
}

/// Why evidence cannot be held to a record: the field at fault and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceError {
    /// The field, as a path (`items[2].sig`, `key`, `record.deal.table_id`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl EvidenceError {
    fn new(field: &str, message: &str) -> EvidenceError {
        EvidenceError {
            field: field.to_owned(),
            message: message.to_owned(),
        }
    }
}

impl fmt::Display for EvidenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for EvidenceError {}

/// Something the evidence shows the record (or the table) got wrong. As
/// JSON, its facts for the page to say in the player's language: `kind`
/// (`early_timeout`, `withheld_acknowledged` or `not_its_turn`) and its
/// fields by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Alarm {
    /// The record times `seat` out at `at`, before the deadline the table
    /// signed for that turn less [`SKEW_MS`].
    EarlyTimeout {
        /// The seat.
        seat: usize,
        /// The action's index in the record.
        action: usize,
        /// When the record says its clock ran out.
        at: i64,
        /// The latest deadline the table signed for that turn.
        deadline_ms: u64,
        /// When it signed it.
        server_ms: u64,
    },
    /// The record names `seat` withheld although the table signed that it
    /// accepted the seat's reveal of the value the record's commit binds.
    WithheldAcknowledged {
        /// The seat.
        seat: usize,
        /// The commit, as the record and the acknowledgement name it.
        value_hash: String,
        /// When the table accepted the reveal.
        server_ms: u64,
    },
    /// The table told `seat` it was its turn after `actions` actions, and
    /// the record has another seat act then.
    NotItsTurn {
        /// The seat told.
        seat: usize,
        /// The action's index.
        actions: u64,
        /// The seat the record has act.
        acted: usize,
        /// When the table said so.
        server_ms: u64,
    },
}

/// What holding evidence to one hand record found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Findings {
    /// The table.
    pub table: String,
    /// The hand.
    pub hand: u64,
    /// Items about this hand, held to the record (by [`check_evidence`]
    /// each signature checked; by [`check_session`] those an alarm rests on).
    pub checked: usize,
    /// Items about other hands of the table, signatures checked, not held
    /// to this record ([`check_evidence`]; [`check_session`] holds each
    /// record to its own hand's items and says 0).
    pub other_hands: usize,
    /// What the evidence shows wrong, in the order found.
    pub alarms: Vec<Alarm>,
    /// What could not be checked, in words.
    pub notes: Vec<String>,
}

impl Findings {
    /// Each alarm in the player's words.
    pub fn words(&self) -> Vec<String> {
        self.alarms
            .iter()
            .map(|a| alarm_words(self.hand, a))
            .collect()
    }
}

/// `alarm` of hand `hand` in words.
pub fn alarm_words(hand: u64, alarm: &Alarm) -> String {
    match alarm {
        Alarm::EarlyTimeout {
            seat,
            action,
            at,
            deadline_ms,
            server_ms,
        } => {
            let early = i128::from(*deadline_ms) - i128::from(*at);
            format!(
                "hand {hand}: seat {seat} was timed out (action {action}) at {at}, {early} ms before the deadline {deadline_ms} the table signed for that turn at {server_ms}; more than the {SKEW_MS} ms the clocks may differ by"
            )
        }
        Alarm::WithheldAcknowledged {
            seat,
            value_hash,
            server_ms,
        } => format!(
            "hand {hand}: the record names seat {seat} withheld, but the table signed at {server_ms} that it accepted seat {seat}'s reveal of the value committed to as {value_hash}"
        ),
        Alarm::NotItsTurn {
            seat,
            actions,
            acted,
            server_ms,
        } => format!(
            "hand {hand}: the table signed at {server_ms} that seat {seat} was to act after {actions} actions, but the record has seat {acted} act then"
        ),
    }
}

/// [`check_evidence`] on texts, as the page and `fairseed verify` hold them:
/// `record` a hand record's JSON, `evidence` an evidence file's, `key` the
/// table's evidence key in hex.
///
/// # Errors
/// A text that does not parse, or [`check_evidence`]'s; each names the field.
pub fn check_texts(record: &str, evidence: &str, key: &str) -> Result<Findings, EvidenceError> {
    let record: HandRecord = serde_json::from_str(record)
        .map_err(|e| EvidenceError::new("record", &format!("not a hand record: {e}")))?;
    let key = parse_key(key, "key")?;
    check_evidence(&record, &Evidence::parse(evidence)?, &key)
}

/// Holds `evidence`, signed with `key` (the table's evidence key, as the
/// session's log entries and the record name it), to `record`: every item
/// must be signed by `key` and be about the record's table; the items about
/// the record's hand are held to it. An alarm when:
///
/// - the record times a seat out at `at` and the table signed, for that
///   turn (the same seat, and `actions` the timed-out action's index), a
///   deadline later than `at + SKEW_MS`;
/// - the record names a seat withheld and the table signed that it accepted
///   that seat's reveal of the value the record's commit for the seat binds;
/// - the table signed that a seat was to act after `actions` actions and the
///   record has another seat act then.
///
/// # Errors
/// The evidence's key is not `key`, an item's signature does not verify,
/// an item is about another table, or the record names no table; each
/// names the field.
pub fn check_evidence(
    record: &HandRecord,
    evidence: &Evidence,
    key: &VerifyingKey,
) -> Result<Findings, EvidenceError> {
    let table = same_key_and_table(record, evidence, key)?;
    let mut other_hands = 0;
    let mut ours = Vec::new();
    for (i, item) in evidence.items.iter().enumerate() {
        if !item.verifies(key) {
            return Err(not_signed(i));
        }
        if item.notice.hand() == record.hand {
            ours.push((i, &item.notice));
        } else {
            other_hands += 1;
        }
    }
    let held = hold(record, &ours);
    Ok(held.findings(table, record.hand, other_hands))
}

/// Every hand record of one table held to one evidence file signed with
/// `key`, each record to the items of its hand as [`check_evidence`] holds
/// it, in the records' order.
///
/// An item's signature is verified where an alarm rests on it: what
/// accuses the table must be the table's word. An item no alarm rests on
/// shows nothing either way, so its signature is not checked; a session's
/// evidence holds some five items a hand, and verifying 50,000 signatures
/// costs the browser seconds (docs/performance.md).
///
/// # Errors
/// The evidence's key is not `key`; an item is about another table than
/// the records'; a record names no table, or another than the first; an
/// alarm rests on an item whose signature does not verify. Each names the
/// field (`records[3].deal.table_id`, `items[7].sig`).
pub fn check_session(
    records: &[HandRecord],
    evidence: &Evidence,
    key: &VerifyingKey,
) -> Result<Vec<Findings>, EvidenceError> {
    let Some(first) = records.first() else {
        return Ok(Vec::new());
    };
    let table = same_key_and_table(first, evidence, key)?;
    let mut by_hand: std::collections::BTreeMap<u64, Vec<(usize, &Notice)>> =
        std::collections::BTreeMap::new();
    for (i, item) in evidence.items.iter().enumerate() {
        by_hand
            .entry(item.notice.hand())
            .or_default()
            .push((i, &item.notice));
    }
    let mut out = Vec::with_capacity(records.len());
    for (r, record) in records.iter().enumerate() {
        let named = record.deal.as_ref().map(|d| d.table_id.as_str());
        if named != Some(table.as_str()) {
            return Err(EvidenceError::new(
                &format!("records[{r}].deal.table_id"),
                &format!("a hand of table {named:?}; the first record is of table {table:?}"),
            ));
        }
        let ours = by_hand.get(&record.hand).map_or(&[][..], Vec::as_slice);
        let held = hold(record, ours);
        for &i in &held.rests_on {
            if !evidence.items[i].verifies(key) {
                return Err(not_signed(i));
            }
        }
        out.push(held.findings(table.clone(), record.hand, 0));
    }
    Ok(out)
}

/// The record's table, once the evidence names `key` and every item is
/// about that table.
fn same_key_and_table(
    record: &HandRecord,
    evidence: &Evidence,
    key: &VerifyingKey,
) -> Result<String, EvidenceError> {
    let want = hex::encode(key.to_bytes());
    if evidence.key != want {
        return Err(EvidenceError::new(
            "key",
            &format!(
                "the evidence names key {}, not the table's evidence key {want}",
                evidence.key
            ),
        ));
    }
    let table = record
        .deal
        .as_ref()
        .map(|d| d.table_id.clone())
        .ok_or_else(|| {
            EvidenceError::new(
                "record.deal.table_id",
                "the record names no table (a hand of a live table does)",
            )
        })?;
    if let Some((i, item)) = evidence
        .items
        .iter()
        .enumerate()
        .find(|(_, item)| item.notice.table() != table)
    {
        return Err(EvidenceError::new(
            &format!("items[{i}].table"),
            &format!(
                "evidence of table {:?}; the record is of table {table:?}",
                item.notice.table()
            ),
        ));
    }
    Ok(table)
}

fn not_signed(i: usize) -> EvidenceError {
    EvidenceError::new(
        &format!("items[{i}].sig"),
        "not the table's evidence key's signature of this item",
    )
}

/// What one hand's items show against its record: the alarms, the items
/// (by index in the file) each rests on, and the notes.
struct Held {
    held: usize,
    alarms: Vec<Alarm>,
    rests_on: Vec<usize>,
    notes: Vec<String>,
}

impl Held {
    fn findings(self, table: String, hand: u64, other_hands: usize) -> Findings {
        Findings {
            table,
            hand,
            checked: self.held,
            other_hands,
            alarms: self.alarms,
            notes: self.notes,
        }
    }

    fn alarm(&mut self, alarm: Alarm, item: usize) {
        self.alarms.push(alarm);
        self.rests_on.push(item);
    }
}

/// Holds the items of the record's hand (`ours`, each with its index in
/// the file) to the record: its turns, then its withheld seats.
fn hold(record: &HandRecord, ours: &[(usize, &Notice)]) -> Held {
    let mut held = Held {
        held: ours.len(),
        alarms: Vec::new(),
        rests_on: Vec::new(),
        notes: Vec::new(),
    };
    let turns = ours.iter().filter_map(|&(i, n)| as_turn(n).map(|t| (i, t)));
    hold_turns(record, turns, &mut held);
    let withheld = record.deal.as_ref().map_or(&[][..], |d| &d.withheld[..]);
    for &seat in withheld {
        let commit = record.deal.as_ref().and_then(|d| d.hand_commits.get(&seat));
        let acked = ours
            .iter()
            .filter_map(|&(i, n)| as_ack(n).map(|a| (i, a)))
            .find(|(_, a)| {
                a.seat == seat && a.kind == AckKind::Reveal && Some(&a.value_hash) == commit
            });
        if let Some((i, ack)) = acked {
            held.alarm(
                Alarm::WithheldAcknowledged {
                    seat,
                    value_hash: ack.value_hash.clone(),
                    server_ms: ack.server_ms,
                },
                i,
            );
        }
    }
    held
}

fn as_turn(notice: &Notice) -> Option<&TurnNotice> {
    match notice {
        Notice::Turn(t) => Some(t),
        Notice::Ack(_) => None,
    }
}

fn as_ack(notice: &Notice) -> Option<&Ack> {
    match notice {
        Notice::Ack(a) => Some(a),
        Notice::Turn(_) => None,
    }
}

/// Holds the turn notices of the record's hand to its actions.
fn hold_turns<'a>(
    record: &HandRecord,
    turns: impl Iterator<Item = (usize, &'a TurnNotice)>,
    held: &mut Held,
) {
    // The latest deadline signed for each turn: a restart gives a turn its
    // full clock again (§19.1), so only the latest binds the table.
    let mut latest: Vec<(usize, &TurnNotice)> = Vec::new();
    for (i, turn) in turns {
        match latest
            .iter_mut()
            .find(|(_, t)| (t.seat, t.actions) == (turn.seat, turn.actions))
        {
            Some((_, kept)) if kept.deadline_ms >= turn.deadline_ms => {}
            Some(kept) => *kept = (i, turn),
            None => latest.push((i, turn)),
        }
    }
    for (item, turn) in latest {
        let Some(action) = usize::try_from(turn.actions)
            .ok()
            .and_then(|i| record.actions.get(i).map(|a| (i, a)))
        else {
            held.notes.push(format!(
                "the turn of seat {} after {} actions is not in the record, which has {} actions",
                turn.seat,
                turn.actions,
                record.actions.len()
            ));
            continue;
        };
        let (index, logged) = action;
        if logged.seat != turn.seat {
            held.alarm(
                Alarm::NotItsTurn {
                    seat: turn.seat,
                    actions: turn.actions,
                    acted: logged.seat,
                    server_ms: turn.server_ms,
                },
                item,
            );
            continue;
        }
        if !logged.timed_out {
            continue;
        }
        let Some(at) = logged.at else {
            held.notes.push(format!(
                "the record times seat {} out (action {index}) without saying when",
                turn.seat
            ));
            continue;
        };
        if i128::from(at.0) + i128::from(SKEW_MS) < i128::from(turn.deadline_ms) {
            held.alarm(
                Alarm::EarlyTimeout {
                    seat: turn.seat,
                    action: index,
                    at: at.0,
                    deadline_ms: turn.deadline_ms,
                    server_ms: turn.server_ms,
                },
                item,
            );
        }
    }
}
