//! Tests of the spec: defaults, overrides, errors and the arrangement of openings.

use super::*;

fn build(text: &str, args: &TournamentArgs) -> Result<TournamentSpec, SpecError> {
    let file: SpecFile = toml::from_str(text).map_err(|e| SpecError::Toml {
        path: "t.toml".into(),
        source: Box::new(e),
    })?;
    TournamentSpec::build(file, Path::new("/specs"), "t", args, Path::new("/bin/omok"))
}

const TWO: &str = "[[engine]]\nstrength = 10\n[[engine]]\nstrength = 0\n";

#[test]
fn defaults_and_engine_names() {
    let s = build(TWO, &TournamentArgs::default()).unwrap();
    assert_eq!(s.name, "t");
    assert_eq!(
        (s.rule, s.size, s.games, s.repeat),
        (Rule::Freestyle, 15, 2, true)
    );
    assert_eq!(s.names(), ["omok-s10", "omok-s0"]);
    assert_eq!(s.engines[0].command, PathBuf::from("/bin/omok"));
    assert_eq!(s.openings, vec![Opening::empty()]);
    assert_eq!(s.draw_after, None);
    assert_eq!(s.pairs(), [(0, 1)]);
    let text = "rule = 'renju'\n[[engine]]\ncommand = 'engines/pbrain-x'\n\
                [[engine]]\ncommand = 'python3'\nargs = ['x.py']\n[[engine]]\ncommand = 'python3'\n";
    let s = build(text, &TournamentArgs::default()).unwrap();
    assert_eq!(s.draw_after, Some(200));
    assert_eq!(s.names(), ["pbrain-x", "python3", "python3#2"]);
    assert_eq!(
        s.engines[0].command,
        PathBuf::from("/specs/engines/pbrain-x")
    );
    assert_eq!(s.engines[1].command, PathBuf::from("python3"));
    assert_eq!(s.pairs(), [(0, 1), (0, 2), (1, 2)]);
}

#[test]
fn the_command_line_wins() {
    let text = format!("games = 10\nconcurrency = 3\n[time]\nturn_ms = 500\n{TWO}");
    let args = TournamentArgs {
        games: Some(4),
        turn_ms: Some(200),
        rule: Some(Rule::Standard),
        format: Some(Format::Gauntlet),
        sprt: Some("0,20".into()),
        ..TournamentArgs::default()
    };
    let s = build(&text, &args).unwrap();
    assert_eq!((s.games, s.concurrency, s.time.turn_ms), (4, 3, 200));
    assert_eq!((s.rule, s.format), (Rule::Standard, Format::Gauntlet));
    assert_eq!(s.sprt.unwrap().elo1, 20.0);
    assert_eq!(s.sprt.unwrap().alpha, 0.05);
}

#[test]
fn bad_specs_are_explained() {
    let err = |text: &str| {
        build(text, &TournamentArgs::default())
            .unwrap_err()
            .to_string()
    };
    assert!(err("[[engine]]\nstrength = 1\n").contains("at least two"));
    assert!(err("bogus = 1\n").contains("bogus"));
    assert!(err(&format!("board_size = 40\n{TWO}")).contains("5..=32"));
    assert!(err(&format!("[time]\nturn_ms = 0\n{TWO}")).contains("both 0"));
    assert!(err("[[engine]]\nstrength = 101\n[[engine]]\nstrength = 1\n").contains("0..=100"));
    assert!(
        err("[[engine]]\nstrength = 1\ncommand = 'x'\n[[engine]]\nstrength = 1\n")
            .contains("not both")
    );
    let three = format!("{TWO}[[engine]]\nstrength = 5\n[sprt]\nelo0 = 0\nelo1 = 5\n");
    assert!(err(&three).contains("exactly two"));
    assert!(err(&format!("[sprt]\nelo0 = 5\nelo1 = 0\n{TWO}")).contains("below"));
    assert!(err(&format!("games = 0\n{TWO}")).contains("at least 1"));
    let args = TournamentArgs {
        sprt: Some("1".into()),
        ..TournamentArgs::default()
    };
    assert!(build(TWO, &args).is_err());
}

#[test]
fn openings_are_arranged_by_mode_and_seed() {
    let o = |line, moves: Vec<(usize, usize)>| Opening {
        moves: moves
            .into_iter()
            .map(|(x, y)| crate::core::Pos::new(x, y).unwrap())
            .collect(),
        line,
        symmetry: Symmetry::Identity,
    };
    let list = vec![
        o(1, vec![(7, 7), (7, 6)]),
        o(2, vec![(7, 7), (8, 6), (9, 9)]),
    ];
    let all = arrange_openings(
        list.clone(),
        15,
        SymmetryMode::All,
        OpeningOrder::Sequential,
        1,
    );
    assert_eq!(all.len(), 4 + 8);
    let a = arrange_openings(
        list.clone(),
        15,
        SymmetryMode::Random,
        OpeningOrder::Random,
        7,
    );
    let b = arrange_openings(
        list.clone(),
        15,
        SymmetryMode::Random,
        OpeningOrder::Random,
        7,
    );
    assert_eq!(a, b);
    let many: Vec<Opening> = (1..=20).map(|l| o(l, vec![(l % 15, 0)])).collect();
    let shuffled = arrange_openings(
        many.clone(),
        15,
        SymmetryMode::None,
        OpeningOrder::Random,
        3,
    );
    assert_ne!(shuffled, many);
    let mut lines: Vec<usize> = shuffled.iter().map(|o| o.line).collect();
    lines.sort_unstable();
    assert_eq!(lines, (1..=20).collect::<Vec<_>>());
}

/// Writes `text` as a spec file in a fresh temporary folder and loads it with `env`.
fn load_text(name: &str, text: &str, env: EnvLookup<'_>) -> Result<TournamentSpec, SpecError> {
    let dir = std::env::temp_dir().join(format!("omok-spec-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).unwrap();
    let args = TournamentArgs {
        spec: path,
        ..TournamentArgs::default()
    };
    let out = TournamentSpec::load_with_env(&args, Path::new("/bin/omok"), env);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn peer_env(name: &str) -> Option<String> {
    (name == "OMOK_PEER_X").then(|| "/opt/peers/pbrain-x".to_string())
}

#[test]
fn environment_variables_in_commands_args_and_paths() {
    let text = "output = '${OMOK_PEER_X}-results'\n\
                [[engine]]\ncommand = '${OMOK_PEER_X}'\nargs = ['--hash', '$${OMOK_PEER_X}']\n\
                info = ['note ${OMOK_PEER_X}']\n[[engine]]\nstrength = 1\n";
    let s = load_text("env", text, &peer_env).unwrap();
    assert_eq!(s.engines[0].command, PathBuf::from("/opt/peers/pbrain-x"));
    assert_eq!(s.engines[0].name, "pbrain-x");
    assert_eq!(s.engines[0].args, ["--hash", "${OMOK_PEER_X}"]);
    assert_eq!(s.engines[0].info, ["note /opt/peers/pbrain-x"]);
    assert_eq!(s.output, Some(PathBuf::from("/opt/peers/pbrain-x-results")));
    // Unset: the variable, the key and the file are named.
    let text = "[[engine]]\nstrength = 1\n[[engine]]\ncommand = '${OMOK_PEER_AIWINE}'\n";
    let e = load_text("unset", text, &peer_env).unwrap_err().to_string();
    assert!(e.contains("OMOK_PEER_AIWINE is not set"), "{e}");
    assert!(
        e.contains("engine 2 command") && e.contains("spec.toml"),
        "{e}"
    );
    let text = "[[engine]]\nstrength = 1\n[[engine]]\ncommand = 'x'\nargs = ['${A']\n";
    let e = load_text("bad", text, &peer_env).unwrap_err().to_string();
    assert!(e.contains("engine 2 args[0]"), "{e}");
}

#[test]
fn a_command_with_spaces_and_no_args_is_split_into_words() {
    let text = "[[engine]]\ncommand = '/p/pbrain-omok --config x.toml'\n\
                [[engine]]\ncommand = \"'/My Engines/pbrain-y'\"\n\
                [[engine]]\ncommand = '/My Engines/pbrain-z'\nargs = ['-q']\n";
    let s = build(text, &TournamentArgs::default()).unwrap();
    assert_eq!(s.engines[0].command, PathBuf::from("/p/pbrain-omok"));
    assert_eq!(s.engines[0].args, ["--config", "x.toml"]);
    assert_eq!(s.names(), ["pbrain-omok", "pbrain-y", "pbrain-z"]);
    assert_eq!(s.engines[1].command, PathBuf::from("/My Engines/pbrain-y"));
    assert!(s.engines[1].args.is_empty());
    // With args, the command is one path, spaces and all.
    assert_eq!(s.engines[2].command, PathBuf::from("/My Engines/pbrain-z"));
    let e = build(
        "[[engine]]\ncommand = \"x 'y\"\n[[engine]]\nstrength = 1\n",
        &TournamentArgs::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("engine 1 command") && e.contains("unclosed"),
        "{e}"
    );
}

#[test]
fn invalid_values_name_the_file() {
    let e = load_text("size", &format!("board_size = 40\n{TWO}"), &peer_env)
        .unwrap_err()
        .to_string();
    assert!(e.contains("spec.toml: board_size 40"), "{e}");
}
