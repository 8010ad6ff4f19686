// Reading PGN as `pawnrace match --pgn` and `pawnrace analyse --pgn-out`
// write it: tag pairs, then movetext with move numbers, `{comments}`, `;`
// comments, `(variations)`, `$n` glyphs and `!?` marks, all skipped, and a
// result token that ends the game. The moves are kept as written: the
// server reads them (SAN or coordinates) and says what they are. Tags read:
// White, Black, Gaps, FEN, Variant, Result.

const RESULTS = new Set(["1-0", "0-1", "1/2-1/2", "*"]);

// Every game in `text`, each {tags, moves, result}. A game with no moves
// and no tags is not a game.
export function parsePgn(text) {
  const games = [];
  let game = newGame();
  let inMoves = false;
  const finish = (result) => {
    game.result = result;
    if (game.moves.length > 0 || Object.keys(game.tags).length > 0) games.push(game);
    game = newGame();
    inMoves = false;
  };
  const body = stripComments(text);
  const tokens = body.match(/\[[^\]]*\]|[^\s[\]]+/g) ?? [];
  for (const token of tokens) {
    if (token.startsWith("[")) {
      // A tag after moves starts the next game (its result was missing).
      if (inMoves) finish("*");
      const tag = /^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$/.exec(token);
      if (tag) game.tags[tag[1]] = tag[2].replace(/\\(.)/g, "$1");
    } else if (RESULTS.has(token)) {
      finish(token);
    } else {
      const move = token.replace(/^\d+\.+/, "").replace(/[!?]+$/, "");
      if (move !== "" && !/^\$\d+$/.test(move) && !/^\d+\.*$/.test(move)) {
        game.moves.push(move);
        inMoves = true;
      }
    }
  }
  if (inMoves || Object.keys(game.tags).length > 0) finish("*");
  return games;
}

function newGame() {
  return { tags: {}, moves: [], result: "*" };
}

// Removes `{...}` and `;...` comments and `(...)` variations (nested).
function stripComments(text) {
  let out = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      const end = text.indexOf("}", i);
      i = end < 0 ? text.length : end;
      out += " ";
    } else if (c === ";" && depth === 0) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
      out += "\n";
    } else if (c === "(") {
      depth++;
    } else if (c === ")") {
      depth = Math.max(0, depth - 1);
    } else if (depth === 0) {
      out += c;
    }
  }
  return out;
}

// A line to name a game in a list: `1. alice - bob, AH, 1-0`.
export function gameTitle(game, index) {
  const t = game.tags;
  const players = `${t.White ?? "white"} \u2013 ${t.Black ?? "black"}`;
  const start = t.Gaps ? `gaps ${t.Gaps}` : t.FEN ? "set-up position" : "no start";
  return `${index + 1}. ${players}, ${start}, ${game.result} (${game.moves.length} plies)`;
}

// A game as PGN: `tags` ([name, value] pairs, in order), then the
// movetext from `sans` (`offset` 1 when black moved first), each move
// followed by its `marks[i]` (`??`) and `{comments[i]}` where given, and
// the result; lines wrapped at 80 columns as the PGN standard asks.
export function writePgn({ tags, sans, offset = 0, result = "*", marks = [], comments = [] }) {
  const escape = (v) => String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  const head = tags.map(([name, value]) => `[${name} "${escape(value)}"]`);
  const tokens = [];
  sans.forEach((san, i) => {
    const p = offset + i;
    if (p % 2 === 0) tokens.push(`${p / 2 + 1}.`);
    else if (i === 0 || comments[i - 1]) tokens.push(`${(p - 1) / 2 + 1}...`);
    tokens.push(`${san}${marks[i] ?? ""}`);
    if (comments[i]) tokens.push(`{${comments[i].replace(/[{}]/g, "")}}`);
  });
  tokens.push(result);
  const lines = [];
  let line = "";
  for (const token of tokens.join(" ").split(" ")) {
    if (line && line.length + 1 + token.length > 80) {
      lines.push(line);
      line = token;
    } else {
      line = line ? `${line} ${token}` : token;
    }
  }
  if (line) lines.push(line);
  return `${head.join("\n")}\n\n${lines.join("\n")}\n`;
}

// The Seven Tag Roster's date: today, `2026.11.26`.
export function pgnDate(now = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}.${pad(now.getMonth() + 1)}.${pad(now.getDate())}`;
}

// Offers `text` as a file named `name` (a download), and remembers it for
// the page's tests (`pawnrace.downloads`).
export function download(name, text) {
  const blob = new Blob([text], { type: "application/x-chess-pgn" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  (window.pawnrace ??= {}).downloads ??= [];
  window.pawnrace.downloads.push({ name, text });
}
