//! Threat-search tactics: the VCF positions of `tests/data/tactics.jsonl`, a proof replay checker
//! that knows nothing but the rules, and a few hand-drawn renju cases.
//!
//! Each fixture line is `{"id", "rule", "size", "moves", "kind": "vcf", "winner"}`: a square board
//! of `size`, the game so far as a pos string (black first, alternating), and the side to move,
//! `winner`, has a forced win by continuous fours. The positions come from seeded self-play
//! (random openings near the centre, then a mix of the engine at depth 1–3 and the seeded
//! auto-move), kept where `solve_vcf(board, 12, 200_000)` found a line of two or more attacker
//! moves that the replay checker below accepts; ids name the rule, the size, the winner and, for
//! renju, `avoid` (black's line passes a turn where some four of black's is forbidden) or
//! `fblock` (white's line ends on a four whose only block is forbidden for black).
//!
//! The replay checker ([`replay_vcf`]) uses only `omok::rules` and [`Board`]; it never asks the
//! search, so a wrong proof cannot be waved through by the code that produced it.

mod common;

use std::sync::Arc;

use common::diagram;
use indoc::indoc;
use omok::engine::{Engine, Limits};
use omok::notation::{format_pos_string, parse_pos_string};
use omok::params::Params;
use omok::rules::{ForbiddenKind, check_move, find_five, forbidden, winning_line};
use omok::search::{NoInfo, WIN_THRESHOLD, solve_vcf};
use omok::time::{Budget, FakeClock};
use omok::{Board, Color, Dir, Pos, Rule};

/// Attacker moves `solve_vcf` may use (the depth the fixtures were generated with).
const VCF_DEPTH: u32 = 12;
/// Nodes `solve_vcf` may use (as generated).
const VCF_NODES: u64 = 200_000;

/// One fixture position.
struct Tactic {
    id: String,
    board: Board,
    winner: Color,
}

impl Tactic {
    fn describe(&self) -> String {
        let moves: Vec<Pos> = self.board.history().iter().map(|&(p, _)| p).collect();
        format!(
            "{} ({} {}x{}, {} to move: {})",
            self.id,
            self.board.rule(),
            self.board.width(),
            self.board.height(),
            self.winner.name(),
            format_pos_string(&moves)
        )
    }
}

/// Every position of `tests/data/tactics.jsonl`, in file order. The moves are placed without a
/// legality check; [`every_tactic_is_a_legal_undecided_game`] checks them.
fn tactics() -> Vec<Tactic> {
    let path = format!("{}/tests/data/tactics.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON object");
            let field = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("{k} in {line}"));
            let id = field("id").to_string();
            assert_eq!(field("kind"), "vcf", "{id}");
            let rule: Rule = field("rule").parse().expect("a rule name");
            let size = v["size"].as_u64().expect("size") as usize;
            let winner = match field("winner") {
                "black" => Color::Black,
                "white" => Color::White,
                other => panic!("{id}: winner {other}"),
            };
            let moves = parse_pos_string(field("moves"), size, size).expect("a pos string");
            let board =
                Board::with_moves(size, rule, &moves).unwrap_or_else(|e| panic!("{id}: {e}"));
            Tactic { id, board, winner }
        })
        .collect()
}

/// How a replayed VCF ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// The attacker's last move completes a winning line.
    Five,
    /// The attacker's last move leaves two or more completion points.
    DoubleThreat,
    /// The attacker's last move leaves one completion point, forbidden for the defender.
    ForbiddenBlock,
}

/// Necessary for a winning line through the empty point `p`: four stones of `color` within four
/// points of `p` along one direction. Only a filter; [`completion_points`] decides by playing.
fn four_in_reach(board: &Board, p: Pos, color: Color) -> bool {
    Dir::ALL.iter().any(|d| {
        let (dx, dy) = d.step();
        (-4..=4i64)
            .filter(|&k| k != 0)
            .filter(|&k| {
                let (x, y) = (p.x() as i64 + k * dx as i64, p.y() as i64 + k * dy as i64);
                board.pos(x, y).ok().and_then(|q| board.get(q)) == Some(color)
            })
            .count()
            >= 4
    })
}

/// The empty points where a stone of `color` completes a winning line under the board's rule,
/// found by playing each candidate and asking [`winning_line`]. The board is left as it was.
fn completion_points(board: &mut Board, color: Color) -> Vec<Pos> {
    let candidates: Vec<Pos> = board
        .positions()
        .filter(|&p| board.is_empty(p) && four_in_reach(board, p, color))
        .collect();
    candidates
        .into_iter()
        .filter(|&p| {
            board.make_move(p, color);
            let wins = winning_line(board, p).is_some();
            board.undo_move();
            wins
        })
        .collect()
}

/// Replays a VCF `line` (attacker first, moves alternating) from `board`, an undecided position
/// whose side to move is the attacker, with nothing but the rules: every attacker move must be
/// legal (`check_move`); after each attacker move the defender must have no completion point of
/// its own, and the attacker must have exactly one, which is the defender's next move, unless the
/// line ends there with a win: a five, two or more completion points, or one that the defender
/// may not play (renju black); the line may then also end with that forbidden point itself.
fn replay_vcf(board: &Board, line: &[Pos]) -> Result<Ending, String> {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    let defender = attacker.opponent();
    let name = |p: Pos| format_pos_string(&[p]);
    if let Some((color, _)) = find_five(&b) {
        return Err(format!("{} has already won", color.name()));
    }
    let mut i = 0;
    loop {
        let Some(&m) = line.get(i) else {
            return Err(format!("the line stops after {i} moves without a win"));
        };
        let last = i + 1 == line.len();
        check_move(&mut b, m, attacker)
            .map_err(|e| format!("attacker move {i} ({}) is illegal: {e}", name(m)))?;
        b.make_move(m, attacker);
        if winning_line(&b, m).is_some() {
            return match last {
                true => Ok(Ending::Five),
                false => Err(format!("the line goes on after the five at {}", name(m))),
            };
        }
        if let Some(&p) = completion_points(&mut b, defender).first() {
            return Err(format!(
                "after attacker move {i} ({}) the defender makes five at {}",
                name(m),
                name(p)
            ));
        }
        match completion_points(&mut b, attacker)[..] {
            [] => return Err(format!("attacker move {i} ({}) is not a four", name(m))),
            [d] => {
                let reply = line.get(i + 1).copied();
                if check_move(&mut b, d, defender).is_err() {
                    return match reply {
                        None => Ok(Ending::ForbiddenBlock),
                        Some(r) if r == d && i + 2 == line.len() => Ok(Ending::ForbiddenBlock),
                        Some(r) => Err(format!(
                            "the only block {} is forbidden, but the line goes on with {}",
                            name(d),
                            name(r)
                        )),
                    };
                }
                match reply {
                    Some(r) if r == d => {}
                    Some(r) => {
                        return Err(format!(
                            "the defender must block at {}, the line plays {}",
                            name(d),
                            name(r)
                        ));
                    }
                    None => {
                        return Err(format!("the line ends on a four blocked at {}", name(d)));
                    }
                }
                b.make_move(d, defender);
                i += 2;
            }
            _ => {
                return match last {
                    true => Ok(Ending::DoubleThreat),
                    false => Err(format!(
                        "the line goes on after the double threat {}",
                        name(m)
                    )),
                };
            }
        }
    }
}

/// Attacker moves in a replayed line (one ending on a forbidden block may include that block).
fn attacker_moves(line: &[Pos]) -> usize {
    line.len().div_ceil(2)
}

#[test]
fn every_tactic_is_a_legal_undecided_game() {
    let tactics = tactics();
    assert!(tactics.len() >= 120, "only {} tactics", tactics.len());
    for t in &tactics {
        let mut b = Board::square(t.board.width(), t.board.rule()).unwrap();
        for &(p, color) in t.board.history() {
            check_move(&mut b, p, color).unwrap_or_else(|e| panic!("{}: {e}", t.describe()));
            b.make_move(p, color);
        }
        assert_eq!(find_five(&b), None, "{}", t.describe());
        assert_eq!(b.side_to_move(), t.winner, "{}", t.describe());
        let immediate = completion_points(&mut b, t.winner);
        assert!(immediate.is_empty(), "{}: wins at once", t.describe());
    }
    // Coverage: every rule on 15x15 and 20x20, and both colours attacking in renju.
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for size in [15, 20] {
            for winner in Color::ALL {
                let n = tactics
                    .iter()
                    .filter(|t| {
                        t.board.rule() == rule && t.board.width() == size && t.winner == winner
                    })
                    .count();
                assert!(
                    n >= 3,
                    "{rule} {size}x{size} {}: {n} tactics",
                    winner.name()
                );
            }
        }
    }
}

#[test]
fn every_tactic_has_a_replayable_vcf() {
    let mut failures = Vec::new();
    let mut forbidden_blocks = 0;
    for t in tactics() {
        match solve_vcf(&t.board, VCF_DEPTH, VCF_NODES) {
            None => failures.push(format!("{}: no VCF found", t.describe())),
            Some(line) => match replay_vcf(&t.board, &line) {
                Ok(ending) => {
                    forbidden_blocks += (ending == Ending::ForbiddenBlock) as usize;
                    if attacker_moves(&line) < 2 {
                        failures.push(format!("{}: a one-move win", t.describe()));
                    }
                }
                Err(e) => failures.push(format!(
                    "{}: line {}: {e}",
                    t.describe(),
                    format_pos_string(&line)
                )),
            },
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        forbidden_blocks > 0,
        "no line ends on a forbidden block any more"
    );
}

/// The checker is not a rubber stamp: spoiling a good line in each way it checks is refused.
#[test]
fn replay_checker_rejects_broken_lines() {
    let (board, line) = tactics()
        .into_iter()
        .find_map(|t| {
            let line = solve_vcf(&t.board, VCF_DEPTH, VCF_NODES)?;
            (attacker_moves(&line) >= 3).then_some((t.board, line))
        })
        .expect("a tactic with a line of three attacker moves");
    assert_eq!(replay_vcf(&board, &line), Ok(Ending::DoubleThreat));
    let empty = |not: &[Pos]| {
        board
            .positions()
            .find(|&p| board.is_empty(p) && !not.contains(&p))
            .unwrap()
    };
    let with = |i: usize, p: Pos| {
        let mut l = line.clone();
        l[i] = p;
        l
    };
    let cases: [(&str, Vec<Pos>); 5] = [
        ("without its last move", line[..line.len() - 1].to_vec()),
        (
            "with a move after the win",
            [&line[..], &[empty(&line)]].concat(),
        ),
        ("with another defender reply", with(1, empty(&line))),
        ("opening with a quiet move", with(0, empty(&line))),
        ("empty", Vec::new()),
    ];
    for (what, broken) in cases {
        assert!(
            replay_vcf(&board, &broken).is_err(),
            "accepted the line {what}: {}",
            format_pos_string(&broken)
        );
    }
}

/// Nodes `Engine::go` may use per tactic. When the fixtures were made the engine needed at most
/// about 56k (depth 1 or 2, where the VCF step at the horizon sees the win); the rest is headroom.
const ENGINE_NODES: u64 = 200_000;

/// A 15×15 engine (1 thread, fake clock, 1 MiB table) that stops only on nodes.
fn engine() -> Engine {
    let mut e = Engine::new(Params::default(), Arc::new(FakeClock::default()));
    e.set_threads(1);
    e.set_memory(1 << 20, 0);
    e
}

/// Rounds of "try every legal defender reply" [`wins_after`] may open: one for a quiet move of
/// the engine, one more after each block of a defender's four that does not itself win.
const DEFENCE_ROUNDS: u32 = 4;

/// The attacker has just played `m` on `b` (the defender is to move) and wins against every
/// defence; checked with the rules, and with `solve_vcf` lines that [`replay_vcf`] accepts:
/// - a five wins; if the defender now has a completion point, it wins first: fail;
/// - two or more completion points, or one forbidden for the defender, win;
/// - exactly one completion point forces the defender's reply there, and then
///   [`wins_to_move`] must hold;
/// - none (a quiet move, or a block that is not a four): every legal defender reply is tried,
///   and [`wins_to_move`] must hold after each; this opens one of `rounds` rounds.
///
/// Sound: every branch the defender has is either forced by the rules or tried, and every win
/// claimed at a leaf is a five, a double threat, a forbidden block or a replayed VCF. It is not
/// complete: a win that needs a second quiet attacker move is reported, not trusted.
fn wins_after(b: &mut Board, m: Pos, rounds: u32) -> Result<&'static str, String> {
    let attacker = b.get(m).expect("the attacker's stone");
    let defender = attacker.opponent();
    let name = |p: Pos| format_pos_string(&[p]);
    if winning_line(b, m).is_some() {
        return Ok("five");
    }
    if let Some(&p) = completion_points(b, defender).first() {
        return Err(format!("the defender then makes five at {}", name(p)));
    }
    match completion_points(b, attacker)[..] {
        [d] if check_move(b, d, defender).is_ok() => {
            b.make_move(d, defender);
            let r = wins_to_move(b, rounds);
            b.undo_move();
            r.map(|_| "four")
        }
        [_] => Ok("four with a forbidden block"),
        [] if rounds == 0 => Err(format!(
            "{} is quiet and no defence rounds are left",
            name(m)
        )),
        [] => {
            let replies: Vec<Pos> = b
                .positions()
                .filter(|&r| check_move(b, r, defender).is_ok())
                .collect();
            for r in replies {
                b.make_move(r, defender);
                let result = wins_to_move(b, rounds - 1);
                b.undo_move();
                result.map_err(|e| format!("after the reply {}: {e}", name(r)))?;
            }
            Ok("quiet move")
        }
        _ => Ok("double threat"),
    }
}

/// The attacker is to move on `b` and wins: by a VCF that `solve_vcf` finds and [`replay_vcf`]
/// accepts, or, when the defender has just made a four, by blocking it (the only legal answer)
/// and [`wins_after`] the block.
fn wins_to_move(b: &mut Board, rounds: u32) -> Result<(), String> {
    let attacker = b.side_to_move();
    let defender = attacker.opponent();
    if let Some(line) = solve_vcf(b, VCF_DEPTH, VCF_NODES) {
        return replay_vcf(b, &line)
            .map(|_| ())
            .map_err(|e| format!("the VCF {}: {e}", format_pos_string(&line)));
    }
    match completion_points(b, defender)[..] {
        [] => Err("no VCF follows".to_string()),
        [c] if check_move(b, c, attacker).is_ok() => {
            b.make_move(c, attacker);
            let r = wins_after(b, c, rounds);
            b.undo_move();
            r.map(|_| ()).map_err(|e| {
                format!(
                    "after blocking the four at {}: {e}",
                    format_pos_string(&[c])
                )
            })
        }
        _ => Err("the defender's four cannot be stopped".to_string()),
    }
}

/// Whether the engine's move `m` keeps the forced win of the side to move of `board`: legal,
/// then [`wins_after`] with [`DEFENCE_ROUNDS`].
fn keeps_the_win(board: &Board, m: Pos) -> Result<&'static str, String> {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    check_move(&mut b, m, attacker).map_err(|e| format!("illegal: {e}"))?;
    b.make_move(m, attacker);
    wins_after(&mut b, m, DEFENCE_ROUNDS)
}

/// `Engine::go` (1 thread, [`FakeClock`], [`ENGINE_NODES`] nodes, no depth or time limit) on
/// each tactic must report a win (`score > WIN_THRESHOLD`) and play a move that keeps it, as
/// [`keeps_the_win`] checks. Every tactic is searched: the test takes 10–16 s on two cores in the
/// debug test profile, board invariant checks included.
#[test]
fn engine_solves_every_tactic_within_a_node_budget() {
    let limits = Limits {
        budget: Budget {
            optimum_ms: u64::MAX / 2,
            maximum_ms: u64::MAX / 2,
        },
        max_nodes: Some(ENGINE_NODES),
        max_depth: None,
    };
    let mut e = engine();
    let mut failures = Vec::new();
    for t in tactics() {
        e.new_game(t.board.width(), t.board.height()).unwrap();
        e.set_rule(t.board.rule()).unwrap();
        e.set_position(t.board.history()).unwrap();
        e.clear_hash();
        let r = e.go(&limits, &mut NoInfo);
        let Some(m) = r.best else {
            failures.push(format!("{}: no move", t.describe()));
            continue;
        };
        let what = format!(
            "{}: played {} (score {}, depth {}, {} nodes, pv {})",
            t.describe(),
            format_pos_string(&[m]),
            r.info.score,
            r.info.depth,
            r.info.nodes,
            format_pos_string(&r.info.pv)
        );
        if r.info.score <= WIN_THRESHOLD {
            failures.push(format!("{what}: not scored as a win"));
        } else if let Err(e) = keeps_the_win(&t.board, m) {
            failures.push(format!("{what}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Renju, black to move: the cross at `4` is black's only way to two fours, and a double four
/// is forbidden for black. Each single four is blocked on the cross point, so black has no VCF;
/// in freestyle the same stones win at once.
const FORBIDDEN_DOUBLE_FOUR: &str = indoc! {"
    O . . . . . . . . . . . . . O
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . O . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . X . . . . . . .
    . . . O X X X 4 . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    O . . . . . . . . . . . . . O
"};

#[test]
fn renju_black_may_not_win_through_a_forbidden_double_four() {
    let (mut b, marks) = diagram(Rule::Renju, FORBIDDEN_DOUBLE_FOUR);
    let cross = marks[0].1;
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(
        forbidden(&mut b, cross, Color::Black),
        Some(ForbiddenKind::DoubleFour)
    );
    if let Some(line) = solve_vcf(&b, VCF_DEPTH, VCF_NODES) {
        panic!(
            "renju black has no VCF here, got {} ({:?})",
            format_pos_string(&line),
            replay_vcf(&b, &line)
        );
    }
    // The checker refuses the forbidden move too.
    assert!(replay_vcf(&b, &[cross]).unwrap_err().contains("illegal"));

    let (free, _) = diagram(Rule::Freestyle, FORBIDDEN_DOUBLE_FOUR);
    assert_eq!(solve_vcf(&free, VCF_DEPTH, VCF_NODES), Some(vec![cross]));
    assert_eq!(replay_vcf(&free, &[cross]), Ok(Ending::DoubleThreat));
}

/// Renju, white to move: white's four on the anti-diagonal can only be blocked at `3`, a double
/// three for black, so white wins with it; under standard rules black blocks and nothing follows.
const FORBIDDEN_BLOCK: &str = indoc! {"
    O . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . X . . .
    . . . . . . . . . . O . . . .
    . . . . . . . X . O . . . . .
    . . . . . . . X O . . . . . .
    . . . . . X X 3 . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
"};

#[test]
fn renju_white_wins_when_blacks_only_block_is_forbidden() {
    let (mut b, marks) = diagram(Rule::Renju, FORBIDDEN_BLOCK);
    let block = marks[0].1;
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(
        forbidden(&mut b, block, Color::Black),
        Some(ForbiddenKind::DoubleThree)
    );
    let line = solve_vcf(&b, VCF_DEPTH, VCF_NODES).expect("white's VCF");
    assert_eq!(
        replay_vcf(&b, &line),
        Ok(Ending::ForbiddenBlock),
        "{}",
        format_pos_string(&line)
    );
    assert_eq!(line.last(), Some(&block));

    let (standard, _) = diagram(Rule::Standard, FORBIDDEN_BLOCK);
    assert!(replay_vcf(&standard, &line).is_err());
    assert_eq!(solve_vcf(&standard, VCF_DEPTH, VCF_NODES), None);
}
