//! `match_seed_v2` and `match_seed_v1`: the table games' draw stream (docs/spec.md §5).

mod baloot;
mod game;
mod mahjong;
mod match_stream;
mod play;

pub use baloot::BalootFirst;
pub use game::Game;
pub use mahjong::MahjongWall;
pub use match_stream::MatchStream;
pub use play::{play, BackgammonGame, BalootHand, Hands, MatchOutcome, Play};
