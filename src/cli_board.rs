//! The `forbid --moves` view: a move list drawn as an ASCII board with forbidden points marked.
//!
//! `pbrain-omok forbid --rule renju --moves "h8 h9 i8" [--size 15] [--depth-cap N]` reads the moves
//! in renju notation ([`omok::notation`]), black first and colours alternating, places them on an
//! empty square board and prints [`render`]'s drawing: a header (rule, size, move count, side to
//! move), the board with renju coordinates around it (row numbers counted from the bottom, column
//! letters from the left), a legend, and the forbidden points of the side to move with their
//! reasons. Cells: `X` black, `O` white, `.` empty, `3`/`4`/`6` a double-three / double-four /
//! overline forbidden for the side to move; the last move is bracketed, `[X]`. Boards wider than
//! 26 get two-letter column names (`aa`..), written vertically over two header lines.
//!
//! Only the side to move is judged: after an odd number of moves that is white, which renju never
//! restricts. A position that already holds a five is still drawn, with a note saying so.

use anyhow::{Context, Result, anyhow};

use omok::notation::{column_name, format_renju, parse_renju, renju_move_tokens};
use omok::rules::{ForbidChecker, ForbidOptions, ForbiddenKind, find_five};
use omok::{Board, Color, Rule};

/// Parses `moves`, plays them on an empty `size`×`size` board of `rule` (black first) and draws
/// the result with [`render`]. A malformed, off-board or repeated move is an error naming its move
/// number and text.
pub fn forbid_board(
    moves: &str,
    size: usize,
    rule: Rule,
    options: ForbidOptions,
) -> Result<String> {
    let mut board = Board::square(size, rule).context("cannot set up the board")?;
    let mut to_move = Color::Black;
    for (i, token) in renju_move_tokens(moves).enumerate() {
        let n = i + 1;
        let p = parse_renju(token, size, size)
            .map_err(|e| anyhow!("move {n} '{token}' ({to_move}): {e}"))?;
        board
            .place(p, to_move)
            .map_err(|e| anyhow!("move {n} '{token}' ({to_move}): {e}"))?;
        to_move = to_move.opponent();
    }
    Ok(render(&mut board, to_move, options))
}

/// The marker of a forbidden point.
fn forbidden_char(kind: ForbiddenKind) -> char {
    match kind {
        ForbiddenKind::DoubleThree => '3',
        ForbiddenKind::DoubleFour => '4',
        ForbiddenKind::Overline => '6',
    }
}

/// The column header lines: one line per letter of the longest column name, names right-aligned
/// so that the last letter sits on the bottom line, each letter over its column.
fn column_header(width: usize, margin: usize) -> Vec<String> {
    let names: Vec<String> = (0..width).map(column_name).collect();
    let lines = names.iter().map(String::len).max().unwrap_or(1);
    (0..lines)
        .map(|line| {
            let mut s = " ".repeat(margin);
            for name in &names {
                // Letter `line` of the name padded on the left to `lines` letters.
                let pad = lines - name.len();
                let ch = if line >= pad {
                    name.as_bytes()[line - pad] as char
                } else {
                    ' '
                };
                s.push(' ');
                s.push(ch);
            }
            s.trim_end().to_string()
        })
        .collect()
}

/// Draws the board for people, marking the forbidden points of `to_move` (see the module doc).
/// The board is left as it was.
pub fn render(board: &mut Board, to_move: Color, options: ForbidOptions) -> String {
    let (width, height) = (board.width(), board.height());
    let forbidden = ForbidChecker::new(options).all(board, to_move);
    let last = board.last_move().map(|(p, _)| p);
    let label_width = height.to_string().len();

    // Row by row from the top, as `Board::positions` yields them.
    let mut cells: Vec<char> = board
        .positions()
        .map(|p| match board.get(p) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '.',
        })
        .collect();
    for &(p, kind) in &forbidden {
        cells[p.y() * width + p.x()] = forbidden_char(kind);
    }

    let moves = board.move_count();
    let mut out = format!(
        "rule {}, {width}x{height}, {moves} move{}, {to_move} to move\n",
        board.rule(),
        if moves == 1 { "" } else { "s" }
    );
    let header = column_header(width, label_width + 1);
    for line in &header {
        out.push_str(line);
        out.push('\n');
    }
    for y in 0..height {
        let row = height - y;
        out.push_str(&format!("{row:>label_width$} "));
        let last_x = last.filter(|p| p.y() == y).map(|p| p.x());
        for (x, &ch) in cells[y * width..(y + 1) * width].iter().enumerate() {
            let sep = match last_x {
                Some(lx) if lx == x => '[',
                Some(lx) if lx + 1 == x => ']',
                _ => ' ',
            };
            out.push(sep);
            out.push(ch);
        }
        out.push(if last_x == Some(width - 1) { ']' } else { ' ' });
        out.push_str(&format!(" {row}\n"));
    }
    for line in &header {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "legend: X black, O white, . empty, [X] last move; forbidden for {to_move}: 3 double-three, \
         4 double-four, 6 overline\n"
    ));
    if let Some((color, line)) = find_five(board) {
        let ends = match (line.first(), line.last()) {
            (Some(&a), Some(&b)) => {
                format!("{}-{}", format_renju(a, height), format_renju(b, height))
            }
            _ => String::new(),
        };
        out.push_str(&format!(
            "note: {color} already has a winning line ({ends})\n"
        ));
    }
    if forbidden.is_empty() {
        out.push_str(&format!("no forbidden points for {to_move}\n"));
    } else {
        let list: Vec<String> = forbidden
            .iter()
            .map(|&(p, kind)| format!("{} {kind}", format_renju(p, height)))
            .collect();
        out.push_str(&format!("forbidden for {to_move}: {}\n", list.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPEC §3.3 example A: black F8 G8 H9 H10, white out of the way on a1..a4; black to move.
    const EXAMPLE_A: &str = "f8 a1 g8 a2 h9 a3 h10 a4";

    /// The cell character at a renju coordinate of the drawing (15×15, one-letter columns).
    fn cell(text: &str, at: &str) -> char {
        let p = parse_renju(at, 15, 15).unwrap();
        let row = format!("{:>2}", 15 - p.y());
        let line = text
            .lines()
            .find(|l| l.starts_with(&row))
            .expect("row line");
        line.as_bytes()[3 + 2 * p.x() + 1] as char
    }

    #[test]
    fn example_a_is_a_double_three_in_renju_only() {
        let renju = forbid_board(EXAMPLE_A, 15, Rule::Renju, ForbidOptions::default()).unwrap();
        assert!(
            renju.starts_with("rule renju, 15x15, 8 moves, black to move\n"),
            "{renju}"
        );
        assert_eq!(cell(&renju, "h8"), '3', "{renju}");
        assert_eq!(cell(&renju, "f8"), 'X');
        assert_eq!(cell(&renju, "a1"), 'O');
        assert_eq!(cell(&renju, "i8"), '.');
        assert!(
            renju.contains("forbidden for black: h8 double-three\n"),
            "{renju}"
        );
        // The last move, white a4, is bracketed.
        assert!(renju.contains("\n 4 [O]. . "), "{renju}");

        let korean = forbid_board(EXAMPLE_A, 15, Rule::Korean, ForbidOptions::default()).unwrap();
        assert_eq!(cell(&korean, "h8"), '3', "{korean}");

        let free = forbid_board(EXAMPLE_A, 15, Rule::Freestyle, ForbidOptions::default()).unwrap();
        assert_eq!(cell(&free, "h8"), '.', "{free}");
        assert!(free.contains("no forbidden points for black\n"), "{free}");
    }

    #[test]
    fn the_whole_drawing_of_a_small_board() {
        let text =
            forbid_board("c3 a1 b3 e5 c4", 5, Rule::Renju, ForbidOptions::default()).unwrap();
        let expected = "\
rule renju, 5x5, 5 moves, white to move
   a b c d e
5  . . . . O  5
4  . .[X]. .  4
3  . X X . .  3
2  . . . . .  2
1  O . . . .  1
   a b c d e
legend: X black, O white, . empty, [X] last move; forbidden for white: 3 double-three, 4 double-four, 6 overline
no forbidden points for white
";
        assert_eq!(text, expected);
    }

    #[test]
    fn last_move_on_the_edges_and_wide_boards() {
        let text = forbid_board("a1 o15", 15, Rule::Freestyle, ForbidOptions::default()).unwrap();
        assert!(
            text.contains("\n15  . . . . . . . . . . . . . .[O] 15\n"),
            "{text}"
        );
        let wide = forbid_board("af1", 32, Rule::Renju, ForbidOptions::default()).unwrap();
        let lines: Vec<&str> = wide.lines().collect();
        assert!(lines[1].ends_with("a a a a a a"), "{wide}");
        assert!(lines[2].ends_with("x y z a b c d e f"), "{wide}");
        assert!(wide.contains(". .[X] 1\n"), "{wide}");
    }

    #[test]
    fn double_fours_and_overlines_are_marked() {
        // SPEC §3.3 example B: a one-line double four at g8.
        let b = "d8 a1 f8 a2 h8 a3 j8 a4";
        let text = forbid_board(b, 15, Rule::Renju, ForbidOptions::default()).unwrap();
        assert_eq!(cell(&text, "g8"), '4', "{text}");
        assert!(text.contains("g8 double-four"), "{text}");
        let text = forbid_board(b, 15, Rule::Korean, ForbidOptions::default()).unwrap();
        assert_eq!(cell(&text, "g8"), '.', "{text}");

        let six = "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9";
        let text = forbid_board(six, 15, Rule::Renju, ForbidOptions::default()).unwrap();
        assert_eq!(cell(&text, "f8"), '6', "{text}");
        assert!(text.contains("f8 overline"), "{text}");
    }

    /// SPEC §3.3 example E, drawn from a board built directly: h8 is legal with the exact
    /// recursive check and a (wrong) double three with the non-recursive one.
    #[test]
    fn render_honours_the_depth_cap() {
        let mut board = Board::square(15, Rule::Renju).unwrap();
        for (stones, color) in [
            ("e9 e10 f8 g8 f7 h7 g6 h6", Color::Black),
            ("j8 a1 a3 a5 a7 a9 a11", Color::White),
        ] {
            for p in omok::notation::parse_renju_moves(stones, 15, 15).unwrap() {
                board.place(p, color).unwrap();
            }
        }
        let before = board.clone();
        let exact = render(&mut board, Color::Black, ForbidOptions::default());
        assert_eq!(cell(&exact, "h8"), '.', "{exact}");
        let shallow = render(
            &mut board,
            Color::Black,
            ForbidOptions { depth_cap: Some(1) },
        );
        assert_eq!(cell(&shallow, "h8"), '3', "{shallow}");
        assert_eq!(board, before, "render leaves the board as it was");
        assert_eq!(board.history(), before.history());
    }

    #[test]
    fn a_five_on_the_board_is_noted() {
        let text = forbid_board(
            "d8 a1 e8 a2 f8 a3 g8 a4 h8",
            15,
            Rule::Renju,
            ForbidOptions::default(),
        )
        .unwrap();
        assert!(
            text.contains("note: black already has a winning line (d8-h8)\n"),
            "{text}"
        );
    }

    #[test]
    fn bad_moves_name_the_move() {
        let err = |moves: &str| {
            forbid_board(moves, 15, Rule::Renju, ForbidOptions::default())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("h8 h8"),
            "move 2 'h8' (white): point (7,7) is already occupied"
        );
        assert_eq!(
            err("h8 h9 p8"),
            "move 3 'p8' (black): point (15,7) is off the 15x15 board"
        );
        assert_eq!(
            err("h8 8h"),
            "move 2 '8h' (white): '8h' is not a valid renju coordinate"
        );
        let size = forbid_board("h8", 40, Rule::Renju, ForbidOptions::default()).unwrap_err();
        assert!(format!("{size:#}").contains("40x40"), "{size:#}");
    }
}
