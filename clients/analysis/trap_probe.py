#!/usr/bin/env python3
"""Which moves a UCI engine answers wrongly: for each game a player was
proven lost in from the start, the first position it had to move in (the
start, or after the opponent's first move when that kept the win), every
legal move there, the engine's reply to it, and whether the reply threw the
win away (proven by `pawnrace analyse`).

It measures how well a trap model predicts a real opponent: with
`--explain FILE` (the output of `pawnrace traps --explain`), it also counts
how often the trap that model chose is one the engine fell for.

    target/release/pawnrace analyse data/match/fsf-1s-practical.pgn > a.txt
    python3 clients/analysis/trap_probe.py --pawnrace target/release/pawnrace \\
        --engine Fairy-Stockfish/src/stockfish \\
        --option VariantPath=fairy-stockfish/pawnrace.ini \\
        --option UCI_Variant=pawnrace --movetime 1000 \\
        --player pawnrace-1s --analysis a.txt --out probe [--explain ex.txt]

Writes probe.jsonl (one line per move tried, resumable) and probe-games.txt
(the games to analyse), then prints a line per position and the totals.
Standard library only.
"""
import argparse
import json
import os
import re
import subprocess


class Proc:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the engine closed its output")
            out.append(line.rstrip("\n"))
            if pred(out[-1]):
                return out


class Engine:
    """A UCI engine asked for its move in a game's position, from a new game
    or after searching its own earlier turns of that game."""

    def __init__(self, argv, options, movetime):
        self.proc = Proc(argv)
        self.movetime = movetime
        self.proc.send("uci")
        self.proc.until(lambda l: l == "uciok")
        for opt in options:
            name, value = opt.split("=", 1)
            self.proc.send(f"setoption name {name} value {value}")
        self.proc.send("isready")
        self.proc.until(lambda l: l == "readyok")

    def best(self, start, moves):
        self.proc.send(f"position fen {start} moves {' '.join(moves)}".rstrip())
        self.proc.send(f"go movetime {self.movetime}")
        return self.proc.until(lambda l: l.startswith("bestmove"))[-1].split()[1]

    def reply(self, start, moves, warm):
        """Its move after `moves`; with `warm`, having first searched each
        earlier position of `moves` where the same side was to move."""
        self.proc.send("ucinewgame")
        self.proc.send("isready")
        self.proc.until(lambda l: l == "readyok")
        if warm:
            for i in range(len(moves) % 2, len(moves), 2):
                self.best(start, moves[:i])
        return self.best(start, moves)

    def quit(self):
        self.proc.send("quit")


def verdicts(pawnrace, games, path):
    """`pawnrace analyse`'s verdict on the last move of each of `games`
    ((gaps, moves) pairs), written to `path` to be analysed, in order."""
    with open(path, "w") as f:
        for gaps, moves in games:
            f.write(f"gaps {gaps}\n{' '.join(moves)}\n\n")
    out = subprocess.run([pawnrace, "analyse", path], capture_output=True, text=True).stdout
    found = [rows[-1][6] if rows else "unknown" for _, rows in table_rows(out)]
    if len(found) != len(games):
        raise SystemExit(f"analyse read {len(found)} of the {len(games)} games in {path}")
    return found


def table_rows(text):
    """analyse's games: (header match, [row fields])."""
    games = []
    for line in text.splitlines():
        m = re.match(r"game (\d+): (.*) \(white\) vs (.*) \(black\),.*gaps (\S+), result (\S+)", line)
        if m:
            games.append((m, []))
            continue
        f = re.split(r"\s{2,}", line.strip())
        if games and len(f) == 7 and f[0].isdigit():
            games[-1][1].append(f)
    return games


def lost_positions(text, player):
    """(game number, gaps, player's colour, SAN moves before its turn)."""
    out = []
    for m, rows in table_rows(text):
        mine = "white" if m[2] == player else "black"
        other = "black" if mine == "white" else "white"
        if not rows or not rows[0][4].startswith(other + " wins"):
            continue
        prefix = [] if mine == "white" else [rows[0][3]]
        if mine == "black" and (len(rows) < 2 or not rows[1][4].startswith("white wins")):
            continue  # the opponent's first move threw the win away
        out.append((m[1], m[4], mine, prefix))
    return out


def mirror_rank(rank):
    cells = "".join("1" * int(c) if c.isdigit() else c for c in rank)[::-1]
    return re.sub(r"1+", lambda m: str(len(m.group())), cells)


def canonical(board_side):
    """A position and its file mirror share a key; True when not mirrored."""
    board, side = board_side.split()[:2]
    mirrored = "/".join(mirror_rank(r) for r in board.split("/"))
    return min(board, mirrored) + " " + side, board <= mirrored


def mirror_move(m):
    return "".join(chr(ord("a") + ord("h") - ord(c)) if c in "abcdefgh" else c for c in m)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pawnrace", required=True)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--player", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", default="probe")
    ap.add_argument("--explain")
    a = ap.parse_args()

    pr = Proc([a.pawnrace])
    pr.send("setoption name FEN value fairy")
    eng = Engine([a.engine], a.option, a.movetime)

    def cmd(line, final):
        pr.send(line)
        return pr.until(lambda l: l.startswith(final) or l.startswith("error"))

    jsonl = a.out + ".jsonl"
    done = {}
    if os.path.exists(jsonl):
        for line in open(jsonl):
            r = json.loads(line)
            done[(r["game"], r["move"])] = r
    with open(jsonl, "a") as log:
        for game, gaps, mine, prefix in lost_positions(open(a.analysis).read(), a.player):
            cmd("newgame", "ok newgame")
            cmd(f"gaps {gaps}", "ok gaps")
            uci = [cmd(f"move {m}", "ok move")[-1].split()[2] for m in prefix]
            fen = cmd("fen", "ok fen")[-1][len("ok fen "):]
            moves = [l.split()[1] for l in cmd("moves", "ok moves") if l.startswith("move ")]
            for mv in moves:
                if (game, mv) in done:
                    continue
                reply = eng.best(fen, [mv])
                r = dict(game=game, gaps=gaps, mine=mine, prefix=uci, fen=fen, move=mv, reply=reply)
                done[(game, mv)] = r
                log.write(json.dumps(r) + "\n")
                log.flush()
    pr.send("quit")
    eng.quit()

    rows = sorted(done.values(), key=lambda r: (int(r["game"]), r["move"]))
    games = [(r["gaps"], r["prefix"] + [r["move"], r["reply"]]) for r in rows]
    found = verdicts(a.pawnrace, games, a.out + "-games.txt")
    # Per game: a position met in two games (mirrored openings) counts twice,
    # as the engine may answer it differently each time.
    truth, keys = {}, {}
    for r, v in zip(rows, found):
        key, plain = canonical(r["fen"])
        keys[r["game"]] = key
        truth.setdefault(r["game"], {})[r["move"] if plain else mirror_move(r["move"])] = v
    chosen = {}
    if a.explain:
        for line in open(a.explain):
            if line.startswith("trap "):
                f = line.split()
                key, plain = canonical(f[1] + " " + f[2])
                chosen[key] = f[4] if plain else mirror_move(f[4])
            elif line.startswith("none "):
                f = line.split()
                chosen[canonical(f[1] + " " + f[2])[0]] = None
    fell = [sum(v == "spoiled" for v in t.values()) for t in truth.values()]
    for (game, t), n in zip(truth.items(), fell):
        pick = chosen.get(keys[game], "-")
        fell_for = pick is not None and pick != "-" and t.get(pick) == "spoiled"
        print(f"game {game}  {keys[game]}  moves {len(t)}  answered wrongly {n}  "
              f"trap {pick or 'none'}{'  fell' if fell_for else ''}")
    print(f"positions {len(truth)}, with a move the engine answers wrongly {sum(n > 0 for n in fell)}; "
          f"moves {sum(len(t) for t in truth.values())}, answered wrongly {sum(fell)}; "
          f"unknown {sum(v == 'unknown' for t in truth.values() for v in t.values())}")
    if a.explain:
        judged = [g for g in truth if chosen.get(keys[g], "-") != "-"]
        traps = [g for g in judged if chosen[keys[g]] is not None]
        hits = sum(truth[g].get(chosen[keys[g]]) == "spoiled" for g in traps)
        print(f"explained {len(judged)}: a trap in {len(traps)}, the engine fell for {hits}")


if __name__ == "__main__":
    main()
