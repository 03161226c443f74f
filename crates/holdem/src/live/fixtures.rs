//! Tables the unit tests of the live modules start from.

use fairseed_play::Millis;

use super::policy::Policy;
use super::requests::{request, Request};
use super::session::Session;
use super::table::LiveTable;
use crate::rules::TableConfig;

/// A heads-up table `t` against one AI at level 1, under `session`.
pub(crate) fn heads_up(session: Session) -> LiveTable {
    let policy = Policy {
        config: TableConfig {
            seats: 2,
            small_blind: 1,
            big_blind: 2,
            starting_stack: 200,
            action_ms: 5_000,
        },
        ais: vec![1],
        ai_seats: Vec::new(),
        idle_close_ms: 60_000,
        public: false,
    };
    LiveTable::open("t".into(), policy, session).expect("a policy in bounds")
}

/// `table` with player 7 seated at seat 0 at `at`.
pub(crate) fn seated(table: &LiveTable, at: Millis) -> LiveTable {
    let sit = Request::Sit {
        seat: 0,
        client_seed: "mine".into(),
        invitation: None,
        house: false,
    };
    request(table, 7, sit, at).expect("a free seat").0
}
