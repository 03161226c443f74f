//! No stranger at a private table (docs/spec.md §19.4): a person other than
//! the opener sits only with the table's invitation, an invitation for
//! another table is refused with the field named, a public table seats
//! anyone and says so, and every seat says how its person came — the
//! house's players marked as the house's — in every view and each record,
//! whose top-ups the record names too (§19.3).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_holdem::live::policy::{PRIVATE_WORDS, PUBLIC_WORDS};
use fairseed_holdem::live::{
    self, driver, view, Arrival, LiveError, LiveTable, Message, Policy, Request, Scheme, Session,
};
use fairseed_holdem::verdict::verdict;
use fairseed_holdem::{Action, Command, HandRecord, TableConfig};
use fairseed_play::{Code, Millis, RuleViolation, Viewer};

const SECRET: [u8; 32] = [0x3c; 32];
const INVITATION: &str = "0123456789abcdef0123456789abcdef";
const OPENER: i64 = 1;

/// A four-seat table opened by player 1 with one AI at seat 1.
fn table(public: bool) -> LiveTable {
    let policy = Policy {
        config: TableConfig {
            seats: 4,
            small_blind: 10,
            big_blind: 20,
            starting_stack: 400,
            action_ms: 1_000,
        },
        ais: vec![1],
        ai_seats: Vec::new(),
        idle_close_ms: 60_000,
        public,
    };
    let session = Session {
        scheme: Scheme::Selfpoker,
        commit: None,
        revealed: None,
    };
    LiveTable::open("p1".into(), policy, session)
        .unwrap()
        .opened_by(OPENER, INVITATION.to_owned())
}

fn sit(seat: usize, invitation: Option<&str>, house: bool) -> Request {
    Request::Sit {
        seat,
        client_seed: format!("seed {seat}"),
        invitation: invitation.map(str::to_owned),
        house,
    }
}

fn seated(live: &LiveTable, player: i64, request: Request) -> LiveTable {
    live::request(live, player, request, Millis(0)).unwrap().0
}

#[test]
fn a_stranger_is_refused_at_a_private_table_and_an_invited_player_sits() {
    let live = seated(&table(false), OPENER, sit(0, None, false));
    assert_eq!(live.arrival(0), Some(Arrival::Opener));
    let refused = live::request(&live, 2, sit(2, None, false), Millis(0)).unwrap_err();
    assert!(matches!(refused, LiveError::Invitation(_)));
    assert_eq!(refused.code(), Code::InvitationRefused);
    assert_eq!(
        refused.to_string(),
        "invitation: missing; this table is private: a player other than its opener sits only with the invitation the opener shares"
    );
    // Another table's invitation opens nothing here.
    let other = "fedcba9876543210fedcba9876543210";
    let refused = live::request(&live, 2, sit(2, Some(other), false), Millis(0)).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "invitation: not this table's invitation; an invitation opens only the table it was made for"
    );
    let long = "a".repeat(200);
    let refused = live::request(&live, 2, sit(2, Some(&long), false), Millis(0)).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "invitation: longer than any invitation"
    );
    // The house's player is refused too without it.
    assert!(live::request(&live, 3, sit(3, None, true), Millis(0)).is_err());

    let live = seated(&live, 2, sit(2, Some(INVITATION), false));
    let live = seated(&live, 3, sit(3, Some(INVITATION), true));
    assert_eq!(live.arrival(2), Some(Arrival::Invited));
    assert_eq!(live.arrival(3), Some(Arrival::House));
    for viewer in [Viewer::Public, Viewer::Player(OPENER), Viewer::Player(2)] {
        let v = view(&live, viewer);
        assert!(!v.public);
        assert_eq!(v.seating, PRIVATE_WORDS);
        let came: Vec<Option<Arrival>> = v.seats.iter().flatten().map(|s| s.came).collect();
        let want = [
            Some(Arrival::Opener),
            None,
            Some(Arrival::Invited),
            Some(Arrival::House),
        ];
        assert_eq!(came, want, "{viewer:?}");
        let house = v.seats[3].as_ref().unwrap();
        assert_eq!(house.badge.as_deref(), Some("the house's"));
        assert_eq!(v.seats[2].as_ref().unwrap().badge, None);
        // Only the opener is shown the invitation, to share it.
        let shown = v.invitation.as_deref();
        let want = (viewer == Viewer::Player(OPENER)).then_some(INVITATION);
        assert_eq!(shown, want, "{viewer:?}");
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json.contains(INVITATION), want.is_some());
    }
    // A seat left and taken again by a stranger needs the invitation again.
    let left = live::request(&live, 2, Request::Leave, Millis(1))
        .unwrap()
        .0;
    assert_eq!(left.arrival(2), None);
    assert!(live::request(&left, 4, sit(2, None, false), Millis(2)).is_err());
}

#[test]
fn a_public_table_seats_anyone_and_says_so() {
    let live = seated(&table(true), OPENER, sit(0, None, false));
    let live = seated(&live, 2, sit(2, None, false));
    let live = seated(&live, 3, sit(3, None, true));
    assert_eq!(live.arrival(2), Some(Arrival::Public));
    assert_eq!(live.arrival(3), Some(Arrival::House));
    let v = view(&live, Viewer::Player(OPENER));
    assert!(v.public);
    assert_eq!(v.seating, PUBLIC_WORDS);
    assert_eq!(
        PUBLIC_WORDS,
        "a public table: anyone, the house included, may sit here"
    );
    assert_eq!(v.invitation, None, "a public table needs no invitation");
    assert!(live.policy.to_json().ends_with(",\"public\":true}"));
}

/// Plays `live` on, every person checking or calling on their turn, until
/// `hands` more hands ended: their records.
fn play(mut live: LiveTable, hands: usize, now: &mut Millis) -> (LiveTable, Vec<HandRecord>) {
    let mut records = Vec::new();
    let mut seed = 100;
    while records.len() < hands {
        let person = live.table.hand.as_ref().and_then(|h| {
            let seat = h.seat_to_act();
            let player = live.humans().into_iter().find(|(s, _)| *s == seat)?.1;
            let action = if h.legal().to_call == 0 {
                Action::Check
            } else {
                Action::Call
            };
            Some((player, action))
        });
        if let Some((player, action)) = person {
            let (next, messages) =
                live::request(&live, player, Request::Act(action), *now).unwrap();
            live = next;
            records.extend(messages.into_iter().filter_map(|m| match m {
                Message::HandEnd { record, .. } => Some(*record),
                _ => None,
            }));
            continue;
        }
        let plan = driver::next(&live, driver::Timing::default(), &SECRET).expect("a plan");
        *now = Millis(now.0.max(plan.at.0));
        let (next, messages) = match plan.due {
            driver::Due::Command(c) => live::apply(&live, c, *now).unwrap(),
            driver::Due::StartHand => {
                seed += 1;
                live::apply(&live, Command::StartHand { seed }, *now).unwrap()
            }
            other => panic!("{other:?} at a selfpoker table in play"),
        };
        live = next;
        for m in messages {
            if let Message::HandEnd { record, .. } = m {
                records.push(*record);
            }
        }
        for (seat, player) in live.humans() {
            if live.table.seats[seat].as_ref().unwrap().sitting_out {
                live = live::request(&live, player, Request::SitIn, *now)
                    .unwrap()
                    .0;
            }
        }
    }
    (live, records)
}

#[test]
fn each_record_names_how_its_people_came_and_warns_of_the_house() {
    let live = seated(&table(false), OPENER, sit(0, None, false));
    let live = seated(&live, 2, sit(2, Some(INVITATION), false));
    let live = seated(&live, 3, sit(3, Some(INVITATION), true));
    let mut now = Millis(0);
    let (live, records) = play(live, 1, &mut now);
    let r = &records[0];
    let came: Vec<(usize, Option<Arrival>)> = r.seats.iter().map(|s| (s.seat, s.came)).collect();
    assert_eq!(
        came,
        [
            (0, Some(Arrival::Opener)),
            (1, None),
            (2, Some(Arrival::Invited)),
            (3, Some(Arrival::House))
        ]
    );
    let json = serde_json::to_string(r).unwrap();
    assert!(json.contains("\"came\":\"house\""), "{json}");
    assert!(!json.contains(INVITATION), "no invitation in a record");
    let v = verdict(r);
    assert!(v.valid, "{v:?}");
    let warnings: Vec<&str> = v.warnings.iter().map(|w| w.detail.as_str()).collect();
    assert_eq!(
        warnings,
        ["hand 1: seat 3 is the house's: a player the operator created sat down with the invitation of the table's opener; the house knows every card dealt, so this seat may play knowing them"]
    );
    // A record that seats a stranger at a private table fails its policy.
    let mut stranger = r.clone();
    stranger.seats[2].came = Some(Arrival::Public);
    let failed = verdict(&stranger);
    assert!(!failed.valid);
    let check = failed.first_failure().unwrap();
    assert_eq!(check.name, "policy");
    assert_eq!(
        check.detail.to_string(),
        "hand 1: seat 2 sat down without an invitation, as at a public table; the table's policy, committed at open, keeps the table private"
    );

    // A person short of the starting stack tops up between hands: the next
    // record names it, and holds.
    let short_seat = |live: &LiveTable| {
        live.humans()
            .into_iter()
            .find(|(seat, _)| live.table.seats[*seat].as_ref().unwrap().stack < 400)
    };
    let mut live = live;
    for _ in 0..20 {
        if short_seat(&live).is_some() {
            break;
        }
        live = play(live, 1, &mut now).0;
    }
    let (seat, player) = short_seat(&live).expect("a person lost chips in 20 hands");
    let short = live.table.seats[seat].as_ref().unwrap().stack;
    let live = live::request(&live, player, Request::TopUp, now).unwrap().0;
    let (_, next) = play(live, 1, &mut now);
    let s = next[0].seats.iter().find(|s| s.seat == seat).unwrap();
    assert_eq!(
        (s.stack, s.topped_up, s.sat_down),
        (400, Some(400 - short), false)
    );
    assert!(records[0]
        .seats
        .iter()
        .all(|s| s.sat_down == s.came.is_some()));
    assert!(verdict(&next[0]).valid);
}
