//! Verifiable AI decisions (docs/spec.md §18): the seed derivation against
//! vectors from an independent Python script, every AI decision of a
//! `selfpoker_v2` hand replayed by the verifier, a decision that depends on
//! the seat's view alone, and an AI that peeks at the human's cards caught.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_core::selfpoker_v2::ClientSeedEntry;
use fairseed_holdem::ai::derive::{decision_message, decision_seed, ENGINE_V1};
use fairseed_holdem::ai::{chen, DecisionKey, Level, SeatView};
use fairseed_holdem::deal::DealV2;
use fairseed_holdem::rules::{Action, Command, HandState, Player, Table, TableConfig};
use fairseed_holdem::simulate::{ai_decisions, play_hand_with};
use fairseed_holdem::verdict::verdict;
use fairseed_holdem::{apply, replay, simulate_session, Card, HandRecord, ReplayError, SessionV2};
use fairseed_play::Millis;
use proptest::prelude::*;
use serde_json::Value;

fn vectors() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/primitives/holdem_ai.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/vectors/primitives/holdem_ai.json");
    let file: Value = serde_json::from_str(&text).unwrap();
    file["cases"].as_array().unwrap().clone()
}

fn secret_of(hex_text: &str) -> [u8; 32] {
    fairseed_core::selfpoker_v2::parse_secret(hex_text, "session_secret").unwrap()
}

/// The message and the seed of every case of `tests/vectors/holdem_ai.py`.
#[test]
fn decision_seeds_match_the_python_vectors() {
    let cases = vectors();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    for case in cases {
        let secret = secret_of(case["session_secret"].as_str().unwrap());
        let table = case["table_id"].as_str().unwrap();
        let hand = case["hand"].as_u64().unwrap();
        let seat = usize::try_from(case["seat"].as_u64().unwrap()).unwrap();
        let index = usize::try_from(case["index"].as_u64().unwrap()).unwrap();
        let msg = decision_message(table, hand, seat, index);
        let hex_msg: String = msg.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex_msg, case["message_hex"].as_str().unwrap(), "{case}");
        assert_eq!(
            decision_seed(&secret, table, hand, seat, index),
            case["seed"].as_u64().unwrap(),
            "{case}"
        );
    }
}

const SIX: [Level; 6] = [
    Level::One,
    Level::Two,
    Level::Three,
    Level::Three,
    Level::Two,
    Level::One,
];

fn session() -> SessionV2 {
    SessionV2 {
        table_id: "t1".into(),
        client_seeds: vec![ClientSeedEntry::new(0, "browser").unwrap()],
        scheme: fairseed_holdem::live::Scheme::SelfpokerV2,
    }
}

/// Simulated `selfpoker_v2` hands name their AIs' engine, and the verifier
/// replays every AI decision; an AI action changed is named in words.
#[test]
fn simulated_ai_decisions_replay_and_a_changed_one_is_named() {
    let records = simulate_session(&SIX, 30, 9, Some(&session())).unwrap();
    let mut replayed = 0;
    for r in &records {
        assert!(r
            .seats
            .iter()
            .all(|s| matches!(s.player, Player::Human { .. }) == s.engine.is_none()));
        replay(r).unwrap();
        let v = verdict(r);
        assert!(v.valid, "{v:?}");
        let ai = v
            .checks
            .iter()
            .find(|c| c.name == "ai")
            .expect("an ai check");
        replayed += ai
            .detail
            .split(' ')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap();
    }
    assert!(replayed > 100, "{replayed} AI decisions");
    // The first AI action that a different fold or call would still leave
    // legal: change it, and the verifier names it before the rules object.
    let (r, i) = records
        .iter()
        .find_map(|r| {
            let i = r.actions.iter().position(|a| {
                a.seat != 0 && matches!(a.action, Action::Call | Action::RaiseTo(_))
            })?;
            Some((r, i))
        })
        .unwrap();
    let mut changed = r.clone();
    changed.actions[i].action = Action::Fold;
    changed.actions.truncate(i + 1);
    let err = replay(&changed).unwrap_err();
    assert!(matches!(err, ReplayError::Ai { .. }), "{err}");
    let text = err.to_string();
    let level = r
        .seats
        .iter()
        .find(|s| s.seat == r.actions[i].seat)
        .unwrap();
    let Player::Ai { level } = level.player else {
        panic!("seat 0 is the human")
    };
    let want = format!(
        "hand {}, {}: seat {} (AI level {level}, v1) folded; from its own seat it ",
        r.hand, r.actions[i].street, r.actions[i].seat
    );
    assert!(text.starts_with(&want), "{text}");
    let v = verdict(&changed);
    assert!(!v.valid);
    assert!(v.checks.iter().any(|c| c.name == "ai" && !c.ok), "{v:?}");
}

/// An AI seat of a revealed `selfpoker_v2` hand that names no engine cannot
/// be replayed, and the verifier says so instead of passing it.
#[test]
fn an_ai_without_an_engine_fails_the_ai_check() {
    let records = simulate_session(&SIX, 1, 3, Some(&session())).unwrap();
    let mut r = records[0].clone();
    r.seats[2].engine = None;
    let err = replay(&r).unwrap_err();
    assert!(
        err.to_string()
            .contains("seat 2 is an AI that names no engine"),
        "{err}"
    );
    // Held to its policy, the record fails that check first: the policy
    // plays its AIs under engine v1.
    let v = verdict(&r);
    let policy = v.checks.iter().find(|c| c.name == "policy");
    assert!(
        policy.is_some_and(|c| !c.ok && c.detail.contains("names no engine")),
        "{v:?}"
    );
    // A record from before records carried their policy: the `ai` check says it.
    r.policy = None;
    let v = verdict(&r);
    assert!(!v.valid && v.checks.iter().any(|c| c.name == "ai" && !c.ok));
}

/// The six-handed table a test double plays at: a human at seat 0, AIs.
fn table_with_human(levels: &[u8]) -> Table {
    let config = TableConfig {
        seats: levels.len() + 1,
        ..TableConfig::default()
    };
    let mut table = Table::new(config).unwrap();
    table = apply(
        &table,
        Command::Sit {
            seat: 0,
            player: Player::Human { id: 7 },
        },
        Millis(0),
    )
    .unwrap()
    .0;
    for (i, &level) in levels.iter().enumerate() {
        let sit = Command::Sit {
            seat: i + 1,
            player: Player::Ai { level },
        };
        table = apply(&table, sit, Millis(0)).unwrap().0;
    }
    table
}

/// Plays `hands` hands of a `selfpoker_v2` session where `act` decides for
/// every seat (the human included), and returns the revealed records.
fn play_session(
    hands: u64,
    levels: &[u8],
    act: &mut dyn FnMut(&HandState, &DecisionKey<'_>) -> Action,
) -> Vec<HandRecord> {
    let secret = SessionV2::secret(77);
    let s = session();
    let key = DecisionKey {
        secret: &secret,
        table_id: &s.table_id,
    };
    let mut table = table_with_human(levels);
    let mut out = Vec::new();
    for n in 1..=hands {
        for seat in 0..table.seats.len() {
            if table.seats[seat].as_ref().unwrap().stack < 10_000 {
                table = apply(&table, Command::TopUp { seat }, Millis(0)).unwrap().0;
            }
        }
        let seed = fairseed_core::selfpoker_v2::hand_seed(&secret, &s.table_id, n, &s.client_seeds)
            .unwrap();
        let (next, mut record, _) =
            play_hand_with(&table, seed, Millis(n as i64 * 1_000_000), &mut |h| {
                act(h, &key)
            })
            .unwrap();
        record.deal = Some(DealV2::new(&secret, &s.table_id, &s.client_seeds, true));
        out.push(record.with_ai_engine(ENGINE_V1));
        table = next;
    }
    out
}

fn level_of(levels: &[u8], seat: usize) -> Level {
    Level::from_number(levels[seat - 1]).unwrap()
}

/// The human (seat 0) plays as a level-2 AI would, from its own view.
fn human(h: &HandState, key: &DecisionKey<'_>) -> Action {
    key.decide(ENGINE_V1, Level::Two, h.number, &SeatView::of(h))
}

/// An honest session verifies, AI decisions included.
#[test]
fn honest_ais_verify() {
    let levels = [1, 2, 3, 2, 1];
    let records = play_session(10, &levels, &mut |h, key| {
        if h.seat_to_act() == 0 {
            return human(h, key);
        }
        let level = level_of(&levels, h.seat_to_act());
        key.decide(ENGINE_V1, level, h.number, &SeatView::of(h))
    });
    for r in &records {
        let v = verdict(r);
        assert!(v.valid, "{v:?}");
    }
}

/// A test double of a dishonest house: its AIs look at the human's cards
/// and fold to a strong human hand, raise against a weak one; otherwise they
/// play honestly with the session's seeds. `fairseed verify` catches it in
/// the first few hands, naming the hand, the street, the seat and both actions.
#[test]
fn a_peeking_ai_is_caught_within_a_few_hands() {
    let levels = [2, 3, 1, 2, 3];
    let records = play_session(20, &levels, &mut |h, key| {
        let seat = h.seat_to_act();
        if seat == 0 {
            return human(h, key);
        }
        let view = SeatView::of(h);
        let honest = key.decide(ENGINE_V1, level_of(&levels, seat), h.number, &view);
        let Some(person) = h.players.iter().find(|p| p.seat == 0 && !p.folded) else {
            return honest;
        };
        let theirs = chen(person.hole);
        let legal = h.legal();
        if theirs >= 9.0 && legal.to_call > 0 {
            Action::Fold
        } else if theirs <= 4.0 {
            legal.raise.map_or(honest, |(min, _)| Action::RaiseTo(min))
        } else {
            honest
        }
    });
    let first = records
        .iter()
        .position(|r| !verdict(r).valid)
        .expect("the peeking AI is caught");
    assert!(first < 5, "caught only at hand {}", first + 1);
    let err = replay(&records[first]).unwrap_err();
    assert!(matches!(err, ReplayError::Ai { .. }), "{err}");
    assert!(err.to_string().contains("from its own seat it"), "{err}");
}

/// The 52 cards.
fn all_cards() -> Vec<Card> {
    Card::all().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// An AI's decision is a function of its seat's view: deal any other
    /// cards to the other seats (and the undealt deck) and it decides the same.
    #[test]
    fn a_decision_depends_only_on_the_seats_view(
        deal_seed in 0u64..(1 << 63),
        acts in 0usize..6,
        shuffle in any::<u64>(),
        level in 1u8..=3,
    ) {
        let table = table_with_human(&[level; 5]);
        let (mut t, _) = apply(&table, Command::StartHand { seed: deal_seed }, Millis(0)).unwrap();
        let secret = SessionV2::secret(deal_seed);
        let key = DecisionKey { secret: &secret, table_id: "t1" };
        for _ in 0..acts {
            let Some(h) = &t.hand else { break };
            let action = key.decide(ENGINE_V1, Level::One, h.number, &SeatView::of(h));
            t = apply(&t, Command::Act { seat: h.seat_to_act(), action }, Millis(1)).unwrap().0;
        }
        let Some(h) = &t.hand else { return Ok(()) };
        let me = h.seat_to_act();
        let lvl = Level::from_number(level).unwrap();
        let before = key.decide(ENGINE_V1, lvl, h.number, &SeatView::of(h));
        // Give every other seat two cards from those not in this seat's view.
        let mine = h.players.iter().find(|p| p.seat == me).unwrap().hole;
        let seen: Vec<Card> = mine.iter().chain(h.board_dealt()).copied().collect();
        let mut free: Vec<Card> = all_cards().into_iter().filter(|c| !seen.contains(c)).collect();
        let mut state = shuffle;
        for i in (1..free.len()).rev() {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            free.swap(i, usize::try_from(state >> 33).unwrap() % (i + 1));
        }
        let mut other = h.clone();
        let mut next = free.into_iter();
        for p in other.players.iter_mut().filter(|p| p.seat != me) {
            p.hole = [next.next().unwrap(), next.next().unwrap()];
        }
        prop_assert_ne!(&other, h);
        let after = key.decide(ENGINE_V1, lvl, other.number, &SeatView::of(&other));
        prop_assert_eq!(before, after);
    }
}

/// `ai_decisions` (what the wasm build exposes for a native-vs-wasm
/// comparison) is a pure function of its arguments.
#[test]
fn the_decision_batch_is_a_pure_function() {
    let a = ai_decisions(5, 2_000).unwrap();
    assert_eq!(a.len(), 2_000);
    assert_eq!(a, ai_decisions(5, 2_000).unwrap());
    assert_eq!(&a[..500], &ai_decisions(5, 500).unwrap()[..]);
    assert_ne!(a, ai_decisions(6, 2_000).unwrap());
    for kind in ["fold", "check", "call", "raise"] {
        assert!(
            a.iter().any(|x| x.to_string().starts_with(kind)),
            "no {kind} among {} decisions",
            a.len()
        );
    }
}
