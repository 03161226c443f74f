//! Chess colours in the session: each player's connection commits a seed
//! before it seeks, challenges or plays a bot; pairing answers the colours;
//! finishing reveals both seeds in a `chess_colour_v1` record; a withdrawn
//! seek reveals its seed.

use serde_json::{json, Value};

use super::{text, Session};

/// A committed seed of `token`: `(seed id, commitment)`.
fn new_seed(s: &mut Session, token: &str) -> (String, String) {
    let v = s.expect(
        201,
        "chess seed",
        "POST",
        "/v1/chess/seeds",
        Some(token),
        None,
    );
    (text(&v, "seed_id"), text(&v, "commitment"))
}

fn using(seed: &(String, String), client_seed: &str) -> Value {
    json!({"seed_id": seed.0, "client_seed": client_seed, "commitment": seed.1})
}

/// `token` accepts seek `seek_id` with its committed `seed`; returns the game.
fn accept(
    s: &mut Session,
    seek_id: &str,
    token: &str,
    seed: &(String, String),
    client: &str,
) -> Value {
    let path = format!("/v1/chess/seeks/{seek_id}/accept");
    s.expect(
        200,
        "accept",
        "POST",
        &path,
        Some(token),
        Some(&using(seed, client)),
    )
}

/// Three games: `a`'s open seek accepted by `b`, `a`'s challenge to `c`
/// (player id `c_id`) accepted by `c`, and `b` against a bot. Returns each
/// game's id with a player who may finish it.
pub fn pair(s: &mut Session, a: &str, b: &str, c: &str, c_id: i64) -> Vec<(String, String)> {
    let sa = new_seed(s, a);
    let sb = new_seed(s, b);
    let wrong = json!({"seed_id": sa.0, "client_seed": "a", "commitment": sb.1});
    let r = s.send(
        "seek, wrong commitment",
        "POST",
        "/v1/chess/seeks",
        Some(a),
        Some(&wrong),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    s.expect(
        200,
        "seek",
        "POST",
        "/v1/chess/seeks",
        Some(a),
        Some(&using(&sa, "a's")),
    );
    let seeks = s.expect(200, "seeks", "GET", "/v1/chess/seeks", Some(b), None);
    assert!(seeks.to_string().contains(&sa.0), "{seeks}");
    let game = accept(s, &sa.0, b, &sb, "b's");
    let first = text(&game, "game_id");
    for token in [a, b] {
        let path = format!("/v1/chess/games/{first}");
        let g = s.expect(200, "game", "GET", &path, Some(token), None);
        assert_eq!(g["white"], game["white"], "{g}");
    }

    let sa2 = new_seed(s, a);
    let mut challenge = using(&sa2, "a's challenge");
    challenge["opponent"] = json!(c_id);
    s.expect(
        200,
        "challenge",
        "POST",
        "/v1/chess/seeks",
        Some(a),
        Some(&challenge),
    );
    let others = s.expect(200, "seeks", "GET", "/v1/chess/seeks", Some(b), None);
    assert!(
        !others.to_string().contains(&sa2.0),
        "a challenge is for its player: {others}"
    );
    let mine = s.expect(200, "seeks", "GET", "/v1/chess/seeks", Some(c), None);
    assert!(mine.to_string().contains(&sa2.0), "{mine}");
    let sc = new_seed(s, c);
    let second = accept(s, &sa2.0, c, &sc, "c's");

    let sb2 = new_seed(s, b);
    let bot = s.expect(
        200,
        "bot",
        "POST",
        "/v1/chess/bot",
        Some(b),
        Some(&using(&sb2, "b vs bot")),
    );
    assert_eq!(bot["bot"], true, "{bot}");
    withdraw(s, a);
    vec![
        (first, a.to_owned()),
        (text(&second, "game_id"), c.to_owned()),
        (text(&bot, "game_id"), b.to_owned()),
    ]
}

/// `token` seeks with a new seed and withdraws it: the seed is revealed by
/// the withdrawal only (noted), and the seek is gone from the lists.
fn withdraw(s: &mut Session, token: &str) {
    let seed = new_seed(s, token);
    s.expect(
        200,
        "seek to withdraw",
        "POST",
        "/v1/chess/seeks",
        Some(token),
        Some(&using(&seed, "withdrawn")),
    );
    let at = s.mark();
    let path = format!("/v1/chess/seeks/{}/cancel", seed.0);
    let v = s.expect(200, "withdraw", "POST", &path, Some(token), None);
    assert_eq!(v["status"], "cancelled", "{v}");
    s.revealed(&text(&v, "server_seed"), at);
}

/// Finishes a game: the record verifies; its seeds are noted and returned.
pub fn finish(s: &mut Session, game: &str, token: &str) -> Vec<String> {
    let at = s.mark();
    let path = format!("/v1/chess/games/{game}/finish");
    let v = s.expect(200, "finish chess", "POST", &path, Some(token), None);
    let record = &v["record"]["record"];
    let verdict = fairseed_core::verify_value(record);
    assert!(verdict.valid, "{verdict:?}\n{record}");
    let seeds: Vec<String> = ["seed_a", "seed_b"]
        .iter()
        .filter_map(|k| record[*k].as_str().map(String::from))
        .collect();
    assert!(!seeds.is_empty(), "{record}");
    for seed in &seeds {
        s.revealed(seed, at);
    }
    seeds
}
