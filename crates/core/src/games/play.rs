//! A whole match replayed from its `play` description into its outcome (docs/spec.md §10.8).

use serde::Serialize;

use super::baloot::BalootFirst;
use super::game::Game;
use super::mahjong::MahjongWall;
use super::match_stream::MatchStream;
use crate::error::Error;

/// What was played, as a record's `play` field says: how many draws to replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Play {
    /// Checkers and xiangqi: the seat order only.
    SeatsOnly,
    /// Backgammon: per game, the number of moves after the opening.
    Backgammon(Vec<u32>),
    /// Tarneeb, trix, bridge: the number of deals.
    Deals(u32),
    /// Baloot: per hand, the seat that bought, if any.
    Baloot(Vec<Option<usize>>),
    /// Mahjong: per hand, the number of tiles drawn, and the wall size.
    Mahjong {
        /// Draws per hand.
        hands: Vec<usize>,
        /// 144 or 136.
        tiles: usize,
    },
}

/// One backgammon game: the opening pairs (ties first) and the later moves' pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BackgammonGame {
    /// `[seat 0 die, seat 1 die]`, repeated while tied.
    pub opening: Vec<[u8; 2]>,
    /// One pair per later move.
    pub rolls: Vec<[u8; 2]>,
}

/// One baloot hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BalootHand {
    /// Five cards per seat.
    pub first: [[u8; 5]; 4],
    /// The face-up card.
    pub face_up: u8,
    /// The second distribution, or `None` when nobody bought.
    pub second: Option<[Vec<u8>; 4]>,
}

/// A match's recomputed outcome; serializes to the `outcome` object of docs/spec.md §10.8.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchOutcome {
    /// `seat_order[s]` is the client-seed index of the player at seat `s`.
    pub seat_order: Vec<usize>,
    /// Backgammon games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Vec<BackgammonGame>>,
    /// 52-card deals: per deal, 13 ids per seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deals: Option<Vec<[[u8; 13]; 4]>>,
    /// Baloot or mahjong hands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<Hands>,
}

/// The `hands` of a baloot or a mahjong match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Hands {
    /// Baloot hands.
    Baloot(Vec<BalootHand>),
    /// Mahjong hands: tile ids in draw order.
    Mahjong(Vec<Vec<u8>>),
}

/// Replays a match: the seat order, then `play`'s draws in order of play.
///
/// # Errors
/// `play` does not fit `game` (`play` names the field), or a mahjong hand
/// draws more tiles than the wall holds.
pub fn play(mut stream: MatchStream, game: Game, play: &Play) -> Result<MatchOutcome, Error> {
    let seat_order = stream.seat_order();
    let mut outcome = MatchOutcome {
        seat_order,
        games: None,
        deals: None,
        hands: None,
    };
    match (game, play) {
        (Game::Checkers | Game::Xiangqi, Play::SeatsOnly) => {}
        (Game::Backgammon, Play::Backgammon(moves)) => {
            let games = moves
                .iter()
                .map(|&n| BackgammonGame {
                    opening: stream.backgammon_opening(),
                    rolls: (0..n).map(|_| stream.dice_pair()).collect(),
                })
                .collect();
            outcome.games = Some(games);
        }
        (Game::Tarneeb | Game::Trix | Game::Bridge, Play::Deals(n)) => {
            outcome.deals = Some((0..*n).map(|_| stream.deal52()).collect());
        }
        (Game::Baloot, Play::Baloot(buyers)) => {
            let hands = buyers
                .iter()
                .enumerate()
                .map(|(h, buyer)| baloot_hand(&mut stream, *buyer, h))
                .collect::<Result<_, _>>()?;
            outcome.hands = Some(Hands::Baloot(hands));
        }
        (Game::Mahjong, Play::Mahjong { hands, tiles }) => {
            let hands = hands
                .iter()
                .enumerate()
                .map(|(h, &draws)| mahjong_hand(&mut stream, *tiles, draws, h))
                .collect::<Result<_, _>>()?;
            outcome.hands = Some(Hands::Mahjong(hands));
        }
        (game, _) => {
            return Err(Error::invalid(
                "play",
                format!("does not describe a {game} match"),
            ))
        }
    }
    Ok(outcome)
}

fn baloot_hand(
    stream: &mut MatchStream,
    buyer: Option<usize>,
    hand: usize,
) -> Result<BalootHand, Error> {
    let first: BalootFirst = stream.baloot_first();
    let second = match buyer {
        Some(seat) => Some(
            stream
                .baloot_second(&first, seat)
                .map_err(|e| e.within(&format!("play.hands[{hand}]")))?,
        ),
        None => None,
    };
    Ok(BalootHand {
        first: first.hands,
        face_up: first.face_up,
        second,
    })
}

fn mahjong_hand(
    stream: &mut MatchStream,
    tiles: usize,
    draws: usize,
    hand: usize,
) -> Result<Vec<u8>, Error> {
    if draws > tiles {
        return Err(Error::invalid(
            format!("play.hands[{hand}]"),
            format!("{draws} draws from a {tiles}-tile wall, expected at most {tiles}"),
        ));
    }
    let mut wall = MahjongWall::new(tiles)?;
    (0..draws).map(|_| stream.draw_tile(&mut wall)).collect()
}
