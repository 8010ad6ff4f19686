#!/usr/bin/env python3
"""What an opponent's recorded games say of the traps table: in every
position a player was proven lost in during its first --turns turns, each
move it played there, how often the game was then turned into a win (and
drawn), and the opponent's replies that threw its win away (by `pawnrace
analyse`'s verdicts: a PGN given is analysed here, an analysis file is
read). Where the record shows another move turning games clearly more
often than the one the engine plays there now, it writes that move as a
trap learned from the record.

A model asked in two tries (`traps --engine-movetime 1000 --engine-tries
2`) is a coin thrown twice; a score of matches against the same opponent
is the opponent itself, met in the same positions again and again. The
record outweighs the model where it has enough games: a move replaces the
engine's when, with each move's rate of turned games read as a Beta
posterior from a uniform prior (wins + 1, other games + 1), the chance
that it turns more games is at least --confidence, and both were met in at
least --min-games games. The engine's move is the table's trap there (or
its file mirror's, as play reads it), else the move played last in the
record (the files in the order given, the newest last). The record
compares only moves the engine played there at some time.

    python3 clients/analysis/record.py --pawnrace target/release/pawnrace \\
        --player pawnrace-1s --traps data/traps.txt --out learned.txt \\
        data/match/fsf-1s.pgn data/match/fsf-1s-practical.pgn ...   # oldest first
    target/release/pawnrace traps --check 1 --out learned.txt   # each line proven again
    target/release/pawnrace traps --merge learned.txt --out data/traps.txt

Prints a line per position where the record holds two moves or more, then
the traps learned. `--out` is a traps table of the learned lines alone
(`by <opponent>-record`, the reply the opponent erred with most often
there, `fools` numbering the meetings in the record it erred at), with the
command in its header, for `traps --merge`. A walk never replaces a trap
learned so (`traps`: the record outweighs its model).

Standard library only.
"""
import argparse
import math
import subprocess
from collections import Counter, defaultdict

from trap_probe import Proc, table_rows
from traps_met import read_traps, trap_in


def log_beta(a, b):
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def chance_greater(a, b, c, d):
    """P(X > Y) for independent X ~ Beta(a, b), Y ~ Beta(c, d), a whole:
    the closed sum for integer shape parameters."""
    total = 0.0
    for i in range(a):
        total += math.exp(log_beta(c + i, b + d) - math.log(b + i)
                          - log_beta(1 + i, b) - log_beta(c, d))
    return min(1.0, total)


class Tally:
    """One move's record in one position."""

    def __init__(self):
        self.met = 0
        self.won = 0
        self.drawn = 0
        # The meetings (1-based, in the record's order) the opponent's
        # reply threw its win away at, and those replies.
        self.fooled = []
        self.errors = Counter()
        self.last = -1

    def posterior(self):
        return self.won + 1, self.met - self.won + 1

    def text(self, mv):
        return f"{mv} won {self.won} drawn {self.drawn} of {self.met}"


def analysis(pawnrace, path, cache):
    """`pawnrace analyse`'s tables for a PGN (run here), or an analysis
    file's text as it is."""
    if not path.endswith(".pgn"):
        return open(path).read()
    argv = [pawnrace, "analyse", path] + (["--cache", cache] if cache else [])
    # A game it cannot read is reported on stderr and the rest analysed.
    return subprocess.run(argv, capture_output=True, text=True).stdout


def gather(pawnrace, player, turns, paths, cache):
    """{fen: {move: Tally}} over the games of `paths`, each fen's gaps and
    moves before it (the first game met in), and the opponents' names."""
    # Positions in the engine's own text, as the table writes them.
    pr = Proc([pawnrace])

    def cmd(line, final):
        pr.send(line)
        return pr.until(lambda l: l.startswith(final) or l.startswith("error"))

    record = defaultdict(lambda: defaultdict(Tally))
    where = {}
    opponents = set()
    order = 0
    for path in paths:
        for m, rows in table_rows(analysis(pawnrace, path, cache)):
            mine = "white" if m[2] == player else "black"
            other = "black" if mine == "white" else "white"
            opponents.add(m[3] if mine == "white" else m[2])
            won = m[5] == ("1-0" if mine == "white" else "0-1")
            drawn = m[5] == "1/2-1/2"
            mine_rows = [i for i, r in enumerate(rows) if r[2] == mine][:turns]
            lost = [i for i in mine_rows if rows[i][4].startswith(other + " wins")]
            if not lost:
                continue
            order += 1
            cmd("newgame", "ok newgame")
            cmd(f"gaps {m[4]}", "ok gaps")
            moves = []
            for i, row in enumerate(rows[: lost[-1] + 1]):
                fen = None
                if i in lost:
                    fen = cmd("fen", "ok fen")[-1][len("ok fen "):]
                reply = cmd(f"move {row[3]}", "ok move")[-1]
                if reply.startswith("error"):
                    raise SystemExit(f"{path}: game {m[1]}: {reply}")
                played = reply.split()[2]
                if fen:
                    where.setdefault(fen, (m[4], list(moves)))
                    t = record[fen][played]
                    t.met += 1
                    t.won += won
                    t.drawn += drawn
                    t.last = order
                    if i + 1 < len(rows) and rows[i + 1][6] == "spoiled":
                        t.fooled.append(t.met)
                        t.errors[uci_of(cmd, rows[i + 1][3])] += 1
                moves.append(played)
    pr.send("quit")
    return record, where, opponents


def uci_of(cmd, san):
    """The reply's coordinates, read by playing it and taking it back."""
    played = cmd(f"move {san}", "ok move")[-1].split()[2]
    cmd("undo", "ok undo")
    return played


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pawnrace", required=True)
    ap.add_argument("--player", required=True)
    ap.add_argument("--opponent", help="the model's name stem (default: the opponent's name in the games)")
    ap.add_argument("--traps", default="data/traps.txt")
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--min-games", type=int, default=5)
    ap.add_argument("--out", help="write the learned lines as a traps table here")
    ap.add_argument("--cache", help="analyse's --cache: proofs kept between runs")
    ap.add_argument("games", nargs="+",
                    help="the matches, oldest first: PGN files (analysed here) or `pawnrace analyse` outputs")
    a = ap.parse_args()

    traps = read_traps(a.traps)
    record, where, opponents = gather(a.pawnrace, a.player, a.turns, a.games, a.cache)
    if a.opponent is None and len(opponents) != 1:
        raise SystemExit(f"the games name {len(opponents)} opponents: say which with --opponent")
    model = f"{a.opponent or opponents.pop()}-record"

    learned = []
    for fen, moves in sorted(record.items(), key=lambda kv: where[kv[0]]):
        gaps, before = where[fen]
        held = trap_in(traps, fen)
        current = held[0] if held else max(moves, key=lambda mv: moves[mv].last)
        if len(moves) < 2:
            continue
        now = moves.get(current, Tally())
        best = max(moves, key=lambda mv: (moves[mv].won + 1) / (moves[mv].met + 2))
        tallies = ", ".join(moves[mv].text(mv) for mv in sorted(moves, key=lambda mv: -moves[mv].met))
        source = f"the table's, by {held[1]}" if held else "played last"
        verdict = "stands"
        if best != current:
            chance = chance_greater(*moves[best].posterior(), *now.posterior())
            enough = min(moves[best].met, now.met) >= a.min_games
            errs = moves[best].errors.most_common(1)
            if chance >= a.confidence and enough and errs:
                verdict = f"{best} learned (chance it turns more games: {chance:.3f})"
                fools = " ".join(str(k) for k in moves[best].fooled)
                learned.append(f"{fen} loss trap {best} reply {errs[0][0]} fools {fools} by {model}")
            else:
                why = "too few games" if not enough else "no reply erred" if not errs else "not clear"
                verdict = f"stands ({why}; chance {best} turns more games: {chance:.3f})"
        print(f"{gaps} {' '.join(before) or '-'}: {current} ({source}); {tallies}: {verdict}")
    print(f"learned {len(learned)} traps; {len(record)} positions met, "
          f"{sum(len(v) for v in record.values())} moves tried there")
    for line in learned:
        print(line)
    if a.out:
        with open(a.out, "w") as f:
            f.write("# Traps learned from an opponent's recorded games (clients/analysis/record.py).\n")
            f.write(f"# run: python3 clients/analysis/record.py --player {a.player} --turns {a.turns} "
                    f"--confidence {a.confidence} --min-games {a.min_games} {' '.join(a.games)}\n")
            for line in learned:
                f.write(line + "\n")


if __name__ == "__main__":
    main()
