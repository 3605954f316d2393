//! Pente tournaments (`rule = "pente"`): omok's Pente players in-process, judged by the Pente
//! referee; deterministic results; spec validation.

mod common;

use omok::pente::PenteRules;
use omok::tournament::TournamentArgs;
use omok::tournament::pente::{GameLimits, PairResult, PenteTournament, play_game, run};

fn exe() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_BIN_EXE_pbrain-omok"))
}

/// Writes a spec into a temporary folder (removed when the returned guard is dropped).
fn spec(name: &str, body: &str) -> (common::TempDir, std::path::PathBuf) {
    let dir = common::TempDir::new(&format!("pente-{name}"));
    let path = dir.path().join(format!("{name}.toml"));
    std::fs::write(&path, body).unwrap();
    (dir, path)
}

fn args(path: std::path::PathBuf) -> TournamentArgs {
    TournamentArgs {
        spec: path,
        ..TournamentArgs::default()
    }
}

const SMALL: &str = r#"
rule = "pente"
games = 4
format = "gauntlet"
concurrency = 2
[pente]
boardSize = 9
[[engine]]
level = 3
nodes = 1500
[[engine]]
player = "capture-greedy"
[[engine]]
level = 1
"#;

#[test]
fn a_small_gauntlet_is_deterministic() {
    let (_dir, path) = spec("small", SMALL);
    let t = PenteTournament::load(&args(path), &exe()).unwrap();
    assert_eq!(t.pairs, vec![(0, 1), (0, 2)]);
    let a = run(&t);
    let b = run(&t);
    assert_eq!(a, b);
    for line in &a {
        assert_eq!(line.wins + line.losses + line.draws, 4);
    }
    let (_bin_dir, bin_path) = spec("bin", SMALL);
    let out = common::run_binary(&["tournament", bin_path.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Pente 9x9, 4 games per pair"), "{text}");
    assert!(text.contains("L3 vs capture-greedy: +"), "{text}");
}

#[test]
fn bad_specs_are_refused() {
    for body in [
        "rule = \"pente\"\n[pente]\nboardSize = 10\n[[engine]]\nlevel = 1\n[[engine]]\nlevel = 2\n",
        "rule = \"pente\"\n[[engine]]\nlevel = 9\n[[engine]]\nlevel = 2\n",
        "rule = \"pente\"\n[[engine]]\nlevel = 1\n",
        "rule = \"pente\"\n[pente]\nplayers = 3\n[[engine]]\nlevel = 1\n[[engine]]\nlevel = 2\n",
    ] {
        assert!(
            PenteTournament::load(&args(spec("bad", body).1), &exe()).is_err(),
            "{body}"
        );
    }
}

#[test]
fn a_referee_judged_game_ends_with_a_result() {
    let (_dir, path) = spec("one", SMALL);
    let t = PenteTournament::load(&args(path), &exe()).unwrap();
    let rules = PenteRules {
        board_size: 9,
        ..PenteRules::default()
    };
    let limits = GameLimits::new(rules, 200);
    let r = play_game(&limits, &t.players[0], &t.players[1], true, 5);
    assert_eq!(r, play_game(&limits, &t.players[0], &t.players[1], true, 5));
    assert_ne!(r, PairResult::Draw);
}

#[test]
fn omok_brains_play_pente_over_the_protocol() {
    // omok's own Piskvork brain (a subprocess told `INFO omok_rule pente`) against an
    // in-process level and against itself, every move judged by the referee.
    let body = r#"
rule = "pente"
games = 2
format = "round-robin"
concurrency = 2
turn_ms = 5000
[pente]
boardSize = 9
threeCapture = true
[[engine]]
name = "brain"
command = "self"
info = ["max_node 800"]
[[engine]]
level = 2
[[engine]]
name = "brain-2"
command = "self"
info = ["max_node 300", "strength 20"]
"#;
    let (_dir, path) = spec("brains", body);
    let t = PenteTournament::load(&args(path.clone()), &exe()).unwrap();
    let lines = run(&t);
    for l in &lines {
        assert_eq!(l.wins + l.losses + l.draws, 2, "{l:?}");
    }
    assert_eq!(run(&t), lines, "node-limited brains are deterministic");
    let out = common::run_binary(&["tournament", path.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("brain vs L2: +"), "{text}");
}
