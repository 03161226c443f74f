//! Live events: one in-process broadcast of state messages, filtered per
//! subscriber so nobody receives another player's cards.
//!
//! Events are per process: with several processes on one database, a
//! client subscribes to the process it plays through (or polls the logs).

use serde_json::Value;
use tokio::sync::broadcast;

/// Events kept for slow subscribers before they miss some.
const BUFFER: usize = 1024;

/// Who may receive an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Everyone subscribed to the topic.
    All,
    /// One player only (their cards, their bets).
    Player(i64),
    /// The operator only (e.g. a table-game deal, which holds every hand).
    Operator,
}

/// One event on a topic (`poker:<table>`, `match:<id>`, `selfpoker:<id>`, `dice`).
#[derive(Debug, Clone)]
pub struct Event {
    /// The topic.
    pub topic: String,
    /// Who may see it.
    pub audience: Audience,
    /// The message (always carries what the caller may see, never a secret).
    pub body: Value,
}

/// The broadcast hub.
#[derive(Debug, Clone)]
pub struct Hub {
    tx: broadcast::Sender<Event>,
}

impl Default for Hub {
    fn default() -> Self {
        Self {
            tx: broadcast::channel(BUFFER).0,
        }
    }
}

impl Hub {
    /// Publishes an event (no subscriber is fine).
    pub fn publish(&self, topic: impl Into<String>, audience: Audience, body: Value) {
        let _ = self.tx.send(Event {
            topic: topic.into(),
            audience,
            body,
        });
    }

    /// A new subscription.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.tx.subscribe()
    }
}

/// Whether `viewer` (a player id, or `None` for the operator) may see `event`.
pub fn visible(event: &Event, topic: &str, viewer: Option<i64>) -> bool {
    event.topic == topic
        && match (event.audience, viewer) {
            (Audience::All, _) => true,
            (Audience::Player(p), Some(v)) => p == v,
            (Audience::Operator, None) => true,
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filtering() {
        let e = |audience| Event {
            topic: "poker:t1".into(),
            audience,
            body: Value::Null,
        };
        assert!(visible(&e(Audience::All), "poker:t1", Some(1)));
        assert!(!visible(&e(Audience::All), "poker:t2", Some(1)));
        assert!(visible(&e(Audience::Player(1)), "poker:t1", Some(1)));
        assert!(!visible(&e(Audience::Player(1)), "poker:t1", Some(2)));
        assert!(
            !visible(&e(Audience::Player(1)), "poker:t1", None),
            "not even the operator"
        );
        assert!(visible(&e(Audience::Operator), "poker:t1", None));
        assert!(!visible(&e(Audience::Operator), "poker:t1", Some(1)));
    }
}
