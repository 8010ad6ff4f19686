// The board widget (cm-chessboard, vendored) as the page uses it: show a
// position with its last move, and take one move from a person, by drag
// or by two clicks, among the legal moves the server listed.

import { Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE } from "./vendor/cm-chessboard/src/Chessboard.js";
import { Markers, MARKER_TYPE } from "./vendor/cm-chessboard/src/extensions/markers/Markers.js";
import { Position } from "./vendor/cm-chessboard/src/model/Position.js";

// Marker types are matched by identity, so they live here once.
const LAST_MOVE = { class: "marker-last", slice: "markerSquare" };
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
  }

  // Shows `fen` (the server's position text; only the placement is read)
  // with `lastMove` (coordinates, or null) marked.
  show(fen, lastMove, animated = true) {
    this.fen = fen;
    this.element.dataset.fen = fen;
    this.board.setPosition(fen.split(" ")[0], animated);
    this.board.removeMarkers(LAST_MOVE);
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
    this.board.removeLegalMovesMarkers();
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

// The positions a game passes through: `start` (position text) and then
// after each move (coordinates), each as placement text. Pawn moves are
// all the rules needed to replay a game the server already checked; the
// one subtlety is en passant, a diagonal step to an empty square, which
// takes the pawn beside it.
export function positionsOf(start, moves) {
  const position = new Position(start.split(" ")[0]);
  const out = [position.getFen()];
  for (const uci of moves) {
    const from = uci.slice(0, 2);
    const to = uci.slice(2, 4);
    if (from[0] !== to[0] && !position.getPiece(to)) position.setPiece(to[0] + from[1], null);
    position.movePiece(from, to);
    out.push(position.getFen());
  }
  return out;
}
