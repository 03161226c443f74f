//! Mahjong: tiles drawn one by one from a wall in its fixed order.

use crate::error::Error;
use crate::stream::DrawSource;

/// The tiles left in the wall, in ascending id order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MahjongWall {
    tiles: Vec<u8>,
    size: usize,
}

impl MahjongWall {
    /// A full wall of 144 tiles (with flowers and seasons) or 136.
    ///
    /// # Errors
    /// Any other size.
    pub fn new(size: usize) -> Result<Self, Error> {
        if size != 144 && size != 136 {
            return Err(Error::invalid(
                "tiles",
                format!("a wall of {size} tiles, expected 144 or 136"),
            ));
        }
        // size <= 144 fits in u8.
        Ok(Self {
            tiles: (0..size as u8).collect(),
            size,
        })
    }

    /// Tiles still in the wall.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the wall is empty.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Draws `wall[int(len(wall))]`, removing it and keeping the rest in order.
    ///
    /// # Errors
    /// The wall is empty.
    pub fn draw(&mut self, src: &mut impl DrawSource) -> Result<u8, Error> {
        if self.tiles.is_empty() {
            return Err(Error::WallExhausted {
                draw: self.size + 1,
                tiles: self.size,
            });
        }
        // int(len) < len, an index.
        let j = src.int(self.tiles.len() as u64) as usize;
        Ok(self.tiles.remove(j))
    }
}
