//! The messages of a live table's WebSocket (docs/api.md): what a client
//! sends ([`ClientMessage`], read by [`ClientMessage::parse`]) and what the
//! server sends ([`ServerMessage`]). Both are JSON objects tagged by
//! `type`; with the `schema` feature both derive a JSON Schema
//! ([`schema`]), the one `crates/server/src/holdem_ws.schema.json` holds.
//!
//! The workspace's `serde_json` keeps numbers as text
//! (`arbitrary_precision`), which serde's internally tagged enums cannot
//! read a number field through; so a client message is read in two steps,
//! its `type` first, then the variant's own struct (unknown fields refused).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::view::TableView;
use crate::rules::Action;

/// Longest client message id.
pub const MAX_ID: usize = 64;

/// A client message: its optional `id` (1 to 64 characters; the answer
/// `ack` or `error` carries it) and what it asks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClientMessage {
    /// The message's id, echoed by its answer; a repeated id is applied once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 64)))]
    pub id: Option<String>,
    /// What the message asks.
    #[serde(flatten)]
    pub body: ClientBody,
}

/// What a client message asks, by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientBody {
    /// The first message: who is watching, and from which `seq` on.
    Hello(Hello),
    /// Take a seat.
    Sit(Sit),
    /// Act on the player's turn.
    Act(Act),
    /// Stop being dealt in.
    SitOut(Empty),
    /// Be dealt in again.
    SitIn(Empty),
    /// Refill the stack to the starting stack.
    TopUp(Empty),
    /// Leave the table.
    Leave(Empty),
    /// Commit to a per-hand value for a hand's round (docs/spec.md §20.2).
    HandCommit(HandCommit),
    /// Reveal the per-hand value committed to.
    HandReveal(HandReveal),
}

/// `hand_commit`: the hand whose round is open and the commit of a value
/// the browser drew for it alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HandCommit {
    /// The hand's number.
    pub hand: u64,
    /// `sha256` of the value's 64 hex characters, 64 hex characters.
    pub commit: String,
}

/// `hand_reveal`: the value committed to for the hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HandReveal {
    /// The hand's number.
    pub hand: u64,
    /// The value, 64 lowercase hex characters.
    pub value: String,
}

/// `hello`: a player token (none: a spectator) and the last `seq` the
/// client has (none: only the current state).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Hello {
    /// The player's bearer token; absent or null: a spectator.
    #[serde(default)]
    pub token: Option<String>,
    /// Resume after this `seq` (at most a bounded backlog is sent).
    #[serde(default)]
    pub after: Option<u64>,
}

/// `sit`: a seat and the player's client seed (1 to 64 bytes of printable
/// text, the rule of every chosen client seed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Sit {
    /// The seat, from 0.
    pub seat: usize,
    /// The client seed the session's hand seeds derive from.
    pub client_seed: String,
    /// The table's invitation, as its opener shared it (the `invite` of
    /// the link): what anyone but the opener gives to sit at a private
    /// table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation: Option<String>,
}

/// `act`: the action (`{"kind": "fold" | "check" | "call"}` or
/// `{"kind": "raise_to", "to": <chips>}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Act {
    /// The action.
    #[cfg_attr(feature = "schema", schemars(with = "WireAction"))]
    pub action: Action,
}

/// [`Action`] as the wire writes it (the schema's view of it).
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(dead_code)]
enum WireAction {
    /// Give up the hand.
    Fold,
    /// Pass with nothing to call.
    Check,
    /// Match the bet.
    Call,
    /// Bet or raise to this total on the street.
    RaiseTo {
        /// Chips.
        to: u64,
    },
}

/// A message with nothing beyond its `type` (and `id`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Why a client message was refused: the field and the reason, and the
/// message's id when it had a readable one (the error answer carries it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// The message's id.
    pub id: Option<String>,
    /// The field at fault (`message` for the whole message).
    pub field: String,
    /// Why.
    pub reason: String,
}

impl WireError {
    fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            id: None,
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl ClientMessage {
    /// Reads one client message, naming the field at fault.
    ///
    /// # Errors
    /// Not a JSON object; an `id` that is not a string of 1 to 64
    /// characters; an unknown `type`; a field missing, unknown or of the
    /// wrong type.
    pub fn parse(text: &str) -> Result<ClientMessage, WireError> {
        let value: Value =
            serde_json::from_str(text).map_err(|_| WireError::new("message", "not JSON"))?;
        let Value::Object(mut fields) = value else {
            return Err(WireError::new("message", "expected a JSON object"));
        };
        let id = match fields.remove("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(id)) if (1..=MAX_ID).contains(&id.chars().count()) => Some(id),
            Some(_) => {
                return Err(WireError::new(
                    "id",
                    "expected a string of 1 to 64 characters",
                ))
            }
        };
        let with_id = |mut e: WireError| {
            e.id.clone_from(&id);
            e
        };
        let kind = match fields.remove("type") {
            Some(Value::String(kind)) => kind,
            _ => return Err(with_id(WireError::new("type", "expected a message type"))),
        };
        let body = match kind.as_str() {
            "hello" => variant(fields).map(ClientBody::Hello),
            "sit" => variant(fields).map(ClientBody::Sit),
            "act" => variant(fields).map(ClientBody::Act),
            "sit_out" => variant(fields).map(ClientBody::SitOut),
            "sit_in" => variant(fields).map(ClientBody::SitIn),
            "top_up" => variant(fields).map(ClientBody::TopUp),
            "leave" => variant(fields).map(ClientBody::Leave),
            "hand_commit" => variant(fields).map(ClientBody::HandCommit),
            "hand_reveal" => variant(fields).map(ClientBody::HandReveal),
            _ => Err(WireError::new(
                "type",
                "expected hello, sit, act, sit_out, sit_in, top_up, leave, hand_commit or hand_reveal",
            )),
        }
        .map_err(with_id)?;
        Ok(ClientMessage { id, body })
    }

    /// The message without its id, canonical: what a repeated id must
    /// match to be the same message.
    pub fn canonical(&self) -> String {
        serde_json::to_string(&self.body).unwrap_or_default()
    }
}

/// One variant's fields, or the first field at fault.
fn variant<T: DeserializeOwned>(fields: Map<String, Value>) -> Result<T, WireError> {
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
        let path = e.path().to_string();
        let reason = e.into_inner().to_string();
        // An unknown or missing field is named in the reason, at the top.
        let named = reason
            .split('`')
            .nth(1)
            .filter(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        let field = match (path.as_str(), named) {
            (".", Some(named)) => named.to_owned(),
            (".", None) => "message".to_owned(),
            (path, _) => path.to_owned(),
        };
        WireError::new(field, reason)
    })
}

/// A message the server sends, by `type`: the log's public messages
/// (`event`, `hand_end`, `round`, docs/api.md), the viewer's `state`, the answer to a
/// client message (`ack` or `error`), and `backlog` when a resume was cut.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// One public event of the table's log.
    Event {
        /// Its place in the table's log.
        seq: u64,
        /// The event (docs/api.md).
        #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
        event: Value,
    },
    /// A hand ended: its seed and record.
    HandEnd {
        /// Its place in the table's log.
        seq: u64,
        /// The hand's number.
        number: u64,
        /// The seed, its commitment and how it was made.
        #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
        fairplay: Value,
        /// The hand's record, as `fairseed verify` reads it.
        #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
        record: Value,
    },
    /// A step of the round before a hand (docs/spec.md §20.2).
    Round {
        /// Its place in the table's log.
        seq: u64,
        /// What happened (`kind`: `opened`, `committed`, `revealing`,
        /// `revealed`, `not_committed`, `withheld`, `no_hand`).
        #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
        notice: Value,
    },
    /// The table as the viewer sees it after `seq`.
    State {
        /// The last `seq` the view includes.
        seq: u64,
        /// The viewer's view.
        #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
        table: Box<TableView>,
        /// Receipts of the log entries the view shows, when they changed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        receipts: Option<Vec<Value>>,
    },
    /// A client message was applied (or had been, under this id).
    Ack {
        /// The client message's id.
        id: Option<String>,
    },
    /// A client message was refused, or the connection failed.
    Error {
        /// The client message's id, if it had one.
        id: Option<String>,
        /// The error's code (docs/api.md).
        code: String,
        /// What went wrong, for people.
        message: String,
        /// The field at fault, when one is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        field: Option<String>,
    },
    /// Something the table signed for this seat alone (docs/spec.md
    /// §20.7): a turn notice or the acceptance of its `hand_commit` or
    /// `hand_reveal`, with `sig`, the Ed25519 signature of the session's
    /// evidence key. Sent on the seat's own socket only; the page keeps
    /// them as its evidence.
    Evidence {
        /// The signed item (`type` `turn` or `ack`, its fields, `sig`).
        #[cfg_attr(feature = "schema", schemars(with = "Map<String, Value>"))]
        item: Value,
    },
    /// A resume asked for more of the log than one connection sends: the
    /// messages from `from` to `to` were skipped (the `state` that follows
    /// is current); finished hands are read from `hands`, paged.
    Backlog {
        /// The first `seq` not sent.
        from: u64,
        /// The last `seq` not sent.
        to: u64,
        /// Where the finished hands are read, from the skipped part on.
        hands: String,
    },
}

impl ServerMessage {
    /// The message as sent.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The JSON Schema of both directions: one document whose `$defs` hold
/// `ClientMessage` and `ServerMessage` and every type they name.
#[cfg(feature = "schema")]
pub fn schema() -> Value {
    let mut generator = schemars::SchemaGenerator::default();
    let client = generator.subschema_for::<ClientMessage>();
    let server = generator.subschema_for::<ServerMessage>();
    let definitions = generator.take_definitions(true);
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "fairseed hold'em table WebSocket messages",
        "description": "GET /v1/holdem/tables/{id}/ws: what a client sends (ClientMessage) and what the server sends (ServerMessage); docs/api.md",
        "$defs": definitions,
        "properties": {
            "client": client,
            "server": server,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_with_the_field_at_fault() {
        let sit = ClientMessage::parse(r#"{"type":"sit","id":"a","seat":2,"client_seed":"x"}"#);
        assert_eq!(
            sit,
            Ok(ClientMessage {
                id: Some("a".into()),
                body: ClientBody::Sit(Sit {
                    seat: 2,
                    client_seed: "x".into(),
                    invitation: None
                })
            })
        );
        let raise = ClientMessage::parse(r#"{"type":"act","action":{"kind":"raise_to","to":40}}"#);
        assert_eq!(
            raise.map(|m| m.body),
            Ok(ClientBody::Act(Act {
                action: Action::RaiseTo(40)
            }))
        );
        let hello = ClientMessage::parse(r#"{"type":"hello","token":null,"after":7}"#);
        assert_eq!(
            hello.map(|m| m.body),
            Ok(ClientBody::Hello(Hello {
                token: None,
                after: Some(7)
            }))
        );
        let field = |text: &str| ClientMessage::parse(text).map_err(|e| e.field);
        assert_eq!(field("[1]"), Err("message".into()));
        assert_eq!(field("{no"), Err("message".into()));
        assert_eq!(field(r#"{"type":"jump"}"#), Err("type".into()));
        assert_eq!(field(r#"{"seat":1}"#), Err("type".into()));
        assert_eq!(field(r#"{"type":"leave","id":""}"#), Err("id".into()));
        assert_eq!(field(r#"{"type":"leave","id":7}"#), Err("id".into()));
        assert_eq!(
            field(r#"{"type":"sit","seat":-1,"client_seed":"x"}"#),
            Err("seat".into())
        );
        assert_eq!(
            field(r#"{"type":"sit","seat":1}"#),
            Err("client_seed".into())
        );
        assert_eq!(field(r#"{"type":"leave","extra":1}"#), Err("extra".into()));
        let named = ClientMessage::parse(r#"{"type":"leave","id":"q","extra":1}"#);
        assert_eq!(
            named.map_err(|e| e.id),
            Err(Some("q".into())),
            "the id is kept"
        );
        assert_eq!(
            field(r#"{"type":"act","action":{"kind":"bet"}}"#),
            Err("action.kind".into())
        );
        assert_eq!(
            field(r#"{"type":"hello","after":"x"}"#),
            Err("after".into())
        );
    }

    #[test]
    fn the_canonical_form_ignores_the_id_and_field_order() {
        let a = ClientMessage::parse(r#"{"id":"1","type":"sit","seat":1,"client_seed":"x"}"#);
        let b = ClientMessage::parse(r#"{"client_seed":"x","seat":1,"type":"sit","id":"2"}"#);
        let c = ClientMessage::parse(r#"{"client_seed":"y","seat":1,"type":"sit","id":"1"}"#);
        let canon = |m: Result<ClientMessage, WireError>| m.map(|m| m.canonical());
        assert_eq!(canon(a.clone()), canon(b));
        assert_ne!(canon(a), canon(c));
    }
}
