#!/usr/bin/env python3
"""Tests of pawnrace_client against a running server.

    python3 clients/python/test_client.py --port 7878

(`cargo test --test clients` starts a server and runs this.)
"""

import argparse
import asyncio
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pawnrace_client import Client, PawnraceError, is_final  # noqa: E402

PORT = 7878


def run(coro):
    return asyncio.run(coro)


class FinalLines(unittest.TestCase):
    def test_the_protocols_final_lines(self):
        for line in ["uciok", "readyok", "bestmove e2e4", "bestmove a7a8q",
                     "bestmove (none)", "solution white plies 1 pv a7a8",
                     "solution unknown", "ok bye",
                     "error busy 1000 lines already wait for the running job"]:
            self.assertTrue(is_final(line), line)
        for line in ["info depth 1", "move e2e4 san e4", "id name pawnrace",
                     "okay", "uciokay", "errors", "solutions", " 8 | . . |", ""]:
            self.assertFalse(is_final(line), line)


class AgainstTheServer(unittest.TestCase):
    def test_a_reply_is_read_to_its_final_line(self):
        async def go():
            async with await Client.connect(port=PORT) as pr:
                lines, final = await pr.command("uci")
                self.assertEqual(final, "uciok")
                self.assertIn("id name pawnrace", lines)
                lines, final = await pr.command("isready")
                self.assertEqual((lines, final), ([], "readyok"))
                await pr.quit()
        run(go())

    def test_errors_carry_their_code(self):
        async def go():
            async with await Client.connect(port=PORT) as pr:
                with self.assertRaises(PawnraceError) as caught:
                    await pr.move("e4")
                self.assertEqual(caught.exception.code, "wrong-state")
                await pr.gaps("ah")
                with self.assertRaises(PawnraceError) as caught:
                    await pr.move("e5")
                self.assertEqual(caught.exception.code, "illegal-move")
                _, final = await pr.command("frobnicate", check=False)
                self.assertTrue(final.startswith("error unknown-command"))
                # The session goes on after every error.
                self.assertEqual((await pr.move("E2-E4")).san, "e4")
                await pr.quit()
        run(go())

    def test_go_chooses_gaps_then_plays(self):
        async def go():
            async with await Client.connect(port=PORT) as pr:
                await pr.newgame()
                chosen = await pr.go(depth=1)
                self.assertIsNone(chosen.bestmove)
                self.assertRegex(chosen.gaps, "^[A-H]{2}$")
                reply = await pr.go(movetime=100)
                self.assertRegex(reply.bestmove, "^[a-h][1-8][a-h][1-8]$")
                self.assertTrue(any(i.startswith("info ") for i in reply.info))
                self.assertEqual(len(await pr.moves()), 14)
                self.assertTrue(any(l.startswith("status playing") for l in await pr.board()))
                self.assertEqual(await pr.fen(), (await pr.board())[-5][len("fen "):])
                await pr.quit()
        run(go())

    def test_a_finished_game(self):
        async def go():
            async with await Client.connect(port=PORT) as pr:
                await pr.command("position fen 8/4P3/8/8/8/8/7p/8 w -")
                reply = await pr.move("e8")
                self.assertEqual(reply.result, "white-wins promotion e8")
                self.assertIsNone((await pr.go(depth=1)).bestmove)
                self.assertEqual(await pr.moves(), [])
                await pr.quit()
        run(go())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=PORT)
    args, rest = parser.parse_known_args()
    PORT = args.port
    unittest.main(argv=[sys.argv[0]] + rest)
