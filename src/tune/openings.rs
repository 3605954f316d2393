//! Balanced openings judged by a stronger engine: [`candidates`] draws seeded short openings
//! near the centre (distinct up to the board's symmetries), and [`balance`] keeps those a judge
//! ([`super::label::Judge`], or any function giving a [`Verdict`]) scores near even, written in
//! the opening-file format of `tournaments/openings/` ([`format_opening`]).
//!
//! An opening is balanced when neither side is better after it, as far as a judge can tell; a
//! weak judge (the engine whose matches the openings are for) leaves openings that a strong one
//! calls won, and games from those are decided before either engine plays a move.

use std::collections::HashSet;

use rand_core::{RngCore, SeedableRng};

use super::GameRecord;
use super::label::Verdict;
use crate::core::Pos;
use crate::rule::Rule;
use crate::tournament::openings::{Symmetry, check_opening, colour_sets};

/// An opening as offsets `(dx, dy)` from the centre (`size / 2` on each axis; y grows
/// downwards), black first: the Gomocup offset lines of the opening files.
pub type Offsets = Vec<(i64, i64)>;

/// How candidates are drawn.
#[derive(Clone, Debug)]
pub struct DrawConfig {
    /// Board size (square).
    pub size: usize,
    /// Rule set (an opening must not be decided under it).
    pub rule: Rule,
    /// Stone counts to draw, in turn (3 and 5: white moves next).
    pub stones: Vec<usize>,
    /// Every stone lies within this many cells of the centre on each axis; the first is the
    /// centre.
    pub radius: i64,
    /// Seed of the draw.
    pub seed: u64,
}

/// The key of an opening up to the board's symmetries: the smallest, over the eight images,
/// of (black's points sorted, white's points sorted).
fn canonical_key(moves: &[Pos], size: usize) -> (Vec<Pos>, Vec<Pos>) {
    Symmetry::ALL
        .into_iter()
        .map(|s| colour_sets(&s.apply_all(moves, size, size)))
        .min()
        .unwrap_or_default()
}

/// The points of `offsets` on a `size` board, if all lie on it.
fn points(offsets: &[(i64, i64)], size: usize) -> Option<Vec<Pos>> {
    let c = (size / 2) as i64;
    offsets
        .iter()
        .map(|&(dx, dy)| {
            let (x, y) = (c + dx, c + dy);
            let inside = (0..size as i64).contains(&x) && (0..size as i64).contains(&y);
            inside.then(|| Pos::new(x as usize, y as usize)).flatten()
        })
        .collect()
}

/// Up to `count` openings drawn at random (seeded): the centre, then stones within `radius`
/// of it, colours alternating from black, the stone counts of `stones` in turn, each opening
/// distinct from the others and from the openings of `exclude` (move lists on the same board,
/// as [`crate::tournament::openings::parse_openings`] reads them) up to the board's
/// symmetries, none decided.
/// The same configuration gives the same openings; fewer come back only when the area holds
/// fewer distinct openings than the draws find (at most 100 tries per opening), and none for
/// a board size the rules do not allow.
pub fn candidates(config: &DrawConfig, count: usize, exclude: &[Vec<Pos>]) -> Vec<Offsets> {
    let size = config.size;
    let radius = config.radius.clamp(0, (size / 2) as i64);
    let side = 2 * radius as u64 + 1;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut seen: HashSet<(Vec<Pos>, Vec<Pos>)> =
        exclude.iter().map(|m| canonical_key(m, size)).collect();
    let mut out = Vec::new();
    let counts: Vec<usize> = config.stones.iter().copied().filter(|&n| n > 0).collect();
    if counts.is_empty() || side * side < *counts.iter().max().unwrap_or(&1) as u64 {
        return out;
    }
    let mut tries = 0usize;
    while out.len() < count && tries < 100 * count.max(1) {
        let n = counts[out.len() % counts.len()];
        tries += 1;
        let mut offsets: Offsets = vec![(0, 0)];
        while offsets.len() < n {
            let dx = (rng.next_u64() % side) as i64 - radius;
            let dy = (rng.next_u64() % side) as i64 - radius;
            if !offsets.contains(&(dx, dy)) {
                offsets.push((dx, dy));
            }
        }
        let Some(moves) = points(&offsets, size) else {
            continue;
        };
        if check_opening(&moves, 0, size, size, config.rule).is_err() {
            continue;
        }
        if seen.insert(canonical_key(&moves, size)) {
            out.push(offsets);
        }
    }
    out
}

/// An opening a judge scored, from black's view in the judge's units.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The opening.
    pub offsets: Offsets,
    /// The judge's score of the position after it, from black's view.
    pub black_view: i32,
}

/// What [`balance`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BalanceReport {
    /// The openings kept, in the order judged.
    pub kept: Vec<Judged>,
    /// Candidates judged (kept or not).
    pub judged: usize,
    /// Scored beyond the margin.
    pub unbalanced: usize,
    /// A proved win or loss.
    pub decided: usize,
    /// Answered without an evaluation.
    pub silent: usize,
    /// The judge failed on them.
    pub failed: usize,
}

/// Asks `judge` about each candidate in turn (the side to move's verdict on the position
/// after the opening, as [`super::label::Judge::judge`] gives it) and keeps those it scores
/// within `margin` of even from black's view, until `count` are kept.
pub fn balance(
    candidates: &[Offsets],
    size: usize,
    rule: Rule,
    count: usize,
    margin: i32,
    mut judge: impl FnMut(&GameRecord) -> Result<Option<Verdict>, String>,
    mut progress: impl FnMut(&Offsets, &Result<Option<Verdict>, String>),
) -> BalanceReport {
    let mut report = BalanceReport::default();
    let c = (size / 2) as i64;
    for offsets in candidates {
        if report.kept.len() >= count {
            break;
        }
        let record = GameRecord {
            rule: rule.name().to_string(),
            size,
            moves: offsets
                .iter()
                .map(|&(dx, dy)| vec![c + dx, c + dy])
                .collect(),
            winner: None,
            value: None,
            black: None,
            white: None,
            opening_stones: None,
        };
        let verdict = judge(&record);
        progress(offsets, &verdict);
        report.judged += 1;
        match verdict {
            Ok(Some(Verdict::Score(s))) => {
                // The side to move is white after an odd number of stones.
                let black_view = if offsets.len() % 2 == 1 { -s } else { s };
                if black_view.abs() <= margin {
                    report.kept.push(Judged {
                        offsets: offsets.clone(),
                        black_view,
                    });
                } else {
                    report.unbalanced += 1;
                }
            }
            Ok(Some(Verdict::Win | Verdict::Loss)) => report.decided += 1,
            Ok(None) => report.silent += 1,
            Err(_) => report.failed += 1,
        }
    }
    report
}

/// One line of an opening file: the offsets, then the judge's score from black's view as a
/// comment (`0,0, -2,2, 1,-1    # +15`).
pub fn format_opening(opening: &Judged) -> String {
    let body: Vec<String> = opening
        .offsets
        .iter()
        .map(|(dx, dy)| format!("{dx},{dy}"))
        .collect();
    format!("{}    # {:+}", body.join(", "), opening.black_view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::openings::parse_openings;

    fn config(seed: u64) -> DrawConfig {
        DrawConfig {
            size: 15,
            rule: Rule::Freestyle,
            stones: vec![3, 5],
            radius: 3,
            seed,
        }
    }

    #[test]
    fn candidates_are_seeded_distinct_up_to_symmetry_and_near_the_centre() {
        let a = candidates(&config(7), 60, &[]);
        assert_eq!(a.len(), 60);
        assert_eq!(a, candidates(&config(7), 60, &[]), "same seed, same draw");
        assert_ne!(
            a,
            candidates(&config(8), 60, &[]),
            "another seed, another draw"
        );
        let mut keys = HashSet::new();
        for (i, o) in a.iter().enumerate() {
            assert_eq!(o.len(), if i % 2 == 0 { 3 } else { 5 }, "{o:?}");
            assert_eq!(o[0], (0, 0));
            assert!(
                o.iter().all(|&(x, y)| x.abs() <= 3 && y.abs() <= 3),
                "{o:?}"
            );
            let moves = points(o, 15).unwrap();
            assert!(check_opening(&moves, 0, 15, 15, Rule::Freestyle).is_ok());
            assert!(keys.insert(canonical_key(&moves, 15)), "{o:?} repeated");
        }
        // A mirrored or turned copy of a drawn opening counts as drawn.
        let mirrored: Offsets = a[0].iter().map(|&(x, y)| (-x, y)).collect();
        let turned: Offsets = a[1].iter().map(|&(x, y)| (-y, x)).collect();
        let exclude = [points(&mirrored, 15).unwrap(), points(&turned, 15).unwrap()];
        let b = candidates(&config(7), 60, &exclude);
        assert_eq!(b.len(), 60);
        assert!(!b.contains(&a[0]) && !b.contains(&a[1]));
    }

    #[test]
    fn a_small_area_runs_out_of_distinct_openings() {
        // Within one cell of the centre, three stones (the centre black) make few openings.
        let cfg = DrawConfig {
            stones: vec![3],
            radius: 1,
            ..config(1)
        };
        let a = candidates(&cfg, 100, &[]);
        assert!(!a.is_empty() && a.len() < 20, "{}", a.len());
        let none = DrawConfig {
            stones: vec![10],
            radius: 1,
            ..config(1)
        };
        assert!(
            candidates(&none, 5, &[]).is_empty(),
            "ten stones in nine cells"
        );
    }

    #[test]
    fn balance_keeps_openings_near_even_from_blacks_view() {
        // The fake judge gives the side to move ten times the sum of the stones' x offsets,
        // except for three openings (by their second stone): a proof, no evaluation, a failure.
        let cands: Vec<Offsets> = vec![
            vec![(0, 0), (1, 0), (2, 0)],
            vec![(0, 0), (-5, 0), (0, 1)],
            vec![(0, 0), (1, 1), (3, 3), (0, 2)],
            vec![(0, 0), (0, 1), (0, 2)],
            vec![(0, 0), (1, 2), (2, 1)],
            vec![(0, 0), (2, 2), (1, 1)],
            vec![(0, 0), (-1, 0), (0, -1), (1, 0), (0, 1)],
            vec![(0, 0), (1, -1), (-1, 1)],
        ];
        let judge = |r: &GameRecord| -> Result<Option<Verdict>, String> {
            let sum: i64 = r.moves.iter().map(|m| m[0] - 7).sum();
            match r.moves[1].as_slice() {
                [7, 8] => Ok(Some(Verdict::Win)),
                [8, 9] => Ok(None),
                [9, 9] => Err("gone".into()),
                _ => Ok(Some(Verdict::Score(10 * sum as i32))),
            }
        };
        let mut seen = 0;
        let report = balance(&cands, 15, Rule::Freestyle, 2, 30, judge, |_, _| seen += 1);
        // White moves after three stones (30 for white is -30 for black: kept), black after
        // four (40: out); the last candidate is not asked once two are kept.
        let kept = vec![
            Judged {
                offsets: cands[0].clone(),
                black_view: -30,
            },
            Judged {
                offsets: cands[6].clone(),
                black_view: 0,
            },
        ];
        assert_eq!(report.kept, kept);
        assert_eq!((seen, report.judged), (7, 7));
        assert_eq!(
            (
                report.unbalanced,
                report.decided,
                report.silent,
                report.failed
            ),
            (2, 1, 1, 1)
        );
    }

    #[test]
    fn formatted_lines_read_back_as_the_same_openings() {
        let judged = Judged {
            offsets: vec![(0, 0), (-2, 2), (1, -1)],
            black_view: 15,
        };
        let line = format_opening(&judged);
        assert_eq!(line, "0,0, -2,2, 1,-1    # +15");
        let text = format!(
            "# a header\n{line}\n{}\n",
            format_opening(&Judged {
                offsets: vec![(0, 0), (1, 1), (2, 0), (-1, 3), (0, -2)],
                black_view: -7,
            })
        );
        let parsed = parse_openings(&text, 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].moves, points(&judged.offsets, 15).unwrap());
        assert_eq!(
            parsed[1].moves,
            points(&[(0, 0), (1, 1), (2, 0), (-1, 3), (0, -2)], 15).unwrap()
        );
    }
}
