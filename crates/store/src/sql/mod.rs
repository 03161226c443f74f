//! Statements written once for both backends.
//!
//! A statement is one text in the SQL the two databases share, with
//! numbered placeholders `?1`, `?2`, … (docs/decisions/0031). Each backend
//! reads its own text from it ([`statement::Statement::sqlite`],
//! [`statement::Statement::postgres`]), derived once and kept:
//!
//! - a placeholder `?N` is PostgreSQL's `$N`;
//! - `AS AMOUNT` names the type of a chip amount that can pass 2^63: SQLite
//!   stores it as decimal `TEXT`, PostgreSQL as `numeric`. An amount is
//!   written `CAST(?N AS AMOUNT)` and read `CAST(column AS TEXT)`, which
//!   both read alike;
//! - `= ANY(?N)` tests a value against a list bound as one parameter: an
//!   array on PostgreSQL, a JSON array on SQLite;
//! - `GREATEST(a, b)` is SQLite's two-argument `max(a, b)`;
//! - `LAST_BET_ID` is the last id given to a bet so far, read as each
//!   database gives ids out.
//!
//! What the two do not share stays with the backend that needs it, added
//! to the shared text where it is used (PostgreSQL's row locks,
//! `FOR UPDATE`) or written in that backend alone: a statement only one
//! backend runs, such as a bet's insert.

pub(crate) mod accounts;
pub(crate) mod bets;
pub(crate) mod idempotency;
pub(crate) mod leases;
pub(crate) mod log;
pub(crate) mod records;
pub(crate) mod rounds;
pub(crate) mod statement;

/// Every shared statement (each backend's tests prepare them all).
#[cfg(test)]
pub(crate) fn all() -> impl Iterator<Item = &'static statement::Statement> {
    [
        &accounts::ALL[..],
        &bets::ALL[..],
        &idempotency::ALL[..],
        &leases::ALL[..],
        &rounds::ALL[..],
        &records::ALL[..],
        &log::ALL[..],
    ]
    .into_iter()
    .flatten()
    .copied()
}

#[cfg(test)]
mod tests {
    use super::all;

    /// No shared-dialect token is left in a backend's text: no named
    /// construct in either, no `?N` placeholder in PostgreSQL's, no
    /// `ANY(` in SQLite's.
    #[test]
    fn each_backend_reads_its_own_text() {
        for s in all() {
            for text in [s.sqlite(), s.postgres()] {
                for token in ["AMOUNT", "LAST_BET_ID"] {
                    assert!(!text.contains(token), "{text}");
                }
            }
            let lite = s.sqlite();
            assert!(
                !lite.contains("ANY(") && !lite.contains("GREATEST("),
                "{lite}"
            );
            let pg = s.postgres();
            assert!(!pg.contains("json_each"), "{pg}");
            assert!(
                !pg.as_bytes()
                    .windows(2)
                    .any(|w| w[0] == b'?' && w[1].is_ascii_digit()),
                "{pg}"
            );
        }
    }
}
