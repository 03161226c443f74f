//! What a match has played so far ([`Progress`]), the draw steps that
//! advance it ([`Step`]), and what each step drew ([`Drawn`]).

use fairseed_core::games::{Game, Hands, MatchOutcome, Play};
use serde::{Deserialize, Serialize};

use super::error::MatchError;

/// The most deals, games, hands or moves per game/hand: the verifier's
/// replay bound (`MAX_REPLAY` of the core's match record).
pub const MAX_STEPS: usize = 1000;

/// One draw request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Tarneeb, trix, bridge: a 52-card deal.
    Deal,
    /// Backgammon: a new game's opening roll.
    Opening,
    /// Backgammon: the next move's dice.
    Roll,
    /// Baloot: a new hand's first distribution.
    First,
    /// Baloot: the second distribution after `buyer` bought.
    Second(usize),
    /// Mahjong: a new hand (a fresh wall).
    Hand,
    /// Mahjong: the next tile.
    Tile,
}

impl Step {
    /// The step's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Self::Deal => "deal",
            Self::Opening => "opening",
            Self::Roll => "roll",
            Self::First => "first",
            Self::Second(_) => "second",
            Self::Hand => "hand",
            Self::Tile => "tile",
        }
    }

    fn not_now(self, why: impl Into<String>) -> MatchError {
        MatchError::InvalidStep {
            step: self.name(),
            why: why.into(),
        }
    }
}

/// What was played so far: the counts a record's `play` holds, by game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Progress {
    /// Checkers and xiangqi: the seat order only.
    SeatsOnly,
    /// Backgammon: moves after the opening, per game.
    Backgammon {
        /// One entry per game.
        games: Vec<u32>,
    },
    /// Tarneeb, trix, bridge: deals so far.
    Deals {
        /// The number of deals.
        deals: u32,
    },
    /// Baloot: the buyer of each hand (`None`: nobody, or not yet).
    Baloot {
        /// One entry per hand.
        buyers: Vec<Option<usize>>,
    },
    /// Mahjong: tiles drawn per hand.
    Mahjong {
        /// One entry per hand.
        hands: Vec<usize>,
    },
}

impl Progress {
    /// Nothing played yet in `game`.
    pub fn new(game: Game) -> Self {
        match game {
            Game::Checkers | Game::Xiangqi => Self::SeatsOnly,
            Game::Backgammon => Self::Backgammon { games: Vec::new() },
            Game::Tarneeb | Game::Trix | Game::Bridge => Self::Deals { deals: 0 },
            Game::Baloot => Self::Baloot { buyers: Vec::new() },
            Game::Mahjong => Self::Mahjong { hands: Vec::new() },
        }
    }

    /// The core's description of it, for a replay or a record.
    pub fn play(&self, tiles: usize) -> Play {
        match self {
            Self::SeatsOnly => Play::SeatsOnly,
            Self::Backgammon { games } => Play::Backgammon(games.clone()),
            Self::Deals { deals } => Play::Deals(*deals),
            Self::Baloot { buyers } => Play::Baloot(buyers.clone()),
            Self::Mahjong { hands } => Play::Mahjong {
                hands: hands.clone(),
                tiles,
            },
        }
    }

    /// How many draws were made after the seat order.
    pub fn draws(&self) -> u64 {
        let sum = |v: &[u32]| v.iter().map(|&n| u64::from(n)).sum::<u64>();
        match self {
            Self::SeatsOnly => 0,
            Self::Backgammon { games } => games.len() as u64 + sum(games),
            Self::Deals { deals } => u64::from(*deals),
            Self::Baloot { buyers } => {
                buyers.len() as u64 + buyers.iter().filter(|b| b.is_some()).count() as u64
            }
            Self::Mahjong { hands } => {
                hands.len() as u64 + hands.iter().map(|&n| n as u64).sum::<u64>()
            }
        }
    }

    /// Takes `step`, or says why the game does not allow it now.
    pub fn advance(&mut self, step: Step, tiles: usize) -> Result<(), MatchError> {
        let too_long = |what| MatchError::TooLong {
            what,
            limit: MAX_STEPS,
        };
        match (self, step) {
            (Self::Deals { deals }, Step::Deal) => {
                if *deals as usize >= MAX_STEPS {
                    return Err(too_long("deals"));
                }
                *deals += 1;
            }
            (Self::Backgammon { games }, Step::Opening) => {
                if games.len() >= MAX_STEPS {
                    return Err(too_long("games"));
                }
                games.push(0);
            }
            (Self::Backgammon { games }, Step::Roll) => {
                let last = games
                    .last_mut()
                    .ok_or_else(|| step.not_now("needs an opening first"))?;
                if *last as usize >= MAX_STEPS {
                    return Err(too_long("moves in this game"));
                }
                *last += 1;
            }
            (Self::Baloot { buyers }, Step::First) => {
                if buyers.len() >= MAX_STEPS {
                    return Err(too_long("hands"));
                }
                buyers.push(None);
            }
            (Self::Baloot { buyers }, Step::Second(buyer)) => {
                if buyer > 3 {
                    return Err(MatchError::InvalidBuyer(buyer));
                }
                match buyers.last_mut() {
                    Some(last @ None) => *last = Some(buyer),
                    _ => return Err(step.not_now("needs a first distribution nobody bought yet")),
                }
            }
            (Self::Mahjong { hands }, Step::Hand) => {
                if hands.len() >= MAX_STEPS {
                    return Err(too_long("hands"));
                }
                hands.push(0);
            }
            (Self::Mahjong { hands }, Step::Tile) => {
                let last = hands
                    .last_mut()
                    .ok_or_else(|| step.not_now("needs a hand first"))?;
                if *last >= tiles {
                    return Err(MatchError::WallEmpty(tiles));
                }
                *last += 1;
            }
            (progress, step) => {
                let game = progress.game_names();
                return Err(step.not_now(format!("is not a draw of {game}")));
            }
        }
        Ok(())
    }

    fn game_names(&self) -> &'static str {
        match self {
            Self::SeatsOnly => "checkers or xiangqi",
            Self::Backgammon { .. } => "backgammon",
            Self::Deals { .. } => "tarneeb, trix or bridge",
            Self::Baloot { .. } => "baloot",
            Self::Mahjong { .. } => "mahjong",
        }
    }
}

/// What one draw step dealt, as the log and the operator see it.
/// Serialized as the documented draw object: `{"step": "deal", "hands": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Drawn {
    /// 13 card ids per seat.
    Deal {
        /// By seat.
        hands: [[u8; 13]; 4],
    },
    /// A backgammon game's opening pairs (ties first).
    Opening {
        /// `[seat 0 die, seat 1 die]` per throw.
        opening: Vec<[u8; 2]>,
    },
    /// A later move's dice.
    Roll {
        /// The pair.
        dice: [u8; 2],
    },
    /// Baloot's first distribution.
    First {
        /// Five cards per seat.
        first: [[u8; 5]; 4],
        /// The face-up card.
        face_up: u8,
    },
    /// Baloot's second distribution.
    Second {
        /// The seat that bought.
        buyer: usize,
        /// The cards each seat takes.
        second: [Vec<u8>; 4],
    },
    /// A new mahjong wall.
    Hand,
    /// A mahjong tile.
    Tile {
        /// The tile id.
        tile: u8,
    },
}

impl Drawn {
    /// The part of `outcome` (the match replayed through `step`) that `step` drew;
    /// `None` when the replay lacks it (a bug: the step was just applied).
    pub(crate) fn last(outcome: &MatchOutcome, step: Step) -> Option<Self> {
        let game = || outcome.games.as_ref().and_then(|g| g.last());
        Some(match step {
            Step::Deal => Self::Deal {
                hands: *outcome.deals.as_ref()?.last()?,
            },
            Step::Opening => Self::Opening {
                opening: game()?.opening.clone(),
            },
            Step::Roll => Self::Roll {
                dice: *game()?.rolls.last()?,
            },
            Step::First | Step::Second(_) => {
                let Some(Hands::Baloot(hands)) = &outcome.hands else {
                    return None;
                };
                let hand = hands.last()?;
                match step {
                    Step::Second(buyer) => Self::Second {
                        buyer,
                        second: hand.second.clone()?,
                    },
                    _ => Self::First {
                        first: hand.first,
                        face_up: hand.face_up,
                    },
                }
            }
            Step::Hand => Self::Hand,
            Step::Tile => {
                let Some(Hands::Mahjong(hands)) = &outcome.hands else {
                    return None;
                };
                Self::Tile {
                    tile: *hands.last()?.last()?,
                }
            }
        })
    }
}
