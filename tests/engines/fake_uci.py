#!/usr/bin/env python3
"""A scripted UCI engine for tests/match/: it logs every line it is sent,
and answers `go` with the first single pawn push the position allows
(reading the position from `position fen ... moves ...` itself, en passant
included), so that a match can run to its end without a real engine.

    fake_uci.py LOG [--illegal-at N]

LOG gets every line received. With --illegal-at N, the Nth `go` of the
process is answered with a move no position allows.
"""

import sys


def board_after(fen, moves):
    """Pawns as {square: 'P' or 'p'} and the side to move after `moves`."""
    fields = fen.split()
    pawns = {}
    for i, row in enumerate(fields[0].split("/")):
        rank, file = 8 - i, 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                pawns["abcdefgh"[file] + str(rank)] = c
                file += 1
    side = fields[1] if len(fields) > 1 else "w"
    for m in moves:
        frm, to = m[:2], m[2:4]
        piece = pawns.pop(frm)
        if frm[0] != to[0] and to not in pawns:
            pawns.pop(to[0] + frm[1], None)  # en passant
        pawns[to] = piece
        side = "b" if side == "w" else "w"
    return pawns, side


def first_push(pawns, side):
    mine, step = ("P", 1) if side == "w" else ("p", -1)
    for sq in sorted(pawns):
        if pawns[sq] != mine:
            continue
        ahead = sq[0] + str(int(sq[1]) + step)
        if 1 <= int(ahead[1]) <= 8 and ahead not in pawns:
            return sq + ahead
    return "0000"


def main():
    log = open(sys.argv[1], "a", buffering=1)
    illegal_at = None
    if "--illegal-at" in sys.argv:
        illegal_at = int(sys.argv[sys.argv.index("--illegal-at") + 1])
    position, gos = ("8/8/8/8/8/8/8/8 w", []), 0
    for line in sys.stdin:
        line = line.strip()
        log.write(line + "\n")
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name fake-uci")
            print("option name Hash type spin default 16 min 1 max 1024")
            print("uciok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "position" and len(words) > 2 and words[1] == "fen":
            if "moves" in words:
                at = words.index("moves")
                position = (" ".join(words[2:at]), words[at + 1:])
            else:
                position = (" ".join(words[2:]), [])
        elif words[0] == "go":
            gos += 1
            print("info depth 1 score cp 0 pv a2a3")
            if gos == illegal_at:
                print("bestmove a1h8")
            else:
                print("bestmove " + first_push(*board_after(*position)))
        elif words[0] == "quit":
            break
        sys.stdout.flush()


main()
