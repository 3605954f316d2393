//! A scripted match of the brain against itself through the Piskvork protocol: 20 games between
//! two `pbrain-omok` processes under a 100 ms turn limit (every other game also under a match
//! clock, with `time_left` sent before every move, as Gomocup does), across freestyle, standard,
//! renju and caro, on 15×15 and 20×20, each game from its own opening sent with `BOARD`.
//!
//! The test plays the referee: every answer must be a legal point (on the board, empty, and for
//! renju black not forbidden). It counts time-outs the way managers do — an answer later than
//! the limit (the turn time, capped by the match time left) plus [`TOLERANCE`] — and requires
//! none. Latencies are measured and printed (the worst one, and how many answers exceeded the
//! bare limit), never asserted: the test must not depend on the machine's speed.
//!
//! Two games run at a time (one thinking brain per game, two cores).

mod common;

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use omok::rules::{forbidden, winning_line};
use omok::{Board, Color, Pos, Rule};

const GAMES: usize = 20;
const TURN_MS: u64 = 100;
/// Match time of the odd-numbered games.
const MATCH_MS: u64 = 4_000;
/// What managers add to the limit before calling an answer late (Piskvork, GomocupJudge: 1 s).
const TOLERANCE: Duration = Duration::from_millis(1_000);
/// The longest the test waits for any answer before calling the brain hung.
const GUARD: Duration = Duration::from_secs(20);
const PARALLEL: usize = 2;

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn new() -> Session {
        let (child, stdin, lines) = common::spawn_binary(&[]);
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("brain alive");
        self.stdin.flush().expect("brain alive");
    }

    /// The next answer that is not a `MESSAGE`.
    fn answer(&mut self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(GUARD)
                .expect("the brain died or hung");
            if !line.starts_with("MESSAGE") {
                return line;
            }
        }
    }

    fn end(mut self) {
        self.send("END");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(self.child.wait());
        });
        let status = rx.recv_timeout(GUARD).expect("END: no exit").expect("wait");
        assert!(status.success());
    }
}

/// One game's set-up, derived from its number.
struct Spec {
    rule_code: u32,
    rule: Rule,
    size: usize,
    match_ms: Option<u64>,
    opening: Vec<Pos>,
}

fn spec(game: usize) -> Spec {
    let rules = [
        (0, Rule::Freestyle),
        (1, Rule::Standard),
        (4, Rule::Renju),
        (8, Rule::Caro),
    ];
    let (rule_code, rule) = rules[game % rules.len()];
    let size = if game % 5 == 4 { 20 } else { 15 };
    let centre = size / 2;
    // A few stones around the centre, from a small deterministic generator.
    let mut state = 0x9E37_79B9_u64.wrapping_mul(game as u64 + 1);
    let mut opening = vec![Pos::new(centre, centre).unwrap()];
    while opening.len() < 2 + game % 3 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let dx = (state >> 33) % 7;
        let dy = (state >> 45) % 7;
        let p = Pos::new(centre + dx as usize - 3, centre + dy as usize - 3).unwrap();
        if !opening.contains(&p) {
            opening.push(p);
        }
    }
    Spec {
        rule_code,
        rule,
        size,
        match_ms: (game % 2 == 1).then_some(MATCH_MS),
        opening,
    }
}

#[derive(Default)]
struct Stats {
    answers: usize,
    timeouts: usize,
    over_limit: usize,
    worst: Duration,
    worst_at: String,
    illegal: Vec<String>,
    results: Vec<String>,
}

impl Stats {
    fn merge(&mut self, other: Stats) {
        self.answers += other.answers;
        self.timeouts += other.timeouts;
        self.over_limit += other.over_limit;
        if other.worst > self.worst {
            self.worst = other.worst;
            self.worst_at = other.worst_at;
        }
        self.illegal.extend(other.illegal);
        self.results.extend(other.results);
    }
}

fn play(game: usize) -> Stats {
    let spec = spec(game);
    let mut stats = Stats::default();
    // brains[0] plays black in even games, white in odd ones.
    let mut brains = [Session::new(), Session::new()];
    for b in &mut brains {
        b.send(&format!("INFO timeout_turn {TURN_MS}"));
        b.send(&format!(
            "INFO timeout_match {}",
            spec.match_ms.unwrap_or(0)
        ));
        b.send("INFO max_memory 350000000");
        b.send(&format!("INFO rule {}", spec.rule_code));
        b.send(&format!("START {}", spec.size));
        assert_eq!(b.answer(), "OK");
    }
    let brain_of = |c: Color| (c.index() + game) % 2;
    let mut board = Board::square(spec.size, spec.rule).unwrap();
    for (i, &p) in spec.opening.iter().enumerate() {
        board
            .place(
                p,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            )
            .unwrap();
    }
    let mut has_board = [false; 2];
    let mut used = [Duration::ZERO; 2];
    let result = loop {
        let color = board.side_to_move();
        let i = brain_of(color);
        let mut limit = Duration::from_millis(TURN_MS);
        if let Some(m) = spec.match_ms {
            let left = Duration::from_millis(m).saturating_sub(used[i]);
            brains[i].send(&format!("INFO time_left {}", left.as_millis()));
            limit = limit.min(left);
        }
        let command = if has_board[i] {
            let (last, _) = board.last_move().unwrap();
            format!("TURN {},{}", last.x(), last.y())
        } else {
            has_board[i] = true;
            let mut text = String::from("BOARD\n");
            for &(p, c) in board.history() {
                text.push_str(&format!(
                    "{},{},{}\n",
                    p.x(),
                    p.y(),
                    if c == color { 1 } else { 2 }
                ));
            }
            text + "DONE"
        };
        let start = Instant::now();
        for line in command.lines() {
            brains[i].send(line);
        }
        let answer = brains[i].answer();
        let latency = start.elapsed();
        used[i] += latency;
        stats.answers += 1;
        if latency > limit + TOLERANCE {
            stats.timeouts += 1;
        }
        if latency > limit {
            stats.over_limit += 1;
        }
        if latency > stats.worst {
            stats.worst = latency;
            stats.worst_at = format!("game {game}, move {}", board.move_count() + 1);
        }
        let point = answer
            .split_once(',')
            .and_then(|(x, y)| Some((x.parse::<i64>().ok()?, y.parse::<i64>().ok()?)))
            .and_then(|(x, y)| board.pos(x, y).ok())
            .filter(|&p| board.is_empty(p));
        let Some(p) = point else {
            stats.illegal.push(format!(
                "game {game}: {color} answered '{answer}' to {command:?}"
            ));
            break format!("{color} played an illegal move");
        };
        if spec.rule.has_forbidden(color) && forbidden(&mut board, p, color).is_some() {
            stats.illegal.push(format!(
                "game {game}: {color} played the forbidden point {p:?}"
            ));
            break format!("{color} fouled");
        }
        board.place(p, color).unwrap();
        if winning_line(&board, p).is_some() {
            break format!("{color} wins in {} stones", board.move_count());
        }
        if board.is_full() {
            break "draw (full board)".to_string();
        }
    };
    stats.results.push(format!(
        "game {game} ({} {}x{}): {result}",
        spec.rule, spec.size, spec.size
    ));
    for b in brains {
        b.end();
    }
    stats
}

#[test]
fn twenty_games_against_itself_without_a_time_out() {
    let started = Instant::now();
    let handles: Vec<_> = (0..PARALLEL)
        .map(|k| {
            std::thread::spawn(move || {
                let mut stats = Stats::default();
                for game in (k..GAMES).step_by(PARALLEL) {
                    stats.merge(play(game));
                }
                stats
            })
        })
        .collect();
    let mut stats = Stats::default();
    for h in handles {
        stats.merge(h.join().expect("a match thread panicked"));
    }
    stats
        .results
        .sort_by_key(|r| r.split(' ').nth(1).and_then(|n| n.parse::<usize>().ok()));
    // Written past the test harness's capture, so the figures show in every run.
    let mut out = std::io::stdout().lock();
    for r in &stats.results {
        let _ = writeln!(out, "self-play {r}");
    }
    let _ = writeln!(
        out,
        "self-play: {} games, {} answers in {:.1?}; time-outs (limit + {TOLERANCE:?}): {}; answers over the bare \
         {TURN_MS} ms limit: {}; worst answer latency {:?} ({})",
        stats.results.len(),
        stats.answers,
        started.elapsed(),
        stats.timeouts,
        stats.over_limit,
        stats.worst,
        stats.worst_at
    );
    assert_eq!(stats.results.len(), GAMES);
    assert!(stats.illegal.is_empty(), "{:?}", stats.illegal);
    assert_eq!(
        stats.timeouts, 0,
        "answers later than the limit plus {TOLERANCE:?}"
    );
}
