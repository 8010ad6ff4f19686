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


class CuttableProxy:
    """A TCP relay to the server that can drop every connection through it
    at once: a replica dying behind a load balancer, as its clients see it.
    New connections after the cut go through again (to a new session)."""

    def __init__(self):
        self.writers = []
        self.server = None
        self.port = 0

    @classmethod
    async def start(cls, port):
        proxy = cls()
        proxy.server = await asyncio.start_server(
            lambda r, w: proxy._relay(r, w, port), "127.0.0.1", 0)
        proxy.port = proxy.server.sockets[0].getsockname()[1]
        return proxy

    async def _relay(self, client_r, client_w, port):
        server_r, server_w = await asyncio.open_connection("127.0.0.1", port)
        self.writers += [client_w, server_w]

        async def pipe(reader, writer):
            try:
                while True:
                    data = await reader.read(4096)
                    if not data:
                        break
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        await asyncio.gather(pipe(client_r, server_w), pipe(server_r, client_w))

    def cut(self):
        for writer in self.writers:
            writer.close()
        self.writers = []

    def close(self):
        self.cut()
        self.server.close()


class Resumption(unittest.TestCase):
    def test_a_lost_connection_resumes_the_game_on_a_new_session(self):
        async def go():
            proxy = await CuttableProxy.start(PORT)
            pr = await Client.connect(port=proxy.port, resume=True)
            await pr.command("setoption name Threads value 1")
            await pr.newgame()
            await pr.gaps("AH")
            await pr.move("h4")
            self.assertIsNotNone((await pr.go(movetime=50)).bestmove)
            before = await pr.fen()
            proxy.cut()
            await asyncio.sleep(0.1)
            # The next command finds the connection gone, connects again,
            # sets the game up again and is answered there.
            self.assertEqual(await pr.fen(), before)
            self.assertEqual(pr.reconnects, 1)
            # And the game goes on, undo and all.
            coords, san = (await pr.moves())[0]
            self.assertEqual((await pr.move(coords)).san, san)
            await pr.undo()
            self.assertEqual(await pr.fen(), before)
            proxy.cut()
            reply = await pr.go(movetime=50)
            self.assertIsNotNone(reply.bestmove)
            self.assertEqual(pr.reconnects, 2)
            await pr.quit()
            proxy.close()
        run(go())

    def test_without_resume_a_lost_connection_is_an_error(self):
        async def go():
            proxy = await CuttableProxy.start(PORT)
            pr = await Client.connect(port=proxy.port)
            await pr.newgame()
            proxy.cut()
            await asyncio.sleep(0.1)
            with self.assertRaises((ConnectionError, OSError)):
                await pr.fen()
            await pr.close()
            proxy.close()
        run(go())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=PORT)
    args, rest = parser.parse_known_args()
    PORT = args.port
    unittest.main(argv=[sys.argv[0]] + rest)
