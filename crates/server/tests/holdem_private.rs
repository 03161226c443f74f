//! No stranger at a private table (docs/spec.md §19.4), through the real
//! binary: a table opens private and answers its invitation and link to its
//! opener; a stranger is refused with the field named (no invitation, or
//! another table's), an invited player sits, a player the operator created
//! sits with the invitation and is marked as the house's in every view and
//! in the hand records; a public table seats anyone and says so.

mod common;

use std::time::{Duration, Instant};

use common::http::Client;
use common::new_player;
use common::server::{Options, Server};
use common::table_ws::Ws;
use common::OPERATOR_KEY;
use serde_json::{json, Value};

const PUBLIC_WORDS: &str = "a public table: anyone, the house included, may sit here";
const PRIVATE_WORDS: &str =
    "a private table: only its opener and the players they invite may sit here";

fn start(dir: &std::path::Path) -> Server {
    let mut o = Options::new(dir);
    o.extra_args = ["--holdem-ai-delay-ms", "5", "--holdem-next-hand-ms", "50"]
        .map(String::from)
        .to_vec();
    Server::start(&o)
}

/// Sends a `sit` as `id` and returns its answer (`ack` or `error`).
fn sit(ws: &mut Ws, id: &str, seat: u64, invitation: Option<&str>) -> Value {
    let mut m = json!({"type": "sit", "id": id, "seat": seat, "client_seed": id});
    if let Some(code) = invitation {
        m["invitation"] = json!(code);
    }
    ws.send(&m);
    ws.until(&format!("the answer to {id}"), |m| m["id"] == id)
}

/// `came` of every seat of a view, `null` for an AI or an empty seat.
fn came(view: &Value) -> Vec<Value> {
    view["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["came"].clone())
        .collect()
}

#[test]
fn a_private_table_seats_only_the_invited_and_marks_the_house() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(dir.path());
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    let (ann, bob, carl) = (
        new_player(&mut http),
        new_player(&mut http),
        new_player(&mut http),
    );
    let house = http.ok(
        "POST",
        "/v1/operator/players",
        OPERATOR_KEY,
        Some(&json!({"external_id": "house-1"})),
    );
    let house = house["token"].as_str().expect("token").to_owned();

    let body = json!({"ais": [1], "seats": 4, "action_ms": 1000, "scheme": "selfpoker_v2"});
    let created = http.ok("POST", "/v1/holdem/tables", &ann, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    let invitation = created["invitation"]
        .as_str()
        .expect("an invitation")
        .to_owned();
    assert_eq!(invitation.len(), 32, "{created}");
    assert!(invitation.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(created["public"], false, "{created}");
    assert_eq!(created["seating"], PRIVATE_WORDS, "{created}");
    assert_eq!(
        created["invite_link"],
        format!("/#table={table}&invite={invitation}"),
        "{created}"
    );
    let other = http.ok("POST", "/v1/holdem/tables", &ann, Some(&body));
    let other_invitation = other["invitation"].as_str().expect("an invitation");
    assert_ne!(other_invitation, invitation);

    let mut a = Ws::connect(&addr, &table, &json!({"type": "hello", "token": ann}));
    assert_eq!(sit(&mut a, "ann", 0, None)["type"], "ack");

    // A stranger: no invitation, then another table's.
    let mut c = Ws::connect(&addr, &table, &json!({"type": "hello", "token": carl}));
    for (id, given) in [("bare", None), ("other", Some(other_invitation))] {
        let refused = sit(&mut c, id, 2, given);
        assert_eq!(refused["type"], "error", "{refused}");
        assert_eq!(refused["code"], "invitation_refused", "{refused}");
        assert_eq!(refused["field"], "invitation", "{refused}");
        assert!(!refused.to_string().contains(&invitation), "{refused}");
    }
    // The house's player is refused as well without the invitation.
    let mut h = Ws::connect(&addr, &table, &json!({"type": "hello", "token": house}));
    let refused = sit(&mut h, "house-bare", 3, None);
    assert_eq!(refused["field"], "invitation", "{refused}");

    let mut b = Ws::connect(&addr, &table, &json!({"type": "hello", "token": bob}));
    assert_eq!(sit(&mut b, "bob", 2, Some(&invitation))["type"], "ack");
    assert_eq!(sit(&mut h, "house", 3, Some(&invitation))["type"], "ack");

    // Every viewer sees how each person came; only the opener sees the invitation.
    let want = json!(["opener", null, "invited", "house"]);
    for token in [&ann, &bob, &carl] {
        let path = format!("/v1/holdem/tables/{table}");
        let view = http.ok("GET", &path, token, None);
        assert_eq!(json!(came(&view)), want, "{view}");
        assert_eq!(view["public"], false, "{view}");
        assert_eq!(view["seating"], PRIVATE_WORDS, "{view}");
        assert_eq!(view["seats"][3]["badge"], "the house's", "{view}");
        let shown = view["invitation"].as_str();
        assert_eq!(
            shown,
            (token == &ann).then_some(invitation.as_str()),
            "{view}"
        );
    }

    // The first hand that deals the house's seat in names it in its record.
    let deadline = Instant::now() + Duration::from_secs(90);
    let record = loop {
        assert!(
            Instant::now() < deadline,
            "no hand dealt the house's seat in"
        );
        let m = c.next();
        if m["type"] == "hand_end"
            && m["record"]["seats"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["seat"] == 3))
        {
            break m["record"].clone();
        }
    };
    for s in record["seats"].as_array().expect("seats") {
        let want = match s["seat"].as_u64() {
            Some(0) => json!("opener"),
            Some(2) => json!("invited"),
            Some(3) => json!("house"),
            _ => Value::Null,
        };
        assert_eq!(s["came"], want, "{record}");
    }
    assert!(!record.to_string().contains(&invitation), "{record}");
    let verdict = fairseed_holdem::verdict::verify_value(&record);
    let house_warning = verdict
        .warnings
        .iter()
        .find(|w| w.name == "house")
        .expect("a warning of the house's seat");
    assert!(
        house_warning.detail.contains("seat 3 is the house's"),
        "{verdict:?}"
    );
}

#[test]
fn a_public_table_seats_anyone_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = start(dir.path());
    let addr = server.addr.clone();
    let mut http = Client::new(&addr);
    let (ann, carl) = (new_player(&mut http), new_player(&mut http));
    let body = json!({"ais": [1], "seats": 3, "action_ms": 1000, "public": true, "scheme": "selfpoker_v2"});
    let created = http.ok("POST", "/v1/holdem/tables", &ann, Some(&body));
    let table = created["table_id"].as_str().expect("table_id").to_owned();
    assert_eq!(created["public"], true, "{created}");
    assert_eq!(created["seating"], PUBLIC_WORDS, "{created}");
    assert!(created.get("invitation").is_none(), "{created}");
    assert!(created.get("invite_link").is_none(), "{created}");

    let mut a = Ws::connect(&addr, &table, &json!({"type": "hello", "token": ann}));
    assert_eq!(sit(&mut a, "ann", 0, None)["type"], "ack");
    let mut c = Ws::connect(&addr, &table, &json!({"type": "hello", "token": carl}));
    assert_eq!(sit(&mut c, "carl", 2, None)["type"], "ack");
    let view = http.ok("GET", &format!("/v1/holdem/tables/{table}"), &carl, None);
    assert_eq!(
        json!(came(&view)),
        json!(["opener", null, "public"]),
        "{view}"
    );
    assert_eq!(view["public"], true, "{view}");
    assert_eq!(view["seating"], PUBLIC_WORDS, "{view}");
    assert!(view.get("invitation").is_none(), "{view}");

    // Each record carries the public policy, and the verifier says so.
    let ended = c.until("a hand's end", |m| m["type"] == "hand_end");
    let record = &ended["record"];
    assert_eq!(record["policy"]["public"], true, "{record}");
    let verdict = fairseed_holdem::verdict::verify_value(record);
    let policy = verdict
        .checks
        .iter()
        .find(|c| c.name == "policy")
        .expect("the policy check");
    assert!(policy.ok, "{verdict:?}");
    assert!(policy.detail.ends_with(PUBLIC_WORDS), "{verdict:?}");
}
