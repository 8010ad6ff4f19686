#!/usr/bin/env python3
"""Perfection in play at a short move time: a match's positions put again
to pawnrace, one session for the whole match, as a game puts them.

At every turn of `--player` in the PGNs, the session is asked `go movetime
MS` in the game's position (its tables carried from move to move, and
cleared by `newgame` between games, as in a match), then the game goes on
with the move the PGN played. A move announced with a proof (`info string
proven ...`) keeps its value by construction; every other move is labelled
by the exact solver in a second session: the position's value before it
and the opponent's after it, each by `solve movetime --solve-ms`. A win or
draw turned into something worse is a spoil.

    python3 clients/analysis/replay.py --pawnrace target/release/pawnrace \\
        --player pawnrace-1s --movetime 100 data/match/fsf-1s-record.pgn

Prints each spoil and unknown, then one line per PGN and movetime:
`turns T proven P unproven U kept K spoiled S unknown N`. Much cheaper
than a match at that move time (the positions are the match's, the book
answers most of them at once), and the same positions for every build;
what it does not see is how the engine's own moves at that time would
have steered the games.

Standard library only.
"""
import argparse
import re
import time

from trap_probe import Proc

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def read_pgn(path):
    """[(tags, [san, ...])] for each game of `path`."""
    games = []
    for block in re.split(r"\n(?=\[Event )", open(path).read()):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        if not tags:
            continue
        text = re.sub(r"\[[^\]]*\]|\{[^}]*\}", " ", block)
        sans = [t for t in text.split()
                if not re.fullmatch(r"\d+\.+|\$\d+", t) and t not in RESULTS]
        games.append((tags, sans))
    return games


class Session:
    """A pawnrace session over stdin and stdout."""

    def __init__(self, binary, options=()):
        self.proc = Proc([binary])
        for name, value in options:
            self.ask(f"setoption name {name} value {value}", "ok setoption")

    def ask(self, line, prefix):
        self.proc.send(line)
        out = self.proc.until(lambda l: l.startswith(prefix) or l.startswith("error"))
        if out[-1].startswith("error"):
            raise ValueError(f"{line}: {out[-1]}")
        return out

    def close(self):
        self.proc.send("quit")
        self.proc.p.wait()

    def start(self, gaps, moves=()):
        self.ask("newgame", "ok newgame")
        self.ask(f"gaps {gaps}", "ok gaps")
        for m in moves:
            self.ask(f"move {m}", "ok move")


def value_of(solution, mover_is_white):
    """'win', 'draw', 'loss' for the mover from a `solution` line, or None."""
    w = solution.split()
    if len(w) < 2 or w[1] == "unknown":
        return None
    if w[1] == "draw":
        return "draw"
    return "win" if (w[1] == "white") == mover_is_white else "loss"


RANK = {"loss": 0, "draw": 1, "win": 2}


def label(judge, gaps, before, move, white_to_move, solve_ms):
    """('kept', 'spoiled' or 'unknown', the mover's value before it or None)
    for `move` after the moves `before`."""
    judge.start(gaps, before)
    out = judge.ask(f"solve movetime {solve_ms}", "solution")
    was = value_of(out[-1], white_to_move)
    judge.ask(f"move {move}", "ok move")
    out = judge.ask(f"solve movetime {solve_ms}", "solution")
    after = value_of(out[-1], not white_to_move)
    if was is None or after is None:
        return "unknown", was
    # The mover's result after its move is the opponent's, turned round.
    now = {"win": "loss", "draw": "draw", "loss": "win"}[after]
    return ("spoiled" if RANK[now] < RANK[was] else "kept"), was


def replay(args, path, movetime):
    player = Session(args.pawnrace)
    judge = Session(args.pawnrace, [("Threads", args.solve_threads)])
    counts = dict(turns=0, proven=0, unproven=0, kept=0, spoiled=0, unknown=0)
    start = time.time()
    for n, (tags, sans) in enumerate(read_pgn(path), 1):
        if args.player not in (tags.get("White"), tags.get("Black")):
            continue
        mine = 0 if tags["White"] == args.player else 1
        gaps = tags["Gaps"]
        player.start(gaps)
        for i, san in enumerate(sans):
            if i % 2 == mine:
                out = player.ask(f"go movetime {movetime}", "bestmove")
                best = out[-1].split()[1]
                counts["turns"] += 1
                if any(l.startswith("info string proven") for l in out):
                    counts["proven"] += 1
                else:
                    counts["unproven"] += 1
                    verdict, was = label(judge, gaps, sans[:i], best, i % 2 == 0, args.solve_ms)
                    counts[verdict] += 1
                    if verdict != "kept":
                        print(f"{verdict} game {n} gaps {gaps} after {' '.join(sans[:i]) or '-'}: "
                              f"{best} (value {was or 'unknown'})")
                if best != "(none)":
                    player.ask("undo", "ok undo")
            player.ask(f"move {san}", "ok move")
    player.close()
    judge.close()
    took = time.time() - start
    print(f"{path} movetime {movetime} " + " ".join(f"{k} {v}" for k, v in counts.items())
          + f" ({took:.0f} s)", flush=True)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pawnrace", required=True)
    ap.add_argument("--player", required=True, help="the player whose turns are replayed")
    ap.add_argument("--movetime", default="100",
                    help="ms a move, or several separated by commas (each a replay of its own)")
    ap.add_argument("--solve-ms", type=int, default=30000, help="each label's solve limit")
    ap.add_argument("--solve-threads", type=int, default=2)
    ap.add_argument("games", nargs="+", help="PGN files")
    args = ap.parse_args()
    for path in args.games:
        for ms in args.movetime.split(","):
            replay(args, path, int(ms))


if __name__ == "__main__":
    main()
