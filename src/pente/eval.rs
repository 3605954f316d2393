//! The static evaluation of a two-player Pente position and the quick move scores that order
//! the search, both knowing captures:
//!
//! - **lines**: every window of `line_len` points on a line holding stones of one side only
//!   scores by its stone count ([`LINE_WEIGHTS`]), so open shapes count more than closed ones;
//! - **capture counts**: captured stones score, steeply more near the capture target;
//! - **pairs under threat**: a pair of one side with an opposing stone at one end and an empty
//!   point at the other can be taken next move — worth more to the side to move;
//! - **lines a capture would break**: a pair under threat that is part of a window with three or
//!   more stones loses that window's value too, so threatened pairs inside lines weigh more.
//!
//! Scores are from the point of view of the seat to move.

use super::position::{DIRS8, Position};

/// Value of a line window by the number of one side's stones in it (index 0..=5).
pub const LINE_WEIGHTS: [i32; 6] = [0, 2, 12, 70, 500, 5000];

/// Value of one captured stone.
pub const CAPTURE_STONE: i32 = 40;

/// Value of a pair the side to move can capture at once.
pub const THREAT_TO_MOVE: i32 = 50;

/// Value of a pair the side not to move can capture (the side to move may still defend).
pub const THREAT_WAITING: i32 = 35;

/// The value of having captured `count` stones with the capture target `target`.
pub fn capture_value(count: u32, target: Option<u32>) -> i32 {
    let base = CAPTURE_STONE * count as i32;
    match target {
        Some(t) if count + 2 >= t => base + 900,
        Some(t) if count + 4 >= t => base + 300,
        Some(t) if count + 6 >= t => base + 100,
        _ => base,
    }
}

/// The static evaluation for the seat to move (two players).
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.turn();
    let opp = pos.next_seat(me);
    let n = pos.size();
    let len = pos.rules().line_len();
    let cells = pos.cells();
    let mut score = [0i32; 4];
    let ni = n as i32;
    let span = len as i32 - 1;
    for &(dx, dy) in &DIRS8[..4] {
        let delta = (dy * ni + dx) as isize;
        for y in 0..ni {
            if !(0..ni).contains(&(y + dy * span)) {
                continue;
            }
            for x in 0..ni {
                if !(0..ni).contains(&(x + dx * span)) {
                    continue;
                }
                let start = (y * ni + x) as isize;
                let (mut who, mut count, mut mixed) = (0u8, 0usize, false);
                for k in 0..len as isize {
                    let v = cells[(start + k * delta) as usize];
                    if v != 0 {
                        if who == 0 {
                            who = v;
                        } else if who != v {
                            mixed = true;
                            break;
                        }
                        count += 1;
                    }
                }
                if !mixed && who != 0 {
                    score[who as usize - 1] += LINE_WEIGHTS[count.min(5)];
                }
            }
        }
    }
    let target = pos.rules().capture_target();
    let caps = pos.captures();
    for s in [me, opp] {
        score[s as usize] += capture_value(caps[s as usize], target);
    }
    // Pairs under threat: the taker's value.
    for (c, &v) in cells.iter().enumerate() {
        if v != 0 || !pos.has_stone_near(c, 1) {
            continue;
        }
        for s in [me, opp] {
            let k = pos.capture_count_at(c, s) as i32;
            if k > 0 {
                let w = if s == me {
                    THREAT_TO_MOVE
                } else {
                    THREAT_WAITING
                };
                let reach = target.is_some_and(|t| caps[s as usize] + k as u32 >= t);
                score[s as usize] += k / 2 * w + if reach { w * 8 } else { 0 };
            }
        }
    }
    score[me as usize] - score[opp as usize] + 15
}

/// A quick score of `cell` for the seat to move: line windows it extends or blocks, stones it
/// captures, stones of its own it saves from capture, and a pair it exposes.
pub fn move_score(pos: &Position, cell: usize) -> i32 {
    let me = pos.turn();
    let opp = pos.next_seat(me);
    let len = pos.rules().line_len() as i32;
    let cells = pos.cells();
    let mut s = 0;
    for d in &DIRS8[..4] {
        for off in 0..len {
            let Some(start) = pos.neighbour(cell, *d, -off) else {
                continue;
            };
            if pos.neighbour(start, *d, len - 1).is_none() {
                continue;
            }
            let (mut mine, mut theirs) = (0, 0);
            for k in 0..len {
                let v = pos.neighbour(start, *d, k).map_or(0, |c| cells[c]);
                if v == me + 1 {
                    mine += 1;
                } else if v != 0 {
                    theirs += 1;
                }
            }
            if theirs == 0 {
                s += LINE_WEIGHTS[(mine + 1).min(5)];
            }
            if mine == 0 && theirs > 0 {
                s += LINE_WEIGHTS[(theirs + 1).min(5)] * 4 / 5;
            }
        }
    }
    let target = pos.rules().capture_target();
    let caps = pos.captures();
    let take = pos.capture_count_at(cell, me);
    if take > 0 {
        s += 150 * take as i32;
        if target.is_some_and(|t| caps[me as usize] + take >= t) {
            s += 20_000;
        }
    }
    let lose = pos.capture_count_at(cell, opp);
    if lose > 0 {
        s += 120 * lose as i32;
        if target.is_some_and(|t| caps[opp as usize] + lose >= t) {
            s += 10_000;
        }
    }
    // Exposing a new pair: (cell, cell+d) with one end the opponent's and the other empty.
    for d in DIRS8 {
        let (Some(a), Some(b), Some(e)) = (
            pos.neighbour(cell, d, 1),
            pos.neighbour(cell, d, 2),
            pos.neighbour(cell, (-d.0, -d.1), 1),
        ) else {
            continue;
        };
        if cells[a] == me + 1
            && ((cells[b] == opp + 1 && cells[e] == 0) || (cells[b] == 0 && cells[e] == opp + 1))
        {
            s -= 100;
        }
    }
    s
}
