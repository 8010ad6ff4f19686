//! `pawnrace traps --check`: every Nth trap of the table proven again from
//! an empty solver table.

use super::{TrapsArgs, WHO};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::{Color, Position};
use pawnrace::solver::{SolveLimits, Solver, Value};
use std::process::ExitCode;
use std::time::Instant;

/// `--check`: see [`TrapsArgs::check`].
pub(super) fn check(table: &Traps, every: usize, args: &TrapsArgs) -> ExitCode {
    let limits = SolveLimits {
        nodes: Some(args.check_nodes),
        movetime_ms: None,
    };
    let stop = crate::cli::stop_on_ctrl_c("the checks");
    let mut solver = Solver::new(args.table.mib);
    let started = Instant::now();
    // The value for `side` of `pos`, proven from an empty table.
    let mut value_for = |pos: &Position, side: Color| -> Option<Value> {
        if let Some(o) = pos.outcome() {
            return Some(Value::for_side(o.winner, side));
        }
        solver.clear();
        let d = solver.decide(pos, &limits, &stop)?;
        Some(Value::for_side(d.value.winner(pos.side_to_move()), side))
    };
    let (mut checked, mut wrong, mut unproven) = (0usize, 0usize, 0usize);
    for (pos, trap) in table.entries().step_by(every) {
        if stop.is_raised() {
            break;
        }
        let side = pos.side_to_move();
        let after = pos.play_unchecked(trap.mv);
        let replied = after.play_unchecked(trap.reply);
        let at_least = if trap.value == Value::Draw {
            Value::Win
        } else {
            Value::Draw
        };
        let value = value_for(pos, side);
        if trap.lead {
            // Not an error but the model's reply, into its trap.
            let leads = table
                .written_for(&replied)
                .is_some_and(|t| t.by == trap.by && !t.lead);
            match value {
                Some(Value::Loss) if leads => checked += 1,
                Some(v) => {
                    eprintln!(
                        "{WHO}: {}: the table leads with {} (reply {}) in a loss; proven {v}, {} trap after the reply",
                        pos.fen(),
                        trap.mv,
                        trap.reply,
                        if leads { "a" } else { "no" }
                    );
                    wrong += 1;
                }
                None => unproven += 1,
            }
            continue;
        }
        let kept = if trap.value == Value::Draw {
            value_for(&after, side)
        } else {
            Some(Value::Loss)
        };
        let thrown = value_for(&replied, side);
        match (value, kept, thrown) {
            (Some(v), Some(k), Some(t)) if v == trap.value && k >= v && t >= at_least => {
                checked += 1
            }
            (Some(v), Some(k), Some(t)) => {
                eprintln!(
                    "{WHO}: {}: the table says {} with {} (reply {}); proven {v}, after the trap {k}, after the reply {t}",
                    pos.fen(),
                    trap.value,
                    trap.mv,
                    trap.reply
                );
                wrong += 1;
            }
            _ => unproven += 1,
        }
    }
    eprintln!(
        "{WHO}: checked {checked}, {wrong} wrong, {unproven} beyond {} nodes; {:.0} s",
        args.check_nodes,
        started.elapsed().as_secs_f64()
    );
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
