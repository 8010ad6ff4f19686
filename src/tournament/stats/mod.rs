//! The match's arithmetic: the score and its Elo difference with error
//! bars ([`elo`]), the SPRT's log-likelihood ratio ([`sprt`]), and the
//! running tally of results, faults and move times ([`tally`]).
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

mod elo;
mod sprt;
mod tally;

pub use elo::{Elo, Pentanomial, Score, elo, elo_from_score};
pub use sprt::{Sprt, SprtDecision};
pub use tally::{MatchTally, MoveTimes};
