//! Thinking ahead. A move the proof tables answer takes none of the move's
//! time, and the move after it may leave them: the opponent's reply leads
//! to a position the next move must prove within its own time, and at
//! 100 ms a move that is 35 ms of proof. So where some reply leads out of
//! the tables, the rest of this move's time proves the position after the
//! move, the opponent to move: a proof of its value proves an answer to
//! every reply (where the engine wins) and leaves them in the solver's
//! table, which the next move reads, as it reads what pondering proved.
//!
//! Measured with `clients/analysis/replay.py --movetime 100` over the
//! record matches' turns (2026-11-29, this machine, runs taking turns):
//! `fsf-1s-record.pgn` 2, 1, 1 spoiled of 1,799 against 8, 8, 6 without
//! it; `fsf-1s-record-2.pgn` 5, 3, 3 of 1,809 against 6, 8, 6. Proving
//! the position after the move whether or not its replies leave the
//! tables did as well (2, 2, 2 and 4, 4, 4), the replays taking 41 to 60 s
//! against 24 to 48; proving each reply's position that leaves them in
//! equal shares of the time, rather than the one position whose proof
//! orders the replies, did worse (2 and 6; 5 and 6).

use super::{Tally, within};
use crate::proofs;
use crate::proofs::traps::Traps;
use crate::rules::{Move, Position};
use crate::solver::Solver;
use crate::stop::Stop;

/// After `mv`, a move from the tables in `pos`: the position after it
/// proved until `until` ms on the go's clock (none: until `stop`, when
/// pondering), unless the game ends there or every reply leads to a
/// position the next move answers without a proof. `traps`: whether the
/// next move reads the traps table first (practical resistance).
pub(super) fn think(
    solver: &mut Solver,
    pos: &Position,
    mv: Move,
    until: Option<u64>,
    traps: bool,
    stop: &Stop,
    tally: &mut Tally<'_>,
) {
    let after = pos.play_unchecked(mv);
    if after.outcome().is_some() || !leaves_the_tables(&after, traps) {
        return;
    }
    // Its own answer is not needed: what it proved stays in the table.
    let _ = solver.decide(&after, &within(until, tally.clock), stop);
    tally.spent(solver);
}

/// Whether some reply in `pos` leads to a position the next move has to
/// prove: the game goes on there and neither the proof tables nor (with
/// `traps`) the traps table answer it.
pub(super) fn leaves_the_tables(pos: &Position, traps: bool) -> bool {
    pos.legal_moves().iter().any(|&reply| {
        let next = pos.play_unchecked(reply);
        next.outcome().is_none()
            && proofs::known(&next).is_none()
            && !(traps && Traps::builtin().get(&next).is_some())
    })
}
