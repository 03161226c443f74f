//! The scripted session of the no-early-secret test (`secrets.rs`): one
//! client that keeps every answer it reads, the live-event streams it
//! subscribed to, and every secret the session saw revealed with the moment
//! just before the request that revealed it. One module per flow.

pub mod chess;
pub mod dice;
pub mod games;
pub mod poker;
pub mod selfpoker;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::http::{Answer, Client};
use crate::common::matches::Seen;
use crate::common::sse::{Received, Subscription};

/// A text the session read (an answer or an event) and when.
pub type Read = (Instant, String);

/// The session against one server at a time.
pub struct Session {
    pub addr: String,
    pub c: Client,
    /// Every answer: what, status line, headers and body.
    pub answers: Vec<Read>,
    /// Live streams still open.
    subs: Vec<Subscription>,
    /// Events of streams already closed (a server restarted under them).
    closed: Vec<Received>,
    /// Secret text -> the moment before the request that revealed it.
    pub revealed_at: HashMap<String, Instant>,
    /// Secrets the session will reveal only after the database copy, with
    /// every form they could be stored in.
    pub pending_forms: Vec<Vec<u8>>,
}

impl Session {
    pub fn new(addr: &str) -> Self {
        Self {
            addr: addr.to_owned(),
            c: Client::new(addr),
            answers: Vec::new(),
            subs: Vec::new(),
            closed: Vec::new(),
            revealed_at: HashMap::new(),
            pending_forms: Vec::new(),
        }
    }

    /// Keeps an answer; returns its body as JSON (`Null` when it is not).
    pub fn keep(&mut self, what: &str, a: &Answer) -> Value {
        self.answers.push(entry(what, a));
        serde_json::from_str(&a.body).unwrap_or(Value::Null)
    }

    /// Runs a flow of `common` that takes a client and a callback for its
    /// answers: the answers are kept.
    pub fn run<R>(&mut self, flow: impl FnOnce(&mut Client, Seen<'_>) -> R) -> R {
        let Self { c, answers, .. } = self;
        flow(c, &mut |what: &str, a: &Answer| {
            answers.push(entry(what, a))
        })
    }

    /// Sends and keeps one request; `token` may be a player's or the operator's.
    pub fn send(
        &mut self,
        what: &str,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        let body = body.map(Value::to_string);
        let a = self
            .c
            .send(method, path, token, &[], body.as_deref())
            .unwrap_or_else(|e| panic!("{what}: {method} {path}: no answer: {e}"));
        self.keep(what, &a);
        a
    }

    /// Like `send`, and the answer must have `status`; returns its JSON.
    pub fn expect(
        &mut self,
        status: u16,
        what: &str,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Value {
        let a = self.send(what, method, path, token, body);
        assert_eq!(a.status, status, "{what}: {method} {path}: {}", a.body);
        a.json()
    }

    /// Opens a live stream of `topic` for `token`; its events are kept.
    pub fn subscribe(&mut self, token: &str, topic: &str) {
        self.subs
            .push(Subscription::start(&self.addr, token, topic));
    }

    /// The moment before a revealing request: first a short pause, so an
    /// event published by an earlier request is read before it, and is
    /// checked against what this request reveals.
    pub fn mark(&self) -> Instant {
        std::thread::sleep(Duration::from_millis(30));
        Instant::now()
    }

    /// Notes that `secret` was revealed by the request sent after `at`.
    pub fn revealed(&mut self, secret: &str, at: Instant) {
        self.revealed_at.entry(secret.to_owned()).or_insert(at);
    }

    /// Every event read so far, on every stream, as `(when, text)`.
    pub fn events(&self) -> Vec<Read> {
        self.closed
            .iter()
            .cloned()
            .chain(self.subs.iter().flat_map(Subscription::received))
            .map(|e| (e.at, format!("event {}: {}", e.event, e.data)))
            .collect()
    }

    /// How many events read so far contain `needle` (their text is
    /// `event <topic>: <data>`).
    pub fn events_with(&self, needle: &str) -> usize {
        self.events()
            .iter()
            .filter(|(_, t)| t.contains(needle))
            .count()
    }

    /// Points the session at a new server (after a restart): the open
    /// streams ended with the old one; what they read is kept.
    pub fn reconnect(&mut self, addr: &str) {
        std::thread::sleep(Duration::from_millis(100));
        for s in self.subs.drain(..) {
            self.closed.extend(s.received());
        }
        self.addr = addr.to_owned();
        self.c = Client::new(addr);
    }
}

/// An answer as kept: when it was read, what, status line, headers and body.
fn entry(what: &str, a: &Answer) -> Read {
    let headers: Vec<String> = a.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    (
        Instant::now(),
        format!("{what} -> {}\n{}\n{}", a.status, headers.join("\n"), a.body),
    )
}

/// A 32-byte secret (server seed, hand value) as hex, upper-case hex and raw bytes.
pub fn forms(hex_secret: &str) -> Vec<Vec<u8>> {
    vec![
        hex_secret.as_bytes().to_vec(),
        hex_secret.to_ascii_uppercase().into_bytes(),
        hex::decode(hex_secret).expect("secret hex"),
    ]
}

/// The string field `name` of `v`.
pub fn text(v: &Value, name: &str) -> String {
    v[name]
        .as_str()
        .unwrap_or_else(|| panic!("{name} is not a string in {v}"))
        .to_owned()
}
