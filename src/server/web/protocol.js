// The page's one client of pawnrace's line protocol (protocol.md) over the
// WebSocket at /ws: one session per page. Nothing here knows about boards;
// it only pairs commands with their replies, the way any GUI has to.
//
// The pairing rests on protocol.md, "Replies": every command gets exactly
// one final line, its other lines come before it, and the server handles
// lines in the order sent, with three exceptions it documents: `isready`
// and `ponderhit` are answered at once even during a search, and `stop` is
// answered right after the search's own lines, ahead of lines still waiting.
// In UCI mode some commands get no reply at all.

import { FINAL_WORDS, OWN, SILENT_IN_UCI } from "./vocabulary.js";

// The server's own lists, served as a module it writes from them
// (vocabulary.js): one source, so the page cannot pair a reply with the
// wrong command over a word the two spell differently.
const FINAL = new RegExp(`^(${FINAL_WORDS.join("|")})( |$)`);

// Commands answered out of turn, and the final line that answers each.
const OUT_OF_TURN = { isready: "readyok", ponderhit: "ok ponderhit", stop: "ok stop" };

// The traffic kept for the console and for tests; old lines fall off.
const KEEP_TRAFFIC = 100000;

export function isFinal(line) {
  return FINAL.test(line);
}

export class LineClient {
  constructor(url) {
    this.url = url;
    this.socket = null;
    this.pending = [];
    this.uci = false;
    // Every line each way, in order: {dir: ">" | "<", line}.
    this.traffic = [];
    this.listeners = new Set();
  }

  // Calls `fn(dir, line)` for every line sent (">") or received ("<"),
  // and `fn("open" | "closed", "")` as the socket opens and closes.
  listen(fn) {
    this.listeners.add(fn);
  }

  emit(dir, line) {
    if (dir === ">" || dir === "<") {
      this.traffic.push({ dir, line });
      if (this.traffic.length > KEEP_TRAFFIC) this.traffic.splice(0, KEEP_TRAFFIC / 10);
    }
    for (const fn of this.listeners) fn(dir, line);
  }

  get connected() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      socket.onopen = () => {
        this.socket = socket;
        this.uci = false;
        this.emit("open", "");
        resolve();
      };
      socket.onerror = () => reject(new Error(`cannot reach ${this.url}`));
      socket.onclose = () => {
        this.socket = null;
        const lost = this.pending.splice(0);
        for (const entry of lost) entry.reject(new Error("disconnected"));
        this.emit("closed", "");
      };
      socket.onmessage = (event) => {
        for (const line of String(event.data).split("\n")) this.receive(line);
      };
    });
  }

  // Sends one command; resolves with {lines, final} once its final line
  // comes (`lines` are the lines before it), calling `onLine` on each of
  // them as it arrives (a search's `info` lines, for instance).
  send(line, onLine = () => {}) {
    if (!this.connected) return Promise.reject(new Error("not connected"));
    // The server reads a message as lines: a line break would make this two
    // commands, and the second one's final line would answer the next.
    if (line.includes("\n")) return Promise.reject(new Error("a command is one line"));
    const verb = line.trim().split(/\s+/)[0].toLowerCase();
    if (OWN.has(verb)) this.uci = false;
    const silent = verb === "" || (this.uci && SILENT_IN_UCI.has(verb));
    this.socket.send(line);
    this.emit(">", line);
    if (verb === "uci") this.uci = true;
    if (silent) return Promise.resolve({ lines: [], final: null });
    return new Promise((resolve, reject) => {
      this.pending.push({ verb, lines: [], onLine, resolve, reject });
    });
  }

  receive(line) {
    this.emit("<", line);
    if (isFinal(line)) {
      const index = this.answering(line);
      if (index < 0) return;
      const [entry] = this.pending.splice(index, 1);
      entry.resolve({ lines: entry.lines, final: line });
      return;
    }
    const entry = this.pending.find((e) => !(e.verb in OUT_OF_TURN)) ?? this.pending[0];
    if (entry) {
      entry.lines.push(line);
      entry.onLine(line);
    }
  }

  // Which pending command `final` answers: an out-of-turn command's own
  // reply goes to it, anything else to the oldest command in turn.
  answering(final) {
    const jumper = this.pending.findIndex((e) => OUT_OF_TURN[e.verb] === final);
    if (jumper >= 0) return jumper;
    const inTurn = this.pending.findIndex((e) => !(e.verb in OUT_OF_TURN));
    return inTurn >= 0 ? inTurn : this.pending.length > 0 ? 0 : -1;
  }

  get idle() {
    return this.pending.length === 0;
  }
}
