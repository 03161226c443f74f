//! The hold'em coach and hand replays for the Table tab.
//!
//! The page builds its own seat's [`SeatView`] from the table view the server
//! sent it (its own cards, the board, the public chips), so the advice is
//! computed in the browser from exactly what the player may see. A finished
//! hand's record replays here under the same rules the server played it by,
//! one step per action, with the deal rebuilt from the revealed seed.

use fairseed_holdem::ai::SeatView;
use fairseed_holdem::coach::{advise, check};
use fairseed_holdem::rules::{apply, Command, Logged, Seat, Table};
use fairseed_holdem::{replay, Action, Card, Event, HandRecord};
use fairseed_play::Millis;
use serde::Serialize;
use serde_json::json;
use wasm_bindgen::prelude::*;

/// The advice for the seat of `view` (a [`SeatView`] as JSON), as JSON.
///
/// # Errors
/// A view that does not parse or does not hold together, naming the field.
pub fn coach_json(view: &str, seed: u32) -> Result<String, String> {
    let view: SeatView = serde_json::from_str(view).map_err(|e| format!("view: {e}"))?;
    check(&view).map_err(|e| e.to_string())?;
    serde_json::to_string(&advise(&view, u64::from(seed))).map_err(|e| e.to_string())
}

/// [`coach_json`] for JavaScript.
///
/// # Errors
/// A view that does not parse or does not hold together, naming the field.
#[wasm_bindgen]
pub fn coach(view: &str, seed: u32) -> Result<String, JsError> {
    coach_json(view, seed).map_err(|e| JsError::new(&e))
}

/// One seat at one step of a replay (every card is public once the seed is).
#[derive(Clone, Serialize)]
struct StepSeat {
    seat: usize,
    hole: [Card; 2],
    stack: u64,
    street_bet: u64,
    folded: bool,
}

/// The table after the blinds, then after each action; after the last
/// action, the whole board dealt, the chips each seat won and its final stack.
#[derive(Serialize)]
struct Step {
    action: Option<Logged>,
    board: Vec<Card>,
    pot: u64,
    to_act: Option<usize>,
    seats: Vec<StepSeat>,
    won: Vec<(usize, u64)>,
}

fn step(table: &Table, action: Option<Logged>) -> Option<Step> {
    let hand = table.hand.as_ref()?;
    Some(Step {
        action,
        board: hand.board_dealt().to_vec(),
        pot: hand.pot(),
        to_act: Some(hand.seat_to_act()),
        seats: hand
            .players
            .iter()
            .map(|p| StepSeat {
                seat: p.seat,
                hole: p.hole,
                stack: p.stack,
                street_bet: p.street_bet,
                folded: p.folded,
            })
            .collect(),
        won: Vec::new(),
    })
}

/// The step of the hand's last action: the cards dealt and the pots
/// awarded by it (its `events`), each seat's stack after the hand.
fn last_step(before: &Step, logged: Logged, table: &Table, events: &[Event]) -> Step {
    let mut board = before.board.clone();
    let mut won: Vec<(usize, u64)> = Vec::new();
    for e in events {
        match e {
            Event::Dealt { cards, .. } => board.extend(cards),
            Event::Awarded { winners, .. } => won.extend(winners),
            _ => {}
        }
    }
    let seats = before
        .seats
        .iter()
        .map(|p| StepSeat {
            stack: table
                .seats
                .get(p.seat)
                .and_then(Option::as_ref)
                .map_or(0, |s| s.stack),
            street_bet: 0,
            folded: p.folded || (p.seat == logged.seat && logged.action == Action::Fold),
            ..p.clone()
        })
        .collect();
    Step {
        action: Some(logged),
        board,
        pot: won.iter().map(|w| w.1).sum(),
        to_act: None,
        seats,
        won,
    }
}

/// The table just before the hand, as the record's seats and button say.
fn table_before(record: &HandRecord) -> Option<Table> {
    let mut table = Table::new(record.config).ok()?;
    for s in &record.seats {
        *table.seats.get_mut(s.seat)? = Some(Seat {
            player: s.player,
            stack: s.stack,
            sitting_out: false,
        });
    }
    table.button = record.button.checked_sub(1);
    table.hands_played = record.hand.saturating_sub(1);
    Some(table)
}

/// The steps of `record` until the hand ends or an action is refused.
fn steps(record: &HandRecord) -> Vec<Step> {
    let Some(mut table) = table_before(record) else {
        return Vec::new();
    };
    let Ok((next, _)) = apply(&table, Command::StartHand { seed: record.seed }, Millis(0)) else {
        return Vec::new();
    };
    table = next;
    let mut out: Vec<Step> = step(&table, None).into_iter().collect();
    for logged in &record.actions {
        let command = Command::Act {
            seat: logged.seat,
            action: logged.action,
        };
        let Ok((next, events)) = apply(&table, command, Millis(0)) else {
            break;
        };
        table = next;
        let Some(now) = step(&table, Some(*logged)) else {
            if let Some(before) = out.last() {
                let last = last_step(before, *logged, &table, &events);
                out.push(last);
            }
            break;
        };
        out.push(now);
    }
    out
}

/// `{"valid", "error", "deal": {"holes": [[seat, [c, c]]…], "board"}, "steps"}`
/// for a `holdem_hand_v1` record: the replay's verdict (commitment, deck from
/// the seed, every action under the rules, every chip), the deal the seed
/// gives, and the hand step by step for the page to show.
///
/// # Errors
/// A record that does not parse, naming the field.
pub fn replay_json(record: &str) -> Result<String, String> {
    let record: HandRecord = serde_json::from_str(record).map_err(|e| format!("record: {e}"))?;
    let verdict = replay(&record);
    let steps = steps(&record);
    // The deal straight from the seed (core's selfpoker deal, seats in order).
    let deal = fairseed_core::selfpoker::deal(record.seed, record.seats.len())
        .ok()
        .map(|d| {
            let seats = record.seats.iter().map(|s| s.seat);
            json!({"holes": seats.zip(d.holes).collect::<Vec<_>>(), "board": d.board})
        });
    Ok(json!({
        "valid": verdict.is_ok(),
        "error": verdict.err().map(|e| e.to_string()),
        "deal": deal,
        "steps": steps,
    })
    .to_string())
}

/// [`replay_json`] for JavaScript.
///
/// # Errors
/// A record that does not parse, naming the field.
#[wasm_bindgen]
pub fn holdem_replay(record: &str) -> Result<String, JsError> {
    replay_json(record).map_err(|e| JsError::new(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairseed_holdem::ai::Level;
    use serde_json::Value;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap_or_default()
    }

    #[test]
    fn coach_answers_a_view_and_names_a_bad_field() {
        // The nut flush on the river against one opponent: exact, all the pot.
        let view = json!({"seat": 0, "hole": [51, 47], "board": [43, 39, 35, 0, 21],
            "street": "river", "button": 1, "big_blind": 100,
            "seats": [{"seat": 0, "stack": 900, "street_bet": 0, "total": 100, "folded": false},
                      {"seat": 1, "stack": 900, "street_bet": 0, "total": 100, "folded": false}],
            "actions": [], "to_call": 0, "raise": [100, 900]});
        let advice = parse(&coach_json(&view.to_string(), 1).unwrap_or_default());
        assert_eq!(advice["equity"], json!(1.0));
        assert_eq!(advice["method"], json!({"kind": "exact", "cases": 990}));
        assert_eq!(advice["action"]["kind"], "raise_to");
        let mut bad = view.clone();
        bad["board"] = json!([43, 39, 35]);
        assert!(coach_json(&bad.to_string(), 1).is_err_and(|e| e.starts_with("board:")));
        bad["hole"] = json!([51]);
        assert!(coach_json(&bad.to_string(), 1).is_err_and(|e| e.starts_with("view:")));
    }

    #[test]
    fn a_simulated_hand_replays_step_by_step() {
        let records = fairseed_holdem::simulate(&[Level::One, Level::Two, Level::Three], 3, 9)
            .unwrap_or_default();
        assert_eq!(records.len(), 3);
        for record in &records {
            let text = serde_json::to_string(record).unwrap_or_default();
            let out = parse(&replay_json(&text).unwrap_or_default());
            assert_eq!(out["valid"], json!(true), "{out}");
            // The blinds, then one step per action.
            assert_eq!(
                out["steps"].as_array().map(Vec::len),
                Some(record.actions.len() + 1)
            );
            let deal = fairseed_core::selfpoker::deal(record.seed, record.seats.len());
            assert_eq!(out["deal"]["board"], json!(deal.map(|d| d.board).ok()));
            // The last step: the whole board dealt, what each seat won, the final stacks.
            let last = &out["steps"][record.actions.len()];
            assert_eq!(last["board"], json!(record.results.board));
            let won: u64 = record.results.pots.iter().map(|p| p.amount).sum();
            assert_eq!(last["pot"], json!(won));
            for (seat, stack) in &record.results.stacks {
                let shown = last["seats"]
                    .as_array()
                    .and_then(|a| a.iter().find(|p| p["seat"] == json!(seat)));
                assert_eq!(shown.map(|p| p["stack"].clone()), Some(json!(stack)));
            }
            let mut forged = record.clone();
            forged.seed ^= 1;
            let text = serde_json::to_string(&forged).unwrap_or_default();
            let out = parse(&replay_json(&text).unwrap_or_default());
            assert_eq!(out["valid"], json!(false));
            assert!(
                out["error"].as_str().unwrap_or("").contains("commit"),
                "{out}"
            );
        }
        assert!(replay_json("{}").is_err_and(|e| e.starts_with("record:")));
    }
}

/// The first `count` decisions of `fairseed_holdem::simulate::ai_decisions`
/// for `seed`, one action per line (`fold`, `check`, `call`, `raise to 1,200`):
/// the same pure function as the native build, for comparing the two.
///
/// # Errors
/// The rules refused a hand (never for these settings).
pub fn ai_decisions_text(seed: u32, count: u32) -> Result<String, String> {
    let count = usize::try_from(count).map_err(|e| e.to_string())?;
    fairseed_holdem::simulate::ai_decisions_text(u64::from(seed), count).map_err(|e| e.to_string())
}

/// [`ai_decisions_text`] for JavaScript.
///
/// # Errors
/// The rules refused a hand (never for these settings).
#[wasm_bindgen]
pub fn holdem_ai_decisions(seed: u32, count: u32) -> Result<String, JsError> {
    ai_decisions_text(seed, count).map_err(|e| JsError::new(&e))
}
