// The engine's thinking as it comes, in `info` lines during a `go`: depth,
// score and line for people, and a proof, when there is one, in words
// ("White wins in 29") rather than as a score.

import { numbered, parseInfo, provenText, sanOf, scoreText } from "./notation.js";

export class ThinkingView {
  constructor(root) {
    this.who = root.querySelector("#think-who");
    this.value = root.querySelector("#think-value");
    this.stats = root.querySelector("#think-stats");
    this.pv = root.querySelector("#think-pv");
    this.root = root;
  }

  // A search starts for `mover` at `ply` (plies since white's first move),
  // which numbers the pv.
  start(mover, ply) {
    this.mover = mover;
    this.ply = ply;
    this.proven = null;
    this.root.dataset.proven = "";
    this.root.dataset.proving = "";
    this.who.textContent = `The engine (${mover}) is thinking\u2026`;
    this.value.textContent = "";
    this.stats.textContent = "";
    this.pv.textContent = "";
  }

  // One line of the `go` reply before `bestmove`.
  line(line) {
    if (!line.startsWith("info ")) return;
    const info = parseInfo(line);
    if (info.string !== undefined) {
      const proven = provenText(info.string, this.mover);
      if (proven) {
        this.proven = proven;
        this.root.dataset.proven = proven;
        this.value.replaceChildren(proven, " ", small("proven"));
      } else if (info.nodes !== undefined) {
        // The solver at work: `info nodes ... string deciding`.
        this.root.dataset.proving = info.string;
        this.showStats(info, `proving: ${info.string}`);
      }
      return;
    }
    if (info.multipv !== undefined && info.multipv > 1) return;
    if (this.proven) {
      this.value.replaceChildren(this.proven, " ", small("proven"));
    } else if (info.score) {
      const text = scoreText(info.score, this.mover);
      const note = info.score.kind === "mate" ? "found by search" : "estimate, white's view";
      this.value.replaceChildren(text, " ", small(note));
    }
    this.showStats(info, info.depth !== undefined ? `depth ${info.depth}${info.seldepth ? `/${info.seldepth}` : ""}` : null);
    if (info.pv) this.pv.textContent = numbered(info.pv.map(sanOf), this.ply);
  }

  showStats(info, what) {
    const stats = what ? [what] : [];
    if (info.nodes !== undefined) stats.push(`${count(info.nodes)} nodes`);
    if (info.nps) stats.push(`${count(info.nps)} nodes/s`);
    if (info.time !== undefined) stats.push(`${info.time} ms`);
    this.stats.textContent = stats.join(" \u00b7 ");
  }

  // The search ended with `bestmove` (coordinates), or none.
  done(move) {
    this.who.textContent = move
      ? `The engine (${this.mover}) played ${sanOf(move)}.`
      : "The engine waits.";
  }

  // Shown in place of a search: the engine chose the gaps.
  gaps(gaps) {
    this.who.textContent = `The engine (black) chose the gaps ${gaps}.`;
    this.value.textContent = "";
    this.stats.textContent = "";
    this.pv.textContent = "";
  }

  // Nothing is being searched: what the last search said is cleared too
  // (after Undo it spoke of a position no longer on the board).
  idle(text = "The engine waits.") {
    this.who.textContent = text;
    this.value.textContent = "";
    this.stats.textContent = "";
    this.pv.textContent = "";
    this.proven = null;
    this.root.dataset.proven = "";
    this.root.dataset.proving = "";
  }
}

function small(text) {
  const element = document.createElement("small");
  element.textContent = `(${text})`;
  return element;
}

// 48211 -> 48.2k, 2410550 -> 2.41M
function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}
