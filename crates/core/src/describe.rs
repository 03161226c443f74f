//! Words for places in an outcome (`deal 2, seat 3, card 6`) and for its values
//! (`As`, `Red dragon`, `5`), shared by mismatch details and readable reports.

use serde_json::Value;

use crate::cards;
use crate::games::Game;

/// Which scheme an outcome belongs to, so its numbers can be named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    /// Numbers are numbers.
    Plain,
    /// A table game.
    Match(Game),
    /// A poker session (§2 card layout).
    Poker,
    /// A poker proof (§2 card layout).
    Proof,
    /// A selfpoker hand (§6 card layout).
    Selfpoker,
}

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

impl Seg {
    fn key(&self) -> Option<&str> {
        match self {
            Seg::Key(k) => Some(k),
            Seg::Index(_) => None,
        }
    }

    fn index(&self) -> Option<usize> {
        match self {
            Seg::Index(i) => Some(*i),
            Seg::Key(k) => k.parse().ok(),
        }
    }
}

/// `outcome.deals[1][2][5]`.
pub(crate) fn json_path(path: &[Seg]) -> String {
    let mut out = String::from("outcome");
    for seg in path {
        match seg {
            Seg::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The place in words, followed by its JSON path: `deal 2, seat 3, card 6 (outcome.deals[1][3][5])`.
pub(crate) fn describe_path(ctx: Context, path: &[Seg]) -> String {
    match words(ctx, path) {
        Some(w) => format!("{w} ({})", json_path(path)),
        None => json_path(path),
    }
}

/// The place in words alone, if this scheme has words for it.
pub(crate) fn words(ctx: Context, path: &[Seg]) -> Option<String> {
    let key = path.first()?.key()?;
    let idx = |k: usize| path.get(k).and_then(Seg::index);
    let mut parts: Vec<String> = Vec::new();
    match (ctx, key) {
        (_, "seat_order") => parts.push(format!("seat {}", idx(1)?)),
        (Context::Match(_), "deals") => {
            parts.push(format!("deal {}", idx(1)? + 1));
            parts.extend(idx(2).map(|s| format!("seat {s}")));
            parts.extend(idx(3).map(|c| format!("card {}", c + 1)));
        }
        (Context::Match(Game::Backgammon), "games") => {
            parts.push(format!("game {}", idx(1)? + 1));
            match path.get(2).and_then(Seg::key) {
                Some("opening") => {
                    parts.extend(idx(3).map(|r| format!("opening roll {}", r + 1)));
                    parts.extend(idx(4).map(|s| format!("seat {s}'s die")));
                }
                Some("rolls") => {
                    parts.extend(idx(3).map(|r| format!("move {}", r + 1)));
                    parts.extend(idx(4).map(|d| format!("die {}", d + 1)));
                }
                _ => {}
            }
        }
        (Context::Match(Game::Baloot), "hands") => {
            parts.push(format!("hand {}", idx(1)? + 1));
            match path.get(2).and_then(Seg::key) {
                Some("first") => parts.push("first distribution".into()),
                Some("second") => parts.push("second distribution".into()),
                Some("face_up") => parts.push("face-up card".into()),
                _ => {}
            }
            parts.extend(idx(3).map(|s| format!("seat {s}")));
            parts.extend(idx(4).map(|c| format!("card {}", c + 1)));
        }
        (Context::Match(Game::Mahjong), "hands") => {
            parts.push(format!("hand {}", idx(1)? + 1));
            parts.extend(idx(2).map(|d| format!("draw {}", d + 1)));
        }
        (Context::Poker, "hands") => {
            parts.push(format!("hand {}", idx(1)? + 1));
            match path.get(2).and_then(Seg::key) {
                Some("deck") => parts.push(
                    idx(3).map_or_else(|| "deck".to_owned(), |i| format!("deck position {i}")),
                ),
                Some("holes") => {
                    let seat = path.get(3).and_then(Seg::key);
                    parts.push(seat.map_or_else(|| "holes".to_owned(), |s| format!("seat {s}")));
                    parts.extend(idx(4).map(|c| format!("hole card {}", c + 1)));
                }
                Some("board") => parts.push(
                    idx(3).map_or_else(|| "board".to_owned(), |c| format!("board card {}", c + 1)),
                ),
                Some(other) => parts.push(other.replace('_', " ")),
                None => {}
            }
        }
        (Context::Proof, "cards") => parts.push(format!("proven card {}", idx(1)? + 1)),
        (Context::Selfpoker, "deck") => parts.push(format!("deck position {}", idx(1)?)),
        (Context::Selfpoker, "holes") => {
            parts.push(format!("player {}", idx(1)? + 1));
            parts.extend(idx(2).map(|c| format!("card {}", c + 1)));
        }
        (Context::Selfpoker, "board") => parts.push(format!("board card {}", idx(1)? + 1)),
        _ => return None,
    }
    Some(parts.join(", "))
}

/// How the numbers at `path` are named.
fn namer(ctx: Context, path: &[Seg]) -> Option<fn(u64) -> String> {
    let key = path.first().and_then(Seg::key)?;
    let under = |k: &str| path.iter().any(|s| s.key() == Some(k));
    match (ctx, key) {
        (_, "seat_order") => None,
        (Context::Match(Game::Tarneeb | Game::Trix | Game::Bridge), "deals") => Some(cards::card52),
        (Context::Match(Game::Baloot), "hands") => Some(cards::baloot),
        (Context::Match(Game::Mahjong), "hands") => Some(cards::mahjong),
        (Context::Poker, "hands") if under("deck") || under("holes") || under("board") => {
            Some(cards::card52)
        }
        (Context::Proof, "cards") if path.last().and_then(Seg::key) == Some("card") => {
            Some(cards::card52)
        }
        (Context::Selfpoker, "deck" | "holes" | "board") => Some(cards::selfpoker),
        _ => None,
    }
}

/// A value in words: cards and tiles by name, lists space-separated.
pub(crate) fn value_text(ctx: Context, path: &[Seg], v: &Value) -> String {
    match v {
        Value::Number(n) => match (namer(ctx, path), n.as_u64()) {
            (Some(name), Some(id)) => name(id),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let mut path = path.to_vec();
            let parts: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    path.push(Seg::Index(i));
                    let t = value_text(ctx, &path, item);
                    path.pop();
                    t
                })
                .collect();
            let sep = if ctx_is_tiles(ctx) { ", " } else { " " };
            format!("[{}]", parts.join(sep))
        }
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn ctx_is_tiles(ctx: Context) -> bool {
    matches!(ctx, Context::Match(Game::Mahjong))
}
