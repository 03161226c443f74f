//! A live-event subscriber over TCP: `GET /v1/events?topic=…` read on a
//! thread of its own, every Server-Sent Event kept with the moment it was
//! read, so a test can show what a stream carried and when.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One event as read: when, its `event:` name and its `data:` text.
#[derive(Debug, Clone)]
pub struct Received {
    pub at: Instant,
    pub event: String,
    pub data: String,
}

/// A running subscription; reading stops when it is dropped or the server
/// closes the stream.
pub struct Subscription {
    pub topic: String,
    received: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
}

impl Subscription {
    /// Subscribes `token` to `topic` on the server at `addr`; returns once
    /// the server has answered `200 text/event-stream`, so no event
    /// published afterwards is missed.
    pub fn start(addr: &str, token: &str, topic: &str) -> Self {
        let mut stream = TcpStream::connect(addr).expect("connect for events");
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .expect("timeout");
        let req = format!(
            "GET /v1/events?topic={topic} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
        );
        stream.write_all(req.as_bytes()).expect("send subscribe");
        let mut reader = BufReader::new(stream);
        let mut head = String::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !head.ends_with("\r\n\r\n") {
            assert!(Instant::now() < deadline, "no answer to subscribe: {head}");
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) => panic!("closed before the events began: {head}"),
                Ok(_) => head.push_str(&line),
                Err(_) => continue,
            }
        }
        assert!(
            head.starts_with("HTTP/1.1 200"),
            "subscribe {topic}: {head}"
        );
        assert!(head.contains("text/event-stream"), "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("transfer-encoding: chunked"),
            "{head}"
        );
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        {
            let (received, stop) = (Arc::clone(&received), Arc::clone(&stop));
            std::thread::spawn(move || pump(reader, &received, &stop));
        }
        Self {
            topic: topic.to_owned(),
            received,
            stop,
        }
    }

    /// Every event read so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Reads the chunked body, splits it into SSE blocks, keeps each event.
fn pump(mut reader: BufReader<TcpStream>, received: &Mutex<Vec<Received>>, stop: &AtomicBool) {
    let mut raw: Vec<u8> = Vec::new();
    let mut text = String::new();
    let mut buf = [0u8; 8192];
    while !stop.load(Ordering::Relaxed) {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            Err(_) => break,
        }
        // De-chunk whatever whole chunks arrived.
        while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
            let Ok(size) = usize::from_str_radix(String::from_utf8_lossy(&raw[..end]).trim(), 16)
            else {
                return;
            };
            if raw.len() < end + 2 + size + 2 {
                break;
            }
            text.push_str(&String::from_utf8_lossy(&raw[end + 2..end + 2 + size]));
            raw.drain(..end + 2 + size + 2);
            if size == 0 {
                return;
            }
        }
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let field = |name: &str| {
                block
                    .lines()
                    .filter_map(|l| l.strip_prefix(name))
                    .map(|v| v.strip_prefix(' ').unwrap_or(v))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let data = field("data:");
            if data.is_empty() {
                continue; // a keep-alive comment
            }
            if let Ok(mut r) = received.lock() {
                r.push(Received {
                    at: Instant::now(),
                    event: field("event:"),
                    data,
                });
            }
        }
    }
}
