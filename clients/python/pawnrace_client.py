"""A small asyncio client for the pawnrace protocol over TCP.

Standard library only. The one rule every client must follow (protocol.md,
"Replies"): send a command, then read lines until its single final line --
``uciok``, ``readyok``, ``bestmove ...``, ``solution ...``, ``ok ...`` or
``error ...``. Every other line of the reply comes before it. A client that sends the next
command before the final line of the previous one risks landing it in the
middle of a search (``go`` runs in the background on the server).

    async with await Client.connect("127.0.0.1", 7878) as pr:
        await pr.newgame()
        await pr.gaps("AH")
        await pr.move("e4")
        reply = await pr.go(movetime=500)
        print(reply.bestmove)

With ``resume=True`` a lost connection is not the end of the game: the
client connects again (behind a load balancer, to a live replica), sets the
game up from what it knows (``position startpos gaps AH moves ...`` or
``position fen ... moves ...``, and the options it set) and sends the
command again. See deploy/README.md.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

__all__ = [
    "Client",
    "GoReply",
    "MoveReply",
    "FINAL_WORDS",
    "PawnraceError",
    "is_final",
]

# A search's own time plus this is how long we wait for its bestmove: the
# server answers within the movetime, so waiting longer means it is gone.
_SLACK_SECONDS = 30.0


# The first words of the lines that end a reply: the server's own list
# (pawnrace::protocol::FINAL_WORDS), which a test holds this one to.
FINAL_WORDS = ("uciok", "readyok", "bestmove", "solution", "ok", "error")


def is_final(line: str) -> bool:
    """Whether ``line`` ends a reply (the protocol's final-line rule): its
    first word, up to a space, is one of FINAL_WORDS."""
    return line.split(" ", 1)[0] in FINAL_WORDS


class PawnraceError(Exception):
    """A command answered ``error <code> <detail>``.

    ``code`` is stable and meant for programs (``illegal-move``, ``busy``,
    ...); ``detail`` is for people and may change.
    """

    def __init__(self, command: str, code: str, detail: str, lines: List[str]):
        super().__init__(f"{command!r}: error {code} {detail}".rstrip())
        self.command = command
        self.code = code
        self.detail = detail
        self.lines = lines


@dataclass
class MoveReply:
    """``ok move e2e4 san e4 [result white-wins promotion e8]``."""

    coordinates: str
    san: str
    # ``None`` while the game goes on; else e.g. ``white-wins promotion e8``.
    result: Optional[str] = None


@dataclass
class GoReply:
    """What a ``go`` answered.

    ``bestmove`` is the engine's move in coordinates (already played on the
    session's board), ``None`` for ``bestmove (none)`` or when the engine
    chose gaps instead (then ``gaps`` is set). ``result`` is set when the
    engine's move ended the game.
    """

    bestmove: Optional[str]
    gaps: Optional[str] = None
    result: Optional[str] = None
    info: List[str] = field(default_factory=list)


class Client:
    """One protocol session over one TCP connection (or, with ``resume``,
    over as many as it takes)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._reader = reader
        self._writer = writer
        # Commands are strictly one at a time: the framing rule depends on it.
        self._lock = asyncio.Lock()
        self._address: Optional[Tuple[str, int, float]] = None
        self._resume = False
        # What the session's game is, to set it up again on a new
        # connection: its start ("startpos gaps AH" or "fen ...", None
        # before one is known) and the moves since, in coordinates.
        self._start: Optional[str] = None
        self._moves: List[str] = []
        self._variant = ""
        self._options: List[str] = []
        # Connections made again after one was lost.
        self.reconnects = 0

    @classmethod
    async def connect(
        cls,
        host: str = "127.0.0.1",
        port: int = 7878,
        timeout: float = 10.0,
        *,
        resume: bool = False,
    ) -> "Client":
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port), timeout
        )
        client = cls(reader, writer)
        client._address = (host, port, timeout)
        client._resume = resume
        return client

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    async def _read_line(self, timeout: Optional[float]) -> str:
        raw = await asyncio.wait_for(self._reader.readline(), timeout)
        if not raw:
            raise ConnectionError("the server closed the connection")
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    async def _exchange(self, line: str, timeout: Optional[float]) -> Tuple[List[str], str]:
        self._writer.write(line.encode() + b"\n")
        await self._writer.drain()
        lines: List[str] = []
        while True:
            reply = await self._read_line(timeout)
            if is_final(reply):
                return lines, reply
            lines.append(reply)

    async def command(
        self, line: str, *, timeout: Optional[float] = 30.0, check: bool = True
    ) -> Tuple[List[str], str]:
        """Sends one command; returns ``(lines, final)``.

        ``lines`` are the reply's lines before the final one (info lines,
        board rows, move lists). An ``error`` final raises PawnraceError
        unless ``check`` is false. ``timeout`` bounds each line's wait.
        With ``resume``, a connection lost on the way is made again, the
        game set up again, and the command sent again (once).
        """
        if "\n" in line or "\r" in line:
            raise ValueError("a command is one line")
        async with self._lock:
            try:
                lines, reply = await self._exchange(line, timeout)
            except (ConnectionError, OSError, asyncio.IncompleteReadError):
                verb = line.split(" ", 1)[0].lower()
                if not self._resume or verb in ("quit", "exit"):
                    raise
                await self._reconnect()
                lines, reply = await self._exchange(line, timeout)
        self._follow(line, reply)
        if check and reply.startswith("error"):
            parts = reply.split(" ", 2)
            code = parts[1] if len(parts) > 1 else ""
            detail = parts[2] if len(parts) > 2 else ""
            raise PawnraceError(line, code, detail, lines)
        return lines, reply

    async def _reconnect(self, attempts: int = 5) -> None:
        """A new connection (the old one is gone), and on it the session
        as it was: the options set, the variant, the game and its moves."""
        assert self._address is not None, "resume needs Client.connect"
        host, port, timeout = self._address
        try:
            self._writer.close()
        except (ConnectionError, OSError):
            pass
        delay = 0.05
        for attempt in range(attempts):
            try:
                self._reader, self._writer = await asyncio.wait_for(
                    asyncio.open_connection(host, port), timeout
                )
                break
            except (ConnectionError, OSError, asyncio.TimeoutError):
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(delay)
                delay *= 2
        self.reconnects += 1
        for option in self._options:
            await self._exchange(option, 30.0)
        if self._variant:
            await self._exchange(f"newgame {self._variant}", 30.0)
        if self._start is not None:
            setup = f"position {self._start}"
            if self._moves:
                setup += " moves " + " ".join(self._moves)
            _, final = await self._exchange(setup, 30.0)
            if not final.startswith("ok position"):
                raise ConnectionError(f"could not set the game up again: {final}")

    def _follow(self, line: str, final: str) -> None:
        """Keeps what a resumed session needs from a command and its final
        line: the start, the moves played since, the options."""
        words = final.split()
        verb = line.split(" ", 1)[0].lower()
        if not words or words[0] == "error":
            return
        if verb == "setoption" and words[0] == "ok":
            self._options = [o for o in self._options if o.split()[:3] != line.split()[:3]]
            self._options.append(line)
        elif words[:2] == ["ok", "newgame"]:
            self._variant = words[2] if len(words) > 2 and words[2] != "pawnrace" else ""
            self._start, self._moves = None, []
        elif words[:2] == ["ok", "gaps"] and len(words) > 2:
            self._start, self._moves = f"startpos gaps {words[2]}", []
        elif words[:2] == ["ok", "position"] and len(words) > 2 and words[2] != "startpos":
            # The position reached, moves and all: the new start.
            self._start, self._moves = "fen " + " ".join(words[2:]), []
        elif words[:2] == ["ok", "move"] and len(words) > 2:
            self._moves.append(words[2])
        elif words[0] == "bestmove" and len(words) > 1 and words[1] != "(none)":
            self._moves.append(words[1])
        elif words[:2] == ["ok", "undo"] and self._moves:
            self._moves.pop()

    async def isready(self) -> None:
        await self.command("isready")

    async def newgame(self, variant: str = "") -> str:
        """``ok newgame pawnrace awaiting gaps`` and the like."""
        _, final = await self.command(f"newgame {variant}".strip())
        return final

    async def gaps(self, gaps: str) -> str:
        """Black's choice, white's gap first (``AH``); returns the gaps."""
        _, final = await self.command(f"gaps {gaps}")
        return final.split()[-1]

    async def move(self, move: str) -> MoveReply:
        _, final = await self.command(f"move {move}")
        return _move_reply(final)

    async def moves(self) -> List[Tuple[str, str]]:
        """The legal moves as ``(coordinates, san)`` pairs."""
        lines, _ = await self.command("moves")
        found = []
        for line in lines:
            words = line.split()
            if len(words) >= 4 and words[0] == "move" and words[2] == "san":
                found.append((words[1], words[3]))
        return found

    async def go(self, **limits) -> GoReply:
        """``go`` with limits as keywords: ``go(movetime=500)``,
        ``go(depth=6)``, ``go(wtime=10000, btime=10000)``, ``go(infinite=True)``
        (then send ``stop`` from another task)."""
        words = ["go"]
        for name, value in limits.items():
            if value is True:
                words.append(name)
            elif value is not None and value is not False:
                words += [name, str(int(value))]
        movetime = limits.get("movetime")
        timeout = None
        if not limits.get("infinite"):
            timeout = _SLACK_SECONDS + (float(movetime) / 1000 if movetime else 0)
        info, final = await self.command(" ".join(words), timeout=timeout)
        reply = GoReply(bestmove=None, info=info)
        words = final.split()
        if words[0] == "ok" and len(words) >= 3 and words[1] == "gaps":
            reply.gaps = words[2]
        elif words[0] == "bestmove" and len(words) >= 2 and words[1] != "(none)":
            reply.bestmove = words[1]
        prefix = "info string result "
        for line in info:
            if line.startswith(prefix):
                reply.result = line[len(prefix):]
        return reply

    async def stop(self) -> List[str]:
        lines, _ = await self.command("stop")
        return lines

    async def board(self) -> List[str]:
        """The board's lines (rows, ``fen``, ``status`` ...), without ``ok board``."""
        lines, _ = await self.command("board")
        return lines

    async def fen(self) -> str:
        _, final = await self.command("fen")
        return final[len("ok fen "):]

    async def undo(self) -> str:
        _, final = await self.command("undo")
        return final

    async def quit(self) -> None:
        """``quit``, then close; a server already gone is not an error."""
        try:
            await self.command("quit", timeout=10.0)
        except (ConnectionError, OSError, asyncio.TimeoutError):
            pass
        await self.close()


def _move_reply(final: str) -> MoveReply:
    # ok move e2e4 san e4 [result white-wins promotion e8]
    words = final.split() + ["", "", "", "", ""]
    result = None
    if "result" in words:
        result = " ".join(words[words.index("result") + 1:]).strip()
    return MoveReply(coordinates=words[2], san=words[4], result=result)
