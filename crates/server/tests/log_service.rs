//! The transparency log through the real binary: players, bets and a
//! rotation; then, over HTTP only, the checkpoint and every tile and entry
//! bundle, the root recomputed from the tiles with `fairseed-tlog`, every
//! receipt's signature and inclusion proof, and every dice commitment shown
//! found in the log. On PostgreSQL (`FAIRSEED_TEST_DB_URI`): two processes
//! on one database, one sequencer, one consistent tree.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use base64::prelude::*;
use common::http::Client;
use common::load::{bet, bet_body, Sent};
use common::pg::{postgres_or_skip, ServerDatabase};
use common::raw::{get, get_ok};
use common::server::{Options, Server};
use common::sse::Subscription;
use common::{new_player, wait_for, without_receipts, OPERATOR_KEY};
use fairseed_tlog::{
    check_bundle, leaf_hash, new_entry_bundles, new_hash_tiles, open_checkpoint, open_receipt,
    verify_inclusion, verify_tiles, BatchReceipt, Checkpoint, EntryKind, Hash, LogEntry, TileKind,
    TilePath,
};
use serde_json::{json, Value};

/// What the service showed: receipts and dice commitments.
#[derive(Default)]
struct Shown {
    receipts: Vec<Value>,
    commitments: BTreeSet<String>,
}

impl Shown {
    fn take(&mut self, body: &Value) {
        let receipts = body["receipts"].as_array().expect("receipts");
        assert!(!receipts.is_empty(), "a response without receipts: {body}");
        self.receipts.extend(receipts.iter().cloned());
    }

    /// Takes the receipts of `view`, a later view of what the calls
    /// `created` showed: they must be of the same entries, in order.
    fn view(&mut self, view: &Value, created: &[&Value]) {
        self.take(view);
        let entries = |body: &Value| -> Vec<Value> {
            body["receipts"]
                .as_array()
                .expect("receipts")
                .iter()
                .map(|r| r["entry"].clone())
                .collect()
        };
        let want: Vec<Value> = created.iter().flat_map(|&c| entries(c)).collect();
        assert_eq!(
            entries(view),
            want,
            "a view carries the receipts of what it shows: {view}"
        );
    }
}

/// Players, bets and a rotation through `addrs` in turn.
fn play(addrs: &[String], players: usize, bets: usize) -> Shown {
    let mut shown = Shown::default();
    for p in 0..players {
        let mut c = Client::new(&addrs[p % addrs.len()]);
        let created = c
            .send("POST", "/v1/players", None, &[], None)
            .expect("create");
        assert_eq!(created.status, 201);
        let created = created.json();
        shown.take(&created);
        shown.commitments.insert(
            created["seed_pair"]["commitment"]
                .as_str()
                .expect("c")
                .into(),
        );
        let token = created["token"].as_str().expect("token").to_owned();
        for b in 0..bets {
            let mut c = Client::new(&addrs[b % addrs.len()]);
            let sent = Sent {
                token: token.clone(),
                key: format!("k{b}"),
                body: bet_body(p, b),
            };
            let a = bet(&mut c, &sent).expect("bet");
            assert_eq!(a.status, 200, "{}", a.body);
            let replay = bet(&mut c, &sent).expect("replay").json();
            assert_eq!(without_receipts(&replay), without_receipts(&a.json()));
            assert_eq!(
                replay["receipts"][0]["entry"],
                a.json()["receipts"][0]["entry"],
                "a replay carries a receipt of the same entry"
            );
            shown.take(&replay);
            shown.take(&a.json());
        }
        if p == 0 {
            let rotated = c.ok("POST", "/v1/seeds/rotate", &token, None);
            shown.take(&rotated);
            assert_eq!(rotated["receipts"].as_array().expect("r").len(), 2);
            shown.commitments.insert(
                rotated["seed_pair"]["commitment"]
                    .as_str()
                    .expect("c")
                    .into(),
            );
            let current = c.ok("GET", "/v1/seeds", &token, None);
            shown.take(&current);
            assert_eq!(
                current["receipts"][0]["entry"], rotated["receipts"][1]["entry"],
                "the current pair's view carries its commitment's receipt"
            );
            shown
                .commitments
                .insert(current["commitment"].as_str().expect("c").into());
        }
    }
    shown
}

/// A poker table with a hand, a selfpoker hand to its end, a chess seed and
/// a match, through `addr`: each answer that shows a commitment or reveal
/// carries receipts.
fn games(addr: &str, shown: &mut Shown) {
    let mut c = Client::new(addr);
    let table = c.ok(
        "POST",
        "/v1/poker/tables",
        OPERATOR_KEY,
        Some(&json!({"table_id": "logged"})),
    );
    shown.take(&table);
    let mut seated = String::new();
    for seat in [1, 2] {
        seated = new_player(&mut c);
        let sit = json!({"seat": seat, "client_seed": "c", "commitment": table["commitment"]});
        c.ok("POST", "/v1/poker/tables/logged/seats", &seated, Some(&sit));
    }
    let hand = c.ok("POST", "/v1/poker/tables/logged/hands", OPERATOR_KEY, None);
    shown.take(&hand);
    let view = c.ok("GET", "/v1/poker/tables/logged", OPERATOR_KEY, None);
    shown.view(&view, &[&table, &hand]);
    let view = c.ok("GET", "/v1/poker/tables/logged/hands/1", &seated, None);
    shown.view(&view, &[&hand]);
    let entry = BASE64_STANDARD
        .decode(hand["receipts"][0]["entry"].as_str().expect("entry"))
        .expect("base64");
    let entry = LogEntry::decode(&entry).expect("decodes");
    assert_eq!(
        entry.values,
        [hand["hand_commitment"].clone(), hand["deck_root"].clone()]
    );

    let token = new_player(&mut c);
    let dealt = c.ok(
        "POST",
        "/v1/selfpoker/hands",
        &token,
        Some(&json!({"players": 2})),
    );
    shown.take(&dealt);
    let dealt_receipts = json!({"receipts": dealt["receipts"]});
    let id = dealt["hand_id"].as_str().expect("hand_id").to_owned();
    let mut last = dealt;
    while last["stage"] != "hand_end" {
        last = c.ok(
            "POST",
            &format!("/v1/selfpoker/hands/{id}/next"),
            &token,
            None,
        );
    }
    shown.take(&last);
    let view = c.ok("GET", &format!("/v1/selfpoker/hands/{id}"), &token, None);
    shown.view(&view, &[&dealt_receipts, &last]);
    let seed = c.ok("POST", "/v1/chess/seeds", &token, None);
    shown.take(&seed);
    let vs_bot =
        json!({"seed_id": seed["seed_id"], "client_seed": "b", "commitment": seed["commitment"]});
    c.ok("POST", "/v1/chess/bot", &token, Some(&vs_bot));
    let path = format!("/v1/chess/games/{}", seed["seed_id"].as_str().expect("id"));
    shown.view(&c.ok("GET", &path, &token, None), &[&seed]);
    let opened = c.ok(
        "POST",
        "/v1/matches",
        OPERATOR_KEY,
        Some(&json!({"game": "tarneeb"})),
    );
    shown.take(&opened);
    let path = format!("/v1/matches/{}", opened["match_id"].as_str().expect("id"));
    shown.view(&c.ok("GET", &path, OPERATOR_KEY, None), &[&opened]);
    let created = c.ok(
        "POST",
        "/v1/holdem/tables",
        &token,
        Some(&json!({"scheme": "selfpoker_v2", "ais": [1]})),
    );
    shown.take(&created);
    let path = format!(
        "/v1/holdem/tables/{}",
        created["table_id"].as_str().expect("id")
    );
    shown.view(&c.ok("GET", &path, &token, None), &[&created]);
}

/// A JSON array of base64 hashes.
fn hashes(list: &Value) -> Vec<Hash> {
    list.as_array()
        .expect("hashes")
        .iter()
        .map(|h| {
            let bytes = BASE64_STANDARD
                .decode(h.as_str().expect("b64"))
                .expect("b64");
            Hash(bytes.try_into().expect("32 bytes"))
        })
        .collect()
}

fn checkpoint(addr: &str, vkey: &str) -> (Checkpoint, String) {
    let (headers, note) = get_ok(addr, "/log/checkpoint");
    assert_eq!(headers["content-type"], "text/plain; charset=utf-8");
    assert_eq!(headers["cache-control"], "no-cache");
    let head = open_checkpoint(&note, vkey).expect("the checkpoint is signed by /log/key");
    (head, String::from_utf8(note).expect("utf-8"))
}

/// Whether the entry of `hash` has its leaf (`/log/receipts/{hash}`).
fn sequenced(addr: &str, hash: &str) -> bool {
    let (status, _, body) = get(addr, &format!("/log/receipts/{hash}"));
    status == 200
        && serde_json::from_slice::<Value>(&body).is_ok_and(|full| full["leaf_index"].is_u64())
}

/// Recomputes the tree from the served tiles and checks every receipt against it.
fn audit(addr: &str, shown: &Shown) {
    let (_, vkey) = get_ok(addr, "/log/key");
    let vkey = String::from_utf8(vkey).expect("utf-8").trim().to_owned();
    let distinct: BTreeSet<&str> = shown
        .receipts
        .iter()
        .map(|r| r["entry_hash"].as_str().expect("hash"))
        .collect();
    // Every entry shown, not only as many as were shown: the log also
    // holds entries no answer showed, which can fill the count first.
    wait_for("sequencing", Duration::from_secs(20), || {
        distinct.iter().all(|hash| sequenced(addr, hash))
    });
    let (head, _) = checkpoint(addr, &vkey);
    let size = head.size();
    let mut tiles: BTreeMap<TilePath, Vec<u8>> = BTreeMap::new();
    for tile in new_hash_tiles(0, size)
        .into_iter()
        .chain(new_entry_bundles(0, size))
    {
        let (headers, data) = get_ok(addr, &format!("/log/{}", tile.path()));
        assert_eq!(headers["content-type"], "application/octet-stream");
        let cache = if tile.width == 256 {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=60"
        };
        assert_eq!(headers["cache-control"], cache, "{}", tile.path());
        tiles.insert(tile, data);
    }
    verify_tiles(size, *head.hash(), |t| tiles.get(t).cloned())
        .expect("tiles match the checkpoint");
    let mut entries = Vec::new();
    for (tile, bundle) in tiles.iter().filter(|(t, _)| t.kind == TileKind::Entries) {
        let leaf = TilePath {
            kind: TileKind::Hashes { level: 0 },
            ..*tile
        };
        let checked = check_bundle(bundle, &tiles[&leaf]).expect("bundle matches its tile");
        entries.extend(checked.into_iter().map(<[u8]>::to_vec));
    }
    assert_eq!(entries.len() as u64, size);
    let logged: BTreeSet<&Vec<u8>> = entries.iter().collect();
    for receipt in &shown.receipts {
        let entry = BASE64_STANDARD
            .decode(receipt["entry"].as_str().expect("entry"))
            .expect("base64");
        let batch = BatchReceipt {
            note: receipt["signature"].as_str().expect("sig").into(),
            index: receipt["batch_index"].as_u64().expect("batch index"),
            proof: hashes(&receipt["batch_proof"]),
        };
        open_receipt(&batch, &vkey, &entry).expect("the receipt is signed by the log key");
        assert!(logged.contains(&entry), "a receipt's entry is in the log");
        let hash = receipt["entry_hash"].as_str().expect("hash");
        assert_eq!(hash, hex::encode(leaf_hash(&entry).0));
        let full = Client::new(addr).ok("GET", &format!("/log/receipts/{hash}"), "", None);
        let index = full["leaf_index"].as_u64().expect("sequenced");
        let note = full["checkpoint"].as_str().expect("checkpoint");
        let at = open_checkpoint(note.as_bytes(), &vkey).expect("signed");
        let proof = hashes(&full["inclusion_proof"]);
        verify_inclusion(&proof, at.size(), *at.hash(), index, leaf_hash(&entry))
            .expect("inclusion proof");
        assert_eq!(entries[usize::try_from(index).expect("small")], entry);
    }
    let committed: BTreeSet<String> = entries
        .iter()
        .map(|e| LogEntry::decode(e).expect("entry decodes"))
        .filter(|e| e.kind == EntryKind::Commitment && e.scheme == "dice_v1")
        .flat_map(|e| e.values)
        .collect();
    for commitment in &shown.commitments {
        assert!(
            committed.contains(commitment),
            "dice commitment {commitment} is logged"
        );
    }
    let (status, _, _) = get(addr, "/log/tile/0/x001/000");
    assert_eq!(status, 404, "a tile past the tree");
    let (status, _, _) = get(addr, "/log/tile/0/0001");
    assert_eq!(status, 422, "a tile path not in C2SP form");
}

#[test]
fn sqlite_log_serves_what_it_acknowledged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(dir.path()));
    let mut shown = play(std::slice::from_ref(&server.addr), 3, 4);
    games(&server.addr, &mut shown);
    audit(&server.addr, &shown);
    let kinds: BTreeSet<(String, u8)> = shown
        .receipts
        .iter()
        .map(|r| {
            let bytes = BASE64_STANDARD
                .decode(r["entry"].as_str().expect("entry"))
                .expect("base64");
            (LogEntry::decode(&bytes).expect("entry").scheme, bytes[1])
        })
        .collect();
    let want: BTreeSet<(String, u8)> = [
        ("dice_v1", 1),
        ("dice_v1", 2),
        ("dice_v1", 3),
        ("poker_hmac_v1", 1),
        ("selfpoker", 1),
        ("selfpoker", 2),
        ("chess_colour_v1", 1),
        ("match_seed_v1", 1),
        ("selfpoker_v2", 1),
        // A hold'em table's policy, committed as it opens.
        ("holdem_table", 1),
    ]
    .into_iter()
    .map(|(s, k)| (s.to_owned(), k))
    .collect();
    assert_eq!(kinds, want, "receipts of every kind the service shows");
    let mode = std::fs::metadata(dir.path().join("log.key")).expect("log.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(mode.permissions().mode() & 0o777, 0o600);
    }
    let printed = server
        .lines()
        .iter()
        .any(|(_, l)| l.contains("transparency log localhost/fairseed key localhost/fairseed+"));
    assert!(printed, "the verifier key is printed at start");
}

/// A bet's live event is the bet as answered without its receipt: the
/// receipt is the answer's, and an event travels to every process.
#[test]
fn a_dice_event_is_the_bet_without_its_receipt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::start(&Options::new(dir.path()));
    let mut c = Client::new(&server.addr);
    let token = new_player(&mut c);
    let events = Subscription::start(&server.addr, &token, "dice");
    let sent = Sent {
        token,
        key: "event-1".into(),
        body: bet_body(0, 0),
    };
    let answer = bet(&mut c, &sent).expect("bet").json();
    assert_eq!(answer["receipts"].as_array().map(Vec::len), Some(1));
    wait_for("the bet's event", Duration::from_secs(10), || {
        !events.received().is_empty()
    });
    let event: Value = serde_json::from_str(&events.received()[0].data).expect("JSON");
    assert_eq!(event, without_receipts(&answer));
}

#[test]
fn log_off_gives_no_receipts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut options = Options::new(dir.path());
    options.extra_args = vec!["--log".into(), "off".into()];
    let server = Server::start(&options);
    let mut c = Client::new(&server.addr);
    let token = new_player(&mut c);
    let sent = Sent {
        token,
        key: "k".into(),
        body: bet_body(0, 0),
    };
    let a = bet(&mut c, &sent).expect("bet");
    assert!(a.json().get("receipts").is_none());
    let current = c.ok("GET", "/v1/seeds", &sent.token, None);
    assert!(current.get("receipts").is_none());
    let opened = c.ok(
        "POST",
        "/v1/matches",
        OPERATOR_KEY,
        Some(&json!({"game": "tarneeb"})),
    );
    let path = format!("/v1/matches/{}", opened["match_id"].as_str().expect("id"));
    assert!(c
        .ok("GET", &path, OPERATOR_KEY, None)
        .get("receipts")
        .is_none());
    assert_eq!(get(&server.addr, "/log/checkpoint").0, 404);
}

#[test]
fn postgres_two_processes_one_tree() {
    let Some(url) = postgres_or_skip("transparency log on two processes") else {
        return;
    };
    let db = ServerDatabase::create(&url);
    let start = || {
        let mut o = Options::new(db.dir.path());
        o.database = Some(&db.url);
        Server::start(&o)
    };
    let first = start();
    let second = start();
    let addrs = [first.addr.clone(), second.addr.clone()];
    let shown = play(&addrs, 4, 3);
    audit(&first.addr, &shown);
    audit(&second.addr, &shown);
    let vkey = String::from_utf8(get_ok(&first.addr, "/log/key").1).expect("utf-8");
    let other = String::from_utf8(get_ok(&second.addr, "/log/key").1).expect("utf-8");
    assert_eq!(vkey, other, "one key for the fleet");
}
