// Analysis of a recorded game: the game is replayed into a session of its
// own (a second WebSocket, so the game being played is left alone), then
// the protocol's `analyse` proves the value before and after every move
// and judges each move (kept, spoiled, chance, forced, unknown). The page
// steps through the positions itself: the server checked every move.

import { LineClient } from "./protocol.js";
import { positionsOf } from "./board.js";
import { capitalized, numbered, parseAnalysis, parseMoveReply, parseSummary } from "./notation.js";
import { errorText } from "./play.js";

const VERDICT_TEXT = {
  kept: "kept the result",
  spoiled: "spoiled the result",
  chance: "took the chance the opponent gave",
  forced: "the only legal move",
  unknown: "not judged: a value was not proven in time",
};

export class Analysis {
  constructor(url, board, ui) {
    this.client = new LineClient(url);
    this.board = board;
    this.ui = ui;
    this.active = false;
    this.reset();
    this.running = false;
    this.chain = Promise.resolve();
  }

  reset() {
    this.game = null;
    this.moves = [];
    this.positions = ["8/8/8/8/8/8/8/8"];
    this.values = [];
    this.verdicts = [];
    this.summaries = [];
    this.ply = 0;
    this.offset = 0;
  }

  run(task) {
    this.chain = this.chain.then(task).catch((e) => this.ui.progress(e.message));
    return this.chain;
  }

  async command(line, onLine) {
    if (!this.client.connected) await this.client.connect();
    const reply = await this.client.send(line, onLine);
    if (reply.final?.startsWith("error ")) throw new Error(errorText(reply.final));
    return reply;
  }

  // Replays `game` ({tags, moves, result} from pgn.js) in the session, then
  // analyses it with `budget` ms per position.
  analyse(game, budget) {
    this.stop();
    return this.run(async () => {
      this.reset();
      this.show();
      this.ui.progress("Replaying the game\u2026");
      const tags = game.tags;
      if (tags.Variant && tags.Variant.toLowerCase() !== "pawnrace") {
        throw new Error(`the board shows Pawn Race games only, not ${tags.Variant}`);
      }
      await this.command("newgame");
      let start;
      if (tags.FEN) {
        start = (await this.command(`position fen ${tags.FEN}`)).final.replace(/^ok position /, "");
      } else if (tags.Gaps) {
        await this.command(`gaps ${tags.Gaps}`);
        start = (await this.command("fen")).final.replace(/^ok fen /, "");
      } else {
        throw new Error("the game has neither a Gaps nor a FEN tag: where does it start?");
      }
      this.offset = start.split(" ")[1] === "b" ? 1 : 0;
      for (const [i, text] of game.moves.entries()) {
        const reply = await this.client.send(`move ${text}`);
        if (reply.final.startsWith("error ")) {
          throw new Error(`move ${i + 1} (${text}): ${errorText(reply.final)}`);
        }
        this.moves.push(parseMoveReply(reply.final));
      }
      this.game = game;
      this.positions = positionsOf(start, this.moves.map((m) => m.uci));
      this.ply = 0;
      this.show();
      await this.prove(budget);
    });
  }

  async prove(budget) {
    const total = this.moves.length;
    this.running = true;
    this.ui.running(true);
    this.ui.progress(`Proving ${total + 1} positions, up to ${budget} ms each, from the end\u2026`);
    let reply;
    try {
      reply = await this.command(`analyse movetime ${budget}`, (line) => this.info(line, total));
    } finally {
      this.running = false;
      this.ui.running(false);
    }
    for (const line of reply.lines) {
      const move = parseAnalysis(line);
      if (move) {
        this.verdicts[move.ply] = move.verdict;
        this.values[move.ply - 1] = move.before;
        this.values[move.ply] = move.after;
      }
      const summary = parseSummary(line);
      if (summary) this.summaries.push(summary);
    }
    const unknown = / unknown (\d+)/.exec(reply.final)?.[1] ?? "0";
    const stopped = reply.final.endsWith(" stopped") ? " Stopped before the end." : "";
    this.ui.progress(`Analysed ${total} moves; ${unknown} not judged.${stopped}`);
    this.show();
  }

  // `info time 12 string position 4 of 27 white wins in 1 (solver)`: a
  // value as it is proven, shown before the whole analysis is done.
  info(line, total) {
    const m = /string position (\d+) of \d+ (.+) \(([^)]+)\)$/.exec(line);
    if (!m) return;
    this.values[Number(m[1])] = m[2];
    const done = this.values.filter((v) => v !== undefined).length;
    this.ui.progress(`Proved ${done} of ${total + 1} positions (position ${m[1]}: ${m[2]}, from ${m[3]})\u2026`);
    if (Number(m[1]) === this.ply) this.show();
  }

  stop() {
    if (this.running) this.client.send("stop").catch(() => {});
  }

  step(delta) {
    this.go(this.ply + delta);
  }

  go(ply) {
    this.ply = Math.max(0, Math.min(this.moves.length, ply));
    this.show();
  }

  show() {
    // A ply's tooltip: `spoiled: White wins in 9 → Black wins in 9`.
    const titles = this.verdicts.map((verdict, ply) =>
      `${verdict}: ${valueText(this.values[ply - 1])} \u2192 ${valueText(this.values[ply])}`);
    this.ui.moveList(this.moves, this.offset, this.verdicts, titles, this.ply, (ply) => this.go(ply));
    this.ui.summary(this.summaries);
    this.ui.detail(this.detail());
    if (!this.active) return;
    this.board.lock();
    this.board.show(this.positions[this.ply], this.ply > 0 ? this.moves[this.ply - 1].uci : null);
  }

  // What the current ply says, for people.
  detail() {
    if (!this.game) return "";
    const value = valueText(this.values[this.ply]);
    if (this.ply === 0) return `Start position: ${value}`;
    const move = this.moves[this.ply - 1];
    const label = numbered([move.san], this.offset + this.ply - 1);
    const verdict = this.verdicts[this.ply];
    const before = valueText(this.values[this.ply - 1]);
    const judged = verdict ? `${verdict}, ${VERDICT_TEXT[verdict]}` : "not analysed yet";
    return `${label}: ${judged}. Before: ${before}; after: ${value}.`;
  }
}

// `white wins in 9` -> `White wins in 9`; a value not (yet) known says so.
export function valueText(value) {
  if (value === undefined) return "\u2026";
  if (value === "unknown") return "unknown (not proven in the time given)";
  return capitalized(value);
}
