//! Crash test through the real binary: concurrent bets, replays
//! and rotations for several players, `kill -9` mid-load, restart on the
//! same data directory — twice — and then every acknowledged bet and
//! rotation is there unchanged, every unanswered bet retried with its key
//! acts at most once, no nonce is reused or skipped, each balance is the
//! opening balance plus the history, and every exported record verifies
//! with the core and proves the roll its player was answered.
//!
//! Beside the dice load the operator deals a table-game match (a new one
//! each round, so the first crosses both kills): every draw it was answered
//! is in the match's log unchanged after each restart, and the finished
//! match's `match_seed_v2` record verifies with the core and deals exactly
//! what the log holds. Another player plays selfpoker hands left open at
//! every stage (see `hands`): each survives, and its record holds every
//! card it was answered.

mod common;
mod hands;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::http::Client;
use common::ledger::{all_pages, check_acked, check_every_export, check_player};
use common::load::{bet, drive_counting, Plan, Progress, Sent};
use common::matches;
use common::server::{Options, Server};
use common::{new_player, wait_for};
use serde_json::{json, Value};

/// What ran beside the dice load until the kill.
struct Beside {
    /// The match's answered draws: `(seq, draw)`.
    dealt: Vec<(u64, Value)>,
    /// The selfpoker hands and their answered messages.
    hands: Vec<hands::Played>,
}

/// How far the load must get before the kill: acknowledged bets, rotations,
/// deals of the match and selfpoker hands opened.
struct KillPoint {
    bets: usize,
    rotations: usize,
    deals: usize,
    hands: usize,
}

/// Runs the load against `addr` — dice for `tokens`, the match `match_id`
/// dealt, selfpoker for `hand_player` — until it reaches `at`, then
/// `kill -9`s the server mid-load.
fn load_then_kill(
    server: Server,
    tokens: &[String],
    match_id: &str,
    hand_player: &str,
    at: &KillPoint,
    tag: &str,
) -> (common::load::Outcome, Beside) {
    let addrs = vec![server.addr.clone()];
    let tokens = tokens.to_vec();
    let tag = tag.to_owned();
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(Progress::default());
    let (dealt, opened) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let loader = {
        let (stop, progress) = (Arc::clone(&stop), Arc::clone(&progress));
        std::thread::spawn(move || {
            let plan = Plan {
                addrs: &addrs,
                tokens: &tokens,
                threads: 6,
                rotate_every: Some(Duration::from_millis(120)),
                tag: &tag,
            };
            drive_counting(&plan, &stop, &progress)
        })
    };
    let dealer = {
        let (addr, id, stop) = (server.addr.clone(), match_id.to_owned(), Arc::clone(&stop));
        let dealt = Arc::clone(&dealt);
        std::thread::spawn(move || deal_until(&addr, &id, &stop, &dealt))
    };
    let player = {
        let (addr, token, stop) = (
            server.addr.clone(),
            hand_player.to_owned(),
            Arc::clone(&stop),
        );
        let opened = Arc::clone(&opened);
        std::thread::spawn(move || hands::play_until(&addr, &token, &stop, &opened))
    };
    wait_for(
        "the load to reach the kill point",
        Duration::from_secs(120),
        || {
            progress.acked() >= at.bets
                && progress.rotations() >= at.rotations
                && dealt.load(Ordering::Relaxed) >= at.deals
                && opened.load(Ordering::Relaxed) >= at.hands
        },
    );
    server.kill9();
    stop.store(true, Ordering::Relaxed);
    let beside = Beside {
        dealt: dealer.join().expect("dealer"),
        hands: player.join().expect("selfpoker player"),
    };
    (loader.join().expect("loader"), beside)
}

/// At most this many deals per match (each draw replays the match).
const MAX_DEALS: usize = 120;

/// Deals the match until `stop` or the server stops answering; returns the
/// draws answered: `(seq, draw)`.
fn deal_until(addr: &str, id: &str, stop: &AtomicBool, dealt: &AtomicUsize) -> Vec<(u64, Value)> {
    let mut c = Client::new(addr);
    let mut acked = Vec::new();
    while !stop.load(Ordering::Relaxed) && acked.len() < MAX_DEALS {
        match matches::draw(&mut c, id, &json!({"step": "deal"})) {
            Ok(a) => {
                assert_eq!(a.status, 200, "deal: {}", a.body);
                let v = a.json();
                let seq = v["seq"].as_u64().expect("seq");
                acked.push((seq, v["draw"].clone()));
                dealt.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => break,
        }
    }
    acked
}

/// Every answered draw is in the match's log unchanged.
fn check_draws(c: &mut Client, id: &str, acked: &[(u64, Value)]) {
    let log = matches::log(c, id, &mut |_, _| {});
    for (seq, draw) in acked {
        let i = usize::try_from(*seq).expect("seq");
        assert_eq!(
            log.get(i).map(|e| &e["draw"]),
            Some(draw),
            "answered draw {seq} of {id} lost or changed"
        );
    }
}

/// Finishes the match: its record verifies and deals what the log holds.
fn finish_and_compare(c: &mut Client, id: &str, acked: &[(u64, Value)]) {
    let logged: Vec<Value> = matches::log(c, id, &mut |_, _| {})
        .into_iter()
        .filter(|e| e["draw"]["step"] == "deal")
        .map(|e| e["draw"]["hands"].clone())
        .collect();
    assert!(
        logged.len() >= acked.len(),
        "{id}: every answered deal is logged"
    );
    let finished = matches::finish(c, id, &mut |_, _| {});
    let record = &finished["record"]["record"];
    assert_eq!(
        record["outcome"]["deals"],
        json!(logged),
        "the verified record deals exactly the logged hands of {id}"
    );
}

/// Retries an unanswered bet twice with its key: the first retry either
/// replays the bet that was stored before the kill or places it now; the
/// second is a replay of that. Either way the bet acted once.
fn retry(c: &mut Client, sent: &Sent) -> Value {
    let first = bet(c, sent).expect("retry after restart");
    assert_eq!(first.status, 200, "retry {}: {}", sent.key, first.body);
    let again = bet(c, sent).expect("second retry");
    assert_eq!(
        common::without_receipts(&again.json()),
        common::without_receipts(&first.json()),
        "retries of {} agree",
        sent.key
    );
    assert_eq!(again.header("idempotency-replayed"), Some("true"));
    first.json()
}

#[test]
fn kill_nine_twice_under_load_loses_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let opts = Options::new(dir.path());
    let mut server = Server::start(&opts);
    let mut c = Client::new(&server.addr);
    let tokens: Vec<String> = (0..3).map(|_| new_player(&mut c)).collect();
    let hand_player = new_player(&mut c);
    let mut played: Vec<hands::Played> = Vec::new();
    // Match id -> the draws answered for it.
    let mut deals: Vec<(String, Vec<(u64, Value)>)> = Vec::new();
    let mut acked: Vec<(Sent, Value)> = Vec::new();
    let mut rotations: Vec<(String, Value)> = Vec::new();
    let mut stored: HashMap<String, Vec<Value>> = HashMap::new();

    // The second round runs further before its kill, so the kills land at
    // different points of the load.
    for (round, bets) in [(0, 30), (1, 60)] {
        let started = matches::open_started(&mut c, "tarneeb", &mut |_, _| {});
        let id = started["match_id"].as_str().expect("match_id").to_owned();
        let (out, beside) = load_then_kill(
            server,
            &tokens,
            &id,
            &hand_player,
            &KillPoint {
                bets,
                rotations: 1,
                deals: 1,
                hands: 3,
            },
            &format!("r{round}"),
        );
        eprintln!(
            "round {round}: {} deals of {id} and {} selfpoker hands answered",
            beside.dealt.len(),
            beside.hands.len()
        );
        assert!(
            !beside.dealt.is_empty(),
            "the match was dealt during the load"
        );
        assert!(beside.hands.len() >= 2, "selfpoker ran during the load");
        deals.push((id, beside.dealt));
        played.extend(beside.hands);
        eprintln!(
            "round {round}: killed -9 with {} bets acknowledged, {} unanswered, {} replays, {} refused, {} rotations",
            out.acked.len(),
            out.unanswered.len(),
            out.replays,
            out.refused,
            out.rotations.len()
        );
        assert!(out.acked.len() >= 30, "the load ran: {}", out.acked.len());
        assert!(!out.rotations.is_empty(), "rotations ran during the load");
        acked.extend(out.acked);
        rotations.extend(out.rotations);

        server = Server::start(&opts);
        c = Client::new(&server.addr);
        for sent in &out.unanswered {
            let answer = retry(&mut c, sent);
            acked.push((sent.clone(), answer));
        }
        stored = tokens
            .iter()
            .map(|t| (t.clone(), check_player(&mut c, t)))
            .collect();
        check_acked(&acked, &stored);
        for (id, dealt) in &deals {
            check_draws(&mut c, id, dealt);
        }
        hands::check_stored(&mut c, &hand_player, &played);
        // An answered rotation is durable: its seed is among the revealed.
        for token in &tokens {
            let revealed: HashMap<i64, Value> =
                all_pages(&mut c, token, "/v1/seeds/revealed", "pairs")
                    .into_iter()
                    .map(|p| (p["pair_id"].as_i64().expect("pair_id"), p))
                    .collect();
            for (_, answer) in rotations.iter().filter(|(t, _)| t == token) {
                let r = &answer["revealed"];
                let stored = &revealed[&r["pair_id"].as_i64().expect("pair_id")];
                assert_eq!(stored["server_seed"], r["server_seed"]);
                assert_eq!(stored["commitment"], r["commitment"]);
            }
        }
    }
    for (id, dealt) in &deals {
        finish_and_compare(&mut c, id, dealt);
    }
    hands::finish_and_compare(&mut c, &hand_player, &played);
    let records = check_every_export(&mut c, &stored);
    eprintln!(
        "{} acknowledged bets checked, {records} exported records verified",
        acked.len()
    );
}
