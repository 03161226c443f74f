//! No-limit Texas hold'em for 2 to 6 seats as a pure state machine:
//! [`apply`]`(table, command, now)` returns the next table and what happened.
//!
//! The rules where hold'em leaves a choice:
//! - **Button and blinds.** The button moves to the next seat dealt in; the
//!   small and big blinds are the next two seats dealt in after it. Heads-up,
//!   the button posts the small blind and acts first before the flop, last
//!   after. No dead or missed blinds (play chips). A stack shorter than its
//!   blind posts all it has; the bet to call is still the big blind.
//! - **The deal.** Seats dealt in take cards 2j and 2j+1 of
//!   `default_rng(seed).permutation(52)` in seat order (j = 0 for the lowest
//!   seat); the board is cards 2n..2n+4; no burns.
//! - **Minimum raise.** A bet is at least the big blind; a raise adds at
//!   least the last full bet or raise of the street. A seat may go all-in for
//!   less. A short all-in does not reopen the betting: a seat that already
//!   acted may raise again only if the bets since its last action add up to
//!   a full raise. Nobody may raise when no other seat has chips to call.
//! - **Uncalled chips** go back to the bettor before the pots are made.
//! - **Side pots** are layered by what each seat put in; each pot goes to
//!   the best hand among the seats that put in its full layer.
//! - **Split pots and odd chips.** A pot splits evenly among its best
//!   hands; the chips that do not divide go one each to the winners in
//!   seat order starting left of the button.
//! - **Showdown.** The last seat to bet or raise on the river shows first;
//!   with no river bet, the first seat left of the button. Then clockwise,
//!   a seat shows if its hand wins or ties some pot it can win against the
//!   hands already shown, and mucks otherwise. A seat that wins uncontested
//!   shows nothing.
//! - **Clock.** Each turn has `action_ms`; after it, a [`Command::Timeout`]
//!   checks if checking is free and folds otherwise.
//! - **Sitting out, leaving, top-ups** happen between hands for seats in
//!   the hand (sitting out during a hand counts from the next one). A
//!   top-up refills a stack to the starting stack, free.

mod error;
mod event;
mod hand;
mod in_hand;
mod pots;
mod table;
mod terms;

pub use error::HoldemError;
pub use event::Event;
pub use hand::{HandState, Legal, Logged};
pub use in_hand::InHand;
pub use table::{apply, Command, Seat, Table, TableConfig, MAX_SEATS};
pub use terms::{chips, Action, Player, Street};
