//! One statement in the shared dialect, and the text each backend runs.

use std::sync::OnceLock;

/// One statement, its text for each backend derived on first use.
pub(crate) struct Statement {
    text: &'static str,
    sqlite: OnceLock<String>,
    postgres: OnceLock<String>,
}

impl Statement {
    /// A statement in the shared dialect.
    pub(crate) const fn new(text: &'static str) -> Self {
        Self {
            text,
            sqlite: OnceLock::new(),
            postgres: OnceLock::new(),
        }
    }

    /// The text SQLite runs.
    pub(crate) fn sqlite(&self) -> &str {
        self.sqlite.get_or_init(|| to_sqlite(self.text))
    }

    /// The text PostgreSQL runs.
    pub(crate) fn postgres(&self) -> &str {
        self.postgres.get_or_init(|| to_postgres(self.text))
    }
}

/// The type SQLite stores a chip amount as.
const SQLITE_AMOUNT: &str = "AS TEXT";
/// The type PostgreSQL stores a chip amount as.
const POSTGRES_AMOUNT: &str = "AS numeric";
/// The shared dialect's name for the type of a chip amount.
const AMOUNT: &str = "AS AMOUNT";

fn to_sqlite(text: &str) -> String {
    text.replace(AMOUNT, SQLITE_AMOUNT)
}

/// `?N` as `$N`, and the amount's type as PostgreSQL names it. A `?` not
/// followed by a digit is kept (the shared dialect has none).
fn to_postgres(text: &str) -> String {
    let text = text.replace(AMOUNT, POSTGRES_AMOUNT);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_backend_reads_its_own_placeholders_and_amount_type() {
        let s = Statement::new(
            "INSERT INTO t (a, b) VALUES (?1, CAST(?12 AS AMOUNT)) RETURNING CAST(b AS TEXT)",
        );
        assert_eq!(
            s.sqlite(),
            "INSERT INTO t (a, b) VALUES (?1, CAST(?12 AS TEXT)) RETURNING CAST(b AS TEXT)"
        );
        assert_eq!(
            s.postgres(),
            "INSERT INTO t (a, b) VALUES ($1, CAST($12 AS numeric)) RETURNING CAST(b AS TEXT)"
        );
    }

    #[test]
    fn a_question_mark_without_a_number_is_kept() {
        assert_eq!(to_postgres("SELECT '?' || ?1"), "SELECT '?' || $1");
    }
}
