//! A tiny blocking HTTP/1.1 client over `TcpStream`, with keep-alive, so
//! the reliability tests drive the real binary the way a player's client
//! does, without an HTTP client dev-dependency.
//!
//! It reads exactly one response per request (Content-Length or chunked),
//! which lets a connection carry many bets: a load thread then measures the
//! server, not the cost of `connect`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

/// One HTTP answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The body as JSON; panics with the body when it is not JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): status {} {}", self.status, self.body))
    }

    /// A header's value by lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A keep-alive connection to one server; reconnects lazily after a close.
pub struct Client {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Client {
    pub fn new(addr: &str) -> Self {
        Self {
            addr: addr.to_owned(),
            conn: None,
        }
    }

    /// Sends one request and reads its answer. `Err` means no answer was
    /// read (refused, reset, timed out): the caller cannot know whether the
    /// server acted, so the connection is dropped and never silently retried.
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> std::io::Result<Answer> {
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        if let Some(token) = token {
            req.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = body.unwrap_or("");
        if !body.is_empty()
            && !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            req.push_str("Content-Type: application/json\r\n");
        }
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        let result = self.exchange(req.as_bytes());
        if result.is_err() {
            self.conn = None;
        }
        result
    }

    /// Sends a request with a JSON body (if any) and returns the answer's
    /// JSON; panics on no answer or a status other than 2xx.
    pub fn ok(&mut self, method: &str, path: &str, token: &str, body: Option<&Value>) -> Value {
        let body = body.map(Value::to_string);
        let a = self
            .send(method, path, Some(token), &[], body.as_deref())
            .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"));
        assert!(
            (200..300).contains(&a.status),
            "{method} {path}: {} {}",
            a.status,
            a.body
        );
        a.json()
    }

    fn exchange(&mut self, request: &[u8]) -> std::io::Result<Answer> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(&self.addr)?;
            stream.set_read_timeout(Some(Duration::from_secs(20)))?;
            stream.set_nodelay(true)?;
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut().expect("connected above");
        conn.get_mut().write_all(request)?;
        let answer = read_answer(conn)?;
        let close = answer
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        if close {
            self.conn = None;
        }
        Ok(answer)
    }
}

/// Sends `request` bytes as they are on a fresh connection and reads one
/// answer (for malformed requests a client library would refuse to send).
/// `Ok(None)` when the server closed without answering.
pub fn raw_exchange(addr: &str, request: &[u8]) -> std::io::Result<Option<Answer>> {
    let stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut conn = BufReader::new(stream);
    // The server may answer (and close) before reading everything we send.
    if conn.get_mut().write_all(request).is_err() {
        return Ok(read_answer(&mut conn).ok());
    }
    match read_answer(&mut conn) {
        Ok(a) => Ok(Some(a)),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => Ok(None),
        Err(e) => Err(e),
    }
}

fn bad(msg: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, msg.to_owned())
}

fn read_answer(conn: &mut BufReader<TcpStream>) -> std::io::Result<Answer> {
    let mut line = String::new();
    if conn.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "closed before the status line",
        ));
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status code"))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        if conn.read_line(&mut line)? == 0 {
            return Err(bad("closed inside the headers"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (k, v) = l.split_once(':').ok_or_else(|| bad("header without ':'"))?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
    }
    let find = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let mut raw = Vec::new();
    if find("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim(), 16).map_err(|_| bad("chunk size"))?;
            let mut chunk = vec![0; size + 2];
            conn.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            raw.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(len) = find("content-length") {
        let len: usize = len.parse().map_err(|_| bad("content-length"))?;
        raw.resize(len, 0);
        conn.read_exact(&mut raw)?;
    } else {
        conn.read_to_end(&mut raw)?;
    }
    Ok(Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&raw).into_owned(),
    })
}
