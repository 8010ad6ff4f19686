#!/usr/bin/env python3
"""A second referee: pawnrace's rules against Fairy-Stockfish's own
implementation (pyffish, its Python binding) with the shipped
fairy-stockfish/pawnrace.ini.

    second_referee.py PAWNRACE INI [--games N] [--seed S] [--perft-depth D]

PAWNRACE is the binary, driven over its protocol on stdin/stdout; INI the
variants file pyffish loads. Checks, in turn:

1. perft from all 64 gap starts to --perft-depth, one ply deeper from
   eight of them and two from AH: totals and, where they differ, the first
   move whose subtree differs;
2. --games random games (seeded, so a failure reproduces), at every
   position: the legal moves, whether and how the game ended, and the
   position in Fairy-Stockfish's six-field FEN. The moves are chosen to
   make en passant, last-pawn captures and stalemates common; each must
   have been seen, so the check cannot pass by covering nothing.

Any disagreement prints the position (FEN and moves from the start) and
both answers, and the exit status is 1.
"""

import argparse
import multiprocessing
import random
import subprocess
import sys
import time

import pyffish as sf

VARIANT = "pawnrace"
FILES = "abcdefgh"


def start_fen(white_gap, black_gap):
    """The start with these gaps, as the ini's startFen writes AH."""
    def rank(letter, gap):
        return "".join("1" if f == gap.lower() else letter for f in FILES)

    def squash(row):
        out, run = "", 0
        for c in row:
            if c == "1":
                run += 1
            else:
                out += (str(run) if run else "") + c
                run = 0
        return out + (str(run) if run else "")

    black = squash(rank("p", black_gap))
    white = squash(rank("P", white_gap))
    return f"8/{black}/8/8/8/8/{white}/8 w - - 0 1"


class Pawnrace:
    """The pawnrace binary over its own protocol, one command at a time."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.command("setoption name FEN value fairy")

    def command(self, line):
        """Sends `line`; every reply line up to its final one."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            reply = self.proc.stdout.readline()
            if not reply:
                raise RuntimeError(f"pawnrace ended after {line!r}")
            reply = reply.rstrip("\n")
            lines.append(reply)
            if reply.startswith("ok ") or reply.startswith("error ") or reply == "readyok":
                if reply.startswith("error "):
                    raise RuntimeError(f"{line!r}: {reply}")
                return lines

    def position(self, fen, moves):
        line = f"position fen {fen}"
        if moves:
            line += " moves " + " ".join(moves)
        return self.command(line)[-1].removeprefix("ok position ")

    def legal(self):
        return sorted(l.split()[1] for l in self.command("moves") if l.startswith("move "))

    def status(self):
        """`playing`, `draw`, `white-wins` or `black-wins`, and the reason
        (`promotion`, `capture`, `stalemate`)."""
        for line in self.command("board"):
            if line.startswith("status "):
                words = line.split()
                return words[1], (words[2] if len(words) > 2 else "")
        raise RuntimeError("board without a status line")

    def perft(self, depth):
        """The total and the divide, move -> count."""
        lines = self.command(f"perft {depth}")
        divide = {}
        for line in lines[:-1]:
            move, _, count = line.partition(": ")
            divide[move] = int(count)
        return int(lines[-1].split()[-1]), divide

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def ffish_perft(fen, moves, depth):
    """Leaves `depth` plies below the position, by Fairy-Stockfish (the last
    ply counted, not played: a position with no moves has no leaves). Each
    pyffish call costs milliseconds, so the calls are kept few."""
    if depth == 0:
        return 1
    legal = sf.legal_moves(VARIANT, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(ffish_perft(fen, moves + [m], depth - 1) for m in legal)


def ffish_status(fen):
    """The game's state by Fairy-Stockfish, in pawnrace's words."""
    if sf.legal_moves(VARIANT, fen, []):
        return "playing"
    result = sf.game_result(VARIANT, fen, [])
    if result == 0:
        return "draw"
    mover_wins = result > 0
    white_to_move = fen.split()[1] == "w"
    return "white-wins" if mover_wins == white_to_move else "black-wins"


class Referee:
    def __init__(self, pawnrace):
        self.pawnrace = pawnrace
        self.failures = 0

    def disagree(self, what, fen, moves, ours, theirs):
        self.failures += 1
        print(f"DISAGREE ({what}) at position fen {fen} moves {' '.join(moves) or '-'}")
        print(f"  pawnrace:         {ours}")
        print(f"  Fairy-Stockfish:  {theirs}")

    def perft(self, fen, depth):
        self.pawnrace.position(fen, [])
        total, divide = self.pawnrace.perft(depth)
        theirs = ffish_perft(fen, [], depth)
        if total != theirs:
            legal = sf.legal_moves(VARIANT, fen, [])
            for move in sorted(set(divide) | set(legal)):
                a = divide.get(move)
                b = ffish_perft(fen, [move], depth - 1) if move in legal else None
                if a != b:
                    self.disagree(f"perft {depth}, after {move}", fen, [], a, b)
                    break
            else:
                self.disagree(f"perft {depth}", fen, [], total, theirs)
        return total

    def game(self, start, rng, seen):
        """One random game from `start`. pyffish gets the position as the
        start and the moves, pawnrace as its protocol's `position`; the FEN
        pawnrace writes is compared with pyffish's wherever it can hold an
        en passant square (after a double step) and at the end."""
        moves = []
        while True:
            our_fen = self.pawnrace.position(start, moves)
            ours = self.pawnrace.legal()
            theirs = sorted(sf.legal_moves(VARIANT, start, moves))
            if ours != theirs:
                self.disagree("legal moves", start, moves, ours, theirs)
                return
            double_step = moves and abs(int(moves[-1][3]) - int(moves[-1][1])) == 2
            if double_step or not ours:
                their_fen = sf.get_fen(VARIANT, start, moves)
                if our_fen != their_fen:
                    self.disagree("FEN", start, moves, our_fen, their_fen)
                    return
            if not ours:
                (status, reason), their_status = self.pawnrace.status(), ffish_status(their_fen)
                if status != their_status:
                    self.disagree("game end", start, moves, status, their_status)
                else:
                    seen[status] = seen.get(status, 0) + 1
                    seen[reason] = seen.get(reason, 0) + 1
                return
            move = choose(ours, rng)
            if move[0] != move[2] and move[2:4] == our_fen.split()[3]:
                seen["en passant"] = seen.get("en passant", 0) + 1
            moves.append(move)


def play_games(job):
    """A worker's share of the games: (failures, what was seen)."""
    binary, ini, seed, games = job
    if VARIANT not in sf.variants():
        sf.load_variant_config(open(ini).read())
    pawnrace = Pawnrace(binary)
    referee = Referee(pawnrace)
    rng = random.Random(seed)
    starts = all_starts()
    seen = {}
    for i in range(games):
        # A third of the games from a few pawns a side, where captures of
        # the last pawn and stalemates come often.
        start = sparse_position(rng) if i % 3 == 2 else rng.choice(starts)
        referee.game(start, rng, seen)
        if referee.failures >= 5:
            break
    pawnrace.close()
    return referee.failures, seen


def sparse_position(rng):
    """One to four pawns a side on ranks 2 to 7, either side to move, each
    black pawn most often where a white one can take it (so that captures
    of the last pawn are common); no pawn on its last rank, so the game is
    not over yet."""
    n = rng.randint(1, 4)
    board = {}
    while len(board) < 2 * n:
        f, r = rng.randrange(8), rng.randint(2, 6)
        white = FILES[f] + str(r)
        near = [FILES[g] + str(r + 1) for g in (f - 1, f + 1) if 0 <= g < 8]
        black = rng.choice(near) if rng.random() < 0.7 else FILES[rng.randrange(8)] + str(rng.randint(2, 7))
        if white not in board and black not in board and white != black:
            board[white], board[black] = "P", "p"
    rows = []
    for rank in range(8, 0, -1):
        row, run = "", 0
        for f in FILES:
            piece = board.get(f + str(rank))
            if piece:
                row += (str(run) if run else "") + piece
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + f" {rng.choice('wb')} - - 0 1"


def all_starts():
    """The 64 gap starts, white's gap first: AA, AB, ..., HH."""
    return [start_fen(w, b) for w in FILES.upper() for b in FILES.upper()]


def choose(legal, rng):
    """A random move, with captures (en passant among them) and double
    steps favoured, and pushes that block the opponent now and then, so
    that en passant and stalemate come up often."""
    captures = [m for m in legal if m[0] != m[2]]
    doubles = [m for m in legal if abs(int(m[3]) - int(m[1])) == 2]
    r = rng.random()
    if captures and r < 0.55:
        return rng.choice(captures)
    if doubles and r < 0.75:
        return rng.choice(doubles)
    return rng.choice(legal)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pawnrace")
    parser.add_argument("ini")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--perft-depth", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2, help="processes playing the games")
    args = parser.parse_args()

    sf.load_variant_config(open(args.ini).read())
    if VARIANT not in sf.variants():
        print(f"{args.ini} defines no {VARIANT} variant")
        return 1
    pawnrace = Pawnrace(args.pawnrace)
    referee = Referee(pawnrace)
    began = time.monotonic()
    starts = all_starts()
    assert starts[7] == sf.start_fen(VARIANT), "AH, the ini's start"
    depth = args.perft_depth
    counts = [
        sum(referee.perft(s, depth) for s in starts),
        sum(referee.perft(starts[i], depth + 1) for i in range(0, 64, 9)),
        referee.perft(starts[7], depth + 2),
    ]
    pawnrace.close()
    print(
        f"perft: 64 starts at depth {depth} ({counts[0]} leaves), 8 at depth {depth + 1} "
        f"({counts[1]}), AH at depth {depth + 2} ({counts[2]}) in {time.monotonic() - began:.1f} s"
    )

    began = time.monotonic()
    shares = [args.games // args.jobs + (i < args.games % args.jobs) for i in range(args.jobs)]
    jobs = [(args.pawnrace, args.ini, args.seed * 1000 + i, n) for i, n in enumerate(shares)]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(play_games, jobs)
    seen = {}
    for failures, counts in results:
        referee.failures += failures
        for kind, n in counts.items():
            seen[kind] = seen.get(kind, 0) + n
    print(
        f"games: {args.games} (seed {args.seed}, {args.jobs} processes) in "
        f"{time.monotonic() - began:.1f} s; " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items()))
    )
    for kind in ("white-wins", "black-wins", "promotion", "capture", "stalemate", "en passant"):
        if seen.get(kind, 0) < 5 and referee.failures == 0:
            print(f"too few games ended or went through {kind!r} to trust the check")
            referee.failures += 1
    if referee.failures:
        print(f"{referee.failures} disagreement(s)")
        return 1
    print("agreed everywhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
