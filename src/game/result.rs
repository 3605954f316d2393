//! The result of a finished game (seed 004 §6, §8.6): ranking, winner, reason, winning line, move
//! count and the one-line summaries (`"흑 승 (H8~L8 오목, 37수)"`).
//!
//! The winning line is stored from its left end (for a vertical line, its bottom end) to the
//! other, so its first and last points are the ones the summary names. Coordinates in summaries
//! are renju notation in upper case ([`crate::notation::format_renju_upper`]; `notation` is pure,
//! so using it keeps `game/` free of I/O even though STYLE lists only rules/board/core below it).

use serde::Serialize;

use super::error::{color_en, color_ko};
use super::state::{Game, ser_opt_color};
use crate::core::{Color, Pos};
use crate::notation::format_renju_upper;
use crate::rules::ForbiddenKind;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ResultReason {
    /// A winning line.
    Five,
    /// The board is full without a winner (draw).
    BoardFull,
    /// The side to move has only forbidden points left (draw).
    NoLegalMove,
    /// A player resigned.
    Resign,
    /// A player ran out of time (or timed out a third time in a row).
    TimeLoss,
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A forbidden move under forbiddenPolicy = loss.
    Foul,
    /// `drawAfterStones` stones stand without a winner (draw).
    MoveLimit,
}

impl ResultReason {
    /// The JSON name (`five`, `boardFull`, …).
    pub const fn name(self) -> &'static str {
        match self {
            ResultReason::Five => "five",
            ResultReason::BoardFull => "boardFull",
            ResultReason::NoLegalMove => "noLegalMove",
            ResultReason::Resign => "resign",
            ResultReason::TimeLoss => "timeLoss",
            ResultReason::DrawAgreed => "drawAgreed",
            ResultReason::Foul => "foul",
            ResultReason::MoveLimit => "moveLimit",
        }
    }
}

/// A player's place: 1 for the winner (and for both in a draw), 2 for the loser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankEntry {
    /// The player's id.
    pub player_id: String,
    /// 1 or 2.
    pub rank: u8,
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResult {
    /// Winner first; black first in a draw.
    pub ranking: Vec<RankEntry>,
    /// The winning colour, `null` in a draw.
    #[serde(serialize_with = "ser_opt_color")]
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: ResultReason,
    /// The winning line (reason `five`), from its left (or bottom) end.
    pub win_line: Option<Vec<Pos>>,
    /// Stones on the board at the end.
    pub move_count: usize,
    /// The Korean one-line summary.
    pub summary_ko: String,
    /// The English one-line summary.
    pub summary_en: String,
}

impl GameResult {
    /// The result of `game` ending now. `foul` is the forbidden shape of the last move for
    /// reason `foul`; `win_line` is reordered for display.
    pub(crate) fn new(
        game: &Game,
        winner: Option<Color>,
        reason: ResultReason,
        win_line: Option<Vec<Pos>>,
        foul: Option<ForbiddenKind>,
    ) -> GameResult {
        let ranking = match winner {
            Some(w) => vec![
                RankEntry {
                    player_id: game.player(w).to_string(),
                    rank: 1,
                },
                RankEntry {
                    player_id: game.player(w.opponent()).to_string(),
                    rank: 2,
                },
            ],
            None => Color::ALL
                .into_iter()
                .map(|c| RankEntry {
                    player_id: game.player(c).to_string(),
                    rank: 1,
                })
                .collect(),
        };
        let win_line = win_line.map(|mut line| {
            line.sort_by_key(|p| (p.x(), std::cmp::Reverse(p.y())));
            line
        });
        let height = game.board().height();
        let move_count = game.moves().len();
        let last_point = game
            .moves()
            .last()
            .map_or_else(String::new, |m| format_renju_upper(m.pt, height));
        let (detail_ko, detail_en) = match (reason, winner) {
            (ResultReason::Five, Some(_)) => {
                let line = win_line.as_deref().unwrap_or(&[]);
                let ends = match (line.first(), line.last()) {
                    (Some(&a), Some(&b)) => format!(
                        "{}~{}",
                        format_renju_upper(a, height),
                        format_renju_upper(b, height)
                    ),
                    _ => String::new(),
                };
                if line.len() == 5 {
                    (format!("{ends} 오목"), format!("{ends} five"))
                } else {
                    (
                        format!("{ends} {}목", line.len()),
                        format!("{ends} {} in a row", line.len()),
                    )
                }
            }
            (ResultReason::Resign, Some(w)) => (
                format!("{} 기권", color_ko(w.opponent())),
                format!("{} resigned", color_en(w.opponent())),
            ),
            (ResultReason::TimeLoss, Some(w)) => (
                format!("{} 시간패", color_ko(w.opponent())),
                format!("{} lost on time", color_en(w.opponent())),
            ),
            (ResultReason::Foul, Some(w)) => {
                let (ko, en) = match foul {
                    Some(ForbiddenKind::DoubleThree) => ("쌍삼", "double three"),
                    Some(ForbiddenKind::DoubleFour) => ("쌍사", "double four"),
                    Some(ForbiddenKind::Overline) => ("장목", "overline"),
                    None => ("", "forbidden"),
                };
                (
                    format!("{} 금수 {last_point} {ko}", color_ko(w.opponent())),
                    format!(
                        "{}'s forbidden move {last_point}: {en}",
                        color_en(w.opponent())
                    ),
                )
            }
            (ResultReason::BoardFull, _) => ("판이 가득 참".into(), "board full".into()),
            (ResultReason::NoLegalMove, _) => (
                format!("{} 둘 곳 없음", color_ko(game.turn())),
                format!("{} has no legal move", game.turn().name()),
            ),
            (ResultReason::DrawAgreed, _) => ("합의".into(), "agreed".into()),
            (ResultReason::MoveLimit, _) => {
                let limit = game.options().draw_after_stones.unwrap_or(0);
                (format!("{limit}수 제한"), format!("{limit}-stone limit"))
            }
            (_, None) => (String::new(), String::new()),
        };
        let plural = if move_count == 1 { "" } else { "s" };
        let (head_ko, head_en) = match winner {
            Some(w) => (
                format!("{} 승", color_ko(w)),
                format!("{} wins", color_en(w)),
            ),
            None => ("무승부".to_string(), "Draw".to_string()),
        };
        GameResult {
            ranking,
            winner,
            reason,
            win_line,
            move_count,
            summary_ko: format!("{head_ko} ({detail_ko}, {move_count}수)"),
            summary_en: format!("{head_en} ({detail_en}, {move_count} move{plural})"),
        }
    }
}
