//! The WebSocket of a live table (`GET /v1/holdem/tables/{id}/ws`).
//!
//! A browser cannot send headers, so the first message authenticates:
//! `{"type":"hello","token":…,"after":…}` (no token: a spectator). The
//! server then sends the public messages after `after` from the table's log
//! (at most [`MAX_BACKLOG`]; beyond, a `backlog` message says what was
//! skipped and where to read it) and a `state` (the viewer's [`view`]);
//! after every change, the messages the viewer has not had and a new
//! `state`; a new `state` too when a process starts serving the table
//! (every running clock starts again in full, docs/spec.md §19.1).
//! Messages both ways are `fairseed_holdem::live::wire`'s, whose JSON
//! Schema is `crates/server/src/holdem_ws.schema.json`.
//!
//! A seated person's own socket, and no other, also gets what the table
//! signs for that seat with the session's evidence key (docs/spec.md
//! §20.7): a turn notice after each `state` in which the seat is to act
//! (once per turn and deadline), and the acceptance of its `hand_commit`
//! or `hand_reveal` after that message's `ack`.
//!
//! A client message with an `id` is answered `ack` or `error` with that id;
//! a repeated id with the same message gets the same answer and is applied
//! once (the key is stored with the change, through the path every keyed
//! HTTP call takes, [`crate::idempotent::run`]); with another message,
//! `idempotency_mismatch`, on this connection or any other.
//!
//! One input rule with the rest of the service: every client message costs
//! one unit of its caller's rate limit (the token's, or the address's for a
//! spectator), as a request would; a message over [`MAX_MESSAGE`] bytes
//! closes the socket with 1009, a binary one with 1003, and revoking or
//! rotating the player's token with 1008, each with its reason.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ws::{close_code, CloseFrame, Message as WsMessage, WebSocket};
use fairseed_holdem::evidence::{self, AckKind, Notice};
use fairseed_holdem::live::wire::{ClientBody, ClientMessage, ServerMessage};
use fairseed_holdem::live::{self, view, Request};
use fairseed_play::Viewer;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

use crate::error::{ApiError, ErrorCode};
use crate::events::StreamCaller;
use crate::idempotent::{self, KeyEntry, Outcome};
use crate::state::AppState;
use crate::step;

use super::drive;
use super::rows;

/// How often an idle connection is pinged, so proxies keep it open.
const PING_EVERY: Duration = Duration::from_secs(30);

/// Time a client has to say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Answers remembered per connection (errors included), newest kept.
const MAX_ANSWERS: usize = 256;

/// Largest client message, bytes.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// Largest message the socket reads at all before failing the connection:
/// one between [`MAX_MESSAGE`] and this is refused with 1009 and a reason.
pub const MAX_READ: usize = 4 * MAX_MESSAGE;

/// Most log messages one sync sends; a resume from further back gets a
/// `backlog` message instead of the older ones.
pub const MAX_BACKLOG: u64 = 256;

/// One viewer's connection.
struct Conn {
    state: AppState,
    table: String,
    player: Option<i64>,
    /// The rate limit's key: the player's token hash, or the address.
    limit_key: Option<String>,
    /// The last `seq` this viewer was sent.
    sent: u64,
    /// The log entries whose receipts this viewer was last sent
    /// ([`rows::shown`]): a `state` carries receipts when they change (the
    /// first state, a new hand, a hand's end, the session's end), not with
    /// every move.
    receipted: Vec<String>,
    /// Per id: the message it came with (canonical) and its answer, so a
    /// repeat on this connection gets the same answer even when nothing was
    /// stored (a refusal, a message that changes nothing).
    answers: HashMap<String, (String, String)>,
    /// The last turn notice signed for this viewer's seat: its hand, the
    /// actions before it and its deadline. Another is signed when any of
    /// them changes (a process starting to serve the table gives the turn
    /// a new deadline, docs/spec.md §19.1).
    turn_signed: Option<(u64, u64, u64)>,
    /// Signed items for this viewer's seat to send after the answer at hand.
    outbox: Vec<String>,
}

/// The hello, read: who is watching and from where.
struct Greeted {
    player: Option<i64>,
    token_hash: Option<String>,
    after: Option<u64>,
}

fn error_text(id: Option<&str>, e: &ApiError) -> String {
    e.log_if_server_error();
    ServerMessage::Error {
        id: id.map(str::to_owned),
        code: e.code().to_owned(),
        message: e.message().to_owned(),
        field: e.field().map(str::to_owned),
    }
    .to_text()
}

fn ack_text(id: Option<&str>) -> String {
    ServerMessage::Ack {
        id: id.map(str::to_owned),
    }
    .to_text()
}

async fn send(socket: &mut WebSocket, text: String) -> bool {
    socket.send(WsMessage::Text(text.into())).await.is_ok()
}

/// Closes with `code` and `reason` (a reason is at most 123 bytes).
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(WsMessage::Close(Some(frame))).await;
}

/// What the socket gave.
enum Incoming {
    Text(String),
    /// Over [`MAX_MESSAGE`].
    TooBig,
    Binary,
    Gone,
}

/// A place among the table's watchers for a socket whose caller holds no
/// seat at `table` (`None` for a seated player's own socket: it is never
/// refused for the spectators' sake, [`super::viewers`]).
///
/// # Errors
/// `429 too_many_streams` when the table or the address watches its most;
/// the store failed.
async fn watching(
    state: &AppState,
    table: &str,
    player: Option<i64>,
    peer: Option<SocketAddr>,
) -> Result<Option<super::viewers::Watching>, ApiError> {
    if let Some(id) = player {
        let loaded = drive::load(state, table).await?;
        if loaded.live.seat_of(id).is_some() {
            return Ok(None);
        }
        return state.holdem().viewers().watch(table, None).map(Some);
    }
    let address = peer.map(|p| crate::ratelimit::address_key(p.ip()).to_string());
    let address = address.unwrap_or_else(|| "local".to_owned());
    state
        .holdem()
        .viewers()
        .watch(table, Some(&address))
        .map(Some)
}

/// Serves one connection until it closes.
pub async fn serve(
    mut socket: WebSocket,
    state: AppState,
    table: String,
    peer: Option<SocketAddr>,
) {
    let Some(admitted) = admit(&mut socket, &state, &table, peer).await else {
        return;
    };
    let mut conn = Conn {
        state,
        table,
        player: admitted.player,
        limit_key: admitted.limit_key,
        sent: 0,
        receipted: Vec::new(),
        answers: HashMap::new(),
        turn_signed: None,
        outbox: Vec::new(),
    };
    let first = match drive::load(&conn.state, &conn.table).await {
        Ok(loaded) => loaded.live.seq,
        Err(e) => {
            send(&mut socket, error_text(None, &e)).await;
            return;
        }
    };
    conn.sent = admitted.after.map_or(first, |a| a.min(first));
    if !conn.sync(&mut socket).await {
        return;
    }
    conn.run(socket, admitted.revoked, admitted.changes).await;
}

/// A socket let in: who it is, where it resumes, what it listens to, and
/// the guards that hold its place (a watcher's count, a stream slot) for
/// as long as it is open.
struct Admitted {
    player: Option<i64>,
    after: Option<u64>,
    limit_key: Option<String>,
    revoked: watch::Receiver<bool>,
    changes: tokio::sync::broadcast::Receiver<crate::events::Event>,
    _watching: Option<super::viewers::Watching>,
    _slot: crate::events::StreamSlot,
}

/// The `hello` within its time, its token, a watcher's place and a stream
/// slot; on a refusal the socket is told why and `None` is answered.
async fn admit(
    socket: &mut WebSocket,
    state: &AppState,
    table: &str,
    peer: Option<SocketAddr>,
) -> Option<Admitted> {
    let hello = match tokio::time::timeout(HELLO_TIMEOUT, next(socket)).await {
        Ok(Incoming::Text(text)) => text,
        Ok(other) => {
            refuse(socket, other).await;
            return None;
        }
        Err(_) => {
            let e = ApiError::bad_request("hello: expected within 10 s of connecting");
            send(socket, error_text(None, &e)).await;
            return None;
        }
    };
    let greeted = match greet(state, &hello, peer).await {
        Ok(greeted) => greeted,
        Err((id, e)) => {
            send(socket, error_text(id.as_deref(), &e)).await;
            return None;
        }
    };
    let caller = match greeted.player {
        Some(id) => StreamCaller::Player(id),
        None => StreamCaller::Address(peer.map(|p| p.ip())),
    };
    let topic = rows::topic(table);
    let watching = match watching(state, table, greeted.player, peer).await {
        Ok(watching) => watching,
        Err(e) => {
            send(socket, error_text(None, &e)).await;
            return None;
        }
    };
    let slot = match state.events().open_stream(&caller, &topic) {
        Ok(slot) => slot,
        Err(e) => {
            send(socket, error_text(None, &e.error())).await;
            return None;
        }
    };
    let revoked = match &greeted.token_hash {
        Some(hash) => state.events().token_watch(hash),
        // A spectator's never turns.
        None => watch::channel(false).1,
    };
    let limit_key = match (&greeted.token_hash, peer) {
        (Some(hash), _) => Some(hash.clone()),
        (None, Some(peer)) => Some(format!(
            "address:{}",
            crate::ratelimit::address_key(peer.ip())
        )),
        (None, None) => None,
    };
    Some(Admitted {
        player: greeted.player,
        after: greeted.after,
        limit_key,
        revoked,
        changes: state.events().subscribe(&topic),
        _watching: watching,
        _slot: slot,
    })
}

impl Conn {
    /// The open socket until it or the service ends: pings, revocation,
    /// the viewer's messages answered, and the table's changes sent on.
    async fn run(
        &mut self,
        mut socket: WebSocket,
        mut revoked: watch::Receiver<bool>,
        mut changes: tokio::sync::broadcast::Receiver<crate::events::Event>,
    ) {
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
        let stopping = self.state.stopping();
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
                () = until_revoked(&mut revoked) => {
                    close(&mut socket, close_code::POLICY, "token revoked or rotated").await;
                    return;
                }
                incoming = next(&mut socket) => {
                    let Incoming::Text(text) = incoming else {
                        return refuse(&mut socket, incoming).await;
                    };
                    let answer = self.handle(&text).await;
                    if !send(&mut socket, answer).await {
                        return;
                    }
                    for item in std::mem::take(&mut self.outbox) {
                        if !send(&mut socket, item).await {
                            return;
                        }
                    }
                }
                notice = changes.recv() => {
                    let behind = match notice {
                        Ok(event) => behind(&event.body, self.sent),
                        Err(RecvError::Lagged(_)) => true,
                        Err(RecvError::Closed) => return,
                    };
                    if behind && !self.sync(&mut socket).await {
                        return;
                    }
                }
            }
        }
    }
}

/// Whether a table's notice leaves a viewer sent up to `sent` behind: it
/// names a `seq` the viewer was not sent, or a process started serving the
/// table (`served`), which gave every running clock back without adding a
/// message.
fn behind(notice: &serde_json::Value, sent: u64) -> bool {
    notice["served"] == true || notice["seq"].as_u64().is_none_or(|seq| seq > sent)
}

/// Returns once the watched token is revoked; never for a spectator's.
async fn until_revoked(revoked: &mut watch::Receiver<bool>) {
    if revoked.wait_for(|r| *r).await.map(|_| ()).is_err() {
        std::future::pending::<()>().await;
    }
}

/// Ends a connection that gave something other than a text message.
async fn refuse(socket: &mut WebSocket, incoming: Incoming) {
    match incoming {
        Incoming::TooBig => {
            close(
                socket,
                close_code::SIZE,
                "message over 16384 bytes; a client message is at most 16384",
            )
            .await;
        }
        Incoming::Binary => {
            close(
                socket,
                close_code::UNSUPPORTED,
                "binary messages are not read; send JSON text",
            )
            .await;
        }
        Incoming::Text(_) | Incoming::Gone => {}
    }
}

/// The next message that matters (pings and pongs are skipped).
async fn next(socket: &mut WebSocket) -> Incoming {
    loop {
        match socket.recv().await {
            Some(Ok(WsMessage::Text(text))) if text.len() > MAX_MESSAGE => return Incoming::TooBig,
            Some(Ok(WsMessage::Text(text))) => return Incoming::Text(text.to_string()),
            Some(Ok(WsMessage::Binary(_))) => return Incoming::Binary,
            Some(Ok(WsMessage::Ping(_) | WsMessage::Pong(_))) => {}
            // Over even the read limit: the reader failed, the close may
            // still go out.
            Some(Err(e)) if too_long(&e) => return Incoming::TooBig,
            Some(Ok(WsMessage::Close(_)) | Err(_)) | None => return Incoming::Gone,
        }
    }
}

/// Whether the socket's reader refused a frame or message over its limit.
fn too_long(e: &axum::Error) -> bool {
    use tungstenite::error::{CapacityError, Error};
    std::error::Error::source(e)
        .and_then(|cause| cause.downcast_ref::<Error>())
        .is_some_and(|cause| matches!(cause, Error::Capacity(CapacityError::MessageTooLong { .. })))
}

/// A client message's parse failure as the API answers it.
fn wire_error(e: fairseed_holdem::live::wire::WireError) -> ApiError {
    if e.field == "message" {
        ApiError::bad_request(format!("message: {}", e.reason))
    } else {
        ApiError::invalid(e.field, e.reason)
    }
}

/// Reads the hello: the viewer (a player, or a spectator), its token's
/// hash, and `after`.
async fn greet(
    state: &AppState,
    text: &str,
    peer: Option<SocketAddr>,
) -> Result<Greeted, (Option<String>, ApiError)> {
    let message = ClientMessage::parse(text).map_err(|e| (e.id.clone(), wire_error(e)))?;
    let ClientBody::Hello(hello) = message.body else {
        return Err((
            message.id,
            ApiError::invalid("type", "the first message must be a hello"),
        ));
    };
    let Some(token) = hello.token else {
        return Ok(Greeted {
            player: None,
            token_hash: None,
            after: hello.after,
        });
    };
    let player = crate::auth::player_of_token(state, &token, peer)
        .await
        .map_err(|e| (message.id, e))?;
    Ok(Greeted {
        player: Some(player),
        token_hash: Some(crate::secrets::token_hash(&token)),
        after: hello.after,
    })
}

/// The request a client message asks for (`None`: a hello, which has
/// nothing to apply).
fn request(body: ClientBody) -> Option<Request> {
    Some(match body {
        ClientBody::Hello(_) => return None,
        ClientBody::Sit(sit) => Request::Sit {
            seat: sit.seat,
            client_seed: sit.client_seed,
            invitation: sit.invitation,
            // Known from the store when the seat is asked for (`Conn::apply`).
            house: false,
        },
        ClientBody::Act(act) => Request::Act(act.action),
        ClientBody::SitOut(_) => Request::SitOut,
        ClientBody::SitIn(_) => Request::SitIn,
        ClientBody::TopUp(_) => Request::TopUp,
        ClientBody::Leave(_) => Request::Leave,
        ClientBody::HandCommit(c) => Request::Commit {
            hand: c.hand,
            commit: c.commit,
        },
        ClientBody::HandReveal(r) => Request::Reveal {
            hand: r.hand,
            value: r.value,
        },
    })
}

impl Conn {
    fn viewer(&self) -> Viewer {
        self.player.map_or(Viewer::Public, Viewer::Player)
    }

    /// Sends the messages after `sent` (at most [`MAX_BACKLOG`], a
    /// `backlog` message for the rest) and the viewer's state; `false`
    /// when the socket is gone.
    async fn sync(&mut self, socket: &mut WebSocket) -> bool {
        let loaded = match drive::load(&self.state, &self.table).await {
            Ok(loaded) => loaded,
            Err(e) => return send(socket, error_text(None, &e)).await,
        };
        let seq = loaded.live.seq;
        let messages = match catch_up(&self.state, &self.table, self.sent, seq).await {
            Ok(messages) => messages,
            Err(e) => return send(socket, error_text(None, &e)).await,
        };
        for text in messages {
            if !send(socket, text).await {
                return false;
            }
        }
        self.sent = seq;
        let table = view(&loaded.live, self.viewer());
        let shown = rows::shown(&table);
        let message = ServerMessage::State {
            seq,
            table: Box::new(table),
            receipts: None,
        };
        let mut state = match serde_json::to_value(&message) {
            Ok(state) => state,
            Err(e) => return send(socket, error_text(None, &ApiError::internal(e))).await,
        };
        if shown != self.receipted {
            state = match self.state.with_shown_receipts(state, shown.clone()).await {
                Ok(state) => state,
                Err(e) => return send(socket, error_text(None, &e)).await,
            };
            self.receipted = shown;
        }
        if !send(socket, state.to_string()).await {
            return false;
        }
        match self.turn_evidence(&loaded) {
            Ok(Some(item)) => send(socket, item).await,
            Ok(None) => true,
            Err(e) => send(socket, error_text(None, &e)).await,
        }
    }

    /// The turn notice, signed, when it is this viewer's seat's turn and it
    /// was not signed with these figures already (`None` for a spectator,
    /// another seat's turn, or a table that signs no evidence).
    fn turn_evidence(&mut self, loaded: &rows::Loaded) -> Result<Option<String>, ApiError> {
        let (Some(key), Some(player)) = (&loaded.evidence, self.player) else {
            return Ok(None);
        };
        let Some(seat) = loaded.live.seat_of(player) else {
            return Ok(None);
        };
        let Some(turn) = evidence::turn_notice(&loaded.live, seat, server_ms(crate::rounds::now()))
        else {
            return Ok(None);
        };
        let figures = (turn.hand, turn.actions, turn.deadline_ms);
        if self.turn_signed == Some(figures) {
            return Ok(None);
        }
        self.turn_signed = Some(figures);
        evidence_text(Notice::Turn(turn), key).map(Some)
    }

    /// Applies one client message and returns its answer.
    async fn handle(&mut self, text: &str) -> String {
        let message = match ClientMessage::parse(text) {
            Ok(message) => message,
            Err(e) => return error_text(e.id.clone().as_deref(), &wire_error(e)),
        };
        let id = message.id.clone();
        let canonical = message.canonical();
        if let Some((seen, answer)) = id.as_ref().and_then(|id| self.answers.get(id)) {
            if *seen == canonical {
                return answer.clone();
            }
            return error_text(id.as_deref(), &reused(id.as_deref().unwrap_or_default()));
        }
        // Every message counts against the caller's rate limit, as a request would.
        if let Some(key) = &self.limit_key {
            if let Err(retry) = self.state.limiter().check(key) {
                return error_text(id.as_deref(), &ApiError::rate_limited(retry));
            }
        }
        let (answer, remembered) = match self.apply(id.as_deref(), &canonical, message.body).await {
            Ok(answer) => (answer, true),
            // The id belongs to the message stored under it, not this one.
            Err(e) => (
                error_text(id.as_deref(), &e),
                !e.is(ErrorCode::IDEMPOTENCY_MISMATCH),
            ),
        };
        if let Some(id) = id.filter(|_| remembered) {
            if self.answers.len() >= MAX_ANSWERS {
                self.answers.clear();
            }
            self.answers.insert(id, (canonical, answer.clone()));
        }
        answer
    }

    async fn apply(
        &mut self,
        id: Option<&str>,
        canonical: &str,
        body: ClientBody,
    ) -> Result<String, ApiError> {
        let Some(mut request) = request(body) else {
            return Ok(ack_text(id));
        };
        let player = self
            .player
            .ok_or_else(|| ApiError::unauthorized("hello: a player token is needed to play"))?;
        if let Request::Sit { house, .. } = &mut request {
            // A player the operator created is the house's wherever it sits.
            *house = self.state.store().is_operator_player(player).await?;
        }
        let ack = ack_text(id);
        let acked: Value = serde_json::from_str(&ack).map_err(ApiError::internal)?;
        // A seat's commit and reveal are acknowledged with a signed item
        // for its own socket (docs/spec.md §20.7).
        let signs = match &request {
            Request::Commit { hand, .. } => Some((*hand, AckKind::Commit)),
            Request::Reveal { hand, .. } => Some((*hand, AckKind::Reveal)),
            _ => None,
        };
        let input = live::machine::Input::Request { player, request };
        let (state, table) = (&self.state, self.table.as_str());
        let entry = self.key_entry(player, id, canonical);
        let ran = idempotent::run(state, entry, |entry| async move {
            let mut signed = None;
            drive::handle_seen(
                state,
                table,
                entry.of_value(&acked),
                input,
                |loaded, output| {
                    signed = signed_ack(signs, player, loaded, output)?;
                    Ok(())
                },
            )
            .await?;
            Ok((acked, signed))
        })
        .await?;
        match ran {
            Outcome::Committed { out: signed, .. } => {
                self.outbox.extend(signed);
                Ok(ack)
            }
            // This message's first answer, on this connection or another.
            Outcome::Replayed(stored) => Ok(stored.to_string()),
        }
    }

    /// The key a message's `id` is stored under: the player's scope, one
    /// key space per table, and the message as its request (no `id`: no
    /// entry).
    fn key_entry(&self, player: i64, id: Option<&str>, canonical: &str) -> KeyEntry {
        let path = format!("/v1/holdem/tables/{}/ws", self.table);
        KeyEntry::new(
            step::player_scope(player),
            id.map(|id| format!("{}{id}", rows::idempotency_prefix(&self.table))),
            step::request_hash("WS", &path, canonical.as_bytes()),
        )
    }
}

/// The signed acknowledgement of `player`'s commit or reveal (`signs`: its
/// hand and kind) that `output` accepts, when the table signs evidence.
fn signed_ack(
    signs: Option<(u64, AckKind)>,
    player: i64,
    loaded: &rows::Loaded,
    output: &live::machine::Output,
) -> Result<Option<String>, ApiError> {
    match (signs, &loaded.evidence, loaded.live.seat_of(player)) {
        (Some((hand, kind)), Some(key), Some(seat)) => {
            evidence::ack(&output.next, hand, seat, kind, server_ms(output.at))
                .map(|ack| evidence_text(Notice::Ack(ack), key))
                .transpose()
        }
        _ => Ok(None),
    }
}

/// What a viewer sent up to `sent` is sent to reach `seq`: the log's
/// messages after `sent`, the newest [`MAX_BACKLOG`] at most and only those
/// the log still holds whole (an archived table's keeps its last hand,
/// `drive::archive`), after a `backlog` message naming the rest and where
/// their hands are read.
///
/// # Errors
/// The store failed.
pub async fn catch_up(
    state: &AppState,
    table: &str,
    sent: u64,
    seq: u64,
) -> Result<Vec<String>, ApiError> {
    let from = seq.saturating_sub(MAX_BACKLOG).max(sent);
    let rows = drive::read_rows(state, table, from, seq).await?;
    let whole = whole_from(&rows, seq).max(from);
    let mut out = Vec::with_capacity(rows.len() + 1);
    if whole > sent {
        let skipped = ServerMessage::Backlog {
            from: sent + 1,
            to: whole,
            hands: format!("/v1/holdem/tables/{table}/hands?after={sent}"),
        };
        out.push(skipped.to_text());
    }
    out.extend(rows.into_iter().filter(|r| r.seq >= whole).map(|r| r.body));
    Ok(out)
}

/// The first index of the unbroken run of messages (no row missing, none
/// folded into a record) that `rows` end with at `seq`; `seq` if none.
fn whole_from(rows: &[fairseed_store::LogRow], seq: u64) -> u64 {
    let mut whole = seq;
    for row in rows.iter().rev() {
        if row.seq + 1 != whole || fairseed_store::folded_records(&row.body).is_some() {
            break;
        }
        whole = row.seq;
    }
    whole
}

/// `notice` signed with the table's evidence `key`, as the seat's socket
/// gets it (`{"type":"evidence","item":…}`, docs/spec.md §20.7).
fn evidence_text(notice: Notice, key: &evidence::SigningKey) -> Result<String, ApiError> {
    let item = serde_json::to_value(notice.sign(key)).map_err(ApiError::internal)?;
    Ok(ServerMessage::Evidence { item }.to_text())
}

/// Unix ms as an item's `server_ms`.
fn server_ms(now: fairseed_play::Millis) -> u64 {
    u64::try_from(now.0).unwrap_or(0)
}

/// A message id this connection saw with another message.
fn reused(id: &str) -> ApiError {
    ApiError::conflict(
        ErrorCode::IDEMPOTENCY_MISMATCH,
        format!("id '{id}' was already used for a different message"),
    )
}
