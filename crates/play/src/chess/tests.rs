//! One test per rule of the chess seeds. Colours are checked against the
//! core's verifier reading the record, and against each other (the two
//! sides of a game see opposite colours).

use fairseed_core::{ClientSeed, Commitment, ServerSeed};

use super::*;
use crate::{RuleViolation, Viewer};

pub(super) const T0: Millis = Millis(1_700_000_000_000);

pub(super) fn secret(byte: u8) -> ServerSeed {
    ServerSeed::from_bytes([byte; 32])
}

/// Seed `byte` of `owner`, committed.
pub(super) fn committed(byte: u8, owner: PlayerId) -> Seed {
    Seed::new(format!("c{byte}"), owner, secret(byte).commitment())
}

fn client(text: &str) -> ClientSeed {
    ClientSeed::parse(text).expect("a valid client seed")
}

fn seek_cmd(seed: &Seed, opponent: Option<Opponent>) -> Command {
    Command::Seek {
        player: seed.owner,
        shown: seed.commitment,
        client: client("a's client"),
        opponent,
    }
}

fn one(seed: &Seed, command: Command, now: Millis) -> Result<Seed, ChessError> {
    apply(seed, command, now).map(|(s, _)| s)
}

pub(super) fn seeking(byte: u8, owner: PlayerId) -> Seed {
    let seed = committed(byte, owner);
    one(&seed, seek_cmd(&seed, None), T0).expect("seeks")
}

fn accept_cmd(b: &Seed, seeds: [u8; 2]) -> PairCommand {
    PairCommand::Accept {
        player: b.owner,
        shown: b.commitment,
        client: client("b's client"),
        seeds: [secret(seeds[0]), secret(seeds[1])],
    }
}

/// A game between seed 1 (player 10, side A) and seed 2 (player 20, side B).
pub(super) fn game() -> (Seed, Seed, Side) {
    let (a, b) = (seeking(1, 10), committed(2, 20));
    let ((a, b), events) = apply_pair(&a, &b, accept_cmd(&b, [1, 2]), T0).expect("pairs");
    let [Event::Paired { white, bot: false }] = events.as_slice() else {
        panic!("{events:?}");
    };
    (a, b, *white)
}

#[test]
fn only_the_owner_seeks_and_only_with_the_seeds_commitment() {
    let seed = committed(1, 10);
    let stranger = Command::Seek {
        player: 11,
        shown: seed.commitment,
        client: client("x"),
        opponent: None,
    };
    assert_eq!(
        one(&seed, stranger, T0),
        Err(ChessError::NotFound("chess seed"))
    );
    let wrong = Command::Seek {
        player: 10,
        shown: secret(2).commitment(),
        client: client("x"),
        opponent: None,
    };
    assert_eq!(
        one(&seed, wrong, T0).map_err(|e| e.code().as_str()),
        Err("commitment_mismatch")
    );
    let sought = one(&seed, seek_cmd(&seed, None), T0).expect("seeks");
    let again = one(&sought, seek_cmd(&sought, None), T0);
    assert_eq!(again.map_err(|e| e.code().as_str()), Err("wrong_status"));
}

#[test]
fn a_challenge_needs_an_existing_other_player() {
    let seed = committed(1, 10);
    let challenge = |id, exists| seek_cmd(&seed, Some(Opponent { id, exists }));
    let own = one(&seed, challenge(10, true), T0).expect_err("self");
    assert_eq!(own.code(), "own_challenge");
    assert!(own.to_string().starts_with("opponent: 10"), "{own}");
    let ghost = one(&seed, challenge(-7, false), T0).expect_err("unknown");
    assert_eq!(ghost.code(), "unknown_opponent");
    assert!(
        ghost.to_string().starts_with("opponent: player -7"),
        "{ghost}"
    );
    let ok = one(&seed, challenge(20, true), T0).expect("a real opponent");
    let SeedPhase::Seeking(seek) = &ok.phase else {
        panic!("{ok:?}");
    };
    assert_eq!(seek.opponent, Some(20));
}

#[test]
fn a_seek_is_not_accepted_by_its_owner_nor_by_an_unchallenged_player() {
    let a = seeking(1, 10);
    let mine = committed(3, 10);
    let err = apply_pair(&a, &mine, accept_cmd(&mine, [1, 3]), T0).expect_err("own");
    assert_eq!(err.code(), "own_seek");
    // The seek's own seed named as side B: refused as the owner's seek,
    // whoever names it, and before the seed's phase is looked at.
    for player in [10, 20] {
        let itself = PairCommand::Accept {
            player,
            shown: a.commitment,
            client: client("b's client"),
            seeds: [secret(1), secret(1)],
        };
        let err = apply_pair(&a, &a, itself, T0).expect_err("itself");
        assert_eq!(err, ChessError::OwnSeek);
    }
    let plain = committed(4, 10);
    let itself = accept_cmd(&plain, [4, 4]);
    let err = apply_pair(&plain, &plain, itself, T0).expect_err("not seeking");
    assert_eq!(err, ChessError::OwnSeek);
    let c = committed(1, 10);
    let challenge = one(
        &c,
        seek_cmd(
            &c,
            Some(Opponent {
                id: 30,
                exists: true,
            }),
        ),
        T0,
    )
    .expect("challenges 30");
    let b = committed(2, 20);
    let err = apply_pair(&challenge, &b, accept_cmd(&b, [1, 2]), T0).expect_err("not 30");
    assert_eq!(err, ChessError::NotFound("seek"));
}

#[test]
fn a_seek_expires_after_its_time() {
    let (a, b) = (seeking(1, 10), committed(2, 20));
    let last = Millis(T0.0 + SEEK_TTL_MS - 1);
    assert!(apply_pair(&a, &b, accept_cmd(&b, [1, 2]), last).is_ok());
    assert!(a.open_to(20, last) && !a.open_to(20, Millis(last.0 + 1)));
    let late = apply_pair(&a, &b, accept_cmd(&b, [1, 2]), Millis(last.0 + 1));
    assert_eq!(late.map(|_| ()), Err(ChessError::SeekExpired));
    assert_eq!(a.status(Millis(last.0 + 1)), "expired");
}

#[test]
fn accepting_pairs_both_sides_with_opposite_colours() {
    let (a, b, white) = game();
    let va = game_view(&a, Some(&b), Viewer::Player(10)).expect("A sees it");
    let vb = game_view(&b, Some(&a), Viewer::Player(20)).expect("B sees it");
    assert_eq!((va.you, vb.you), (Some("A"), Some("B")));
    assert_ne!(va.colour, vb.colour);
    assert_eq!(va.white, white.as_str());
    assert_eq!(va.game_id, "c1");
    assert_eq!(vb.game_id, "c1");
    assert!(game_view(&a, Some(&b), Viewer::Player(30)).is_none());
    assert!(game_view(&a, Some(&b), Viewer::Public).is_none());
}

#[test]
fn accepting_checks_every_seed_against_its_commitment() {
    let (a, b) = (seeking(1, 10), committed(2, 20));
    let err = apply_pair(&a, &b, accept_cmd(&b, [1, 9]), T0).expect_err("b's seed");
    assert_eq!(err, ChessError::SeedMismatch);
    assert_eq!(
        err.code(),
        "internal",
        "not a rule: the stored state is wrong"
    );
}

#[test]
fn finishing_reveals_both_seeds_in_one_record_both_players_read() {
    let (a, b, white) = game();
    let finish = |player| PairCommand::Finish {
        player,
        seeds: [secret(1), secret(2)],
    };
    let err = apply_pair(&a, &b, finish(30), T0).expect_err("a stranger");
    assert_eq!(err, ChessError::NotFound("chess game"));
    let ((fa, fb), events) = apply_pair(&a, &b, finish(20), T0).expect("finishes");
    let [Event::Finished { record }] = events.as_slice() else {
        panic!("{events:?}");
    };
    assert_eq!(record.readers, vec![10, 20]);
    let verdict = fairseed_core::verify_value(&record.body);
    assert!(verdict.valid, "{verdict:?}");
    assert_eq!(record.body["outcome"]["white"], white.as_str());
    assert_eq!(record.body["client_b"], "b's client");
    let seen = view(&fa, Viewer::Player(10)).expect("own seed");
    assert_eq!(seen.server_seed.as_deref(), Some(secret(1).reveal()));
    assert_eq!(fb.status(T0), "finished");
    let again = apply_pair(&fa, &fb, finish(10), T0).expect_err("once");
    assert_eq!(again.code(), "wrong_status");
}

#[test]
fn a_bot_game_draws_from_one_seed_and_records_commit_b_as_dash() {
    let seed = committed(4, 10);
    let bot = Command::Bot {
        player: 10,
        shown: seed.commitment,
        client: client("solo"),
        seed: secret(4),
    };
    let (playing, events) = apply(&seed, bot, T0).expect("plays a bot");
    assert!(matches!(
        events.as_slice(),
        [Event::Paired { bot: true, .. }]
    ));
    let finish = |player| Command::Finish {
        player,
        seed: secret(4),
    };
    assert_eq!(
        one(&playing, finish(11), T0),
        Err(ChessError::NotFound("chess game"))
    );
    let (_, events) = apply(&playing, finish(10), T0).expect("finishes");
    let [Event::Finished { record }] = events.as_slice() else {
        panic!("{events:?}");
    };
    assert_eq!(record.body["commit_b"], "-");
    assert_eq!(record.readers, vec![10]);
    assert!(fairseed_core::verify_value(&record.body).valid);
}

#[test]
fn a_paired_game_is_not_finished_as_a_bot_game() {
    let (a, _, _) = game();
    let err = one(
        &a,
        Command::Finish {
            player: 10,
            seed: secret(1),
        },
        T0,
    );
    assert_eq!(err.map_err(|e| e.code().as_str()), Err("wrong_status"));
}

#[test]
fn cancelling_reveals_an_unused_or_seeking_seed_to_its_owner() {
    let cancel = |player, byte| Command::Cancel {
        player,
        seed: secret(byte),
    };
    let unused = committed(1, 10);
    assert_eq!(
        one(&unused, cancel(11, 1), T0),
        Err(ChessError::NotFound("chess seed"))
    );
    assert_eq!(
        one(&unused, cancel(10, 2), T0),
        Err(ChessError::SeedMismatch)
    );
    let gone = one(&unused, cancel(10, 1), T0).expect("cancels");
    assert_eq!(gone.status(T0), "cancelled");
    let own = view(&gone, Viewer::Player(10)).expect("own seed");
    assert_eq!(own.server_seed.as_deref(), Some(secret(1).reveal()));
    assert!(Commitment::parse(&own.commitment).is_ok_and(|c| c.matches(&secret(1))));
    let late = Millis(T0.0 + SEEK_TTL_MS);
    let expired = one(&seeking(1, 10), cancel(10, 1), late).expect("closes");
    assert_eq!(expired.status(late), "expired");
    let (a, _, _) = game();
    assert_eq!(
        one(&a, cancel(10, 1), T0).map_err(|e| e.code().as_str()),
        Err("wrong_status")
    );
    let b = committed(2, 20);
    let err = apply_pair(&gone, &b, accept_cmd(&b, [1, 2]), T0).expect_err("withdrawn");
    assert_eq!(err.code(), "wrong_status");
}

#[test]
fn others_see_an_open_seek_only_and_a_challenge_only_if_it_is_theirs() {
    let open = seeking(1, 10);
    let public = view(&open, Viewer::Public).expect("an open seek is public");
    assert_eq!(public.client_seed, None);
    assert_eq!(public.expires_at, Some(T0.0 + SEEK_TTL_MS));
    let c = committed(2, 10);
    let challenge = one(
        &c,
        seek_cmd(
            &c,
            Some(Opponent {
                id: 20,
                exists: true,
            }),
        ),
        T0,
    )
    .expect("challenges 20");
    assert!(view(&challenge, Viewer::Public).is_none());
    assert!(view(&challenge, Viewer::Player(30)).is_none());
    let theirs = view(&challenge, Viewer::Player(20)).expect("the challenged player");
    assert!(theirs.challenge && theirs.opponent.is_none());
    assert_eq!(
        view(&challenge, Viewer::Player(10)).and_then(|v| v.opponent),
        Some(20)
    );
    assert!(view(&committed(3, 10), Viewer::Player(20)).is_none());
}

#[test]
fn a_seed_round_trips_through_json_without_its_secret() {
    let (a, _, _) = game();
    let text = serde_json::to_string(&a).expect("serializes");
    assert!(!text.contains(secret(1).reveal()));
    assert_eq!(serde_json::from_str::<Seed>(&text).expect("parses"), a);
}

#[test]
fn every_rule_code_is_documented() {
    let api = include_str!("../../../../docs/api.md");
    let errors = [
        ChessError::NotFound("seek"),
        ChessError::CommitmentMismatch,
        ChessError::WrongStatus {
            status: "playing",
            expected: "committed",
        },
        ChessError::OwnSeek,
        ChessError::OwnChallenge(1),
        ChessError::UnknownOpponent(2),
        ChessError::SeekExpired,
    ];
    for err in errors {
        let code = format!("`{}`", err.code());
        assert!(api.contains(&code), "{code} is not in docs/api.md");
    }
}
