//! What a new match is opened with, checked against its game: one label
//! per player and, for mahjong alone, the size of the wall.

use fairseed_core::games::Game;
use fairseed_core::Error;

/// Mahjong's walls: with flowers and seasons, and without.
const WALLS: [usize; 2] = [144, 136];

/// The players' labels for a match of `game`: as given (one per player, each
/// 1 to 64 bytes) or, when none are given, `0`, `1`, … .
///
/// # Errors
/// `players` when the count is not the game's, `players[i]` for a label
/// that is empty or too long.
pub fn labels(game: Game, players: Option<Vec<String>>) -> Result<Vec<String>, Error> {
    let Some(labels) = players else {
        return Ok((0..game.players()).map(|i| i.to_string()).collect());
    };
    if labels.len() != game.players() {
        return Err(Error::invalid(
            "players",
            format!(
                "{} players for {game}, expected {}",
                labels.len(),
                game.players()
            ),
        ));
    }
    if let Some(i) = labels.iter().position(|l| l.is_empty() || l.len() > 64) {
        return Err(Error::invalid(
            format!("players[{i}]"),
            "expected 1 to 64 bytes",
        ));
    }
    Ok(labels)
}

/// The wall size of a match of `game`: 144 (the default) or 136 tiles for
/// mahjong, 0 for every other game.
///
/// # Errors
/// `tiles` for another size, or for a game without a wall.
pub fn wall(game: Game, tiles: Option<usize>) -> Result<usize, Error> {
    match (game, tiles) {
        (Game::Mahjong, None) => Ok(WALLS[0]),
        (Game::Mahjong, Some(t)) if WALLS.contains(&t) => Ok(t),
        (Game::Mahjong, Some(t)) => {
            Err(Error::invalid("tiles", format!("{t}, expected 144 or 136")))
        }
        (_, None) => Ok(0),
        (_, Some(_)) => Err(Error::invalid(
            "tiles",
            format!("only mahjong has a wall size, not {game}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(e: Error) -> String {
        match e {
            Error::Invalid { field, .. } => field,
            other => panic!("expected an invalid field, got {other:?}"),
        }
    }

    #[test]
    fn labels_default_to_numbers_and_must_fit_the_game() {
        assert_eq!(labels(Game::Backgammon, None).expect("default"), ["0", "1"]);
        let two = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(
            labels(Game::Backgammon, Some(two.clone())).expect("two"),
            two
        );
        assert_eq!(
            field(labels(Game::Bridge, Some(two)).unwrap_err()),
            "players"
        );
        let long = vec!["a".to_owned(), "x".repeat(65)];
        assert_eq!(
            field(labels(Game::Backgammon, Some(long)).unwrap_err()),
            "players[1]"
        );
        let empty = vec![String::new(), "b".to_owned()];
        assert_eq!(
            field(labels(Game::Backgammon, Some(empty)).unwrap_err()),
            "players[0]"
        );
    }

    #[test]
    fn only_mahjong_has_a_wall_of_144_or_136() {
        assert_eq!(wall(Game::Mahjong, None).expect("default"), 144);
        assert_eq!(wall(Game::Mahjong, Some(136)).expect("136"), 136);
        assert_eq!(field(wall(Game::Mahjong, Some(140)).unwrap_err()), "tiles");
        assert_eq!(wall(Game::Bridge, None).expect("none"), 0);
        assert_eq!(field(wall(Game::Bridge, Some(144)).unwrap_err()), "tiles");
    }
}
