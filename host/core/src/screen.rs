//! Screen geometry: the size of the game's picture, a frame with a border around it, and
//! screens side by side.
//!
//! The PPU draws [`GAME`], 160 × 144 pixels ([`crate::frame::Frame`]). A host may show it in
//! a larger frame with a border, the game's picture at a place in it ([`Geometry`]: the
//! Super Game Boy draws [`Geometry::SGB`], 256 × 224 with the game at (48, 40)), and two
//! linked Game Boys as two such frames side by side ([`Geometry::side_by_side`]). Everything
//! outside the PPU reads the numbers from here instead of writing them.

/// A width and a height in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// Pixels across.
    pub width: usize,
    /// Pixels down.
    pub height: usize,
}

impl Size {
    /// A size of `width` × `height` pixels.
    pub const fn new(width: usize, height: usize) -> Size {
        Size { width, height }
    }

    /// The number of pixels, `width × height` (a row-major picture's length).
    pub const fn pixels(self) -> usize {
        self.width * self.height
    }

    /// Whether (`x`, `y`) lies inside (both from 0 at the top-left corner).
    pub const fn contains(self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64
    }
}

/// A point in pixels from a frame's top-left corner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point {
    /// Pixels from the left edge.
    pub x: usize,
    /// Pixels from the top edge.
    pub y: usize,
}

impl Point {
    /// The point (`x`, `y`).
    pub const fn new(x: usize, y: usize) -> Point {
        Point { x, y }
    }
}

/// The game's picture, the LCD's 160 × 144 pixels (Pan Docs, "Rendering overview").
pub const GAME: Size = Size::new(160, 144);

/// What a host shows: `screens` frames side by side, left to right, each of `frame` pixels
/// with the game's picture ([`GAME`]) at `game` inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// One screen's frame: the game's picture and its border.
    pub frame: Size,
    /// Where the game's picture's top-left corner lies in the frame.
    pub game: Point,
    /// How many screens, side by side (1, or 2 for two linked Game Boys).
    pub screens: usize,
}

impl Geometry {
    /// The game's picture alone: one screen, no border.
    pub const GAME: Geometry = Geometry {
        frame: GAME,
        game: Point::new(0, 0),
        screens: 1,
    };

    /// The Super Game Boy's picture: a 256 × 224 frame with its border, the game at (48, 40)
    /// (Pan Docs, "SGB Functions").
    pub const SGB: Geometry = Geometry {
        frame: Size::new(256, 224),
        game: Point::new(48, 40),
        screens: 1,
    };

    /// This geometry's frame `screens` times side by side (two linked Game Boys: 2).
    pub const fn side_by_side(self, screens: usize) -> Geometry {
        Geometry { screens, ..self }
    }

    /// The size of the whole picture: every screen's frame, side by side.
    pub const fn size(self) -> Size {
        Size::new(self.frame.width * self.screens, self.frame.height)
    }

    /// Where screen `index`'s game picture's top-left corner lies in the whole picture.
    pub const fn game_at(self, index: usize) -> Point {
        Point::new(index * self.frame.width + self.game.x, self.game.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_alone_is_160_by_144() {
        assert_eq!((GAME.width, GAME.height, GAME.pixels()), (160, 144, 23_040));
        assert_eq!(Geometry::GAME.size(), GAME);
        assert_eq!(Geometry::GAME.game_at(0), Point::new(0, 0));
        assert!(GAME.contains(159, 143));
        assert!(!GAME.contains(160, 0) && !GAME.contains(0, 144) && !GAME.contains(-1, 0));
    }

    #[test]
    fn the_sgb_border_holds_the_game_inside() {
        let sgb = Geometry::SGB;
        assert_eq!(sgb.size(), Size::new(256, 224));
        assert_eq!(sgb.game_at(0), Point::new(48, 40));
        assert!(sgb.game.x + GAME.width <= sgb.frame.width);
        assert!(sgb.game.y + GAME.height <= sgb.frame.height);
    }

    #[test]
    fn two_linked_screens_lie_side_by_side() {
        let pair = Geometry::GAME.side_by_side(2);
        assert_eq!(pair.size(), Size::new(320, 144));
        assert_eq!(pair.game_at(1), Point::new(160, 0));
        let sgb_pair = Geometry::SGB.side_by_side(2);
        assert_eq!(sgb_pair.size(), Size::new(512, 224));
        assert_eq!(sgb_pair.game_at(1), Point::new(256 + 48, 40));
    }
}
