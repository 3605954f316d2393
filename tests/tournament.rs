//! The tournament runner end to end, with real processes: omok at two practice levels and a
//! scripted brain that misbehaves on purpose (`tests/engines/misbehave.py`: late, occupied,
//! crash, junk, memory, renju foul, no RESTART).
//!
//! - every misbehaviour loses, with the right reason, in both colours, and the run goes on;
//! - the omok-vs-omok games of that gauntlet are exactly those of a clean two-engine run (the
//!   bad engines affect nothing else), and two clean runs with the same seed and node-limited
//!   engines give the same records whatever the concurrency;
//! - brains are reused with `RESTART` when they answer `OK`, started afresh when they do not;
//! - the records (.psq, SGF, JSON lines, HTML) are written, and the command line works (two
//!   runs compared game by game with `compare` included);
//! - an engine that cannot start stops the run before any game; a used output folder is
//!   refused unless replacing it is asked for; errors are said once; the progress is plain lines
//!   when stderr is not a terminal;
//! - memory is judged while a brain thinks; the brain not to move is suspended unless pondering
//!   is allowed.
//!
//! Nothing here sleeps or asserts on time: the "late" brain sleeps itself, and the runner's own
//! deadline ends its game. Boards are 9×9 and the omok levels node-limited, to stay fast.

use std::path::{Path, PathBuf};
use std::process::Command;

use omok::Color;
use omok::tournament::judge::Reason;
use omok::tournament::records::GameRecord;
use omok::tournament::{ProgressOut, TournamentArgs, TournamentSpec};

fn omok() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_pbrain-omok"))
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.py")
}

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("omok-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An `[[engine]]` running the misbehaving script.
fn bad(name: &str, args: &[&str]) -> String {
    let mut all = vec![script().display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let quoted: Vec<String> = all.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "[[engine]]\nname = \"{name}\"\ncommand = \"python3\"\nargs = [{}]\n",
        quoted.join(", ")
    )
}

const OMOK_PAIR: &str = "[[engine]]\nstrength = 10\n[[engine]]\nstrength = 0\n";

/// Writes `header` (top-level keys, then tables) and `body` (the `[[engine]]`s) as a spec in
/// `dir`, with its output in `dir/out`, and runs it.
fn run(dir: &Path, header: &str, body: &str) -> omok::tournament::Summary {
    try_run(dir, header, body).unwrap()
}

/// [`run`], returning the runner's error.
fn try_run(
    dir: &Path,
    header: &str,
    body: &str,
) -> Result<omok::tournament::Summary, omok::tournament::TournamentError> {
    let text = format!("output = \"out\"\n{header}\n{body}");
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).unwrap();
    let args = TournamentArgs {
        spec: path,
        ..TournamentArgs::default()
    };
    let spec = TournamentSpec::load(&args, omok()).unwrap();
    let mut sink = std::io::sink();
    let mut progress = ProgressOut {
        out: &mut sink,
        terminal: false,
    };
    omok::tournament::run(&spec, &mut progress)
}

/// A 9×9 freestyle header with two openings.
fn freestyle_header(dir: &Path, concurrency: usize) -> String {
    std::fs::write(dir.join("openings.txt"), "0,0, 1,1, -1,1\n0,0, 0,-1, 1,0\n").unwrap();
    format!(
        "rule = \"freestyle\"\nboard_size = 9\ngames = 4\nconcurrency = {concurrency}\nseed = 7\n\
         tolerance_ms = 500\nmax_memory_mb = 120\n\
         [time]\nturn_ms = 1000\n[openings]\nfile = \"openings.txt\"\norder = \"random\"\n"
    )
}

/// A game's players, stones, winner and reason (no thinking times).
type GameSummary = (String, String, Vec<(usize, usize)>, Option<Color>, Reason);

/// Moves and results, without the thinking times.
fn games_of(records: &[GameRecord]) -> Vec<GameSummary> {
    records
        .iter()
        .map(|r| {
            (
                r.black.clone(),
                r.white.clone(),
                r.moves.iter().map(|m| (m.pos.x(), m.pos.y())).collect(),
                r.winner,
                r.reason,
            )
        })
        .collect()
}

fn count(log: &Path, word: &str) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.split_whitespace().next() == Some(word))
        .count()
}

#[test]
fn misbehaving_brains_lose_by_the_right_reason_and_nothing_else_changes() {
    let dir = temp_dir("gauntlet");
    let good_log = dir.join("good.log");
    let fresh_log = dir.join("fresh.log");
    let mut body = OMOK_PAIR.to_string();
    body.push_str(&bad("late", &["late", "--sleep-ms", "4000"]));
    body.push_str(&bad("occupied", &["occupied"]));
    body.push_str(&bad("crash", &["crash"]));
    body.push_str(&bad("junk", &["junk"]));
    body.push_str(&bad("memory", &["memory"]));
    body.push_str(&bad("hog", &["memory-hang"]));
    body.push_str(&bad(
        "good",
        &["good", "--log", &good_log.display().to_string()],
    ));
    body.push_str(&bad(
        "fresh",
        &[
            "good",
            "--no-restart",
            "--log",
            &fresh_log.display().to_string(),
        ],
    ));
    let header = format!("format = \"gauntlet\"\n{}", freestyle_header(&dir, 2));
    let summary = run(&dir, &header, &body);
    assert_eq!(summary.records.len(), 9 * 4, "every game is played");
    let by = |name: &str| -> Vec<&GameRecord> {
        summary
            .records
            .iter()
            .filter(|r| r.black == name || r.white == name)
            .collect()
    };
    for (name, reason) in [
        ("late", Reason::Time),
        ("occupied", Reason::Illegal),
        ("crash", Reason::Crash),
        ("junk", Reason::Illegal),
        ("memory", Reason::Memory),
        // Past the limit and then silent: caught while it thinks, not by the clock.
        ("hog", Reason::Memory),
    ] {
        let games = by(name);
        assert_eq!(games.len(), 4, "{name}");
        for r in games {
            let loser = r.loser().map(|c| r.name(c).to_string());
            assert_eq!(loser.as_deref(), Some(name), "{name}: {r:?}");
            assert_eq!(r.reason, reason, "{name}: {}", r.detail);
        }
    }
    let hog = by("hog")[0];
    assert!(
        hog.detail
            .contains("anonymous resident memory, limit 120 MiB"),
        "{}",
        hog.detail
    );
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("hog lost a game by memory")),
        "{:?}",
        summary.notes
    );
    let late = by("late")[0];
    assert!(late.detail.contains("1000 ms + 500 ms"), "{}", late.detail);
    let occupied = by("occupied")[0];
    assert!(occupied.detail.contains("occupied") && occupied.bad_answer.is_some());
    assert!(
        by("crash")[0].detail.contains("exit status 3"),
        "{}",
        by("crash")[0].detail
    );
    // The well-behaved brains lose on the board only.
    for name in ["good", "fresh"] {
        for r in by(name) {
            assert!(
                matches!(r.reason, Reason::Five | Reason::BoardFull),
                "{name}: {r:?}"
            );
        }
    }
    // RESTART reuses a brain that answers OK (one process per worker at most); the other is
    // started afresh for each of its 4 games. Each was started once more, alone, for the check
    // before the first game.
    let (starts, restarts) = (count(&good_log, "START") - 1, count(&good_log, "RESTART"));
    assert!(starts <= 2 && starts + restarts == 4, "{starts} {restarts}");
    assert_eq!(count(&fresh_log, "START"), 1 + 4);
    // The omok pair's games are those of a clean run of the same spec.
    let omok_games: Vec<GameRecord> = summary
        .records
        .iter()
        .filter(|r| r.pair == (0, 1))
        .cloned()
        .collect();
    let clean_dir = temp_dir("clean");
    let clean = run(
        &clean_dir,
        &format!("format = \"gauntlet\"\n{}", freestyle_header(&clean_dir, 2)),
        OMOK_PAIR,
    );
    assert_eq!(games_of(&omok_games), games_of(&clean.records));
    for r in &clean.records {
        assert!(
            matches!(r.reason, Reason::Five | Reason::BoardFull),
            "{r:?}"
        );
    }
    // The files: one log line, one .psq and one .sgf per game, and the report.
    let out = dir.join("out");
    let log = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 36);
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(first["game"], 1);
    let files: Vec<_> = std::fs::read_dir(out.join("games")).unwrap().collect();
    assert_eq!(files.len(), 72);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 36);
    assert!(
        html.contains("time 4") && html.contains("memory 4"),
        "the losses table"
    );
    assert!(html.contains("memory_tolerance_mb"), "the memory note");
    let psq = std::fs::read_to_string(
        out.join("games")
            .join(summary.records[0].file_stem() + ".psq"),
    )
    .unwrap();
    assert!(psq.starts_with("Piskvorky 9x9, 11:11, 0\n"), "{psq}");
    for d in [dir, clean_dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn same_seed_same_records_whatever_the_concurrency() {
    let a_dir = temp_dir("repeat-a");
    let b_dir = temp_dir("repeat-b");
    let a = run(&a_dir, &freestyle_header(&a_dir, 2), OMOK_PAIR);
    let b = run(&b_dir, &freestyle_header(&b_dir, 1), OMOK_PAIR);
    assert_eq!(a.records.len(), 4);
    assert_eq!(games_of(&a.records), games_of(&b.records));
    // The logs agree line by line once the thinking times are left out.
    let strip = |dir: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(dir.join("out/games.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                for m in v["moves"].as_array_mut().unwrap() {
                    m.as_array_mut().unwrap().truncate(2);
                }
                v
            })
            .collect()
    };
    assert_eq!(strip(&a_dir), strip(&b_dir));
    // `compare` pairs the two runs game by game: the same results, no difference.
    let out = Command::new(omok())
        .arg("compare")
        .arg(a_dir.join("out"))
        .arg(b_dir.join("out/games.jsonl"))
        .args(["--engine", "omok-s10"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("common games: 4 (only in the base: 0"),
        "{stdout}"
    );
    assert!(stdout.contains("paired: +0.0 points"), "{stdout}");
    assert!(stdout.contains("0 games differ"), "{stdout}");
    // A run that is not there is an error naming the file.
    let out = Command::new(omok())
        .arg("compare")
        .arg(a_dir.join("out"))
        .arg(a_dir.join("missing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("missing"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for d in [a_dir, b_dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_renju_foul_loses_and_the_stone_stands() {
    let dir = temp_dir("foul");
    // Black f8 g8 h10 h9, white in the corners: h8 (7,7) is a double three for black.
    std::fs::write(
        dir.join("openings.txt"),
        "-2,0, -7,-7, -1,0, 7,7, 0,-2, -7,7, 0,-1, 7,-7\n",
    )
    .unwrap();
    let header = "rule = \"renju\"\nboard_size = 15\nconcurrency = 2\n[time]\nturn_ms = 2000\n\
                  [openings]\nfile = \"openings.txt\"\n";
    let body = format!(
        "[[engine]]\nstrength = 10\n{}",
        bad("fouler", &["foul", "--after", "1", "--at", "7,7"])
    );
    let summary = run(&dir, header, &body);
    assert_eq!(summary.records.len(), 2);
    let foul = summary
        .records
        .iter()
        .find(|r| r.black == "fouler")
        .unwrap();
    assert_eq!(
        (foul.winner, foul.reason),
        (Some(Color::White), Reason::Foul)
    );
    assert_eq!(foul.moves.len(), 9, "the foul stone stands");
    assert!(foul.detail.contains("double-three"), "{}", foul.detail);
    let other = summary
        .records
        .iter()
        .find(|r| r.white == "fouler")
        .unwrap();
    assert_ne!(
        other.reason,
        Reason::Foul,
        "omok never plays a forbidden point"
    );
    let sgf =
        std::fs::read_to_string(dir.join("out/games").join(foul.file_stem() + ".sgf")).unwrap();
    assert!(
        sgf.contains("RE[W+F]") && sgf.contains("RU[renju]"),
        "{sgf}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_command_line_runs_a_spec_with_overrides() {
    let dir = temp_dir("cli");
    let spec = dir.join("cli.toml");
    std::fs::write(
        &spec,
        format!("board_size = 15\ngames = 10\n[time]\nturn_ms = 1000\n{OMOK_PAIR}"),
    )
    .unwrap();
    let out = Command::new(omok())
        .args(["tournament", &spec.display().to_string()])
        .args(["--games", "2", "--size", "9", "--concurrency", "2"])
        .args(["--output", &dir.join("res").display().to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("omok-s10  omok-s0"), "{stdout}");
    assert!(stdout.contains("2 of 2 games"), "{stdout}");
    assert!(dir.join("res/report.html").exists());
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("2/2 games"), "{progress}");
    // Not a terminal: plain lines, never redrawn with a carriage return.
    assert!(!progress.contains('\r'), "{progress:?}");
    assert_eq!(progress.lines().count(), 1, "{progress:?}");
    // A bad spec is an error with a message, not a panic.
    let out = Command::new(omok())
        .args(["tournament", &spec.display().to_string(), "--sprt", "5,1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("below"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_before_any_game() {
    let dir = temp_dir("cannot-start");
    let header = "board_size = 9\ngames = 2\nstart_timeout_ms = 300\n";
    let not_executable = dir.join("pbrain-plain");
    std::fs::write(&not_executable, "not a program\n").unwrap();
    let cases = [
        (
            "[[engine]]\ncommand = \"/nonexistent/pbrain-x\"\n".to_string(),
            "pbrain-x",
            "No such file",
        ),
        (
            format!(
                "[[engine]]\ncommand = {:?}\n",
                not_executable.display().to_string()
            ),
            "pbrain-plain",
            "ermission denied",
        ),
        (
            bad("mute", &["silent"]),
            "mute",
            "START 9 failed: no answer within 300 ms",
        ),
    ];
    // The broken engine comes first: the first engine in spec order that cannot play is the
    // error, so omok's own start (slow in a debug build on a loaded machine) cannot decide it.
    for (engine, name, cause) in cases {
        let body = format!("{engine}[[engine]]\nstrength = 0\n");
        let err = try_run(&dir, header, &body)
            .err()
            .expect("an error")
            .to_string();
        assert!(err.contains(&format!("engine {name} (")), "{err}");
        assert!(err.contains(cause), "{err}");
        assert!(!dir.join("out").exists(), "no game was played: {err}");
    }
    // Through the binary: a non-zero exit and one line that says which engine and why.
    let spec = dir.join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "{header}[[engine]]\ncommand = \"/nonexistent/pbrain-x\"\n[[engine]]\nstrength = 0\n"
        ),
    )
    .unwrap();
    let out = Command::new(omok())
        .args(["tournament", &spec.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: engine pbrain-x ("), "{stderr}");
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_used_output_folder_is_refused_unless_replacing_it_is_asked() {
    let dir = temp_dir("rerun");
    let header = "board_size = 9\ngames = 2\n[time]\nturn_ms = 1000\n";
    run(&dir, header, OMOK_PAIR);
    let log = dir.join("out/games.jsonl");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
    let err = try_run(&dir, header, OMOK_PAIR)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("already holds games, games.jsonl, report.html"),
        "{err}"
    );
    assert!(
        err.contains("--force") && err.contains("overwrite = true"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().lines().count(),
        2,
        "untouched"
    );
    // `overwrite = true` replaces the records: one game now, nothing of the first run left.
    std::fs::write(dir.join("out/mine.txt"), "a note of the user's").unwrap();
    run(
        &dir,
        "overwrite = true\nboard_size = 9\ngames = 1\n",
        OMOK_PAIR,
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1);
    assert_eq!(std::fs::read_dir(dir.join("out/games")).unwrap().count(), 2);
    assert!(
        dir.join("out/mine.txt").exists(),
        "only the records are replaced"
    );
    // And `--force` on the command line.
    std::fs::write(
        dir.join("spec.toml"),
        format!("output = \"out\"\n{header}\n{OMOK_PAIR}"),
    )
    .unwrap();
    let out = Command::new(omok())
        .args(["tournament", &dir.join("spec.toml").display().to_string()])
        .args(["--games", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "refused without --force");
    let out = Command::new(omok())
        .args(["tournament", &dir.join("spec.toml").display().to_string()])
        .args(["--games", "1", "--force"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn errors_are_said_once_and_name_the_file() {
    let dir = temp_dir("errors");
    let missing = dir.join("missing.toml");
    let out = Command::new(omok())
        .args(["tournament", &missing.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.toml"), "{stderr}");
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
    let spec = dir.join("bogus.toml");
    std::fs::write(&spec, format!("games = 2\nbogus = 1\n{OMOK_PAIR}")).unwrap();
    let out = Command::new(omok())
        .args(["tournament", &spec.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bogus.toml") && stderr.contains("line 2"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("unknown field `bogus`").count(),
        1,
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A pondering brain and one that watches whether it runs while the watcher thinks.
fn ponder_watch(dir: &Path, pondering: bool) -> Vec<String> {
    let ticks = dir.join("ticks");
    let log = dir.join("watch.log");
    let _ = std::fs::remove_file(&log);
    let body = format!(
        "{}{}",
        bad(
            "ponderer",
            &["good", "--ponder-file", &ticks.display().to_string()]
        ),
        bad(
            "watcher",
            &[
                "good",
                "--watch",
                &ticks.display().to_string(),
                "--log",
                &log.display().to_string()
            ]
        )
    );
    let header = format!(
        "overwrite = true\npondering = {pondering}\nboard_size = 9\ngames = 2\n[time]\nturn_ms = 5000\n"
    );
    let summary = run(dir, &header, &body);
    assert_eq!(summary.records.len(), 2);
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("WATCH"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_brain_not_to_move_is_suspended_unless_pondering_is_allowed() {
    let dir = temp_dir("ponder");
    let still = ponder_watch(&dir, false);
    assert_eq!(still.len(), 4, "{still:?}");
    assert!(still.iter().all(|l| l == "WATCH still"), "{still:?}");
    let grew = ponder_watch(&dir, true);
    assert_eq!(grew.len(), 4, "{grew:?}");
    assert!(grew.iter().any(|l| l == "WATCH grew"), "{grew:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn opening_rules_swap2_through_swap2board_and_rif_decided_by_the_manager() {
    let dir = temp_dir("opening-rules");
    let engines = "[[engine]]\nstrength = 10\ninfo = [\"max_node 2000\"]\n\
                   [[engine]]\nstrength = 0\ninfo = [\"max_node 2000\"]\n";
    for rule in ["swap2", "rif"] {
        let header = format!(
            "rule = \"freestyle\"\nboard_size = 9\ngames = 2\nconcurrency = 2\n\
             opening_rule = \"{rule}\"\noverwrite = true\n[time]\nturn_ms = 3000\n"
        );
        let summary = run(&dir, &header, engines);
        assert_eq!(summary.records.len(), 2, "{rule}");
        for r in &summary.records {
            assert!(
                matches!(
                    r.reason,
                    Reason::Five | Reason::BoardFull | Reason::NoLegalMove
                ),
                "{rule}: {:?} {}",
                r.reason,
                r.detail
            );
            assert!(r.opening_stones >= 3, "{rule}");
            assert_ne!(r.black_engine, r.white_engine);
        }
    }
    // Rules other than swap2 need omok engines; no opening file beside a rule.
    let spec = |extra: &str, body: &str| {
        let path = dir.join("bad.toml");
        std::fs::write(&path, format!("{extra}\n{body}")).unwrap();
        let args = TournamentArgs {
            spec: path,
            ..TournamentArgs::default()
        };
        TournamentSpec::load(&args, omok())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let body = format!("[[engine]]\nstrength = 1\n{}", bad("peer", &["junk"]));
    let e = spec("opening_rule = \"rif\"", &body);
    assert!(e.contains("omok engines only") && e.contains("peer"), "{e}");
    std::fs::write(dir.join("o.txt"), "0,0\n").unwrap();
    let e = spec(
        "opening_rule = \"swap2\"\n[openings]\nfile = \"o.txt\"",
        OMOK_PAIR,
    );
    assert!(e.contains("exclude each other"), "{e}");
    let e = spec("opening_rule = \"yamaguchi\"", OMOK_PAIR);
    assert!(e.contains("unknown opening rule"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Every spec shipped in tournaments/ loads (Pente's by its own loader): its TOML, its `${VAR}`s (the peers' variables set
/// here to made-up paths) and its opening file.
#[test]
fn shipped_specs_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tournaments");
    let mut specs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    specs.sort();
    assert!(specs.len() >= 10, "{specs:?}");
    let env = |name: &str| {
        name.starts_with("OMOK_PEER_")
            .then(|| format!("/opt/peers/{name}"))
    };
    for path in specs {
        let args = TournamentArgs {
            spec: path.clone(),
            ..TournamentArgs::default()
        };
        if omok::tournament::pente::is_pente_spec(&path) {
            omok::tournament::pente::PenteTournament::load(&args, omok())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        let spec = TournamentSpec::load_with_env(&args, omok(), &env)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(spec.engines.len() >= 2, "{}", path.display());
        if spec.openings_file.is_some() {
            assert!(!spec.openings.is_empty(), "{}", path.display());
        }
    }
}
