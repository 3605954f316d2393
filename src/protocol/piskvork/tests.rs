//! Parser and response-format tests.

use super::*;

fn c(x: i64, y: i64) -> Coord {
    Coord { x, y }
}

#[test]
fn keywords_are_case_insensitive_and_white_space_is_ignored() {
    assert_eq!(parse("START 15"), Ok(Command::Start(15)));
    assert_eq!(parse("  start 20\r"), Ok(Command::Start(20)));
    assert_eq!(
        parse("rectstart 20, 15"),
        Ok(Command::RectStart {
            width: 20,
            height: 15
        })
    );
    assert_eq!(parse("Turn 7, 8"), Ok(Command::Turn(c(7, 8))));
    assert_eq!(parse("TURN -1,3"), Ok(Command::Turn(c(-1, 3))));
    assert_eq!(parse("yxstop"), Ok(Command::Stop));
    assert_eq!(parse("END now"), Ok(Command::End));
    assert_eq!(parse("board"), Ok(Command::BlockStart(BlockKind::Board)));
    assert_eq!(
        parse("SWAP2BOARD"),
        Ok(Command::BlockStart(BlockKind::Swap2Board))
    );
    assert_eq!(parse("YXNBEST 3"), Ok(Command::YxNbest(3)));
    assert_eq!(parse("  "), Err(ProtocolError::Empty));
}

#[test]
fn stone_lines() {
    assert_eq!(
        parse("7,7,1"),
        Ok(Command::Stone(StoneLine {
            at: c(7, 7),
            field: Some(Field::Own)
        }))
    );
    assert_eq!(
        parse("0, 14 ,3"),
        Ok(Command::Stone(StoneLine {
            at: c(0, 14),
            field: Some(Field::Marker)
        }))
    );
    assert_eq!(
        parse("8,6"),
        Ok(Command::Stone(StoneLine {
            at: c(8, 6),
            field: None
        }))
    );
    for bad in [
        "7,7,4",
        "7,7,1,1",
        "7",
        "7,x,1",
        "-,1",
        "99999999999999999999,1",
    ] {
        assert!(
            matches!(parse(bad), Err(ProtocolError::BadStoneLine { .. })),
            "{bad}"
        );
    }
}

#[test]
fn bad_arguments_are_errors_and_unknown_keywords_are_unknown() {
    assert!(matches!(
        parse("START"),
        Err(ProtocolError::MissingArgument {
            command: "START",
            ..
        })
    ));
    assert!(matches!(
        parse("START abc"),
        Err(ProtocolError::BadArgument { .. })
    ));
    assert!(matches!(
        parse("START 15 20"),
        Err(ProtocolError::BadArgument { .. })
    ));
    assert!(matches!(
        parse("TURN 7"),
        Err(ProtocolError::BadArgument { .. })
    ));
    assert!(matches!(
        parse("TURN 7,7,7"),
        Err(ProtocolError::BadArgument { .. })
    ));
    assert!(matches!(
        parse("RECTSTART -5,10"),
        Err(ProtocolError::BadArgument { .. })
    ));
    assert!(matches!(
        parse("BEGIN 7,7"),
        Err(ProtocolError::ExtraArgument { .. })
    ));
    assert!(matches!(
        parse("YXNBEST 0"),
        Err(ProtocolError::BadArgument { .. })
    ));
    assert_eq!(
        parse("SUGGEST 7,7"),
        Ok(Command::Unknown("SUGGEST 7,7".into()))
    );
    assert_eq!(
        parse("hello world"),
        Ok(Command::Unknown("hello world".into()))
    );
    let long = "A".repeat(MAX_LINE_BYTES + 1);
    assert!(matches!(
        parse(&long),
        Err(ProtocolError::LineTooLong { .. })
    ));
}

#[test]
fn info_values() {
    let info = |s: &str| match parse(s) {
        Ok(Command::Info(i)) => Ok(i),
        Ok(other) => panic!("{s}: {other:?}"),
        Err(e) => Err(e),
    };
    assert_eq!(info("INFO timeout_turn 5000"), Ok(Info::TimeoutTurn(5000)));
    assert_eq!(info("INFO TIME_LEFT -20"), Ok(Info::TimeLeft(-20)));
    assert_eq!(
        info("INFO rule 4"),
        Ok(Info::Rule {
            rule: Rule::Renju,
            continuous: false
        })
    );
    assert_eq!(
        info("INFO rule 2"),
        Ok(Info::Rule {
            rule: Rule::Freestyle,
            continuous: true
        })
    );
    assert_eq!(
        info("INFO rule 9"),
        Ok(Info::Rule {
            rule: Rule::Caro,
            continuous: false
        })
    );
    assert_eq!(
        info("INFO omok_rule casual-33-44"),
        Ok(Info::Rule {
            rule: Rule::Casual3344,
            continuous: false
        })
    );
    assert_eq!(
        info("INFO folder C:/my dir"),
        Ok(Info::Folder("C:/my dir".into()))
    );
    assert_eq!(info("INFO max_node -1"), Ok(Info::MaxNode(None)));
    assert_eq!(info("INFO strength 40"), Ok(Info::Strength(40)));
    assert_eq!(
        info("INFO caution_factor 3"),
        Ok(Info::Ignored("caution_factor".into()))
    );
    for bad in [
        "INFO timeout_turn x",
        "INFO timeout_turn -1",
        "INFO rule 16",
        "INFO omok_rule pente",
        "INFO strength 101",
        "INFO thread_num 0",
        "INFO max_memory",
    ] {
        assert!(
            matches!(info(bad), Err(ProtocolError::BadInfo { .. })),
            "{bad}"
        );
    }
    assert!(matches!(
        info("INFO"),
        Err(ProtocolError::MissingArgument { .. })
    ));
}

#[test]
fn responses() {
    let p = |x, y| Pos::new(x, y).unwrap();
    assert_eq!(Response::Move(p(7, 8)).to_string(), "7,8");
    assert_eq!(
        Response::Moves(vec![p(7, 7), p(8, 7), p(9, 9)]).to_string(),
        "7,7 8,7 9,9"
    );
    assert_eq!(
        Response::Forbid(vec![p(7, 6), p(8, 9)]).to_string(),
        "FORBID 07060809."
    );
    assert_eq!(Response::Forbid(vec![]).to_string(), "FORBID .");
    assert_eq!(Response::Error("a\nb".into()).to_string(), "ERROR a b");
    assert!(
        Response::About
            .to_string()
            .starts_with("name=\"omok\", version=\"")
    );
    let long = Response::Unknown("x".repeat(500)).to_string();
    assert!(long.chars().count() < MAX_ECHO_CHARS + 10);
}

#[test]
fn info_message_lists_the_search_figures() {
    let info = SearchInfo {
        depth: 3,
        score: 12,
        nodes: 500,
        elapsed_ms: 10,
        pv: vec![Pos::new(7, 7).unwrap(), Pos::new(8, 8).unwrap()],
        ..SearchInfo::default()
    };
    assert_eq!(
        info_message(&info),
        "depth 3 score 12 nodes 500 speed 50000 time 10 pv 7,7 8,8"
    );
}
