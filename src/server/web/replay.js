// A game's positions, from the server: the game is replayed into a
// session move by move (`move`, then `fen`), so that every position the
// page shows or explores is the server's own text, en passant square and
// all, and a move the server refuses is reported with its number.

import { parseMoveReply } from "./notation.js";

// `command(line)` sends one line and resolves with its reply, throwing on
// an error line (as Play and Analysis do). `start`: {fen} or {gaps};
// `moves`: the moves as written (SAN or coordinates). Resolves with
// {moves: [{uci, san}], fens: [start, after 1st move, ...]}.
export async function replay(command, start, moves) {
  await command("newgame");
  let fen;
  if (start.fen) {
    fen = (await command(`position fen ${start.fen}`)).final.replace(/^ok position /, "");
  } else if (start.gaps) {
    await command(`gaps ${start.gaps}`);
    fen = (await command("fen")).final.replace(/^ok fen /, "");
  } else {
    throw new Error("the game has neither a Gaps nor a FEN tag: where does it start?");
  }
  const fens = [fen];
  const played = [];
  for (const [i, text] of moves.entries()) {
    let reply;
    try {
      reply = await command(`move ${text}`);
    } catch (e) {
      throw new Error(`move ${i + 1} (${text}): ${e.message}`);
    }
    played.push(parseMoveReply(reply.final));
    fens.push((await command("fen")).final.replace(/^ok fen /, ""));
  }
  return { moves: played, fens };
}
