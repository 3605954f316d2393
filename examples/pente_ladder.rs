//! Strength measurements of the Pente practice opponent (`docs/pente.md` §9): matches between
//! the practice levels and the capture-greedy one-ply player, two players, 19×19 default rules.
//!
//! `cargo run --release --example pente_ladder -- [games] [pairs…]` where a pair is `A:B` with
//! A, B in `1`..`5` (levels) or `g` (capture-greedy); default: the ladder 1:2 2:3 3:4 4:5 and
//! 5:g. Colours alternate; every game starts from a seeded random two-stone opening near the
//! centre, the same for both colour orders. Prints wins, losses and draws of A.

use omok::pente::search::{capture_greedy_move, choose, level};
use omok::pente::{PenteRules, Position};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn pick(player: &str, pos: &Position, rng: &mut Xoshiro256PlusPlus) -> Option<usize> {
    match player {
        "g" => capture_greedy_move(&mut pos.clone(), rng),
        l => choose(pos, level(l.parse().unwrap_or(5)), None, rng),
    }
}

/// Plays one game; returns the winning seat's player index (0 = `a`, 1 = `b`) or `None`.
fn game(a: &str, b: &str, a_white: bool, seed: u64) -> Option<usize> {
    let mut pos = Position::new(PenteRules::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let c = pos.centre() as i64;
    let n = pos.size() as i64;
    pos.play(c as usize).unwrap();
    loop {
        let r = rng.next_u64();
        let dx = (r % 5) as i64 - 2;
        let dy = ((r >> 8) % 5) as i64 - 2;
        if pos.play((c + dy * n + dx) as usize).is_ok() {
            break;
        }
    }
    let mut move_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
    while pos.outcome().is_none() && pos.ply() < 300 {
        let white_to_move = pos.turn() == 0;
        let who = if white_to_move == a_white { a } else { b };
        let m = pick(who, &pos, &mut move_rng).expect("a legal move");
        pos.play(m).expect("legal");
    }
    let o = pos.outcome()?;
    if o.winners.len() != 1 {
        return None;
    }
    let white_won = o.winners[0] == 0;
    Some(if white_won == a_white { 0 } else { 1 })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20);
    let pairs: Vec<String> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        ["1:2", "2:3", "3:4", "4:5", "5:g"]
            .map(String::from)
            .to_vec()
    };
    for pair in pairs {
        let (a, b) = pair.split_once(':').expect("A:B");
        let (mut w, mut l, mut d) = (0, 0, 0);
        let start = std::time::Instant::now();
        for g in 0..games {
            match game(a, b, g % 2 == 0, 1000 + g / 2) {
                Some(0) => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
        let score = (w as f64 + d as f64 / 2.0) / games as f64 * 100.0;
        println!(
            "{a} vs {b}: {w} wins {l} losses {d} draws of {games} ({score:.1}%), {:.1}s",
            start.elapsed().as_secs_f64()
        );
    }
}
