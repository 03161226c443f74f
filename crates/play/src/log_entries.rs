//! The transparency-log entries of the dice pairs, the rounds and the
//! `poker_hmac_v1` hands (docs/spec.md §16.1), built from the values their
//! records carry, as the records write them, so a monitor can match every
//! entry with the record a player holds. The store and the service queue
//! these and nothing else; a live hold'em table's entries are built, with
//! [`entry`], in `fairseed_holdem::live::entries`.

use fairseed_core::dice::Condition;
use fairseed_tlog::{EntryKind, LogEntry};

use crate::poker::Hand;
use crate::PlayerId;

/// The scheme of dice entries.
pub const DICE: &str = "dice_v1";

/// The scheme of a poker table's seed sessions and hands.
pub const POKER: &str = "poker_hmac_v1";

/// An entry of `scheme` named `ids` carrying `values`. Its time is left at
/// zero: the store sets it when it queues the entry, from its own clock.
pub fn entry(kind: EntryKind, scheme: &str, ids: Vec<String>, values: Vec<String>) -> LogEntry {
    LogEntry {
        kind,
        time_ms: 0,
        scheme: scheme.to_owned(),
        ids,
        values,
    }
}

/// The owner id of a player's dice pairs in the log: `p` and the account
/// number. It links a player's pairs, so a monitor sees that the next pair
/// rotated this one, which must then be revealed (docs/spec.md §16.7).
pub fn dice_owner(player_id: PlayerId) -> String {
    format!("p{player_id}")
}

/// A new dice pair's commitment: ids `[p<account>, commitment]` (the pair
/// named by its commitment), values `[commitment]`.
pub fn dice_commitment(player_id: PlayerId, commitment: &str) -> LogEntry {
    entry(
        EntryKind::Commitment,
        DICE,
        vec![dice_owner(player_id), commitment.to_owned()],
        vec![commitment.to_owned()],
    )
}

/// A rotated dice pair's server seed: ids `[p<account>, commitment]`, as
/// its commitment's; values `[server_seed]`.
pub fn dice_reveal(player_id: PlayerId, commitment: &str, server_seed: &str) -> LogEntry {
    entry(
        EntryKind::Reveal,
        DICE,
        vec![dice_owner(player_id), commitment.to_owned()],
        vec![server_seed.to_owned()],
    )
}

/// A settled dice bet, as its row and its pair hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiceOutcome<'a> {
    /// The pair's commitment.
    pub commitment: &'a str,
    /// The pair's client seed.
    pub client_seed: &'a str,
    /// The bet's nonce within the pair.
    pub nonce: u64,
    /// The stake.
    pub amount: u64,
    /// `under` or `over`.
    pub condition: Condition,
    /// The target, 0 to 9999.
    pub target: u16,
    /// The roll.
    pub roll: u16,
    /// Chips paid back, stake included.
    pub payout: u128,
}

/// A settled bet, logged before its pair's seed is revealed so the reveal
/// can check it: ids `[commitment, nonce]`, values `[client_seed, amount,
/// condition, target, roll, payout]`.
pub fn dice_outcome(bet: &DiceOutcome<'_>) -> LogEntry {
    entry(
        EntryKind::Outcome,
        DICE,
        vec![bet.commitment.to_owned(), bet.nonce.to_string()],
        vec![
            bet.client_seed.to_owned(),
            bet.amount.to_string(),
            bet.condition.as_str().to_owned(),
            bet.target.to_string(),
            bet.roll.to_string(),
            bet.payout.to_string(),
        ],
    )
}

/// The scheme of the rounds of `kind` whose commitment players are shown;
/// `None` for bookkeeping rounds (a poker table, a player's index).
pub fn round_scheme(kind: &str) -> Option<&'static str> {
    match kind {
        "match" => Some("match_seed_v1"),
        "chess" => Some("chess_colour_v1"),
        "poker" => Some(POKER),
        "selfpoker" => Some("selfpoker"),
        // A live hold'em table's round is its seed session, which logs its
        // commitment and its end itself, under the table's own scheme
        // (`selfpoker_v2` or `selfpoker_v3`, docs/spec.md §17.1, §20).
        _ => None,
    }
}

/// A new round's commitment, under its kind's scheme: ids `[round id]`,
/// values `[commitment]`; `None` for a kind that logs none.
pub fn round_commitment(kind: &str, id: &str, commitment: &str) -> Option<LogEntry> {
    round_entry(EntryKind::Commitment, kind, id, commitment)
}

/// A round's revealed secret: ids `[round id]`, as its commitment's,
/// values `[secret]`. A hold'em table logs its session's end itself, with
/// the reason beside the secret (docs/spec.md §17.4).
pub fn round_reveal(kind: &str, id: &str, secret: &str) -> Option<LogEntry> {
    round_entry(EntryKind::Reveal, kind, id, secret)
}

/// A round's entry of `entry_kind`: ids `[round id]`, values `[value]`.
fn round_entry(entry_kind: EntryKind, kind: &str, id: &str, value: &str) -> Option<LogEntry> {
    let scheme = round_scheme(kind)?;
    Some(entry(
        entry_kind,
        scheme,
        vec![id.to_owned()],
        vec![value.to_owned()],
    ))
}

/// A `poker_hmac_v1` hand's commitment as it starts, before any card:
/// ids `[session, n]`, `session` being its seed session's round id
/// (`poker:<table>:s<k>`); values `[hand_commitment, deck_root]`.
pub fn poker_hand_commitment(session: &str, hand: &Hand) -> LogEntry {
    entry(
        EntryKind::Commitment,
        POKER,
        vec![session.to_owned(), hand.n.to_string()],
        vec![hand.hand_commitment.to_hex(), hand.deck_root.to_hex()],
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use fairseed_core::Commitment;

    use super::*;
    use crate::poker::Street;

    const C: &str = "137deae2e2250941e3de408fb36d1f7f559d5a7da6962988ca5b0226e004ac44";
    const SEED: &str = "d5a01ef15748b3a5951a96d3698a8da8fd6433b0d22b59072b8cddf437d46459";

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    fn shape(e: &LogEntry) -> (EntryKind, u64, &str, Vec<String>, Vec<String>) {
        (
            e.kind,
            e.time_ms,
            e.scheme.as_str(),
            e.ids.clone(),
            e.values.clone(),
        )
    }

    #[test]
    fn a_dice_pair_is_named_by_its_owner_and_commitment() {
        assert_eq!(
            shape(&dice_commitment(42, C)),
            (
                EntryKind::Commitment,
                0,
                "dice_v1",
                strings(&["p42", C]),
                strings(&[C])
            )
        );
        assert_eq!(
            shape(&dice_reveal(42, C, SEED)),
            (
                EntryKind::Reveal,
                0,
                "dice_v1",
                strings(&["p42", C]),
                strings(&[SEED])
            )
        );
    }

    #[test]
    fn a_dice_outcome_is_named_by_commitment_and_nonce() {
        let bet = DiceOutcome {
            commitment: C,
            client_seed: "my seed",
            nonce: 7,
            amount: 100,
            condition: Condition::Over,
            target: 4999,
            roll: 6120,
            payout: 198,
        };
        assert_eq!(
            shape(&dice_outcome(&bet)),
            (
                EntryKind::Outcome,
                0,
                "dice_v1",
                strings(&[C, "7"]),
                strings(&["my seed", "100", "over", "4999", "6120", "198"])
            )
        );
        // A payout past 2^64 is written whole.
        let big = DiceOutcome {
            payout: u128::from(u64::MAX) * 99,
            condition: Condition::Under,
            ..bet
        };
        let values = dice_outcome(&big).values;
        assert_eq!(values[2], "under");
        assert_eq!(values[5], "1826227663297245609885");
    }

    #[test]
    fn rounds_log_under_their_kinds_scheme_and_bookkeeping_rounds_not_at_all() {
        for (kind, scheme) in [
            ("match", "match_seed_v1"),
            ("chess", "chess_colour_v1"),
            ("poker", "poker_hmac_v1"),
            ("selfpoker", "selfpoker"),
        ] {
            let id = format!("{kind}:x");
            let committed = round_commitment(kind, &id, C).expect("a logged kind");
            assert_eq!(
                shape(&committed),
                (
                    EntryKind::Commitment,
                    0,
                    scheme,
                    vec![id.clone()],
                    strings(&[C])
                )
            );
            let revealed = round_reveal(kind, &id, SEED).expect("a logged kind");
            assert_eq!(
                shape(&revealed),
                (EntryKind::Reveal, 0, scheme, vec![id], strings(&[SEED]))
            );
        }
        for kind in ["poker_table", "poker_index", "holdem_table"] {
            assert_eq!(round_commitment(kind, "x", C), None, "{kind}");
            assert_eq!(round_reveal(kind, "x", SEED), None, "{kind}");
        }
    }

    #[test]
    fn a_poker_hand_commits_to_its_hand_value_and_deck_root() {
        let commitment = Commitment::parse(C).expect("hex");
        let root = Commitment::parse(SEED).expect("hex");
        let hand = Hand {
            n: 3,
            seats: BTreeMap::new(),
            players: BTreeMap::new(),
            hand_commitment: commitment,
            deck_root: root,
            street: Street::Preflop,
            left: BTreeMap::new(),
        };
        assert_eq!(
            shape(&poker_hand_commitment("poker:t1:s2", &hand)),
            (
                EntryKind::Commitment,
                0,
                "poker_hmac_v1",
                strings(&["poker:t1:s2", "3"]),
                strings(&[C, SEED])
            )
        );
    }
}
