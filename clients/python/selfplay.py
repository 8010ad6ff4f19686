#!/usr/bin/env python3
"""pawnrace against itself: two TCP sessions, each the other's opponent.

Session A chooses the gaps as black (``go`` before ``gaps``) and plays
black; session B is told the gaps and plays white. Each ``bestmove`` is
played on its own session's board by ``go`` and relayed to the other
session as a ``move``, so both boards stay the same. Prints the moves and,
last, ``result <result> <reason>``.

    python3 clients/python/selfplay.py --port 7878 --movetime 100
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pawnrace_client import Client, PawnraceError  # noqa: E402


async def play(args: argparse.Namespace) -> int:
    black = await Client.connect(args.host, args.port)
    white = await Client.connect(args.host, args.port)
    try:
        await black.newgame()
        await white.newgame()
        chosen = await black.go(movetime=args.movetime)
        if chosen.gaps is None:
            raise RuntimeError(f"expected gaps from the engine, got {chosen}")
        await white.gaps(chosen.gaps)
        print(f"gaps {chosen.gaps}")

        mover, other = white, black
        number, result, line = 1, None, []
        while result is None:
            reply = await mover.go(movetime=args.movetime)
            if reply.bestmove is None:
                break
            relayed = await other.move(reply.bestmove)
            line.append(relayed.san)
            if mover is white:
                print(f"{number}. {relayed.san}", end="", flush=True)
            else:
                print(f" {relayed.san}", flush=True)
                number += 1
            # Both sessions judge the end; they must agree.
            if reply.result != relayed.result:
                raise RuntimeError(f"the sessions disagree: {reply.result} / {relayed.result}")
            result = reply.result
            mover, other = other, mover
        if line and mover is black:
            print()
        if await white.fen() != await black.fen():
            raise RuntimeError("the sessions' boards differ")
        print(f"result {result}")
    finally:
        await white.quit()
        await black.quit()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7878)
    parser.add_argument("--movetime", type=int, default=200, help="ms per move")
    args = parser.parse_args()
    try:
        return asyncio.run(play(args))
    except PawnraceError as e:
        print(f"selfplay: the server refused {e.command!r}: {e.code} {e.detail}", file=sys.stderr)
    except (ConnectionError, OSError, asyncio.TimeoutError, RuntimeError) as e:
        print(f"selfplay: {type(e).__name__}: {e}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
