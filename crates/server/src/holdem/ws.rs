//! The WebSocket of a live table (`GET /v1/holdem/tables/{id}/ws`).
//!
//! A browser cannot send headers, so the first message authenticates:
//! `{"type":"hello","token":…,"after":…}` (no token: a spectator). The
//! server then sends the public messages after `after` from the table's log
//! and a `state` (the viewer's [`view`]); after every change, the messages
//! the viewer has not had and a new `state`. A client message with an `id`
//! is answered `ack` or `error` with that id; a repeated id gets the same
//! answer and is applied once (the key is stored with the change).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ws::{Message as WsMessage, WebSocket};
use fairseed_holdem::live::{self, view, Request};
use fairseed_holdem::Action;
use fairseed_play::Viewer;
use fairseed_store::Idempotent;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;
use crate::step;

use super::drive;
use super::rows;

/// How often an idle connection is pinged, so proxies keep it open.
const PING_EVERY: Duration = Duration::from_secs(30);

/// Time a client has to say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest client message id.
const MAX_ID: usize = 64;

/// Answers remembered per connection (errors included), newest kept.
const MAX_ANSWERS: usize = 256;

/// Largest client message, bytes.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// One viewer's connection.
struct Conn {
    state: AppState,
    table: String,
    player: Option<i64>,
    /// The rate limit's key: the player's token hash.
    limit_key: Option<String>,
    /// The last `seq` this viewer was sent.
    sent: u64,
    /// The log entries whose receipts this viewer was last sent
    /// ([`rows::shown`]): a `state` carries receipts when they change (the
    /// first state, a new hand, a hand's end, the session's end), not with
    /// every move.
    receipted: Vec<String>,
    answers: HashMap<String, String>,
}

fn error_json(id: Option<&str>, e: &ApiError) -> String {
    json!({"type": "error", "id": id, "code": e.code(), "message": e.message()}).to_string()
}

fn invalid(field: &str, reason: &str) -> ApiError {
    ApiError::invalid(field, reason)
}

async fn send(socket: &mut WebSocket, text: String) -> bool {
    socket.send(WsMessage::Text(text.into())).await.is_ok()
}

/// Serves one connection until it closes.
pub async fn serve(
    mut socket: WebSocket,
    state: AppState,
    table: String,
    peer: Option<SocketAddr>,
) {
    let hello = match tokio::time::timeout(HELLO_TIMEOUT, next_text(&mut socket)).await {
        Ok(Some(text)) => text,
        Ok(None) => return,
        Err(_) => {
            let e = ApiError::bad_request("hello: expected within 10 s of connecting");
            send(&mut socket, error_json(None, &e)).await;
            return;
        }
    };
    let (player, limit_key, after) = match greet(&state, &hello, peer).await {
        Ok(greeted) => greeted,
        Err((id, e)) => {
            send(&mut socket, error_json(id.as_deref(), &e)).await;
            return;
        }
    };
    let caller = match (player, peer) {
        (Some(id), _) => format!("player:{id}"),
        (None, Some(addr)) => format!("spectator:{}", addr.ip()),
        (None, None) => "spectator".to_owned(),
    };
    let Some(_slot) = state.events().open_stream(caller) else {
        let e = ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyStreams,
            "too many live streams open at once; close one first",
        );
        send(&mut socket, error_json(None, &e)).await;
        return;
    };
    let mut changes = state.events().subscribe(&rows::topic(&table));
    let mut conn = Conn {
        state,
        table,
        player,
        limit_key,
        sent: 0,
        receipted: Vec::new(),
        answers: HashMap::new(),
    };
    let first = match drive::load(&conn.state, &conn.table).await {
        Ok(loaded) => loaded.live.seq,
        Err(e) => {
            send(&mut socket, error_json(None, &e)).await;
            return;
        }
    };
    conn.sent = after.map_or(first, |a| a.min(first));
    if !conn.sync(&mut socket).await {
        return;
    }
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let stopping = conn.state.stopping();
    tokio::pin!(stopping);
    loop {
        tokio::select! {
            () = &mut stopping => {
                // 1001 "going away": the client reconnects (to another process).
                let close = axum::extract::ws::CloseFrame {
                    code: 1001,
                    reason: "the server is stopping".into(),
                };
                let _ = socket.send(WsMessage::Close(Some(close))).await;
                return;
            }
            _ = ping.tick() => {
                if socket.send(WsMessage::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
            incoming = next_text(&mut socket) => {
                let Some(text) = incoming else { return };
                let answer = conn.handle(&text).await;
                if !send(&mut socket, answer).await {
                    return;
                }
            }
            notice = changes.recv() => {
                let behind = match notice {
                    Ok(event) => event.body["seq"].as_u64().is_none_or(|seq| seq > conn.sent),
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                };
                if behind && !conn.sync(&mut socket).await {
                    return;
                }
            }
        }
    }
}

/// The next text message; `None` when the socket closed or failed.
async fn next_text(socket: &mut WebSocket) -> Option<String> {
    loop {
        match socket.recv().await? {
            Ok(WsMessage::Text(text)) => return Some(text.to_string()),
            Ok(WsMessage::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// Reads the hello: the viewer (a player, or a spectator), the key of its
/// rate limit, and `after`.
async fn greet(
    state: &AppState,
    text: &str,
    peer: Option<SocketAddr>,
) -> Result<(Option<i64>, Option<String>, Option<u64>), (Option<String>, ApiError)> {
    let (id, message) = parse(text).map_err(|e| (None, e))?;
    let fail = |e| (id.clone(), e);
    if message["type"] != "hello" {
        return Err(fail(invalid("type", "the first message must be a hello")));
    }
    let after = match &message["after"] {
        Value::Null => None,
        v => Some(
            v.as_u64()
                .ok_or_else(|| fail(invalid("after", "expected a seq (0 or more) or null")))?,
        ),
    };
    match &message["token"] {
        Value::Null => Ok((None, None, after)),
        Value::String(token) => {
            let player = crate::auth::player_of_token(state, token, peer)
                .await
                .map_err(fail)?;
            Ok((Some(player), Some(crate::secrets::token_hash(token)), after))
        }
        _ => Err(fail(invalid("token", "expected a player token or null"))),
    }
}

/// A client message and its `id`.
fn parse(text: &str) -> Result<(Option<String>, Value), ApiError> {
    let message: Value =
        serde_json::from_str(text).map_err(|_| ApiError::bad_request("message: not JSON"))?;
    if !message.is_object() {
        return Err(ApiError::bad_request("message: expected a JSON object"));
    }
    let id = match &message["id"] {
        Value::Null => None,
        Value::String(id) if (1..=MAX_ID).contains(&id.len()) => Some(id.clone()),
        _ => return Err(invalid("id", "expected a string of 1 to 64 characters")),
    };
    Ok((id, message))
}

/// The request a client message asks for.
fn request(message: &Value) -> Result<Request, ApiError> {
    let kind = message["type"].as_str().unwrap_or_default();
    Ok(match kind {
        "sit" => Request::Sit {
            seat: message["seat"]
                .as_u64()
                .and_then(|s| usize::try_from(s).ok())
                .ok_or_else(|| invalid("seat", "expected a seat number"))?,
            client_seed: message["client_seed"]
                .as_str()
                .ok_or_else(|| invalid("client_seed", "expected a string"))?
                .to_owned(),
        },
        "act" => Request::Act(action(&message["action"])?),
        "sit_out" => Request::SitOut,
        "sit_in" => Request::SitIn,
        "top_up" => Request::TopUp,
        "leave" => Request::Leave,
        _ => {
            return Err(invalid(
                "type",
                "expected sit, act, sit_out, sit_in, top_up or leave",
            ))
        }
    })
}

fn action(value: &Value) -> Result<Action, ApiError> {
    Ok(match value["kind"].as_str() {
        Some("fold") => Action::Fold,
        Some("check") => Action::Check,
        Some("call") => Action::Call,
        Some("raise_to") => Action::RaiseTo(
            value["to"]
                .as_u64()
                .ok_or_else(|| invalid("action.to", "expected the raise-to total in chips"))?,
        ),
        _ => {
            return Err(invalid(
                "action.kind",
                "expected fold, check, call or raise_to",
            ))
        }
    })
}

impl Conn {
    fn viewer(&self) -> Viewer {
        self.player.map_or(Viewer::Public, Viewer::Player)
    }

    /// Sends the messages after `sent` and the viewer's state; `false`
    /// when the socket is gone.
    async fn sync(&mut self, socket: &mut WebSocket) -> bool {
        let loaded = match drive::load(&self.state, &self.table).await {
            Ok(loaded) => loaded,
            Err(e) => return send(socket, error_json(None, &e)).await,
        };
        let seq = loaded.live.seq;
        let log = match drive::read_log(&self.state, &self.table, self.sent, seq).await {
            Ok(log) => log,
            Err(e) => return send(socket, error_json(None, &e)).await,
        };
        for body in log {
            if !send(socket, body).await {
                return false;
            }
        }
        self.sent = seq;
        let table = view(&loaded.live, self.viewer());
        let shown = rows::shown(&table);
        let mut state = json!({"type": "state", "seq": seq, "table": table});
        if shown != self.receipted {
            state = match self.state.with_shown_receipts(state, shown.clone()).await {
                Ok(state) => state,
                Err(e) => return send(socket, error_json(None, &e)).await,
            };
            self.receipted = shown;
        }
        send(socket, state.to_string()).await
    }

    /// Applies one client message and returns its answer.
    async fn handle(&mut self, text: &str) -> String {
        let (id, message) = match parse(text) {
            Ok(parsed) => parsed,
            Err(e) => return error_json(None, &e),
        };
        if let Some(answer) = id.as_ref().and_then(|id| self.answers.get(id)) {
            return answer.clone();
        }
        // Every message counts against the player's rate limit, as a request would.
        if let Some(key) = &self.limit_key {
            if let Err(retry) = self.state.limiter().check(key) {
                return error_json(id.as_deref(), &ApiError::rate_limited(retry));
            }
        }
        let answer = match self.apply(id.as_deref(), &message).await {
            Ok(answer) => answer,
            Err(e) => error_json(id.as_deref(), &e),
        };
        if let Some(id) = id {
            if self.answers.len() >= MAX_ANSWERS {
                self.answers.clear();
            }
            self.answers.insert(id, answer.clone());
        }
        answer
    }

    async fn apply(&self, id: Option<&str>, message: &Value) -> Result<String, ApiError> {
        if message["type"] == "hello" {
            return Ok(json!({"type": "ack", "id": id}).to_string());
        }
        let request = request(message)?;
        let player = self
            .player
            .ok_or_else(|| ApiError::unauthorized("hello: a player token is needed to play"))?;
        let ack = json!({"type": "ack", "id": id}).to_string();
        let entry = id.map(|id| {
            let mut canonical = message.clone();
            if let Some(fields) = canonical.as_object_mut() {
                fields.remove("id");
            }
            let path = format!("/v1/holdem/tables/{}/ws", self.table);
            Idempotent {
                scope: step::player_scope(player),
                key: format!("holdem:{}:{id}", self.table),
                request_hash: step::request_hash("WS", &path, canonical.to_string().as_bytes()),
                response: ack.clone(),
            }
        });
        if let Some(entry) = &entry {
            if let Some(stored) =
                step::replay(&self.state, &entry.scope, &entry.key, &entry.request_hash).await?
            {
                return Ok(stored.to_string());
            }
        }
        let done = drive::change(&self.state, &self.table, entry.clone(), |loaded, now| {
            Ok(live::request(&loaded.live, player, request.clone(), now)?)
        })
        .await;
        match (done, &entry) {
            (Ok(_), _) => Ok(ack),
            // A twin of this message committed first: its answer.
            (Err(e), Some(entry)) if e.code() == "idempotency_key_used" => {
                step::replay(&self.state, &entry.scope, &entry.key, &entry.request_hash)
                    .await?
                    .map(|v| v.to_string())
                    .ok_or_else(|| ApiError::internal("an idempotency key used but not stored"))
            }
            (Err(e), _) => Err(e),
        }
    }
}
