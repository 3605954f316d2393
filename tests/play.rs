//! `pbrain-omok play` through the real binary, driven by its stdin: the setup questions, the board
//! with renju coordinates and the forbidden points, refused moves with their reasons, undo, a win,
//! and the end of input. Node-limited engine moves keep the runs short and repeatable.

mod common;

/// Runs `pbrain-omok play ARGS` with `input` on stdin; returns stdout (and checks the exit).
fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = common::run_binary(&all, input);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Renju, the person black, a position where h8 is a double three for black.
const RENJU: &[&str] = &[
    "--rule",
    "renju",
    "--color",
    "black",
    "--strength",
    "10",
    "--nodes",
    "2000",
    "--opening",
    "f8 a15 g8 o1 h10 a1 h9 o15",
];

#[test]
fn refused_moves_say_why_and_the_board_marks_forbidden_points() {
    let out = play(RENJU, "h8\nf8\nhello\nq20\nh7\nquit\n");
    assert!(
        out.contains("h8 is forbidden for black: double three (3-3)"),
        "{out}"
    );
    assert!(out.contains("f8 is occupied"), "{out}");
    assert!(out.contains("'hello' is not a move"), "{out}");
    assert!(out.contains("q20 is off the 15x15 board"), "{out}");
    // The first board: renju coordinates (rows from the bottom), the last opening stone o15
    // bracketed, the double three at h8 marked 3.
    let board: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains(" a b c"))
        .take(17)
        .collect();
    assert_eq!(board[0].trim(), "a b c d e f g h i j k l m n o");
    assert!(
        board[1].starts_with("15  O") && board[1].ends_with("[O]15"),
        "{}",
        board[1]
    );
    assert!(
        board[8].starts_with(" 8  . . . . . X X 3 ."),
        "{}",
        board[8]
    );
    assert!(board[15].starts_with(" 1  O"), "{}", board[15]);
    assert!(out.contains("3/4/6: forbidden for black"), "{out}");
    // h7 is legal; the engine answers.
    assert!(out.contains("omok plays "), "{out}");
}

#[test]
fn undo_and_the_end_of_input() {
    let out = play(RENJU, "j8\nundo\nundo\n");
    assert!(out.contains("took back 2 moves"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    // The end of input ends the session quietly (success is checked by `play`).
}

#[test]
fn setup_questions_then_a_win() {
    // No flags: rule, colour and strength are asked for; a bad answer is asked again.
    let out = play(
        &["--nodes", "500", "--opening", "a1 o15 b1 o14 c1 o13 d1 o12"],
        "gomoku-ish\nfreestyle\npurple\nblack\n\ne1\nh8\nquit\n",
    );
    assert!(out.contains("unknown rule 'gomoku-ish'"), "{out}");
    assert!(out.contains("'purple' is not a colour"), "{out}");
    assert!(
        out.contains("freestyle, 15x15; you play black, omok plays white at strength 50"),
        "{out}"
    );
    assert!(
        out.contains("black has five in a row (a1-e1): you win!"),
        "{out}"
    );
    assert!(out.contains("the game is over"), "{out}");
}

#[test]
fn the_engine_moves_first_when_the_person_is_white() {
    let out = play(
        &[
            "--rule",
            "standard",
            "--color",
            "white",
            "--strength",
            "0",
            "--size",
            "9",
        ],
        "quit\n",
    );
    assert!(out.contains("omok plays e5"), "the centre of 9x9: {out}");
    assert!(out.contains("white to move"), "{out}");
}
