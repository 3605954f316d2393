//! The board's symmetries, and which points are the same point "up to symmetry" given a position.
//!
//! A square board has eight symmetries (the dihedral group: identity, three rotations, four
//! reflections) about its middle; a rectangular board has the four that keep its shape. Two
//! empty points are *symmetric given the position* when some symmetry maps every stone onto a
//! stone of the same colour and one point onto the other. Renju's fifth-move offers must be
//! pairwise non-symmetric in this sense (RIF rules; Taraguchi and Soosõrv repeat it).
//!
//! Everything here is exact: the stabiliser of the position is computed by checking every stone
//! under each of the (at most eight) maps.

use super::position::Position;
use crate::core::Pos;

/// One of the eight symmetries of a square board, as a map of (x, y).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// (x, y).
    Identity,
    /// Mirror left–right.
    FlipX,
    /// Mirror top–bottom.
    FlipY,
    /// Half turn.
    Rotate180,
    /// Mirror in the main diagonal (square boards only).
    Transpose,
    /// Mirror in the other diagonal (square boards only).
    AntiTranspose,
    /// Quarter turn clockwise (square boards only).
    Rotate90,
    /// Quarter turn anticlockwise (square boards only).
    Rotate270,
}

impl Symmetry {
    /// All eight.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Whether the map keeps a `width`×`height` board onto itself.
    pub const fn fits(self, width: usize, height: usize) -> bool {
        width == height
            || matches!(
                self,
                Symmetry::Identity | Symmetry::FlipX | Symmetry::FlipY | Symmetry::Rotate180
            )
    }

    /// The image of `p` on a `width`×`height` board (the map must [`fit`](Symmetry::fits)).
    pub fn apply(self, p: Pos, width: usize, height: usize) -> Pos {
        let (x, y) = (p.x(), p.y());
        let (mx, my) = (width - 1 - x, height - 1 - y);
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::FlipX => (mx, y),
            Symmetry::FlipY => (x, my),
            Symmetry::Rotate180 => (mx, my),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (height - 1 - y, width - 1 - x),
            Symmetry::Rotate90 => (height - 1 - y, x),
            Symmetry::Rotate270 => (y, width - 1 - x),
        };
        Pos::new_unchecked(nx, ny)
    }
}

/// The symmetries that map the position onto itself (stones onto stones of the same colour).
/// Always contains [`Symmetry::Identity`].
pub fn stabiliser<B: Position + ?Sized>(board: &B) -> Vec<Symmetry> {
    let (w, h) = (board.width(), board.height());
    let stones = board.stones();
    Symmetry::ALL
        .into_iter()
        .filter(|s| s.fits(w, h))
        .filter(|&s| {
            stones
                .iter()
                .all(|&(p, c)| board.stone(s.apply(p, w, h)) == Some(c))
        })
        .collect()
}

/// Whether `a` and `b` are the same point up to a symmetry of the position (`a == b` counts).
pub fn equivalent<B: Position + ?Sized>(board: &B, a: Pos, b: Pos) -> bool {
    let (w, h) = (board.width(), board.height());
    stabiliser(board).into_iter().any(|s| s.apply(a, w, h) == b)
}

/// The first pair of `points` that are symmetric to each other given the position (or equal),
/// in the order given.
pub fn first_symmetric_pair<B: Position + ?Sized>(board: &B, points: &[Pos]) -> Option<(Pos, Pos)> {
    let (w, h) = (board.width(), board.height());
    let group = stabiliser(board);
    for (i, &a) in points.iter().enumerate() {
        for &b in &points[i + 1..] {
            if group.iter().any(|s| s.apply(a, w, h) == b) {
                return Some((a, b));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::core::Color;
    use crate::rule::Rule;

    fn p(x: usize, y: usize) -> Pos {
        Pos::new(x, y).unwrap()
    }

    #[test]
    fn maps_are_permutations_and_the_group_closes() {
        for (w, h) in [(15, 15), (20, 20), (9, 13)] {
            for s in Symmetry::ALL.into_iter().filter(|s| s.fits(w, h)) {
                let mut seen = vec![false; w * h];
                for y in 0..h {
                    for x in 0..w {
                        let q = s.apply(p(x, y), w, h);
                        assert!(q.x() < w && q.y() < h, "{s:?}");
                        assert!(!seen[q.y() * w + q.x()], "{s:?} not injective");
                        seen[q.y() * w + q.x()] = true;
                    }
                }
            }
        }
        assert_eq!(
            Symmetry::Rotate90.apply(Symmetry::Rotate270.apply(p(3, 1), 15, 15), 15, 15),
            p(3, 1)
        );
    }

    #[test]
    fn the_lone_centre_stone_keeps_all_eight() {
        let mut b = Board::square(15, Rule::Renju).unwrap();
        b.place(p(7, 7), Color::Black).unwrap();
        assert_eq!(stabiliser(&b).len(), 8);
        // All four diagonal neighbours are one point up to symmetry.
        assert!(equivalent(&b, p(6, 6), p(8, 8)));
        assert!(equivalent(&b, p(6, 8), p(8, 6)));
        assert!(!equivalent(&b, p(6, 6), p(7, 6)));
        // A white stone at the direct neighbour keeps only the mirror through its line.
        b.place(p(7, 6), Color::White).unwrap();
        assert_eq!(stabiliser(&b), vec![Symmetry::Identity, Symmetry::FlipX]);
        assert!(equivalent(&b, p(5, 9), p(9, 9)));
        assert!(!equivalent(&b, p(5, 9), p(9, 5)));
        assert_eq!(
            first_symmetric_pair(&b, &[p(9, 5), p(5, 9), p(9, 9)]),
            Some((p(5, 9), p(9, 9)))
        );
        assert_eq!(first_symmetric_pair(&b, &[p(9, 5), p(5, 9)]), None);
    }
}
