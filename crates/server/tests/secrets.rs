//! No early secret, through the real binary (issue 3): a scripted session
//! of every flow the service has captures every response (status line,
//! headers and body) and every line the process prints on stdout and
//! stderr at `RUST_LOG=trace`; afterwards every pair is rotated, so every
//! server seed the session used is known, and
//! - no seed appears in any response received before the one revealing it,
//! - no seed appears in any log line, ever,
//! - a copy of the data directory without the key file, taken while the
//!   seeds were still unrevealed, holds none of them, neither as hex nor as
//!   raw bytes — while the same scan does find the seeds once revealed,
//! - the key file is mode 0600 and the data directory 0700.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use common::http::{Answer, Client};
use common::ledger::all_pages;
use common::server::{dump, Options, Server};
use common::{new_player, OPERATOR_KEY};
use serde_json::{json, Value};

/// Every answer of the session, with the moment it was read.
#[derive(Default)]
struct Transcript(Vec<(Instant, String)>);

impl Transcript {
    fn keep(&mut self, what: &str, a: &Answer) -> Value {
        let headers: Vec<String> = a.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        self.0.push((
            Instant::now(),
            format!("{what} -> {}\n{}\n{}", a.status, headers.join("\n"), a.body),
        ));
        serde_json::from_str(&a.body).unwrap_or(Value::Null)
    }

    /// When the last kept answer was read: a seed revealed by it may
    /// appear from that answer on.
    fn last_at(&self) -> Instant {
        self.0
            .last()
            .map(|(at, _)| *at)
            .expect("an answer was kept")
    }
}

/// Every file of `dir` but the seed key, concatenated.
fn database_copy(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir).expect("data dir") {
        let path = entry.expect("entry").path();
        if path.file_name().is_some_and(|n| n == "seed.key") || !path.is_file() {
            continue;
        }
        bytes.extend(std::fs::read(&path).expect("read a database file"));
    }
    bytes
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The seed as hex (lower and upper case) and as its 32 raw bytes.
fn forms(seed: &str) -> Vec<Vec<u8>> {
    vec![
        seed.as_bytes().to_vec(),
        seed.to_ascii_uppercase().into_bytes(),
        hex::decode(seed).expect("seed hex"),
    ]
}

/// A table-game match run by the operator up to its first deal; returns
/// its id. Every answer is kept.
fn open_match(c: &mut Client, t: &mut Transcript, game: &str) -> Option<String> {
    let body = json!({"game": game}).to_string();
    let a = c
        .send("POST", "/v1/matches", Some(OPERATOR_KEY), &[], Some(&body))
        .expect("match");
    if a.status == 404 || a.status == 405 {
        return None; // the service has no table games yet
    }
    assert_eq!(a.status, 201, "{}", a.body);
    let m = t.keep("open match", &a);
    let id = m["match_id"].as_str().expect("match_id").to_owned();
    let players = m["players"].as_array().expect("players").len();
    for i in 0..players {
        let body = json!({"index": i, "client_seed": format!("seat {i} of {id}"), "commitment": m["commitment"]}).to_string();
        let path = format!("/v1/matches/{id}/client-seeds");
        let a = c
            .send("POST", &path, Some(OPERATOR_KEY), &[], Some(&body))
            .expect("client seed");
        assert_eq!(a.status, 200, "{}", a.body);
        t.keep("match client seed", &a);
    }
    let a = c
        .send(
            "POST",
            &format!("/v1/matches/{id}/start"),
            Some(OPERATOR_KEY),
            &[],
            None,
        )
        .expect("start");
    assert_eq!(a.status, 200, "{}", a.body);
    t.keep("start", &a);
    let step = if game == "backgammon" {
        "opening"
    } else {
        "deal"
    };
    let body = json!({"step": step}).to_string();
    let a = c
        .send(
            "POST",
            &format!("/v1/matches/{id}/draws"),
            Some(OPERATOR_KEY),
            &[],
            Some(&body),
        )
        .expect("draw");
    assert_eq!(a.status, 200, "{}", a.body);
    t.keep("draw", &a);
    for path in [
        format!("/v1/matches/{id}"),
        format!("/v1/matches/{id}/draws"),
    ] {
        t.keep(
            &path,
            &c.send("GET", &path, Some(OPERATOR_KEY), &[], None)
                .expect("get match"),
        );
    }
    Some(id)
}

/// Finishes a match; returns its revealed seed.
fn finish_match(c: &mut Client, t: &mut Transcript, id: &str) -> String {
    let a = c
        .send(
            "POST",
            &format!("/v1/matches/{id}/finish"),
            Some(OPERATOR_KEY),
            &[],
            None,
        )
        .expect("finish");
    assert_eq!(a.status, 200, "{}", a.body);
    let v = t.keep("finish match", &a);
    let record = &v["record"]["record"];
    assert!(fairseed_core::verify_value(record).valid, "{record}");
    v["match"]["server_seed"]
        .as_str()
        .expect("server_seed")
        .to_owned()
}

/// A selfpoker hand advanced `stages` times; returns its id.
fn open_hand(c: &mut Client, t: &mut Transcript, token: &str, stages: usize) -> Option<String> {
    let a = c
        .send(
            "POST",
            "/v1/selfpoker/hands",
            Some(token),
            &[],
            Some(r#"{"players": 4}"#),
        )
        .expect("hand");
    if a.status == 404 || a.status == 405 {
        return None;
    }
    assert_eq!(a.status, 201, "{}", a.body);
    let id = t.keep("new hand", &a)["hand_id"]
        .as_str()
        .expect("hand_id")
        .to_owned();
    for _ in 0..stages {
        let a = c
            .send(
                "POST",
                &format!("/v1/selfpoker/hands/{id}/next"),
                Some(token),
                &[],
                None,
            )
            .expect("next");
        assert_eq!(a.status, 200, "{}", a.body);
        t.keep("next", &a);
        let path = format!("/v1/selfpoker/hands/{id}");
        t.keep(
            &path,
            &c.send("GET", &path, Some(token), &[], None)
                .expect("get hand"),
        );
    }
    Some(id)
}

/// Plays a hand to `hand_end`; returns its seed (decimal).
fn finish_hand(c: &mut Client, t: &mut Transcript, token: &str, id: &str) -> String {
    loop {
        let a = c
            .send(
                "POST",
                &format!("/v1/selfpoker/hands/{id}/next"),
                Some(token),
                &[],
                None,
            )
            .expect("next");
        assert_eq!(a.status, 200, "{}", a.body);
        let v = t.keep("next", &a);
        if v["type"] == "hand_end" {
            let seed = &v["seed"];
            return seed
                .as_u64()
                .map(|n| n.to_string())
                .or_else(|| seed.as_str().map(String::from))
                .expect("seed");
        }
    }
}

/// The forms a selfpoker seed could be stored in: decimal, hex, 8 bytes.
fn selfpoker_forms(seed: &str) -> Vec<Vec<u8>> {
    let n: u64 = seed.parse().expect("decimal seed");
    vec![
        seed.as_bytes().to_vec(),
        format!("{n:x}").into_bytes(),
        format!("{n:016x}").into_bytes(),
        n.to_le_bytes().to_vec(),
        n.to_be_bytes().to_vec(),
    ]
}

/// One player's part of the session: every dice endpoint, good and bad input.
fn session_step(c: &mut Client, t: &mut Transcript, token: &str, p: usize, round: usize) {
    let pair = t.keep(
        "seeds",
        &c.send("GET", "/v1/seeds", Some(token), &[], None)
            .expect("seeds"),
    );
    if round % 2 == 1 {
        let body = json!({"client_seed": format!("player {p} round {round}"), "commitment": pair["commitment"]}).to_string();
        let a = c
            .send("PUT", "/v1/seeds/client", Some(token), &[], Some(&body))
            .expect("client seed");
        // Settable only before the pair's first bet.
        let fresh = pair["next_nonce"] == json!(0);
        assert_eq!(a.status, if fresh { 200 } else { 409 }, "{}", a.body);
        t.keep("set client seed", &a);
        let wrong = json!({"client_seed": "x", "commitment": "0".repeat(64)}).to_string();
        t.keep(
            "wrong commitment",
            &c.send("PUT", "/v1/seeds/client", Some(token), &[], Some(&wrong))
                .expect("put"),
        );
    }
    for i in 0..4 {
        let body = common::load::bet_body(p, i + round * 10);
        let key = format!("s{round}-{i}");
        let a = c
            .send(
                "POST",
                "/v1/dice/bets",
                Some(token),
                &[("Idempotency-Key", &key)],
                Some(&body),
            )
            .expect("bet");
        assert_eq!(a.status, 200, "{}", a.body);
        t.keep("bet", &a);
        t.keep(
            "replay",
            &c.send(
                "POST",
                "/v1/dice/bets",
                Some(token),
                &[("Idempotency-Key", &key)],
                Some(&body),
            )
            .expect("replay"),
        );
    }
    let late = json!({"client_seed": "too late", "commitment": pair["commitment"]}).to_string();
    t.keep(
        "locked client seed",
        &c.send("PUT", "/v1/seeds/client", Some(token), &[], Some(&late))
            .expect("put"),
    );
    for (body, what) in [
        (
            r#"{"amount": 1, "condition": "under", "target": 0}"#,
            "chance 0",
        ),
        (
            r#"{"amount": 99999999999, "condition": "under", "target": 50}"#,
            "too poor",
        ),
        (
            r#"{"amount": 1, "condition": "sideways", "target": 50}"#,
            "bad condition",
        ),
        (r#"{"amount": 1}"#, "missing fields"),
    ] {
        t.keep(
            what,
            &c.send(
                "POST",
                "/v1/dice/bets",
                Some(token),
                &[("Idempotency-Key", &format!("bad-{round}-{what}"))],
                Some(body),
            )
            .expect("bad bet"),
        );
    }
    for path in [
        "/v1/me",
        "/v1/seeds",
        "/v1/dice/bets?limit=500",
        "/v1/seeds/revealed",
        "/v1/records",
        "/v1/records/export",
        "/v1/records/999999",
        "/healthz",
    ] {
        t.keep(
            path,
            &c.send("GET", path, Some(token), &[], None).expect(path),
        );
    }
}

#[test]
fn no_seed_before_its_reveal_anywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let mut opts = Options::new(&data);
    opts.log = "trace";
    let mut server = Server::start(&opts);
    let mut c = Client::new(&server.addr);
    let mut t = Transcript::default();
    t.keep(
        "openapi",
        &c.send("GET", "/v1/openapi.json", None, &[], None)
            .expect("openapi"),
    );
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let a = c
            .send("POST", "/v1/players", None, &[], None)
            .expect("player");
        let created = t.keep("new player", &a);
        tokens.push(created["token"].as_str().expect("token").to_owned());
    }
    // Seed -> when the answer revealing it was read.
    let mut revealed_at: HashMap<String, Instant> = HashMap::new();
    let mut record_ids: Vec<(usize, i64)> = Vec::new();
    for round in 0..3 {
        for (p, token) in tokens.iter().enumerate() {
            session_step(&mut c, &mut t, token, p, round);
            if (round + p) % 2 == 0 {
                let a = c
                    .send("POST", "/v1/seeds/rotate", Some(token), &[], None)
                    .expect("rotate");
                assert_eq!(a.status, 200, "{}", a.body);
                let v = t.keep("rotate", &a);
                let seed = v["revealed"]["server_seed"]
                    .as_str()
                    .expect("seed")
                    .to_owned();
                revealed_at.insert(seed, t.last_at());
                for r in v["records"].as_array().expect("records") {
                    record_ids.push((p, r["id"].as_i64().expect("id")));
                }
            }
        }
    }
    for (p, id) in &record_ids {
        let path = format!("/v1/records/{id}");
        let mine = c
            .send("GET", &path, Some(&tokens[*p]), &[], None)
            .expect("record");
        assert_eq!(mine.status, 200, "{}", mine.body);
        t.keep("own record", &mine);
        let other = c
            .send("GET", &path, Some(&tokens[(p + 1) % 3]), &[], None)
            .expect("record");
        assert_eq!(
            other.status, 404,
            "someone else's record is not found: {}",
            other.body
        );
        t.keep("other's record", &other);
    }
    // A player created but never shown anything but the commitment.
    let quiet = new_player(&mut c);
    // Table games and selfpoker: some played to the end now, some left
    // open across the database copy below.
    let mut non_dice = 0;
    let mut pending_matches = Vec::new();
    for game in ["tarneeb", "backgammon"] {
        if let Some(id) = open_match(&mut c, &mut t, game) {
            let seed = finish_match(&mut c, &mut t, &id);
            revealed_at.insert(seed, t.last_at());
            non_dice += 1;
            pending_matches.extend(open_match(&mut c, &mut t, game));
        }
    }
    let mut pending_hands = Vec::new();
    for token in &tokens {
        if let Some(id) = open_hand(&mut c, &mut t, token, 1) {
            let seed = finish_hand(&mut c, &mut t, token, &id);
            revealed_at.insert(seed, t.last_at());
            non_dice += 1;
            pending_hands.extend(open_hand(&mut c, &mut t, token, 2).map(|h| (token.clone(), h)));
        }
    }

    // The database as an attacker would copy it, seeds still unrevealed.
    let copy_before = database_copy(&data);
    tokens.push(quiet);
    let mut finals: Vec<String> = Vec::new();
    for token in &tokens {
        let a = c
            .send("POST", "/v1/seeds/rotate", Some(token), &[], None)
            .expect("rotate");
        let v = t.keep("final rotate", &a);
        let seed = v["revealed"]["server_seed"]
            .as_str()
            .expect("seed")
            .to_owned();
        revealed_at.insert(seed.clone(), t.last_at());
        finals.push(seed);
    }
    let mut pending_forms: Vec<Vec<u8>> = Vec::new();
    for id in &pending_matches {
        let seed = finish_match(&mut c, &mut t, id);
        revealed_at.insert(seed.clone(), t.last_at());
        pending_forms.extend(forms(&seed));
        non_dice += 1;
        finals.push(seed);
    }
    for (token, id) in &pending_hands {
        let seed = finish_hand(&mut c, &mut t, token, id);
        revealed_at.insert(seed.clone(), t.last_at());
        pending_forms.extend(selfpoker_forms(&seed));
        non_dice += 1;
    }
    eprintln!(
        "{} seeds revealed in the session; {} matches and {} selfpoker hands open across the database copy",
        revealed_at.len(),
        pending_matches.len(),
        pending_hands.len()
    );
    // Every pair the session used is now revealed and listed.
    let mut listed = 0;
    for token in &tokens {
        for pair in all_pages(&mut c, token, "/v1/seeds/revealed", "pairs") {
            let seed = pair["server_seed"].as_str().expect("seed");
            assert!(
                revealed_at.contains_key(seed),
                "every revealed pair was revealed by a rotation we saw"
            );
            listed += 1;
        }
    }
    assert_eq!(listed + non_dice, revealed_at.len());
    assert!(listed >= 9, "the session used {listed} pairs");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let logs = server.lines();
    assert!(server.alive());
    assert!(
        logs.len() > 50 && logs.iter().any(|(_, l)| l.contains("/v1/dice/bets")),
        "the log capture works at trace level:\n{}",
        dump(&logs)
    );

    for (seed, at) in &revealed_at {
        for (when, text) in &t.0 {
            if when < at {
                assert!(
                    !text.contains(seed.as_str()),
                    "seed leaked before its reveal in: {text}"
                );
            }
        }
        for (_, line) in &logs {
            assert!(
                !line.contains(seed.as_str()),
                "a server seed reached the log: {line}"
            );
        }
    }
    for form in pending_forms
        .iter()
        .cloned()
        .chain(finals.iter().flat_map(|s| forms(s)))
    {
        assert!(
            !contains(&copy_before, &form),
            "an unrevealed seed is readable in the database copy"
        );
    }
    // The same scan finds seeds once they are revealed (the scan can fail).
    drop(server);
    let copy_after = database_copy(&data);
    assert!(
        finals.iter().all(|s| contains(&copy_after, s.as_bytes())),
        "revealed seeds are in the database in clear, so the scan above looks in the right place"
    );

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
        assert_eq!(mode(&data.join("seed.key")), 0o600, "seed.key is private");
        assert_eq!(mode(&data), 0o700, "the data dir is private");
        let key = std::fs::read(data.join("seed.key")).expect("key");
        assert!(
            !contains(&copy_before, &key),
            "the key is not inside the database"
        );
    }
}
