//! The blocks of the brain: `BOARD`, `YXBOARD`, `SWAP2BOARD` and `YXBLOCK`, each validated as a
//! whole at `DONE` before anything changes (see the [`super`] module doc for the rules).

use std::io::{self, Write};

use crate::core::{Color, Pos};

use super::super::piskvork::{BlockKind, Field, Response, StoneLine};
use super::super::swap2::{self, ThreeStones};
use super::{Block, Brain, BrainError};

impl<W: Write> Brain<W> {
    pub(super) fn finish_block(&mut self, block: Block) -> io::Result<()> {
        let keyword = block.kind.keyword();
        let result = match block.error {
            Some(e) => Err(e),
            None if block.kind != BlockKind::YxBlock && !self.started => {
                Err(BrainError::NotStarted(keyword))
            }
            None => match block.kind {
                BlockKind::Board => self
                    .set_board(keyword, &block.stones)
                    .and_then(|_| self.play_own()),
                BlockKind::YxBoard => self.set_board(keyword, &block.stones).map(|_| None),
                BlockKind::Swap2Board => self.swap2(&block.stones),
                BlockKind::YxBlock => self.points(keyword, &block.stones).map(|points| {
                    self.excluded = points;
                    None
                }),
            },
        };
        match result {
            Ok(Some(r)) => self.answer(r),
            Ok(None) => Ok(()),
            Err(e) => self.error(e),
        }
    }

    /// Distinct on-board points of stone lines, in order.
    fn points(&self, block: &'static str, stones: &[StoneLine]) -> Result<Vec<Pos>, BrainError> {
        let mut points = Vec::with_capacity(stones.len());
        for s in stones {
            let p = self
                .engine
                .board()
                .pos(s.at.x, s.at.y)
                .map_err(|e| BrainError::Block {
                    block,
                    reason: e.to_string(),
                })?;
            if points.contains(&p) {
                return Err(BrainError::Block {
                    block,
                    reason: format!("point ({},{}) is listed twice", p.x(), p.y()),
                });
            }
            points.push(p);
        }
        Ok(points)
    }

    /// Sets the position of a `BOARD`/`YXBOARD` block (stones in the listed order).
    fn set_board(&mut self, block: &'static str, stones: &[StoneLine]) -> Result<(), BrainError> {
        let points = self.points(block, stones)?;
        let fields: Vec<Field> = stones
            .iter()
            .map(|s| {
                s.field.ok_or_else(|| {
                    let reason =
                        format!("stone line {},{} has no field (1, 2 or 3)", s.at.x, s.at.y);
                    BrainError::Block { block, reason }
                })
            })
            .collect::<Result<_, _>>()?;
        let count = |f: Field| fields.iter().filter(|&&g| g == f).count();
        let (own, opponent) = (count(Field::Own), count(Field::Opponent));
        let own_color = if own == opponent {
            Color::Black
        } else if own + 1 == opponent {
            Color::White
        } else {
            let reason = format!(
                "impossible stone counts: {own} own and {opponent} opponent stones (the side to move has as many \
                 stones as the opponent, or one fewer)"
            );
            return Err(BrainError::Block { block, reason });
        };
        let mut position = Vec::with_capacity(points.len());
        let mut markers = Vec::new();
        for (&p, f) in points.iter().zip(fields) {
            match f {
                Field::Own => position.push((p, own_color)),
                Field::Opponent => position.push((p, own_color.opponent())),
                Field::Marker => markers.push(p),
            }
        }
        self.engine
            .set_position(&position)
            .map_err(|e| BrainError::Block {
                block,
                reason: e.to_string(),
            })?;
        self.markers = markers;
        Ok(())
    }

    /// A `SWAP2BOARD` decision (see [`swap2`] for the policy).
    fn swap2(&mut self, stones: &[StoneLine]) -> Result<Option<Response>, BrainError> {
        const BLOCK: &str = "SWAP2BOARD";
        let points = self.points(BLOCK, stones)?;
        if ![0, 3, 5].contains(&points.len()) {
            let reason = format!("{} stones given; Swap2 needs 0, 3 or 5", points.len());
            return Err(BrainError::Block {
                block: BLOCK,
                reason,
            });
        }
        let colors = [Color::Black, Color::White];
        let position: Vec<(Pos, Color)> = points
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, colors[i % 2]))
            .collect();
        let before = self.engine.board().history().to_vec();
        self.engine
            .set_position(&position)
            .map_err(|e| BrainError::Block {
                block: BLOCK,
                reason: e.to_string(),
            })?;
        let before_markers = std::mem::take(&mut self.markers);
        let result = self.swap2_answer(points.len());
        if result.is_err() {
            // Put the previous position back (it was valid, so this cannot fail).
            let _ = self.engine.set_position(&before);
            self.markers = before_markers;
        }
        result
    }

    fn swap2_answer(&mut self, stones: usize) -> Result<Option<Response>, BrainError> {
        if stones == 0 {
            let opening = swap2::opening(self.engine.board());
            self.engine.set_position(&opening)?;
            return Ok(Some(Response::Moves(opening.iter().map(|s| s.0).collect())));
        }
        let Some((best, score)) = self.search()? else {
            return Ok(None);
        };
        let choice = match stones {
            3 => swap2::three_stones(score),
            _ if swap2::swap_at_five(score) => ThreeStones::Swap,
            _ => ThreeStones::Stay,
        };
        match choice {
            ThreeStones::Swap => Ok(Some(Response::Swap)),
            ThreeStones::Stay => {
                self.engine.play(best)?;
                Ok(Some(Response::Move(best)))
            }
            ThreeStones::PlaceTwo => {
                self.engine.play(best)?;
                let mut board = self.engine.board().clone();
                let fifth =
                    swap2::fifth_stone(&mut board).ok_or(BrainError::NoMove(Color::Black))?;
                self.engine.play(fifth)?;
                Ok(Some(Response::Moves(vec![best, fifth])))
            }
        }
    }
}
