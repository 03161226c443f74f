//! The `match_seed_v2` / `match_seed_v1` record.

use serde_json::{Map, Value};

use super::common::{finish, object, only_keys, read_outcome};
use super::fields::{join, kind, uint, Fields};
use crate::error::Error;
use crate::games::{Game, MatchStream, Play};
use crate::seed::{ClientSeed, Commitment, Ident, ServerSeed};

/// The most deals, games, hands or moves a record may ask to replay:
/// bounds the work a hostile record can cause.
pub const MAX_REPLAY: u64 = 1000;

/// Which of the two match schemes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchScheme {
    /// `match_seed_v2`: client seeds mixed in.
    V2,
    /// `match_seed_v1` (legacy): the server seed alone.
    V1,
}

impl MatchScheme {
    /// The scheme's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V2 => "match_seed_v2",
            Self::V1 => "match_seed_v1",
        }
    }
}

/// A table-game match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRecord {
    /// v2 or v1.
    pub scheme: MatchScheme,
    /// The game.
    pub game: Game,
    /// The match's identifier.
    pub match_id: Ident,
    /// `sha256(server_seed)`.
    pub commitment: Commitment,
    /// The seed, once revealed.
    pub server_seed: Option<ServerSeed>,
    /// The players' client seeds in join order (empty for v1).
    pub client_seeds: Vec<ClientSeed>,
    /// What was played.
    pub play: Play,
    /// What the server says happened.
    pub outcome: Option<Map<String, Value>>,
}

impl MatchRecord {
    pub(super) fn read(f: &Fields<'_>, scheme: MatchScheme) -> Result<Self, Error> {
        let own: &[&str] = match scheme {
            MatchScheme::V2 => &[
                "game",
                "match_id",
                "commitment",
                "server_seed",
                "client_seeds",
                "play",
                "tiles",
            ],
            MatchScheme::V1 => &[
                "game",
                "match_id",
                "commitment",
                "server_seed",
                "play",
                "tiles",
            ],
        };
        only_keys(f, own)?;
        let game = Game::parse(f.str("game")?)?;
        let client_seeds = match scheme {
            MatchScheme::V1 => Vec::new(),
            MatchScheme::V2 => read_client_seeds(f, game)?,
        };
        let tiles = match (game, f.opt("tiles")) {
            (_, None) => 144,
            (Game::Mahjong, Some(v)) => match uint(v, "tiles", 144)? {
                t @ (136 | 144) => t as usize,
                t => {
                    return Err(Error::invalid(
                        "tiles",
                        format!("a wall of {t} tiles, expected 144 or 136"),
                    ))
                }
            },
            (game, Some(_)) => {
                return Err(Error::invalid(
                    "tiles",
                    format!("only mahjong has tiles, this is {game}"),
                ))
            }
        };
        Ok(Self {
            scheme,
            game,
            match_id: Ident::parse_field(f.str("match_id")?, "match_id")?,
            commitment: Commitment::parse_field(f.str("commitment")?, "commitment")?,
            server_seed: f
                .opt_str("server_seed")?
                .map(|s| ServerSeed::parse_field(s, "server_seed"))
                .transpose()?,
            client_seeds,
            play: read_play(&Fields::of(f.get("play")?, "play")?, game, tiles)?,
            outcome: read_outcome(f)?,
        })
    }

    /// The match's draw stream, given the revealed seed.
    ///
    /// # Errors
    /// The number of client seeds does not fit the game.
    pub fn stream(&self, seed: &ServerSeed) -> Result<MatchStream, Error> {
        match self.scheme {
            MatchScheme::V2 => MatchStream::v2(seed, self.game, &self.match_id, &self.client_seeds),
            MatchScheme::V1 => Ok(MatchStream::v1(seed, self.game, &self.match_id)),
        }
    }

    /// The record as docs/spec.md §10.2 JSON.
    pub fn to_value(&self) -> Value {
        let mut m = object(self.scheme.as_str());
        m.insert("game".into(), self.game.as_str().into());
        m.insert("match_id".into(), self.match_id.as_str().into());
        m.insert("commitment".into(), self.commitment.to_hex().into());
        if let Some(seed) = &self.server_seed {
            m.insert("server_seed".into(), seed.reveal().into());
        }
        if self.scheme == MatchScheme::V2 {
            let seeds = self.client_seeds.iter().map(|s| Value::from(s.as_str()));
            m.insert("client_seeds".into(), Value::Array(seeds.collect()));
        }
        m.insert("play".into(), play_value(&self.play));
        if let Play::Mahjong { tiles: 136, .. } = self.play {
            m.insert("tiles".into(), 136.into());
        }
        finish(m, &self.outcome)
    }
}

fn read_client_seeds(f: &Fields<'_>, game: Game) -> Result<Vec<ClientSeed>, Error> {
    let arr = f.array("client_seeds")?;
    if arr.len() != game.players() {
        return Err(Error::invalid(
            "client_seeds",
            format!(
                "{} client seeds for {game}, expected {}",
                arr.len(),
                game.players()
            ),
        ));
    }
    arr.iter()
        .enumerate()
        .map(|(i, v)| {
            let field = format!("client_seeds[{i}]");
            let s = v.as_str().ok_or_else(|| {
                Error::invalid(&field, format!("expected a string, got {}", kind(v)))
            })?;
            ClientSeed::parse_field(s, &field)
        })
        .collect()
}

/// A list of bounded counts under `play.<name>`.
fn counts(p: &Fields<'_>, name: &str, max_each: u64) -> Result<Vec<u64>, Error> {
    let arr = p.array(name)?;
    if arr.len() as u64 > MAX_REPLAY {
        return Err(Error::invalid(
            p.name(name),
            format!("{} entries, expected at most {MAX_REPLAY}", arr.len()),
        ));
    }
    arr.iter()
        .enumerate()
        .map(|(i, v)| uint(v, &format!("{}[{i}]", p.name(name)), max_each))
        .collect()
}

fn read_play(p: &Fields<'_>, game: Game, tiles: usize) -> Result<Play, Error> {
    match game {
        Game::Checkers | Game::Xiangqi => {
            p.only(&[])?;
            Ok(Play::SeatsOnly)
        }
        Game::Backgammon => {
            p.only(&["games"])?;
            let games = counts(p, "games", MAX_REPLAY)?;
            // Each count is at most MAX_REPLAY.
            Ok(Play::Backgammon(
                games.into_iter().map(|n| n as u32).collect(),
            ))
        }
        Game::Tarneeb | Game::Trix | Game::Bridge => {
            p.only(&["deals"])?;
            Ok(Play::Deals(p.uint("deals", MAX_REPLAY)? as u32))
        }
        Game::Baloot => {
            p.only(&["hands"])?;
            let arr = p.array("hands")?;
            if arr.len() as u64 > MAX_REPLAY {
                return Err(Error::invalid(
                    "play.hands",
                    format!("{} hands, expected at most {MAX_REPLAY}", arr.len()),
                ));
            }
            let buyers = arr
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let path = format!("play.hands[{i}]");
                    let hand = Fields::of(h, &path)?;
                    hand.only(&["buyer"])?;
                    hand.opt("buyer")
                        .map(|b| uint(b, &join(&path, "buyer"), 3).map(|s| s as usize))
                        .transpose()
                })
                .collect::<Result<_, _>>()?;
            Ok(Play::Baloot(buyers))
        }
        Game::Mahjong => {
            p.only(&["hands"])?;
            let hands = counts(p, "hands", tiles as u64)?;
            Ok(Play::Mahjong {
                hands: hands.into_iter().map(|n| n as usize).collect(),
                tiles,
            })
        }
    }
}

fn play_value(play: &Play) -> Value {
    let mut m = Map::new();
    match play {
        Play::SeatsOnly => {}
        Play::Backgammon(games) => {
            m.insert("games".into(), games.clone().into());
        }
        Play::Deals(n) => {
            m.insert("deals".into(), (*n).into());
        }
        Play::Baloot(buyers) => {
            let hands = buyers.iter().map(|b| {
                let mut h = Map::new();
                h.insert("buyer".into(), b.map_or(Value::Null, Value::from));
                Value::Object(h)
            });
            m.insert("hands".into(), Value::Array(hands.collect()));
        }
        Play::Mahjong { hands, .. } => {
            m.insert("hands".into(), hands.clone().into());
        }
    }
    Value::Object(m)
}
