//! Text coordinates: the three notations the engine reads and writes (SPEC §2, PROTOCOL "Records").
//!
//! Internally a point is `(x, y)`, 0-based, x the column from the left and y the row from the
//! **top** (see [`Pos`]). Boards are 5..=32 points wide and high and may be rectangular, so every
//! parser takes the board's width and height.
//!
//! | notation | example (centre of 15×15) | column | row |
//! |---|---|---|---|
//! | Piskvork | `7,7` | x, 0-based | y, 0-based, from the top |
//! | renju | `h8` | letter(s) from the left, `a` = 0 | 1-based, from the **bottom**: `height - y` |
//! | c-gomoku-cli pos string | `h8i9j10` | letter(s) from the left, `a` = 0 | 1-based, from the **top**: `y + 1` |
//!
//! - **Piskvork** (`x,y`): two decimal integers separated by one comma; spaces around either number
//!   are accepted (`7, 7`). A leading `-` is read so that `-1,3` is reported as off the board.
//! - **Renju** (`h8`): a column name then a row number. The letter `i` *is* used (renju style, unlike
//!   go). Columns `a`..`z` are x 0..=25; wider boards continue with two letters, spreadsheet style:
//!   `aa` = 26, `ab` = 27, … `af` = 31. The row counts from the bottom, so the centre of 15×15 is
//!   `h8` = (7,7) and of 19×19 `j10` = (9,9). Parsing is case-insensitive; formatting is lower-case
//!   ([`format_renju`]), with an upper-case form for summaries ([`format_renju_upper`]). Move lists
//!   ([`parse_renju_moves`]) separate moves by spaces and/or commas.
//! - **Pos strings** (c-gomoku-cli openings): moves written back to back with no separator, each a
//!   column name as in renju notation and a row number `y + 1` counted from the **top** — so on
//!   15×15 the pos string `h8` is (7,7), but `h9` is (7,8) where renju `h9` is (7,6).
//!
//! Row numbers are plain decimals without leading zeros or signs (`h08` and `h+8` are malformed);
//! row `0` is well-formed but names no point, so `h0` is reported as off the board.
//!
//! Errors: [`NotationError::BadToken`] for text that is not a coordinate of the notation at all
//! (the `notation` field is `"Piskvork"`, `"renju"` or `"pos-string"`), and
//! [`NotationError::Board`] holding [`BoardError::OffBoard`] for a well-formed coordinate outside
//! the board, or [`BoardError::BadSize`] when the width or height is outside 5..=32. Nothing here
//! panics on any input.

use crate::core::{MAX_SIZE, MIN_SIZE, Pos};
use crate::error::{BoardError, NotationError};

const PISKVORK: &str = "Piskvork";
const RENJU: &str = "renju";
const POS_STRING: &str = "pos-string";

/// The column name of `x`: `a`..`z` for 0..=25, then `aa`, `ab`, … (spreadsheet style).
pub fn column_name(x: usize) -> String {
    let letter = |i: usize| char::from(b'a' + (i % 26) as u8);
    if x < 26 {
        letter(x).to_string()
    } else {
        // Two letters cover x up to 26 + 26 * 26 - 1, far beyond MAX_SIZE.
        let mut s = String::with_capacity(2);
        s.push(letter(x / 26 - 1));
        s.push(letter(x % 26));
        s
    }
}

/// The column of a name of one or two ASCII letters (any case); `None` for anything else.
fn parse_column(letters: &str) -> Option<i64> {
    let value = |b: u8| i64::from(b.to_ascii_lowercase() - b'a');
    match letters.as_bytes() {
        [a] if a.is_ascii_alphabetic() => Some(value(*a)),
        [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
            Some(26 * (value(*a) + 1) + value(*b))
        }
        _ => None,
    }
}

/// A decimal number without sign or leading zeros (`0` itself is allowed); `None` otherwise or on
/// overflow.
fn parse_unsigned(digits: &str) -> Option<i64> {
    let ok = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if ok { digits.parse().ok() } else { None }
}

/// A decimal number with an optional leading `-` and no other sign; `None` otherwise or on overflow.
fn parse_signed(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn check_size(width: usize, height: usize) -> Result<(), NotationError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height) {
        Ok(())
    } else {
        Err(BoardError::BadSize { width, height }.into())
    }
}

/// The point `(x, y)` if it is on a `width`×`height` board (whose size was checked).
fn on_board(x: i64, y: i64, width: usize, height: usize) -> Result<Pos, NotationError> {
    let inside = (0..width as i64).contains(&x) && (0..height as i64).contains(&y);
    match inside.then(|| Pos::new(x as usize, y as usize)).flatten() {
        Some(p) => Ok(p),
        None => Err(BoardError::OffBoard {
            x,
            y,
            width,
            height,
        }
        .into()),
    }
}

fn bad_token(token: &str, notation: &'static str) -> NotationError {
    NotationError::BadToken {
        token: token.to_string(),
        notation,
    }
}

/// Splits a column-name-then-number token (`h8`, `ab12`) into its letters and the rest.
fn split_letters(token: &str) -> (&str, &str) {
    let n = token.bytes().take_while(u8::is_ascii_alphabetic).count();
    token.split_at(n)
}

/// Parses a Piskvork coordinate `x,y` (0-based, y from the top; `7,7` or `7, 7`).
pub fn parse_piskvork(s: &str, width: usize, height: usize) -> Result<Pos, NotationError> {
    check_size(width, height)?;
    let (x, y) = s.split_once(',').ok_or_else(|| bad_token(s, PISKVORK))?;
    match (parse_signed(x.trim()), parse_signed(y.trim())) {
        (Some(x), Some(y)) => on_board(x, y, width, height),
        _ => Err(bad_token(s, PISKVORK)),
    }
}

/// Formats a point as a Piskvork coordinate (`7,7`).
pub fn format_piskvork(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

/// Parses a renju coordinate (`h8`, `H8`; row counted from the bottom, 1-based). Surrounding
/// whitespace is ignored.
pub fn parse_renju(s: &str, width: usize, height: usize) -> Result<Pos, NotationError> {
    check_size(width, height)?;
    let token = s.trim();
    let (letters, digits) = split_letters(token);
    match (parse_column(letters), parse_unsigned(digits)) {
        (Some(x), Some(row)) => on_board(x, height as i64 - row, width, height),
        _ => Err(bad_token(token, RENJU)),
    }
}

/// Formats a point of a board of the given height in renju notation, lower-case (`h8`). The point
/// must be on that board; a row beyond it is written as `0` rather than panicking.
pub fn format_renju(p: Pos, height: usize) -> String {
    format!("{}{}", column_name(p.x()), height.saturating_sub(p.y()))
}

/// [`format_renju`] in upper case (`H8`), for summaries and messages meant for people.
pub fn format_renju_upper(p: Pos, height: usize) -> String {
    format_renju(p, height).to_ascii_uppercase()
}

/// The tokens of a renju move list: the text split at spaces (any whitespace) and commas, empty
/// pieces dropped. [`parse_renju_moves`] parses each with [`parse_renju`]; callers that want to
/// report which move was bad can do the same.
pub fn renju_move_tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
}

/// Parses a renju move list (`h8 h9 i8`, `h8,h9,i8`, `h8, h9`); an empty list is `Ok(vec![])`.
pub fn parse_renju_moves(s: &str, width: usize, height: usize) -> Result<Vec<Pos>, NotationError> {
    check_size(width, height)?;
    renju_move_tokens(s)
        .map(|t| parse_renju(t, width, height))
        .collect()
}

/// Formats moves as a renju move list separated by single spaces (`h8 h9 i8`).
pub fn format_renju_moves(moves: &[Pos], height: usize) -> String {
    moves
        .iter()
        .map(|&p| format_renju(p, height))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a c-gomoku-cli pos string (`h8i9j10`: column letters, then `y + 1` from the top, with
/// no separators; any case). Surrounding whitespace is ignored; an empty string is no moves.
pub fn parse_pos_string(s: &str, width: usize, height: usize) -> Result<Vec<Pos>, NotationError> {
    check_size(width, height)?;
    let mut rest = s.trim();
    let mut moves = Vec::new();
    while !rest.is_empty() {
        let (letters, after) = split_letters(rest);
        let digit_count = after.bytes().take_while(u8::is_ascii_digit).count();
        let (digits, next) = after.split_at(digit_count);
        let token_len = letters.len() + digits.len();
        // Report the move as far as it reaches; a stray character on its own. Slicing is safe:
        // the first character of `rest` is whole, and letters and digits are ASCII.
        let token = if token_len > 0 {
            &rest[..token_len]
        } else {
            rest.chars().next().map_or(rest, |c| &rest[..c.len_utf8()])
        };
        match (parse_column(letters), parse_unsigned(digits)) {
            (Some(x), Some(row)) => moves.push(on_board(x, row - 1, width, height)?),
            _ => return Err(bad_token(token, POS_STRING)),
        }
        rest = next;
    }
    Ok(moves)
}

/// Formats moves as a c-gomoku-cli pos string (`h8i9`; rows `y + 1` from the top).
pub fn format_pos_string(moves: &[Pos]) -> String {
    moves
        .iter()
        .map(|p| format!("{}{}", column_name(p.x()), p.y() + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(x: usize, y: usize) -> Pos {
        Pos::new(x, y).unwrap()
    }

    fn all_points(width: usize, height: usize) -> impl Iterator<Item = Pos> {
        (0..height).flat_map(move |y| (0..width).map(move |x| pos(x, y)))
    }

    const SIZES: [(usize, usize); 6] = [(15, 15), (19, 19), (20, 20), (7, 12), (12, 7), (32, 32)];

    fn is_bad_token(r: Result<impl std::fmt::Debug, NotationError>, notation: &str) -> bool {
        matches!(r, Err(NotationError::BadToken { notation: n, .. }) if n == notation)
    }

    fn is_off_board<T: std::fmt::Debug>(r: Result<T, NotationError>) -> bool {
        matches!(r, Err(NotationError::Board(BoardError::OffBoard { .. })))
    }

    #[test]
    fn column_names() {
        let names: Vec<String> = [0, 7, 8, 25, 26, 27, 31]
            .into_iter()
            .map(column_name)
            .collect();
        assert_eq!(names, ["a", "h", "i", "z", "aa", "ab", "af"]);
        for x in 0..MAX_SIZE {
            assert_eq!(parse_column(&column_name(x)), Some(x as i64));
            assert_eq!(parse_column(&column_name(x).to_uppercase()), Some(x as i64));
        }
        assert_eq!(parse_column(""), None);
        assert_eq!(parse_column("abc"), None);
    }

    #[test]
    fn known_points() {
        assert_eq!(parse_renju("h8", 15, 15), Ok(pos(7, 7)));
        assert_eq!(parse_renju("H8", 15, 15), Ok(pos(7, 7)));
        assert_eq!(format_renju(pos(7, 7), 15), "h8");
        assert_eq!(format_renju_upper(pos(7, 7), 15), "H8");
        assert_eq!(parse_renju("j10", 19, 19), Ok(pos(9, 9)));
        assert_eq!(format_renju(pos(9, 9), 19), "j10");
        assert_eq!(parse_renju("a1", 15, 15), Ok(pos(0, 14)));
        assert_eq!(parse_renju("o15", 15, 15), Ok(pos(14, 0)));
        assert_eq!(
            parse_renju("i9", 15, 15),
            Ok(pos(8, 6)),
            "i is a column, renju style"
        );
        assert_eq!(parse_renju("af1", 32, 32), Ok(pos(31, 31)));
        assert_eq!(parse_renju(" h8 ", 15, 15), Ok(pos(7, 7)));

        assert_eq!(parse_piskvork("7,7", 15, 15), Ok(pos(7, 7)));
        assert_eq!(parse_piskvork("7, 7", 15, 15), Ok(pos(7, 7)));
        assert_eq!(parse_piskvork(" 3 , 11 ", 15, 15), Ok(pos(3, 11)));
        assert_eq!(format_piskvork(pos(7, 7)), "7,7");
        assert_eq!(format_piskvork(pos(3, 11)), "3,11");

        assert_eq!(
            parse_pos_string("h8i9", 15, 15),
            Ok(vec![pos(7, 7), pos(8, 8)])
        );
        assert_eq!(format_pos_string(&[pos(7, 7), pos(8, 8)]), "h8i9");
        assert_eq!(
            parse_pos_string("h8i9j10", 15, 15),
            Ok(vec![pos(7, 7), pos(8, 8), pos(9, 9)])
        );
        assert_eq!(
            parse_pos_string("H8I9", 15, 15),
            Ok(vec![pos(7, 7), pos(8, 8)])
        );
        assert_eq!(
            parse_pos_string("a1o15", 15, 15),
            Ok(vec![pos(0, 0), pos(14, 14)])
        );
        assert_eq!(parse_pos_string("", 15, 15), Ok(vec![]));
        assert_eq!(
            parse_pos_string("aa1af32", 32, 32),
            Ok(vec![pos(26, 0), pos(31, 31)])
        );
        assert_eq!(format_pos_string(&[pos(26, 0), pos(31, 31)]), "aa1af32");

        assert_eq!(
            parse_renju_moves("h8 h9 i8", 15, 15),
            Ok(vec![pos(7, 7), pos(7, 6), pos(8, 7)])
        );
        assert_eq!(
            parse_renju_moves("h8,h9, i8 ,\tJ7", 15, 15).unwrap().len(),
            4
        );
        assert_eq!(parse_renju_moves("  ", 15, 15), Ok(vec![]));
        assert_eq!(
            format_renju_moves(&[pos(7, 7), pos(7, 6), pos(8, 7)], 15),
            "h8 h9 i8"
        );
        assert_eq!(format_renju_moves(&[], 15), "");
    }

    #[test]
    fn rectangular_boards_count_rows_from_their_own_bottom() {
        // 7 wide, 12 high: the bottom row is y = 11.
        assert_eq!(parse_renju("a1", 7, 12), Ok(pos(0, 11)));
        assert_eq!(parse_renju("g12", 7, 12), Ok(pos(6, 0)));
        assert!(is_off_board(parse_renju("h1", 7, 12)));
        assert!(is_off_board(parse_renju("a13", 7, 12)));
        assert_eq!(parse_piskvork("6,11", 7, 12), Ok(pos(6, 11)));
        assert!(is_off_board(parse_piskvork("11,6", 7, 12)));
        assert_eq!(parse_pos_string("g12", 7, 12), Ok(vec![pos(6, 11)]));
    }

    #[test]
    fn malformed_renju() {
        for s in [
            "", " ", "h", "8h", "8", "h8x", "h-1", "h+8", "h08", "h 8", "abc1", "é8", "h８",
        ] {
            assert!(is_bad_token(parse_renju(s, 15, 15), "renju"), "{s:?}");
        }
        let e = parse_renju("8h", 15, 15).unwrap_err();
        assert_eq!(
            e,
            NotationError::BadToken {
                token: "8h".into(),
                notation: "renju"
            }
        );
        assert_eq!(e.to_string(), "'8h' is not a valid renju coordinate");
    }

    #[test]
    fn renju_off_board() {
        assert_eq!(
            parse_renju("p8", 15, 15),
            Err(NotationError::Board(BoardError::OffBoard {
                x: 15,
                y: 7,
                width: 15,
                height: 15
            }))
        );
        assert_eq!(
            parse_renju("h0", 15, 15),
            Err(NotationError::Board(BoardError::OffBoard {
                x: 7,
                y: 15,
                width: 15,
                height: 15
            }))
        );
        assert_eq!(
            parse_renju("h16", 15, 15),
            Err(NotationError::Board(BoardError::OffBoard {
                x: 7,
                y: -1,
                width: 15,
                height: 15
            }))
        );
        for s in ["aa1", "z1", "h99999999999", "t10"] {
            assert!(is_off_board(parse_renju(s, 15, 15)), "{s}");
        }
        // A number too large for i64 is not a coordinate at all.
        assert!(is_bad_token(
            parse_renju("h99999999999999999999999", 15, 15),
            "renju"
        ));
        assert!(is_off_board(parse_renju("t1", 19, 19)));
        assert_eq!(parse_renju("s1", 19, 19), Ok(pos(18, 18)));
    }

    #[test]
    fn malformed_piskvork() {
        for s in [
            "", "7", "7,", ",7", "a,b", "7,7,7", "7;7", "7 7", "+7,7", "7.0,7", "--1,3", "-,3",
        ] {
            assert!(is_bad_token(parse_piskvork(s, 15, 15), "Piskvork"), "{s:?}");
        }
        assert_eq!(
            parse_piskvork("-1,3", 15, 15),
            Err(NotationError::Board(BoardError::OffBoard {
                x: -1,
                y: 3,
                width: 15,
                height: 15
            }))
        );
        assert!(is_off_board(parse_piskvork("15,0", 15, 15)));
        assert!(is_off_board(parse_piskvork("0,15", 15, 15)));
        assert!(is_off_board(parse_piskvork("32,0", 32, 32)));
        assert_eq!(parse_piskvork("31,31", 32, 32), Ok(pos(31, 31)));
    }

    #[test]
    fn malformed_pos_strings() {
        for (s, token) in [
            ("h", "h"),
            ("8", "8"),
            ("h8 i9", " "),
            ("h8-i9", "-"),
            ("h8abc1", "abc1"),
            ("h8i", "i"),
            ("h08", "h08"),
        ] {
            assert_eq!(
                parse_pos_string(s, 15, 15),
                Err(NotationError::BadToken {
                    token: token.into(),
                    notation: "pos-string"
                }),
                "{s:?}"
            );
        }
        assert!(is_bad_token(parse_pos_string("h8é", 15, 15), "pos-string"));
        assert!(is_off_board(parse_pos_string("h8p1", 15, 15)));
        assert!(is_off_board(parse_pos_string("h0", 15, 15)));
        assert!(is_off_board(parse_pos_string("h16", 15, 15)));
    }

    #[test]
    fn malformed_move_lists() {
        assert!(is_bad_token(parse_renju_moves("h8 8h", 15, 15), "renju"));
        assert!(is_off_board(parse_renju_moves("h8, p8", 15, 15)));
        assert_eq!(
            renju_move_tokens(" h8,,h9  i8 ").collect::<Vec<_>>(),
            ["h8", "h9", "i8"]
        );
    }

    #[test]
    fn bad_board_sizes_are_errors() {
        let bad = |r: Result<_, NotationError>| {
            matches!(r, Err(NotationError::Board(BoardError::BadSize { .. })))
        };
        assert!(bad(parse_renju("a1", 4, 15).map(|_| ())));
        assert!(bad(parse_piskvork("0,0", 15, 33).map(|_| ())));
        assert!(bad(parse_pos_string("a1", 40, 40).map(|_| ())));
        assert!(bad(parse_renju_moves("", 0, 0).map(|_| ())));
    }

    /// Every point of every test board formats and parses back, in each notation.
    #[test]
    fn every_point_round_trips() {
        for (w, h) in SIZES {
            for p in all_points(w, h) {
                assert_eq!(
                    parse_piskvork(&format_piskvork(p), w, h),
                    Ok(p),
                    "{w}x{h} {p:?}"
                );
                let renju = format_renju(p, h);
                assert_eq!(parse_renju(&renju, w, h), Ok(p), "{w}x{h} {renju}");
                assert_eq!(
                    parse_renju(&format_renju_upper(p, h), w, h),
                    Ok(p),
                    "{w}x{h} {renju}"
                );
            }
            let all: Vec<Pos> = all_points(w, h).collect();
            assert_eq!(
                parse_pos_string(&format_pos_string(&all), w, h).as_ref(),
                Ok(&all),
                "{w}x{h}"
            );
            assert_eq!(
                parse_renju_moves(&format_renju_moves(&all, h), w, h).as_ref(),
                Ok(&all),
                "{w}x{h}"
            );
        }
    }

    /// Formatting is injective: no two points of a board share a text.
    #[test]
    fn every_point_has_its_own_text() {
        for (w, h) in SIZES {
            let mut texts: Vec<String> = all_points(w, h).map(|p| format_renju(p, h)).collect();
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), w * h);
        }
    }
}
