//! The player's clock as evidence (docs/spec.md §20.7): the signed items'
//! messages and signatures against vectors written by an independent Python
//! script (`tests/vectors/holdem_evidence.py`, `hashlib` and `cryptography`),
//! and the check of a file of them against a hand record.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use ed25519_dalek::SigningKey;
use fairseed_holdem::evidence::{
    self, check_evidence, Ack, AckKind, Alarm, Evidence, Notice, Signed, TurnNotice, SKEW_MS,
};
use fairseed_holdem::HandRecord;
use fairseed_play::Millis;
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/primitives/holdem_evidence.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("the vectors")).expect("JSON")
}

fn seed_key(v: &Value) -> SigningKey {
    let seed: [u8; 32] = hex::decode(v["key_seed"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    SigningKey::from_bytes(&seed)
}

#[test]
fn every_vector_has_its_message_and_verifies_exactly_when_it_should() {
    let v = vectors();
    let key = evidence::parse_key(v["key"].as_str().unwrap(), "key").unwrap();
    let signing = seed_key(&v);
    assert_eq!(evidence::public_hex(&signing), v["key"].as_str().unwrap());
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 16, "{} cases", cases.len());
    let (mut valid, mut refused) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        let item = Signed::from_value(&case["item"], "item").unwrap();
        assert_eq!(
            item.notice.message(),
            case["message"].as_str().unwrap(),
            "case {i}"
        );
        let want = case["valid"].as_bool().unwrap();
        assert_eq!(item.verifies(&key), want, "case {i}: {}", case["message"]);
        if want {
            // Ed25519 signs deterministically: the same key signs the same bytes.
            let ours = item.notice.clone().sign(&signing);
            assert_eq!(ours.sig, item.sig, "case {i}");
            // And the item serializes back to the vector's JSON.
            assert_eq!(
                serde_json::to_value(&ours).unwrap(),
                case["item"],
                "case {i}"
            );
            valid += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        valid >= 13 && refused >= 3,
        "{valid} valid, {refused} refused"
    );
}

/// The first hand of the `selfpoker_v3` example: table `simulated`, seats 0
/// and 3 human; seat 0 folds as the record's action 1.
fn record() -> HandRecord {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/holdem_selfpoker_v3.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// The record with seat 0's fold (action 1) chosen by the clock at `at`.
fn timed_out_at(at: i64) -> HandRecord {
    let mut r = record();
    assert_eq!(r.actions[1].seat, 0);
    r.actions[1].timed_out = true;
    r.actions[1].at = Some(Millis(at));
    r
}

fn turn(seat: usize, actions: u64, deadline_ms: u64) -> Notice {
    Notice::Turn(TurnNotice {
        table: "simulated".into(),
        hand: 1,
        seat,
        actions,
        deadline_ms,
        server_ms: deadline_ms - 30_000,
    })
}

fn evidence_of(key: &SigningKey, notices: Vec<Notice>) -> Evidence {
    Evidence {
        scheme: evidence::SCHEME,
        key: evidence::public_hex(key),
        items: notices.into_iter().map(|n| n.sign(key)).collect(),
    }
}

fn key(byte: u8) -> SigningKey {
    SigningKey::from_bytes(&[byte; 32])
}

#[test]
fn a_timeout_before_the_signed_deadline_less_the_skew_is_an_alarm() {
    let k = key(1);
    let deadline = 1_700_000_030_000u64;
    let evidence = evidence_of(&k, vec![turn(0, 1, deadline)]);
    let at = |ms: u64| i64::try_from(ms).unwrap();
    // At the deadline, or within the skew bound of it: no alarm.
    for on_time in [deadline, deadline - SKEW_MS] {
        let found =
            check_evidence(&timed_out_at(at(on_time)), &evidence, &k.verifying_key()).unwrap();
        assert_eq!((found.checked, found.alarms.len()), (1, 0), "{found:?}");
    }
    let early = deadline - SKEW_MS - 1;
    let found = check_evidence(&timed_out_at(at(early)), &evidence, &k.verifying_key()).unwrap();
    assert_eq!(
        found.alarms,
        [Alarm::EarlyTimeout {
            seat: 0,
            action: 1,
            at: at(early),
            deadline_ms: deadline,
            server_ms: deadline - 30_000,
        }]
    );
    assert_eq!(
        found.words(),
        ["hand 1: seat 0 was timed out (action 1) at 1700000028999, 1001 ms before the deadline 1700000030000 the table signed for that turn at 1700000000000; more than the 1000 ms the clocks may differ by"]
    );
    // A turn given its full clock again (a restart) binds by its latest deadline.
    let again = evidence_of(
        &k,
        vec![turn(0, 1, deadline - 20_000), turn(0, 1, deadline)],
    );
    let found = check_evidence(&timed_out_at(at(early)), &again, &k.verifying_key()).unwrap();
    assert_eq!(found.alarms.len(), 1, "{found:?}");
    // A record that times the seat out without saying when: a note, no alarm.
    let mut silent = timed_out_at(0);
    silent.actions[1].at = None;
    let found = check_evidence(&silent, &evidence, &k.verifying_key()).unwrap();
    assert!(found.alarms.is_empty());
    assert_eq!(
        found.notes,
        ["the record times seat 0 out (action 1) without saying when"]
    );
}

#[test]
fn a_seat_named_withheld_whose_reveal_was_acknowledged_is_an_alarm() {
    let k = key(2);
    let mut r = record();
    let deal = r.deal.as_mut().unwrap();
    let commit = deal.hand_commits[&3].clone();
    deal.withheld = vec![3];
    let ack = |kind, value_hash: &str| {
        Notice::Ack(Ack {
            table: "simulated".into(),
            hand: 1,
            seat: 3,
            kind,
            value_hash: value_hash.into(),
            server_ms: 1_700_000_000_000,
        })
    };
    let held = |notices| check_evidence(&r, &evidence_of(&k, notices), &k.verifying_key()).unwrap();
    // Only the commit acknowledged: the seat may have withheld.
    let found = held(vec![ack(AckKind::Commit, &commit)]);
    assert!(found.alarms.is_empty(), "{found:?}");
    // A reveal acknowledged in an earlier round of the hand (another commit): no alarm.
    let found = held(vec![ack(AckKind::Reveal, &"ab".repeat(32))]);
    assert!(found.alarms.is_empty(), "{found:?}");
    let found = held(vec![
        ack(AckKind::Commit, &commit),
        ack(AckKind::Reveal, &commit),
    ]);
    assert_eq!(
        found.words(),
        [format!("hand 1: the record names seat 3 withheld, but the table signed at 1700000000000 that it accepted seat 3's reveal of the value committed to as {commit}")]
    );
}

#[test]
fn a_turn_the_record_gives_another_seat_is_an_alarm_and_other_hands_are_counted() {
    let k = key(3);
    let mut later = turn(0, 0, 1_700_000_030_000);
    if let Notice::Turn(t) = &mut later {
        t.hand = 2;
    }
    let evidence = evidence_of(&k, vec![turn(0, 0, 1_700_000_030_000), later]);
    let found = check_evidence(&record(), &evidence, &k.verifying_key()).unwrap();
    assert_eq!((found.checked, found.other_hands), (1, 1));
    assert_eq!(
        found.words(),
        ["hand 1: the table signed at 1700000000000 that seat 0 was to act after 0 actions, but the record has seat 3 act then"]
    );
}

#[test]
fn bad_evidence_is_refused_naming_the_field() {
    let k = key(4);
    let good = evidence_of(&k, vec![turn(0, 1, 1_700_000_030_000)]);
    let text = serde_json::to_string(&good).unwrap();
    let reparsed = Evidence::parse(&text).unwrap();
    assert_eq!(reparsed, good);
    let refused = |text: &str| Evidence::parse(text).unwrap_err().to_string();
    assert!(refused("[").starts_with("evidence: not JSON"));
    assert_eq!(
        refused(&text.replace("holdem_evidence_v1", "x")),
        "scheme: expected \"holdem_evidence_v1\", found \"x\""
    );
    assert_eq!(
        refused(&text.replace("\"actions\":1", "\"actions\":-1")),
        "items[0].actions: expected a whole number from 0 to 2^53 − 1"
    );
    // Beyond 2^53 − 1 a JavaScript number is not exact: refused.
    assert_eq!(
        refused(&text.replace("\"actions\":1", "\"actions\":9007199254740992")),
        "items[0].actions: expected a whole number from 0 to 2^53 − 1"
    );
    assert_eq!(
        refused(&text.replace("\"type\":\"turn\"", "\"type\":\"bet\"")),
        "items[0].type: \"bet\", expected turn or ack"
    );
    let no_sig = text.replace(&format!(",\"sig\":\"{}\"", good.items[0].sig), "");
    assert_eq!(refused(&no_sig), "items[0].sig: missing");
    // A signature from another key.
    let other = key(5);
    let mut forged = good.clone();
    forged.items[0] = good.items[0].notice.clone().sign(&other);
    let err = check_evidence(&timed_out_at(0), &forged, &k.verifying_key()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "items[0].sig: not the table's evidence key's signature of this item"
    );
    // Evidence that names another key than the table's.
    let err = check_evidence(&timed_out_at(0), &good, &other.verifying_key()).unwrap_err();
    assert_eq!(err.field, "key");
    // Evidence for another table.
    let mut elsewhere = turn(0, 1, 1_700_000_030_000);
    if let Notice::Turn(t) = &mut elsewhere {
        t.table = "t2".into();
    }
    let err = check_evidence(
        &timed_out_at(0),
        &evidence_of(&k, vec![elsewhere]),
        &k.verifying_key(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "items[0].table: evidence of table \"t2\"; the record is of table \"simulated\""
    );
    // A record that names no table.
    let mut plain = record();
    plain.deal = None;
    let err = check_evidence(&plain, &good, &k.verifying_key()).unwrap_err();
    assert_eq!(err.field, "record.deal.table_id");
}

/// `check_session` holds each record to its own hand's items, as
/// `check_evidence` does, and checks a signature where an alarm rests on it.
#[test]
fn a_session_check_agrees_with_the_hand_check_and_verifies_what_accuses() {
    use fairseed_holdem::evidence::check_session;
    let k = key(1);
    let deadline = 1_700_000_030_000u64;
    let early = i64::try_from(deadline - SKEW_MS - 1).unwrap();
    let honest = record();
    let mut second = timed_out_at(early);
    second.hand = 2;
    let mut notices = vec![turn(0, 1, deadline)];
    let mut later = turn(0, 1, deadline);
    if let Notice::Turn(t) = &mut later {
        t.hand = 2;
    }
    notices.push(later);
    let evidence = evidence_of(&k, notices);
    let records = [honest.clone(), second.clone()];
    let found = check_session(&records, &evidence, &k.verifying_key()).unwrap();
    assert_eq!(found.len(), 2);
    // Hand 1's record acts on time, hand 2's times seat 0 out early.
    let alone = |r: &HandRecord| {
        let mut f = check_evidence(r, &evidence, &k.verifying_key()).unwrap();
        f.other_hands = 0;
        f
    };
    assert_eq!(found[0], alone(&honest));
    assert_eq!(found[1], alone(&second));
    assert!(
        found[0].alarms.is_empty() && found[1].alarms.len() == 1,
        "{found:?}"
    );

    // A forged signature on the item hand 2's alarm rests on: refused, named.
    let mut forged = evidence.clone();
    forged.items[1] = signed_by(&key(2), &forged.items[1]);
    let refused = check_session(&records, &forged, &k.verifying_key()).unwrap_err();
    assert_eq!(refused.field, "items[1].sig");
    // A forged item no alarm rests on accuses nothing: the check goes on.
    let mut idle = evidence.clone();
    idle.items[0] = signed_by(&key(2), &idle.items[0]);
    let found = check_session(&records, &idle, &k.verifying_key()).unwrap();
    assert_eq!(found[1].alarms.len(), 1);
    // A record of another table among the records: refused, named.
    let mut stranger = second;
    if let Some(deal) = stranger.deal.as_mut() {
        deal.table_id = "elsewhere".into();
    }
    let refused = check_session(&[honest, stranger], &evidence, &k.verifying_key()).unwrap_err();
    assert_eq!(refused.field, "records[1].deal.table_id");
}

/// `item`'s notice signed by another key.
fn signed_by(other: &SigningKey, item: &Signed) -> Signed {
    Signed {
        notice: item.notice.clone(),
        sig: item.notice.clone().sign(other).sig,
    }
}
