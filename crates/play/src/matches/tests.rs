//! One test per rule of the match machine. Expected draws are checked
//! against properties (a deal is a partition of the deck, a wall runs out
//! at its size) and against the core's verifier reading the record.

use fairseed_core::games::Game;
use fairseed_core::{ClientSeed, Ident, ServerSeed};

use super::*;
use crate::{RuleViolation, Viewer};

const NOW: Millis = Millis(1_700_000_000_000);

pub(super) fn seed(byte: u8) -> ServerSeed {
    ServerSeed::from_bytes([byte; 32])
}

pub(super) fn opened(game: Game, tiles: usize) -> Match {
    let labels = (0..game.players()).map(|i| format!("p{i}")).collect();
    let id = Ident::parse("m-test.1").expect("a valid id");
    Match::open(Scheme::V2, game, id, seed(7).commitment(), labels, tiles)
}

fn client(i: usize) -> ClientSeed {
    ClientSeed::parse(&format!("client {i}")).expect("a valid client seed")
}

fn ok(state: &Match, command: Command) -> (Match, Vec<Event>) {
    apply(state, command, NOW).unwrap_or_else(|e| panic!("refused: {e}"))
}

fn refused(state: &Match, command: Command) -> MatchError {
    match apply(state, command, NOW) {
        Ok(_) => panic!("accepted"),
        Err(e) => e,
    }
}

fn give_seed(state: &Match, index: usize) -> Match {
    let command = Command::ClientSeed {
        index,
        client_seed: client(index),
        shown: state.commitment,
    };
    ok(state, command).0
}

pub(super) fn started(game: Game, tiles: usize) -> Match {
    let mut state = opened(game, tiles);
    for i in 0..game.players() {
        state = give_seed(&state, i);
    }
    ok(&state, Command::Start { seed: seed(7) }).0
}

fn draw(state: &Match, step: Step) -> (Match, Drawn) {
    let (next, events) = ok(
        state,
        Command::Draw {
            step,
            seed: seed(7),
        },
    );
    match events.as_slice() {
        [Event::Drawn(d)] => (next, d.clone()),
        other => panic!("a draw gave {other:?}"),
    }
}

#[test]
fn a_client_seed_needs_the_commitment_the_match_shows() {
    let state = opened(Game::Tarneeb, 0);
    let other = seed(8).commitment();
    let err = refused(
        &state,
        Command::ClientSeed {
            index: 0,
            client_seed: client(0),
            shown: other,
        },
    );
    assert_eq!(err.code(), "commitment_mismatch");
    assert!(err.to_string().contains(&other.to_hex()), "{err}");
}

#[test]
fn each_index_gives_one_client_seed_within_the_players() {
    let state = give_seed(&opened(Game::Backgammon, 0), 1);
    let again = Command::ClientSeed {
        index: 1,
        client_seed: client(9),
        shown: state.commitment,
    };
    assert_eq!(refused(&state, again).code(), "seed_already_set");
    let outside = Command::ClientSeed {
        index: 2,
        client_seed: client(2),
        shown: state.commitment,
    };
    let err = refused(&state, outside);
    assert_eq!(err.code(), "invalid_index");
    assert!(err.to_string().starts_with("index: 2"), "{err}");
}

#[test]
fn start_needs_every_client_seed_and_the_committed_seed() {
    let state = give_seed(&opened(Game::Tarneeb, 0), 2);
    let err = refused(&state, Command::Start { seed: seed(7) });
    assert_eq!(err, MatchError::ClientSeedsMissing(vec![0, 1, 3]));
    let full = (0..4).fold(opened(Game::Tarneeb, 0), |s, i| give_seed(&s, i));
    assert_eq!(
        refused(&full, Command::Start { seed: seed(8) }),
        MatchError::SeedMismatch
    );
    let (next, events) = ok(&full, Command::Start { seed: seed(7) });
    let Phase::Drawing(played) = &next.phase else {
        panic!("not drawing: {next:?}");
    };
    let mut order = played.seat_order.clone();
    order.sort_unstable();
    assert_eq!(order, vec![0, 1, 2, 3], "the seat order is a permutation");
    assert_eq!(
        events,
        vec![Event::Started {
            seat_order: played.seat_order.clone()
        }]
    );
}

#[test]
fn commands_out_of_phase_are_wrong_status() {
    let open = opened(Game::Bridge, 0);
    let draw = Command::Draw {
        step: Step::Deal,
        seed: seed(7),
    };
    assert_eq!(refused(&open, draw.clone()).code(), "wrong_status");
    let finish = Command::Finish {
        seed: seed(7),
        accounts: vec![],
    };
    assert_eq!(refused(&open, finish.clone()).code(), "wrong_status");
    let done = ok(&started(Game::Bridge, 0), finish.clone()).0;
    for command in [draw, finish, Command::Start { seed: seed(7) }] {
        let err = refused(&done, command);
        assert_eq!(err.code(), "wrong_status");
        assert!(err.to_string().contains("finished"), "{err}");
    }
}

#[test]
fn a_deal_is_a_partition_of_the_deck() {
    let (_, drawn) = draw(&started(Game::Trix, 0), Step::Deal);
    let Drawn::Deal { hands } = drawn else {
        panic!("not a deal: {drawn:?}");
    };
    let mut all: Vec<u8> = hands.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..52).collect::<Vec<u8>>());
}

#[test]
fn a_step_of_another_game_is_invalid() {
    let state = started(Game::Checkers, 0);
    for step in [Step::Deal, Step::Opening, Step::Tile, Step::First] {
        assert_eq!(
            refused(
                &state,
                Command::Draw {
                    step,
                    seed: seed(7)
                }
            )
            .code(),
            "invalid_step"
        );
    }
}

#[test]
fn backgammon_rolls_follow_an_opening_that_is_not_a_tie() {
    let state = started(Game::Backgammon, 0);
    let roll = Command::Draw {
        step: Step::Roll,
        seed: seed(7),
    };
    assert_eq!(refused(&state, roll).code(), "invalid_step");
    let (state, opening) = draw(&state, Step::Opening);
    let Drawn::Opening { opening } = opening else {
        panic!("{opening:?}");
    };
    let last = opening.last().expect("at least one pair");
    assert_ne!(last[0], last[1], "the deciding pair is not a tie");
    assert!(opening[..opening.len() - 1].iter().all(|p| p[0] == p[1]));
    let (_, dice) = draw(&state, Step::Roll);
    let Drawn::Roll { dice } = dice else {
        panic!("{dice:?}");
    };
    assert!(dice.iter().all(|d| (1..=6).contains(d)), "{dice:?}");
}

#[test]
fn baloot_second_needs_an_unbought_first_and_a_seat() {
    let state = started(Game::Baloot, 0);
    let second = |buyer| Command::Draw {
        step: Step::Second(buyer),
        seed: seed(7),
    };
    assert_eq!(refused(&state, second(0)).code(), "invalid_step");
    let (state, _) = draw(&state, Step::First);
    assert_eq!(refused(&state, second(4)), MatchError::InvalidBuyer(4));
    let (state, drawn) = draw(&state, Step::Second(2));
    let Drawn::Second {
        buyer,
        second: cards,
    } = drawn
    else {
        panic!("{drawn:?}");
    };
    assert_eq!(buyer, 2);
    let sizes: Vec<usize> = cards.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![3, 3, 2, 3], "the buyer takes 2, the rest 3");
    assert_eq!(refused(&state, second(1)).code(), "invalid_step");
}

#[test]
fn a_mahjong_wall_runs_out_at_its_size() {
    let mut state = started(Game::Mahjong, 136);
    let tile = Command::Draw {
        step: Step::Tile,
        seed: seed(7),
    };
    assert_eq!(refused(&state, tile.clone()).code(), "invalid_step");
    state = draw(&state, Step::Hand).0;
    let mut tiles = Vec::new();
    for _ in 0..136 {
        let (next, drawn) = draw(&state, Step::Tile);
        let Drawn::Tile { tile } = drawn else {
            panic!("{drawn:?}");
        };
        tiles.push(tile);
        state = next;
    }
    tiles.sort_unstable();
    assert_eq!(tiles, (0..136).collect::<Vec<u8>>(), "every tile once");
    assert_eq!(refused(&state, tile), MatchError::WallEmpty(136));
}

#[test]
fn a_match_stops_at_the_verifiers_bound() {
    let mut state = started(Game::Bridge, 0);
    if let Phase::Drawing(played) = &mut state.phase {
        played.progress = Progress::Deals {
            deals: MAX_STEPS as u32,
        };
    }
    let err = refused(
        &state,
        Command::Draw {
            step: Step::Deal,
            seed: seed(7),
        },
    );
    assert_eq!(err.code(), "match_too_long");
}

#[test]
fn finish_reveals_and_makes_a_record_the_verifier_accepts() {
    let (mut state, _) = draw(&started(Game::Tarneeb, 0), Step::Deal);
    state = draw(&state, Step::Deal).0;
    let accounts = vec![(0, 42), (3, 7), (1, 42)];
    let (done, events) = ok(
        &state,
        Command::Finish {
            seed: seed(7),
            accounts,
        },
    );
    let [Event::Finished { record }] = events.as_slice() else {
        panic!("{events:?}");
    };
    assert_eq!(record.scheme, "match_seed_v2");
    assert_eq!(record.readers, vec![7, 42], "each account once, ascending");
    let verdict = fairseed_core::verify_value(&record.body);
    assert!(verdict.valid, "{verdict:?}");
    assert_eq!(record.body["play"]["deals"], 2);
    assert_eq!(
        view(&done, Viewer::Public).server_seed.as_deref(),
        Some(seed(7).reveal())
    );
}

#[test]
fn finish_refuses_an_account_for_a_missing_index() {
    let err = refused(
        &started(Game::Xiangqi, 0),
        Command::Finish {
            seed: seed(7),
            accounts: vec![(5, 1)],
        },
    );
    assert_eq!(err.code(), "invalid_index");
    assert!(err.to_string().starts_with("players.5:"), "{err}");
}

#[test]
fn views_keep_labels_and_accounts_for_the_operator() {
    let done = ok(
        &started(Game::Checkers, 0),
        Command::Finish {
            seed: seed(7),
            accounts: vec![(1, 9)],
        },
    )
    .0;
    let op = view(&done, Viewer::Operator);
    assert_eq!(op.players, vec!["p0", "p1"]);
    assert_eq!(op.accounts, Some([(1, 9)].into_iter().collect()));
    let linked = view(&done, Viewer::Player(9));
    assert_eq!(linked.you, Some(vec![1]));
    assert!(linked.players.is_empty() && linked.accounts.is_none());
    let stranger = view(&done, Viewer::Player(10));
    assert_eq!(stranger, view(&done, Viewer::Public));
}

#[test]
fn an_open_match_is_withdrawn_with_its_seed_revealed_and_nothing_drawn() {
    let open = give_seed(&opened(Game::Tarneeb, 0), 1);
    assert!(matches!(
        refused(&open, Command::Withdraw { seed: seed(8) }),
        MatchError::SeedMismatch
    ));
    let (gone, events) = ok(&open, Command::Withdraw { seed: seed(7) });
    assert_eq!(events, vec![Event::Withdrawn]);
    assert_eq!(
        events[0].view(Viewer::Public),
        Some(serde_json::json!({"step": "withdrawn"}))
    );
    let seen = view(&gone, Viewer::Public);
    assert_eq!(seen.status, "withdrawn");
    assert_eq!(seen.server_seed.as_deref(), Some(seed(7).reveal()));
    assert_eq!(seen.client_seeds[1].as_deref(), Some("client 1"));
    assert_eq!((seen.seat_order, seen.draws), (None, 0));
    let text = serde_json::to_string(&gone).expect("serializes");
    assert_eq!(serde_json::from_str::<Match>(&text).expect("parses"), gone);
    // Nothing goes on from a withdrawn match, and a started one is finished
    // instead (its draws are in its record).
    for command in [
        Command::Start { seed: seed(7) },
        Command::Withdraw { seed: seed(7) },
        Command::Finish {
            seed: seed(7),
            accounts: vec![],
        },
    ] {
        let err = refused(&gone, command);
        assert_eq!(err.code(), "wrong_status");
        assert!(err.to_string().contains("withdrawn"), "{err}");
    }
    let err = refused(
        &started(Game::Tarneeb, 0),
        Command::Withdraw { seed: seed(7) },
    );
    assert_eq!(err.code(), "wrong_status");
}

#[test]
fn the_state_round_trips_through_json_without_the_seed() {
    let state = draw(&started(Game::Baloot, 0), Step::First).0;
    let text = serde_json::to_string(&state).expect("serializes");
    assert!(
        !text.contains(seed(7).reveal()),
        "no seed before the reveal"
    );
    let back: Match = serde_json::from_str(&text).expect("parses");
    assert_eq!(back, state);
}

#[test]
fn a_stored_state_with_a_bad_value_does_not_load() {
    let text = serde_json::to_string(&opened(Game::Trix, 0)).expect("serializes");
    let bad = text.replace("\"trix\"", "\"poker\"");
    let err = serde_json::from_str::<Match>(&bad).expect_err("an unknown game");
    assert!(err.to_string().contains("game"), "{err}");
}

#[test]
fn every_rule_code_is_documented() {
    let api = include_str!("../../../../docs/api.md");
    let errors = [
        MatchError::CommitmentMismatch(String::new()),
        MatchError::InvalidIndex {
            field: "index".into(),
            index: 9,
            players: 2,
        },
        MatchError::SeedAlreadySet(0),
        MatchError::NoClientSeeds,
        MatchError::ClientSeedsMissing(vec![1]),
        MatchError::InvalidStep {
            step: "deal",
            why: String::new(),
        },
        MatchError::InvalidBuyer(4),
        MatchError::WallEmpty(144),
        MatchError::TooLong {
            what: "deals",
            limit: MAX_STEPS,
        },
        refused(&opened(Game::Trix, 0), Command::Start { seed: seed(7) }),
    ];
    for err in errors {
        let code = format!("`{}`", err.code());
        assert!(api.contains(&code), "{code} is not in docs/api.md");
    }
}

#[test]
fn a_v1_match_takes_no_client_seeds_and_records_as_v1() {
    let labels = vec![
        "a".to_owned(),
        "b".to_owned(),
        "c".to_owned(),
        "d".to_owned(),
    ];
    let id = Ident::parse("legacy").expect("a valid id");
    let open = Match::open(
        Scheme::V1,
        Game::Bridge,
        id,
        seed(7).commitment(),
        labels,
        0,
    );
    let given = Command::ClientSeed {
        index: 0,
        client_seed: client(0),
        shown: open.commitment,
    };
    assert_eq!(refused(&open, given), MatchError::NoClientSeeds);
    let started = ok(&open, Command::Start { seed: seed(7) }).0;
    let (drawing, drawn) = draw(&started, Step::Deal);
    let finish = Command::Finish {
        seed: seed(7),
        accounts: vec![],
    };
    let events = ok(&drawing, finish).1;
    let [Event::Finished { record }] = events.as_slice() else {
        panic!("no record");
    };
    assert_eq!(record.scheme, "match_seed_v1");
    assert!(record.body.get("client_seeds").is_none(), "{}", record.body);
    assert!(
        fairseed_core::verify_value(&record.body).valid,
        "{}",
        record.body
    );
    let Drawn::Deal { hands } = drawn else {
        panic!("{drawn:?}");
    };
    assert_eq!(record.body["outcome"]["deals"][0], serde_json::json!(hands));
    assert_eq!(view(&drawing, Viewer::Public).scheme, "match_seed_v1");
}
