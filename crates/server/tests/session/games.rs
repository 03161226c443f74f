//! Table games in the session: the operator's match through
//! `common::matches`, its live stream subscribed by the operator and by a
//! player (who must see no draw), the match seed revealed by `finish`.

use serde_json::json;

use super::{text, Session};
use crate::common::matches;
use crate::common::OPERATOR_KEY;

/// Opens, seeds and starts a match of `game`, subscribes to its stream and
/// makes its first draw; returns its id.
pub fn open_with_a_draw(s: &mut Session, game: &str, player: &str) -> String {
    let started = s.run(|c, seen| matches::open_started(c, game, seen));
    let id = text(&started, "match_id");
    let topic = format!("match:{id}");
    s.subscribe(OPERATOR_KEY, &topic);
    s.subscribe(player, &topic);
    let step = match game {
        "backgammon" => "opening",
        "baloot" => "first",
        "mahjong" => "hand",
        _ => "deal",
    };
    let a = matches::draw(&mut s.c, &id, &json!({"step": step})).expect("draw");
    assert_eq!(a.status, 200, "{}", a.body);
    s.keep("draw", &a);
    s.run(|c, seen| matches::log(c, &id, seen));
    let path = format!("/v1/matches/{id}");
    s.expect(200, "match", "GET", &path, Some(OPERATOR_KEY), None);
    id
}

/// Finishes the match (its record verifies); notes and returns its seed.
pub fn finish(s: &mut Session, id: &str) -> String {
    let at = s.mark();
    let v = s.run(|c, seen| matches::finish(c, id, seen));
    let seed = text(&v["match"], "server_seed");
    s.revealed(&seed, at);
    seed
}
