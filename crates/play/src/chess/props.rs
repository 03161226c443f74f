//! Random command sequences over a few players' seeds: what each viewer sees.
//!
//! - No view holds a seed before its reveal; its owner's view holds it after.
//! - Another player sees nothing of a seed but an open seek open to them:
//!   no client seed, no challenged player, no game.
//! - Changing what only the owner may see (the client seed, who is
//!   challenged when it is not the viewer) leaves others' views unchanged.
//! - Every record verifies, and names the colours the pairing drew.

use proptest::prelude::*;

use super::tests::{committed, secret, T0};
use super::*;
use crate::Viewer;

/// Seed byte `i` belongs to player `owner(i)`.
const SEEDS: u8 = 6;

fn owner(byte: u8) -> PlayerId {
    PlayerId::from(byte % 3) + 1
}

#[derive(Debug, Clone)]
enum Plan {
    Seek { seed: u8, opponent: Option<i64> },
    Accept { seek: u8, seed: u8 },
    Bot { seed: u8 },
    Cancel { seed: u8, by: i64 },
    Finish { seed: u8, by: i64 },
    Wait(i64),
}

fn any_plan() -> impl Strategy<Value = Plan> {
    let seed = 0..SEEDS;
    let player = 0i64..5;
    prop_oneof![
        (seed.clone(), proptest::option::of(player.clone()))
            .prop_map(|(seed, opponent)| Plan::Seek { seed, opponent }),
        (seed.clone(), seed.clone()).prop_map(|(seek, seed)| Plan::Accept { seek, seed }),
        seed.clone().prop_map(|seed| Plan::Bot { seed }),
        (seed.clone(), player.clone()).prop_map(|(seed, by)| Plan::Cancel { seed, by }),
        (seed, player).prop_map(|(seed, by)| Plan::Finish { seed, by }),
        (0i64..SEEK_TTL_MS).prop_map(Plan::Wait),
    ]
}

/// The seeds a command changed (by index) and its events, or the refusal.
type Outcome = Result<(Vec<(u8, Seed)>, Vec<Event>), ChessError>;

fn client(i: u8) -> fairseed_core::ClientSeed {
    fairseed_core::ClientSeed::parse(&format!("client {i}")).expect("valid")
}

/// Runs one plan on `seeds`; the events it made, or none when refused.
fn run(seeds: &mut [Seed], plan: &Plan, now: &mut Millis) -> Vec<Event> {
    let at = |i: u8| usize::from(i);
    let result = match *plan {
        Plan::Wait(ms) => {
            now.0 += ms;
            return Vec::new();
        }
        Plan::Seek { seed, opponent } => {
            let s = &seeds[at(seed)];
            let command = Command::Seek {
                player: s.owner,
                shown: s.commitment,
                client: client(seed),
                opponent: opponent.map(|id| Opponent {
                    id,
                    exists: (1..=3).contains(&id),
                }),
            };
            apply(s, command, *now).map(|(n, e)| (vec![(seed, n)], e))
        }
        Plan::Bot { seed } => {
            let s = &seeds[at(seed)];
            let command = Command::Bot {
                player: s.owner,
                shown: s.commitment,
                client: client(seed),
                seed: secret(seed),
            };
            apply(s, command, *now).map(|(n, e)| (vec![(seed, n)], e))
        }
        Plan::Cancel { seed, by } => {
            let command = Command::Cancel {
                player: by,
                seed: secret(seed),
            };
            apply(&seeds[at(seed)], command, *now).map(|(n, e)| (vec![(seed, n)], e))
        }
        Plan::Accept { seek, seed } => {
            let b = &seeds[at(seed)];
            let command = PairCommand::Accept {
                player: b.owner,
                shown: b.commitment,
                client: client(seed),
                seeds: [secret(seek), secret(seed)],
            };
            apply_pair(&seeds[at(seek)], b, command, *now)
                .map(|((na, nb), e)| (vec![(seek, na), (seed, nb)], e))
        }
        Plan::Finish { seed, by } => finish(seeds, seed, by, *now),
    };
    match result {
        Ok((changed, events)) => {
            for (i, next) in changed {
                seeds[at(i)] = next;
            }
            events
        }
        Err(_) => Vec::new(),
    }
}

/// Finishes the game `seed` plays, as the server would: a bot game alone,
/// a paired one with side A's seed first.
fn finish(seeds: &[Seed], seed: u8, by: i64, now: Millis) -> Outcome {
    let s = &seeds[usize::from(seed)];
    let index = |id: &str| (0..SEEDS).find(|&i| seeds[usize::from(i)].id == id);
    let SeedPhase::Playing(p) = &s.phase else {
        return Err(ChessError::NotFound("chess game"));
    };
    let Some(other) = p.other.as_deref().and_then(index) else {
        let command = Command::Finish {
            player: by,
            seed: secret(seed),
        };
        return apply(s, command, now).map(|(n, e)| (vec![(seed, n)], e));
    };
    let (a, b) = if p.side == Side::A {
        (seed, other)
    } else {
        (other, seed)
    };
    let command = PairCommand::Finish {
        player: by,
        seeds: [secret(a), secret(b)],
    };
    apply_pair(&seeds[usize::from(a)], &seeds[usize::from(b)], command, now)
        .map(|((na, nb), e)| (vec![(a, na), (b, nb)], e))
}

fn revealed(seed: &Seed) -> bool {
    matches!(
        seed.phase,
        SeedPhase::Finished { .. } | SeedPhase::Withdrawn { .. }
    )
}

fn check_views(seeds: &[Seed]) -> Result<(), TestCaseError> {
    for (i, seed) in (0..SEEDS).zip(seeds) {
        let hex = secret(i);
        for viewer in [
            Viewer::Public,
            Viewer::Player(1),
            Viewer::Player(2),
            Viewer::Player(3),
            Viewer::Operator,
        ] {
            let seen = serde_json::to_string(&view(seed, viewer)).expect("serializes");
            let whole = viewer == Viewer::Operator || viewer == Viewer::Player(seed.owner);
            prop_assert_eq!(
                seen.contains(hex.reveal()),
                whole && revealed(seed),
                "{:?}: {}",
                viewer,
                seen
            );
            if whole {
                continue;
            }
            if let Some(v) = view(seed, viewer) {
                let SeedPhase::Seeking(seek) = &seed.phase else {
                    return Err(TestCaseError::fail(format!(
                        "{viewer:?} sees a closed seed: {seen}"
                    )));
                };
                let open_to_them = match viewer {
                    Viewer::Player(p) => seek.opponent.is_none_or(|o| o == p),
                    _ => seek.opponent.is_none(),
                };
                prop_assert!(open_to_them, "{:?}: {}", viewer, seen);
                prop_assert!(
                    v.client_seed.is_none() && v.opponent.is_none() && v.game_id.is_none()
                );
                // The owner's values changed: this viewer's view does not change.
                let mut other = seed.clone();
                if let SeedPhase::Seeking(s) = &mut other.phase {
                    s.client = client(99);
                }
                prop_assert_eq!(view(&other, viewer), Some(v));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn views_never_show_what_their_viewer_may_not_see(
        plans in proptest::collection::vec(any_plan(), 0..30),
    ) {
        let mut seeds: Vec<Seed> = (0..SEEDS).map(|i| committed(i, owner(i))).collect();
        let mut now = T0;
        check_views(&seeds)?;
        for plan in &plans {
            for event in run(&mut seeds, plan, &mut now) {
                if let Event::Finished { record } = event {
                    prop_assert!(fairseed_core::verify_value(&record.body).valid, "{}", record.body);
                }
            }
            check_views(&seeds)?;
        }
    }
}
