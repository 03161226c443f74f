//! `fairseed roll` and `fairseed commit` through the real binary, against the
//! vectors the seeds' own reference code produced.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

mod common;

fn fairseed(args: &[&str], stdin: &[u8]) -> Output {
    common::run(args, stdin)
}

fn vectors(name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vectors/records")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("vector lines are JSON"))
        .collect()
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn roll_matches_the_reference_rolls_and_payouts() {
    let dice = vectors("dice_v1.jsonl");
    // Every 37th vector: bare rolls and bets of both conditions, a quick sample.
    for record in dice.iter().step_by(37) {
        let s = |k: &str| record[k].as_str().expect("string field").to_owned();
        let nonce = record["nonce"].to_string();
        let mut args = vec![
            "roll".to_owned(),
            "--server-seed".to_owned(),
            s("server_seed"),
            "--client-seed".to_owned(),
            s("client_seed"),
            "--nonce".to_owned(),
            nonce,
            "--json".to_owned(),
        ];
        if let Some(bet) = record.get("bet") {
            args.extend([
                "--amount".to_owned(),
                bet["amount"].to_string(),
                format!("--{}", bet["condition"].as_str().expect("condition")),
                bet["target"].to_string(),
            ]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let rolled: Value =
            serde_json::from_str(&stdout(&fairseed(&args, b""))).expect("--json prints JSON");
        assert_eq!(rolled["outcome"], record["outcome"], "{record}");
        assert_eq!(rolled["commitment"], record["commitment"], "{record}");

        // The record it prints verifies.
        let again = fairseed(&["verify", "-"], rolled.to_string().as_bytes());
        assert_eq!(
            again.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&again.stdout)
        );
    }
}

#[test]
fn commit_matches_the_reference_commitments() {
    let dice = vectors("dice_v1.jsonl");
    let record = &dice[0];
    let seed = record["server_seed"].as_str().expect("seed");
    let expected = format!(
        "commitment {}\n",
        record["commitment"].as_str().expect("commitment")
    );
    assert_eq!(stdout(&fairseed(&["commit", seed], b"")), expected);
    assert_eq!(
        stdout(&fairseed(&["commit", "-"], format!("{seed}\n").as_bytes())),
        expected
    );

    for record in vectors("selfpoker.jsonl").iter().take(5) {
        let seed = record["seed"].to_string().trim_matches('"').to_owned();
        let expected = format!("commit {}\n", record["commit"].as_str().expect("commit"));
        assert_eq!(
            stdout(&fairseed(&["commit", "--selfpoker", &seed], b"")),
            expected
        );
    }
}

#[test]
fn a_new_seed_comes_with_its_own_commitment() {
    let out = stdout(&fairseed(&["commit", "--new"], b""));
    let mut lines = out.lines();
    let seed = lines
        .next()
        .and_then(|l| l.strip_prefix("server_seed "))
        .expect("seed line");
    let commitment = lines.next().expect("commitment line");
    assert!(
        seed.len() == 64
            && seed
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{seed}"
    );
    assert_eq!(
        stdout(&fairseed(&["commit", seed], b"")).trim_end(),
        commitment
    );
    let other = stdout(&fairseed(&["commit", "--new"], b""));
    assert_ne!(out, other, "two new seeds differ");
}

#[test]
fn bad_arguments_exit_2_naming_the_problem() {
    let seed = "2e207db5ab126a0fd90270a9130d9cd6d6816e9afd107cbbfd3ac52bea05a602";
    for (args, needle) in [
        (vec!["commit", "zz"], "invalid server seed"),
        (
            vec!["commit", "--selfpoker", "9223372036854775808"],
            "invalid --selfpoker seed",
        ),
        (
            vec![
                "roll",
                "--server-seed",
                "ABC",
                "--client-seed",
                "c",
                "--nonce",
                "0",
            ],
            "invalid --server-seed",
        ),
        (
            vec![
                "roll",
                "--server-seed",
                seed,
                "--client-seed",
                "",
                "--nonce",
                "0",
            ],
            "invalid --client-seed",
        ),
        (
            vec![
                "roll",
                "--server-seed",
                seed,
                "--client-seed",
                "c",
                "--nonce",
                "0",
                "--amount",
                "5",
                "--under",
                "0",
            ],
            "chance 0",
        ),
        (
            vec![
                "roll",
                "--server-seed",
                seed,
                "--client-seed",
                "c",
                "--nonce",
                "0",
                "--amount",
                "5",
                "--over",
                "198",
            ],
            "chance 9801",
        ),
        (
            vec![
                "roll",
                "--server-seed",
                seed,
                "--client-seed",
                "c",
                "--nonce",
                "-1",
            ],
            "-1",
        ),
        (
            vec![
                "roll",
                "--server-seed",
                seed,
                "--client-seed",
                "c",
                "--nonce",
                "0",
                "--amount",
                "5",
            ],
            "--under",
        ),
    ] {
        let out = fairseed(&args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            !stderr.contains(seed),
            "{args:?}: a seed must not be echoed: {stderr}"
        );
    }
}

/// `fairseed commit` without a seed reads a piped one, and on a terminal says
/// what it needs instead of waiting there; its help says both.
#[test]
fn commit_without_a_seed_reads_a_pipe_and_never_waits_on_a_terminal() {
    let seed = "2e207db5ab126a0fd90270a9130d9cd6d6816e9afd107cbbfd3ac52bea05a602";
    let piped = stdout(&fairseed(&["commit", "-"], format!("{seed}\n").as_bytes()));
    assert!(piped.starts_with("commitment "), "{piped}");
    assert_eq!(
        stdout(&fairseed(&["commit"], format!("{seed}\n").as_bytes())),
        piped
    );

    // A terminal on standard input: `script` (util-linux) gives the command a
    // pseudo-terminal. Reading it would wait until `script` ends the input;
    // the answer must come at once, naming what is missing.
    let bin = env!("CARGO_BIN_EXE_fairseed");
    let mut child = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &format!("'{bin}' commit"), "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    let started = std::time::Instant::now();
    let out = loop {
        if let Some(status) = child.try_wait().expect("script is waited on") {
            break (status, child.wait_with_output().expect("output"));
        }
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("fairseed commit waited on a terminal");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (status, output) = out;
    let said = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(status.code(), Some(2), "{said}");
    assert!(said.contains("no server seed given"), "{said}");

    let help = stdout(&fairseed(&["commit", "--help"], b""));
    assert!(
        help.contains("read from standard input when that is a pipe or a file"),
        "{help}"
    );
}
