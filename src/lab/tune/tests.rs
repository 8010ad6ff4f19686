use super::*;
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;

#[test]
fn a_file_of_samples_reads_back_as_written() {
    let pos =
        Position::from_fen("8/1pp1ppp1/8/p2p4/2P5/5P2/PP1PP2P/8 w -", RuleSet::PAWNRACE).unwrap();
    let lines = vec![
        Line::Sample(Sample {
            index: 17,
            value: Value::Win,
            pos,
        }),
        Line::None(18),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let text = format!("# made by a test\n\n{text}");
    assert_eq!(parse(&text).unwrap(), lines);
}

#[test]
fn a_bad_line_is_named() {
    for (text, want) in [
        ("x win 8/8/8/8/8/8/8/8 w -", "line 1"),
        ("# ok\n3 maybe 8/8/8/8/8/8/8/8 w -", "line 2"),
        ("4 win", "no position"),
    ] {
        let e = parse(text).unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
}

#[test]
fn walks_are_repeatable_and_labels_are_the_solvers() {
    let mut solver = Solver::new(1);
    let o = MakeOptions {
        seed: 3,
        limits: SolveLimits {
            nodes: Some(200_000),
            movetime_ms: None,
        },
    };
    let stop = Stop::new();
    let mut labelled = 0;
    for index in 0..24 {
        assert_eq!(walk(index, 3), walk(index, 3));
        if let Line::Sample(s) = make_sample(&mut solver, index, &o, &stop) {
            assert_eq!(s.index, index);
            assert_eq!(Some(s.pos), walk(index, 3));
            let exact = Solver::new(1).solve(&s.pos, &o.limits, &stop, &mut |_| ());
            if let Some(exact) = exact {
                assert_eq!(exact.value, s.value, "{}", s.pos.fen());
            }
            labelled += 1;
        }
    }
    assert!(labelled > 0);
}

/// Samples labelled by a rule the fit can learn: the side with more pawns
/// wins, equal counts draw.
fn counted_samples() -> Vec<Sample> {
    (0..600)
        .filter_map(|index| {
            let pos = walk(index, 5)?;
            let us = pos.side_to_move();
            let value = match pos.pawns(us).count().cmp(&pos.pawns(!us).count()) {
                std::cmp::Ordering::Greater => Value::Win,
                std::cmp::Ordering::Equal => Value::Draw,
                std::cmp::Ordering::Less => Value::Loss,
            };
            Some(Sample { index, value, pos })
        })
        .collect()
}

#[test]
fn the_fit_lowers_the_error_and_leaves_frozen_terms_alone() {
    let samples = counted_samples();
    assert!(samples.len() > 100, "{}", samples.len());
    let mut fitted = [true; LEAF_TERMS];
    fitted[crate::eval::term::TEMPO] = false;
    let o = FitOptions {
        rounds: 200,
        hold_out: 4,
        rate: 2.0,
        fitted,
        within: None,
    };
    let r = fit(&samples, &o);
    assert!(r.after.train < r.before.train, "{r:?}");
    assert!(r.after.test < r.before.test, "{r:?}");
    assert_eq!(r.train + r.test, samples.len());
    let t = crate::eval::term::TEMPO;
    assert_eq!(r.weights[t], r.initial[t]);
    assert_ne!(r.weights, r.initial);
}

#[test]
fn within_fits_only_the_unclear_positions() {
    let samples = counted_samples();
    let o = FitOptions {
        rounds: 1,
        hold_out: 0,
        rate: 1.0,
        fitted: [true; LEAF_TERMS],
        within: Some(50),
    };
    let r = fit(&samples, &o);
    let unclear = samples
        .iter()
        .filter(|s| crate::eval::evaluate_leaf(&s.pos).abs() <= 50)
        .count();
    assert_eq!((r.train, r.test), (unclear, 0));
}

#[test]
fn a_file_names_the_seed_and_budget_it_was_made_with() {
    let o = MakeOptions {
        seed: 7,
        limits: SolveLimits {
            nodes: Some(5000),
            movetime_ms: None,
        },
    };
    let text = format!("{}3 none\n", header(100, &o));
    assert_eq!(made_with(&text), Some((7, 5000)));
    assert_eq!(parse(&text).unwrap(), vec![Line::None(3)]);
    assert_eq!(made_with("3 none\n"), None);
}
