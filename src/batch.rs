//! The JSON-lines forbidden-point interface for frontends and checks (`pbrain-omok forbid`).
//!
//! Input, one position a line: `{"size":15, "black":[[x,y],…], "white":[[x,y],…], "to_move":"black"}`
//! (`size` defaults to 15; `width`/`height` may replace it for rectangular boards; `to_move`
//! defaults to black when the stone counts are equal, else white; an `id` is echoed back; other
//! fields are ignored). Output, one line per input: `{"forbidden":[{"x":7,"y":7,"reason":"double-three"},…]}`
//! sorted by y then x, or `{"error":"…"}` for a line that cannot be judged.
//!
//! A stream of lines goes through one [`ForbidBatch`], which keeps its board and checker between
//! lines: a line on a board of the last line's size takes its stones back (undo restores the
//! empty board exactly) instead of building a new board, and the answer is written straight into
//! a reused buffer (the reasons need no escaping; only an `id` and error texts go through
//! serde_json). `benches/batch.rs` measures the path.

use std::fmt::Write as _;

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
struct PositionInput<'a> {
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    #[serde(default)]
    black: Vec<[i64; 2]>,
    #[serde(default)]
    white: Vec<[i64; 2]>,
    #[serde(borrow)]
    to_move: Option<std::borrow::Cow<'a, str>>,
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

/// A position read from a batch line: the board (stones placed black first, then white, in
/// input order) and the colour to move.
pub fn parse_position(line: &str, rule: Rule) -> Result<(Board, Color), BatchError> {
    let input: PositionInput = serde_json::from_str(line)?;
    position_from_input(&input, rule)
}

fn position_from_input(input: &PositionInput, rule: Rule) -> Result<(Board, Color), BatchError> {
    let mut board = None;
    let color = set_up(&mut board, input, rule, false)?;
    Ok((board.expect("set up"), color))
}

/// Puts the input's stones on `board` — the one given, emptied, when it has the input's size,
/// else a new one — and returns the colour to move. With `light`, the stones are light moves
/// (keys and patterns only: all the forbidden check reads, and a fraction of the cost), and
/// the board reused is emptied of light moves.
fn set_up(
    board: &mut Option<Board>,
    input: &PositionInput,
    rule: Rule,
    light: bool,
) -> Result<Color, BatchError> {
    let size = input.size.unwrap_or(15);
    let (width, height) = (input.width.unwrap_or(size), input.height.unwrap_or(size));
    let board = match board {
        Some(b) if light && b.width() == width && b.height() == height && b.rule() == rule => {
            while !b.history().is_empty() {
                b.undo_light_move();
            }
            b
        }
        _ => board.insert(Board::new(width, height, rule)?),
    };
    for (stones, color) in [(&input.black, Color::Black), (&input.white, Color::White)] {
        for &[x, y] in stones {
            let p = board.pos(x, y)?;
            if light {
                if !board.is_empty(p) {
                    return Err(BoardError::Occupied { x: p.x(), y: p.y() }.into());
                }
                board.make_light_move(p, color);
            } else {
                board.place(p, color)?;
            }
        }
    }
    ensure_no_five(board)?;
    match input.to_move.as_deref() {
        None => Ok(board.side_to_move()),
        Some(c) if c.eq_ignore_ascii_case("black") => Ok(Color::Black),
        Some(c) if c.eq_ignore_ascii_case("white") => Ok(Color::White),
        Some(c) => Err(BatchError::BadColor(c.to_string())),
    }
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
/// become an `{"error": …}` line. For a stream of lines, [`ForbidBatch`] is faster.
pub fn forbid_line(line: &str, rule: Rule, options: ForbidOptions) -> String {
    let mut out = String::new();
    ForbidBatch::new(rule, options).judge(line, &mut out);
    out
}

/// Judges a stream of lines, keeping the board and the checker between them.
pub struct ForbidBatch {
    rule: Rule,
    board: Option<Board>,
    checker: ForbidChecker,
}

impl ForbidBatch {
    /// A batch for `rule`.
    pub fn new(rule: Rule, options: ForbidOptions) -> ForbidBatch {
        ForbidBatch {
            rule,
            board: None,
            checker: ForbidChecker::new(options),
        }
    }

    /// Judges one input line and appends the output line (without a newline) to `out`, as
    /// [`forbid_line`] does.
    pub fn judge(&mut self, line: &str, out: &mut String) {
        let input: PositionInput = match serde_json::from_str(line) {
            Ok(input) => input,
            Err(e) => return write_error(out, None, &BatchError::from(e)),
        };
        let color = match set_up(&mut self.board, &input, self.rule, true) {
            Ok(color) => color,
            Err(e) => return write_error(out, input.id.as_ref(), &e),
        };
        let board = self.board.as_mut().expect("set up");
        let points = self.checker.all(board, color);
        out.push('{');
        write_id(out, input.id.as_ref());
        out.push_str("\"forbidden\":[");
        for (k, (p, kind)) in points.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            // The reasons are fixed lower-case words: nothing to escape.
            let _ = write!(
                out,
                "{{\"x\":{},\"y\":{},\"reason\":\"{}\"}}",
                p.x(),
                p.y(),
                kind.name()
            );
        }
        out.push_str("]}");
    }
}

/// Judges many lines at once on all cores (one [`ForbidBatch`] per worker) and appends their
/// output lines, each ending in a newline, to `out` in input order. Blank lines get no answer.
/// The same answers as judging the lines one by one.
pub fn judge_parallel(lines: &[&str], rule: Rule, options: ForbidOptions, out: &mut String) {
    use rayon::prelude::*;
    let answers: Vec<String> = lines
        .par_iter()
        .with_min_len(PARALLEL_MIN_LINES)
        .map_init(
            || ForbidBatch::new(rule, options),
            |batch, line| {
                let mut answer = String::new();
                if !line.trim().is_empty() {
                    batch.judge(line.trim_end_matches(['\n', '\r']), &mut answer);
                    answer.push('\n');
                }
                answer
            },
        )
        .collect();
    for a in answers {
        out.push_str(&a);
    }
}

/// Lines a parallel worker takes at least (fewer are not worth a thread).
pub const PARALLEL_MIN_LINES: usize = 64;

fn write_id(out: &mut String, id: Option<&serde_json::Value>) {
    if let Some(id) = id {
        out.push_str("\"id\":");
        out.push_str(&id.to_string());
        out.push(',');
    }
}

fn write_error(out: &mut String, id: Option<&serde_json::Value>, e: &BatchError) {
    out.push('{');
    write_id(out, id);
    out.push_str("\"error\":");
    out.push_str(&serde_json::Value::String(e.to_string()).to_string());
    out.push('}');
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
    fn a_batch_reuses_its_board_and_answers_like_single_lines() {
        let lines = [
            r#"{"id":1,"black":[[5,7],[6,7],[7,6],[7,5]],"white":[[0,0],[14,14],[0,14],[14,0]]}"#,
            r#"{"black":[[1,1]],"white":[[1,1]]}"#,
            r#"{"id":{"a":[1,"x"]},"black":[[7,7],[8,7],[9,7]],"to_move":"Black"}"#,
            r#"{"size":9,"black":[[4,4],[5,4],[4,5],[5,5]],"white":[[0,0],[8,8],[0,8],[8,0]]}"#,
            r#"{"black":[[5,7],[6,7],[7,6],[7,5]],"white":[[0,0],[14,14],[0,14],[14,0]]}"#,
            r#"{"black":[[7,7]],"to_move":"red"}"#,
            "{bad json",
        ];
        for rule in [Rule::Renju, Rule::Korean] {
            let mut batch = ForbidBatch::new(rule, ForbidOptions::default());
            for line in lines {
                // A fresh board for each line: the reference.
                let input: PositionInput = serde_json::from_str(line)
                    .unwrap_or_else(|_| serde_json::from_str("{}").unwrap());
                let fresh = match position_from_input(&input, rule) {
                    Ok((mut b, c)) => {
                        serde_json::to_value(forbidden_records(&mut b, c, ForbidOptions::default()))
                            .ok()
                    }
                    Err(_) => None,
                };
                let mut out = String::new();
                batch.judge(line, &mut out);
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                match fresh {
                    Some(points) if !line.starts_with("{bad") => {
                        assert_eq!(v["forbidden"], points, "{line}")
                    }
                    _ => assert!(v["error"].is_string(), "{line}: {out}"),
                }
                if let Ok(input) = serde_json::from_str::<PositionInput>(line) {
                    assert_eq!(v.get("id"), input.id.as_ref(), "{line}");
                }
            }
        }
    }

    #[test]
    fn parallel_judging_answers_like_one_line_at_a_time() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/renju-forbid-dev.jsonl"
        ))
        .unwrap();
        let mut lines: Vec<&str> = text.lines().take(300).collect();
        lines.insert(7, "not json");
        lines.insert(20, "");
        let mut parallel = String::new();
        judge_parallel(&lines, Rule::Renju, ForbidOptions::default(), &mut parallel);
        let serial: String = lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| forbid_line(l, Rule::Renju, ForbidOptions::default()) + "\n")
            .collect();
        assert_eq!(parallel, serial);
        assert_eq!(parallel.lines().count(), 301);
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
