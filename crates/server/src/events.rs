//! Live events: one broadcast channel per topic, each subscriber filtering
//! only its topic's events by audience, so nobody receives another player's
//! cards and no subscriber wakes for another topic.
//!
//! On PostgreSQL every event also crosses processes: [`Hub::connect`] relays
//! what this process publishes to the database's event feed and delivers
//! what the others publish, so a player subscribed through one server sees
//! what happened through another. Each process tags its events with a
//! random origin and skips its own when they come back.
//!
//! Streams are capped by one rule for SSE and WebSocket alike
//! ([`Hub::open_stream`]): per caller ([`MAX_STREAMS_PER_CALLER`] for a
//! token or the operator key, [`MAX_STREAMS_PER_ADDRESS`] for spectators
//! without one, keyed by their address) and per topic
//! ([`MAX_STREAMS_PER_TOPIC`]). A stream opened with a token ends within a
//! second once the token is revoked or rotated ([`Hub::revoke_token`]), in
//! every process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use fairseed_store::{Store, StoreResult};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, watch};

use crate::token_cache::TokenCache;

/// Events kept per topic for a slow subscriber before it misses some.
const BUFFER: usize = 512;

/// The most live events sent to the other processes in one transaction.
const OUTBOX_BATCH: usize = 256;

/// Open event streams one caller (a player's token, or the operator) may hold.
pub const MAX_STREAMS_PER_CALLER: usize = 8;

/// Open streams one address may hold without a token (spectators: many
/// people may share one address behind a NAT).
pub const MAX_STREAMS_PER_ADDRESS: usize = 256;

/// Open streams one topic (one table, one match) may have, every caller
/// together.
pub const MAX_STREAMS_PER_TOPIC: usize = 1024;

/// The topic on which a revoked token's hash crosses processes.
const REVOKED_TOPIC: &str = "internal:token_revoked";

/// Who holds a stream, for its cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamCaller {
    /// A player, by id.
    Player(i64),
    /// The operator.
    Operator,
    /// No token: a spectator, keyed by its address (`None`: in process).
    Address(Option<std::net::IpAddr>),
}

impl StreamCaller {
    fn key(&self) -> String {
        match self {
            Self::Player(id) => format!("player:{id}"),
            Self::Operator => "operator".to_owned(),
            Self::Address(Some(ip)) => format!("address:{}", crate::ratelimit::address_key(*ip)),
            Self::Address(None) => "address:local".to_owned(),
        }
    }

    fn cap(&self) -> usize {
        match self {
            Self::Address(_) => MAX_STREAMS_PER_ADDRESS,
            _ => MAX_STREAMS_PER_CALLER,
        }
    }
}

/// Why a stream was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamRefusal {
    /// The caller holds its most.
    Caller(usize),
    /// The topic has its most.
    Topic(usize),
}

impl StreamRefusal {
    /// The refusal as the API answers it (`429 too_many_streams`).
    pub fn error(self) -> crate::error::ApiError {
        let message = match self {
            Self::Caller(n) => {
                format!("at most {n} live streams may be open at once per caller; close one first")
            }
            Self::Topic(n) => {
                format!("this table or topic has its most live streams ({n}); try later")
            }
        };
        crate::error::ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            crate::error::ErrorCode::TooManyStreams,
            message,
        )
    }
}

/// Who may receive an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone subscribed to the topic.
    All,
    /// One player only (their cards, their bets).
    Player(i64),
    /// The operator only (e.g. a table-game deal, which holds every hand).
    Operator,
}

/// One event on a topic (`poker:<table>`, `match:<id>`, `selfpoker:<id>`, `dice`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    /// The topic.
    pub topic: String,
    /// Who may see it.
    pub audience: Audience,
    /// The message (always carries what the caller may see, never a secret).
    pub body: Value,
}

/// An event as it travels between processes.
#[derive(Serialize, Deserialize)]
struct Envelope {
    origin: String,
    #[serde(flatten)]
    event: Event,
}

/// The hub: per-topic channels, stream counts, and the relay to other
/// processes once connected. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Hub {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    topics: Mutex<Topics>,
    /// Open streams per caller key and per topic (`topic:` prefixed).
    streams: Mutex<HashMap<String, usize>>,
    /// A sender per token hash some stream was opened with: `true` once revoked.
    tokens: Mutex<HashMap<String, watch::Sender<bool>>>,
    /// Token hashes → player ids; a revocation forgets its token here too.
    players: TokenCache,
    /// Events for other processes, sent in publish order (PostgreSQL only).
    outbox: OnceLock<mpsc::UnboundedSender<String>>,
    /// This process's tag on the events it relays.
    origin: OnceLock<String>,
}

#[derive(Debug, Default)]
struct Topics {
    senders: HashMap<String, broadcast::Sender<Event>>,
    /// Topics without subscribers are swept when the map reaches this size.
    sweep_at: usize,
}

/// The open-stream slot of one caller on one topic; given back when dropped.
#[derive(Debug)]
pub struct StreamSlot {
    hub: Hub,
    keys: [String; 2],
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut streams = lock(&self.hub.inner.streams);
        for key in &self.keys {
            if let Some(n) = streams.get_mut(key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    streams.remove(key);
                }
            }
        }
    }
}

/// A poisoned lock still holds consistent maps (no code panics while
/// holding one), so it is used as is.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    /// Whether an event of `topic` would reach anyone: a subscriber here,
    /// or other processes. A hot path (every dice bet) asks first and skips
    /// building an event no one would read.
    pub fn wanted(&self, topic: &str) -> bool {
        self.inner.outbox.get().is_some()
            || lock(&self.inner.topics)
                .senders
                .get(topic)
                .is_some_and(|tx| tx.receiver_count() > 0)
    }

    /// Publishes an event to this process's subscribers of `topic` and,
    /// when connected, to every other process (no subscriber is fine).
    pub fn publish(&self, topic: impl Into<String>, audience: Audience, body: Value) {
        let event = Event {
            topic: topic.into(),
            audience,
            body,
        };
        if let (Some(outbox), Some(origin)) = (self.inner.outbox.get(), self.inner.origin.get()) {
            let envelope = Envelope {
                origin: origin.clone(),
                event: event.clone(),
            };
            if let Ok(text) = serde_json::to_string(&envelope) {
                let _ = outbox.send(text);
            }
        }
        self.deliver(event);
    }

    /// Hands an event to this process's subscribers of its topic.
    fn deliver(&self, event: Event) {
        if event.topic == REVOKED_TOPIC {
            if let Some(hash) = event.body["token_hash"].as_str() {
                self.revoke_here(hash);
            }
            return;
        }
        let mut topics = lock(&self.inner.topics);
        if let Some(tx) = topics.senders.get(&event.topic) {
            let topic = event.topic.clone();
            if tx.send(event).is_err() {
                topics.senders.remove(&topic);
            }
        }
    }

    /// Takes one of `caller`'s stream slots on `topic`, or says which cap
    /// is reached.
    ///
    /// # Errors
    /// The caller's cap or the topic's.
    pub fn open_stream(
        &self,
        caller: &StreamCaller,
        topic: &str,
    ) -> Result<StreamSlot, StreamRefusal> {
        let mut streams = lock(&self.inner.streams);
        let keys = [caller.key(), format!("topic:{topic}")];
        let held = |key: &str| streams.get(key).copied().unwrap_or(0);
        if held(&keys[0]) >= caller.cap() {
            return Err(StreamRefusal::Caller(caller.cap()));
        }
        if held(&keys[1]) >= MAX_STREAMS_PER_TOPIC {
            return Err(StreamRefusal::Topic(MAX_STREAMS_PER_TOPIC));
        }
        for key in &keys {
            *streams.entry(key.clone()).or_insert(0) += 1;
        }
        Ok(StreamSlot {
            hub: self.clone(),
            keys,
        })
    }

    /// Turns `true` when the token hashing to `token_hash` is revoked or
    /// rotated away, here or in another process.
    pub fn token_watch(&self, token_hash: &str) -> watch::Receiver<bool> {
        let mut tokens = lock(&self.inner.tokens);
        if tokens.len() >= 1024 {
            tokens.retain(|_, tx| tx.receiver_count() > 0);
        }
        tokens
            .entry(token_hash.to_owned())
            .or_insert_with(|| watch::channel(false).0)
            .subscribe()
    }

    /// The players of the tokens seen lately, which every revocation this
    /// hub hears of (from any process) forgets.
    pub(crate) fn players(&self) -> &TokenCache {
        &self.inner.players
    }

    /// Ends every stream opened with the token hashing to `token_hash`, and
    /// forgets its player, in this process and (when connected) every other.
    pub fn revoke_token(&self, token_hash: &str) {
        self.publish(
            REVOKED_TOPIC,
            Audience::Operator,
            serde_json::json!({ "token_hash": token_hash }),
        );
    }

    fn revoke_here(&self, token_hash: &str) {
        self.inner.players.forget(token_hash);
        if let Some(tx) = lock(&self.inner.tokens).remove(token_hash) {
            let _ = tx.send(true);
        }
    }

    /// A new subscription to one topic.
    pub fn subscribe(&self, topic: &str) -> broadcast::Receiver<Event> {
        let mut topics = lock(&self.inner.topics);
        if topics.senders.len() >= topics.sweep_at {
            topics.senders.retain(|_, tx| tx.receiver_count() > 0);
            topics.sweep_at = (topics.senders.len() * 2).max(64);
        }
        topics
            .senders
            .entry(topic.to_owned())
            .or_insert_with(|| broadcast::channel(BUFFER).0)
            .subscribe()
    }

    /// Relays events through `store` when other processes can share its
    /// database (PostgreSQL); nothing on SQLite. Returns once listening, so
    /// every event another process publishes afterwards arrives here.
    ///
    /// # Errors
    /// The database refused to listen.
    pub async fn connect(&self, store: Arc<dyn Store>) -> StoreResult<()> {
        let Some(mut feed) = store.event_feed().await? else {
            return Ok(());
        };
        let origin = self.inner.origin.get_or_init(new_origin).clone();
        let (outbox, mut outgoing) = mpsc::unbounded_channel::<String>();
        if self.inner.outbox.set(outbox).is_err() {
            return Ok(());
        }
        let sender = Arc::clone(&store);
        tokio::spawn(async move {
            // Whatever piled up while the last batch was sent goes out
            // together, in one transaction.
            let mut batch = Vec::new();
            while outgoing.recv_many(&mut batch, OUTBOX_BATCH).await > 0 {
                if let Err(e) = sender.broadcast_events(&batch).await {
                    tracing::warn!(error = %crate::error::Chain(&e), count = batch.len(), "live events did not reach the other processes");
                }
                batch.clear();
            }
        });
        let hub = self.clone();
        let own = own_prefix(&origin);
        tokio::spawn(async move {
            while let Some(text) = feed.recv().await {
                // Every event this process sends comes back too: skipped
                // before it is parsed.
                if text.starts_with(&own) {
                    continue;
                }
                match serde_json::from_str::<Envelope>(&text) {
                    Ok(envelope) if envelope.origin != origin => hub.deliver(envelope.event),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "an unreadable live event was skipped"),
                }
            }
        });
        Ok(())
    }
}

/// How every envelope from `origin` begins: `origin` is its first field.
fn own_prefix(origin: &str) -> String {
    format!("{{\"origin\":{}", serde_json::Value::from(origin))
}

/// A random tag for this process's events.
fn new_origin() -> String {
    let mut bytes = [0u8; 8];
    // Without the OS generator the tag falls back to the process id, still
    // distinct between processes on one machine.
    if getrandom::getrandom(&mut bytes).is_err() {
        return format!("pid-{}", std::process::id());
    }
    hex::encode(bytes)
}

/// Whether `viewer` (a player id, or `None` for the operator) may see `event`.
pub fn visible(event: &Event, viewer: Option<i64>) -> bool {
    match (event.audience, viewer) {
        (Audience::All, _) => true,
        (Audience::Player(p), Some(v)) => p == v,
        (Audience::Operator, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(topic: &str, audience: Audience) -> Event {
        Event {
            topic: topic.into(),
            audience,
            body: Value::Null,
        }
    }

    #[test]
    fn filtering() {
        let e = |audience| event("poker:t1", audience);
        assert!(visible(&e(Audience::All), Some(1)));
        assert!(visible(&e(Audience::Player(1)), Some(1)));
        assert!(!visible(&e(Audience::Player(1)), Some(2)));
        assert!(
            !visible(&e(Audience::Player(1)), None),
            "not even the operator"
        );
        assert!(visible(&e(Audience::Operator), None));
        assert!(!visible(&e(Audience::Operator), Some(1)));
    }

    #[test]
    fn a_subscriber_receives_only_its_topic() {
        let hub = Hub::default();
        let mut t1 = hub.subscribe("poker:t1");
        let mut t2 = hub.subscribe("poker:t2");
        hub.publish("poker:t1", Audience::All, Value::from(1));
        hub.publish("poker:t3", Audience::All, Value::from(3));
        assert_eq!(t1.try_recv().expect("t1 event").body, Value::from(1));
        assert!(t1.try_recv().is_err(), "nothing else on t1");
        assert!(t2.try_recv().is_err(), "nothing on t2");
    }

    #[test]
    fn a_topic_is_wanted_while_someone_subscribes() {
        let hub = Hub::default();
        assert!(!hub.wanted("dice"), "no one yet");
        let dice = hub.subscribe("dice");
        assert!(hub.wanted("dice"));
        assert!(!hub.wanted("poker:t1"), "another topic");
        drop(dice);
        assert!(!hub.wanted("dice"), "the last one left");
        let (outbox, _relay) = mpsc::unbounded_channel();
        hub.inner.outbox.set(outbox).expect("first");
        assert!(hub.wanted("dice"), "other processes may subscribe");
    }

    #[test]
    fn topics_without_subscribers_are_dropped() {
        let hub = Hub::default();
        for i in 0..200 {
            drop(hub.subscribe(&format!("match:{i}")));
        }
        let _kept = hub.subscribe("match:kept");
        let topics = lock(&hub.inner.topics);
        assert!(topics.senders.len() <= 64, "{}", topics.senders.len());
        assert!(topics.senders.contains_key("match:kept"));
    }

    #[test]
    fn streams_per_caller_are_capped_and_given_back() {
        let hub = Hub::default();
        let one = StreamCaller::Player(1);
        let slots: Vec<_> = (0..MAX_STREAMS_PER_CALLER)
            .map(|i| hub.open_stream(&one, &format!("t{i}")).expect("slot"))
            .collect();
        assert_eq!(
            hub.open_stream(&one, "t9").map(|_| ()),
            Err(StreamRefusal::Caller(MAX_STREAMS_PER_CALLER)),
            "cap reached across topics"
        );
        assert!(
            hub.open_stream(&StreamCaller::Player(2), "t0").is_ok(),
            "per caller"
        );
        drop(slots);
        assert!(hub.open_stream(&one, "t0").is_ok(), "given back");
    }

    #[test]
    fn spectators_share_an_address_cap_and_a_topic_has_its_own() {
        let hub = Hub::default();
        let nat = StreamCaller::Address(Some("10.0.0.1".parse().expect("ip")));
        let slots: Vec<_> = (0..MAX_STREAMS_PER_ADDRESS)
            .map(|_| hub.open_stream(&nat, "holdem:a").expect("slot"))
            .collect();
        assert_eq!(
            hub.open_stream(&nat, "holdem:b").map(|_| ()),
            Err(StreamRefusal::Caller(MAX_STREAMS_PER_ADDRESS))
        );
        let mut more = Vec::new();
        for i in 0.. {
            let caller = StreamCaller::Player(i);
            match hub.open_stream(&caller, "holdem:a") {
                Ok(slot) => more.push(slot),
                Err(refused) => {
                    assert_eq!(refused, StreamRefusal::Topic(MAX_STREAMS_PER_TOPIC));
                    break;
                }
            }
        }
        assert_eq!(slots.len() + more.len(), MAX_STREAMS_PER_TOPIC);
        assert!(hub
            .open_stream(&StreamCaller::Player(-1), "holdem:b")
            .is_ok());
    }

    #[test]
    fn a_revoked_token_turns_its_watches() {
        let hub = Hub::default();
        let a = hub.token_watch("a");
        let b = hub.token_watch("b");
        hub.revoke_token("a");
        assert!(*a.borrow(), "revoked");
        assert!(!*b.borrow(), "another token");
        assert!(
            !*hub.token_watch("a").borrow(),
            "a new watch of a new grant"
        );
    }

    #[test]
    fn envelopes_round_trip() {
        let envelope = Envelope {
            origin: "a".into(),
            event: event("dice", Audience::Player(7)),
        };
        let text = serde_json::to_string(&envelope).expect("serialize");
        assert!(text.starts_with(&own_prefix("a")), "{text}");
        assert!(!text.starts_with(&own_prefix("b")), "{text}");
        let back: Envelope = serde_json::from_str(&text).expect("parse");
        assert_eq!(
            (back.origin.as_str(), back.event.audience),
            ("a", Audience::Player(7))
        );
        assert_eq!(back.event.topic, "dice");
    }
}
