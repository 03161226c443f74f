//! Hand records in the Poker Hand History format (PHH, TOML), so that other
//! tools — PokerKit first — can replay our hands under their own rules.
//!
//! PHH numbers players from the seat left of the button (`p1`, the small
//! blind; heads-up, the big blind) round to the button, which is last. Hole
//! cards come from the record's seed (it is revealed with the hand), so every
//! hand is exported face up. Our extras are PHH user fields (a leading `_`).

use core::fmt::Write as _;

use crate::card::Card;
use crate::record::HandRecord;
use crate::rules::{Action, Player, Street};

/// The PHH fields of one hand (no table header): a `.phh` file's whole text,
/// or one `[n]` table of a `.phhs` file.
pub fn to_phh(record: &HandRecord) -> String {
    let order = phh_order(record);
    let n = order.len();
    let p = |seat: usize| order.iter().position(|&s| s == seat).map_or(0, |i| i + 1);
    let mut blinds = vec![0u64; n];
    if let [sb, bb, ..] = blinds.as_mut_slice() {
        (*sb, *bb) = (record.config.small_blind, record.config.big_blind);
    }
    let stack_of = |list: &[(usize, u64)], seat: usize| {
        list.iter().find(|(s, _)| *s == seat).map_or(0, |(_, c)| *c)
    };
    let starting: Vec<(usize, u64)> = record.seats.iter().map(|s| (s.seat, s.stack)).collect();

    let mut actions = Vec::new();
    let mut holes = hole_cards(record);
    holes.sort_by_key(|(seat, _)| p(*seat));
    for (seat, cards) in holes {
        actions.push(format!("d dh p{} {}", p(seat), cards_text(&cards)));
    }
    let board = &record.results.board;
    let mut dealt = 0;
    for logged in &record.actions {
        deal_board(board, &mut dealt, logged.street.board_len(), &mut actions);
        let word = match logged.action {
            Action::Fold => "f".to_owned(),
            Action::Check | Action::Call => "cc".to_owned(),
            Action::RaiseTo(to) => format!("cbr {to}"),
        };
        actions.push(format!("p{} {word}", p(logged.seat)));
    }
    deal_board(board, &mut dealt, board.len(), &mut actions);
    for (seat, cards) in &record.results.shown {
        actions.push(format!("p{} sm {}", p(*seat), cards_text(cards)));
    }

    let mut out = String::new();
    let _ = writeln!(out, "variant = \"NT\"");
    let _ = writeln!(out, "antes = {}", list(&vec![0u64; n]));
    let _ = writeln!(out, "blinds_or_straddles = {}", list(&blinds));
    let _ = writeln!(out, "min_bet = {}", record.config.big_blind);
    let starting_stacks: Vec<u64> = order.iter().map(|&s| stack_of(&starting, s)).collect();
    let _ = writeln!(out, "starting_stacks = {}", list(&starting_stacks));
    out.push_str("actions = [\n");
    for action in &actions {
        let _ = writeln!(out, "  {},", quoted(action));
    }
    out.push_str("]\n");
    let _ = writeln!(out, "hand = {}", record.hand);
    let players: Vec<String> = order
        .iter()
        .map(|&s| {
            let player = record.seats.iter().find(|r| r.seat == s).map(|r| r.player);
            quoted(&player_name(s, player))
        })
        .collect();
    let _ = writeln!(out, "players = [{}]", players.join(", "));
    let seats: Vec<usize> = order.iter().map(|s| s + 1).collect();
    let _ = writeln!(out, "seats = {}", list(&seats));
    let _ = writeln!(out, "seat_count = {}", record.config.seats);
    let finishing: Vec<u64> = order
        .iter()
        .map(|&s| stack_of(&record.results.stacks, s))
        .collect();
    let _ = writeln!(out, "finishing_stacks = {}", list(&finishing));
    let _ = writeln!(out, "_scheme = {}", quoted(&record.scheme));
    let _ = writeln!(out, "_selfpoker_seed = {}", record.seed);
    let _ = writeln!(out, "_commit = {}", quoted(&record.commit));
    out
}

/// The seats dealt in, from the one left of the button round to the button.
fn phh_order(record: &HandRecord) -> Vec<usize> {
    let seats: Vec<usize> = record.seats.iter().map(|s| s.seat).collect();
    let (after, upto): (Vec<usize>, Vec<usize>) = seats.iter().partition(|&&s| s > record.button);
    after.into_iter().chain(upto).collect()
}

/// Each seat's two cards: the j-th seat dealt in, ascending, holds deck cards 2j and 2j+1.
fn hole_cards(record: &HandRecord) -> Vec<(usize, [Card; 2])> {
    let deck = fairseed_core::selfpoker::deck(record.seed);
    record
        .seats
        .iter()
        .enumerate()
        .filter_map(|(j, s)| {
            let first = Card::new(*deck.get(2 * j)?)?;
            let second = Card::new(*deck.get(2 * j + 1)?)?;
            Some((s.seat, [first, second]))
        })
        .collect()
}

/// Appends the board deals (`d db`) that bring `dealt` cards up to `upto`.
fn deal_board(board: &[Card], dealt: &mut usize, upto: usize, actions: &mut Vec<String>) {
    for street in [Street::Flop, Street::Turn, Street::River] {
        let end = street.board_len();
        if *dealt < end && end <= upto && end <= board.len() {
            actions.push(format!("d db {}", cards_text(&board[*dealt..end])));
            *dealt = end;
        }
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(Card::to_string).collect()
}

fn player_name(seat: usize, player: Option<Player>) -> String {
    match player {
        Some(Player::Ai { level }) => format!("AI level {level}, seat {seat}"),
        Some(Player::Human { id }) => format!("player {id}, seat {seat}"),
        None => format!("seat {seat}"),
    }
}

fn list<T: core::fmt::Display>(items: &[T]) -> String {
    let inner: Vec<String> = items.iter().map(ToString::to_string).collect();
    format!("[{}]", inner.join(", "))
}

/// A TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordSeat;
    use crate::rules::TableConfig;

    fn record(seats: &[usize], button: usize) -> HandRecord {
        HandRecord {
            scheme: crate::record::SCHEME.to_owned(),
            hand: 1,
            seed: 1,
            commit: String::new(),
            config: TableConfig::default(),
            button,
            seats: seats
                .iter()
                .map(|&seat| RecordSeat {
                    seat,
                    player: Player::Ai { level: 1 },
                    stack: 1000 + seat as u64,
                    engine: None,
                    topped_up: None,
                    sat_down: false,
                    came: None,
                })
                .collect(),
            actions: Vec::new(),
            results: crate::record::Outcome::default(),
            deal: None,
            policy: None,
            evidence_key: None,
        }
    }

    #[test]
    fn players_run_from_left_of_the_button_to_the_button() {
        assert_eq!(phh_order(&record(&[0, 2, 3, 5], 3)), [5, 0, 2, 3]);
        assert_eq!(phh_order(&record(&[0, 2, 3, 5], 5)), [0, 2, 3, 5]);
        // Heads-up the button posts the small blind; PHH still lists it last.
        assert_eq!(phh_order(&record(&[1, 4], 1)), [4, 1]);
    }

    #[test]
    fn stacks_and_blinds_follow_the_player_order() {
        let text = to_phh(&record(&[0, 2, 3], 2));
        assert!(
            text.contains("starting_stacks = [1003, 1000, 1002]"),
            "{text}"
        );
        assert!(
            text.contains("blinds_or_straddles = [50, 100, 0]"),
            "{text}"
        );
        assert!(text.contains("seats = [4, 1, 3]"), "{text}");
    }

    #[test]
    fn strings_are_toml_escaped() {
        assert_eq!(quoted("a \"b\" \\ c"), "\"a \\\"b\\\" \\\\ c\"");
    }
}
