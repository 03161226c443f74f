//! A live hold'em table's WebSocket as a test client sees it: connect and
//! say hello, send, read the next message, read until one holds.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// One connection to a table's WebSocket.
pub struct Ws(WebSocket<MaybeTlsStream<TcpStream>>);

impl Ws {
    /// Connects to `table` on `addr` and sends `hello`.
    pub fn connect(addr: &str, table: &str, hello: &Value) -> Ws {
        let url = format!("ws://{addr}/v1/holdem/tables/{table}/ws");
        let (mut socket, _) = tungstenite::connect(url).expect("WebSocket handshake");
        if let MaybeTlsStream::Plain(tcp) = socket.get_mut() {
            tcp.set_read_timeout(Some(Duration::from_secs(30)))
                .expect("read timeout");
        }
        let mut ws = Ws(socket);
        ws.send(hello);
        ws
    }

    /// Sends `message`.
    pub fn send(&mut self, message: &Value) {
        self.0
            .send(Message::text(message.to_string()))
            .expect("send");
    }

    /// The next message; panics on an `error` that answers no message of
    /// the test's (one without an id).
    pub fn next(&mut self) -> Value {
        loop {
            if let Message::Text(text) = self.0.read().expect("a message") {
                let m: Value = serde_json::from_str(&text).expect("JSON");
                assert!(m["type"] != "error" || !m["id"].is_null(), "{m}");
                return m;
            }
        }
    }

    /// Reads until `want` holds; panics after 60 s.
    pub fn until(&mut self, what: &str, mut want: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            let m = self.next();
            if want(&m) {
                return m;
            }
        }
    }
}
