//! The table's WebSocket described for clients as an AsyncAPI 3.0 document
//! (`docs/holdem-ws.asyncapi.json`), made from the messages' committed JSON
//! Schema (`crates/server/src/holdem_ws.schema.json`, itself held to the code
//! by `holdem_abuse`), so the two cannot drift: each message of either
//! direction is one AsyncAPI message whose payload is that message's schema.

use serde_json::{json, Map, Value};

/// The messages' JSON Schema, as committed.
const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/holdem_ws.schema.json");

/// The AsyncAPI document, as committed.
const ASYNCAPI: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/holdem-ws.asyncapi.json"
);

#[test]
fn the_committed_asyncapi_document_is_made_from_the_ws_schema() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA).expect("the schema")).expect("JSON");
    let made = serde_json::to_string_pretty(&asyncapi(&schema)).expect("JSON") + "\n";
    if std::env::var_os("FAIRSEED_WRITE_SCHEMA").is_some() {
        std::fs::write(ASYNCAPI, &made).expect("write the AsyncAPI document");
    }
    let committed = std::fs::read_to_string(ASYNCAPI).expect("the committed AsyncAPI document");
    assert!(
        committed == made,
        "{ASYNCAPI} is not what the WebSocket schema makes; regenerate with \
         FAIRSEED_WRITE_SCHEMA=1 cargo test -p fairseed-server --test holdem_asyncapi"
    );
}

#[test]
fn every_message_of_the_schema_is_in_the_asyncapi_document_once() {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA).expect("the schema")).expect("JSON");
    let doc = asyncapi(&schema);
    for (direction, def) in [("send", "ClientMessage"), ("receive", "ServerMessage")] {
        let kinds: Vec<String> = variants(&schema, def)
            .iter()
            .map(|v| kind(v).to_owned())
            .collect();
        assert!(!kinds.is_empty(), "{def} has no message");
        let listed: Vec<&str> = doc["operations"][direction]["messages"]
            .as_array()
            .expect("the operation's messages")
            .iter()
            .map(|m| m["$ref"].as_str().expect("a $ref"))
            .collect();
        assert_eq!(listed.len(), kinds.len(), "{direction}: {listed:?}");
        for kind in &kinds {
            let name = format!("{}_{kind}", prefix(def));
            assert!(
                listed.contains(&format!("#/channels/table/messages/{name}").as_str()),
                "{direction} lists no {name}"
            );
            let payload = &doc["components"]["messages"][&name]["payload"];
            assert_eq!(payload["properties"]["type"]["const"], *kind, "{name}");
        }
    }
    // No reference is left pointing into the JSON Schema's own `$defs`.
    assert!(!doc.to_string().contains("#/$defs/"));
}

/// The AsyncAPI 3.0 document of the table's WebSocket.
fn asyncapi(schema: &Value) -> Value {
    let mut messages = Map::new();
    let mut channel_messages = Map::new();
    let mut operations = Map::new();
    for (direction, def, summary) in [
        (
            "send",
            "ClientMessage",
            "What a client sends on the table's WebSocket.",
        ),
        (
            "receive",
            "ServerMessage",
            "What the server sends on the table's WebSocket.",
        ),
    ] {
        let mut refs = Vec::new();
        for variant in variants(schema, def) {
            let name = format!("{}_{}", prefix(def), kind(variant));
            messages.insert(
                name.clone(),
                json!({
                    "name": kind(variant),
                    "summary": variant["description"],
                    "contentType": "application/json",
                    "payload": components_refs(variant),
                }),
            );
            channel_messages.insert(
                name.clone(),
                json!({ "$ref": format!("#/components/messages/{name}") }),
            );
            refs.push(json!({ "$ref": format!("#/channels/table/messages/{name}") }));
        }
        operations.insert(
            direction.to_owned(),
            json!({
                "action": direction,
                "summary": summary,
                "channel": { "$ref": "#/channels/table" },
                "messages": refs,
            }),
        );
    }
    let shared: Map<String, Value> = schema["$defs"]
        .as_object()
        .expect("$defs")
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "ClientMessage" | "ServerMessage"))
        .map(|(name, def)| (name.clone(), components_refs(def)))
        .collect();
    json!({
        "asyncapi": "3.0.0",
        "info": {
            "title": "fairseed hold'em table WebSocket",
            "version": "1",
            "description": "A live hold'em table: players act and everyone watches the \
                table's public log. The first message a client sends is `hello` (with \
                a token to play, without one to watch). Made from \
                crates/server/src/holdem_ws.schema.json by \
                crates/server/tests/holdem_asyncapi.rs; docs/api.md says what each \
                message means, the close codes (1001 going away, 1003 binary frame, \
                1008 token revoked, 1009 message too big) and the input rules.",
        },
        "servers": {
            "service": {
                "host": "localhost:7878",
                "protocol": "ws",
                "description": "The service's own listener (wss behind TLS).",
            }
        },
        "channels": {
            "table": {
                "address": "/v1/holdem/tables/{id}/ws",
                "parameters": { "id": { "description": "The table's id." } },
                "messages": channel_messages,
            }
        },
        "operations": operations,
        "components": {
            "messages": messages,
            "schemas": shared,
        },
    })
}

/// The one-message schemas of `$defs[def]`'s `oneOf`.
fn variants<'a>(schema: &'a Value, def: &str) -> &'a Vec<Value> {
    schema["$defs"][def]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("$defs.{def}.oneOf"))
}

/// A message's `type`.
fn kind(variant: &Value) -> &str {
    variant["properties"]["type"]["const"]
        .as_str()
        .expect("every message has a constant type")
}

fn prefix(def: &str) -> &'static str {
    if def == "ClientMessage" {
        "client"
    } else {
        "server"
    }
}

/// `value` with its references into `$defs` pointed at the document's
/// `components.schemas`.
fn components_refs(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace("#/$defs/", "#/components/schemas/")),
        Value::Array(items) => Value::Array(items.iter().map(components_refs).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), components_refs(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}
