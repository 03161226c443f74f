//! One hand: blinds, betting rounds, the board, and the end of the hand.

use fairseed_play::Millis;
use serde::{Deserialize, Serialize};

use super::error::HoldemError;
use super::event::Event;
use super::in_hand::InHand;
use super::pots;
use super::terms::{Action, Street};
use crate::card::Card;

/// A hand being played: everything, secrets included (its `Debug` leaves
/// the seed, the hole cards and the board to come out).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandState {
    /// Hands are numbered from 1 per table.
    pub number: u64,
    /// The selfpoker seed (secret until the hand ends).
    pub seed: u64,
    /// `sha256("selfpoker:" + seed)`, public from the start.
    pub commit: String,
    /// The button's seat.
    pub button: usize,
    /// The seats dealt in, seat order.
    pub players: Vec<InHand>,
    /// The whole board as dealt from the deck; `street.board_len()` cards are public.
    pub board: [Card; 5],
    /// The betting round.
    pub street: Street,
    /// Index into `players` of the seat to act.
    pub to_act: usize,
    /// The total a seat must have in front of it on this street to stay in.
    pub current_bet: u64,
    /// The last full bet or raise of the street: the next raise adds at least this.
    pub min_raise: u64,
    /// The big blind, the smallest bet.
    pub big_blind: u64,
    /// Index into `players` of the last seat to bet or raise on this street.
    pub last_aggressor: Option<usize>,
    /// When the seat to act times out.
    pub deadline: Millis,
    /// Each turn's time.
    pub action_ms: i64,
    /// Every action so far, in order (public).
    pub log: Vec<Logged>,
}

/// One action of the hand, as everyone at the table saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Logged {
    /// Who acted.
    pub seat: usize,
    /// On which street.
    pub street: Street,
    /// What it did.
    pub action: Action,
    /// Whether the clock chose it.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub timed_out: bool,
    /// When the clock chose it: the moment the table counted the seat's
    /// clock run out (docs/spec.md §20.7); absent for an action the seat
    /// chose, and from records of tables that did not write it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Millis>,
}

impl core::fmt::Debug for HandState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let stacks: Vec<(usize, u64, u64, bool)> = self
            .players
            .iter()
            .map(|p| (p.seat, p.stack, p.total, p.folded))
            .collect();
        f.debug_struct("HandState")
            .field("number", &self.number)
            .field("commit", &self.commit)
            .field("button", &self.button)
            .field("street", &self.street)
            .field("board", &self.board_dealt())
            .field("seat_to_act", &self.seat_to_act())
            .field("current_bet", &self.current_bet)
            .field("seats_stack_in_folded", &stacks)
            .finish_non_exhaustive()
    }
}

/// What the seat to act may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Legal {
    /// The seat.
    pub seat: usize,
    /// Chips a call puts in (0: checking is free).
    pub to_call: u64,
    /// The smallest and largest raise-to totals, if raising is open.
    pub raise: Option<(u64, u64)>,
}

/// Where a hand stands after a command.
pub(crate) enum Progress {
    /// Waiting for `to_act`.
    Playing(HandState),
    /// Over: each seat's chips after the hand.
    Ended(Vec<(usize, u64)>),
}

/// A hand's opening: who is dealt in and the blinds.
pub(crate) struct Opening {
    pub number: u64,
    pub seed: u64,
    pub button: usize,
    /// Dealt-in seats and their chips, seat order.
    pub stacks: Vec<(usize, u64)>,
    pub small_blind: u64,
    pub big_blind: u64,
    pub action_ms: i64,
}

impl HandState {
    /// Deals the hand, posts the blinds, and plays on to the first decision.
    pub(crate) fn start(open: Opening, now: Millis, events: &mut Vec<Event>) -> Progress {
        let deck = fairseed_core::selfpoker::deck(open.seed);
        let card = |i: usize| Card::from_deck(deck[i]);
        let n = open.stacks.len();
        let players: Vec<InHand> = open
            .stacks
            .iter()
            .enumerate()
            .map(|(j, &(seat, stack))| InHand {
                seat,
                hole: [card(2 * j), card(2 * j + 1)],
                stack,
                street_bet: 0,
                total: 0,
                folded: false,
                acted_at: None,
            })
            .collect();
        let mut hand = HandState {
            number: open.number,
            commit: fairseed_core::selfpoker::commit(open.seed),
            seed: open.seed,
            button: open.button,
            players,
            board: core::array::from_fn(|k| card(2 * n + k)),
            street: Street::Preflop,
            to_act: 0,
            current_bet: open.big_blind,
            min_raise: open.big_blind,
            big_blind: open.big_blind,
            last_aggressor: None,
            deadline: now,
            action_ms: open.action_ms,
            log: Vec::new(),
        };
        events.push(Event::HandStarted {
            number: hand.number,
            commit: hand.commit.clone(),
            button: hand.button,
            stacks: open.stacks.clone(),
        });
        let button = hand.button_index();
        let (sb, bb) = if n == 2 {
            (button, (button + 1) % n)
        } else {
            ((button + 1) % n, (button + 2) % n)
        };
        hand.post(sb, open.small_blind, events);
        hand.post(bb, open.big_blind, events);
        match hand.next_to_act(bb) {
            Some(i) => {
                hand.turn(i, now);
                Progress::Playing(hand)
            }
            None => hand.end_street(now, events),
        }
    }

    fn post(&mut self, i: usize, blind: u64, events: &mut Vec<Event>) {
        let p = &mut self.players[i];
        let amount = blind.min(p.stack);
        p.stack -= amount;
        p.street_bet += amount;
        p.total += amount;
        events.push(Event::BlindPosted {
            seat: p.seat,
            amount,
        });
    }

    /// Index into `players` of the button.
    pub fn button_index(&self) -> usize {
        self.players
            .iter()
            .position(|p| p.seat == self.button)
            .unwrap_or(0)
    }

    /// The seat to act.
    pub fn seat_to_act(&self) -> usize {
        self.players[self.to_act].seat
    }

    /// The board cards dealt so far.
    pub fn board_dealt(&self) -> &[Card] {
        &self.board[..self.street.board_len()]
    }

    /// Chips in the middle, this street's bets included.
    pub fn pot(&self) -> u64 {
        self.players.iter().map(|p| p.total).sum()
    }

    /// What the seat to act may do.
    pub fn legal(&self) -> Legal {
        let i = self.to_act;
        let p = &self.players[i];
        let to_call = self.current_bet.saturating_sub(p.street_bet).min(p.stack);
        let raise = self.raise_open(i).then(|| {
            let max = p.street_bet + p.stack;
            ((self.current_bet + self.min_raise).min(max), max)
        });
        Legal {
            seat: p.seat,
            to_call,
            raise,
        }
    }

    /// Raising is open to player `i`: chips beyond a call, someone left to
    /// call, and a full raise since its last action (or no action yet).
    fn raise_open(&self, i: usize) -> bool {
        let p = &self.players[i];
        let reopened = p
            .acted_at
            .is_none_or(|at| self.current_bet.saturating_sub(at) >= self.min_raise);
        p.street_bet + p.stack > self.current_bet && reopened && self.others_can_bet(i)
    }

    fn others_can_bet(&self, i: usize) -> bool {
        self.players
            .iter()
            .enumerate()
            .any(|(j, q)| j != i && q.can_bet())
    }

    fn needs_to_act(&self, i: usize) -> bool {
        let p = &self.players[i];
        p.can_bet()
            && (p.street_bet < self.current_bet || (p.acted_at.is_none() && self.others_can_bet(i)))
    }

    /// The first player after `i` (cyclically, `i` itself last) who must act.
    fn next_to_act(&self, i: usize) -> Option<usize> {
        let n = self.players.len();
        (1..=n).map(|k| (i + k) % n).find(|&j| self.needs_to_act(j))
    }

    fn turn(&mut self, i: usize, now: Millis) {
        self.to_act = i;
        self.deadline = Millis(now.0.saturating_add(self.action_ms));
    }

    /// Applies the action of `seat`; `timed_out` marks the clock's choice.
    pub(crate) fn act(
        mut self,
        seat: usize,
        action: Action,
        timed_out: bool,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Progress, HoldemError> {
        let i = self.to_act;
        let street = self.street;
        if self.players[i].seat != seat {
            return Err(HoldemError::NotYourTurn {
                street,
                seat,
                to_act: self.players[i].seat,
            });
        }
        let owe = self.current_bet.saturating_sub(self.players[i].street_bet);
        let paid = match action {
            Action::Fold => {
                self.players[i].folded = true;
                0
            }
            Action::Check if owe > 0 => {
                return Err(HoldemError::CannotCheck {
                    street,
                    seat,
                    to_call: owe.min(self.players[i].stack),
                })
            }
            Action::Check => 0,
            Action::Call if owe == 0 => return Err(HoldemError::NothingToCall { street, seat }),
            Action::Call => owe.min(self.players[i].stack),
            Action::RaiseTo(to) => self.check_raise(i, to)?,
        };
        let p = &mut self.players[i];
        p.stack -= paid;
        p.street_bet += paid;
        p.total += paid;
        let all_in = p.stack == 0 && !p.folded;
        if let Action::RaiseTo(to) = action {
            if to - self.current_bet >= self.min_raise {
                self.min_raise = to - self.current_bet;
            }
            self.current_bet = to;
            self.last_aggressor = Some(i);
        }
        if action != Action::Fold {
            self.players[i].acted_at = Some(self.current_bet);
        }
        let at = timed_out.then_some(now);
        self.log.push(Logged {
            seat,
            street,
            action,
            timed_out,
            at,
        });
        events.push(Event::Acted {
            seat,
            street,
            action,
            paid,
            all_in,
            timed_out,
            at,
        });
        if self.players.iter().filter(|p| !p.folded).count() == 1 {
            return Ok(self.finish(events));
        }
        Ok(match self.next_to_act(i) {
            Some(j) => {
                self.turn(j, now);
                Progress::Playing(self)
            }
            None => self.end_street(now, events),
        })
    }

    /// The chips a raise to `to` costs player `i`, if it is legal.
    fn check_raise(&self, i: usize, to: u64) -> Result<u64, HoldemError> {
        let p = &self.players[i];
        let (street, seat) = (self.street, p.seat);
        if !self.raise_open(i) {
            return Err(HoldemError::RaiseClosed { street, seat });
        }
        let max = p.street_bet + p.stack;
        if to > max {
            return Err(HoldemError::RaiseTooLarge {
                street,
                seat,
                to,
                max,
            });
        }
        let min = self.current_bet + self.min_raise;
        if to < min && to != max {
            return Err(HoldemError::RaiseTooSmall {
                street,
                seat,
                is_bet: self.current_bet == 0,
                to,
                min: min.min(max),
            });
        }
        Ok(to - p.street_bet)
    }

    /// The street's betting is over: deal on, or show down.
    fn end_street(mut self, now: Millis, events: &mut Vec<Event>) -> Progress {
        loop {
            let Some(next) = self.street.next() else {
                return self.finish(events);
            };
            let from = self.street.board_len();
            self.street = next;
            events.push(Event::Dealt {
                street: next,
                cards: self.board[from..next.board_len()].to_vec(),
            });
            for p in &mut self.players {
                p.street_bet = 0;
                p.acted_at = None;
            }
            self.current_bet = 0;
            self.min_raise = self.big_blind;
            self.last_aggressor = None;
            if let Some(i) = self.next_to_act(self.button_index()) {
                self.turn(i, now);
                return Progress::Playing(self);
            }
        }
    }

    /// Returns uncalled chips, awards the pots, and closes the hand.
    fn finish(mut self, events: &mut Vec<Event>) -> Progress {
        if let Some((i, amount)) = pots::return_uncalled(&mut self.players) {
            events.push(Event::Returned {
                seat: self.players[i].seat,
                amount,
            });
        }
        let button = self.button_index();
        let contenders = self.players.iter().filter(|p| !p.folded).count();
        let showdown_from = self.last_aggressor.filter(|_| self.street == Street::River);
        pots::award(
            &mut self.players,
            &self.board,
            button,
            (contenders > 1).then_some(showdown_from),
            events,
        );
        let stacks: Vec<(usize, u64)> = self.players.iter().map(|p| (p.seat, p.stack)).collect();
        events.push(Event::HandEnded {
            number: self.number,
            seed: self.seed,
            stacks: stacks.clone(),
        });
        Progress::Ended(stacks)
    }
}
