// The explorer: every legal move of the position on the board with its
// proven value for the mover, best first, as a tablebase page lists them.
// It has a session of its own (a WebSocket beside the game's), which it
// also lends for small chores: the position after a move, a game's
// positions. Values come from the protocol's `explore` (the openings
// table, the book, the solver), never from the page.

import { LineClient } from "./protocol.js";
import { capitalized, other, sideOf } from "./notation.js";

// `explore move e2e4 san e4 value white wins in 29 source book`.
export function parseExplored(line) {
  const m = /^explore move (\S+) san (\S+) value (.+) source (\S+)$/.exec(line);
  if (!m) return null;
  return { uci: m[1], san: m[2], value: m[3], source: m[4] };
}

// A value (`white wins in 29`, `white wins`, `draw`, `unknown`) for
// `side`: its result and distance (null where not proven), {result: "win" | "draw" | "loss" | "unknown", plies}.
export function resultFor(value, side) {
  if (!value || value === "unknown") return { result: "unknown", plies: null };
  if (value === "draw") return { result: "draw", plies: null };
  // `white wins` alone: the value is proven, its distance is not.
  const m = /^(white|black) wins(?: in (\d+))?$/.exec(value);
  if (!m) return { result: "unknown", plies: null };
  return { result: m[1] === side ? "win" : "loss", plies: m[2] === undefined ? null : Number(m[2]) };
}

const RANK = { win: 0, draw: 1, unknown: 2, loss: 3 };

// Best first for `side`: wins (shortest first), draws, the unknown (and
// the not yet proven), losses (longest first); the listed order breaks ties.
export function bestFirst(rows, side) {
  const key = (row) => {
    const r = resultFor(row.value, side);
    // A distance not proven counts as the farthest.
    const plies = r.plies ?? Number.MAX_SAFE_INTEGER;
    const within = r.result === "win" ? plies : r.result === "loss" ? -plies : 0;
    return [RANK[r.result], within];
  };
  return rows
    .map((row, i) => ({ row, i, key: key(row) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.i - b.i)
    .map((x) => x.row);
}

// The budget per move of the panel's `explore`, ms.
const BUDGET = 1500;

export class Explorer {
  // `root`: the panel (its switch, status line and list); `onPick(uci)`:
  // a move clicked in the list; `onRows(fen, rows)`: the moves of `fen`
  // as they are listed and valued (the legal moves even with the values
  // switched off, for the board).
  constructor(url, root, onPick, onRows = () => {}) {
    this.client = new LineClient(url);
    this.root = root;
    this.list = root.querySelector("#explorer-moves");
    this.status = root.querySelector("#explorer-status");
    this.switch = root.querySelector("#explore-on");
    this.onPick = onPick;
    this.onRows = onRows;
    this.fen = null;
    this.rows = [];
    this.running = null;
    this.chain = Promise.resolve();
    this.cache = new Map();
    // Whether the moves are wanted with the values off (the analysis
    // board takes them from here); else the switched-off explorer leaves
    // the server alone and its session unopened.
    this.listMoves = false;
    this.switch.addEventListener("change", () => this.refresh());
  }

  get enabled() {
    return this.switch.checked;
  }

  set enabled(on) {
    this.switch.checked = on;
    this.refresh();
  }

  // Runs `task` on the explorer's session after the ones before it.
  run(task) {
    this.chain = this.chain.then(task).catch((e) => (this.status.textContent = e.message));
    return this.chain;
  }

  async command(line, onLine) {
    if (!this.client.connected) await this.client.connect();
    const reply = await this.client.send(line, onLine);
    if (reply.final?.startsWith("error ")) throw new Error(reply.final.replace(/^error \S+ /, ""));
    return reply;
  }

  // Runs `task(command)` on the explorer's session as soon as it is free
  // (a running exploration is stopped, and taken up again after), and
  // resolves with what it returns; `command` throws on an error line.
  chore(task) {
    if (this.running) this.client.send("stop").catch(() => {});
    return new Promise((resolve, reject) => {
      this.run(async () => {
        try {
          resolve(await task((line) => this.command(line)));
        } catch (e) {
          reject(e);
        }
      }).then(() => {
        if (this.fen && !this.cache.has(this.fen)) this.refresh();
      });
    });
  }

  // The position text after `uci` from `fen`, as the server plays it.
  after(fen, uci) {
    return this.chore(async (command) =>
      (await command(`position fen ${fen} moves ${uci}`)).final.replace(/^ok position /, ""));
  }

  // The panel follows `fen` (position text, or null for none): the moves
  // are listed at once, their values fill in as the proofs arrive.
  show(fen) {
    if (fen === this.fen) return;
    this.fen = fen;
    this.refresh();
  }

  // The moves listed so far for `fen`, if the panel is on it.
  rowsFor(fen) {
    return fen === this.fen && this.rows.length > 0 ? this.rows : null;
  }

  refresh() {
    this.root.dataset.enabled = this.enabled ? "yes" : "";
    if (this.running) this.client.send("stop").catch(() => {});
    const fen = this.fen;
    if (!fen || (!this.enabled && !this.listMoves)) {
      this.rows = [];
      this.render(this.enabled ? "No position to explore." : "");
      return;
    }
    if (this.showExplored(fen)) return;
    this.rows = [];
    this.render("Listing the moves\u2026");
    this.run(async () => {
      if (fen !== this.fen) return;
      // Explored meanwhile (a request queued twice): nothing to prove again.
      if (this.showExplored(fen)) return;
      const enabled = this.enabled;
      await this.explore(fen, enabled ? BUDGET : 0, (rows, note) => {
        this.onRows(fen, rows);
        if (fen !== this.fen) return;
        this.rows = rows;
        this.render(note);
      });
    });
  }

  // Shows `fen`'s complete exploration, if there is one.
  showExplored(fen) {
    const done = this.cache.get(fen);
    if (!done) return false;
    this.rows = done;
    this.render(this.summary(done));
    this.onRows(fen, done);
    return true;
  }

  // Explores `fen` with `budget` ms per move (0: only list the moves);
  // `update(rows, note)` gets the list every time a value arrives.
  // Resolves with the final rows (cached when complete).
  async explore(fen, budget, update = () => {}) {
    await this.command(`position fen ${fen}`);
    const legal = (await this.command("moves")).lines
      .filter((l) => l.startsWith("move "))
      .map((l) => ({ uci: l.split(" ")[1], san: l.split(" ")[3], value: null, source: null }));
    const side = sideOf(fen);
    let rows = legal;
    if (legal.length === 0) {
      update(rows, "No legal moves: the game is over.");
      return rows;
    }
    if (budget === 0) {
      update(rows, "");
      return rows;
    }
    update(rows, "Proving\u2026");
    this.running = fen;
    let reply;
    try {
      reply = await this.command(`explore movetime ${budget}`, (line) => {
        const found = parseExplored(line);
        if (found) {
          rows = bestFirst(rows.map((r) => (r.uci === found.uci ? found : r)), side);
          update(rows, this.progress(rows));
        } else {
          // `... string after d2d4 (white to move): win proven, distance 9
          // so far`: the win or loss is the side's to move there.
          const m = /string after (\S+) \((white|black) to move\): (.+)$/.exec(line);
          if (m) {
            const phase = m[3].replace(/^(win|loss)\b/, (w) => `${w === "win" ? m[2] : other(m[2])} wins`);
            update(rows, `Proving ${rows.find((r) => r.uci === m[1])?.san ?? m[1]}: ${phase}\u2026`);
          }
        }
      });
    } finally {
      this.running = null;
    }
    const complete = !reply.final.endsWith(" stopped");
    if (complete) this.cache.set(fen, rows);
    update(rows, complete ? this.summary(rows) : "Stopped.");
    return rows;
  }

  progress(rows) {
    const done = rows.filter((r) => r.value !== null).length;
    return `Proved ${done} of ${rows.length} moves\u2026`;
  }

  summary(rows) {
    const unknown = rows.filter((r) => r.value === "unknown").length;
    const n = rows.length;
    return `${n} move${n === 1 ? "" : "s"}${unknown ? `, ${unknown} not proven in ${BUDGET / 1000} s each` : ", all proven"}.`;
  }

  render(note) {
    this.status.textContent = note ?? "";
    const side = this.fen ? sideOf(this.fen) : "white";
    this.list.replaceChildren(
      ...this.rows.map((row) => {
        const li = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.uci = row.uci;
        const r = resultFor(row.value, side);
        button.dataset.result = row.value === null ? "pending" : r.result;
        // The protocol's words, for scripts and tests.
        button.dataset.value = row.value ?? "";
        button.dataset.source = row.source ?? "";
        const san = document.createElement("span");
        san.className = "san";
        san.textContent = row.san;
        const value = document.createElement("span");
        value.className = "value";
        value.textContent = valueWords(row.value, side);
        const source = document.createElement("span");
        source.className = "source";
        source.textContent = row.source && row.source !== "none" ? row.source : "";
        button.append(san, value, source);
        button.title = `${row.san}: ${valueWords(row.value, side)}${row.source ? ` (${row.source})` : ""}`;
        button.addEventListener("click", () => this.onPick(row.uci));
        li.append(button);
        return li;
      }),
    );
  }
}

// A move's value for people, from its mover's side: `Win in 29 (white
// wins)`, `Draw`, `Loss in 32`, `Unknown`, or `…` while it is proven.
export function valueWords(value, mover) {
  if (value === null) return "\u2026";
  const r = resultFor(value, mover);
  if (r.result === "unknown") return "Unknown";
  if (r.result === "draw") return "Draw";
  const winner = r.result === "win" ? mover : other(mover);
  const within = r.plies === null ? "" : ` in ${r.plies}`;
  return `${capitalized(r.result)}${within} (${winner} wins)`;
}
