//! `selfpoker_v2` hand records through the real binary: `table simulate
//! --client-seed` writes them, `fairseed verify` checks secret → commitment,
//! derivation → seed, seed → commit, deck and actions, and names a change.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{code, run, text};

/// The command that wrote `examples/holdem_selfpoker_v2.jsonl`.
const EXAMPLE_ARGS: [&str; 14] = [
    "table",
    "simulate",
    "--seats",
    "4",
    "--hands",
    "3",
    "--seed",
    "42",
    "--client-seed",
    "0=alice",
    "--client-seed",
    "3=bob 🎲",
    "--scheme",
    "selfpoker_v2",
];

fn example() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/holdem_selfpoker_v2.jsonl");
    std::fs::read_to_string(path).expect("the example exists")
}

fn records() -> Vec<Value> {
    example()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON record per line"))
        .collect()
}

/// `fairseed verify --json` of one record: its exit status and verdict.
fn verify_one(record: &Value) -> (i32, Value) {
    let out = run(&["verify", "--json", "-"], format!("{record}\n").as_bytes());
    let verdict = serde_json::from_str(text(&out.stdout).trim()).expect("one verdict");
    (code(&out), verdict)
}

fn first_failure(verdict: &Value) -> String {
    verdict["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["ok"] == false)
        .map(|c| {
            format!(
                "{}: {}",
                c["name"].as_str().unwrap_or(""),
                c["detail"].as_str().unwrap_or("")
            )
        })
        .unwrap_or_default()
}

#[test]
fn the_example_is_the_simulation_and_verifies() {
    let out = run(&EXAMPLE_ARGS, b"");
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), example());
    let out = run(&["verify", "-"], example().as_bytes());
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(report.contains("ok   derivation: seed "), "{report}");
    assert!(report.contains("ok   ai: "), "{report}");
    assert!(
        report.ends_with("3 records: 3 valid, 0 invalid, 0 unreadable\n"),
        "{report}"
    );
}

#[test]
fn a_changed_client_seed_fails_the_derivation() {
    let mut r = records().remove(1);
    r["deal"]["client_seeds"]["3"] = Value::from("bob");
    let (status, verdict) = verify_one(&r);
    assert_eq!(status, 1);
    let seed = r["seed"].as_u64().expect("seed");
    let msg = first_failure(&verdict);
    assert!(
        msg.starts_with("derivation: hand 2: the seed derived from the session secret"),
        "{msg}"
    );
    assert!(msg.ends_with(&format!("the record says {seed}")), "{msg}");
}

#[test]
fn a_changed_secret_fails_its_commitment() {
    let mut r = records().remove(0);
    let secret = r["deal"]["session_secret"]
        .as_str()
        .expect("secret")
        .to_owned();
    let other = if secret.ends_with('0') { "1" } else { "0" };
    r["deal"]["session_secret"] = Value::from(format!("{}{other}", &secret[..63]));
    let (status, verdict) = verify_one(&r);
    assert_eq!(status, 1);
    let msg = first_failure(&verdict);
    assert!(
        msg.starts_with("session_secret: hand 1: sha256(session_secret) is "),
        "{msg}"
    );
}

#[test]
fn an_open_session_is_invalid_until_revealed_and_a_bad_secret_unreadable() {
    let mut r = records().remove(0);
    r["deal"]
        .as_object_mut()
        .expect("deal")
        .remove("session_secret");
    let (status, verdict) = verify_one(&r);
    assert_eq!(status, 1);
    assert!(
        first_failure(&verdict).contains("not revealed yet"),
        "{verdict}"
    );
    // session_secret, policy, commitment, actions, results.
    assert_eq!(verdict["checks"].as_array().map(Vec::len), Some(5));
    r["deal"]["session_secret"] = Value::from("ABC");
    let (status, verdict) = verify_one(&r);
    assert_eq!(status, 2);
    let error = verdict["error"].as_str().unwrap_or("");
    assert!(
        error.starts_with("hand 1: deal.session_secret: "),
        "{error}"
    );
}

/// `table simulate` at two seats with one `--client-seed`: its status and stderr.
fn simulate_with(client_seed: &str) -> (i32, String) {
    let args = [
        "table",
        "simulate",
        "--seats",
        "2",
        "--hands",
        "1",
        "--seed",
        "1",
        "--client-seed",
        client_seed,
    ];
    let out = run(&args, b"");
    (code(&out), text(&out.stderr))
}

#[test]
fn client_seeds_must_be_printable_and_at_the_table() {
    let (status, stderr) = simulate_with("5=x");
    assert_eq!(status, 2);
    assert!(stderr.contains("seat 5 does not exist"), "{stderr}");
    let (status, stderr) = simulate_with("0=a\u{202e}b");
    assert_eq!(status, 2);
    assert!(stderr.contains("U+202E"), "{stderr}");
}

/// An AI action that is not what its level decides from its own seat (as a
/// house whose AI peeked would record) fails `ai`, naming hand, street, seat,
/// level, engine and both actions (docs/spec.md §18.2).
#[test]
fn an_ai_action_its_level_would_not_take_is_named() {
    let records = records();
    let (mut r, i) = records
        .iter()
        .find_map(|r| {
            let humans: Vec<u64> = r["seats"]
                .as_array()?
                .iter()
                .filter(|s| s["player"]["kind"] == "human")
                .filter_map(|s| s["seat"].as_u64())
                .collect();
            let i = r["actions"].as_array()?.iter().position(|a| {
                a["action"]["kind"] != "fold" && !humans.contains(&a["seat"].as_u64().unwrap_or(99))
            })?;
            Some((r.clone(), i))
        })
        .expect("an AI action other than a fold");
    let action = r["actions"][i].clone();
    r["actions"][i]["action"] = serde_json::json!({"kind": "fold"});
    let (status, verdict) = verify_one(&r);
    assert_eq!(status, 1);
    let msg = first_failure(&verdict);
    let seat = action["seat"].as_u64().expect("seat");
    let level = r["seats"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["seat"] == seat))
        .map(|s| s["player"]["level"].clone())
        .expect("the AI's seat");
    let want = format!(
        "ai: hand {}, {}: seat {seat} (AI level {level}, v1) folded; from its own seat it ",
        r["hand"],
        action["street"].as_str().expect("street")
    );
    assert!(msg.starts_with(&want), "{msg}");
}

/// `table simulate` with humans deals under `selfpoker_v3` unless told:
/// the example is that simulation, every hand verifies, each human's
/// per-hand value is the one docs/spec.md §15.2 derives, and every record
/// carries the table's policy.
#[test]
fn the_v3_example_is_the_default_simulation_and_verifies() {
    let args = &EXAMPLE_ARGS[..12];
    let out = run(args, b"");
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/holdem_selfpoker_v3.jsonl");
    let example = std::fs::read_to_string(path).expect("examples/holdem_selfpoker_v3.jsonl");
    assert_eq!(text(&out.stdout), example);
    for line in example.lines() {
        let r: Value = serde_json::from_str(line).expect("a record");
        assert_eq!(r["deal"]["scheme"], "selfpoker_v3");
        assert_eq!(r["policy"]["ais"], serde_json::json!([2, 3]));
        let values = r["deal"]["hand_values"].as_object().expect("values");
        assert_eq!(values.len(), 2, "{r}");
    }
    let out = run(&["verify", "-"], example.as_bytes());
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(report.contains("ok   reveals: 2 revealed"), "{report}");
    assert!(report.contains("ok   policy: every seat"), "{report}");
}
