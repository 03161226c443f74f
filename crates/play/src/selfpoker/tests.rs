//! The stages in order, and what each viewer sees at each.

use fairseed_core::selfpoker as core_selfpoker;
use proptest::prelude::*;

use super::*;

fn hand(seed: u64, players: usize) -> Hand {
    let stored = Stored { owner: 5, players };
    Hand::new("sp1".into(), stored, seed).unwrap()
}

fn next(h: Hand) -> Result<Hand, SelfpokerError> {
    apply(h, Command::Next, Millis(0)).map(|(h, _)| h)
}

const VIEWERS: [Viewer; 4] = [
    Viewer::Player(5),
    Viewer::Player(6),
    Viewer::Operator,
    Viewer::Public,
];

#[test]
fn stages_run_in_order_then_the_hand_is_over() {
    let mut h = hand(42, 3);
    for stage in &STAGES[1..] {
        let (after, events) = apply(h, Command::Next, Millis(0)).unwrap();
        assert_eq!(events, vec![Event::Reached(*stage)]);
        assert_eq!(Stage::parse(stage.as_str()), Some(*stage));
        h = after;
    }
    let err = next(h).unwrap_err();
    assert_eq!(err.code(), "hand_over");
}

#[test]
fn bad_input_is_refused() {
    assert!(Hand::new(
        "x".into(),
        Stored {
            owner: 1,
            players: 11
        },
        1
    )
    .is_err());
    assert!(Hand::new(
        "x".into(),
        Stored {
            owner: 1,
            players: 2
        },
        1 << 63
    )
    .is_err());
    let stored = Stored {
        owner: 1,
        players: 2,
    };
    let commit = core_selfpoker::commit(8);
    assert!(Hand::load("x".into(), stored.clone(), Stage::Flop, &commit, 9).is_err());
    let loaded = Hand::load("x".into(), stored, Stage::Flop, &commit, 8).unwrap();
    assert_eq!(loaded.stage, Stage::Flop);
}

#[test]
fn the_owner_sees_their_cards_and_the_board_others_the_commit() {
    let deal = core_selfpoker::deal(42, 3).unwrap();
    let h = next(next(hand(42, 3)).unwrap()).unwrap(); // flop
    let mine = view(&h, Viewer::Player(5)).unwrap();
    assert_eq!(mine.hole, Some(deal.holes[0]));
    assert_eq!(mine.board, deal.board[..3]);
    assert_eq!((mine.seed, &mine.holes), (None, &None));
    for viewer in [Viewer::Player(6), Viewer::Operator, Viewer::Public] {
        let theirs = view(&h, viewer).unwrap();
        assert_eq!((theirs.hole, theirs.board.len()), (None, 0));
        assert_eq!(theirs.commit, core_selfpoker::commit(42));
    }
}

#[test]
fn hand_end_reveals_everything_and_the_record_verifies() {
    let mut h = hand(42, 4);
    assert_eq!(record(&h).unwrap(), None);
    for _ in 1..STAGES.len() {
        h = next(h).unwrap();
    }
    let deal = core_selfpoker::deal(42, 4).unwrap();
    for viewer in VIEWERS {
        let m = view(&h, viewer).unwrap();
        assert_eq!((m.kind, m.seed), ("hand_end", Some(42)));
        assert_eq!(m.holes.as_deref(), Some(&deal.holes[..]));
    }
    let record = record(&h).unwrap().unwrap().to_value();
    assert!(fairseed_core::verify_value(&record).valid);
}

proptest! {
    /// Before `hand_end` no viewer sees the seed or another seat's cards, the
    /// owner sees exactly their holes and the board of the stage, and a deal
    /// changed everywhere else gives the same view.
    #[test]
    fn views_show_only_the_owners_cards_and_the_dealt_board(
        seed in 0..=core_selfpoker::MAX_SEED, players in 2usize..=10, steps in 0usize..6,
    ) {
        let mut h = hand(seed, players);
        for _ in 0..steps {
            h = next(h).unwrap();
        }
        let deal = core_selfpoker::deal(seed, players).unwrap();
        let end = h.stage == Stage::HandEnd;
        for viewer in VIEWERS {
            let m = view(&h, viewer).unwrap();
            let owner = viewer == Viewer::Player(5);
            prop_assert_eq!(m.seed.is_some(), end);
            prop_assert_eq!(m.holes.is_some(), end);
            let sees = owner || end;
            let hole = (sees && h.stage >= Stage::Preflop).then(|| deal.holes[0]);
            prop_assert_eq!(m.hole, hole);
            let board = if sees { &deal.board[..h.stage.board_len()] } else { &[][..] };
            prop_assert_eq!(&m.board[..], board);
            if !end {
                let mut changed = deal.clone();
                for seat in changed.holes.iter_mut().skip(usize::from(owner)) {
                    *seat = [seat[0] ^ 1, seat[1] ^ 1];
                }
                for card in changed.board.iter_mut().skip(m.board.len()) {
                    *card ^= 1;
                }
                if !owner {
                    changed.holes[0] = [99, 99];
                }
                changed.deck = [0; 52];
                prop_assert_eq!(view_of(&h, viewer, &changed), m);
            }
        }
    }
}
