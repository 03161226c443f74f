//! A chess seek, its acceptance and the game: `chess_colour_v1` seeds committed before the opponent is known.
