//! `fairseed verify` through the real binary: exit codes, output shapes, framing.
//!
//! Expected verdicts come from `tests/vectors/records`, written by a generator
//! that runs the seeds' own reference code (not by this crate or by core).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

mod common;
use common::{code, fairseed, run, text};

fn records_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors/records")
}

/// Runs `fairseed verify [extra..] -` with `input` on stdin.
fn verify_stdin(extra: &[&str], input: &[u8]) -> Output {
    run(&[&["verify"][..], extra, &["-"]].concat(), input)
}

fn verify_file(extra: &[&str], file: &Path) -> Output {
    fairseed()
        .arg("verify")
        .args(extra)
        .arg(file)
        .output()
        .expect("the binary runs")
}

/// The top-level keys of a JSON object, in the order they are written.
struct KeyOrder(Vec<String>);

impl<'de> serde::Deserialize<'de> for KeyOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(KeyOrder(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}

/// Parses `--json` output and checks every line has exactly the shape of docs/spec.md §11.4,
/// keys in the spec's order.
fn json_lines(out: &Output) -> Vec<Value> {
    let stdout = text(&out.stdout);
    for line in stdout.lines() {
        let KeyOrder(keys) =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not an object ({e}): {line}"));
        assert_eq!(
            keys,
            ["index", "scheme", "valid", "checks", "outcome", "error"],
            "{line}"
        );
    }
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    for v in &lines {
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("not an object: {v}"));
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["checks", "error", "index", "outcome", "scheme", "valid"],
            "{v}"
        );
        assert!(obj["index"].is_u64(), "{v}");
        assert!(obj["valid"].is_boolean(), "{v}");
        assert!(obj["error"].is_null() || obj["error"].is_string(), "{v}");
        assert!(
            obj["outcome"].is_null() || obj["outcome"].is_object(),
            "{v}"
        );
        assert!(obj["scheme"].is_null() || obj["scheme"].is_string(), "{v}");
        for check in obj["checks"]
            .as_array()
            .unwrap_or_else(|| panic!("checks: {v}"))
        {
            let check = check.as_object().unwrap_or_else(|| panic!("check: {v}"));
            let mut keys: Vec<&str> = check.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["detail", "name", "ok"], "{v}");
            assert!(
                check["name"].is_string() && check["detail"].is_string(),
                "{v}"
            );
            assert!(check["ok"].is_boolean(), "{v}");
        }
    }
    lines
}

fn good_record_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(records_dir())
        .expect("tests/vectors/records exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            stem != "invalid" && stem != "malformed"
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 7,
        "expected a record file per scheme: {files:?}"
    );
    files
}

fn expectations(name: &str) -> Vec<Value> {
    let path = records_dir().join(name);
    let raw = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let Value::Array(items) = serde_json::from_str(&raw).expect("expect files are JSON arrays")
    else {
        panic!("{name} is not an array")
    };
    items
}

fn file_lines(name: &str) -> Vec<String> {
    let path = records_dir().join(name);
    fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_record_file_verifies() {
    for file in good_record_files() {
        let out = verify_file(&[], &file);
        assert_eq!(
            code(&out),
            0,
            "{}: {}{}",
            file.display(),
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{}: no report", file.display());
        assert!(
            out.stderr.is_empty(),
            "{}: {}",
            file.display(),
            text(&out.stderr)
        );

        let out = verify_file(&["--json"], &file);
        assert_eq!(code(&out), 0, "{}", file.display());
        let lines = json_lines(&out);
        let records = fs::read_to_string(&file)
            .expect("readable")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count();
        assert_eq!(lines.len(), records, "{}", file.display());
        for (i, v) in lines.iter().enumerate() {
            assert_eq!(v["index"], i as u64, "{}", file.display());
            assert_eq!(v["valid"], true, "{}: {v}", file.display());
            assert!(v["error"].is_null(), "{}: {v}", file.display());
            assert!(v["scheme"].is_string(), "{}: {v}", file.display());
        }
    }
}

#[test]
fn every_tampered_record_exits_1_and_names_the_mismatch() {
    let lines = file_lines("invalid.jsonl");
    let expect = expectations("invalid.expect.json");
    assert_eq!(
        lines.len(),
        expect.len(),
        "one expectation per invalid record"
    );
    for e in &expect {
        let line_no = e["line"].as_u64().expect("line") as usize;
        let field = e["field"].as_str().expect("field");
        let record = &lines[line_no];

        let out = verify_stdin(&["--json"], record.as_bytes());
        assert_eq!(
            code(&out),
            1,
            "line {line_no} ({}): {}{}",
            e["expect"],
            text(&out.stdout),
            text(&out.stderr)
        );
        let v = &json_lines(&out)[0];
        assert_eq!(v["valid"], false, "{v}");
        assert!(
            v["error"].is_null(),
            "a mismatch is not an input error: {v}"
        );
        let failed: Vec<&Value> = v["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .filter(|c| c["ok"] == false)
            .collect();
        assert!(!failed.is_empty(), "line {line_no}: no failed check in {v}");
        // A check names the field when it is the field, or the part of the record
        // holding it (`leaves[0]` for `leaves[0].path`), or a part of it, or its
        // detail says the field (`... not to deck_root`).
        let names = |c: &&&Value| {
            let name = c["name"].as_str().unwrap_or_default();
            let detail = c["detail"].as_str().unwrap_or_default();
            field.starts_with(name) || name.starts_with(field) || detail.contains(field)
        };
        let first = failed.iter().find(names).unwrap_or_else(|| {
            panic!(
                "line {line_no}: no failed check names `{field}` ({}): {v}",
                e["expect"]
            )
        });

        let out = verify_stdin(&[], record.as_bytes());
        assert_eq!(code(&out), 1, "line {line_no}");
        let report = text(&out.stdout);
        let named = format!(
            "{}: {}",
            first["name"].as_str().unwrap_or_default(),
            first["detail"].as_str().unwrap_or_default()
        );
        assert!(
            report.contains(&named),
            "line {line_no}: report does not say `{named}`:\n{report}"
        );
        assert!(
            report.contains("first mismatch: "),
            "line {line_no}: no first mismatch in\n{report}"
        );
    }

    let out = verify_file(&[], &records_dir().join("invalid.jsonl"));
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!("{} invalid", lines.len())),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn every_malformed_record_exits_2_and_names_the_field() {
    let lines = file_lines("malformed.jsonl");
    let expect = expectations("malformed.expect.json");
    assert_eq!(
        lines.len(),
        expect.len(),
        "one expectation per malformed record"
    );
    for e in &expect {
        let line_no = e["line"].as_u64().expect("line") as usize;
        let record = &lines[line_no];
        for format in [&[][..], &["--json"][..]] {
            let out = verify_stdin(format, record.as_bytes());
            let stderr = text(&out.stderr);
            assert_eq!(
                code(&out),
                2,
                "line {line_no} ({}): {}{stderr}",
                e["why"],
                text(&out.stdout)
            );
            assert!(
                stderr.contains("record 0"),
                "line {line_no}: stderr does not name the record: {stderr}"
            );
            if let Some(field) = e["field"].as_str() {
                assert!(
                    stderr.contains(field),
                    "line {line_no} ({}): stderr does not name `{field}`: {stderr}",
                    e["why"]
                );
            }
            if format == ["--json"] {
                let v = &json_lines(&out)[0];
                assert_eq!(v["valid"], false, "{v}");
                assert!(v["error"].is_string(), "{v}");
            }
        }
    }

    // The whole file: every record reported, in order, and the status is 2.
    let out = verify_file(&["--json"], &records_dir().join("malformed.jsonl"));
    assert_eq!(code(&out), 2);
    let reported = json_lines(&out);
    let indexes: Vec<u64> = reported
        .iter()
        .map(|v| v["index"].as_u64().expect("index"))
        .collect();
    assert_eq!(indexes.first(), Some(&0));
    assert!(indexes.windows(2).all(|w| w[1] == w[0] + 1), "{indexes:?}");
    assert!(
        reported.iter().all(|v| v["error"].is_string()),
        "every line is malformed"
    );
}

#[test]
fn stdin_and_file_give_the_same_report() {
    for file in good_record_files() {
        let from_file = verify_file(&["--json"], &file);
        let bytes = fs::read(&file).expect("readable");
        let from_stdin = verify_stdin(&["--json"], &bytes);
        assert_eq!(code(&from_stdin), 0);
        assert_eq!(from_file.stdout, from_stdin.stdout, "{}", file.display());
    }
}

#[test]
fn an_array_and_a_pretty_record_verify_like_json_lines() {
    let lines = file_lines("dice_v1.jsonl");
    let some: Vec<Value> = lines[..25]
        .iter()
        .map(|l| serde_json::from_str(l).expect("vector lines are JSON"))
        .collect();
    let jsonl = verify_stdin(&["--json"], lines[..25].join("\n").as_bytes());
    assert_eq!(code(&jsonl), 0);

    let array = serde_json::to_string_pretty(&some).expect("serializes");
    let out = verify_stdin(&["--json"], array.as_bytes());
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert_eq!(out.stdout, jsonl.stdout);

    let one = serde_json::to_string_pretty(&some[1]).expect("serializes");
    assert!(one.lines().count() > 3, "really spread over lines");
    let out = verify_stdin(&["--json"], one.as_bytes());
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let single = &json_lines(&out)[0];
    let expected = &json_lines(&jsonl)[1];
    assert_eq!(single["index"], 0);
    assert_eq!(single["checks"], expected["checks"]);
    assert_eq!(single["outcome"], expected["outcome"]);
}

#[test]
fn many_chunks_come_back_in_order() {
    // Far more than one 256 KiB chunk, so several workers take part.
    let lines = file_lines("dice_v1.jsonl");
    let mut input = String::new();
    let mut expected = Vec::new();
    while input.len() < 3 << 20 {
        for (i, l) in lines.iter().enumerate() {
            input.push_str(l);
            input.push('\n');
            expected.push(i);
        }
    }
    let out = verify_stdin(&["--json", "-j", "3"], input.as_bytes());
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let got = json_lines(&out);
    assert_eq!(got.len(), expected.len());
    let single: Vec<Value> = json_lines(&verify_file(
        &["--json"],
        &records_dir().join("dice_v1.jsonl"),
    ));
    for (n, (v, &i)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(v["index"], n as u64);
        assert_eq!(v["outcome"], single[i]["outcome"], "record {n}");
    }
}

#[test]
fn mixed_input_reports_each_record_and_exits_with_the_worst() {
    let good = &file_lines("dice_v1.jsonl")[0];
    let bad = &file_lines("invalid.jsonl")[0];
    let input = format!("{good}\n\n{bad}\nnot json\n{good}\n");
    let out = verify_stdin(&["--json"], input.as_bytes());
    assert_eq!(code(&out), 2);
    let got = json_lines(&out);
    let valid: Vec<bool> = got.iter().map(|v| v["valid"] == true).collect();
    assert_eq!(valid, [true, false, false, true]);
    assert!(got[1]["error"].is_null() && got[2]["error"].is_string());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("record 2 (line 4)"), "{stderr}");

    let input = format!("{good}\n{bad}\n");
    let out = verify_stdin(&[], input.as_bytes());
    assert_eq!(code(&out), 1);
    assert!(
        text(&out.stdout).contains("2 records: 1 valid, 1 invalid, 0 unreadable"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn unreadable_framing_exits_2_with_a_message() {
    for (input, needle) in [
        (&b""[..], "no records"),
        (b"\n  \n", "no records"),
        (b"[]", "no records"),
        (
            b"[{\"scheme\": \"dice_v1\"},\n {\"scheme\": ]",
            "record 1: invalid JSON",
        ),
        (b"{\n\"scheme\": \"dice_v1\",\n", "record 0: invalid JSON"),
        (b"{\"scheme\": \"dice\xff_v1\"}\n", "record 0 (line 1)"),
    ] {
        let out = verify_stdin(&[], input);
        let stderr = text(&out.stderr);
        assert_eq!(code(&out), 2, "{:?}: {stderr}", text(input));
        assert!(stderr.contains(needle), "{:?}: {stderr}", text(input));
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let out = verify_file(&[], Path::new("/nonexistent/records.jsonl"));
    assert_eq!(code(&out), 2);
    assert!(text(&out.stderr).contains("cannot open /nonexistent/records.jsonl"));
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    let lines = file_lines("dice_v1.jsonl");
    let mut input = String::new();
    while input.len() < 8 << 20 {
        input.push_str(&lines.join("\n"));
        input.push('\n');
    }
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("broken-pipe.jsonl");
    fs::write(&path, &input).expect("tmp is writable");
    let mut child = fairseed()
        .args(["verify", "--json"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("some output arrives");
    drop(stdout);
    let out = child.wait_with_output().expect("the binary runs");
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn the_examples_verify_as_their_readme_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut seen = 0;
    for entry in fs::read_dir(&dir).expect("examples/ exists") {
        let path = entry.expect("directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        if !(name.ends_with(".json") || name.ends_with(".jsonl")) {
            continue;
        }
        // examples/README.md: a pending bet and the tampered records exit 1, the rest 0.
        let expected = if name == "dice_v1_pending.json" || name == "tampered.jsonl" {
            1
        } else {
            0
        };
        let out = verify_file(&[], &path);
        assert_eq!(
            code(&out),
            expected,
            "{name}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        seen += 1;
    }
    assert!(seen >= 9, "examples found: {seen}");
}
