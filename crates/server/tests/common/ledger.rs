//! The service's guarantees, checked from the outside over HTTP: every
//! acknowledged bet is stored exactly as answered, nonces per seed pair are
//! 0, 1, 2, … with none reused or skipped, each balance is the opening
//! balance plus the history (bet by bet, not only in total), each bet's
//! settlement is the core's, and every exported record verifies with the
//! core and matches the bet it proves.

use std::collections::{BTreeMap, HashMap};

use fairseed_core::dice::{Bet, Condition};
use serde_json::{json, Value};

use super::http::Client;
use super::load::Sent;
use super::OPENING;

fn u64_of(v: &Value, field: &str) -> u64 {
    v[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} is not an unsigned integer in {v}"))
}

fn i64_of(v: &Value, field: &str) -> i64 {
    v[field]
        .as_i64()
        .unwrap_or_else(|| panic!("{field} is not an integer in {v}"))
}

/// Follows `next_before` through every page of `path` (newest first) and
/// returns the items oldest first.
pub fn all_pages(c: &mut Client, token: &str, path: &str, items: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut before: Option<i64> = None;
    let sep = if path.contains('?') { '&' } else { '?' };
    loop {
        let url = match before {
            Some(b) => format!("{path}{sep}limit=500&before={b}"),
            None => format!("{path}{sep}limit=500"),
        };
        let a = c.send("GET", &url, Some(token), &[], None).expect(&url);
        assert_eq!(a.status, 200, "{url}: {}", a.body);
        let page = a.json();
        out.extend(page[items].as_array().expect(items).iter().cloned());
        match page["next_before"].as_i64() {
            Some(b) => {
                assert!(before.is_none_or(|prev| b < prev), "paging moves back");
                before = Some(b);
            }
            None => break,
        }
    }
    out.reverse();
    out
}

/// Every bet of a player, oldest first, checked for the ledger invariants.
pub fn check_player(c: &mut Client, token: &str) -> Vec<Value> {
    let bets = all_pages(c, token, "/v1/dice/bets", "bets");
    let mut next_nonce: BTreeMap<i64, u64> = BTreeMap::new();
    let mut balance = u128::from(OPENING);
    let mut last_id = 0;
    for b in &bets {
        let id = i64_of(b, "bet_id");
        assert!(id > last_id, "bet ids increase: {last_id} then {id}");
        last_id = id;
        let expected = next_nonce.entry(i64_of(b, "pair_id")).or_insert(0);
        assert_eq!(
            u64_of(b, "nonce"),
            *expected,
            "nonce reused or skipped on pair {}: {b}",
            b["pair_id"]
        );
        *expected += 1;

        let amount = u64_of(b, "amount");
        let condition = Condition::parse_field(b["condition"].as_str().expect("condition"), "c")
            .expect("stored condition parses");
        let target = u16::try_from(u64_of(b, "target")).expect("target fits u16");
        let roll = u16::try_from(u64_of(b, "roll")).expect("roll fits u16");
        let settled = Bet::new(amount, condition, target)
            .expect("stored bet is valid")
            .settle(roll);
        assert_eq!(b["win"], json!(settled.win), "win per the core: {b}");
        let payout = u128::from(u64_of(b, "payout"));
        assert_eq!(payout, settled.payout, "payout per the core: {b}");
        balance = balance - u128::from(amount) + payout;
        assert_eq!(
            u128::from(u64_of(b, "balance")),
            balance,
            "balance after bet {id} = opening + history so far"
        );
    }
    let me = c.send("GET", "/v1/me", Some(token), &[], None).expect("me");
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(
        u128::from(u64_of(&me.json(), "balance")),
        balance,
        "balance = opening + history"
    );
    let seeds = c
        .send("GET", "/v1/seeds", Some(token), &[], None)
        .expect("seeds");
    let current = seeds.json();
    let used = next_nonce
        .get(&i64_of(&current, "pair_id"))
        .copied()
        .unwrap_or(0);
    assert_eq!(
        u64_of(&current, "next_nonce"),
        used,
        "the current pair's next nonce follows its last bet"
    );
    bets
}

/// Every acknowledged answer is in `stored` (by token) unchanged.
pub fn check_acked(acked: &[(Sent, Value)], stored: &HashMap<String, Vec<Value>>) {
    let by_id: HashMap<(&str, i64), &Value> = stored
        .iter()
        .flat_map(|(t, bets)| {
            bets.iter()
                .map(move |b| ((t.as_str(), i64_of(b, "bet_id")), b))
        })
        .collect();
    for (sent, answer) in acked {
        let id = i64_of(answer, "bet_id");
        // Lists carry no receipts; the rest of the answer must be stored as given.
        let answer = super::without_receipts(answer);
        assert_eq!(
            by_id.get(&(sent.token.as_str(), id)).copied(),
            Some(&answer),
            "acknowledged bet {} lost or changed",
            sent.key
        );
    }
}

/// Rotates (so every bet is revealed), exports, and checks each record:
/// it verifies with the core, and each bet has exactly one record whose
/// bet and outcome are the bet's. Returns the number of records.
pub fn check_records(c: &mut Client, token: &str, bets: &[Value]) -> usize {
    let r = c
        .send("POST", "/v1/seeds/rotate", Some(token), &[], None)
        .expect("rotate");
    assert_eq!(r.status, 200, "rotate: {}", r.body);
    let pairs = all_pages(c, token, "/v1/seeds/revealed", "pairs");
    let commitment: HashMap<i64, String> = pairs
        .iter()
        .map(|p| {
            (
                i64_of(p, "pair_id"),
                p["commitment"].as_str().expect("commitment").to_owned(),
            )
        })
        .collect();
    let export = c
        .send("GET", "/v1/records/export", Some(token), &[], None)
        .expect("export");
    assert_eq!(export.status, 200, "export: {}", export.body);
    let mut records: HashMap<(String, u64), Value> = HashMap::new();
    for (n, line) in export.body.lines().enumerate() {
        let verdict = fairseed_core::verify_str(line);
        assert!(
            verdict.valid,
            "exported record {n} does not verify: {verdict:?}\n{line}"
        );
        let record: Value = serde_json::from_str(line).expect("record JSON");
        let key = (
            record["commitment"]
                .as_str()
                .expect("commitment")
                .to_owned(),
            u64_of(&record, "nonce"),
        );
        assert!(
            records.insert(key, record).is_none(),
            "one record per nonce"
        );
    }
    for b in bets {
        let c = &commitment[&i64_of(b, "pair_id")];
        let record = records
            .remove(&(c.clone(), u64_of(b, "nonce")))
            .unwrap_or_else(|| panic!("no record for bet {b}"));
        assert_eq!(
            record["bet"],
            json!({"amount": b["amount"], "condition": b["condition"], "target": b["target"]})
        );
        assert_eq!(
            record["outcome"],
            json!({"roll": b["roll"], "win": b["win"], "payout": b["payout"]}),
            "the record proves the roll the player was answered"
        );
    }
    // What is left can only be the bare proof of a pair without bets.
    for ((_, nonce), record) in &records {
        assert_eq!(*nonce, 0, "stray record {record}");
        assert!(record.get("bet").is_none(), "stray bet record {record}");
    }
    let with_bets: std::collections::HashSet<i64> =
        bets.iter().map(|b| i64_of(b, "pair_id")).collect();
    assert_eq!(
        records.len(),
        pairs.len() - with_bets.len(),
        "one bare proof per revealed pair without bets"
    );
    export.body.lines().count()
}

/// [`check_records`] for every player of `stored`; returns the number of records.
pub fn check_every_export(c: &mut Client, stored: &HashMap<String, Vec<Value>>) -> usize {
    stored
        .iter()
        .map(|(token, bets)| check_records(c, token, bets))
        .sum()
}
