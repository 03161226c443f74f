//! Archiving a table folds its log (`drive::archive`) and changes no
//! answer a read of the archived table gives: every page of its hands
//! (each cursor, each size), its view, and a socket's resume from the last
//! hand on; a resume from before that gets a `backlog` naming where the
//! rest is read, and then the same messages. The socket's idempotency
//! entries go with the log.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request};
use fairseed_core::selfpoker_v2;
use fairseed_holdem::evidence;
use fairseed_holdem::live::machine::{Input, Machine};
use fairseed_holdem::live::{view, LiveTable, Policy, Request as Ask, Scheme, Session};
use fairseed_holdem::{Action, TableConfig};
use fairseed_play::{Millis, Viewer};
use fairseed_store::{Commit, Idempotent, SeedCipher, SqliteStore};
use http_body_util::BodyExt as _;
use serde_json::Value;
use tower::ServiceExt as _;

use crate::state::AppState;
use crate::{idempotent, step};

use super::{drive, hands, rows, ws};

const TABLE: &str = "harchive";
const HANDS: u64 = 70;

async fn new_player(state: &AppState) -> i64 {
    let req = Request::builder()
        .method(Method::POST)
        .uri("/v1/players")
        .body(Body::empty())
        .expect("request");
    let res = crate::app(state.clone())
        .oneshot(req)
        .await
        .expect("infallible");
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    let v: Value = serde_json::from_slice(&bytes).expect("account");
    v["player_id"].as_i64().expect("player_id")
}

/// A table of `player` and one AI, opened as `POST /v1/holdem/tables`
/// opens one, but driven by the test's own clock.
async fn open(state: &AppState, player: i64, at: Millis) {
    let secret = crate::secrets::random_bytes().expect("secret");
    let key = crate::secrets::random_bytes().expect("key");
    let policy = Policy {
        config: TableConfig {
            seats: 2,
            ..TableConfig::default()
        },
        ais: vec![1],
        ai_seats: Vec::new(),
        idle_close_ms: 86_400_000,
        public: false,
    };
    let session = Session {
        scheme: Scheme::SelfpokerV2,
        commit: Some(selfpoker_v2::session_commit(&secret)),
        revealed: None,
    };
    let live = LiveTable::open(TABLE.into(), policy, session)
        .expect("open")
        .opened_by(player, "invitation".into())
        .with_evidence_key(evidence::public_hex(&evidence::SigningKey::from_bytes(
            &key,
        )))
        .opened_at(at);
    let commit = Commit {
        creates: vec![
            rows::new_round(&live, hex::encode(secret), Some(hex::encode(key))).expect("round"),
        ],
        log: rows::opening_entries(&live).expect("entries"),
        ..Commit::default()
    };
    state.store().commit(commit).await.expect("opened");
}

/// What the person does next: sit, act (check, else call), top up, leave
/// after `HANDS` hands; `None`: the clock's turn.
fn next_ask(live: &LiveTable, player: i64) -> Option<Ask> {
    let v = serde_json::to_value(view(live, Viewer::Player(player))).expect("view");
    let between = v["hand"].is_null();
    if v["seats"][0].is_null() {
        return Some(Ask::Sit {
            seat: 0,
            client_seed: "c".into(),
            invitation: None,
            house: false,
        });
    }
    if between && v["hands_played"].as_u64() >= Some(HANDS) {
        return Some(Ask::Leave);
    }
    if between && v["seats"][0]["stack"] == 0 {
        return Some(Ask::TopUp);
    }
    let to_call = v["hand"]["legal"]["to_call"].as_u64()?;
    Some(Ask::Act(if to_call == 0 {
        Action::Check
    } else {
        Action::Call
    }))
}

/// Plays the table until the person leaves, which closes it; each of the
/// person's messages stored with an idempotency key as its socket's are.
async fn play(state: &AppState, player: i64, mut clock: Millis) {
    for n in 0..100_000 {
        let loaded = drive::load(state, TABLE).await.expect("load");
        if loaded.status != rows::OPEN {
            return;
        }
        let machine = Machine {
            secret: &loaded.secret,
            pacing: state.holdem().timing(),
        };
        let asked = next_ask(&loaded.live, player).and_then(|request| {
            let input = Input::Request { player, request };
            machine.handle(&loaded.live, input, clock).ok()
        });
        let (out, idempotent) = match asked {
            Some(out) => {
                let key = format!("{}m{n}", rows::idempotency_prefix(TABLE));
                let entry = Idempotent {
                    scope: step::player_scope(player),
                    key,
                    request_hash: "h".into(),
                    response: "{}".into(),
                    record_ids_at: Vec::new(),
                };
                (out, Some(entry))
            }
            None => {
                let due = machine.due(&loaded.live).expect("something due");
                clock = Millis(clock.0.max(due.0));
                let out = machine
                    .handle(&loaded.live, Input::Tick, clock)
                    .expect("ticked");
                (out, None)
            }
        };
        let commit = Commit {
            writes: vec![rows::write(&loaded, &out).expect("write")],
            idempotent,
            log: out.entries,
            ..Commit::default()
        };
        state.store().commit(commit).await.expect("committed");
    }
    panic!("the table did not close");
}

/// Every read of the table: each page (cursor 0 to the log's end, one hand
/// or a hundred), the public and the person's view, and each resume.
struct Reads {
    pages: Vec<(Vec<Value>, Vec<u64>, Option<u64>)>,
    views: Vec<Value>,
    resumes: Vec<Vec<String>>,
}

async fn reads(state: &AppState, player: i64) -> Reads {
    let row = drive::row(state, TABLE).await.expect("row");
    let mut pages = Vec::new();
    for after in 0..=row.log_len {
        for limit in [1, hands::MAX_HANDS_PER_PAGE] {
            let page = hands::page(state, &row, after, limit).await.expect("page");
            pages.push((page.hands, page.numbers, page.next_after));
        }
    }
    let live = drive::load(state, TABLE).await.expect("load").live;
    let views = [Viewer::Public, Viewer::Player(player)]
        .map(|viewer| serde_json::to_value(view(&live, viewer)).expect("view"))
        .to_vec();
    let mut resumes = Vec::new();
    for sent in 0..=live.seq {
        resumes.push(
            ws::catch_up(state, TABLE, sent, live.seq)
                .await
                .expect("resume"),
        );
    }
    Reads {
        pages,
        views,
        resumes,
    }
}

#[tokio::test]
async fn an_archived_tables_reads_answer_as_before_its_log_was_folded() {
    let store = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("store");
    let state = crate::state(Arc::new(store), "operator-key-for-unit-tests", 1000, 0);
    let player = new_player(&state).await;
    let clock = crate::rounds::now();
    open(&state, player, clock).await;
    play(&state, player, clock).await;
    let closed = drive::row(&state, TABLE).await.expect("row");
    assert_eq!(closed.status, rows::CLOSED);
    let whole = drive::read_rows(&state, TABLE, 0, closed.log_len)
        .await
        .expect("log");
    let ends: Vec<u64> = whole
        .iter()
        .filter(|r| r.body.contains(r#""type":"hand_end""#))
        .map(|r| r.seq)
        .collect();
    assert!(ends.len() as u64 >= HANDS, "{} hands", ends.len());
    let kept = ends[ends.len() - 2] + 1;
    assert!(
        closed.log_len > kept + 1 && closed.log_len > ws::MAX_BACKLOG,
        "a resume from before the last hand, from within it, and one from beyond the backlog"
    );
    let key = format!("{}m0", rows::idempotency_prefix(TABLE));
    let scope = step::player_scope(player);
    assert!(idempotent::replay(&state, &scope, &key, "h")
        .await
        .expect("read")
        .is_some());
    let before = reads(&state, player).await;

    drive::archive(&state, TABLE).await.expect("archived");
    let archived = drive::row(&state, TABLE).await.expect("row");
    assert_eq!(archived.status, rows::ARCHIVED);
    assert_eq!(archived.log_len, closed.log_len);
    let folded = drive::read_rows(&state, TABLE, 0, archived.log_len)
        .await
        .expect("log");
    let earlier = ends.len() - 1;
    assert_eq!(
        folded.len() as u64,
        earlier.div_ceil(fairseed_store::FOLDED_PER_ROW) as u64 + (closed.log_len - kept),
        "rows naming the earlier hands' records, the last hand and what followed whole"
    );
    assert!(idempotent::replay(&state, &scope, &key, "h")
        .await
        .expect("read")
        .is_none());
    let after = reads(&state, player).await;

    assert_eq!(after.pages, before.pages, "every page");
    assert_eq!(after.views, before.views, "the views");
    let seq = closed.log_len;
    for (sent, (was, is)) in before.resumes.iter().zip(&after.resumes).enumerate() {
        let sent = sent as u64;
        if sent >= kept {
            assert_eq!(is, was, "a resume after {sent}");
            continue;
        }
        let whole = kept.max(seq.saturating_sub(ws::MAX_BACKLOG));
        let backlog: Value = serde_json::from_str(&is[0]).expect("backlog");
        assert_eq!(
            (&backlog["type"], &backlog["from"], &backlog["to"]),
            (
                &Value::from("backlog"),
                &Value::from(sent + 1),
                &Value::from(whole)
            ),
            "a resume after {sent}"
        );
        assert_eq!(
            backlog["hands"],
            format!("/v1/holdem/tables/{TABLE}/hands?after={sent}")
        );
        let newest = usize::try_from(seq - whole).expect("count");
        assert_eq!(is[1..], was[was.len() - newest..], "a resume after {sent}");
    }
}
