// The board widget (cm-chessboard, vendored) as the page uses it: show a
// position with its last move, and take one move from a person, by drag,
// by two clicks or by keyboard (focus the board, arrows to a pawn, Enter,
// arrows to its target, Enter; Escape lets go), among the legal moves the
// server listed.

import { Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE } from "./vendor/cm-chessboard/src/Chessboard.js";
import { Markers, MARKER_TYPE } from "./vendor/cm-chessboard/src/extensions/markers/Markers.js";
import { Position } from "./vendor/cm-chessboard/src/model/Position.js";

// Marker types are matched by identity, so they live here once.
const LAST_MOVE = { class: "marker-last", slice: "markerSquare" };
const CURSOR = { class: "marker-cursor", slice: "markerFrame" };
const PICKED = { class: "marker-picked", slice: "markerSquare" };
const FILES = "abcdefgh";
const EMPTY = "8/8/8/8/8/8/8/8";

export class BoardView {
  constructor(element) {
    this.element = element;
    this.board = new Chessboard(element, {
      position: EMPTY,
      assetsUrl: "vendor/cm-chessboard/assets/",
      style: { borderType: BORDER_TYPE.frame, animationDuration: 150 },
      extensions: [{ class: Markers, props: { autoMarkers: MARKER_TYPE.frame } }],
    });
    this.legal = [];
    this.onMove = null;
    this.fen = EMPTY;
    // The keyboard's square, and the pawn it picked up (or null).
    this.cursor = "e2";
    this.picked = null;
    element.tabIndex = 0;
    element.setAttribute("role", "application");
    element.setAttribute("aria-roledescription", "board");
    element.addEventListener("focus", () => this.drawCursor());
    element.addEventListener("blur", () => this.board.removeMarkers(CURSOR));
    element.addEventListener("keydown", (event) => this.key(event));
    this.describe();
  }

  // Arrows move the cursor (as the board is turned), Enter or Space picks
  // a pawn up and puts it down, Escape lets go.
  key(event) {
    const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const step = steps[event.key];
    if (step) {
      const turned = this.board.getOrientation() === COLOR.black ? -1 : 1;
      const file = FILES.indexOf(this.cursor[0]) + step[0] * turned;
      const rank = Number(this.cursor[1]) + step[1] * turned;
      if (file >= 0 && file < 8 && rank >= 1 && rank <= 8) this.cursor = FILES[file] + rank;
      this.drawCursor();
    } else if (event.key === "Enter" || event.key === " ") {
      this.choose(this.cursor);
    } else if (event.key === "Escape") {
      this.letGo();
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  // Enter on `square`: picks up a pawn with legal moves, or plays the
  // picked one there.
  choose(square) {
    const from = this.legal.filter((m) => m.uci.startsWith(square));
    const to = this.picked && this.legal.find((m) => m.uci.slice(0, 4) === this.picked + square);
    if (to) {
      const onMove = this.onMove;
      this.letGo();
      this.legal = [];
      this.onMove = null;
      onMove?.(to.uci);
    } else if (from.length > 0) {
      this.letGo();
      this.picked = square;
      this.board.addMarker(PICKED, square);
      this.board.addLegalMovesMarkers(from.map((m) => ({ to: m.uci.slice(2, 4) })));
    }
    this.describe();
  }

  letGo() {
    this.picked = null;
    this.board.removeMarkers(PICKED);
    this.board.removeLegalMovesMarkers();
    this.describe();
  }

  drawCursor() {
    this.board.removeMarkers(CURSOR);
    // Only for a keyboard's focus: a click on a square needs no cursor.
    if (this.element.matches(":focus-visible")) this.board.addMarker(CURSOR, this.cursor);
    this.describe();
  }

  // What a screen reader says of the board: the square under the cursor.
  describe() {
    const placement = new Position(this.fen.split(" ")[0]);
    const piece = placement.getPiece(this.cursor);
    const on = piece ? `${piece[0] === "w" ? "white" : "black"} pawn` : "empty";
    const picked = this.picked ? `, ${this.picked} picked up` : "";
    this.element.setAttribute("aria-label", `board, ${this.cursor}: ${on}${picked}; arrows move, Enter picks a pawn and plays it`);
  }

  // Shows `fen` (the server's position text; only the placement is read)
  // with `lastMove` (coordinates, or null) marked.
  show(fen, lastMove, animated = true) {
    if (fen !== this.fen) this.letGo();
    this.fen = fen;
    this.element.dataset.fen = fen;
    this.board.setPosition(fen.split(" ")[0], animated);
    this.board.removeMarkers(LAST_MOVE);
    this.describe();
    if (lastMove) {
      this.board.addMarker(LAST_MOVE, lastMove.slice(0, 2));
      this.board.addMarker(LAST_MOVE, lastMove.slice(2, 4));
    }
  }

  // Lets a person move `side`'s pawns, one of `legal` ({uci, san}); calls
  // `onMove(uci)` with the move made.
  allow(side, legal, onMove) {
    this.legal = legal;
    this.onMove = onMove;
    this.board.disableMoveInput();
    this.board.enableMoveInput((event) => this.input(event), side === "white" ? COLOR.white : COLOR.black);
  }

  lock() {
    this.legal = [];
    this.onMove = null;
    this.board.disableMoveInput();
    this.letGo();
  }

  input(event) {
    switch (event.type) {
      case INPUT_EVENT_TYPE.moveInputStarted: {
        const targets = this.legal
          .filter((m) => m.uci.startsWith(event.squareFrom))
          .map((m) => ({ to: m.uci.slice(2, 4) }));
        this.board.removeLegalMovesMarkers();
        this.board.addLegalMovesMarkers(targets);
        return targets.length > 0;
      }
      case INPUT_EVENT_TYPE.validateMoveInput: {
        this.board.removeLegalMovesMarkers();
        const uci = event.squareFrom + event.squareTo;
        const move = this.legal.find((m) => m.uci.slice(0, 4) === uci);
        if (!move) return false;
        const onMove = this.onMove;
        this.legal = [];
        this.onMove = null;
        // Once the widget has finished this input: the handler redraws.
        setTimeout(() => onMove?.(move.uci));
        return true;
      }
      case INPUT_EVENT_TYPE.moveInputCanceled:
        this.board.removeLegalMovesMarkers();
        return true;
      default:
        return true;
    }
  }

  flip() {
    const next = this.board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white;
    this.element.dataset.orientation = next === COLOR.white ? "white" : "black";
    return this.board.setOrientation(next);
  }

  orient(side) {
    this.element.dataset.orientation = side;
    return this.board.setOrientation(side === "white" ? COLOR.white : COLOR.black);
  }
}
