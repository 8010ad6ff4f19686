#!/usr/bin/env python3
"""How the traps table fared in a match: every position of a player's first
turns (to --plies) that the table (or its file mirror) holds a trap for,
whether the player played the trap, and whether the opponent's next move
threw the result away (by `pawnrace analyse`'s verdict). Counted by the
model that chose each trap (`pawnrace` for the engine's own search, or the
engine a line names after `by`).

    target/release/pawnrace analyse data/match/fsf-1s-fsftraps.pgn > a.txt
    python3 clients/analysis/traps_met.py --pawnrace target/release/pawnrace \\
        --player pawnrace-1s --analysis a.txt [--traps data/traps.txt]

Prints a line per trap position met, then per model: `met N, fell M`.
Standard library only.
"""
import argparse
import re

from trap_probe import Proc, canonical, mirror_move, table_rows


def read_traps(path):
    """{canonical position: (move as in the canonical form, model)}."""
    traps = {}
    for line in open(path):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        key, plain = canonical(w[0] + " " + w[1])
        model = w[w.index("by") + 1] if "by" in w else "pawnrace"
        traps[key] = (w[5] if plain else mirror_move(w[5]), model)
    return traps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pawnrace", required=True)
    ap.add_argument("--player", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--traps", default="data/traps.txt")
    ap.add_argument("--plies", type=int, default=4)
    a = ap.parse_args()
    traps = read_traps(a.traps)
    pr = Proc([a.pawnrace])

    def cmd(line, final):
        pr.send(line)
        return pr.until(lambda l: l.startswith(final) or l.startswith("error"))

    met = {}
    for m, rows in table_rows(open(a.analysis).read()):
        mine = "white" if m[2] == a.player else "black"
        cmd("newgame", "ok newgame")
        cmd(f"gaps {m[4]}", "ok gaps")
        for i, row in enumerate(rows[: a.plies]):
            trap = None
            if row[2] == mine:
                fen = cmd("fen", "ok fen")[-1][len("ok fen "):]
                key, plain = canonical(fen)
                trap = traps.get(key)
            played = cmd(f"move {row[3]}", "ok move")[-1].split()[2]
            if trap is None:
                continue
            mv, model = trap
            if not plain:
                mv = mirror_move(mv)
            answer = rows[i + 1][6] if i + 1 < len(rows) else "-"
            counts = met.setdefault(model, [0, 0])
            if played == mv:
                counts[0] += 1
                counts[1] += answer == "spoiled"
            print(f"game {m[1]}  gaps {m[4]}  ply {row[0]}  {model}  trap {mv}  "
                  f"played {played}  then {answer}")
    pr.send("quit")
    for model, (n, fell) in sorted(met.items()):
        print(f"{model}: met {n}, fell {fell}")


if __name__ == "__main__":
    main()
