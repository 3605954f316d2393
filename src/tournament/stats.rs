//! Match statistics: win/loss/draw counts, the Elo difference with a 95% error bar, and the
//! sequential probability ratio test (SPRT) that stops a match once it is decided.
//!
//! - **Elo** from the score `s = (W + D/2) / N`: `-400 · log10(1/s − 1)`.
//! - **Error bar**: the per-game results are a trinomial variable (1, ½, 0), so the variance of one
//!   game is `w(1−s)² + d(½−s)² + l(0−s)²` with `w, d, l` the observed fractions; the standard
//!   error of the score is `sqrt(var / N)` and the 95% bar is half the Elo distance between
//!   `s ± 1.96·se` (as cutechess and c-gomoku-cli print it). Where that interval says nothing
//!   (every game the same result, or an interval reaching past 0 or 1, as in small samples),
//!   the Wilson score interval of the score is used instead: it stays inside (0, 1) and behaves
//!   for small samples. A sweep is shown as a bound — 4 wins of 4 games is "> +7", the Elo of
//!   the interval's lower end, not "+2400 ± inf".
//! - **SPRT**: the normal approximation of the log-likelihood ratio that c-chess-cli and
//!   c-gomoku-cli use (no BayesElo draw model): with `m2 = w + d/4` and `var = m2 − s²`,
//!   `LLR = (s1 − s0)(2s − s0 − s1) / (2 · var / N)`, where `s0, s1` are the scores of
//!   `elo0, elo1`. It is 0 until the results contain both a non-loss and a non-win. The test
//!   accepts H1 above `ln((1−β)/α)` and H0 below `ln(β/(1−α))`.
//!
//! Everything here is pure arithmetic on counts; nothing reads a clock.

use serde::{Deserialize, Serialize};

/// The two-sided 97.5% quantile of the standard normal distribution.
pub(crate) const Z_95: f64 = 1.959_963_984_540_054;

/// Scores closer than this to 0 or 1 are clamped before taking the Elo (keeps it finite).
const SCORE_EPSILON: f64 = 1e-6;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wld {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Wld {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The same counts from the other side's point of view.
    pub fn flipped(&self) -> Wld {
        Wld {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Adds one game's result: 1 win, 0.5 draw, 0 loss (from this side's view).
    pub fn add(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Loss => self.losses += 1,
            Score::Draw => self.draws += 1,
        }
    }

    /// The score fraction `(W + D/2) / N`, or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The Elo difference and its 95% interval (`None` before any game); a bound when every
    /// game was won or every game lost (see the module doc).
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let n = f64::from(self.games());
        if self.losses == 0 && self.draws == 0 {
            return Some(EloEstimate::AtLeast(elo_of_score(wilson(s, n).0)));
        }
        if self.wins == 0 && self.draws == 0 {
            return Some(EloEstimate::AtMost(elo_of_score(wilson(s, n).1)));
        }
        let (w, l, d) = self.fractions();
        let var = w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2);
        let se = (var / n).sqrt();
        let (mut lo, mut hi) = (s - Z_95 * se, s + Z_95 * se);
        if se == 0.0 || lo <= 0.0 || hi >= 1.0 {
            (lo, hi) = wilson(s, n);
        }
        Some(EloEstimate::Interval {
            elo: elo_of_score(s),
            margin: (elo_of_score(hi) - elo_of_score(lo)) / 2.0,
        })
    }

    fn fractions(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        (
            f64::from(self.wins) / n,
            f64::from(self.losses) / n,
            f64::from(self.draws) / n,
        )
    }
}

/// One game's result from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Won.
    Win,
    /// Lost.
    Loss,
    /// Drawn.
    Draw,
}

/// The 95% Wilson score interval of a score fraction `s` over `n` games.
fn wilson(s: f64, n: f64) -> (f64, f64) {
    let z2 = Z_95 * Z_95;
    let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_95 / (1.0 + z2 / n) * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// An Elo difference with its 95% interval, or the bound a sweep allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloEstimate {
    /// The estimate and half the width of its 95% interval (both finite).
    Interval {
        /// The estimate.
        elo: f64,
        /// Half the interval.
        margin: f64,
    },
    /// Every game won: the Elo is above this (the interval's lower end).
    AtLeast(f64),
    /// Every game lost: the Elo is below this (the interval's upper end).
    AtMost(f64),
}

impl EloEstimate {
    /// The estimate as text (`+35.2`, `> +7`, `< -7`) and the error bar (`48.1`, or empty for
    /// a bound), for tables with a column each.
    pub fn columns(&self) -> (String, String) {
        match *self {
            EloEstimate::Interval { elo, margin } => (format!("{elo:+.1}"), format!("{margin:.1}")),
            EloEstimate::AtLeast(elo) => (format!("> {elo:+.0}"), String::new()),
            EloEstimate::AtMost(elo) => (format!("< {elo:+.0}"), String::new()),
        }
    }
}

impl std::fmt::Display for EloEstimate {
    /// `+35.2 ± 48.1`, or a sweep's bound: `> +7`, `< -7`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.columns() {
            (elo, margin) if margin.is_empty() => f.write_str(&elo),
            (elo, margin) => write!(f, "{elo} ± {margin}"),
        }
    }
}

/// The Elo difference that gives a score fraction (clamped away from 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(SCORE_EPSILON, 1.0 - SCORE_EPSILON);
    // `+ 0.0` turns an even score's -0.0 into 0.0, so it prints as +0.0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// SPRT parameters: the hypotheses H0 `elo = elo0` and H1 `elo = elo1`, and the error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtParams {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1 (greater than `elo0`).
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds), in (0, 1).
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    /// False-negative rate, in (0, 1).
    #[serde(default = "default_error_rate")]
    pub beta: f64,
}

fn default_error_rate() -> f64 {
    0.05
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted: the first engine is not `elo1` stronger.
    H0,
    /// H1 accepted: the first engine is at least `elo1` stronger... as far as the test can say.
    H1,
}

/// The state of an SPRT after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Accept H0 at or below this.
    pub lower: f64,
    /// Accept H1 at or above this.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl SprtParams {
    /// Checks the parameters: `elo0 < elo1`, both rates in (0, 1).
    pub fn validate(&self) -> Result<(), String> {
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        // Written so that a NaN fails too.
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "sprt: elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        if !rate_ok(self.alpha) || !rate_ok(self.beta) {
            return Err(format!(
                "sprt: alpha ({}) and beta ({}) must be between 0 and 1",
                self.alpha, self.beta
            ));
        }
        Ok(())
    }

    /// The bounds `(lower, upper)` of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results (normal approximation; 0 while the results are
    /// all wins or all losses).
    pub fn llr(&self, wld: &Wld) -> f64 {
        let all_lost = wld.wins == 0 && wld.draws == 0;
        let all_won = wld.losses == 0 && wld.draws == 0;
        if all_lost || all_won {
            return 0.0;
        }
        let n = f64::from(wld.games());
        let (w, _, d) = wld.fractions();
        let s = w + d / 2.0;
        let m2 = w + d / 4.0;
        let var = m2 - s * s;
        if var <= 0.0 {
            return 0.0;
        }
        let var_per_game = var / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        (s1 - s0) * (2.0 * s - s0 - s1) / var_per_game / 2.0
    }

    /// The test's status for these results.
    pub fn status(&self, wld: &Wld) -> SprtStatus {
        let llr = self.llr(wld);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wld(wins: u32, losses: u32, draws: u32) -> Wld {
        Wld {
            wins,
            losses,
            draws,
        }
    }

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-9));
        assert_eq!(format!("{:+.1}", elo_of_score(0.5)), "+0.0");
        assert!(close(elo_of_score(0.75), 190.848, 1e-3));
        assert!(close(elo_of_score(0.25), -190.848, 1e-3));
        assert!(close(score_of_elo(elo_of_score(0.64)), 0.64, 1e-12));
        assert!(elo_of_score(1.0).is_finite() && elo_of_score(0.0).is_finite());
    }

    #[test]
    fn error_bar_from_the_trinomial_variance() {
        // 60 wins, 30 losses, 10 draws: s = 0.65, var = 0.6·0.35² + 0.3·0.65² + 0.1·0.15²
        // = 0.2025, se = 0.045; bar = (elo(0.7382) − elo(0.5618)) / 2.
        let EloEstimate::Interval { elo, margin } = wld(60, 30, 10).elo().unwrap() else {
            panic!("an interval");
        };
        assert!(close(elo, elo_of_score(0.65), 1e-9));
        let se = (0.2025f64 / 100.0).sqrt();
        let want = (elo_of_score(0.65 + Z_95 * se) - elo_of_score(0.65 - Z_95 * se)) / 2.0;
        assert!(close(margin, want, 1e-9), "{margin} vs {want}");
        assert!(close(margin, 68.4, 0.5), "{margin}");
        assert!(wld(0, 0, 0).elo().is_none());
        let shown = EloEstimate::Interval {
            elo: 35.24,
            margin: 48.06,
        };
        assert_eq!(shown.to_string(), "+35.2 ± 48.1");
    }

    #[test]
    fn a_sweep_is_a_bound_from_the_wilson_interval() {
        // 4–0: Wilson's lower end is 4 / (4 + 1.96²) = 0.510, about +7 Elo.
        let e = wld(4, 0, 0).elo().unwrap();
        let lower = 4.0 / (4.0 + Z_95 * Z_95);
        assert_eq!(e, EloEstimate::AtLeast(elo_of_score(lower)));
        assert_eq!(e.to_string(), "> +7");
        assert_eq!(wld(0, 4, 0).elo().unwrap().to_string(), "< -7");
        // More games, a firmer bound; never infinite.
        let EloEstimate::AtLeast(b) = wld(100, 0, 0).elo().unwrap() else {
            panic!()
        };
        assert!(b > 500.0 && b < 1000.0, "{b}");
        // All draws, or an interval that would leave (0, 1): a finite Wilson interval.
        for w in [wld(0, 0, 6), wld(3, 0, 1), wld(1, 1, 0)] {
            let EloEstimate::Interval { margin, .. } = w.elo().unwrap() else {
                panic!("{w:?}")
            };
            assert!(margin.is_finite() && margin > 0.0, "{w:?}: {margin}");
        }
        assert!(!wld(3, 0, 1).elo().unwrap().to_string().contains("inf"));
    }

    #[test]
    fn flipping_negates_the_elo() {
        let a = wld(7, 3, 5);
        let (
            EloEstimate::Interval { elo: x, margin: mx },
            EloEstimate::Interval { elo: y, margin: my },
        ) = (a.elo().unwrap(), a.flipped().elo().unwrap())
        else {
            panic!("intervals");
        };
        assert!(close(x, -y, 1e-9) && close(mx, my, 1e-9));
        assert_eq!(
            wld(3, 0, 0).flipped().elo().unwrap().to_string(),
            wld(0, 3, 0).elo().unwrap().to_string()
        );
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let p = SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = p.bounds();
        assert!(close(lo, -2.944, 1e-3) && close(hi, 2.944, 1e-3));
        assert_eq!(p.llr(&wld(5, 0, 0)), 0.0);
        assert_eq!(p.status(&wld(10, 10, 10)).decision, SprtDecision::Continue);
        // A clear edge decides for H1, a clear deficit for H0.
        assert_eq!(p.status(&wld(700, 500, 300)).decision, SprtDecision::H1);
        assert_eq!(p.status(&wld(500, 700, 300)).decision, SprtDecision::H0);
        // The LLR by hand for 60/30/10: s = .65, m2 = .625, var = .2025.
        let s0 = 0.5;
        let s1 = score_of_elo(10.0);
        let want = (s1 - s0) * (1.3 - s0 - s1) / (0.2025 / 100.0) / 2.0;
        assert!(close(p.llr(&wld(60, 30, 10)), want, 1e-9));
        assert!(p.validate().is_ok());
        assert!(SprtParams { elo1: -1.0, ..p }.validate().is_err());
        assert!(SprtParams { alpha: 1.0, ..p }.validate().is_err());
    }
}
