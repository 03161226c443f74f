//! `match_seed_v2` and `match_seed_v1`: the table games' draw stream (docs/spec.md §5).

mod baloot;
mod mahjong;
mod play;

use core::fmt;

use crate::error::Error;
use crate::seed::{ClientSeed, Ident, ServerSeed};
use crate::shuffle::{shuffle, shuffled_ids};
use crate::stream::{DrawSource, HmacStream};

pub use baloot::BalootFirst;
pub use mahjong::MahjongWall;
pub use play::{play, BackgammonGame, BalootHand, Hands, MatchOutcome, Play};

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

/// One match's draw stream: seat order first, then the game's draws in order of play.
#[derive(Debug, Clone)]
pub struct MatchStream {
    stream: HmacStream,
    players: usize,
}

impl MatchStream {
    /// `match_seed_v2`: `word(seed, "pf2:" + game + ":" + match_id + ":" + seeds + ":" + k)`.
    ///
    /// # Errors
    /// The number of client seeds is not the game's number of players.
    pub fn v2(
        seed: &ServerSeed,
        game: Game,
        match_id: &Ident,
        client_seeds: &[ClientSeed],
    ) -> Result<Self, Error> {
        if client_seeds.len() != game.players() {
            return Err(Error::invalid(
                "client_seeds",
                format!(
                    "{} client seeds for {game}, expected {}",
                    client_seeds.len(),
                    game.players()
                ),
            ));
        }
        let seeds = client_seeds
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{i}={s}"))
            .collect::<Vec<_>>()
            .join(",");
        let prefix = format!("pf2:{game}:{match_id}:{seeds}:");
        Ok(Self {
            stream: HmacStream::new(seed.key(), prefix.as_bytes()),
            players: game.players(),
        })
    }

    /// `match_seed_v1` (legacy): `word(seed, "pf1:" + game + ":" + match_id + ":" + k)`.
    pub fn v1(seed: &ServerSeed, game: Game, match_id: &Ident) -> Self {
        let prefix = format!("pf1:{game}:{match_id}:");
        Self {
            stream: HmacStream::new(seed.key(), prefix.as_bytes()),
            players: game.players(),
        }
    }

    /// The next counter value: persist it to resume the stream later.
    pub fn counter(&self) -> u64 {
        self.stream.counter()
    }

    /// The same stream resumed at counter `k`.
    #[must_use]
    pub fn at_counter(self, k: u64) -> Self {
        Self {
            stream: self.stream.at_counter(k),
            players: self.players,
        }
    }

    /// `shuffle([0, …, n-1])`: `seat_order[s]` is the client-seed index of the player at seat `s`.
    pub fn seat_order(&mut self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players).collect();
        shuffle(&mut self.stream, &mut order);
        order
    }

    /// Two dice, `[die(), die()]`.
    pub fn dice_pair(&mut self) -> [u8; 2] {
        [self.stream.die(), self.stream.die()]
    }

    /// Backgammon's opening: pairs for seats 0 and 1, drawn again while they tie.
    /// The last pair decides; the earlier ones are the ties.
    pub fn backgammon_opening(&mut self) -> Vec<[u8; 2]> {
        let mut rolls = Vec::with_capacity(1);
        loop {
            let pair = self.dice_pair();
            rolls.push(pair);
            if pair[0] != pair[1] {
                return rolls;
            }
        }
    }

    /// A 52-card deal: `deck = shuffle([0..51])`, seat `i` gets `deck[13i .. 13i+12]`.
    pub fn deal52(&mut self) -> [[u8; 13]; 4] {
        let deck: [u8; 52] = shuffled_ids(&mut self.stream);
        let mut hands = [[0u8; 13]; 4];
        for (hand, cards) in hands.iter_mut().zip(deck.chunks_exact(13)) {
            hand.copy_from_slice(cards);
        }
        hands
    }

    /// Baloot's first distribution (see [`BalootFirst`]).
    pub fn baloot_first(&mut self) -> BalootFirst {
        BalootFirst::from_deck(shuffled_ids(&mut self.stream))
    }

    /// Baloot's second distribution after `buyer` (seat 0..3) takes the face-up card.
    ///
    /// # Errors
    /// `buyer` is not a seat 0..3.
    pub fn baloot_second(
        &mut self,
        first: &BalootFirst,
        buyer: usize,
    ) -> Result<[Vec<u8>; 4], Error> {
        first.second(&mut self.stream, buyer)
    }
}

impl MatchStream {
    /// Draws the next mahjong tile from `wall`.
    ///
    /// # Errors
    /// The wall is empty.
    pub fn draw_tile(&mut self, wall: &mut MahjongWall) -> Result<u8, Error> {
        wall.draw(&mut self.stream)
    }
}
