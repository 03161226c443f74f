//! The statements of records (what rounds and dice pairs leave) and who may
//! read them, for both backends.

use crate::sql::statement::Statement;

/// A record's columns: id, scheme, body, its readers joined by commas.
macro_rules! record_columns {
    () => {
        "SELECT id, scheme, body,
                (SELECT string_agg(CAST(player_id AS TEXT), ',') FROM record_readers
                 WHERE record_id = records.id) AS readers
         FROM records"
    };
}

/// Only the records a viewer may read (`?1`: the player, NULL for the
/// operator).
macro_rules! readable {
    () => {
        " WHERE (CAST(?1 AS BIGINT) IS NULL OR EXISTS (SELECT 1 FROM record_readers
                 WHERE record_id = records.id AND player_id = ?1))"
    };
}

/// The records a viewer may read among a list of ids (`?2`), in no order.
pub(crate) static RECORDS_WITH_IDS: Statement =
    Statement::new(concat!(record_columns!(), readable!(), " AND id = ANY(?2)"));

/// A page of the records a viewer may read, newest first, before an id
/// (`?2`) if one is given.
pub(crate) static RECORDS: Statement = Statement::new(concat!(
    record_columns!(),
    readable!(),
    " AND (CAST(?2 AS BIGINT) IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3"
));

/// Up to a limit of the records a viewer may read past an id (`?2`),
/// oldest first.
pub(crate) static RECORDS_AFTER: Statement = Statement::new(concat!(
    record_columns!(),
    readable!(),
    " AND id > ?2 ORDER BY id LIMIT ?3"
));

/// A new record; its id.
pub(crate) static INSERT_RECORD: Statement = Statement::new(
    "INSERT INTO records (scheme, body, created_at) VALUES (?1, ?2, ?3) RETURNING id",
);

/// Lets a player read a record.
pub(crate) static INSERT_READER: Statement =
    Statement::new("INSERT INTO record_readers (record_id, player_id) VALUES (?1, ?2)");

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 5] = [
    &RECORDS_WITH_IDS,
    &RECORDS,
    &RECORDS_AFTER,
    &INSERT_RECORD,
    &INSERT_READER,
];
