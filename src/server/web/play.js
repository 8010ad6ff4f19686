// A game on the page: a person against the engine, two people, or the
// engine against itself (watch). The server's session holds the game; the
// page asks it (`board`, `moves`) after every change and shows what it
// says, so the page never has rules of its own to get wrong.

import { parseBoard, parseMoveReply, parseMoves, sanOf, sideOf } from "./notation.js";
import { pgnDate, writePgn } from "./pgn.js";
import { replay } from "./replay.js";

// The engine's time per move, one per step of the slider.
export const MOVETIMES = [50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000];

export function movetimeText(ms) {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

const RESULT_TOKEN = { "white-wins": "1-0", "black-wins": "0-1", draw: "1/2-1/2" };

export class Play {
  constructor(client, board, thinking, ui) {
    this.client = client;
    this.board = board;
    this.thinking = thinking;
    this.ui = ui;
    this.seats = { white: "human", black: "engine" };
    this.movetime = 1000;
    this.moves = [];
    this.state = null;
    this.startFen = null;
    this.legal = [];
    this.generation = 0;
    this.searching = false;
    this.paused = false;
    this.chain = Promise.resolve();
    this.active = true;
    // The position after each move, as the server wrote it (`fens[0]`
    // the start): what review shows and the explorer values.
    this.fens = [];
    // The ply shown while reviewing the game; null: the game as it is.
    this.viewPly = null;
    // Why there is no game: null, "refused" (the start position) or
    // "disconnected".
    this.trouble = null;
    // Ends the pause a watched game makes between moves (Move now).
    this.cutPace = null;
    // Lent by the page: a session of its own for chores (see Explorer).
    this.scratch = null;
  }

  // Runs `task` after the ones before it, so that the page's commands to
  // the session never interleave; a failure is shown, not thrown.
  run(task) {
    this.chain = this.chain.then(task).catch((e) => this.ui.message(e.message));
    return this.chain;
  }

  async command(line, onLine) {
    const reply = await this.client.send(line, onLine);
    if (reply.final?.startsWith("error ")) throw new ProtocolError(reply.final);
    return reply;
  }

  // `settings`: {seat: white|black|both|none, gaps: "AH" or null (the
  // engine chooses), fen: "" or position text, movetime}.
  newGame(settings) {
    this.generation++;
    this.paused = false;
    this.halt();
    return this.run(async () => {
      this.ui.message("");
      this.seats = {
        white: settings.seat === "white" || settings.seat === "both" ? "human" : "engine",
        black: settings.seat === "black" || settings.seat === "both" ? "human" : "engine",
      };
      this.movetime = settings.movetime;
      this.moves = [];
      this.fens = [];
      this.viewPly = null;
      this.startFen = null;
      this.trouble = null;
      this.thinking.idle();
      await this.command("newgame");
      if (settings.fen) {
        const reply = await this.client.send(`position fen ${settings.fen}`);
        if (reply.final.startsWith("error ")) {
          // The session has no game now; say why and wait for another.
          this.state = null;
          this.trouble = "refused";
          this.render();
          this.show();
          this.ui.message(`The start position: ${errorText(reply.final)}`);
          return;
        }
      } else if (settings.gaps) {
        await this.command(`gaps ${settings.gaps}`);
      }
      await this.board.orient(this.seats.white === "engine" && this.seats.black === "human" ? "black" : "white");
      await this.sync();
      await this.turns();
    });
  }

  // Asks the session where the game stands and shows it; lists the legal
  // moves when a person is to move.
  async sync() {
    const reply = await this.client.send("board");
    if (reply.final.startsWith("error ")) {
      // No position yet: the engine is to choose the gaps.
      this.state = null;
      this.legal = [];
      this.render();
      this.show();
      return;
    }
    const state = parseBoard(reply.lines);
    // The page's own record has the coordinates (for the last move's
    // squares); the console may have changed the game behind it.
    const same = state.history.length === this.moves.length &&
      state.history.every((san, i) => this.moves[i].san === san);
    if (state.history.length === 0) this.startFen = state.fen;
    if (same) {
      this.fens.length = this.moves.length;
      this.fens[this.moves.length] = state.fen;
    } else {
      await this.rebuild(state);
    }
    if (this.viewPly !== null && this.viewPly >= this.fens.length) this.viewPly = null;
    // The state and its moves change together: a page between the two
    // would offer a person's turn with nothing to play.
    let legal = [];
    if (!state.status && this.seats[state.side] === "human") {
      legal = parseMoves((await this.client.send("moves")).lines);
    }
    this.state = state;
    this.legal = legal;
    this.render();
    this.show();
  }

  // The console changed the game behind the page: its moves and positions
  // are replayed from the start into the page's chore session, so that
  // review and the explorer have the server's positions again.
  async rebuild(state) {
    this.moves = state.history.map((san) => ({ uci: null, san }));
    this.fens = [];
    const start = state.gaps ? { gaps: state.gaps } : this.startFen ? { fen: this.startFen } : null;
    if (!start || !this.scratch) {
      this.fens[this.moves.length] = state.fen;
      return;
    }
    try {
      const game = await this.scratch.chore((command) => replay(command, start, state.history));
      if (game.fens.at(-1) === state.fen) {
        this.moves = game.moves;
        this.fens = game.fens;
        return;
      }
    } catch (e) {
      // The start was not this game's: only the position now is known.
      void e;
    }
    this.fens[this.moves.length] = state.fen;
  }

  // Draws the game on the board, when the play view is the one shown: the
  // position reviewed, or the game as it is.
  show() {
    if (!this.active) return;
    if (!this.state) {
      this.board.show("8/8/8/8/8/8/8/8", null);
      this.ui.shown(null);
      return;
    }
    const ply = this.viewPly ?? this.moves.length;
    const fen = this.viewPly === null ? this.state.fen : this.fens[ply];
    this.board.show(fen, ply > 0 ? this.moves[ply - 1]?.uci ?? null : null);
    this.ui.shown(fen);
    this.offerMove();
  }

  // Shows the position after `ply` moves (0: the start) while the game
  // goes on; the game as it is again at its last ply.
  review(ply) {
    if (!this.state) return;
    const last = this.moves.length;
    const target = Math.max(0, Math.min(last, ply));
    this.viewPly = target === last || this.fens[target] === undefined ? null : target;
    this.board.lock();
    this.render();
    this.show();
  }

  step(delta) {
    this.review((this.viewPly ?? this.moves.length) + delta);
  }

  backToGame() {
    this.review(Infinity);
  }

  // A move picked in the explorer: played when a person is to move in
  // the game as it is.
  pick(uci) {
    if (this.viewPly !== null) {
      this.ui.message("Back to the game first to play a move; Analyse tries moves from any position.");
      return;
    }
    if (!this.legal.some((m) => m.uci === uci)) {
      this.ui.message("It is not your move.");
      return;
    }
    this.run(() => this.move(uci));
  }

  offerMove() {
    const side = this.state?.side;
    if (this.viewPly !== null || this.trouble) return;
    if (!this.active || !this.state || this.state.status || this.searching || this.seats[side] !== "human") return;
    this.board.allow(side, this.legal, (uci) => this.run(() => this.move(uci)));
  }

  // Lets whoever is to move move: the engine at once, a person through
  // the board. In a watched game the engine keeps moving until a pause.
  async turns() {
    const generation = this.generation;
    while (generation === this.generation) {
      if (this.state?.status) break;
      const side = this.state ? this.state.side : "white";
      if (this.state && this.seats[side] === "human") {
        this.offerMove();
        break;
      }
      if (this.paused) break;
      await this.engineMove(generation);
    }
    this.render();
  }

  async engineMove(generation) {
    const mover = this.state ? this.state.side : "black";
    this.thinking.start(mover, this.plyOffset() + this.moves.length);
    this.searching = true;
    this.render();
    const search = this.client.send(`go movetime ${this.movetime}`, (line) => this.thinking.line(line));
    // A watched game goes at the chosen pace even where proofs are
    // instant; Move now cuts the pause short.
    const pace = this.watching ? this.pause(this.movetime) : null;
    let reply;
    try {
      reply = await search;
      await pace;
    } finally {
      this.searching = false;
    }
    if (generation !== this.generation) return;
    const words = reply.final.split(" ");
    if (reply.final.startsWith("ok gaps ")) {
      this.thinking.gaps(words[2]);
      this.ui.gapsChosen(words[2]);
    } else if (words[0] === "bestmove" && words[1] !== "(none)") {
      this.moves.push({ uci: words[1], san: sanOf(words[1]) });
      this.thinking.done(words[1]);
    } else {
      this.thinking.done(null);
      if (reply.final.startsWith("error ")) throw new ProtocolError(reply.final);
    }
    await this.sync();
  }

  // A person's move, in any form the protocol reads (`e2e4`, `e4`, `exd5`).
  async move(text) {
    this.board.lock();
    this.ui.message("");
    const reply = await this.client.send(`move ${text}`);
    if (reply.final.startsWith("error ")) {
      this.ui.message(errorText(reply.final));
    } else {
      this.moves.push(parseMoveReply(reply.final));
    }
    await this.sync();
    await this.turns();
  }

  // Takes back the last move, and the engine's before it, so that the
  // person who asked is to move again.
  undo() {
    if (this.searching || this.moves.length === 0) return Promise.resolve();
    this.generation++;
    return this.run(async () => {
      this.ui.message("");
      this.board.lock();
      const anyHuman = this.seats.white === "human" || this.seats.black === "human";
      do {
        await this.command("undo");
        this.moves.pop();
        this.fens.length = this.moves.length + 1;
        this.state = { ...this.state, status: null, side: this.state.side === "white" ? "black" : "white" };
      } while (anyHuman && this.moves.length > 0 && this.seats[this.state.side] === "engine");
      this.paused = this.paused || !anyHuman;
      this.viewPly = null;
      this.thinking.idle();
      await this.sync();
      await this.turns();
    });
  }

  // The engine moves now, with what it has found (protocol `stop`); in a
  // watched game the pause before its move is cut short too.
  stopSearch() {
    if (!this.searching) return;
    this.cutPace?.();
    this.client.send("stop").catch(() => {});
  }

  pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.cutPace = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.cutPace = null));
  }

  // The session is gone: nothing can be played or asked any more.
  disconnected() {
    this.trouble = "disconnected";
    this.searching = false;
    this.board.lock();
    this.render();
  }

  halt() {
    this.board.lock();
    this.stopSearch();
  }

  get watching() {
    return this.seats.white === "engine" && this.seats.black === "engine";
  }

  togglePause() {
    this.paused = !this.paused;
    if (!this.paused) this.run(() => this.turns());
    this.render();
  }

  // The session's console changed something: show the game as it is now.
  refresh() {
    this.generation++;
    return this.run(async () => {
      await this.sync();
      await this.turns();
    });
  }

  plyOffset() {
    return this.startFen && sideOf(this.startFen) === "black" ? 1 : 0;
  }

  render() {
    const over = this.state?.status ?? null;
    const side = this.state?.side;
    const live = !this.trouble;
    const humanToMove = live && !over && this.state && this.seats[side] === "human" && !this.searching;
    this.ui.root.dataset.state = this.trouble === "disconnected" ? "disconnected" : over ? "over"
      : this.searching ? "thinking" : humanToMove ? "your-move" : this.paused ? "paused" : "waiting";
    this.ui.banner(over, RESULT_TOKEN[over?.result] ?? "*", this.outcomeFor(over));
    this.ui.moveList(this.moves, this.plyOffset(), this.viewPly ?? this.moves.length, (ply) => this.review(ply));
    this.ui.info(this.describe());
    this.ui.legalMoves(humanToMove && this.viewPly === null ? this.legal : []);
    this.ui.controls({
      stop: live && this.searching,
      undo: live && this.moves.length > 0 && !this.searching && (!this.watching || this.paused),
      pause: live && this.watching && !over,
      paused: this.paused,
      reviewing: this.viewPly !== null,
      connected: this.trouble !== "disconnected",
    });
  }

  // The end as the person at the board sees it: "won", "lost", "draw",
  // or "watched" when they played both sides or none.
  outcomeFor(over) {
    if (!over) return null;
    if (over.result === "draw") return "draw";
    const humans = ["white", "black"].filter((s) => this.seats[s] === "human");
    if (humans.length !== 1) return "watched";
    return over.result === `${humans[0]}-wins` ? "won" : "lost";
  }

  // `Gaps AF (white has no a-pawn, black no f-pawn) · you play white ·
  // the engine thinks 200 ms a move`
  describe() {
    if (this.trouble === "disconnected") return "Disconnected from the server: reload the page for a new session.";
    if (this.trouble === "refused") return "No game: the start position was refused. Correct it or clear it, then New game.";
    if (!this.client.connected) return "Connecting to the server\u2026";
    if (!this.state) {
      return this.seats.black === "engine" ? "The engine (black) chooses the gaps\u2026" : "Starting the game\u2026";
    }
    const gaps = this.state.gaps;
    const start = gaps
      ? `Gaps ${gaps} (white has no ${gaps[0].toLowerCase()}-pawn, black no ${gaps[1].toLowerCase()}-pawn)`
      : `From ${this.startFen ?? "a set-up position"}`;
    const humans = ["white", "black"].filter((side) => this.seats[side] === "human");
    const you = humans.length === 2 ? "you play both sides" : humans.length === 1 ? `you play ${humans[0]}` : "the engine plays both sides";
    const engine = humans.length < 2 ? ` \u00b7 the engine thinks ${movetimeText(this.movetime)} a move` : "";
    return `${start} \u00b7 ${you}${engine}`;
  }

  // The game so far as PGN: for the analysis view, to copy, to download.
  pgn() {
    const name = (side) => (this.seats[side] === "human" ? "you" : "pawnrace");
    const result = RESULT_TOKEN[this.state?.status?.result] ?? "*";
    const tags = [
      ["Event", "pawnrace board"],
      ["Site", location.host || "?"],
      ["Date", pgnDate()],
      ["Round", "-"],
      ["White", name("white")],
      ["Black", name("black")],
      ["Result", result],
      ["Variant", "pawnrace"],
    ];
    if (this.state?.gaps) tags.push(["Gaps", this.state.gaps]);
    else if (this.startFen) tags.push(["SetUp", "1"], ["FEN", this.startFen]);
    return writePgn({ tags, sans: this.moves.map((m) => m.san), offset: this.plyOffset(), result });
  }
}

export class ProtocolError extends Error {
  constructor(final) {
    super(errorText(final));
    this.final = final;
  }
}

// `error illegal-move e2e5 is not legal here` -> the part for people.
export function errorText(final) {
  return final.replace(/^error \S+ /, "");
}

