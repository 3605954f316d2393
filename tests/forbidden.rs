//! The worked examples of SPEC §3.3 (A–F) and ASCII-diagram fixtures for every rule with
//! forbidden points. Diagram marks: `3` double-three, `4` double-four, `6` overline, expected
//! forbidden for the side named in the test; every other empty point must be allowed.

mod common;

use common::{board, diagram, renju};
use omok::rules::{
    ForbidChecker, ForbidOptions, ForbiddenKind, check_move, forbidden, forbidden_points,
    winning_line,
};
use omok::{Board, Color, Rule};

const EXAMPLE_A: (&str, &str) = ("f8 g8 h9 h10", "");
const EXAMPLE_B: (&str, &str) = ("d8 f8 h8 j8", "");
const EXAMPLE_C: (&str, &str) = ("f8 g8 h9 h10", "e8");
const EXAMPLE_D: (&str, &str) = ("c8 f8 g8 k8 h9 h10", "");
const EXAMPLE_E: (&str, &str) = ("e9 e10 f8 g8 f7 h7 g6 h6", "j8");

fn at(rule: Rule, (black, white): (&str, &str), point: &str) -> Option<ForbiddenKind> {
    let mut b = board(rule, black, white);
    forbidden(&mut b, renju(point, 15), Color::Black)
}

#[test]
fn example_a_true_double_three() {
    assert_eq!(
        at(Rule::Renju, EXAMPLE_A, "h8"),
        Some(ForbiddenKind::DoubleThree)
    );
    assert_eq!(
        at(Rule::Korean, EXAMPLE_A, "h8"),
        Some(ForbiddenKind::DoubleThree)
    );
    assert_eq!(
        at(Rule::Casual, EXAMPLE_A, "h8"),
        Some(ForbiddenKind::DoubleThree)
    );
    assert_eq!(at(Rule::Freestyle, EXAMPLE_A, "h8"), None);
    assert_eq!(at(Rule::Standard, EXAMPLE_A, "h8"), None);
}

#[test]
fn example_b_one_line_double_four() {
    assert_eq!(
        at(Rule::Renju, EXAMPLE_B, "g8"),
        Some(ForbiddenKind::DoubleFour)
    );
    assert_eq!(at(Rule::Korean, EXAMPLE_B, "g8"), None);
    // The casual window rule counts a direction once, so one line is never a double four there.
    assert_eq!(at(Rule::Casual3344, EXAMPLE_B, "g8"), None);
}

#[test]
fn example_c_closed_three_is_not_a_three() {
    assert_eq!(at(Rule::Renju, EXAMPLE_C, "h8"), None);
    assert_eq!(at(Rule::Korean, EXAMPLE_C, "h8"), None);
}

#[test]
fn example_d_overline_completions_make_no_three() {
    assert_eq!(at(Rule::Renju, EXAMPLE_D, "h8"), None);
    assert_eq!(at(Rule::Korean, EXAMPLE_D, "h8"), None);
}

#[test]
fn example_e_needs_the_recursion() {
    assert_eq!(at(Rule::Renju, EXAMPLE_E, "h8"), None);
    // E8, the only extension of the horizontal three, is itself a double three once H8 stands.
    let mut b = board(Rule::Renju, EXAMPLE_E.0, EXAMPLE_E.1);
    b.place(renju("h8", 15), Color::Black).unwrap();
    assert_eq!(
        forbidden(&mut b, renju("e8", 15), Color::Black),
        Some(ForbiddenKind::DoubleThree)
    );
    // Without recursion (one level evaluated) the answer comes out wrong.
    let mut b = board(Rule::Renju, EXAMPLE_E.0, EXAMPLE_E.1);
    let mut shallow = ForbidChecker::new(ForbidOptions { depth_cap: Some(1) });
    assert_eq!(
        shallow.check(&mut b, renju("h8", 15), Color::Black),
        Some(ForbiddenKind::DoubleThree)
    );
    let mut two_levels = ForbidChecker::new(ForbidOptions { depth_cap: Some(2) });
    assert_eq!(
        two_levels.check(&mut b, renju("h8", 15), Color::Black),
        None
    );
}

#[test]
fn example_f_five_comes_first() {
    // Five + double three: H8 completes D8..H8 and makes threes on the column and diagonal.
    let cases = [
        ("d8 e8 f8 g8 h9 h10 i9 j10", "h8"),
        // Five + double four (column four and diagonal four besides the row five).
        ("d8 e8 f8 g8 h9 h10 h11 i9 j10 k11", "h8"),
        // Five in the row + overline in the column.
        ("d8 e8 f8 g8 h2 h3 h4 h5 h6 h7", "h8"),
    ];
    for (black, point) in cases {
        let mut b = board(Rule::Renju, black, "");
        let p = renju(point, 15);
        assert_eq!(forbidden(&mut b, p, Color::Black), None, "{black}");
        assert!(check_move(&mut b, p, Color::Black).is_ok());
        b.make_move(p, Color::Black);
        assert!(winning_line(&b, p).is_some(), "{black}: H8 wins");
    }
}

fn expect_marks(rule: Rule, color: Color, text: &str) {
    let (mut b, marks) = diagram(rule, text);
    let got: Vec<(char, omok::Pos)> = forbidden_points(&mut b, color)
        .into_iter()
        .map(|(p, k)| {
            let ch = match k {
                ForbiddenKind::DoubleThree => '3',
                ForbiddenKind::DoubleFour => '4',
                ForbiddenKind::Overline => '6',
            };
            (ch, p)
        })
        .collect();
    assert_eq!(got, marks, "{rule} {color}\n{b:?}");
}

#[test]
fn renju_diagram_overline_and_four_four() {
    expect_marks(
        Rule::Renju,
        Color::Black,
        "
        . . . . . . . . . . .
        . X X X 6 X X . . . .
        . . . . . . . . . . .
        . . . . . . . . X . .
        . . . . . . . X . . .
        . . . . . . X . . . .
        . . X X X 4 . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        ",
    );
}

#[test]
fn korean_double_three_applies_to_white_too() {
    let text = "
        . . . . . . . . .
        . . . . O . . . .
        . . . . O . . . .
        . . O O 3 . . . .
        . . . . . . . . .
        . . . . . . . . .
        ";
    expect_marks(Rule::Korean, Color::White, text);
    // Renju leaves white free.
    expect_marks(Rule::Renju, Color::White, &text.replace('3', "."));
}

#[test]
fn korean_allows_double_four_and_six() {
    let text = "
        . . . . . . . . . . .
        . X X X . X X . . . .
        . . . . . . . . . . .
        . . . . . . . . X . .
        . . . . . . . . X . .
        . . . . . . . . X . .
        . . X X X . . . . . .
        . . . . . . . . . . .
        ";
    expect_marks(Rule::Korean, Color::Black, text);
}

#[test]
fn casual_windows_for_both_colours() {
    // Window threes in two directions; a broken shape the strict rule would not call a three.
    expect_marks(
        Rule::Casual,
        Color::Black,
        "
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X X 3 . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    expect_marks(
        Rule::Casual44,
        Color::White,
        "
        . . . . . . . . .
        . . . . O . . . .
        . . . . O . . . .
        . . . . O . . . .
        O O O . 4 . . . .
        . . . . . . . . .
        ",
    );
}

#[test]
fn five_on_a_forbidden_shape_wins_and_six_does_not() {
    // Renju black: a six is forbidden (overline) and does not win.
    let mut b = board(Rule::Renju, "c8 d8 e8 g8 h8", "");
    assert_eq!(
        forbidden(&mut b, renju("f8", 15), Color::Black),
        Some(ForbiddenKind::Overline)
    );
    // White may make six and wins with it.
    let mut w = Board::square(15, Rule::Renju).unwrap();
    for s in ["c8", "d8", "e8", "g8", "h8", "f8"] {
        w.place(renju(s, 15), Color::White).unwrap();
    }
    assert!(winning_line(&w, renju("f8", 15)).is_some());
}
