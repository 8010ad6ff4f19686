#!/usr/bin/env python3
"""pawnrace as a drop-in UCI engine for python-chess.

Drives `pawnrace` through `chess.engine.SimpleEngine.popen_uci`, the way a
script or GUI built on python-chess would: whole games to their end,
a promotion, analysis with a principal variation, a position pawnrace refuses, `Gaps` for
`position startpos`. Fails on any engine output python-chess does not
understand (it logs those as warnings) and on any move it finds illegal.

    pip install chess
    python3 clients/python/python_chess_uci.py --engine target/release/pawnrace
"""

import argparse
import logging
import sys

try:
    import chess
    import chess.engine
except ImportError:
    print("python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(3)


class Complaints(logging.Handler):
    """Collects what python-chess warns about: output it did not expect."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.seen = []

    def emit(self, record):
        self.seen.append(record.getMessage())


START_AH = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1"


def promoted(board):
    return any(p.piece_type != chess.PAWN for p in board.piece_map().values())


def pawn_race_end(board):
    """How a Pawn Race game ends (python-chess knows none of these): a pawn
    promoted, the last capture left a side without pawns, or the side to
    move has no move (stalemate, a draw). None while the game goes on."""
    if promoted(board):
        return "promotion"
    for colour, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        if not board.pieces(chess.PAWN, colour):
            return f"last capture ({name} has no pawn)"
    if not any(board.legal_moves):
        return "no move"
    return None


# Moves that came with a legal `ponder` reply.
pondered = [0]


def play_to_the_end(engine, board, seconds):
    """Plays the engine against itself until the game ends; returns the
    moves played."""
    played = 0
    while pawn_race_end(board) is None:
        result = engine.play(board, chess.engine.Limit(time=seconds))
        if result.move is None:
            break
        # push() would accept any move; python-chess's own check first.
        assert board.is_legal(result.move), f"illegal {result.move} in {board.fen()}"
        board.push(result.move)
        played += 1
        # The reply it expects (bestmove ... ponder ...), for pondering.
        if result.ponder is not None:
            assert board.is_legal(result.ponder), f"ponder {result.ponder} in {board.fen()}"
            pondered[0] += 1
    return played


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="path to pawnrace")
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()

    complaints = Complaints()
    logging.getLogger("chess.engine").addHandler(complaints)

    engine = chess.engine.SimpleEngine.popen_uci([args.engine])
    try:
        assert engine.id.get("name") == "pawnrace", engine.id
        for option in ("Hash", "Threads", "Move Overhead", "Ponder", "Gaps", "UCI_Variant"):
            assert option in engine.options, f"no option {option}"
        engine.configure({"Hash": 8})

        for game in range(args.games):
            board = chess.Board(START_AH)
            played = play_to_the_end(engine, board, 0.05)
            end = pawn_race_end(board)
            # A game cut short (a move missing) has no end to name.
            assert played > 0 and end is not None, f"no end after {played} moves: {board.fen()}"
            print(f"game {game + 1}: {played} moves, ends by {end}: {board.fen()}")
        assert pondered[0] > 0, "no bestmove named a reply to ponder on"

        # A promotion is the engine's move when it is there to be made.
        board = chess.Board("8/P7/8/8/8/8/7p/8 w - - 0 1")
        result = engine.play(board, chess.engine.Limit(time=0.1))
        assert result.move == chess.Move.from_uci("a7a8q"), result.move

        info = engine.analyse(chess.Board(START_AH), chess.engine.Limit(depth=5))
        assert info.get("depth") == 5 and info.get("pv"), info
        print("analysis:", info["score"], [m.uci() for m in info["pv"]])

        # MultiPV: three lines, three different first moves.
        board = chess.Board("8/pppppp2/6p1/8/8/1PP5/3PPPPP/8 b - - 0 2")
        lines = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
        firsts = [line["pv"][0] for line in lines]
        assert len(lines) == 3 and len(set(firsts)) == 3, lines
        print("multipv 3:", [m.uci() for m in firsts])

        # A position pawnrace refuses (a king): no move, and no hang.
        board = chess.Board("4k3/ppppppp1/8/8/8/8/1PPPPPPP/4K3 w - - 0 1")
        result = engine.play(board, chess.engine.Limit(time=0.1))
        assert result.move is None, result.move

        # A chess GUI's start is `position startpos`: with Gaps set, pawnrace
        # plays that opening's first move (a pawn move chess allows too).
        engine.configure({"Gaps": "AH"})
        result = engine.play(chess.Board(), chess.engine.Limit(time=0.1))
        assert result.move is not None and chess.Board().is_legal(result.move)
        print("from the chess start with Gaps AH:", result.move.uci())
    finally:
        engine.quit()

    if complaints.seen:
        print("python-chess complained:", *complaints.seen[:5], sep="\n  ")
        return 1
    print("python-chess: no complaints")
    return 0


if __name__ == "__main__":
    sys.exit(main())
