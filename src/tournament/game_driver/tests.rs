//! Tests of the game driver over scripted brains on a fake clock: the manager's commands, every
//! way to lose, and the RESTART / respawn rules of the pool.

use super::*;
use crate::rule::Rule;
use crate::time::FakeClock;
use crate::tournament::engine_process::tests::Scripted;
use crate::tournament::engine_process::{Received, Transport};
use std::collections::VecDeque;
use std::io;
use std::sync::Mutex;

/// One process's answers: `(delay_ms, answer)`.
type Script = VecDeque<(u64, Received)>;

/// Each engine answers from its own scripts; every process start takes the next one.
struct ScriptSpawner {
    clock: Arc<FakeClock>,
    scripts: Mutex<Vec<VecDeque<Script>>>,
    sent: Vec<Arc<Mutex<Vec<String>>>>,
    events: Option<Arc<Mutex<Vec<String>>>>,
}

impl Spawner for ScriptSpawner {
    fn spawn(&self, index: usize) -> io::Result<Box<dyn Transport>> {
        let answers = self.scripts.lock().unwrap()[index]
            .pop_front()
            .unwrap_or_default();
        Ok(Box::new(Scripted {
            clock: Arc::clone(&self.clock),
            answers,
            sent: Arc::clone(&self.sent[index]),
            memory: |_| Some(10 << 20),
            events: self.events.as_ref().map(|log| (index, Arc::clone(log))),
        }))
    }
}

fn line(s: &str) -> (u64, Received) {
    (5, Received::Line(s.into()))
}

fn settings(rule: Rule, max_memory: u64) -> GameSettings {
    let engine = |name: &str| EngineSpec {
        name: name.into(),
        command: "x".into(),
        args: vec![],
        info: vec!["max_node 100".into()],
        strength: Some(3),
        memory_tolerance: 0,
    };
    GameSettings {
        judge: JudgeSettings {
            rule,
            size: 15,
            draw_after: None,
            opening_rule: crate::rules::opening::OpeningRule::None,
        },
        time: TimeControl {
            turn_ms: 100,
            match_ms: 1000,
            increment_ms: 10,
        },
        tolerance_ms: 50,
        max_memory,
        memory_check: true,
        pondering: false,
        start_timeout_ms: 100,
        engines: vec![engine("a"), engine("b")],
    }
}

fn spawner(scripts: Vec<Vec<Vec<(u64, Received)>>>) -> Arc<ScriptSpawner> {
    let n = scripts.len();
    Arc::new(ScriptSpawner {
        clock: Arc::new(FakeClock::default()),
        scripts: Mutex::new(
            scripts
                .into_iter()
                .map(|s| s.into_iter().map(VecDeque::from).collect())
                .collect(),
        ),
        sent: (0..n).map(|_| Arc::new(Mutex::new(Vec::new()))).collect(),
        events: None,
    })
}

fn job(opening: Vec<Pos>) -> GameJob {
    GameJob {
        index: 0,
        pair: (0, 1),
        black: 0,
        white: 1,
        opening: Opening {
            moves: opening,
            line: 1,
            symmetry: crate::tournament::openings::Symmetry::Identity,
        },
    }
}

fn pos(x: usize, y: usize) -> Pos {
    Pos::new(x, y).unwrap()
}

/// The answers of one brain's process, in order.
type Answers = Vec<(u64, Received)>;

/// The brains' answers of a game that black wins with a row on y = 0 while white plays on
/// y = 5.
fn five_game_brains() -> (Answers, Answers) {
    let black = std::iter::once(line("OK"))
        .chain((1..5).map(|x| line(&format!("{x},0"))))
        .collect();
    let white = std::iter::once(line("OK"))
        .chain((0..4).map(|x| line(&format!("{x},5"))))
        .collect();
    (black, white)
}

#[test]
fn drives_like_a_manager_and_judges_a_five() {
    // Black (engine 0) builds a row on y = 0; white answers on y = 5.
    let (black, white) = five_game_brains();
    let sp = spawner(vec![vec![black], vec![white]]);
    let clock: Arc<dyn Clock> = sp.clock.clone();
    let mut pool = EnginePool::new(sp.clone(), clock, 2);
    let r = play_game(
        &job(vec![pos(0, 0)]),
        &settings(Rule::Freestyle, 0),
        &mut pool,
    );
    assert_eq!((r.winner, r.reason), (Some(Color::Black), Reason::Five));
    assert_eq!(r.moves.len(), 9);
    assert_eq!(r.moves[1].ms, 5);
    let white_sent = sp.sent[1].lock().unwrap().clone();
    assert_eq!(white_sent[0], "START 15");
    assert!(white_sent.contains(&"INFO strength 3".to_string()));
    assert!(white_sent.contains(&"INFO max_node 100".to_string()));
    assert!(white_sent.contains(&"INFO rule 0".to_string()));
    // White's first request is BOARD with black's opening stone as the opponent's (2).
    let board = white_sent.iter().position(|l| l == "BOARD").unwrap();
    assert_eq!(white_sent[board - 1], "INFO time_left 1000");
    assert_eq!(&white_sent[board + 1..board + 3], ["0,0,2", "DONE"]);
    assert_eq!(white_sent[board + 3], "INFO time_left 1005");
    assert_eq!(white_sent[board + 4], "TURN 1,0");
    let black_sent = sp.sent[0].lock().unwrap().clone();
    let board = black_sent.iter().position(|l| l == "BOARD").unwrap();
    assert_eq!(
        &black_sent[board + 1..board + 4],
        ["0,0,1", "0,5,2", "DONE"]
    );
    // The kept brains are reused with RESTART.
    pool.shutdown();
}

#[test]
fn losses_by_time_illegal_crash_memory_and_foul() {
    let run = |rule: Rule, opening: Vec<Pos>, black: Vec<(u64, Received)>, memory| {
        let white = vec![line("OK"), line("14,14"), line("13,14")];
        let sp = spawner(vec![vec![black], vec![white]]);
        let clock: Arc<dyn Clock> = sp.clock.clone();
        let mut pool = EnginePool::new(sp, clock, 2);
        play_game(&job(opening), &settings(rule, memory), &mut pool)
    };
    let late = run(
        Rule::Freestyle,
        vec![],
        vec![line("OK"), (151, Received::Line("7,7".into()))],
        0,
    );
    assert_eq!(
        (late.winner, late.reason),
        (Some(Color::White), Reason::Time)
    );
    assert!(late.detail.contains("100 ms + 50 ms"), "{}", late.detail);
    let ontime = run(
        Rule::Freestyle,
        vec![],
        vec![line("OK"), (149, Received::Line("7,7".into())), line("7,7")],
        0,
    );
    assert_eq!(ontime.reason, Reason::Illegal);
    assert_eq!(ontime.bad_answer.as_deref(), Some("7,7"));
    assert!(ontime.detail.contains("occupied"), "{}", ontime.detail);
    let junk = run(Rule::Freestyle, vec![], vec![line("OK"), line("hello")], 0);
    assert_eq!(junk.reason, Reason::Illegal);
    let crash = run(
        Rule::Freestyle,
        vec![],
        vec![line("OK"), (3, Received::Closed)],
        0,
    );
    assert_eq!(
        (crash.winner, crash.reason),
        (Some(Color::White), Reason::Crash)
    );
    let fat = run(
        Rule::Freestyle,
        vec![],
        vec![line("OK"), line("7,7")],
        1 << 20,
    );
    assert_eq!(fat.reason, Reason::Memory);
    // h8 (7,7) is a double three for black.
    let opening = crate::tournament::judge::tests::double_three_opening();
    let foul = run(Rule::Renju, opening, vec![line("OK"), line("7,7")], 0);
    assert_eq!(
        (foul.winner, foul.reason),
        (Some(Color::White), Reason::Foul)
    );
    assert_eq!(foul.moves.len(), 9);
    assert!(foul.detail.contains("double-three"), "{}", foul.detail);
    let no_start = run(Rule::Freestyle, vec![], vec![line("ERROR size")], 0);
    assert_eq!(
        (no_start.winner, no_start.reason),
        (Some(Color::White), Reason::Crash)
    );
}

#[test]
fn restart_reuses_or_respawns() {
    // Engine 0: the first process answers OK to START and UNKNOWN to RESTART; the second
    // answers START again.
    let sp = spawner(vec![
        vec![vec![line("OK"), line("UNKNOWN RESTART")], vec![line("OK")]],
        vec![vec![line("OK"), line("OK")]],
    ]);
    let clock: Arc<dyn Clock> = sp.clock.clone();
    let mut pool = EnginePool::new(sp.clone(), clock, 2);
    for engine in [0, 1] {
        let c = pool.checkout(engine, 15, 100).unwrap();
        pool.checkin(engine, c);
    }
    for engine in [0, 1] {
        let c = pool.checkout(engine, 15, 100).unwrap();
        pool.checkin(engine, c);
    }
    let sent0 = sp.sent[0].lock().unwrap().clone();
    assert_eq!(sent0, ["START 15", "RESTART", "START 15"]);
    let sent1 = sp.sent[1].lock().unwrap().clone();
    assert_eq!(sent1, ["START 15", "RESTART"]);
}

/// The game of `drives_like_a_manager_and_judges_a_five`, with both brains' events in one log.
fn logged_game(pondering: bool) -> Vec<String> {
    let (black, white) = five_game_brains();
    let mut sp = spawner(vec![vec![black], vec![white]]);
    let log = Arc::new(Mutex::new(Vec::new()));
    Arc::get_mut(&mut sp).unwrap().events = Some(Arc::clone(&log));
    let clock: Arc<dyn Clock> = sp.clock.clone();
    let mut pool = EnginePool::new(sp.clone(), clock, 2);
    let s = GameSettings {
        pondering,
        ..settings(Rule::Freestyle, 0)
    };
    let r = play_game(&job(vec![pos(0, 0)]), &s, &mut pool);
    assert_eq!(r.reason, Reason::Five);
    pool.shutdown();
    log.lock().unwrap().clone()
}

#[test]
fn the_brain_not_to_move_is_suspended_and_resumed_before_it_is_sent_anything() {
    let log = logged_game(false);
    let mut suspended = [false, false];
    let mut playing = false;
    for e in &log {
        let (id, what) = e.split_once(' ').unwrap();
        let id: usize = id.parse().unwrap();
        match what {
            "suspend" => {
                suspended[id] = true;
                playing = true;
            }
            "resume" => suspended[id] = false,
            "think" => {
                assert!(!suspended[id], "a suspended brain waited on: {log:?}");
                // Once the moves have begun, the other one is stopped while this one thinks.
                if playing {
                    assert!(suspended[1 - id], "{e} while the other runs: {log:?}");
                }
            }
            send => assert!(!suspended[id], "sent '{send}' while suspended: {log:?}"),
        }
    }
    assert!(
        log.iter().filter(|e| e.ends_with("suspend")).count() >= 8,
        "{log:?}"
    );
    // With pondering allowed nobody is ever suspended.
    let log = logged_game(true);
    assert!(!log.iter().any(|e| e.ends_with("suspend")), "{log:?}");
}

fn opening_settings(rule: crate::rules::opening::OpeningRule) -> GameSettings {
    let mut s = settings(Rule::Freestyle, 0);
    s.judge.opening_rule = rule;
    s
}

#[test]
fn swap2_through_swap2board_with_a_swap() {
    use crate::rules::opening::OpeningRule;
    // a (the first player) proposes; b swaps and takes black, then makes five on y = 0.
    let a: Answers = [line("OK"), line("7,7 8,7 9,9")]
        .into_iter()
        .chain(["0,14", "1,14", "2,14", "3,14", "5,14"].map(line))
        .collect();
    let b: Answers = [line("OK"), line("SWAP")]
        .into_iter()
        .chain((0..5).map(|x| line(&format!("{x},0"))))
        .collect();
    let sp = spawner(vec![vec![a], vec![b]]);
    let clock: Arc<dyn Clock> = sp.clock.clone();
    let mut pool = EnginePool::new(sp.clone(), clock, 2);
    let r = play_game(
        &job(vec![]),
        &opening_settings(OpeningRule::Swap2),
        &mut pool,
    );
    assert_eq!(
        (r.winner, r.reason),
        (Some(Color::Black), Reason::Five),
        "{}",
        r.detail
    );
    assert_eq!((r.black_engine, r.white_engine), (1, 0));
    assert_eq!((r.black.as_str(), r.white.as_str()), ("b", "a"));
    assert_eq!(r.opening_stones, 3);
    assert_eq!(r.moves.len(), 13);
    let a_sent = sp.sent[0].lock().unwrap().clone();
    let k = a_sent.iter().position(|l| l == "SWAP2BOARD").unwrap();
    assert_eq!(a_sent[k + 1], "DONE");
    // a is white and moves first after the opening: BOARD with its white stone as its own.
    let board = a_sent.iter().position(|l| l == "BOARD").unwrap();
    assert_eq!(
        &a_sent[board + 1..board + 5],
        ["7,7,2", "8,7,1", "9,9,2", "DONE"]
    );
    let b_sent = sp.sent[1].lock().unwrap().clone();
    let k = b_sent.iter().position(|l| l == "SWAP2BOARD").unwrap();
    assert_eq!(&b_sent[k + 1..k + 5], ["7,7", "8,7", "9,9", "DONE"]);
    pool.shutdown();
}

#[test]
fn swap2_two_more_stones_then_the_first_player_takes_white() {
    use crate::rules::opening::OpeningRule;
    let a: Answers = vec![line("OK"), line("7,7 8,7 9,9"), line("0,14")];
    let b: Answers = vec![line("OK"), line("10,10 11,11"), line("junk")];
    let sp = spawner(vec![vec![a], vec![b]]);
    let clock: Arc<dyn Clock> = sp.clock.clone();
    let mut pool = EnginePool::new(sp.clone(), clock, 2);
    let r = play_game(
        &job(vec![]),
        &opening_settings(OpeningRule::Swap2),
        &mut pool,
    );
    // a took white with the 6th stone; b (black) then answered junk and lost.
    assert_eq!((r.winner, r.reason), (Some(Color::White), Reason::Illegal));
    assert_eq!((r.black_engine, r.white_engine), (1, 0));
    assert_eq!(r.opening_stones, 5);
    assert_eq!(r.moves.len(), 6);
    assert_eq!(r.moves[5].pos, pos(0, 14));
    let a_sent = sp.sent[0].lock().unwrap().clone();
    let k = a_sent.iter().rposition(|l| l == "SWAP2BOARD").unwrap();
    assert_eq!(
        &a_sent[k + 1..k + 7],
        ["7,7", "8,7", "9,9", "10,10", "11,11", "DONE"]
    );
    pool.shutdown();
}

#[test]
fn swap2_bad_answers_lose() {
    use crate::rules::opening::OpeningRule;
    for (first, second, loser) in [
        ("7,7 8,7", "SWAP", Color::Black),
        ("7,7 7,7 9,9", "SWAP", Color::Black),
        ("7,7 8,7 9,9", "1,1 2,2 3,3", Color::White),
        ("7,7 8,7 9,9", "99,1", Color::White),
    ] {
        let a: Answers = vec![line("OK"), line(first)];
        let b: Answers = vec![line("OK"), line(second)];
        let sp = spawner(vec![vec![a], vec![b]]);
        let clock: Arc<dyn Clock> = sp.clock.clone();
        let mut pool = EnginePool::new(sp.clone(), clock, 2);
        let r = play_game(
            &job(vec![]),
            &opening_settings(OpeningRule::Swap2),
            &mut pool,
        );
        assert_eq!(
            r.reason,
            Reason::Illegal,
            "{first} / {second}: {}",
            r.detail
        );
        assert_eq!(r.winner, Some(loser.opponent()), "{first} / {second}");
        assert!(r.bad_answer.is_some());
    }
}

#[test]
fn other_rules_are_decided_by_the_manager_and_repeat_exactly() {
    use crate::rules::opening::OpeningRule;
    let play = |rule| {
        let a: Answers = vec![line("OK"), line("junk")];
        let b: Answers = vec![line("OK"), line("junk")];
        let sp = spawner(vec![vec![a], vec![b]]);
        let clock: Arc<dyn Clock> = sp.clock.clone();
        let mut pool = EnginePool::new(sp, clock, 2);
        let mut s = opening_settings(rule);
        s.judge.rule = Rule::Renju;
        play_game(&job(vec![]), &s, &mut pool)
    };
    for (rule, stones) in [
        (OpeningRule::Rif, 5),
        (OpeningRule::Taraguchi10, 5),
        (OpeningRule::Pro, 3),
    ] {
        let r = play(rule);
        assert_eq!(r.opening_stones, stones, "{rule}");
        assert_eq!(r.moves.len(), stones, "{rule}");
        assert_eq!(
            r.reason,
            Reason::Illegal,
            "the first brain asked answered junk"
        );
        assert_eq!(r.moves, play(rule).moves, "{rule}: the same game again");
    }
}
