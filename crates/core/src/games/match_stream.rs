//! One match's draw stream (docs/spec.md §5).

use crate::error::Error;
use crate::seed::{ClientSeed, Ident, ServerSeed};
use crate::shuffle::{shuffle, shuffled_ids};
use crate::stream::{DrawSource, HmacStream};

use super::baloot::BalootFirst;
use super::game::Game;
use super::mahjong::MahjongWall;

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
