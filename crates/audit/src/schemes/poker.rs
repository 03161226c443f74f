//! `poker_hmac_v1` (docs/spec.md §7, §16.7): a table's seed session is
//! committed, each hand's commitment and deck root are logged before its deal,
//! and the session's server seed is revealed when it rotates: at 24 hours, 500
//! hands, an empty table or a restart (§7.8). The log shows the first two
//! directly; the other two show as the table's next session.
//!
//! - commitment `[table?, session]`: `[commitment]`
//! - commitment `[table?, session, n]`: `[hand_commitment, deck_root, "<seat>=<client seed>"...]`
//! - reveal `[table?, session]`: `[server_seed]`
//!
//! The session may be one id `poker:<table>:<session>`, as the service writes
//! it. With the table, each hand's value is checked against the revealed seed
//! (`hand_value` hashes the table); with the seats too, its deck. Without the
//! table, the log cannot show the table's next session either; the 24-hour
//! and 500-hand rules still hold.

use std::collections::{BTreeMap, HashMap};

use crate::entry::{Entry, Kind};
use fairseed_core::poker::{deal, hand_value};
use fairseed_core::{ClientSeed, Commitment, Ident, ServerSeed};

use super::dice::parse_digits;
use super::{name, shape};
use crate::context::{Context, GRACE_MS};
use crate::finding::FindingKind;
use crate::time::rfc3339;

/// A session rotates at the latest when it is this old.
pub const MAX_SESSION_MS: u64 = 24 * 3600 * 1000;
/// A session rotates at the latest after this many hands.
pub const MAX_HANDS: u64 = 500;

#[derive(Debug, Clone)]
struct Hand {
    leaf: u64,
    n: u64,
    commitment: Commitment,
    deck_root: Commitment,
    seats: BTreeMap<u8, ClientSeed>,
}

#[derive(Debug, Clone)]
struct Session {
    leaf: u64,
    time_ms: u64,
    commitment: Commitment,
    hands: Vec<Hand>,
    last_hand_ms: u64,
    /// The entry of the table's next session, which rotated this one.
    rotated: Option<(u64, u64, String)>,
}

/// The `poker_hmac_v1` checker.
#[derive(Debug, Default)]
pub struct Poker {
    /// Open sessions by `(table, session)`.
    sessions: HashMap<(String, String), Session>,
    /// Each table's newest session.
    current: HashMap<String, String>,
}

impl Poker {
    /// Sessions still open.
    pub fn open(&self) -> u64 {
        self.sessions.len() as u64
    }

    /// Checks one `poker_hmac_v1` entry.
    pub fn entry(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) {
        let result = match (entry.kind, entry.ids.len(), entry.values.len()) {
            (Kind::Commitment, 1 | 2, 1) => self.commit(ctx, leaf, entry),
            (Kind::Commitment, 2 | 3, _) => self.hand(ctx, leaf, entry),
            (Kind::Reveal, 1 | 2, _) => self.reveal(ctx, leaf, entry),
            _ => Err(format!(
                "{}: {} ids, expected [table?, session] or [table?, session, n]",
                name(entry),
                entry.ids.len()
            )),
        };
        if let Err(message) = result {
            ctx.find(FindingKind::BadEntry, leaf, message);
        }
    }

    fn commit(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        let key = session_key(&entry.ids);
        let commitment = Commitment::parse_field(&entry.values[0], "values[0]")
            .map_err(|e| format!("{}: {e}", name(entry)))?;
        if self.sessions.contains_key(&key) {
            ctx.find(
                FindingKind::DuplicateCommitment,
                leaf,
                format!("{} committed twice", session_name(&key)),
            );
            return Ok(());
        }
        let tracked =
            (!key.0.is_empty()).then(|| self.current.insert(key.0.clone(), key.1.clone()));
        if let Some(previous) = tracked.flatten() {
            if let Some(old) = self.sessions.get_mut(&(key.0.clone(), previous)) {
                old.rotated = Some((leaf, entry.time_ms, key.1.clone()));
            }
        }
        self.sessions.insert(
            key,
            Session {
                leaf,
                time_ms: entry.time_ms,
                commitment,
                hands: Vec::new(),
                last_hand_ms: entry.time_ms,
                rotated: None,
            },
        );
        Ok(())
    }

    fn hand(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        let what = name(entry);
        let (n, session_ids) = entry
            .ids
            .split_last()
            .ok_or_else(|| format!("{what}: no ids"))?;
        if entry.values.len() < 2 || entry.values.len() == 3 {
            return Err(format!(
                "{what}: {} values, expected hand_commitment, deck_root and no seats or 2 to 10",
                entry.values.len()
            ));
        }
        let n: u64 =
            parse_digits(n).ok_or_else(|| format!("{what}: n is not a decimal integer"))?;
        let commitment = Commitment::parse_field(&entry.values[0], "hand_commitment")
            .map_err(|e| format!("{what}: {e}"))?;
        let deck_root = Commitment::parse_field(&entry.values[1], "deck_root")
            .map_err(|e| format!("{what}: {e}"))?;
        let seats = parse_seats(&entry.values[2..]).map_err(|e| format!("{what}: {e}"))?;
        let key = session_key(session_ids);
        let Some(session) = self.sessions.get_mut(&key) else {
            ctx.find(
                FindingKind::UnexpectedReveal,
                leaf,
                format!("hand {n} of {}: the session is not open (never committed, or already revealed)", session_name(&key)),
            );
            return Ok(());
        };
        if session.hands.last().is_some_and(|h| h.n >= n) {
            ctx.find(
                FindingKind::DuplicateCommitment,
                leaf,
                format!(
                    "hand {n} of {} committed after hand {}",
                    session_name(&key),
                    session.hands.last().map_or(0, |h| h.n)
                ),
            );
            return Ok(());
        }
        if session.hands.len() as u64 == MAX_HANDS {
            ctx.find(
                FindingKind::Overdue,
                leaf,
                format!(
                    "{} deals a hand after {MAX_HANDS} without rotating",
                    session_name(&key)
                ),
            );
        }
        session.last_hand_ms = entry.time_ms;
        session.hands.push(Hand {
            leaf,
            n,
            commitment,
            deck_root,
            seats,
        });
        Ok(())
    }

    fn reveal(&mut self, ctx: &mut Context, leaf: u64, entry: &Entry) -> Result<(), String> {
        shape(entry, entry.ids.len(), Some(1))?;
        let key = session_key(&entry.ids);
        let (table, session_id) = (&key.0, &key.1);
        let Some(session) = self.sessions.remove(&key) else {
            ctx.find(
                FindingKind::UnexpectedReveal,
                leaf,
                format!(
                    "{} revealed but not open (never committed, or revealed before)",
                    session_name(&key)
                ),
            );
            return Ok(());
        };
        if self.current.get(table) == Some(session_id) {
            self.current.remove(table);
        }
        if entry.time_ms > session.time_ms + MAX_SESSION_MS + GRACE_MS {
            ctx.find(
                FindingKind::Overdue,
                leaf,
                format!(
                    "{} committed at {} revealed at {}, after more than 24 hours",
                    session_name(&key),
                    rfc3339(session.time_ms),
                    rfc3339(entry.time_ms)
                ),
            );
        }
        let seed = ServerSeed::parse_field(&entry.values[0], "values[0]")
            .map_err(|e| format!("{}: {e}", name(entry)))?;
        if !session.commitment.matches(&seed) {
            ctx.find(
                FindingKind::RevealMismatch,
                leaf,
                format!(
                    "{}: the revealed seed does not hash to the commitment of entry {}",
                    session_name(&key),
                    session.leaf
                ),
            );
            return Ok(());
        }
        if table.is_empty() {
            return Ok(());
        }
        let (Ok(t), Ok(s)) = (
            Ident::parse_field(table, "table"),
            Ident::parse_field(session_id, "session"),
        ) else {
            return Err(format!(
                "{}: table or session is not an identifier (docs/spec.md §1.5)",
                name(entry)
            ));
        };
        for hand in &session.hands {
            check_hand(ctx, &seed, &t, &s, hand);
        }
        Ok(())
    }

    /// Open sessions past 24 hours, past 500 hands, or followed by the table's next session.
    pub fn finish(&mut self, ctx: &mut Context) {
        let now = ctx.now_ms;
        let mut open: Vec<_> = self.sessions.iter().collect();
        open.sort_by_key(|(_, s)| s.leaf);
        let mut found = Vec::new();
        for ((table, id), s) in open {
            let why = if let Some((next_leaf, time, next)) =
                s.rotated.as_ref().filter(|r| now > r.1 + GRACE_MS)
            {
                let _ = time;
                format!("though the table opened session {next} at entry {next_leaf}")
            } else if now > s.time_ms + MAX_SESSION_MS + GRACE_MS {
                format!("though it is over 24 hours old at {}", rfc3339(now))
            } else if s.hands.len() as u64 >= MAX_HANDS && now > s.last_hand_ms + GRACE_MS {
                format!("though it dealt {MAX_HANDS} hands")
            } else {
                continue;
            };
            found.push((
                s.leaf,
                format!(
                    "{} committed at {} never revealed, {why}",
                    session_name(&(table.clone(), id.clone())),
                    rfc3339(s.time_ms)
                ),
            ));
        }
        for (leaf, message) in found {
            ctx.find(FindingKind::Overdue, leaf, message);
        }
    }
}

/// `(table or "", session)` from a session's ids. The service names a session
/// by one id, `poker:<table>:<session>` (its round id, docs/spec.md §16.1),
/// which holds both.
fn session_key(ids: &[String]) -> (String, String) {
    match ids {
        [table, session] => (table.clone(), session.clone()),
        [one] => match one
            .strip_prefix("poker:")
            .and_then(|rest| rest.rsplit_once(':'))
        {
            Some((table, session)) if !table.is_empty() && !session.is_empty() => {
                (table.to_owned(), session.to_owned())
            }
            _ => (String::new(), one.clone()),
        },
        _ => (String::new(), ids.join("/")),
    }
}

/// "poker session S of table T", or without the table when the log does not name it.
fn session_name((table, session): &(String, String)) -> String {
    if table.is_empty() {
        format!("poker session {session}")
    } else {
        format!("poker session {session} of table {table}")
    }
}

/// A revealed session's hand: its value against its commitment, its deck against its root.
fn check_hand(ctx: &mut Context, seed: &ServerSeed, table: &Ident, session: &Ident, hand: &Hand) {
    let value = hand_value(seed, table, session, hand.n);
    if !value.commitment().ct_eq_commitment(&hand.commitment) {
        ctx.find(
            FindingKind::RevealMismatch,
            hand.leaf,
            format!("hand {} of poker session {session} of table {table}: the revealed seed's hand value does not hash to the hand commitment", hand.n),
        );
        return;
    }
    if hand.seats.is_empty() {
        return;
    }
    match deal(&value, table, session, hand.n, &hand.seats) {
        Ok(deck) if deck.root() == hand.deck_root.to_hex() => ctx.stats.deal(deck.deck()),
        Ok(_) => ctx.find(
            FindingKind::RevealMismatch,
            hand.leaf,
            format!("hand {} of poker session {session} of table {table}: the dealt deck's Merkle root is not the committed deck root", hand.n),
        ),
        Err(e) => ctx.find(FindingKind::BadEntry, hand.leaf, format!("hand {}: {e}", hand.n)),
    }
}

/// `"<seat>=<client seed>"` values: one decimal digit, `=`, the client seed.
fn parse_seats(values: &[String]) -> Result<BTreeMap<u8, ClientSeed>, String> {
    let mut seats = BTreeMap::new();
    for (i, value) in values.iter().enumerate() {
        let field = format!("values[{}]", i + 2);
        let (seat, client) = value
            .split_once('=')
            .ok_or_else(|| format!("{field}: not <seat>=<client seed>"))?;
        let seat: u8 = parse_digits(seat)
            .filter(|s| *s <= fairseed_core::poker::MAX_SEAT)
            .ok_or_else(|| format!("{field}: seat is not 0..9"))?;
        let client = ClientSeed::parse_field(client, &field).map_err(|e| e.to_string())?;
        if seats.insert(seat, client).is_some() {
            return Err(format!("{field}: seat {seat} twice"));
        }
    }
    Ok(seats)
}
