#!/usr/bin/env python3
"""Proven-lost games turned: how often a player, proven lost at some point
of a game, still won it (or drew).

Reads the per-move tables of `pawnrace analyse` (not `--summary-only`) on
stdin and takes the player's name as its argument:

    pawnrace analyse data/match/fsf-1s-practical.pgn | python3 clients/analysis/turned.py pawnrace-1s

A game counts as proven lost for the player when any position of it is
valued a win for the opponent (the table's `before` column); it is turned
when the player then won it by the PGN's result. Unknown positions claim
nothing. The player's spoiled moves are counted over all games: a trap
must never cost a proven result.
"""
import re, sys
player = sys.argv[1]
games = []
cur = None
for line in sys.stdin:
    m = re.match(r"game (\d+): (.*) \(white\) vs (.*) \(black\),.* result (\S+)", line)
    if m:
        cur = dict(n=int(m[1]), white=m[2], black=m[3], result=m[4], lost=False, spoiled=0)
        games.append(cur); continue
    f = re.split(r"\s{2,}", line.strip())
    if cur and len(f) == 7 and f[0].isdigit():
        side, before, verdict = f[2], f[4], f[6]
        name = cur['white'] if side == 'white' else cur['black']
        mine = 'white' if cur['white'] == player else 'black'
        other = 'black' if mine == 'white' else 'white'
        if before.startswith(other + ' wins'): cur['lost'] = True
        if name == player and verdict == 'spoiled': cur['spoiled'] += 1
lost = [g for g in games if g['lost']]
def res(g):
    mine = 'white' if g['white'] == player else 'black'
    if g['result'] == '1/2-1/2': return 'draw'
    return 'win' if (g['result'] == '1-0') == (mine == 'white') else 'loss'
w = sum(res(g) == 'win' for g in lost); d = sum(res(g) == 'draw' for g in lost)
print(f"{player}: {len(games)} games, proven lost in {len(lost)}, turned into wins {w} ({100*w/max(1,len(lost)):.0f}%), draws {d}, spoiled moves {sum(g['spoiled'] for g in games)}")
