//! No early secret, through the real binary: a scripted session
//! of every flow — dice, table games, selfpoker, chess (connection seeds,
//! seeks, challenges, bot games) and poker (sessions, hand commitments,
//! deck roots, hole cards, boards, proofs on leave, rotation when the table
//! empties and at the next start) — captures every response (status line,
//! headers, body), every live event (SSE: dice, match, selfpoker and poker
//! streams of players and operator) and every line the process prints at
//! `RUST_LOG=trace`; by the end every secret the session used is revealed,
//! so each is known, and
//! - no server seed, hand value or salt appears in any answer or event read
//!   before the request that revealed it (salts never handed out in a
//!   proof: never),
//! - none appears in any log line, ever,
//! - a copy of the data directory without the key file, taken while dice
//!   pairs, a match, a selfpoker hand, a chess game and a poker session
//!   were still unrevealed, holds none of their secrets, neither as hex nor
//!   as raw bytes — while the same scan does find them once revealed,
//! - the key file is mode 0600 and the data directory 0700.

mod common;
mod session;

use std::path::Path;

use common::ledger::all_pages;
use common::server::{dump, Options, Server};
use common::{new_player, OPERATOR_KEY};
use session::{chess, dice, forms, games, poker, selfpoker, text, Session};

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

#[test]
fn no_secret_before_its_reveal_anywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let mut opts = Options::new(&data);
    opts.log = "trace";
    let server = Server::start(&opts);
    let mut s = Session::new(&server.addr);
    s.expect(200, "openapi", "GET", "/v1/openapi.json", None, None);
    let mut tokens = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..3 {
        let created = s.expect(201, "new player", "POST", "/v1/players", None, None);
        tokens.push(text(&created, "token"));
        ids.push(created["player_id"].as_i64().expect("player_id"));
        s.subscribe(&text(&created, "token"), "dice");
    }
    let (a, b, c) = (tokens[0].clone(), tokens[1].clone(), tokens[2].clone());

    // Dice: rounds of every endpoint, rotations between them.
    let mut dice_seeds = Vec::new();
    let mut record_ids: Vec<(usize, i64)> = Vec::new();
    for round in 0..3 {
        for (p, token) in tokens.iter().enumerate() {
            dice::round(&mut s, token, p, round);
            if (round + p) % 2 == 0 {
                let v = dice::rotate(&mut s, token);
                dice_seeds.push(text(&v["revealed"], "server_seed"));
                for r in v["records"].as_array().expect("records") {
                    record_ids.push((p, r["id"].as_i64().expect("id")));
                }
            }
        }
    }
    for (p, id) in &record_ids {
        let path = format!("/v1/records/{id}");
        s.expect(200, "own record", "GET", &path, Some(&tokens[*p]), None);
        let other = &tokens[(p + 1) % 3];
        s.expect(
            404,
            "someone else's record",
            "GET",
            &path,
            Some(other),
            None,
        );
    }
    // A player created but never shown anything but the commitment.
    let quiet = new_player(&mut s.c);

    // Table games, selfpoker, chess, poker: some played to the end now,
    // some left open across the database copy below.
    for game in ["tarneeb", "backgammon"] {
        let id = games::open_with_a_draw(&mut s, game, &a);
        games::finish(&mut s, &id);
    }
    let pending_match = games::open_with_a_draw(&mut s, "baloot", &b);
    for token in &tokens {
        let (id, commit) = selfpoker::open(&mut s, token, 1);
        selfpoker::finish(&mut s, token, &id, &commit);
    }
    let pending_hand = selfpoker::open(&mut s, &c, 2);
    let chess_games = chess::pair(&mut s, &a, &b, &c, ids[2]);
    let mut chess_seeds = Vec::new();
    for (game, token) in [&chess_games[0], &chess_games[2]] {
        chess_seeds.extend(chess::finish(&mut s, game, token));
    }
    poker::play(&mut s, "felt", &[(&a, 0), (&b, 3), (&c, 7)], 2);
    for token in [&a, &b] {
        assert!(!poker::leave(&mut s, "felt", token), "others still sit");
    }
    assert!(poker::leave(&mut s, "felt", &c), "the table emptied");
    poker::play(&mut s, "rail", &[(&a, 1), (&b, 2)], 1);

    // The database as an attacker would copy it, secrets still unrevealed.
    let copy_before = database_copy(&data);
    let mut clear: Vec<String> = Vec::new();

    // A restart rotates the open poker session.
    assert!(
        s.events_with("\"event\":\"hole\"") >= 6,
        "hole cards streamed"
    );
    let at = s.mark();
    let mut logs = server.lines();
    drop(server);
    let server = Server::start(&opts);
    s.reconnect(&server.addr);
    let export = s.send(
        "operator export",
        "GET",
        "/v1/operator/records/export",
        Some(OPERATOR_KEY),
        None,
    );
    let rail: Vec<serde_json::Value> = export
        .body
        .lines()
        .map(|l| serde_json::from_str(l).expect("record"))
        .filter(|r: &serde_json::Value| r["scheme"] == "poker_hmac_v1" && r["table"] == "rail")
        .collect();
    // One copy for the operator and one for each player of the session.
    assert!(!rail.is_empty(), "the open session rotated at start");
    assert!(
        rail.iter().all(|r| r == &rail[0] && r["session"] == "s1"),
        "{rail:?}"
    );
    for secret in poker::note_session(&mut s, &rail[0], at) {
        s.pending_forms.extend(forms(&secret));
        clear.push(secret);
    }

    tokens.push(quiet);
    for token in &tokens {
        let v = dice::rotate(&mut s, token);
        let seed = text(&v["revealed"], "server_seed");
        s.pending_forms.extend(forms(&seed));
        dice_seeds.push(seed.clone());
        clear.push(seed);
    }
    let seed = games::finish(&mut s, &pending_match);
    s.pending_forms.extend(forms(&seed));
    clear.push(seed);
    let seed = selfpoker::finish(&mut s, &c, &pending_hand.0, &pending_hand.1);
    s.pending_forms.extend(selfpoker::forms(&seed));
    let (game, token) = &chess_games[1];
    for seed in chess::finish(&mut s, game, token) {
        s.pending_forms.extend(forms(&seed));
        clear.push(seed);
    }
    eprintln!(
        "{} secrets revealed in the session, {} answers and {} events kept",
        s.revealed_at.len(),
        s.answers.len(),
        s.events().len()
    );
    // Every pair the session used is now revealed and listed.
    let mut listed = 0;
    for token in &tokens {
        for pair in all_pages(&mut s.c, token, "/v1/seeds/revealed", "pairs") {
            let seed = text(&pair, "server_seed");
            assert!(dice_seeds.contains(&seed), "revealed by a rotation we saw");
            listed += 1;
        }
    }
    assert_eq!(listed, dice_seeds.len());
    assert!(listed >= 9, "the session used {listed} pairs");
    // A last request marks the end of the log: once its line is read, so
    // is every line before it.
    let marks = || {
        server
            .lines()
            .iter()
            .filter(|(_, l)| l.contains("/healthz"))
            .count()
    };
    let before = marks();
    let health =
        s.c.send("GET", "/healthz", None, &[], None)
            .expect("healthz");
    assert_eq!(health.status, 200, "{}", health.body);
    common::wait_for(
        "the log line of the last request",
        std::time::Duration::from_secs(10),
        || marks() > before,
    );
    logs.extend(server.lines());
    assert!(
        logs.len() > 50 && logs.iter().any(|(_, l)| l.contains("/v1/dice/bets")),
        "the log capture works at trace level:\n{}",
        dump(&logs)
    );
    for topic in ["dice", "match:", "selfpoker:", "poker:"] {
        assert!(
            s.events_with(&format!("event {topic}")) > 0,
            "{topic} streamed"
        );
    }
    assert!(s.events_with("\"hand_end\"") > 0 && s.events_with("\"rotated\"") > 0);

    let texts: Vec<(std::time::Instant, String)> =
        s.answers.iter().cloned().chain(s.events()).collect();
    for (secret, at) in &s.revealed_at {
        for (when, text) in &texts {
            if when < at {
                assert!(
                    !text.contains(secret.as_str()),
                    "a secret was read before its reveal in: {text}"
                );
            }
        }
        for (_, line) in &logs {
            assert!(
                !line.contains(secret.as_str()),
                "a secret reached the log: {line}"
            );
        }
    }
    for form in &s.pending_forms {
        assert!(
            !contains(&copy_before, form),
            "an unrevealed secret is readable in the database copy"
        );
    }
    // The same scan finds them once they are revealed (the scan can fail).
    drop(server);
    let copy_after = database_copy(&data);
    for secret in &clear {
        assert!(
            contains(&copy_after, secret.as_bytes()),
            "revealed secrets are in the database in clear, so the scan above looks in the right place"
        );
    }
    assert!(chess_seeds
        .iter()
        .all(|s| contains(&copy_after, s.as_bytes())));

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
