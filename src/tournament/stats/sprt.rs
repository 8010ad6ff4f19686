//! The sequential probability ratio test that ends a match once the
//! evidence for one Elo hypothesis is strong enough.

use super::elo::{Pentanomial, Score, score_from_elo, trinomial};

/// A sequential probability ratio test of H0: elo = elo0 against
/// H1: elo = elo1.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// The LLR fell below the lower bound: H0 (elo0) accepted.
    H0,
    /// The LLR rose above the upper bound: H1 (elo1) accepted.
    H1,
}

impl Sprt {
    /// (lower, upper): ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of unpaired games in the normal
    /// approximation (the GSPRT of fishtest's early years):
    /// `n (s1 - s0) (2 s - s0 - s1) / (2 var)` over the games' trinomial
    /// variance. While every game has had the same result the sample
    /// variance is zero and the ratio undefined; the variance then comes from
    /// the counts with half a game of each result added (a Jeffreys-style
    /// prior), so that a run of wins is evidence too and the test still ends.
    pub fn llr(&self, score: &Score) -> f64 {
        let Some((s, mut var)) = score.mean_and_variance() else {
            return 0.0;
        };
        if var <= 0.0 {
            let (w, d, l) = (score.wins as f64, score.draws as f64, score.losses as f64);
            var = trinomial(w + 0.5, d + 0.5, l + 0.5).map_or(0.25, |(_, v)| v);
        }
        self.normal_llr(score.games() as f64, s, var)
    }

    /// The log-likelihood ratio of game pairs, the same formula over the
    /// pairs' means and their pentanomial variance. Where that variance is
    /// zero (every pair alike), half a pair of each kind is added to it.
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        let Some((s, mut var)) = pairs.mean_and_variance(0.0) else {
            return 0.0;
        };
        if var <= 0.0 {
            var = pairs.mean_and_variance(0.5).map_or(0.125, |(_, v)| v);
        }
        self.normal_llr(pairs.pairs() as f64, s, var)
    }

    /// `n` samples of mean `s` and variance `var`, each sample's expected
    /// score `s0` under H0 and `s1` under H1.
    fn normal_llr(&self, n: f64, s: f64, var: f64) -> f64 {
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision an LLR means, if it crossed a bound.
    pub fn decide_llr(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }

    pub fn decide(&self, score: &Score) -> Option<SprtDecision> {
        self.decide_llr(self.llr(score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::elo::tests::{close, score};

    #[test]
    fn sprt_bounds_and_llr_with_known_inputs() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = t.bounds();
        assert!(close(lower, -2.944_438_979_166_440_3));
        assert!(close(upper, 2.944_438_979_166_440_3));
        assert!(close(t.llr(&score(60, 20, 20)), 1.733_713_311_929_099_7));
        assert!(close(t.llr(&score(40, 20, 60)), -0.776_067_173_397_032));
        assert_eq!(t.decide(&score(60, 20, 20)), None);
        // The LLR grows with n at a fixed score: 300 games at 70% cross.
        assert!(close(
            t.llr(&score(180, 60, 60)),
            3.0 * 1.733_713_311_929_099_7
        ));
        assert_eq!(t.decide(&score(180, 60, 60)), Some(SprtDecision::H1));
        assert_eq!(t.decide(&score(60, 60, 180)), Some(SprtDecision::H0));
        // No games: no evidence. Identical results are evidence all the
        // same, and enough of them decide.
        assert_eq!(t.llr(&Score::default()), 0.0);
        assert!(t.llr(&score(5, 0, 0)) > 0.0 && t.decide(&score(5, 0, 0)).is_none());
        assert_eq!(t.decide(&score(200, 0, 0)), Some(SprtDecision::H1));
        assert_eq!(t.decide(&score(0, 0, 200)), Some(SprtDecision::H0));
        assert_eq!(t.decide(&score(0, 200, 0)), Some(SprtDecision::H0));
    }

    #[test]
    fn sprt_over_pairs() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let pairs = |counts| Pentanomial { counts };
        assert_eq!(t.llr_pairs(&Pentanomial::default()), 0.0);
        // Mean 1/2, variance of a pair's mean 1/32.
        let (s0, s1) = (0.5, score_from_elo(10.0));
        let expected = 4.0 * (s1 - s0) * (1.0 - s0 - s1) / (2.0 / 32.0);
        assert!(close(t.llr_pairs(&pairs([0, 1, 2, 1, 0])), expected));
        // Pairs that never split carry what their games do, in half as
        // many samples of the same variance.
        let whole = t.llr_pairs(&pairs([10, 0, 0, 0, 30]));
        assert!(close(whole, t.llr(&score(60, 0, 20)) / 2.0));
        // Every pair one game each way (each colour wins its opening): no
        // sign of strength, and the pairs see it long before the games do.
        let split = |n| pairs([0, 0, n, 0, 0]);
        let n = (1..1000)
            .find(|&n| t.decide_llr(t.llr_pairs(&split(n))).is_some())
            .unwrap();
        assert_eq!(t.decide_llr(t.llr_pairs(&split(n))), Some(SprtDecision::H0));
        assert_eq!(t.decide(&score(n, 0, n)), None, "{n} pairs");
        assert!(n < 100, "{n}");
    }
}
