//! Race arithmetic shared by the engine's search and the exact solver, so
//! that neither depends on the other: the static evaluation, weighted one
//! way for the solver's move ordering and another for the search's leaves
//! ([`evaluate_leaf`]), the exact win-in-one test both
//! rely on, each side's fastest pawn, and the score scales ([`score`]).
//! [`Siblings`] evaluates a node's children from the node's evaluation, as
//! the solver's move ordering does at every node.
//!
//! The evaluation is from the side to move's point of view: pawns cannot be
//! blocked from behind or caught by kings, so a passed pawn's race against
//! the enemy's fastest pawn is plain counting. Depends on `rules` only.

mod leaf;
pub mod score;
mod siblings;

pub use leaf::{LEAF_TERMS, LEAF_WEIGHTS, evaluate_leaf, leaf_terms, term};
pub use score::EVAL_LIMIT;
pub use siblings::{Shares, Siblings};

use crate::rules::{Bitboard, Color, Position, Square};

const PAWN: i32 = 100;
/// A passer that reaches its goal before any enemy pawn can reach its own:
/// nothing but an unlikely capture sequence stops it.
const RACE_WIN: i32 = 6_000;
/// Per move the winning passer still needs, so that faster wins score higher.
const RACE_WIN_STEP: i32 = 100;
/// A passer ahead of every enemy passer, though some enemy pawn could still
/// break through in time.
const RACE_LEAD: i32 = 250;

/// The ranks between a pawn of `color` on `sq` and its goal: its moves
/// there with no double step.
pub fn steps_to_goal(pos: &Position, color: Color, sq: Square) -> u32 {
    let last = pos.rules().height() - 1;
    u32::from(match color {
        Color::White => last - sq.rank(),
        Color::Black => sq.rank(),
    })
}

/// Moves a pawn of `color` on `sq` needs to reach its goal with a free path,
/// counting the double step from the home rank.
pub fn moves_to_goal(pos: &Position, color: Color, sq: Square) -> u32 {
    let rules = pos.rules();
    let steps = steps_to_goal(pos, color, sq);
    if rules.double_step() && sq.rank() == rules.home_rank(color) && steps >= 2 {
        steps - 1
    } else {
        steps
    }
}

/// The weights of one use of the evaluation; both share the race terms.
#[derive(Copy, Clone)]
struct Weights {
    /// Every pawn's advancement bonus, in eighths of `scale * adv²`.
    advance: i32,
    /// For having the move.
    tempo: i32,
}

/// The solver's move ordering ([`evaluate`]): the fewest nodes for its
/// proofs. The search's leaf weights (`leaf`) order worse: 7% more nodes
/// deciding the keep set's dev positions.
const ORDERING: Weights = Weights {
    advance: 2,
    tempo: 10,
};

/// One side's share of the evaluation.
#[derive(Copy, Clone)]
struct Side {
    /// Material and advancement.
    value: i32,
    /// Moves the side's best passer needs, if it has one.
    passer: Option<u32>,
    /// A lower bound on the moves any of its pawns needs to reach the goal.
    fastest: u32,
}

fn side(pos: &Position, color: Color) -> Side {
    let pawns = pos.pawns(color);
    side_of(pos, color, pawns, pawns & !blocked_zone(pos, color))
}

/// [`side`] from the side's pawns and which of them are passed, which are
/// all it depends on besides the rules.
fn side_of(pos: &Position, color: Color, pawns: Bitboard, passed: Bitboard) -> Side {
    let value = ranks_value(pos, color, pawns, passed, ORDERING.advance);
    side_valued(pos, color, pawns, passed, value)
}

/// A share worth `value`, with the race distances of `pawns`, `passed` of
/// them passed.
fn side_valued(
    pos: &Position,
    color: Color,
    pawns: Bitboard,
    passed: Bitboard,
    value: i32,
) -> Side {
    Side {
        value,
        passer: leader(passed, color).map(|sq| moves_to_goal(pos, color, sq)),
        fastest: leader(pawns, color).map_or(u32::MAX, |sq| moves_to_goal(pos, color, sq)),
    }
}

/// Material and advancement of `pawns`, `passed` of them passed, with each
/// pawn's advancement weighted by `advance` eighths.
fn ranks_value(
    pos: &Position,
    color: Color,
    pawns: Bitboard,
    passed: Bitboard,
    advance: i32,
) -> i32 {
    // Squaring the advancement rewards pushing one pawn far over pushing
    // several a little; scale it to the board so short boards are not flat.
    let scale = SCALE[pos.rules().height() as usize];
    // Set-wise rather than pawn by pawn: the solver orders every child by
    // this, and the per-pawn loop was a fifth of its time. Pawns on a rank
    // share their advancement, so each rank's terms are counted at once.
    let (counts, passed_counts) = (rank_counts(pawns.0), rank_counts(passed.0));
    let home = pos.rules().home_rank(color) as i32;
    let mut value = 0;
    let mut left = pawns.0;
    while left != 0 {
        let shift = left.trailing_zeros() & !7;
        let adv = (shift / 8) as i32 - home;
        let adv2 = adv * adv;
        let n = (counts >> shift & 0xFF) as i32;
        let p = (passed_counts >> shift & 0xFF) as i32;
        value += n * (PAWN + scale * adv2 * advance / 8) + p * (10 + scale * adv2 / 2);
        left &= !(0xFF << shift);
    }
    value
}

/// `36 / (height - 2)` by board height (3..=8), at least 1: a table, as a
/// division on every evaluation showed in profiles.
const SCALE: [i32; 9] = [36, 36, 36, 36, 18, 12, 9, 7, 6];

/// Each rank's pawn count in that rank's byte. The build targets plain
/// x86-64, without a popcount instruction, so the bytes come from the first
/// steps of the software count and serve every rank at once.
pub const fn rank_counts(b: u64) -> u64 {
    let x = b - ((b >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
}

/// The squares where a pawn of `color` is not passed: beside or on the
/// file of an enemy pawn, behind it.
fn blocked_zone(pos: &Position, color: Color) -> Bitboard {
    pos.pawns(!color).front_span(!color).widen()
}

/// The most advanced pawn of `pawns`, which belong to `color`: the fewest
/// moves to the goal, as the distance never grows with advancement.
pub fn leader(pawns: Bitboard, color: Color) -> Option<Square> {
    if pawns.is_empty() {
        return None;
    }
    let index = match color {
        Color::White => 63 - pawns.0.leading_zeros(),
        Color::Black => pawns.0.trailing_zeros(),
    };
    Square::from_index(index as u8)
}

/// The score of `pos` for the side to move, in centipawns, within
/// `±EVAL_LIMIT`, as the solver orders moves by it; the search's leaves
/// use [`evaluate_leaf`]. Only meaningful for
/// positions still being played. The solver works it out through
/// [`Siblings`]; alone, it is what the tests hold those results to.
#[cfg(test)]
pub fn evaluate(pos: &Position) -> i32 {
    siblings::evaluate_shares(pos).0
}

/// The score from the side to move's and the other side's shares, with
/// `tempo` for having the move.
fn combine(mine: Side, theirs: Side, tempo: i32) -> i32 {
    let race = race_score(&mine, &theirs, [RACE_WIN, -RACE_WIN_STEP, RACE_LEAD]);
    (mine.value - theirs.value + tempo + race).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// What the race between the two sides' best passers is worth to the side
/// to move: `win` for a passer that promotes before any enemy pawn can, and
/// `per_move` for each move it still needs; `lead` for a passer ahead of
/// every enemy passer though not surely winning; the other side's likewise,
/// taken off.
fn race_score(mine: &Side, theirs: &Side, [win, per_move, lead]: [i32; 3]) -> i32 {
    let mut score = 0;
    // The side to move promotes a passer needing d moves on ply 2d-1, the
    // other side on ply 2d: the side to move wins ties.
    if let Some(d) = mine.passer {
        if d <= theirs.fastest {
            score += win + per_move * d as i32;
        } else if theirs.passer.is_none_or(|t| d <= t) {
            score += lead;
        }
    }
    if let Some(d) = theirs.passer {
        if d < mine.fastest {
            score -= win + per_move * d as i32;
        } else if mine.passer.is_none_or(|m| d < m) {
            score -= lead;
        }
    }
    score
}

/// Whether `color` could win with its next move if it were to move: a pawn
/// steps or captures onto its goal, or it captures the last enemy pawn.
/// Used to keep quiescence from standing pat into an immediate loss.
pub fn threatens_win(pos: &Position, color: Color) -> bool {
    let rules = pos.rules();
    let own = pos.pawns(color);
    let enemy = pos.pawns(!color);
    let empty = rules.board() & !(own | enemy);
    let forward = match color {
        Color::White => own.shift_ranks(1),
        Color::Black => own.shift_ranks(-1),
    };
    // Diagonals: one file either way from the square ahead, without wrapping.
    let towards_a = Bitboard((forward.0 & !Bitboard::FILE_A.0) >> 1);
    let towards_h = Bitboard((forward.0 & !Bitboard::FILE_H.0) << 1);
    let attacks = towards_a | towards_h;
    let goal = rules.goal(color);
    let single = forward & empty;
    let double = match color {
        Color::White => (single & rules.double_from(color)).shift_ranks(1),
        Color::Black => (single & rules.double_from(color)).shift_ranks(-1),
    } & empty;
    if !((single | double | (attacks & enemy)) & goal).is_empty() {
        return true;
    }
    // Any capture of the last pawn wins, en passant included.
    let mut capturable = enemy;
    if let Some(ep) = pos.en_passant() {
        capturable |= ep.bb();
    }
    enemy.count() == 1 && !(attacks & capturable).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Gaps, RuleSet};
    use crate::testkit::{Rng, random_pawns};

    fn fen(text: &str) -> Position {
        Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
    }

    /// Whether no enemy pawn stands ahead of `sq` on its own or a neighbouring
    /// file: no enemy pawn can then ever stop it by blocking or capturing.
    fn is_passed(pos: &Position, color: Color, sq: Square) -> bool {
        (sq.bb().front_span(color).widen() & pos.pawns(!color)).is_empty()
    }

    /// The evaluation's sides as first written, pawn by pawn.
    fn side_per_pawn(pos: &Position, color: Color) -> (i32, Option<u32>, u32) {
        let scale = 36 / (pos.rules().height() as i32 - 2).max(1);
        let (mut value, mut passer, mut fastest) = (0, None, u32::MAX);
        for sq in pos.pawns(color) {
            let adv = (sq.rank() as i32 - pos.rules().home_rank(color) as i32).abs();
            let dist = moves_to_goal(pos, color, sq);
            fastest = fastest.min(dist);
            value += PAWN + scale * adv * adv / 4;
            if is_passed(pos, color, sq) {
                value += 10 + scale * adv * adv / 2;
                passer = Some(passer.map_or(dist, |p: u32| p.min(dist)));
            }
        }
        (value, passer, fastest)
    }

    /// Pawns a side for the random placements of these tests: up to two
    /// ranks' worth, so that pawns block, guard and capture each other.
    pub(super) fn crowded(rules: RuleSet) -> usize {
        2 * rules.width() as usize
    }

    /// The positions of `draws` random pawn placements ([`random_pawns`],
    /// [`crowded`]) on each of the 8x8 and 4x4 boards, with each of `sides`
    /// to move (placements that make no legal position left out).
    pub(super) fn random_positions(seed: u64, draws: usize, sides: &[Color]) -> Vec<Position> {
        let mut rng = Rng::new(&[seed]);
        let mut out = Vec::new();
        for rules in [RuleSet::PAWNRACE, RuleSet::MINI4] {
            for _ in 0..draws {
                let [white, black] = random_pawns(&mut rng, rules, crowded(rules));
                out.extend(
                    sides
                        .iter()
                        .filter_map(|&side| Position::new(rules, white, black, side, None).ok()),
                );
            }
        }
        out
    }

    #[test]
    fn set_wise_sides_match_the_pawn_by_pawn_count() {
        let positions = random_positions(0x9E37_79B9_7F4A_7C15, 5000, &[Color::White]);
        for p in &positions {
            for color in Color::BOTH {
                let s = side(p, color);
                assert_eq!((s.value, s.passer, s.fastest), side_per_pawn(p, color));
            }
        }
        assert!(positions.len() > 1000, "{}", positions.len());
    }

    #[test]
    fn the_start_is_roughly_level_and_mirrors_exactly() {
        for gaps in Gaps::all(8) {
            let p = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
            assert!(evaluate(&p).abs() < 100, "{gaps}: {}", evaluate(&p));
            assert_eq!(evaluate(&p), evaluate(&p.mirror()));
        }
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        for text in [
            "8/3p4/8/2P5/8/8/6P1/8 w -",
            "8/p7/8/8/4P3/8/8/8 b -",
            "8/pp6/8/8/8/8/6PP/8 w -",
        ] {
            let p = fen(text);
            assert_eq!(evaluate(&p), evaluate(&p.mirror()), "{text}");
        }
    }

    #[test]
    fn passers_are_found_with_the_front_span() {
        let p = fen("8/3p4/8/8/8/8/2P3P1/8 w -");
        assert!(!is_passed(&p, Color::White, "c2".parse().unwrap()));
        assert!(is_passed(&p, Color::White, "g2".parse().unwrap()));
        assert!(!is_passed(&p, Color::Black, "d7".parse().unwrap()));
    }

    #[test]
    fn distances_count_the_double_step() {
        let p = fen("8/3p4/8/8/8/8/6P1/8 w -");
        assert_eq!(moves_to_goal(&p, Color::White, "g2".parse().unwrap()), 5);
        assert_eq!(moves_to_goal(&p, Color::Black, "d7".parse().unwrap()), 5);
        assert_eq!(moves_to_goal(&p, Color::White, "g3".parse().unwrap()), 5);
    }

    #[test]
    fn the_race_counts_the_tempo() {
        // Equal distances: the side to move queens first.
        let w = fen("8/p7/8/8/8/8/7P/8 w -");
        assert!(evaluate(&w) > 3000, "{}", evaluate(&w));
        let b = fen("8/p7/8/8/8/8/7P/8 b -");
        assert!(evaluate(&b) > 3000, "{}", evaluate(&b));
        // One move behind with the move: losing.
        let slow = fen("8/8/p7/8/8/8/7P/8 w -");
        assert!(evaluate(&slow) > 3000, "{}", evaluate(&slow));
        let slower = fen("8/8/8/p7/8/8/7P/8 w -");
        assert!(evaluate(&slower) < -3000, "{}", evaluate(&slower));
    }

    #[test]
    fn winning_threats_are_seen() {
        let p = fen("8/4P3/8/8/8/8/p7/8 w -");
        assert!(threatens_win(&p, Color::White));
        assert!(threatens_win(&p, Color::Black));
        assert!(!threatens_win(
            &fen("8/8/8/8/4p3/4P3/8/8 w -"),
            Color::White
        ));
        // Capturing the last pawn wins too, on either diagonal.
        assert!(threatens_win(&fen("8/8/8/3p4/4P3/8/8/8 b -"), Color::White));
        assert!(threatens_win(&fen("8/8/8/5p2/4P3/8/8/8 b -"), Color::White));
        assert!(!threatens_win(&fen("8/8/8/7p/P7/8/8/8 b -"), Color::White));
    }
}
