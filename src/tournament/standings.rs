//! Results per engine pair, built up game by game: wins/losses/draws from the pair's first
//! engine's view, the score, the Elo difference with its 95% error bar, each side's losses by
//! reason, and the plain-text table the command prints at the end.
//!
//! A pair is `(a, b)` with `a` the engine listed first in the spec for round robins and the
//! gauntlet's first engine for gauntlets; Elo is `a`'s advantage over `b`.

use std::collections::BTreeMap;

use super::judge::Reason;
use super::records::GameRecord;
use super::stats::{Score, Wld};

/// Results of one pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairStats {
    /// The engines (indices into the spec's list).
    pub pair: (usize, usize),
    /// Results from `pair.0`'s view.
    pub wld: Wld,
    /// Losses by reason: `[pair.0's, pair.1's]`.
    pub losses: [BTreeMap<Reason, u32>; 2],
    /// Draws by reason.
    pub draws: BTreeMap<Reason, u32>,
}

impl PairStats {
    /// No games yet.
    pub fn new(pair: (usize, usize)) -> PairStats {
        PairStats {
            pair,
            wld: Wld::default(),
            losses: [BTreeMap::new(), BTreeMap::new()],
            draws: BTreeMap::new(),
        }
    }

    /// Counts one game of this pair.
    pub fn add(&mut self, r: &GameRecord) {
        debug_assert_eq!(r.pair, self.pair);
        match r.loser() {
            None => {
                self.wld.add(Score::Draw);
                *self.draws.entry(r.reason).or_default() += 1;
            }
            Some(loser) => {
                let side = usize::from(r.engine(loser) != self.pair.0);
                self.wld
                    .add(if side == 0 { Score::Loss } else { Score::Win });
                *self.losses[side].entry(r.reason).or_default() += 1;
            }
        }
    }

    /// `time 2, crash 1` (reasons in table order; `-` when none).
    pub fn losses_text(&self, side: usize) -> String {
        let parts: Vec<String> = Reason::LOSSES
            .iter()
            .filter_map(|r| self.losses[side].get(r).map(|n| format!("{r} {n}")))
            .collect();
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(", ")
        }
    }
}

/// All pairs, in schedule order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    /// The pairs.
    pub pairs: Vec<PairStats>,
}

impl Standings {
    /// Empty results for these pairs.
    pub fn new(pairs: &[(usize, usize)]) -> Standings {
        Standings {
            pairs: pairs.iter().map(|&p| PairStats::new(p)).collect(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        if let Some(p) = self.pairs.iter_mut().find(|p| p.pair == r.pair) {
            p.add(r);
        }
    }

    /// One engine's results against everybody.
    pub fn engine_wld(&self, engine: usize) -> Wld {
        let mut total = Wld::default();
        for p in &self.pairs {
            let w = if p.pair.0 == engine {
                p.wld
            } else if p.pair.1 == engine {
                p.wld.flipped()
            } else {
                continue;
            };
            total.wins += w.wins;
            total.losses += w.losses;
            total.draws += w.draws;
        }
        total
    }

    /// The plain-text table, one row per pair.
    pub fn table(&self, names: &[String]) -> String {
        let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
        let mut s = format!(
            "{:<width$}  {:<width$}  {:>5}  {:>5} {:>5} {:>5}  {:>6}  {:>18}  losses of the first / second engine\n",
            "engine", "vs", "games", "+W", "-L", "=D", "score", "Elo (95%)"
        );
        for p in &self.pairs {
            let w = p.wld;
            let score = w
                .score()
                .map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0));
            let elo = w.elo().map_or("-".to_string(), |e| e.to_string());
            s.push_str(&format!(
                "{:<width$}  {:<width$}  {:>5}  {:>5} {:>5} {:>5}  {:>6}  {:>18}  {} / {}\n",
                names[p.pair.0],
                names[p.pair.1],
                w.games(),
                w.wins,
                w.losses,
                w.draws,
                score,
                elo,
                p.losses_text(0),
                p.losses_text(1),
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;
    use crate::tournament::records::tests::sample;

    #[test]
    fn counts_from_the_first_engines_view() {
        let mut st = Standings::new(&[(0, 1)]);
        // sample(): engine 1 plays black and wins by five.
        let won_by_1 = sample();
        st.add(&won_by_1);
        let mut won_by_0 = sample();
        won_by_0.winner = Some(Color::White);
        won_by_0.reason = Reason::Time;
        st.add(&won_by_0);
        let mut drawn = sample();
        drawn.winner = None;
        drawn.reason = Reason::MoveLimit;
        st.add(&drawn);
        let p = &st.pairs[0];
        assert_eq!((p.wld.wins, p.wld.losses, p.wld.draws), (1, 1, 1));
        assert_eq!(p.losses_text(0), "five 1");
        assert_eq!(p.losses_text(1), "time 1");
        assert_eq!(st.engine_wld(1).wins, 1);
        let names = vec!["zero".to_string(), "one".to_string()];
        let table = st.table(&names);
        assert!(table.lines().nth(1).unwrap().starts_with("zero"), "{table}");
        assert!(
            table.contains("50.0%") && table.contains("five 1 / time 1"),
            "{table}"
        );
    }
}
