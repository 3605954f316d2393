//! The Piskvork brain's Pente mode through the real binary: `INFO omok_rule pente` and the
//! `pente_*` keys, START/BEGIN/TURN/BOARD/TAKEBACK with captures tracked by the brain, errors
//! that change nothing, and the way back to omok.

mod common;

#[test]
fn a_pente_game_over_the_protocol() {
    let out = common::brain_lines(
        "INFO omok_rule pente\nINFO pente_suicide maybe\nINFO max_node 400\nSTART 9\nBEGIN\n\
         TURN 4,4\nABOUT\nINFO omok_rule freestyle\nSTART 15\nBEGIN\n",
    );
    assert_eq!(out[0], "ERROR INFO pente_suicide maybe: not a valid value");
    assert_eq!(out[1], "OK");
    assert_eq!(out[2], "4,4", "the first player opens on the centre");
    assert!(out[3].starts_with("ERROR 4,4"), "{out:?}");
    assert!(out[4].starts_with("name=\"omok\""));
    assert_eq!(out[5], "OK");
    assert_eq!(out[6], "7,7", "omok again");
}

#[test]
fn the_brain_tracks_captures_and_takes_them_back() {
    // Five stones in move order, the brain (black) to move: white's last stone (3,0) captured
    // the brain's (1,0),(2,0) — nobody tells the brain; it must apply the capture itself.
    let board = "INFO omok_rule pente\nINFO max_node 300\nSTART 9\n\
                 BOARD\n0,0,2\n1,0,1\n8,8,2\n2,0,1\n3,0,2\nDONE\n";
    let first = common::brain_lines(board);
    let m = first[1].clone();
    assert!(!m.starts_with("ERROR"), "{first:?}");
    // White now plays on a captured point the brain did not take: legal only if it was freed.
    let free = if m == "1,0" { "2,0" } else { "1,0" };
    let second = common::brain_lines(&format!("{board}TURN {free}\n"));
    let m2 = second[2].clone();
    assert!(!m2.starts_with("ERROR"), "{second:?}");
    let out = common::brain_lines(&format!(
        "{board}TURN {free}\nTAKEBACK {free}\nTAKEBACK {m2}\nTAKEBACK {free}\nTAKEBACK {m}\n\
         TAKEBACK 3,0\nTURN 1,0\n"
    ));
    assert_eq!(out[..3], [first[0].clone(), m, m2], "deterministic answers");
    assert!(out[3].starts_with("ERROR"), "not the last move: {out:?}");
    assert_eq!(out[4..8], ["OK", "OK", "OK", "OK"], "{out:?}");
    // Taking back white's capturing stone restored (1,0): it is occupied again.
    assert!(
        out[8].starts_with("ERROR 1,0: the point is occupied"),
        "{out:?}"
    );
}

#[test]
fn pente_options_reach_the_rules() {
    let out = common::brain_lines(
        "INFO omok_rule pente\nINFO pente_opening pro\nINFO max_node 300\nSTART 13\n\
         BOARD\n6,6,2\n0,0,1\n6,7,2\nDONE\nBOARD\n6,6,2\n0,0,1\n12,12,2\nDONE\nSTART 10\n",
    );
    assert_eq!(out[0], "OK");
    assert!(
        out[1].starts_with("ERROR stone 3"),
        "Pro: too close: {out:?}"
    );
    assert!(!out[2].starts_with("ERROR"), "{out:?}");
    assert!(out[3].starts_with("ERROR"), "a 10x10 board: {out:?}");
}
