//! A virtual-time harness for the live table, as quinn-proto's `Pair`
//! drives two connections: the real [`Machine::handle`] fed by a simulated
//! clock and simulated people. The clock jumps from one due moment to the
//! next ([`Machine::due`]), so a test plays minutes of a table in
//! microseconds, and every output is checked and kept: the public messages
//! numbered without gaps, the log entries in order, the secret revealed.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // tests: a panic is a failure

use fairseed_core::selfpoker_v3::HandValue;
use fairseed_holdem::live::driver::Timing;
use fairseed_holdem::live::machine::{Input, Machine, Output, Status};
use fairseed_holdem::live::round::Phase;
use fairseed_holdem::live::{view, LiveError, LiveTable, Message, Request};
use fairseed_holdem::Action;
use fairseed_play::{Millis, PlayerId, Viewer};
use fairseed_tlog::LogEntry;

/// How a simulated person plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Persona {
    /// On their turn checks, or calls what there is to call; in a round
    /// commits and reveals at once.
    Caller,
    /// Never does anything: the clock acts for them.
    Absent,
}

/// A table, its clock, its people and everything it said so far.
pub struct Harness {
    /// The table as the machine last left it.
    pub live: LiveTable,
    /// The simulated clock.
    pub now: Millis,
    /// The session secret.
    pub secret: [u8; 32],
    /// The machine's pacing.
    pub pacing: Timing,
    /// The simulated people, by player id.
    pub people: Vec<(PlayerId, Persona)>,
    /// Every public message, in order.
    pub messages: Vec<Message>,
    /// Every log entry, in order, each with the moment it was made at.
    pub entries: Vec<(Millis, LogEntry)>,
    /// The secret the machine revealed, once it did.
    pub revealed: Option<String>,
    /// The status after the last output.
    pub status: Status,
}

impl Harness {
    /// A harness over `live` at time 0.
    pub fn new(live: LiveTable, secret: [u8; 32], pacing: Timing) -> Harness {
        Harness {
            live,
            now: Millis(0),
            secret,
            pacing,
            people: Vec::new(),
            messages: Vec::new(),
            entries: Vec::new(),
            revealed: None,
            status: Status::Open,
        }
    }

    /// The machine of this table.
    pub fn machine(&self) -> Machine<'_> {
        Machine {
            secret: &self.secret,
            pacing: self.pacing,
        }
    }

    /// Feeds `input` at the current time and keeps its output; on a
    /// refusal the table is unchanged.
    pub fn input(&mut self, input: Input) -> Result<Output, LiveError> {
        let out = self.machine().handle(&self.live, input, self.now)?;
        self.take(&out);
        Ok(out)
    }

    /// `player` sits at `seat` and plays as `persona`.
    pub fn sit(&mut self, player: PlayerId, seat: usize, persona: Persona) {
        let sit = Request::Sit {
            seat,
            client_seed: format!("seed of {player}"),
            invitation: None,
            house: false,
        };
        self.send(player, sit).expect("a free seat");
        self.people.push((player, persona));
    }

    /// `player` asks `request` now.
    pub fn send(&mut self, player: PlayerId, request: Request) -> Result<Output, LiveError> {
        self.input(Input::Request { player, request })
    }

    fn take(&mut self, out: &Output) {
        assert!(out.at >= self.now, "no output is taken in the past");
        let mut seq = self.live.seq;
        for m in &out.messages {
            seq += 1;
            assert_eq!(m.seq(), seq, "messages numbered without gaps");
        }
        assert_eq!(out.next.seq, seq, "the table counts its messages");
        assert_eq!(out.next.closed, matches!(out.status, Status::Closed(_)));
        if let Some(secret) = &out.reveal {
            assert!(self.revealed.is_none(), "a session ends once");
            assert_eq!(*secret, hex::encode(self.secret));
            assert_eq!(out.next.session.revealed.as_ref(), Some(secret));
            self.revealed = Some(secret.clone());
        }
        self.now = out.at;
        self.messages.extend(out.messages.iter().cloned());
        self.entries
            .extend(out.entries.iter().map(|e| (out.at, e.clone())));
        self.status = out.status;
        self.live = out.next.clone();
    }

    /// What `persona` asks of the table now, if anything.
    fn wish(&self, player: PlayerId, persona: Persona) -> Option<Request> {
        if persona == Persona::Absent {
            return None;
        }
        let v = view(&self.live, Viewer::Player(player));
        let seat = v.you?;
        if let Some(round) = v.round.as_ref() {
            let value = value_of(player, round.hand);
            let committed = round.commits.contains_key(&seat);
            return match round.phase {
                Phase::Commit if round.seats.contains(&seat) && !committed => {
                    Some(Request::Commit {
                        hand: round.hand,
                        commit: value.commit(),
                    })
                }
                Phase::Reveal if committed && !round.revealed.contains(&seat) => {
                    Some(Request::Reveal {
                        hand: round.hand,
                        value: value.as_hex().to_owned(),
                    })
                }
                _ => None,
            }
            .filter(|_| v.hand.is_none());
        }
        let legal = v.hand.as_ref()?.legal.as_ref()?;
        Some(Request::Act(if legal.to_call == 0 {
            Action::Check
        } else {
            Action::Call
        }))
    }

    /// Lets every person who wants to act do so now; whether one did.
    fn react(&mut self) -> bool {
        let people = self.people.clone();
        let mut acted = false;
        for (player, persona) in people {
            if let Some(request) = self.wish(player, persona) {
                self.send(player, request)
                    .expect("a simulated person asks what the table takes");
                acted = true;
            }
        }
        acted
    }

    /// One step: a person acts now, or else the clock jumps to the next due
    /// moment and the machine ticks. `false` when nothing is left to do
    /// before `until`.
    pub fn step(&mut self, until: Millis) -> bool {
        if self.live.closed {
            return false;
        }
        if self.react() {
            return true;
        }
        let Some(due) = self.machine().due(&self.live) else {
            return false;
        };
        if due > until {
            return false;
        }
        self.now = Millis(self.now.0.max(due.0));
        self.input(Input::Tick).expect("what is due is taken");
        true
    }

    /// Steps until `done` holds (`true`), or nothing is left to do within
    /// `ms` of the clock (`false`).
    pub fn run_until(&mut self, ms: i64, done: impl Fn(&Harness) -> bool) -> bool {
        let until = Millis(self.now.0 + ms);
        while !done(self) {
            if !self.step(until) {
                return false;
            }
        }
        true
    }

    /// Lets `ms` of virtual time pass, the table and its people acting on the way.
    pub fn wait(&mut self, ms: i64) {
        let until = Millis(self.now.0 + ms);
        while self.step(until) {}
        self.now = Millis(self.now.0.max(until.0));
    }

    /// The records of the hands ended so far.
    pub fn hand_ends(&self) -> Vec<&Message> {
        self.messages
            .iter()
            .filter(|m| matches!(m, Message::HandEnd { .. }))
            .collect()
    }

    /// The values of the log entries of the table's own scheme named `first`.
    pub fn service_log(&self, first: &str) -> Vec<Vec<String>> {
        self.entries
            .iter()
            .filter(|(_, e)| {
                e.scheme == "holdem_table" && e.values.first().map(String::as_str) == Some(first)
            })
            .map(|(_, e)| e.values.clone())
            .collect()
    }
}

/// The per-hand value `player` commits to for `hand`.
pub fn value_of(player: PlayerId, hand: u64) -> HandValue {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&player.to_le_bytes());
    bytes[8..16].copy_from_slice(&hand.to_le_bytes());
    HandValue::from_bytes(bytes)
}
