//! The match's arithmetic: the tally of results, faults and move times, the
//! Elo difference with its error bars, and the SPRT's log-likelihood ratio.
//!
//! Model: the logistic Elo curve, `score = 1 / (1 + 10^(-elo/400))`. A
//! game scores 1, 1/2 or 0 for engine A, and its variance is estimated from
//! the three observed frequencies (the trinomial model, as cutechess and
//! fastchess do for unpaired games). The interval is normal on the score
//! and mapped through the curve, so it is not symmetric in Elo.
//!
//! The SPRT counts game pairs instead (each opening is played twice with
//! colours swapped): a pair scores 0, 1/2, 1, 3/2 or 2 for A, the
//! pentanomial model of fishtest and fastchess. In Pawn Race most openings
//! are won by one colour with good play, so a pair that goes one game each
//! way is common and says little about strength; the pairs' variance sees
//! that, where the games' variance would not, and the test ends sooner.

use super::game::GameRecord;
use super::player::FaultKind;
use crate::rules::Color;
use std::collections::BTreeMap;
use std::time::Duration;

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
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        trinomial(self.wins as f64, self.draws as f64, self.losses as f64)
    }
}

/// Mean and variance of a game's score given counts of wins, draws, losses.
fn trinomial(wins: f64, draws: f64, losses: f64) -> Option<(f64, f64)> {
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
    fn mean_and_variance(&self, prior: f64) -> Option<(f64, f64)> {
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

/// Thinking times of one engine's moves.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct MoveTimes {
    pub moves: usize,
    pub total: Duration,
    pub max: Duration,
}

impl MoveTimes {
    pub fn average(&self) -> Duration {
        self.total / (self.moves.max(1) as u32)
    }
}

/// Everything counted so far, from engine A's point of view where a point
/// of view is needed. Engines are indexed 0 (A) and 1 (B).
#[derive(Clone, Default, PartialEq, Debug)]
pub struct MatchTally {
    pub score: Score,
    /// A's results with white and with black.
    pub by_colour: [Score; 2],
    pub adjudicated: usize,
    /// Faults per engine, in [`FaultKind::ALL`] order.
    pub faults: [[usize; FaultKind::ALL.len()]; 2],
    pub times: [MoveTimes; 2],
    /// Completed pairs (rounds 1-2, 3-4, ...), for the SPRT.
    pub pairs: Pentanomial,
    /// A's points in pairs with one game finished, by pair.
    half_pairs: BTreeMap<usize, u8>,
}

impl MatchTally {
    pub fn games(&self) -> usize {
        self.score.games()
    }

    /// Counts the game of schedule round `round` (from 1), in which engine
    /// `white` had white. Rounds 2k-1 and 2k are a pair: one opening, both
    /// colours.
    pub fn add(&mut self, round: usize, white: usize, record: &GameRecord) {
        let a_colour = if white == 0 {
            Color::White
        } else {
            Color::Black
        };
        // A's points, in half points.
        let halves = match record.winner {
            None => 1,
            Some(w) if w == a_colour => 2,
            Some(_) => 0,
        };
        for score in [&mut self.score, &mut self.by_colour[a_colour.index()]] {
            match halves {
                1 => score.draws += 1,
                2 => score.wins += 1,
                _ => score.losses += 1,
            }
        }
        let pair = round.saturating_sub(1) / 2;
        match self.half_pairs.remove(&pair) {
            Some(first) => self.pairs.counts[usize::from(first + halves)] += 1,
            None => {
                self.half_pairs.insert(pair, halves);
            }
        }
        match &record.termination {
            super::game::Termination::Adjudicated { .. } => self.adjudicated += 1,
            super::game::Termination::Fault { side, fault } => {
                let engine = engine_of(white, *side);
                let kind = FaultKind::ALL
                    .iter()
                    .position(|k| *k == fault.kind)
                    .expect("every kind is listed");
                self.faults[engine][kind] += 1;
            }
            super::game::Termination::Rules(_) => {}
        }
        for colour in Color::BOTH {
            let t = &mut self.times[engine_of(white, colour)];
            for &d in &record.move_times[colour.index()] {
                t.moves += 1;
                t.total += d;
                t.max = t.max.max(d);
            }
        }
    }

    pub fn fault_total(&self, engine: usize) -> usize {
        self.faults[engine].iter().sum()
    }

    /// The SPRT's log-likelihood ratio, from the completed pairs.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        sprt.llr_pairs(&self.pairs)
    }
}

/// The engine that played `colour` when engine `white` had white.
pub fn engine_of(white: usize, colour: Color) -> usize {
    match colour {
        Color::White => white,
        Color::Black => 1 - white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(wins: usize, draws: usize, losses: usize) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    fn close(a: f64, b: f64) -> bool {
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
