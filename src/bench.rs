//! The bench node signature: 30 fixed positions (freestyle, standard and renju; 15×15 and 20×20,
//! openings to middle games) searched to a fixed depth with one thread and a fixed
//! transposition table cleared between positions. The total node count is deterministic and
//! identifies the search's behaviour: any change to search or evaluation that moves it must say
//! so (`Bench: <nodes>` in the commit body). Timing only gives the speed.

use std::sync::atomic::AtomicBool;

use thiserror::Error;

use crate::board::Board;
use crate::core::Pos;
use crate::notation::parse_pos_string;
use crate::rule::Rule;
use crate::search::tt::TranspositionTable;
use crate::search::{NoInfo, NodeKinds, SearchConfig, search};
use crate::time::{Budget, Clock};

/// Depth every bench position is searched to.
pub const BENCH_DEPTH: u32 = 4;
/// Transposition table size of the bench.
pub const BENCH_HASH_BYTES: usize = 16 << 20;

/// The positions: rule, board size and moves as a c-gomoku-cli pos string (black first).
pub const POSITIONS: [(&str, usize, &str); 30] = [
    ("freestyle", 15, "h8i9j8k8i7j6h7k9h9h6"),
    ("freestyle", 15, "h8i9j8k8i7j6h7k9h9h6k10k7k6j9l9i5l8f8"),
    (
        "freestyle",
        15,
        "h8i9j8k8i7j6h7k9h9h6k10k7k6j9l9i5l8f8g7f7l7h4g3l10m8j5",
    ),
    ("freestyle", 15, "h8i8i9j10h9j9k10j11j12h11"),
    (
        "freestyle",
        15,
        "h8i8i9j10h9j9k10j11j12h11i11k8i10h10j7i12i7k7",
    ),
    ("freestyle", 20, "k11l12m11j11l10k9m10j12m12m9"),
    (
        "freestyle",
        20,
        "k11l12m11j11l10k9m10j12m12m9j13j10j9k12i12l8i11o11",
    ),
    (
        "freestyle",
        20,
        "k11l12m11j11l10k9m10j12m12m9j13j10j9k12i12l8i11o11n10o10i10n6m7i13h11k8",
    ),
    ("freestyle", 20, "k11l11l12j10k12k10j9i10h10i12"),
    (
        "freestyle",
        20,
        "k11l11l12j10k12k10j9i10h10i12i11l9j11j12g11h11f12i9",
    ),
    ("standard", 15, "h8i9j8k8i7j6h7k9h9h6"),
    ("standard", 15, "h8i9j8k8i7j6h7k9h9h6k10k7k6j9l9i5l8f8"),
    (
        "standard",
        15,
        "h8i9j8k8i7j6h7k9h9h6k10k7k6j9l9i5l8f8g7f7l7h4g3l10m8j5",
    ),
    ("standard", 15, "h8i8i9j10h9j9k10j11j12h11"),
    (
        "standard",
        15,
        "h8i8i9j10h9j9k10j11j12h11g12h6i11j8j7i7g5k13",
    ),
    ("standard", 20, "k11l12m11j11l10k9m10m9n9k12"),
    (
        "standard",
        20,
        "k11l12m11j11l10k9m10m9n9k12n10o10p7l11n7n8q7o7",
    ),
    (
        "standard",
        20,
        "k11l12m11j11l10k9m10m9n9k12n10o10p7l11n7n8q7o7p6o8o6o9o11m8p8k8",
    ),
    ("standard", 20, "k11l11l12j10k12k10j9i10h10m12"),
    (
        "standard",
        20,
        "k11l11l12j10k12k10j9i10h10m12l10m9m11n10n13l8k7k9",
    ),
    ("renju", 15, "h8i9j8k8i7j6h7k9h9h6"),
    ("renju", 15, "h8i9j8k8i7j6h7k9h9h6k10k7k6j9l9i5l8j4"),
    (
        "renju",
        15,
        "h8i9j8k8i7j6h7k9h9h6k10k7k6j9l9i5l8j4g7h4g3f7l7k3l2l10",
    ),
    ("renju", 15, "h8i8i9j10h9j9k10j11j12h11"),
    ("renju", 15, "h8i8i9j10h9j9k10j11j12h11i11k8i10h10j7i12i7k7"),
    ("renju", 20, "k11l12m11j11l10k9m10m9l9k8"),
    (
        "renju",
        20,
        "k11l12m11j11l10k9m10m9l9k8n10o10n11n12o11l11p13o12",
    ),
    (
        "renju",
        20,
        "k11l12m11j11l10k9m10m9l9k8n10o10n11n12o11l11p13o12p11q11p12p14m12q13l13k14",
    ),
    ("renju", 20, "k11l11l12j10k12k10j9i10h10i12"),
    (
        "renju",
        20,
        "k11l11l12j10k12k10j9i10h10i12l10j12i9k9g11f12h12j11",
    ),
];

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// 1-based position number.
    pub index: usize,
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The depth completed.
    pub depth: u32,
    /// The move found.
    pub best: Option<Pos>,
    /// Its score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Where they went.
    pub node_kinds: NodeKinds,
    /// Milliseconds taken.
    pub ms: u64,
}

/// The totals of a bench run.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Where they went.
    pub node_kinds: NodeKinds,
    /// Total milliseconds.
    pub ms: u64,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.ms.max(1)
    }

    /// The line before the summary: the nodes by the part of the search that examined them,
    /// as shares of the total.
    pub fn breakdown(&self) -> String {
        let k = &self.node_kinds;
        let share = |n: u64| n as f64 * 100.0 / self.nodes.max(1) as f64;
        format!(
            "nodes: tree {:.1}% horizon {:.1}% (searching moves {:.1}%) vcf {:.1}% vct {:.1}%",
            share(k.tree),
            share(k.horizon),
            share(k.horizon_searched),
            share(k.vcf),
            share(k.vct)
        )
    }

    /// The last line `pbrain-omok bench` prints.
    pub fn summary(&self) -> String {
        format!(
            "bench: {} nodes {} nps {} ms",
            self.nodes,
            self.nps(),
            self.ms
        )
    }
}

/// A bench position set up on a board.
pub fn position(index: usize) -> Board {
    let (rule, size, moves) = POSITIONS[index];
    let rule: Rule = rule.parse().expect("bench rule names are valid");
    let mut board = Board::square(size, rule).expect("bench sizes are valid");
    let moves = parse_pos_string(moves, size, size).expect("bench positions are valid");
    for p in moves {
        let c = board.side_to_move();
        board.place(p, c).expect("bench positions are legal");
    }
    board
}

/// Why a positions file could not be read ([`parse_positions`]).
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct PositionsError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// Reads bench positions, one a line: a rule name, a board side and a c-gomoku-cli pos string
/// of the moves from the empty board, black first (`freestyle 15 h8i9j8`; an empty position
/// needs no pos string). Blank lines and lines starting with `#` are skipped. Each position must
/// be a legal game so far: stones on empty points, no five on the board.
pub fn parse_positions(text: &str) -> Result<Vec<Board>, PositionsError> {
    let mut boards = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |reason: String| PositionsError {
            line: i + 1,
            reason,
        };
        let mut words = line.split_whitespace();
        let rule: Rule = words
            .next()
            .unwrap_or_default()
            .parse()
            .map_err(|e| fail(format!("{e}")))?;
        let size_word = words
            .next()
            .ok_or_else(|| fail("no board side after the rule".to_string()))?;
        let size: usize = size_word
            .parse()
            .map_err(|_| fail(format!("board side `{size_word}` is not a number")))?;
        let moves = words.next().unwrap_or("");
        if let Some(extra) = words.next() {
            return Err(fail(format!("unexpected `{extra}` after the moves")));
        }
        let mut board = Board::square(size, rule).map_err(|e| fail(format!("{e}")))?;
        let moves = parse_pos_string(moves, size, size).map_err(|e| fail(format!("{e}")))?;
        for (n, p) in moves.into_iter().enumerate() {
            if crate::rules::win::ensure_no_five(&board).is_err() {
                return Err(fail(format!("move {} comes after a five", n + 1)));
            }
            let c = board.side_to_move();
            board
                .place(p, c)
                .map_err(|e| fail(format!("move {}: {e}", n + 1)))?;
        }
        if crate::rules::win::ensure_no_five(&board).is_err() {
            return Err(fail("the game is over: a five is on the board".to_string()));
        }
        boards.push(board);
    }
    Ok(boards)
}

/// Runs the bench to `depth` with the parameters `params` (each position searched with its
/// rule's search parameters; the signature is defined with the defaults), calling `on_line`
/// after each position.
pub fn run(
    depth: u32,
    params: &crate::params::Params,
    clock: &dyn Clock,
    on_line: impl FnMut(&BenchLine),
) -> BenchReport {
    run_positions(&positions(), depth, None, params, clock, on_line)
}

/// Every bench position set up on a board, in order.
pub fn positions() -> Vec<Board> {
    (0..POSITIONS.len()).map(position).collect()
}

/// [`run`] over other positions, each searched to `depth` or until it has examined
/// `max_nodes` nodes (then its last completed depth counts), with the bench's table cleared
/// between positions.
pub fn run_positions(
    boards: &[Board],
    depth: u32,
    max_nodes: Option<u64>,
    params: &crate::params::Params,
    clock: &dyn Clock,
    mut on_line: impl FnMut(&BenchLine),
) -> BenchReport {
    let tt = TranspositionTable::new(BENCH_HASH_BYTES);
    let stop = AtomicBool::new(false);
    let mut config = SearchConfig {
        threads: 1,
        budget: Budget {
            optimum_ms: u64::MAX / 4,
            maximum_ms: u64::MAX / 4,
        },
        max_depth: depth,
        max_nodes,
        params: params.search,
        random_margin: 0,
        random_candidates: 0,
        seed: 0,
        start_fraction: 1.0,
        useful_share: 0.0,
        multi_pv: 1,
    };
    let mut total = BenchReport {
        nodes: 0,
        node_kinds: NodeKinds::default(),
        ms: 0,
    };
    for (index, board) in boards.iter().enumerate() {
        config.params = params.search_for(board.rule());
        tt.clear();
        let start = clock.now_ms();
        let r = search(board, &config, &tt, &stop, clock, &mut NoInfo);
        let ms = clock.now_ms().saturating_sub(start);
        let line = BenchLine {
            index: index + 1,
            rule: board.rule(),
            size: board.width(),
            depth: r.info.depth,
            best: r.best,
            score: r.info.score,
            nodes: r.info.nodes,
            node_kinds: r.info.node_kinds,
            ms,
        };
        on_line(&line);
        total.nodes += line.nodes;
        total.node_kinds.add(&line.node_kinds);
        total.ms += ms;
    }
    total
}
