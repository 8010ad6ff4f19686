// The page: a board for pawnrace, written as a plain client of its own
// protocol (protocol.md) over the WebSocket at /ws. This file wires the
// parts to the document: play.js (a game), analysis.js (a recorded game's
// analysis), explorer.js (every move's proven value), graph.js (the value
// over a game), thinking.js (the engine's search), console.js (raw lines).

import { LineClient } from "./protocol.js";
import { BoardView } from "./board.js";
import { ThinkingView } from "./thinking.js";
import { Play, MOVETIMES, movetimeText } from "./play.js";
import { Analysis } from "./analysis.js";
import { Console } from "./console.js";
import { Explorer } from "./explorer.js";
import { drawGraph } from "./graph.js";
import { parsePgn, gameTitle, download } from "./pgn.js";
import { capitalized } from "./notation.js";

const $ = (id) => document.getElementById(id);
const FILES = "ABCDEFGH";
const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;

const client = new LineClient(url);
const board = new BoardView($("board"));
const thinking = new ThinkingView($("thinking"));
// Which tab's game the board shows: "play" or "analyse".
let tab = "play";
// The explorer's switch, per tab: off against the engine by default (it
// would be a cheat by accident), on in analysis.
const explorerOn = { play: false, analyse: true };
$("explore-on").addEventListener("change", () => (explorerOn[tab] = $("explore-on").checked));

// A move picked in the explorer: played in a game, tried in an analysis.
const explorer = new Explorer(
  url,
  $("explorer"),
  (uci) => (tab === "analyse" ? analysis.tryMove(uci) : play.pick(uci)),
  (fen, rows) => analysis.legalMoves(fen, rows),
);

// Moves as a score sheet, one <li> per move number. With `onClick` each
// ply is a button that shows that position.
function renderMoves(list, moves, offset, { verdicts = [], titles = [], current = moves.length, onClick = null } = {}) {
  list.replaceChildren();
  let li = null;
  moves.forEach((move, i) => {
    const p = offset + i;
    if (p % 2 === 0 || li === null) {
      li = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = p % 2 === 0 ? `${p / 2 + 1}.` : `${(p - 1) / 2 + 1}...`;
      li.append(num);
      list.append(li);
    }
    const ply = document.createElement(onClick ? "button" : "span");
    ply.className = "ply";
    ply.textContent = move.san;
    ply.dataset.ply = String(i + 1);
    const verdict = verdicts[i + 1];
    if (verdict) ply.dataset.verdict = verdict;
    if (titles[i + 1]) ply.title = titles[i + 1];
    if (i + 1 === current) {
      ply.classList.add("current");
      ply.setAttribute("aria-current", "step");
    }
    if (onClick) {
      ply.type = "button";
      ply.addEventListener("click", () => onClick(i + 1));
    }
    li.append(ply);
  });
  list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

// The banner a game's end shows until it is closed or the game changes.
let bannerShown = "";
const play = new Play(client, board, thinking, {
  root: document.body,
  message: (text) => ($("message").textContent = text),
  // `over`: the game's end as `board` says it ({result, reason, sentence});
  // `outcome`: the person's ("won", "lost", "draw", "watched").
  banner(over, token, outcome) {
    const banner = $("banner");
    const key = over ? `${play.generation} ${over.sentence}` : "";
    if (key !== bannerShown) banner.dataset.closed = "";
    bannerShown = key;
    banner.hidden = !over || banner.dataset.closed === "yes";
    banner.dataset.result = over?.result ?? "";
    banner.dataset.outcome = outcome ?? "";
    if (!over) return banner.replaceChildren();
    const result = document.createElement("span");
    result.className = "token";
    result.textContent = `(${token})`;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "\u00d7";
    close.title = "Close, to see the board";
    close.setAttribute("aria-label", "close");
    close.addEventListener("click", () => {
      banner.dataset.closed = "yes";
      banner.hidden = true;
    });
    const said = { won: "You won. ", lost: "You lost. ", draw: "", watched: "" }[outcome] ?? "";
    // The way to what the game's proofs say: where it was lost, and what
    // would have held.
    const why = document.createElement("button");
    why.type = "button";
    why.className = "why";
    why.textContent = outcome === "lost" ? "See which move lost it" : "Analyse the game";
    why.addEventListener("click", () => analyseThisGame());
    banner.replaceChildren(`${said}${capitalized(over.sentence)} `, result, close, document.createElement("br"), why);
  },
  moveList: (moves, offset, current, onClick) => renderMoves($("moves"), moves, offset, { current, onClick }),
  shown(fen) {
    if (tab === "play") explorer.show(fen);
  },
  gapsChosen(gaps) {
    if (!gaps) return;
    const form = $("setup").elements;
    form["gap-white"].value = gaps[0];
    form["gap-black"].value = gaps[1];
  },
  info: (text) => ($("game-info").textContent = text),
  legalMoves(legal) {
    $("legal-moves").replaceChildren(...legal.map((m) => new Option(m.san, m.san)));
    $("move-input").disabled = legal.length === 0;
    $("move-submit").disabled = legal.length === 0;
  },
  controls({ stop, undo, pause, paused, reviewing, connected }) {
    $("stop").disabled = !stop;
    $("undo").disabled = !undo;
    $("pause").hidden = !pause;
    $("pause").textContent = paused ? "Resume" : "Pause";
    $("new-game").disabled = !connected;
    if (tab === "play") $("back-to-game").hidden = !reviewing;
    if (!connected) {
      $("move-input").disabled = true;
      $("move-submit").disabled = true;
    }
  },
});
play.scratch = explorer;

const analysis = new Analysis(url, board, explorer, {
  progress: (text) => ($("analysis-progress").textContent = text),
  running(running) {
    $("stop-analysis").disabled = !running;
    document.body.dataset.analysing = running ? "yes" : "";
  },
  moveList: (moves, offset, verdicts, titles, ply, onClick) =>
    renderMoves($("analysis-moves"), moves, offset, { verdicts, titles, current: ply, onClick }),
  summary(summaries) {
    const table = $("analysis-summary");
    table.replaceChildren();
    if (summaries.length === 0) return;
    const columns = ["moves", "kept", "forced", "spoiled", "chances", "unknown", "first-spoil"];
    const row = (cells, tag) => {
      const tr = table.insertRow();
      for (const text of cells) {
        const cell = document.createElement(tag);
        cell.textContent = text;
        tr.append(cell);
      }
    };
    row(["", ...columns.map((c) => (c === "first-spoil" ? "first spoil (ply)" : c))], "th");
    for (const s of summaries) row([s.side, ...columns.map((c) => s[c] ?? "")], "td");
  },
  detail: (text) => ($("ply-detail").textContent = text),
  // At a spoiled move: what would have kept the result.
  alternatives(keep) {
    const box = $("alternatives");
    box.hidden = !keep;
    if (!keep) return box.replaceChildren();
    const head = document.createElement("p");
    head.textContent = keep.moves.length
      ? `Instead of ${keep.label}, these kept the result:`
      : `Instead of ${keep.label}: ${keep.note}`;
    const moves = keep.moves.map((m) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "kept-move";
      b.dataset.uci = m.uci;
      b.textContent = `${m.san}: ${m.words}`;
      b.title = "Show the position before the spoiled move";
      b.addEventListener("click", () => keep.show());
      return b;
    });
    box.replaceChildren(head, ...moves);
  },
  sideLine(line) {
    const box = $("side-line");
    box.hidden = !line;
    if (tab === "analyse") $("back-to-game").hidden = !line;
    if (!line) return box.replaceChildren();
    const head = document.createElement("span");
    head.textContent = `Side line from ${line.from}: `;
    const moves = line.moves.map((m) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m.text;
      if (m.at === line.at) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => line.pick(m.at));
      return b;
    });
    box.replaceChildren(head, ...moves);
  },
  graph: (values, verdicts, current, onPick) => drawGraph($("value-graph"), values, verdicts, current, onPick),
});

new Console(client, $("console"), () => play.refresh());

// Connection state, shown in the header; without it nothing can be played.
client.listen((dir) => {
  if (dir === "open") $("connection").textContent = "connected";
  if (dir === "closed") {
    $("connection").textContent = "disconnected: reload the page for a new session";
    play.disconnected();
  }
});

// The gaps: one row of files per side, radio buttons (arrow keys move
// along a row).
for (const row of document.querySelectorAll(".files")) {
  const side = row.dataset.side;
  const name = document.createElement("span");
  name.className = "side";
  name.textContent = side === "white" ? "White" : "Black";
  row.append(name);
  for (const file of FILES) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = `gap-${side}`;
    input.value = file;
    input.checked = file === (side === "white" ? "A" : "H");
    input.setAttribute("aria-label", `${side}'s gap: ${file.toLowerCase()} file`);
    const span = document.createElement("span");
    span.className = "file";
    span.textContent = file.toLowerCase();
    label.append(input, span);
    row.append(label);
  }
}

function settings() {
  const form = $("setup");
  const seat = form.elements.seat.value;
  const engineIsBlack = seat === "white" || seat === "none";
  const engineGaps = engineIsBlack && $("engine-gaps").checked;
  return {
    seat,
    gaps: engineGaps ? null : form.elements["gap-white"].value + form.elements["gap-black"].value,
    fen: $("start-fen").value.trim(),
    movetime: MOVETIMES[Number($("movetime").value)],
  };
}

// Only black chooses the gaps: the engine may, when it plays black.
function updateSetup() {
  const seat = $("setup").elements.seat.value;
  const engineIsBlack = seat === "white" || seat === "none";
  $("engine-gaps").disabled = !engineIsBlack;
  const byEngine = engineIsBlack && $("engine-gaps").checked;
  for (const input of document.querySelectorAll(".files input")) input.disabled = byEngine;
  $("movetime-out").textContent = movetimeText(MOVETIMES[Number($("movetime").value)]);
  play.movetime = MOVETIMES[Number($("movetime").value)];
  play.render();
}
$("setup").addEventListener("change", updateSetup);
$("setup").addEventListener("input", updateSetup);
$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  const chosen = settings();
  // On when watching or playing both sides, off against the engine.
  explorerOn.play = chosen.seat === "both" || chosen.seat === "none";
  if (tab === "play") explorer.enabled = explorerOn.play;
  play.newGame(chosen);
});
$("pause").addEventListener("click", () => play.togglePause());

$("flip").addEventListener("click", () => board.flip());
$("back-to-game").addEventListener("click", () => (tab === "analyse" ? analysis.backToGame() : play.backToGame()));
$("copy-pgn").addEventListener("click", () => copy(play.pgn()));
$("download-pgn").addEventListener("click", () => download("pawnrace-game.pgn", play.pgn()));
$("copy-analysis").addEventListener("click", () => copy(analysis.pgn()));
$("download-analysis").addEventListener("click", () => download("pawnrace-analysis.pgn", analysis.pgn()));

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    $("message").textContent = "PGN copied.";
  } catch {
    $("message").textContent = "The browser did not allow copying: use Download PGN.";
  }
}
$("undo").addEventListener("click", () => play.undo());
$("stop").addEventListener("click", () => play.stopSearch());
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text) return;
  $("move-input").value = "";
  play.run(() => play.move(text));
});

// Tabs: the board shows the game of the tab in view.
function showTab(name) {
  tab = name;
  const analysing = name === "analyse";
  $("tab-play").setAttribute("aria-selected", String(!analysing));
  $("tab-analyse").setAttribute("aria-selected", String(analysing));
  $("panel-play").hidden = analysing;
  $("panel-analyse").hidden = !analysing;
  document.body.dataset.tab = name;
  play.active = !analysing;
  analysis.active = analysing;
  board.lock();
  $("back-to-game").hidden = true;
  explorer.listMoves = analysing;
  explorer.enabled = explorerOn[name];
  if (analysing) analysis.showFreeBoard();
  else {
    play.render();
    play.show();
  }
}
$("tab-play").addEventListener("click", () => showTab("play"));
$("tab-analyse").addEventListener("click", () => showTab("analyse"));

// Analysis: a PGN pasted or uploaded; a list to pick one of several games.
let games = [];
let read = null;
function readPgn() {
  if ($("pgn").value === read) return;
  read = $("pgn").value;
  games = parsePgn(read);
  const select = $("pgn-games");
  select.replaceChildren(...games.map((g, i) => new Option(gameTitle(g, i), String(i))));
  select.hidden = games.length < 2;
}
$("pgn").addEventListener("input", readPgn);
$("pgn-file").addEventListener("change", async () => {
  const file = $("pgn-file").files[0];
  if (!file) return;
  $("pgn").value = await file.text();
  readPgn();
});
function startAnalysis() {
  readPgn();
  const game = games[Number($("pgn-games").value) || 0];
  if (!game) {
    $("analysis-progress").textContent = "No game found: paste a PGN or choose a file first.";
    return;
  }
  analysis.analyse(game, Math.max(10, Number($("budget").value) || 1000));
}
$("analyse").addEventListener("click", startAnalysis);
$("stop-analysis").addEventListener("click", () => analysis.stop());
$("first").addEventListener("click", () => analysis.go(0));
$("prev").addEventListener("click", () => analysis.step(-1));
$("next").addEventListener("click", () => analysis.step(1));
$("last").addEventListener("click", () => analysis.go(Infinity));
// The game just played, analysed; a person who played one side is shown
// their first spoiled move.
function analyseThisGame() {
  $("pgn").value = play.pgn();
  showTab("analyse");
  readPgn();
  const humans = ["white", "black"].filter((side) => play.seats[side] === "human");
  const game = games[0];
  if (!game) return;
  analysis.analyse(game, Math.max(10, Number($("budget").value) || 1000), humans.length === 1 ? humans[0] : null);
}
$("analyse-this").addEventListener("click", analyseThisGame);

// Keys, when no text field has them.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, textarea, select")) return;
  const analysing = document.body.dataset.tab === "analyse";
  const keys = {
    f: () => board.flip(),
    n: () => !analysing && $("setup").requestSubmit(),
    s: () => (analysing ? analysis.stop() : play.stopSearch()),
    u: () => !analysing && play.undo(),
    "/": () => !analysing && $("move-input").focus(),
    ArrowLeft: () => (analysing ? analysis.step(-1) : play.step(-1)),
    ArrowRight: () => (analysing ? analysis.step(1) : play.step(1)),
    Home: () => (analysing ? analysis.go(0) : play.review(0)),
    End: () => (analysing ? analysis.go(Infinity) : play.backToGame()),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

// For tests and the curious: the page's sessions and their traffic.
window.pawnrace = { client, play, analysis, board, explorer, downloads: [] };

updateSetup();
showTab("play");
client.connect().then(
  () => play.newGame(settings()),
  (e) => {
    $("connection").textContent = e.message;
    play.disconnected();
  },
);
