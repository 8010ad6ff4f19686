//! Scores, game pairs and the Elo difference they mean, with its 95%
//! interval: the trinomial model over games, the pentanomial over pairs.

/// Two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_964;

/// Wins, draws and losses of one engine.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct Score {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Score {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game and its per-game variance; `None` with no games.
    pub(super) fn mean_and_variance(&self) -> Option<(f64, f64)> {
        trinomial(self.wins as f64, self.draws as f64, self.losses as f64)
    }
}

/// Mean and variance of a game's score given counts of wins, draws, losses.
pub(super) fn trinomial(wins: f64, draws: f64, losses: f64) -> Option<(f64, f64)> {
    moments(&[(0.0, losses), (0.5, draws), (1.0, wins)])
}

/// Mean and variance of a sample given as (value, count) pairs; `None` when
/// it is empty.
fn moments(sample: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n: f64 = sample.iter().map(|(_, c)| c).sum();
    if n == 0.0 {
        return None;
    }
    let mean = sample.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let var = sample
        .iter()
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, var))
}

/// Game pairs by A's points in the pair: `counts[k]` pairs scored k/2.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct Pentanomial {
    pub counts: [usize; 5],
}

impl Pentanomial {
    pub fn pairs(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of a pair's mean; `None`
    /// with no pairs. `prior` pseudo-pairs are added to every count.
    pub(super) fn mean_and_variance(&self, prior: f64) -> Option<(f64, f64)> {
        let sample: Vec<(f64, f64)> = (0..5)
            .map(|k| (k as f64 / 4.0, self.counts[k] as f64 + prior))
            .collect();
        moments(&sample)
    }
}

/// The Elo difference a mean score means; infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Elo {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl Elo {
    /// Half the interval's width, the `+/-` that cutechess prints.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

pub fn elo(score: &Score) -> Option<Elo> {
    let (s, var) = score.mean_and_variance()?;
    let se = (var / score.games() as f64).sqrt();
    Some(Elo {
        elo: elo_from_score(s),
        lower: elo_from_score(s - Z95 * se),
        upper: elo_from_score(s + Z95 * se),
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::tournament::stats) fn score(wins: usize, draws: usize, losses: usize) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    pub(in crate::tournament::stats) fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }
    #[test]
    fn elo_of_a_score_and_back() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn error_bars_from_the_trinomial_variance() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance 0.16.
        let e = elo(&score(60, 20, 20)).unwrap();
        assert!(close(e.elo, 147.190_714_117_837_76));
        assert!(close(e.lower, 86.225_014_743_583_4));
        assert!(close(e.upper, 218.251_778_263_859_25));
        assert!(e.margin() > 60.0 && e.margin() < 67.0);
        // Even results: zero, symmetric bars.
        let even = elo(&score(10, 0, 10)).unwrap();
        assert_eq!(even.elo, 0.0);
        assert!(close(even.lower, -even.upper));
        assert_eq!(elo(&Score::default()), None);
    }
}
