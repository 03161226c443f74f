//! The eight table games and what each needs of the draw stream.

use core::fmt;

use crate::error::Error;

/// The eight table games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Game {
    /// Two players; dice.
    Backgammon,
    /// Two players; seat order only.
    Checkers,
    /// Two players; seat order only.
    Xiangqi,
    /// Four players; 52-card deals.
    Tarneeb,
    /// Four players; 52-card deals.
    Trix,
    /// Four players; 52-card deals.
    Bridge,
    /// Four players; 32-card deals with a second distribution.
    Baloot,
    /// Four players; tiles drawn from the wall one by one.
    Mahjong,
}

impl Game {
    /// Every game, in the order of docs/spec.md §5.2.
    pub const ALL: [Game; 8] = [
        Game::Backgammon,
        Game::Checkers,
        Game::Xiangqi,
        Game::Tarneeb,
        Game::Trix,
        Game::Bridge,
        Game::Baloot,
        Game::Mahjong,
    ];

    /// Parses a game's name.
    ///
    /// # Errors
    /// An unknown name; the error lists the known ones.
    pub fn parse(text: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|g| g.as_str() == text)
            .ok_or_else(|| {
                Error::invalid(
                    "game",
                    format!(
                        "unknown game {text:?}, expected one of backgammon, checkers, xiangqi, \
                         tarneeb, trix, bridge, baloot, mahjong"
                    ),
                )
            })
    }

    /// The name used in the stream's messages and in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Game::Backgammon => "backgammon",
            Game::Checkers => "checkers",
            Game::Xiangqi => "xiangqi",
            Game::Tarneeb => "tarneeb",
            Game::Trix => "trix",
            Game::Bridge => "bridge",
            Game::Baloot => "baloot",
            Game::Mahjong => "mahjong",
        }
    }

    /// How many players sit at the table.
    pub fn players(self) -> usize {
        match self {
            Game::Backgammon | Game::Checkers | Game::Xiangqi => 2,
            _ => 4,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
