// Analysis of a recorded game: the game is replayed into a session of its
// own (a second WebSocket, so the game being played is left alone), then
// the protocol's `analyse` proves the value before and after every move
// and judges each move (kept, spoiled, chance, forced, unknown). At each
// spoiled move the position before it is explored, to show which moves
// would have kept the result. Any position can be left for a side line of
// moves tried on the board, which the explorer values.

import { LineClient } from "./protocol.js";
import { capitalized, numbered, parseAnalysis, parseSummary, sanOf, sideOf } from "./notation.js";
import { errorText } from "./play.js";
import { replay } from "./replay.js";
import { bestFirst, parseExplored, resultFor, valueWords } from "./explorer.js";
import { pgnDate, writePgn } from "./pgn.js";

const VERDICT_TEXT = {
  kept: "kept the result",
  spoiled: "spoiled the result",
  chance: "took the chance the opponent gave",
  forced: "the only legal move",
  unknown: "not judged: a value was not proven in time",
};

// Where the board starts before a game is loaded: Pawn Race with gaps AH,
// to try moves on.
const FREE_BOARD = { tags: { Gaps: "AH", White: "?", Black: "?" }, moves: [], result: "*" };

export class Analysis {
  constructor(url, board, explorer, ui) {
    this.client = new LineClient(url);
    this.board = board;
    this.explorer = explorer;
    this.ui = ui;
    this.active = false;
    this.reset();
    this.running = false;
    this.chain = Promise.resolve();
  }

  reset() {
    this.game = null;
    this.moves = [];
    this.fens = [];
    this.values = [];
    this.verdicts = [];
    this.summaries = [];
    // Per spoiled ply: the moves of the position before it, valued.
    this.alternatives = [];
    this.ply = 0;
    this.offset = 0;
    this.side = null;
    this.budget = 1000;
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

  // Puts `game` ({tags, moves, result} from pgn.js) on the board, replayed
  // by the server (its positions are the server's).
  async load(game) {
    this.reset();
    const tags = game.tags;
    if (tags.Variant && tags.Variant.toLowerCase() !== "pawnrace") {
      throw new Error(`the board shows Pawn Race games only, not ${tags.Variant}`);
    }
    const start = tags.FEN ? { fen: tags.FEN } : tags.Gaps ? { gaps: tags.Gaps } : {};
    const replayed = await replay((line) => this.command(line), start, game.moves);
    this.moves = replayed.moves;
    this.fens = replayed.fens;
    this.offset = sideOf(this.fens[0]) === "black" ? 1 : 0;
    this.game = game;
    this.ply = 0;
  }

  // The Analyse tab with no game yet: the start of a Pawn Race to try
  // moves from.
  showFreeBoard() {
    if (this.game) return this.show();
    return this.run(async () => {
      if (this.game) return;
      await this.load(FREE_BOARD);
      this.ui.progress("No game loaded: try moves on the board, or paste a PGN and Analyse.");
      this.show();
    });
  }

  // Replays `game`, then analyses it with `budget` ms per position. With
  // `focus` (a side), the analysis ends on that side's first spoiled move,
  // which it explains first: a player who lost sees where, and what would
  // have held.
  analyse(game, budget, focus = null) {
    this.stop();
    return this.run(async () => {
      this.reset();
      this.show();
      this.ui.progress("Replaying the game\u2026");
      await this.load(game);
      this.budget = budget;
      this.show();
      await this.prove(budget);
      const first = focus ? this.firstSpoil(focus) : null;
      if (first !== null) this.go(first);
      await this.explain(budget, first);
      if (focus && first === null) {
        const start = resultFor(this.values[0], focus).result;
        const why = start === "loss" ? ` ${capitalized(focus)} was lost from the start.` : "";
        this.ui.progress(`No move of ${focus}'s spoiled the result.${why}`);
      }
    });
  }

  // The ply of `side`'s first spoiled move, or null.
  firstSpoil(side) {
    const ply = this.verdicts.findIndex((v, p) => v === "spoiled" && sideOf(this.fens[p - 1]) === side);
    return ply > 0 ? ply : null;
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

  // At every spoiled move: the moves of the position before it, valued
  // by `explore`, so that the page can say what would have kept the result.
  async explain(budget, first = null) {
    const spoiled = this.verdicts.flatMap((v, ply) => (v === "spoiled" ? [ply] : []));
    // The move shown first is explained first.
    spoiled.sort((a, b) => (b === first) - (a === first));
    for (const ply of spoiled) {
      if (!this.game) return;
      this.ui.progress(`Finding what would have kept the result at ${this.label(ply)}\u2026`);
      const fen = this.fens[ply - 1];
      await this.command(`position fen ${fen}`);
      this.running = true;
      this.ui.running(true);
      let rows = [];
      try {
        const reply = await this.command(`explore movetime ${budget}`);
        rows = reply.lines.map(parseExplored).filter(Boolean);
        if (reply.final.endsWith(" stopped")) break;
      } finally {
        this.running = false;
        this.ui.running(false);
      }
      this.alternatives[ply] = bestFirst(rows, sideOf(fen));
      this.show();
    }
    const n = spoiled.length;
    if (n > 0) this.ui.progress(`Analysed ${this.moves.length} moves; ${n} spoiled: click one to see what would have kept the result.`);
  }

  // `info time 12 string position 4 of 27 white wins in 1 (solver)`: a
  // value as it is proven, shown before the whole analysis is done.
  info(line, total) {
    const m = /string position (\d+) of \d+ (.+) \(([^)]+)\)$/.exec(line);
    if (!m) return;
    this.values[Number(m[1])] = m[2];
    const done = this.values.filter((v) => v !== undefined).length;
    this.ui.progress(`Proved ${done} of ${total + 1} positions (position ${m[1]}: ${m[2]}, from ${m[3]})\u2026`);
    this.show();
  }

  stop() {
    if (this.running) this.client.send("stop").catch(() => {});
  }

  // Steps along the side line when there is one, else along the game.
  step(delta) {
    if (this.side) {
      const at = this.side.at + delta;
      if (at < 0) return this.backToGame();
      this.side.at = Math.min(this.side.moves.length, at);
      return this.show();
    }
    this.go(this.ply + delta);
  }

  go(ply) {
    this.side = null;
    this.ply = Math.max(0, Math.min(this.moves.length, ply));
    this.show();
  }

  backToGame() {
    if (!this.side) return;
    this.ply = this.side.from;
    this.side = null;
    this.show();
  }

  // The position the board shows: on the side line, or in the game.
  get fen() {
    return this.side ? this.side.fens[this.side.at] : this.fens[this.ply];
  }

  // A move tried on the board (or picked in the explorer) from the
  // position shown: it starts or extends a side line.
  tryMove(uci) {
    const fen = this.fen;
    if (!fen) return;
    this.board.lock();
    this.explorer.after(fen, uci).then(
      (next) => {
        if (this.fen !== fen) return;
        if (!this.side) this.side = { from: this.ply, moves: [], fens: [fen], at: 0 };
        this.side.moves.length = this.side.at;
        this.side.fens.length = this.side.at + 1;
        this.side.moves.push({ uci, san: sanOf(uci) });
        this.side.fens.push(next);
        this.side.at = this.side.moves.length;
        this.show();
      },
      (e) => this.ui.progress(e.message),
    );
  }

  // The explorer listed the moves of `fen`: the board takes them there
  // (once: the values that follow change no move, and taking the moves
  // again would drop a pawn being dragged).
  legalMoves(fen, rows) {
    if (!this.active || fen !== this.fen || this.offering(fen)) return;
    this.offered = fen;
    this.board.allow(sideOf(fen), rows, (uci) => this.tryMove(uci));
  }

  // Whether the board takes the moves of `fen` from this view now.
  offering(fen) {
    return fen !== undefined && this.offered === fen && this.board.onMove !== null;
  }

  label(ply) {
    return numbered([this.moves[ply - 1].san], this.offset + ply - 1);
  }

  show() {
    const current = this.side ? this.side.from : this.ply;
    // A ply's tooltip: `spoiled: White wins in 9 → Black wins in 9`.
    const titles = this.verdicts.map((verdict, ply) =>
      `${verdict}: ${valueText(this.values[ply - 1])} \u2192 ${valueText(this.values[ply])}`);
    this.ui.moveList(this.moves, this.offset, this.verdicts, titles, current, (ply) => this.go(ply));
    this.ui.summary(this.summaries);
    this.ui.detail(this.detail());
    this.ui.alternatives(this.keepers());
    this.ui.sideLine(this.sideLine());
    this.ui.graph(this.game ? this.fens.map((_, i) => this.values[i]) : [], this.verdicts, current, (ply) => this.go(ply));
    if (!this.active) return;
    const fen = this.fen;
    if (!this.offering(fen)) {
      this.board.lock();
      this.offered = null;
    }
    if (!fen) {
      this.board.show("8/8/8/8/8/8/8/8", null);
      this.explorer.show(null);
      return;
    }
    const last = this.side
      ? this.side.at > 0 ? this.side.moves[this.side.at - 1].uci : (this.ply > 0 ? this.moves[this.ply - 1].uci : null)
      : this.ply > 0 ? this.moves[this.ply - 1].uci : null;
    this.board.show(fen, last);
    this.explorer.show(fen);
    const rows = this.explorer.rowsFor(fen);
    if (rows) this.legalMoves(fen, rows);
  }

  // The side line for people: {text, moves: [{san, at}], at} or null.
  sideLine() {
    if (!this.side) return null;
    const start = this.offset + this.side.from;
    return {
      from: this.side.from === 0 ? "the start" : `after ${this.label(this.side.from)}`,
      moves: this.side.moves.map((m, i) => ({
        text: numbered([m.san], start + i),
        at: i + 1,
      })),
      at: this.side.at,
      pick: (at) => {
        this.side.at = at;
        this.show();
      },
    };
  }

  // At a spoiled move: the moves that would have kept the mover's result,
  // as {label, moves: [{san, uci, words}], note}; null elsewhere.
  keepers() {
    if (this.side || this.verdicts[this.ply] !== "spoiled") return null;
    const ply = this.ply;
    const rows = this.alternatives[ply];
    const label = this.label(ply);
    if (!rows) return { label, moves: [], note: "Exploring the position before it\u2026" };
    const mover = sideOf(this.fens[ply - 1]);
    const kept = this.keptAt(ply);
    const note = kept.length === 0 ? "No move was proven to keep it within the budget." : "";
    return {
      label,
      moves: kept.map((r) => ({ san: r.san, uci: r.uci, words: valueWords(r.value, mover) })),
      note,
      show: () => this.go(ply - 1),
    };
  }

  // What the current ply says, for people.
  detail() {
    if (!this.game) return "";
    if (this.side) return `Side line from ${this.sideLine().from}: the explorer values its moves.`;
    const value = valueText(this.values[this.ply]);
    if (this.ply === 0) return `Start position: ${value}`;
    const label = this.label(this.ply);
    const verdict = this.verdicts[this.ply];
    const before = valueText(this.values[this.ply - 1]);
    const judged = verdict ? `${verdict}, ${VERDICT_TEXT[verdict]}` : "not analysed yet";
    return `${label}: ${judged}. Before: ${before}; after: ${value}.`;
  }

  // The game as PGN with the analysis as comments: each move's value
  // after it, its verdict, and at a spoiled move what would have kept it.
  pgn() {
    if (!this.game) return "";
    const t = this.game.tags;
    const result = this.game.result ?? "*";
    const tags = [
      ["Event", t.Event ?? "pawnrace analysis"],
      ["Site", t.Site ?? "?"],
      ["Date", t.Date ?? pgnDate()],
      ["Round", t.Round ?? "-"],
      ["White", t.White ?? "?"],
      ["Black", t.Black ?? "?"],
      ["Result", result],
      ["Variant", "pawnrace"],
    ];
    if (t.FEN) tags.push(["SetUp", "1"], ["FEN", t.FEN]);
    else if (t.Gaps) tags.push(["Gaps", t.Gaps]);
    const analysed = this.verdicts.length > 0;
    if (analysed) tags.push(["Annotator", "pawnrace analyse (the board)"]);
    const marks = [];
    const comments = [];
    this.moves.forEach((_, i) => {
      const ply = i + 1;
      const verdict = this.verdicts[ply];
      if (!verdict) return;
      marks[i] = verdict === "spoiled" ? "??" : verdict === "chance" ? "!" : "";
      let text = `${this.values[ply] ?? "unknown"}; ${verdict}`;
      const keep = verdict === "spoiled" ? this.keptAt(ply).map((r) => r.san) : [];
      if (keep.length) text += `; kept by ${keep.join(", ")}`;
      comments[i] = text;
    });
    return writePgn({ tags, sans: this.moves.map((m) => m.san), offset: this.offset, result, marks, comments });
  }

  // The explored moves before spoiled ply `ply` that keep what its mover
  // had: the same result (win, draw) as the position before it.
  keptAt(ply) {
    const rows = this.alternatives[ply] ?? [];
    const mover = sideOf(this.fens[ply - 1]);
    const had = resultFor(this.values[ply - 1], mover).result;
    return rows.filter((r) => resultFor(r.value, mover).result === had);
  }
}

// `white wins in 9` -> `White wins in 9`; a value not (yet) known says so.
export function valueText(value) {
  if (value === undefined) return "\u2026";
  if (value === "unknown") return "unknown (not proven in the time given)";
  return capitalized(value);
}
