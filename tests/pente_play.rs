//! `pbrain-omok play --rule pente` through the real binary: options as flags, the board with
//! capture counts, refused moves with their reasons, the opponent's replies, undo.

mod common;

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play", "--rule", "pente"];
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

#[test]
fn a_short_game_with_flags() {
    let out = play(
        &[
            "--size",
            "9",
            "--nodes",
            "400",
            "--strength",
            "40",
            "--three-capture",
        ],
        "e5\ne5\nz9\nundo\nquit\n",
    );
    assert!(
        out.contains("Pente 9x9, 2 players; you play white"),
        "{out}"
    );
    assert!(out.contains("captured: white 0, black 0 (15 win)"), "{out}");
    assert!(out.contains("omok (black) plays"), "{out}");
    assert!(out.contains("e5: the point is occupied"), "{out}");
    assert!(out.contains("'z9' is not a point"), "{out}");
    assert!(out.contains("took back 2 move(s)"), "{out}");
}

#[test]
fn a_capture_is_reported_and_bad_options_refused() {
    // White: a1 (opening) … the person (white) captures b1 c1 with d1.
    let out = play(
        &["--size", "9", "--nodes", "200", "--opening", "a1 b1 i9 c1"],
        "d1\nquit\n",
    );
    assert!(out.contains("captured: b1 c1"), "{out}");
    assert!(out.contains("captured: white 2, black 0 (10 win)"), "{out}");
    let bad = common::run_binary(&["play", "--rule", "pente", "--size", "17"], "");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("boardSize"));
    let suicide = common::run_binary(
        &[
            "play",
            "--rule",
            "pente",
            "--size",
            "9",
            "--suicide",
            "sometimes",
        ],
        "",
    );
    assert!(!suicide.status.success());
    let rif = common::run_binary(
        &[
            "play",
            "--rule",
            "pente",
            "--size",
            "9",
            "--opening-rule",
            "rif",
        ],
        "",
    );
    assert!(!rif.status.success());
    assert!(
        String::from_utf8_lossy(&rif.stderr)
            .contains("Pente plays none, pro, longPro, swap or swap2")
    );
    // Pro: the person (white) must open on the centre.
    let pro = play(
        &["--size", "9", "--nodes", "200", "--opening-rule", "pro"],
        "a1\nquit\n",
    );
    assert!(
        pro.contains("a1: the first stone must be on the centre"),
        "{pro}"
    );
}
