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
//!   both read alike.
//!
//! What the two do not share stays with the backend that needs it, added
//! to the shared text where it is used: PostgreSQL's row locks
//! (`FOR UPDATE`), and every statement of a module still written per
//! backend.

pub(crate) mod accounts;
pub(crate) mod rounds;
pub(crate) mod statement;
