//! Prints nodes, depth and time of each move of one level-5 self-play game.
use omok::pente::search::{PenteSearcher, level};
use omok::pente::{PenteRules, Position};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let l: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let mut pos = Position::new(PenteRules::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    while pos.outcome().is_none() {
        let t = std::time::Instant::now();
        let r = PenteSearcher::new(level(l), None).search(&pos, &mut rng);
        println!(
            "ply {} depth {} nodes {} score {} {:.3}s",
            pos.ply(),
            r.depth,
            r.nodes,
            r.score,
            t.elapsed().as_secs_f64()
        );
        pos.play(r.best.unwrap()).unwrap();
    }
    println!("{:?} captures {:?}", pos.outcome(), pos.captures());
}
