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

Prints a line per trap position met, then per model: `met N, fell M`. A
lead-in (a move that leads to the model's trap a move later) is counted
apart, as `<model> lead`: `met N, replied as led M`, whether the opponent
played the reply it leads with (the trap that follows has its own line).

With `--engine` (a UCI command, `--option NAME=VALUE`, `--movetime`), each
trap the player played is put to that engine again, `--repeat` times two
ways: from a new game (`ucinewgame`, then the trap's position), and as in
the match, where the engine has searched its own earlier turns of the game
first and its hash still holds them. Counted is how often its reply throws
its result away, by `pawnrace analyse`'s verdict (any such reply, not only
the table's); a model that asks the engine from a new game only, as
`pawnrace traps --engine` does, sees the first figure.

    python3 clients/analysis/traps_met.py ... --engine Fairy-Stockfish/src/stockfish \\
        --option VariantPath=fairy-stockfish/pawnrace.ini --option UCI_Variant=pawnrace

Standard library only.
"""
import argparse
import os
import tempfile

from trap_probe import Engine, Proc, mirror_move, mirror_rank, table_rows, verdicts


def read_traps(path):
    """{position (board and side): (move, model, reply)}; a lead-in's model
    is written `<model> lead`, its reply the one it leads with."""
    traps = {}
    for line in open(path):
        w = line.split()
        # `none`: a model no move fooled there; play reads only traps.
        if not w or w[0].startswith("#") or w[4] == "none":
            continue
        model = w[w.index("by") + 1] if "by" in w else "pawnrace"
        if w[4] == "lead":
            model += " lead"
        traps[w[0] + " " + w[1]] = (w[5], model, w[7])
    return traps


def trap_in(traps, fen):
    """The trap the engine plays in `fen`: the one written for it, else its
    file mirror's, mirrored (as `Traps::get` reads the table)."""
    board, side = fen.split()[:2]
    if f"{board} {side}" in traps:
        return traps[f"{board} {side}"]
    mirrored = "/".join(mirror_rank(r) for r in board.split("/"))
    found = traps.get(f"{mirrored} {side}")
    return found and (mirror_move(found[0]), found[1], mirror_move(found[2]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pawnrace", required=True)
    ap.add_argument("--player", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--traps", default="data/traps.txt")
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--engine", help="UCI engine to put each trap played to again")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for --engine")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    traps = read_traps(a.traps)
    pr = Proc([a.pawnrace])
    # The engine reads a position as Fairy-Stockfish writes it.
    pr.send("setoption name FEN value fairy")
    pr.until(lambda l: l.startswith("ok setoption") or l.startswith("error"))
    engine = Engine(a.engine.split(), a.option, a.movetime) if a.engine else None

    def cmd(line, final):
        pr.send(line)
        return pr.until(lambda l: l.startswith(final) or l.startswith("error"))

    met = {}
    # (the line, its model, moves to the trap, the replies from a new game,
    # as played)
    lines = []
    # A lead-in played: its line's index and the reply it leads with,
    # judged once the next move is read.
    led = None
    for m, rows in table_rows(open(a.analysis).read()):
        mine = "white" if m[2] == a.player else "black"
        cmd("newgame", "ok newgame")
        cmd(f"gaps {m[4]}", "ok gaps")
        start = cmd("fen", "ok fen")[-1][len("ok fen "):]
        moves = []
        # One ply past --plies: a lead-in's reply is judged there.
        for i, row in enumerate(rows[: a.plies + 1]):
            trap = None
            if row[2] == mine and i < a.plies:
                fen = cmd("fen", "ok fen")[-1][len("ok fen "):]
                trap = trap_in(traps, fen)
            played = cmd(f"move {row[3]}", "ok move")[-1].split()[2]
            moves.append(played)
            if led is not None:
                (k, expected), led = led, None
                as_led = played == expected
                met[lines[k][1]][1] += as_led
                lines[k] = (lines[k][0] + ("as led" if as_led else f"otherwise, not {expected}"),
                            *lines[k][1:])
            if trap is None:
                continue
            mv, model, reply = trap
            if model.endswith(" lead"):
                # It fools nobody itself: whether the reply it leads with
                # came (the trap after it has its own line).
                counts = met.setdefault(model, [0, 0])
                counts[0] += played == mv
                text = (f"game {m[1]}  gaps {m[4]}  ply {row[0]}  {model}  {mv}  "
                        f"played {played}  then ")
                judged = played == mv and i + 1 < len(rows)
                if judged:
                    led = (len(lines), reply)
                lines.append((text + ("" if judged else "-"), model, m[4], list(moves), None))
                continue
            answer = rows[i + 1][6] if i + 1 < len(rows) else "-"
            counts = met.setdefault(model, [0, 0])
            text = (f"game {m[1]}  gaps {m[4]}  ply {row[0]}  {model}  trap {mv}  "
                    f"played {played}  then {answer}")
            replies = None
            if played == mv:
                counts[0] += 1
                counts[1] += answer == "spoiled"
                if engine:
                    replies = [[engine.reply(start, moves, warm) for _ in range(a.repeat)]
                               for warm in (False, True)]
            lines.append((text, model, m[4], list(moves), replies))
    pr.send("quit")
    if engine:
        engine.quit()
    games = [(gaps, moves + [r]) for _, _, gaps, moves, replies in lines if replies
             for kind in replies for r in kind]
    with tempfile.TemporaryDirectory() as d:
        found = verdicts(a.pawnrace, games, os.path.join(d, "probe-games.txt")) if games else []
    probed = {}
    for text, model, _, _, replies in lines:
        if replies:
            fell = [sum(found.pop(0) == "spoiled" for _ in r) for r in replies]
            tally = probed.setdefault(model, [0, 0, 0])
            tally[0] += a.repeat
            tally[1] += fell[0]
            tally[2] += fell[1]
            text += f"  wrong: new game {fell[0]}/{a.repeat}, as played {fell[1]}/{a.repeat}"
        print(text)
    for model, (n, fell) in sorted(met.items()):
        line = f"{model}: met {n}, " + ("replied as led" if model.endswith(" lead") else "fell") + f" {fell}"
        if model in probed:
            asked, fresh, warm = probed[model]
            line += f"; put to the engine again, wrong from a new game {fresh} of {asked}, as played {warm} of {asked}"
        print(line)


if __name__ == "__main__":
    main()
