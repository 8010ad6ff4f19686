//! Texel's method: the weights of the leaf evaluation's terms that make a
//! logistic curve of the score best predict the solver's labels (1 for a
//! win of the side to move, 0.5 a draw, 0 a loss), by mean squared error.
//! The curve's scale is fitted first, to the weights as they are, so that
//! the fit moves the weights rather than the curve.

use super::Sample;
use crate::eval::{EVAL_LIMIT, LEAF_TERMS, LEAF_WEIGHTS, evaluate_leaf, leaf_terms};
use crate::solver::Value;

/// How a fit runs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Steps of the optimiser (Adam, over the whole training set each).
    pub rounds: usize,
    /// Every n-th sample is held out of the fit and only measured.
    pub hold_out: usize,
    /// The optimiser's step, centipawns.
    pub rate: f64,
    /// The terms fitted; the others keep the evaluation's weights.
    pub fitted: [bool; LEAF_TERMS],
    /// Only samples the evaluation scores within this many centipawns of
    /// level: the unclear positions, where a search's choice is made.
    pub within: Option<i32>,
}

/// Mean squared errors on the samples fitted and on those held out.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Errors {
    pub train: f64,
    pub test: f64,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The logistic curve's scale: a score of `scale` predicts 73%.
    pub scale: f64,
    /// The errors with the evaluation's own weights, and with the fitted.
    pub before: Errors,
    pub after: Errors,
    /// The evaluation's own weights, where the fit started.
    pub initial: [i32; LEAF_TERMS],
    /// The fitted weights, rounded.
    pub weights: [i32; LEAF_TERMS],
    pub train: usize,
    pub test: usize,
}

struct Row {
    terms: [f64; LEAF_TERMS],
    result: f64,
    held_out: bool,
}

fn result(v: Value) -> f64 {
    match v {
        Value::Win => 1.0,
        Value::Draw => 0.5,
        Value::Loss => 0.0,
    }
}

/// The predicted result and whether the score was clamped (no gradient).
fn predict(w: &[f64; LEAF_TERMS], t: &[f64; LEAF_TERMS], scale: f64) -> (f64, bool) {
    let limit = f64::from(EVAL_LIMIT);
    let s: f64 = w.iter().zip(t).map(|(w, t)| w * t).sum();
    let clamped = s.abs() > limit;
    let s = s.clamp(-limit, limit);
    (1.0 / (1.0 + (-s / scale).exp()), clamped)
}

fn errors(rows: &[Row], w: &[f64; LEAF_TERMS], scale: f64) -> Errors {
    let (mut sums, mut counts) = ([0.0; 2], [0usize; 2]);
    for r in rows {
        let e = predict(w, &r.terms, scale).0 - r.result;
        sums[usize::from(r.held_out)] += e * e;
        counts[usize::from(r.held_out)] += 1;
    }
    Errors {
        train: sums[0] / counts[0].max(1) as f64,
        test: sums[1] / counts[1].max(1) as f64,
    }
}

/// The scale that fits `w` best on the training rows: a golden-section
/// search, the error being near enough unimodal in it.
fn fit_scale(rows: &[Row], w: &[f64; LEAF_TERMS]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (10.0f64, 5000.0f64);
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if errors(rows, w, a).train < errors(rows, w, b).train {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the 8x8 board's weights to `samples`, starting from the
/// evaluation's own.
pub fn fit(samples: &[Sample], o: &FitOptions) -> FitReport {
    let rows: Vec<Row> = samples
        .iter()
        .filter(|s| o.within.is_none_or(|n| evaluate_leaf(&s.pos).abs() <= n))
        .enumerate()
        .map(|(i, s)| Row {
            terms: leaf_terms(&s.pos).map(f64::from),
            result: result(s.value),
            held_out: o.hold_out > 0 && i % o.hold_out == 0,
        })
        .collect();
    let mut w = LEAF_WEIGHTS[8].map(f64::from);
    let scale = fit_scale(&rows, &w);
    let before = errors(&rows, &w, scale);
    // Adam, full batch.
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let (mut m, mut v) = ([0.0; LEAF_TERMS], [0.0; LEAF_TERMS]);
    let train: Vec<&Row> = rows.iter().filter(|r| !r.held_out).collect();
    for round in 1..=o.rounds {
        let mut grad = [0.0; LEAF_TERMS];
        for r in &train {
            let (p, clamped) = predict(&w, &r.terms, scale);
            if clamped {
                continue;
            }
            let g = 2.0 * (p - r.result) * p * (1.0 - p) / scale;
            for (gi, ti) in grad.iter_mut().zip(&r.terms) {
                *gi += g * ti;
            }
        }
        let n = train.len().max(1) as f64;
        for i in (0..LEAF_TERMS).filter(|&i| o.fitted[i]) {
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let m_hat = m[i] / (1.0 - b1.powi(round as i32));
            let v_hat = v[i] / (1.0 - b2.powi(round as i32));
            w[i] -= o.rate * m_hat / (v_hat.sqrt() + eps);
        }
    }
    let weights = w.map(|x| x.round() as i32);
    let after = errors(&rows, &weights.map(f64::from), scale);
    FitReport {
        scale,
        before,
        after,
        initial: LEAF_WEIGHTS[8],
        weights,
        train: train.len(),
        test: rows.len() - train.len(),
    }
}
