//! The JSON-lines forbidden-point interface for frontends and checks (`pbrain-omok forbid`).
//!
//! Input, one position a line: `{"size":15, "black":[[x,y],…], "white":[[x,y],…], "to_move":"black"}`
//! (`size` defaults to 15; `width`/`height` may replace it for rectangular boards; `to_move`
//! defaults to black when the stone counts are equal, else white; an `id` is echoed back; other
//! fields are ignored). Output, one line per input: `{"forbidden":[{"x":7,"y":7,"reason":"double-three"},…]}`
//! sorted by y then x, or `{"error":"…"}` for a line that cannot be judged.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::Board;
use crate::core::Color;
use crate::error::BoardError;
use crate::rule::Rule;
use crate::rules::forbidden::{ForbidChecker, ForbidOptions};
use crate::rules::win::ensure_no_five;

/// Why a batch line could not be judged.
#[derive(Debug, Error)]
pub enum BatchError {
    /// Not valid JSON or not the expected shape.
    #[error("malformed position: {0}")]
    Json(#[from] serde_json::Error),
    /// A bad board size, a stone off the board or on an occupied point, or a five on the board.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// `to_move` is not `black` or `white`.
    #[error("to_move must be \"black\" or \"white\", not {0:?}")]
    BadColor(String),
}

#[derive(Deserialize)]
struct PositionInput {
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    #[serde(default)]
    black: Vec<[i64; 2]>,
    #[serde(default)]
    white: Vec<[i64; 2]>,
    to_move: Option<String>,
    id: Option<serde_json::Value>,
}

/// One forbidden point of the output.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ForbiddenPoint {
    /// Column from the left, 0-based.
    pub x: usize,
    /// Row from the top, 0-based.
    pub y: usize,
    /// `overline`, `double-four` or `double-three`.
    pub reason: String,
}

#[derive(Serialize)]
struct Output<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a serde_json::Value>,
    forbidden: Vec<ForbiddenPoint>,
}

#[derive(Serialize)]
struct ErrorOutput<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a serde_json::Value>,
    error: String,
}

/// A position read from a batch line: the board (stones placed black first, then white, in
/// input order) and the colour to move.
pub fn parse_position(line: &str, rule: Rule) -> Result<(Board, Color), BatchError> {
    let input: PositionInput = serde_json::from_str(line)?;
    position_from_input(&input, rule)
}

fn position_from_input(input: &PositionInput, rule: Rule) -> Result<(Board, Color), BatchError> {
    let size = input.size.unwrap_or(15);
    let mut board = Board::new(
        input.width.unwrap_or(size),
        input.height.unwrap_or(size),
        rule,
    )?;
    for (stones, color) in [(&input.black, Color::Black), (&input.white, Color::White)] {
        for &[x, y] in stones {
            let p = board.pos(x, y)?;
            board.place(p, color)?;
        }
    }
    ensure_no_five(&board)?;
    let to_move = match input
        .to_move
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None => board.side_to_move(),
        Some("black") => Color::Black,
        Some("white") => Color::White,
        Some(_) => {
            return Err(BatchError::BadColor(
                input.to_move.clone().unwrap_or_default(),
            ));
        }
    };
    Ok((board, to_move))
}

/// The forbidden points of the side to move, as output records.
pub fn forbidden_records(
    board: &mut Board,
    color: Color,
    options: ForbidOptions,
) -> Vec<ForbiddenPoint> {
    ForbidChecker::new(options)
        .all(board, color)
        .into_iter()
        .map(|(p, kind)| ForbiddenPoint {
            x: p.x(),
            y: p.y(),
            reason: kind.name().to_string(),
        })
        .collect()
}

/// Judges one input line and returns the output line (without a newline). Never fails: problems
/// become an `{"error": …}` line.
pub fn forbid_line(line: &str, rule: Rule, options: ForbidOptions) -> String {
    let input: Result<PositionInput, _> = serde_json::from_str(line);
    let (id, result) = match input {
        Err(e) => (None, Err(BatchError::from(e))),
        Ok(ref input) => (
            input.id.as_ref(),
            position_from_input(input, rule)
                .map(|(mut board, color)| forbidden_records(&mut board, color, options)),
        ),
    };
    let json = match result {
        Ok(forbidden) => serde_json::to_string(&Output { id, forbidden }),
        Err(e) => serde_json::to_string(&ErrorOutput {
            id,
            error: e.to_string(),
        }),
    };
    json.unwrap_or_else(|e| format!("{{\"error\":\"internal: {e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str, rule: Rule) -> serde_json::Value {
        serde_json::from_str(&forbid_line(line, rule, ForbidOptions::default())).unwrap()
    }

    #[test]
    fn example_a_through_the_batch_interface() {
        // F8 G8 H9 H10 on 15x15: (5,7) (6,7) (7,6) (7,5); H8 = (7,7).
        let line = r#"{"black":[[5,7],[6,7],[7,6],[7,5]],"white":[[0,0],[14,14],[0,14],[14,0]]}"#;
        let v = run(line, Rule::Renju);
        let pts = v["forbidden"].as_array().unwrap();
        assert!(
            pts.iter()
                .any(|p| p["x"] == 7 && p["y"] == 7 && p["reason"] == "double-three"),
            "{v}"
        );
        assert_eq!(
            run(line, Rule::Freestyle)["forbidden"]
                .as_array()
                .unwrap()
                .len(),
            0
        );
    }

    #[test]
    fn bad_lines_get_clear_errors() {
        let cases = [
            ("not json", "malformed"),
            (r#"{"size":40}"#, "out of range"),
            (r#"{"black":[[15,0]]}"#, "off the 15x15 board"),
            (r#"{"black":[[1,1]],"white":[[1,1]]}"#, "already occupied"),
            (
                r#"{"black":[[0,0],[1,0],[2,0],[3,0],[4,0]]}"#,
                "already has a five",
            ),
            (r#"{"to_move":"red"}"#, "to_move"),
            (r#"{"black":[[1]]}"#, "malformed"),
        ];
        for (line, want) in cases {
            let v = run(line, Rule::Renju);
            let msg = v["error"].as_str().unwrap_or_else(|| panic!("{line}: {v}"));
            assert!(msg.contains(want), "{line}: {msg}");
        }
    }

    #[test]
    fn id_is_echoed_and_side_to_move_defaults_by_counts() {
        let v = run(r#"{"id":"p1","black":[[7,7]]}"#, Rule::Korean);
        assert_eq!(v["id"], "p1");
        let (_, c) = parse_position(r#"{"black":[[7,7]]}"#, Rule::Korean).unwrap();
        assert_eq!(c, Color::White);
        let (_, c) = parse_position(r#"{"black":[[7,7]],"white":[[7,8]]}"#, Rule::Korean).unwrap();
        assert_eq!(c, Color::Black);
    }
}
