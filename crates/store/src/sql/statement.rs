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

/// A construct the shared dialect names, spelled by each backend.
struct Construct {
    shared: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

/// The type of a chip amount that can pass 2^63, as in `CAST(?N AS
/// AMOUNT)`: SQLite stores it as decimal text, PostgreSQL as `numeric`.
const AMOUNT: Construct = Construct {
    shared: "AS AMOUNT",
    sqlite: "AS TEXT",
    postgres: "AS numeric",
};

/// The larger of two values: SQLite's scalar `max` takes two arguments.
const GREATEST: Construct = Construct {
    shared: "GREATEST(",
    sqlite: "max(",
    postgres: "GREATEST(",
};

/// The last id given to a bet so far, 0 before the first. SQLite's one
/// writer commits in turn, so the largest stored id is the last given;
/// PostgreSQL's is its sequence's, which a bet still running has taken.
const LAST_BET_ID: Construct = Construct {
    shared: "LAST_BET_ID",
    sqlite: "(SELECT ifnull(max(id), 0) FROM bets)",
    postgres: "(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq)",
};

/// Every named construct.
const CONSTRUCTS: [Construct; 3] = [AMOUNT, GREATEST, LAST_BET_ID];

/// A value tested against a list bound as one parameter, `= ANY(?N)`:
/// PostgreSQL's own spelling, the list bound as an array. SQLite reads the
/// list bound as a JSON array ([`SQLITE_LIST`]).
const ANY: &str = "= ANY(?";

/// SQLite's spelling of `= ANY(?N)`, around the placeholder.
const SQLITE_LIST: (&str, &str) = ("IN (SELECT value FROM json_each(?", "))");

fn to_sqlite(text: &str) -> String {
    let text = CONSTRUCTS
        .iter()
        .fold(text.to_owned(), |t, c| t.replace(c.shared, c.sqlite));
    any_as_json_list(&text)
}

/// Each `= ANY(?N)` as SQLite's test against a JSON array.
fn any_as_json_list(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(ANY) {
        out.push_str(&rest[..at]);
        let after = &rest[at + ANY.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match after[digits..].strip_prefix(')') {
            Some(tail) if digits > 0 => {
                out.push_str(SQLITE_LIST.0);
                out.push_str(&after[..digits]);
                out.push_str(SQLITE_LIST.1);
                rest = tail;
            }
            _ => {
                out.push_str(ANY);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `?N` as `$N`, and each construct as PostgreSQL spells it. A `?` not
/// followed by a digit is kept (the shared dialect has none).
fn to_postgres(text: &str) -> String {
    let text = CONSTRUCTS
        .iter()
        .fold(text.to_owned(), |t, c| t.replace(c.shared, c.postgres));
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

    #[test]
    fn a_list_is_an_array_on_postgres_and_json_on_sqlite() {
        let s = Statement::new("SELECT a FROM t WHERE b = ?1 AND c = ANY(?23) ORDER BY a");
        assert_eq!(
            s.sqlite(),
            "SELECT a FROM t WHERE b = ?1 AND c IN (SELECT value FROM json_each(?23)) ORDER BY a"
        );
        assert_eq!(
            s.postgres(),
            "SELECT a FROM t WHERE b = $1 AND c = ANY($23) ORDER BY a"
        );
        assert_eq!(any_as_json_list("x = ANY(?) y"), "x = ANY(?) y");
    }

    #[test]
    fn named_constructs_are_spelled_by_each_backend() {
        let s = Statement::new("UPDATE t SET a = GREATEST(a, ?1), b = LAST_BET_ID");
        assert_eq!(
            s.sqlite(),
            "UPDATE t SET a = max(a, ?1), b = (SELECT ifnull(max(id), 0) FROM bets)"
        );
        assert_eq!(
            s.postgres(),
            "UPDATE t SET a = GREATEST(a, $1), b = \
             (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq)"
        );
    }
}
