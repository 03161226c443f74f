//! Random command sequences over every game: what each viewer sees.
//!
//! - No view holds the server seed before the reveal (the operator's
//!   neither); every view holds it after.
//! - A draw's event (every hand) is seen by the operator alone.
//! - Changing what only the operator may see (labels, linked accounts of
//!   other players, the cards of a draw) leaves every other view unchanged.
//! - What was dealt, draw by draw, is what the verifier recomputes from the
//!   record, and the record verifies.

use fairseed_core::games::Game;
use fairseed_core::{ClientSeed, Ident};
use proptest::prelude::*;
use serde_json::Value;

use super::tests::seed;
use super::*;
use crate::Viewer;

const VIEWERS: [Viewer; 5] = [
    Viewer::Operator,
    Viewer::Public,
    Viewer::Player(1),
    Viewer::Player(2),
    Viewer::Player(3),
];

fn any_game() -> impl Strategy<Value = Game> {
    proptest::sample::select(Game::ALL.to_vec())
}

fn any_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::Deal),
        Just(Step::Opening),
        Just(Step::Roll),
        Just(Step::First),
        (0usize..5).prop_map(Step::Second),
        Just(Step::Hand),
        Just(Step::Tile),
    ]
}

/// A command before the match fills in its seed and commitment.
#[derive(Debug, Clone)]
enum Plan {
    ClientSeed { index: usize, honest: bool },
    Start { honest: bool },
    Draw(Step),
    Finish(Vec<(usize, i64)>),
}

fn any_plan() -> impl Strategy<Value = Plan> {
    prop_oneof![
        3 => (0usize..5, proptest::bool::weighted(0.9))
            .prop_map(|(index, honest)| Plan::ClientSeed { index, honest }),
        1 => proptest::bool::weighted(0.9).prop_map(|honest| Plan::Start { honest }),
        6 => any_step().prop_map(Plan::Draw),
        1 => proptest::collection::vec((0usize..5, 1i64..4), 0..4).prop_map(Plan::Finish),
    ]
}

fn command(state: &Match, plan: &Plan) -> Command {
    let secret = |honest: bool| seed(if honest { 7 } else { 8 });
    match plan {
        Plan::ClientSeed { index, honest } => Command::ClientSeed {
            index: *index,
            client_seed: ClientSeed::parse(&format!("c{index}")).expect("valid"),
            shown: if *honest {
                state.commitment
            } else {
                seed(9).commitment()
            },
        },
        Plan::Start { honest } => Command::Start {
            seed: secret(*honest),
        },
        Plan::Draw(step) => Command::Draw {
            step: *step,
            seed: seed(7),
        },
        Plan::Finish(accounts) => Command::Finish {
            seed: seed(7),
            accounts: accounts.clone(),
        },
    }
}

fn opened(scheme: Scheme, game: Game) -> Match {
    let labels = (0..game.players()).map(|i| format!("label {i}")).collect();
    let tiles = if game == Game::Mahjong { 144 } else { 0 };
    let id = Ident::parse("prop").expect("valid");
    Match::open(scheme, game, id, seed(7).commitment(), labels, tiles)
}

fn text(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("serializes")
}

/// Every view of `state` against the seed and the operator's secrets.
fn check_views(state: &Match) -> Result<(), TestCaseError> {
    let revealed = matches!(state.phase, Phase::Revealed { .. });
    for viewer in VIEWERS {
        let seen = text(&view(state, viewer));
        prop_assert_eq!(
            seen.contains(seed(7).reveal()),
            revealed,
            "{:?}: {}",
            viewer,
            seen
        );
        if viewer != Viewer::Operator {
            prop_assert!(
                !seen.contains("label "),
                "{:?} sees a label: {}",
                viewer,
                seen
            );
            prop_assert!(!seen.contains("accounts"), "{:?}: {}", viewer, seen);
        }
    }
    // The operator's own values changed: nobody else's view changes.
    let mut other = state.clone();
    other.labels = other.labels.iter().map(|l| format!("{l}!")).collect();
    if let Phase::Revealed { accounts, .. } = &mut other.phase {
        accounts.retain(|(_, a)| *a == 1);
        accounts.push((0, 99));
    }
    for viewer in [Viewer::Public, Viewer::Player(1)] {
        prop_assert_eq!(view(state, viewer), view(&other, viewer));
    }
    Ok(())
}

/// Every view of one event, and the same event with its cards changed.
fn check_event(event: &Event) -> Result<(), TestCaseError> {
    let Event::Drawn(drawn) = event else {
        for viewer in VIEWERS {
            prop_assert!(event.view(viewer).is_some());
        }
        return Ok(());
    };
    prop_assert_eq!(
        event.view(Viewer::Operator),
        serde_json::to_value(drawn).ok()
    );
    let shuffled = Event::Drawn(match drawn.clone() {
        Drawn::Deal { mut hands } => {
            hands.reverse();
            Drawn::Deal { hands }
        }
        Drawn::Tile { tile } => Drawn::Tile {
            tile: tile.wrapping_add(1),
        },
        other => other,
    });
    for viewer in [Viewer::Public, Viewer::Player(1), Viewer::Player(2)] {
        prop_assert!(event.view(viewer).is_none(), "{:?} sees a draw", viewer);
        prop_assert_eq!(event.view(viewer), shuffled.view(viewer));
    }
    Ok(())
}

/// The draws as the record's outcome lists them, in the events' shapes.
fn dealt_per_record(record: &Value) -> Vec<Value> {
    let outcome = &record["outcome"];
    let mut out = Vec::new();
    if let Some(deals) = outcome["deals"].as_array() {
        out.extend(deals.iter().cloned());
    }
    if let Some(games) = outcome["games"].as_array() {
        for g in games {
            out.push(g["opening"].clone());
            out.extend(g["rolls"].as_array().into_iter().flatten().cloned());
        }
    }
    if let Some(hands) = outcome["hands"].as_array() {
        for h in hands {
            if h.get("first").is_some() {
                out.push(h["first"].clone());
                if !h["second"].is_null() {
                    out.push(h["second"].clone());
                }
            } else {
                out.extend(h.as_array().into_iter().flatten().cloned());
            }
        }
    }
    out
}

/// The same list from the events, in play order.
fn dealt_per_events(events: &[Event]) -> Vec<Value> {
    let value = |d: &Drawn| serde_json::to_value(d).expect("serializes");
    events
        .iter()
        .filter_map(|e| match e {
            Event::Drawn(Drawn::Hand) => None,
            Event::Drawn(d) => {
                let v = value(d);
                ["hands", "opening", "dice", "first", "second", "tile"]
                    .iter()
                    .find_map(|k| v.get(*k).cloned())
            }
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn views_never_show_what_their_viewer_may_not_see(
        game in any_game(),
        scheme in prop_oneof![Just(Scheme::V2), Just(Scheme::V1)],
        seated in proptest::bool::weighted(0.7),
        plans in proptest::collection::vec(any_plan(), 0..40),
    ) {
        let mut state = opened(scheme, game);
        // Most runs give every client seed and start first, so draws and
        // the finish are reached often; the rest try any order.
        let opening = (0..game.players())
            .map(|index| Plan::ClientSeed { index, honest: true })
            .chain([Plan::Start { honest: true }]);
        let plans: Vec<Plan> = if seated { opening.chain(plans).collect() } else { plans };
        let mut events = Vec::new();
        check_views(&state)?;
        for plan in &plans {
            let before = state.clone();
            match apply(&state, command(&state, plan), Millis(0)) {
                Ok((next, new)) => {
                    for e in &new {
                        check_event(e)?;
                    }
                    events.extend(new);
                    state = next;
                }
                Err(_) => prop_assert_eq!(&state, &before),
            }
            check_views(&state)?;
        }
        if let Some(Event::Finished { record }) = events.last() {
            prop_assert!(fairseed_core::verify_value(&record.body).valid, "{}", record.body);
            prop_assert_eq!(dealt_per_record(&record.body), dealt_per_events(&events));
        }
    }
}
