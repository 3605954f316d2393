//! Game records: the [`GameRecord`] of one tournament game and its three text forms.
//!
//! - **Piskvork `.psq`** ([`to_psq`]): the first line `Piskvorky WxH, 11:11, 0`; then one line per
//!   stone, opening stones included, `x,y,ms` with **1-based** coordinates (x from the left, y from
//!   the top) and the thinking time in milliseconds (0 for opening stones); then the two engine
//!   names, black's first; then a result line: `1` black won, `2` white won, `0` a draw, followed
//!   by the reason (`1 five`). A foul stone stands and is listed; an illegal answer is not a stone
//!   and is not listed.
//! - **SGF** ([`to_sgf`]): `GM[4]` (gomoku/renju), `FF[4]`, `SZ[n]`, `RU[rule]`, `PB`/`PW`, `RE`
//!   (`B+`/`W+` for a five, `B+F`/`W+F` for a foul, an illegal answer, a crash or memory, `B+T`/`W+T`
//!   on time, `0` for a draw), a `C[…]` with the reason and details; moves `;B[hh]` with 0-based
//!   letters from the top-left (`a`..`z`, then `A`..`Z` for boards wider than 26).
//! - **JSON lines** ([`to_json`]): one object per game with everything in the record.
//!
//! The HTML report with the board pictures is in [`super::report`].

use serde_json::{Value, json};

use crate::core::{Color, Pos};
use crate::rule::Rule;

use super::judge::Reason;
use super::openings::Symmetry;

/// One stone of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Where.
    pub pos: Pos,
    /// The mover's thinking time in ms (0 for opening stones).
    pub ms: u64,
}

/// One finished tournament game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's 0-based number in the schedule.
    pub index: usize,
    /// The two engines' indices in the spec, in pair order (the first is the one whose view the
    /// pair's results are counted from).
    pub pair: (usize, usize),
    /// Black's engine index.
    pub black_engine: usize,
    /// White's engine index.
    pub white_engine: usize,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The rule set.
    pub rule: Rule,
    /// The board side.
    pub size: usize,
    /// The opening's line in the opening file (0: the empty board).
    pub opening_line: usize,
    /// The symmetry applied to it.
    pub symmetry: Symmetry,
    /// How many of the stones are the opening's.
    pub opening_stones: usize,
    /// Every stone, in order.
    pub moves: Vec<MoveRecord>,
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
    /// The winning line.
    pub win_line: Vec<Pos>,
    /// An answer that was not a stone (an illegal point), if that ended the game: the raw text.
    pub bad_answer: Option<String>,
    /// A human-readable account of the end (`answered 7,7: occupied`, `exit status: 3`, …).
    pub detail: String,
}

/// One engine's thinking times over the stones it chose in a set of games (the openings'
/// stones are left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkTimes {
    /// Stones the engine chose.
    pub moves: usize,
    /// Mean thinking time a stone, in ms (rounded down).
    pub mean_ms: u64,
    /// The median (the upper one of an even count).
    pub median_ms: u64,
    /// The longest.
    pub max_ms: u64,
    /// Stones that took longer than the turn (none without a turn limit).
    pub over_turn: usize,
}

/// The thinking times of the engine of index `engine` over `records`; `turn_ms` is the turn
/// limit (0: none). Stones alternate from black's first, opening stones included.
pub fn think_times(records: &[GameRecord], engine: usize, turn_ms: u64) -> ThinkTimes {
    let mut times: Vec<u64> = records
        .iter()
        .flat_map(|r| {
            r.moves
                .iter()
                .enumerate()
                .skip(r.opening_stones)
                .filter(move |&(i, _)| {
                    let color = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    r.engine(color) == engine
                })
                .map(|(_, m)| m.ms)
        })
        .collect();
    if times.is_empty() {
        return ThinkTimes::default();
    }
    times.sort_unstable();
    let n = times.len();
    ThinkTimes {
        moves: n,
        mean_ms: times.iter().sum::<u64>() / n as u64,
        median_ms: times[n / 2],
        max_ms: times[n - 1],
        over_turn: if turn_ms == 0 {
            0
        } else {
            times.iter().filter(|&&t| t > turn_ms).count()
        },
    }
}

impl GameRecord {
    /// The loser's colour, if the game was not drawn.
    pub fn loser(&self) -> Option<Color> {
        self.winner.map(Color::opponent)
    }

    /// The engine index playing `color`.
    pub fn engine(&self, color: Color) -> usize {
        match color {
            Color::Black => self.black_engine,
            Color::White => self.white_engine,
        }
    }

    /// The name of the engine playing `color`.
    pub fn name(&self, color: Color) -> &str {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// A short result: `1-0`, `0-1` or `1/2-1/2` (black first).
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// A file-name stem: `0007-omok-30-vs-omok-10` (black first; unsafe characters replaced).
    pub fn file_stem(&self) -> String {
        format!(
            "{:04}-{}-vs-{}",
            self.index + 1,
            safe_name(&self.black),
            safe_name(&self.white)
        )
    }
}

/// `name` with everything but ASCII letters, digits, `-`, `_` and `.` replaced by `_`.
pub fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The Piskvork `.psq` text of a game (see the module doc).
pub fn to_psq(r: &GameRecord) -> String {
    let mut s = format!("Piskvorky {0}x{0}, 11:11, 0\n", r.size);
    for m in &r.moves {
        s.push_str(&format!("{},{},{}\n", m.pos.x() + 1, m.pos.y() + 1, m.ms));
    }
    let code = match r.winner {
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
        None => 0,
    };
    s.push_str(&format!("{}\n{}\n{code} {}\n", r.black, r.white, r.reason));
    s
}

/// The SGF coordinate letter of a 0-based index.
fn sgf_letter(i: usize) -> char {
    if i < 26 {
        char::from(b'a' + i as u8)
    } else {
        char::from(b'A' + (i - 26) as u8)
    }
}

/// SGF text escaping (`\` and `]`).
fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF result value (see the module doc).
fn sgf_result(r: &GameRecord) -> String {
    let Some(w) = r.winner else {
        return "0".into();
    };
    let c = if w == Color::Black { 'B' } else { 'W' };
    match r.reason {
        Reason::Five => format!("{c}+"),
        Reason::Time => format!("{c}+T"),
        _ => format!("{c}+F"),
    }
}

/// The SGF text of a game (see the module doc).
pub fn to_sgf(r: &GameRecord) -> String {
    let comment = format!(
        "game {}, {}: {}{}",
        r.index + 1,
        r.result_text(),
        r.reason,
        if r.detail.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.detail)
        }
    );
    let mut s = format!(
        "(;GM[4]FF[4]CA[UTF-8]AP[omok:{}]SZ[{}]RU[{}]PB[{}]PW[{}]RE[{}]GN[{}]C[{}]",
        env!("CARGO_PKG_VERSION"),
        r.size,
        r.rule,
        sgf_text(&r.black),
        sgf_text(&r.white),
        sgf_result(r),
        r.index + 1,
        sgf_text(&comment)
    );
    for (k, m) in r.moves.iter().enumerate() {
        let c = if k % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(
            "\n;{c}[{}{}]",
            sgf_letter(m.pos.x()),
            sgf_letter(m.pos.y())
        ));
        if k + 1 == r.opening_stones {
            s.push_str("C[end of the opening]");
        }
    }
    s.push_str(")\n");
    s
}

/// The JSON object of a game (one line of the log).
pub fn to_json(r: &GameRecord) -> Value {
    let points = |ps: &[Pos]| -> Vec<Value> { ps.iter().map(|p| json!([p.x(), p.y()])).collect() };
    json!({
        "game": r.index + 1,
        "pair": [r.pair.0, r.pair.1],
        "black": r.black,
        "white": r.white,
        "black_engine": r.black_engine,
        "white_engine": r.white_engine,
        "rule": r.rule.name(),
        "size": r.size,
        "opening_line": r.opening_line,
        "symmetry": r.symmetry,
        "opening_stones": r.opening_stones,
        "moves": r.moves.iter().map(|m| json!([m.pos.x(), m.pos.y(), m.ms])).collect::<Vec<_>>(),
        "winner": r.winner.map(|c| c.name()),
        "result": r.result_text(),
        "reason": r.reason.name(),
        "win_line": points(&r.win_line),
        "bad_answer": r.bad_answer,
        "detail": r.detail,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn sample() -> GameRecord {
        let p = |x, y| Pos::new(x, y).unwrap();
        let moves = [
            (7, 7),
            (8, 6),
            (8, 7),
            (0, 0),
            (9, 7),
            (0, 1),
            (10, 7),
            (0, 2),
            (6, 7),
        ]
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| MoveRecord {
            pos: p(x, y),
            ms: k as u64 * 10,
        })
        .collect();
        GameRecord {
            index: 6,
            pair: (0, 1),
            black_engine: 1,
            white_engine: 0,
            black: "omok 30".into(),
            white: "x]y".into(),
            rule: Rule::Freestyle,
            size: 15,
            opening_line: 3,
            symmetry: Symmetry::Identity,
            opening_stones: 3,
            moves,
            winner: Some(Color::Black),
            reason: Reason::Five,
            win_line: vec![p(6, 7), p(7, 7), p(8, 7), p(9, 7), p(10, 7)],
            bad_answer: None,
            detail: String::new(),
        }
    }

    #[test]
    fn think_times_count_each_engine_s_own_stones_after_the_opening() {
        // The sample: 3 opening stones, then white (engine 0) at 30, 50 and 70 ms and black
        // (engine 1) at 40, 60 and 80 ms.
        let mut other = sample();
        other.black_engine = 0;
        other.white_engine = 1;
        other.moves[5].ms = 1200;
        let records = [sample(), other];
        // Engine 1: 40, 60, 80 (the sample's black) and 30, 1200, 70 (the other's white).
        let one = think_times(&records, 1, 1000);
        assert_eq!(
            one,
            ThinkTimes {
                moves: 6,
                mean_ms: (40 + 60 + 80 + 30 + 1200 + 70) / 6,
                median_ms: 70,
                max_ms: 1200,
                over_turn: 1,
            }
        );
        // Without a turn limit nothing is over it; an engine that never moved has no times.
        assert_eq!(think_times(&records, 1, 0).over_turn, 0);
        assert_eq!(think_times(&records, 2, 1000), ThinkTimes::default());
    }

    #[test]
    fn psq_is_one_based_with_names_and_result() {
        let psq = to_psq(&sample());
        let lines: Vec<&str> = psq.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert_eq!(lines[1], "8,8,0");
        assert_eq!(lines[2], "9,7,10");
        assert_eq!(lines.len(), 1 + 9 + 3);
        assert_eq!(&lines[10..], ["omok 30", "x]y", "1 five"]);
    }

    #[test]
    fn sgf_letters_from_the_top_left() {
        let sgf = to_sgf(&sample());
        assert!(sgf.starts_with("(;GM[4]FF[4]"), "{sgf}");
        assert!(
            sgf.contains("SZ[15]RU[freestyle]PB[omok 30]PW[x\\]y]RE[B+]"),
            "{sgf}"
        );
        assert!(
            sgf.contains(";B[hh]\n;W[ig]\n;B[ih]C[end of the opening]"),
            "{sgf}"
        );
        assert!(sgf.trim_end().ends_with(";B[gh])"), "{sgf}");
        assert_eq!(sgf_letter(26), 'A');
        let mut r = sample();
        r.winner = Some(Color::White);
        r.reason = Reason::Time;
        assert!(to_sgf(&r).contains("RE[W+T]"));
        r.reason = Reason::Crash;
        assert!(to_sgf(&r).contains("RE[W+F]"));
        r.winner = None;
        assert!(to_sgf(&r).contains("RE[0]"));
    }

    #[test]
    fn json_line_has_everything() {
        let v = to_json(&sample());
        assert_eq!(v["game"], 7);
        assert_eq!(v["winner"], "black");
        assert_eq!(v["reason"], "five");
        assert_eq!(v["moves"][1], json!([8, 6, 10]));
        assert_eq!(v["win_line"].as_array().unwrap().len(), 5);
        assert_eq!(v["symmetry"], "identity");
        assert!(!v.to_string().contains('\n'));
        assert_eq!(sample().file_stem(), "0007-omok_30-vs-x_y");
    }
}
