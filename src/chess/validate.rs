//! Whether a move may be made, and why not. One function reads every kind's
//! movement data, so no kind has code of its own.

use super::board::{Board, Piece};
use super::piece::{Movement, Offset, PawnMoves};
use super::square::{ChessMove, ChessSquare};
use super::variant::ChessVariant;
use crate::rules::Color;
use std::fmt;

/// Why a move may not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    OffBoard(ChessSquare),
    NullMove,
    EmptySquare(ChessSquare),
    /// The piece on the square belongs to the side not to move.
    WrongSide {
        square: ChessSquare,
        owner: Color,
    },
    OwnPiece(ChessSquare),
    /// No movement of the piece goes from here to there (too far, backwards,
    /// sideways, the wrong shape).
    NotHowItMoves {
        piece: String,
    },
    /// A piece stands between; the first such square.
    PathBlocked(ChessSquare),
    /// A straight push onto an occupied square: pawns capture diagonally.
    PushOntoPiece(ChessSquare),
    /// A diagonal step onto an empty square: it is the capture step.
    CaptureOntoEmpty(ChessSquare),
    /// The longer push is only for the piece's first move.
    AlreadyMoved(ChessSquare),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::OffBoard(sq) => write!(f, "{sq} is not on the board"),
            Invalid::NullMove => f.write_str("a move must go to another square"),
            Invalid::EmptySquare(sq) => write!(f, "no piece on {sq}"),
            Invalid::WrongSide { square, owner } => {
                write!(
                    f,
                    "the piece on {square} is {owner}'s, and it is not {owner}'s turn"
                )
            }
            Invalid::OwnPiece(sq) => write!(f, "{sq} holds a piece of the same side"),
            Invalid::NotHowItMoves { piece } => write!(f, "a {piece} does not move that way"),
            Invalid::PathBlocked(sq) => write!(f, "the way is blocked on {sq}"),
            Invalid::PushOntoPiece(sq) => {
                write!(f, "{sq} is occupied: a pawn captures only diagonally")
            }
            Invalid::CaptureOntoEmpty(sq) => {
                write!(
                    f,
                    "nothing to capture on {sq}: a pawn moves diagonally only to capture"
                )
            }
            Invalid::AlreadyMoved(sq) => {
                write!(
                    f,
                    "the piece on {sq} has moved: the longer step is for its first move"
                )
            }
        }
    }
}

impl std::error::Error for Invalid {}

/// Which moves are checked against the pieces' movements. Turn order and
/// the move having a piece to move and somewhere to go are always checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Every piece's moves (the chess validator).
    #[default]
    All,
    /// Only pawn-like pieces' moves; others are taken as given, even onto
    /// their own side's pieces (the pawn move validator).
    PawnsOnly,
}

/// Whether `side` may make `m` on `board`, or the first reason it may not.
/// Reasons are tried in a fixed order: the squares, the piece and its owner,
/// the target, then how the piece moves.
pub fn check(
    variant: &ChessVariant,
    board: &Board,
    side: Color,
    policy: Policy,
    m: ChessMove,
) -> Result<(), Invalid> {
    for sq in [m.from, m.to] {
        if !variant.contains(sq) {
            return Err(Invalid::OffBoard(sq));
        }
    }
    let piece = board.get(m.from).ok_or(Invalid::EmptySquare(m.from))?;
    if piece.color != side {
        return Err(Invalid::WrongSide {
            square: m.from,
            owner: piece.color,
        });
    }
    let kind = variant.kind(piece.kind);
    if policy == Policy::PawnsOnly && !kind.is_pawn_like() {
        return Ok(());
    }
    if m.from == m.to {
        return Err(Invalid::NullMove);
    }
    if board.get(m.to).is_some_and(|p| p.color == side) {
        return Err(Invalid::OwnPiece(m.to));
    }
    let (df, dr) = (
        m.to.file as i16 - m.from.file as i16,
        m.to.rank as i16 - m.from.rank as i16,
    );
    // Both squares are on a board of at most 26x99, so the step fits offsets.
    let step: Offset = (df as i8, dr as i8);
    // A move the piece has no shape for says so; of the shapes that fit, the
    // first reason is kept in case none of them allows the move.
    let mut first_reason = None;
    for movement in &kind.moves {
        let result = match movement {
            Movement::Leaper { offsets } => offsets.contains(&step).then_some(Ok(())),
            Movement::Slider { directions, range } => slide(board, m, df, dr, directions, *range),
            Movement::Pawn(pawn) => pawn_move(board, m, piece, step, pawn),
        };
        match result {
            Some(Ok(())) => return Ok(()),
            Some(Err(reason)) => {
                first_reason.get_or_insert(reason);
            }
            None => {}
        }
    }
    Err(first_reason.unwrap_or_else(|| Invalid::NotHowItMoves {
        piece: kind.name.clone(),
    }))
}

/// Whether `(df, dr)` is `k` whole steps of `(sf, sr)` for some `k >= 1`.
fn steps_along(df: i16, dr: i16, (sf, sr): Offset) -> Option<i16> {
    let (sf, sr) = (sf as i16, sr as i16);
    if (sf, sr) == (0, 0) {
        return None;
    }
    let k = if sf != 0 { df / sf } else { dr / sr };
    (k >= 1 && df == k * sf && dr == k * sr).then_some(k)
}

/// The first occupied square strictly between `from` and `k` steps along.
fn first_blocker(
    board: &Board,
    from: ChessSquare,
    (sf, sr): Offset,
    k: i16,
) -> Option<ChessSquare> {
    (1..k)
        .filter_map(|i| from.offset(i * sf as i16, i * sr as i16))
        .find(|&sq| board.get(sq).is_some())
}

fn slide(
    board: &Board,
    m: ChessMove,
    df: i16,
    dr: i16,
    directions: &[Offset],
    range: Option<u8>,
) -> Option<Result<(), Invalid>> {
    directions.iter().find_map(|&dir| {
        let k = steps_along(df, dr, dir)?;
        if range.is_some_and(|r| k > r as i16) {
            return None;
        }
        Some(match first_blocker(board, m.from, dir, k) {
            Some(sq) => Err(Invalid::PathBlocked(sq)),
            None => Ok(()),
        })
    })
}

fn pawn_move(
    board: &Board,
    m: ChessMove,
    piece: Piece,
    step: Offset,
    pawn: &PawnMoves,
) -> Option<Result<(), Invalid>> {
    let forward = pawn.forward(piece.color);
    let (df, dr) = (step.0 as i16, step.1 as i16);
    if let Some(k) = steps_along(df, dr, forward) {
        let limit = if piece.moved {
            pawn.push
        } else {
            pawn.push.max(pawn.first_push)
        };
        if k > limit as i16 {
            // Told apart from "too far" so that a moved pawn's double step
            // says what is wrong with it.
            return (k <= pawn.first_push as i16).then_some(Err(Invalid::AlreadyMoved(m.from)));
        }
        if let Some(sq) = first_blocker(board, m.from, forward, k) {
            return Some(Err(Invalid::PathBlocked(sq)));
        }
        if pawn.diagonal_capture && board.get(m.to).is_some() {
            return Some(Err(Invalid::PushOntoPiece(m.to)));
        }
        return Some(Ok(()));
    }
    if pawn.diagonal_capture && pawn.diagonals(piece.color).contains(&step) {
        // The target holds no piece of ours: that was checked before.
        return Some(match board.get(m.to) {
            Some(_) => Ok(()),
            None => Err(Invalid::CaptureOntoEmpty(m.to)),
        });
    }
    None
}

/// Every move `side` may make: each piece's square to each square of the
/// board, through [`check`], so that the list and the check cannot disagree.
pub fn valid_moves(
    variant: &ChessVariant,
    board: &Board,
    side: Color,
    policy: Policy,
) -> Vec<ChessMove> {
    let mut moves = Vec::new();
    for (from, piece) in board.pieces() {
        if piece.color != side {
            continue;
        }
        for to in variant.squares() {
            let m = ChessMove::new(from, to);
            if check(variant, board, side, policy, m).is_ok() {
                moves.push(m);
            }
        }
    }
    moves
}
