// Reading the protocol's reply lines into plain objects, and writing moves
// and values for people. Only pawns move in Pawn Race, so a move's SAN
// follows from its coordinates alone: `e2e4` is `e4`, `e4d5` is `exd5`,
// `a7a8q` is `a8` (the pawn wins there; the protocol writes it so too).
// That is how the engine's pv, which the protocol gives in coordinates,
// is shown in SAN without asking the server.

export function sanOf(uci) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  return from[0] === to[0] ? to : `${from[0]}x${to}`;
}

export function other(side) {
  return side === "white" ? "black" : "white";
}

export function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The side to move in position text (`... w -`): white unless it says `b`.
export function sideOf(fen) {
  return fen.trim().split(/\s+/)[1] === "b" ? "black" : "white";
}

// SAN moves as a score sheet writes them: `12. e4 d5 13. exd5`, or
// `12... d5 13. exd5` when black moves first. `ply` counts the plies
// before the first move from the start of a game white began.
export function numbered(sans, ply) {
  const out = [];
  sans.forEach((san, i) => {
    const p = ply + i;
    if (p % 2 === 0) out.push(`${p / 2 + 1}.`);
    else if (i === 0) out.push(`${(p - 1) / 2 + 1}...`);
    out.push(san);
  });
  return out.join(" ");
}

// `ok move e2e4 san e4 result white-wins promotion e8` (or `ok undo ...`).
export function parseMoveReply(line) {
  const words = line.split(" ");
  const result = words.indexOf("result");
  return {
    uci: words[2],
    san: words[4],
    result: result > 0 ? words.slice(result + 1).join(" ") : null,
  };
}

// The lines of a `board` reply, before `ok board`.
export function parseBoard(lines) {
  const board = { fen: "", gaps: null, variant: "", side: "white", history: [], status: null };
  for (const line of lines) {
    const [key, ...rest] = line.split(" ");
    const value = rest.join(" ");
    if (key === "fen") board.fen = value;
    else if (key === "side") board.side = value;
    else if (key === "variant") {
      board.variant = rest[0];
      board.gaps = rest[1] === "gaps" ? rest[2] : null;
    } else if (key === "history") {
      board.history = rest.filter((w) => w !== "-" && !/^\d+\.(\.\.)?$/.test(w));
    } else if (key === "status" && value !== "playing") {
      // `white-wins promotion e8 (white wins by promotion on e8)`
      const open = value.indexOf("(");
      const words = value.slice(0, open).trim().split(" ");
      board.status = {
        result: words[0],
        reason: words.slice(1).join(" "),
        sentence: value.slice(open + 1, value.lastIndexOf(")")),
      };
    }
  }
  return board;
}

// The legal moves of a `moves` reply: `move e2e4 san e4` lines.
export function parseMoves(lines) {
  return lines
    .filter((l) => l.startsWith("move "))
    .map((l) => {
      const words = l.split(" ");
      return { uci: words[1], san: words[3] };
    });
}

const INFO_NUMBERS = ["depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull"];

// `info depth 6 seldepth 9 score cp 35 nodes ... pv e2e4 d7d5`, or
// `info string proven win in 29 plies`.
export function parseInfo(line) {
  const words = line.split(" ").slice(1);
  const info = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (INFO_NUMBERS.includes(word)) {
      info[word] = Number(words[++i]);
    } else if (word === "score") {
      info.score = { kind: words[i + 1], value: Number(words[i + 2]) };
      i += 2;
    } else if (word === "pv") {
      info.pv = words.slice(i + 1);
      break;
    } else if (word === "string") {
      info.string = words.slice(i + 1).join(" ");
      break;
    }
  }
  return info;
}

// What an `info string proven ...` line says, for people: the protocol's
// win and loss are the side to move's (`mover`).
export function provenText(text, mover) {
  const m = /^proven (win|loss|draw)(?: in (\d+) plies)?/.exec(text);
  if (!m) return null;
  if (m[1] === "draw") return "Draw";
  const winner = m[1] === "win" ? mover : other(mover);
  return capitalized(m[2] ? `${winner} wins in ${m[2]}` : `${winner} wins`);
}

// A search's score, for people, from white's side: `+0.35` in pawns, or
// the win a `score mate N` (moves of the side to move) means, in plies.
export function scoreText(score, mover) {
  if (!score) return "";
  if (score.kind === "mate") {
    const winner = score.value > 0 ? mover : other(mover);
    const plies = score.value > 0 ? 2 * score.value - 1 : -2 * score.value;
    return capitalized(`${winner} wins in ${plies}`);
  }
  const cp = mover === "white" ? score.value : -score.value;
  return `${cp >= 0 ? "+" : "\u2212"}${(Math.abs(cp) / 100).toFixed(2)}`;
}

// `analysis ply 1 move h2h3 san h3 before white wins in 9 after black wins
// in 9 verdict spoiled`.
export function parseAnalysis(line) {
  const m = /^analysis ply (\d+) move (\S+) san (\S+) before (.+) after (.+) verdict (\S+)$/.exec(line);
  if (!m) return null;
  return { ply: Number(m[1]), uci: m[2], san: m[3], before: m[4], after: m[5], verdict: m[6] };
}

// `analysis summary white moves 2 kept 0 forced 0 spoiled 1 chances 1
// unknown 0 first-spoil 1`.
export function parseSummary(line) {
  const words = line.split(" ");
  if (words[0] !== "analysis" || words[1] !== "summary") return null;
  const summary = { side: words[2] };
  for (let i = 3; i + 1 < words.length; i += 2) summary[words[i]] = words[i + 1];
  return summary;
}
