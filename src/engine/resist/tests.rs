//! The practical choice: traps proven again by solvers of their own,
//! draws held only by moves that hold them, and nothing chosen in a win.

use super::model::{MODEL_TABLE_MIB, model_replies};
use super::*;
use crate::engine::tt::Table;
use crate::rules::parse_move;
use crate::testkit::{proven_value as value, replay};
use std::time::Instant;

#[test]
fn the_option_reads_its_words() {
    assert_eq!("practical".parse(), Ok(Resistance::Practical));
    assert_eq!(" LONGEST ".parse(), Ok(Resistance::Longest));
    assert!("contempt".parse::<Resistance>().is_err());
    assert_eq!(Resistance::default(), Resistance::Practical);
}

/// A lost position: the trap's model replies at the depths it names
/// are errors, each proven again by a solver of its own, and so are
/// not at the others.
#[test]
fn a_trap_fools_the_model_where_it_says() {
    let pos = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4", "b7b6"]);
    assert_eq!(value(&pos), Value::Loss);
    let clock = Clock::since(Instant::now());
    let mut solver = Solver::new(16);
    let trap = choose(
        &mut solver,
        &pos,
        Value::Loss,
        &ModelSettings::IN_PLAY,
        60_000,
        &clock,
        &Stop::new(),
    )
    .expect("some move fools the model");
    assert!(pos.is_legal(trap.mv));
    let after = pos.play_unchecked(trap.mv);
    let model = model_replies(
        &mut Table::new(MODEL_TABLE_MIB),
        &after,
        &ModelSettings::IN_PLAY,
        &clock,
        60_000,
        &Stop::new(),
    )
    .unwrap();
    let mut fooled = Vec::new();
    for (depth, reply) in model.choices(ModelSettings::IN_PLAY.depth) {
        if value(&after.play_unchecked(reply)) != Value::Loss {
            fooled.push(depth);
        }
    }
    assert_eq!(fooled, trap.fooled_at);
    let deepest = model.choices(ModelSettings::IN_PLAY.depth).last();
    assert_eq!(deepest.map(|(_, m)| m), Some(trap.reply));
}

/// A draw is held only by moves that hold it: here one (d2d4) of
/// sixteen, whatever a trap elsewhere would promise.
#[test]
fn a_draw_is_resisted_only_with_moves_that_keep_it() {
    let pos = replay("AB", &["h2h3", "a7a5", "e2e3", "c7c6"]);
    let clock = Clock::since(Instant::now());
    let mut solver = Solver::new(16);
    let chosen = choose(
        &mut solver,
        &pos,
        Value::Draw,
        &ModelSettings::IN_PLAY,
        60_000,
        &clock,
        &Stop::new(),
    );
    let d4 = parse_move(&pos, "d2d4").unwrap();
    assert!(chosen.as_ref().is_none_or(|t| t.mv == d4), "{chosen:?}");
}

#[test]
fn nothing_to_resist_in_a_win_or_past_the_deadline() {
    let pos = replay("AE", &["e2e4", "a7a5", "e4e5", "a5a4", "c2c4"]);
    let clock = Clock::since(Instant::now());
    let mut solver = Solver::new(16);
    assert_eq!(
        choose(
            &mut solver,
            &pos,
            Value::Win,
            &ModelSettings::IN_PLAY,
            60_000,
            &clock,
            &Stop::new()
        ),
        None
    );
    let after = pos.play_unchecked(parse_move(&pos, "b7b6").unwrap());
    assert_eq!(
        choose(
            &mut solver,
            &after,
            Value::Loss,
            &ModelSettings::IN_PLAY,
            60_000,
            &clock,
            &Stop::raised()
        ),
        None
    );
}

/// A model whose levels are ever deeper searches is trapped only where its
/// deepest errs; one whose levels are tries of a varying search is trapped
/// wherever any try errs, and the table's reply is one that errs.
#[test]
fn the_trap_rule_weighs_depths_and_tries_apart() {
    let pos = replay("AE", &["e2e4", "a7a5"]);
    let c4 = parse_move(&pos, "c2c4").unwrap();
    let after = pos.play_unchecked(c4);
    let mv = |s: &str| parse_move(&after, s).unwrap();
    let c = Candidate {
        mv: c4,
        replies: vec![mv("d7d5"), mv("a5a4"), mv("a5a4")],
        fooled_at: vec![1],
        score: Score::Cp(0),
    };
    assert_eq!(c.weight(TrapRule::Deepest(3)), 0);
    assert_eq!(c.weight(TrapRule::AnyTry), 1);
    assert_eq!(c.reply(), mv("d7d5"), "the reply that errs");
    let deep = Candidate {
        fooled_at: vec![2, 3],
        ..c.clone()
    };
    assert_eq!(deep.weight(TrapRule::Deepest(3)), 4 + 9);
    assert_eq!(deep.weight(TrapRule::Deepest(4)), 0, "not deep enough");
    assert_eq!(deep.weight(TrapRule::AnyTry), 2);
    assert_eq!(deep.reply(), mv("a5a4"));
    let none = Candidate {
        fooled_at: Vec::new(),
        ..c.clone()
    };
    assert_eq!(none.weight(TrapRule::AnyTry), 0);
    assert_eq!(none.reply(), mv("a5a4"), "the deepest");
    assert_eq!(pick(&[none.clone(), c.clone()], TrapRule::AnyTry), Some(&c));
    assert_eq!(pick(&[none, c], TrapRule::Deepest(3)), None);
}
