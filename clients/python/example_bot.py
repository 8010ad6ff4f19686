#!/usr/bin/env python3
"""An example bot: one game against a pawnrace server over TCP.

The bot plays random legal moves (from ``moves``); the engine plays the
other side with ``go``. As white the bot lets the engine choose the gaps
(``go`` before ``gaps``); as black it picks them itself. It prints every
move and, last, ``result <result> <reason>``.

    python3 clients/python/example_bot.py --port 7878 --colour black --seed 7
"""

import argparse
import asyncio
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pawnrace_client import Client, PawnraceError  # noqa: E402


async def play(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    async with await Client.connect(args.host, args.port) as pr:
        await pr.newgame()
        bot_is_white = args.colour == "white"
        if bot_is_white:
            chosen = await pr.go(movetime=args.movetime)
            print(f"engine chose gaps {chosen.gaps}")
        else:
            gaps = rng.choice("ABCDEFGH") + rng.choice("ABCDEFGH")
            print(f"bot chose gaps {await pr.gaps(gaps)}")

        white_to_move = True
        result = None
        while result is None:
            side = "white" if white_to_move else "black"
            if white_to_move == bot_is_white:
                legal = await pr.moves()
                if not legal:
                    # A finished game has no moves; the result came before.
                    break
                coordinates, _ = rng.choice(legal)
                reply = await pr.move(coordinates)
                print(f"bot    {side} {reply.san}")
                result = reply.result
            else:
                reply = await pr.go(movetime=args.movetime)
                if reply.bestmove is None:
                    break
                print(f"engine {side} {reply.bestmove}")
                result = reply.result
            white_to_move = not white_to_move

        if result is None:
            # Read the status from the board rather than guess it.
            for line in await pr.board():
                if line.startswith("status "):
                    result = line[len("status "):]
        await pr.quit()
    print(f"result {result}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7878)
    parser.add_argument("--colour", choices=["white", "black"], default="white")
    parser.add_argument("--movetime", type=int, default=200, help="engine ms per move")
    parser.add_argument("--seed", type=int, default=None, help="for a repeatable game")
    args = parser.parse_args()
    try:
        return asyncio.run(play(args))
    except PawnraceError as e:
        print(f"example_bot: the server refused {e.command!r}: {e.code} {e.detail}", file=sys.stderr)
    except (ConnectionError, OSError, asyncio.TimeoutError) as e:
        print(f"example_bot: {type(e).__name__}: {e}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
