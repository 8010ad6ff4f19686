// The proven value over a game, as a graph: white's wins in the upper
// band, black's in the lower, draws on the middle line, the nearer a win
// the further from the middle. Unknown positions leave a gap. Each ply is
// a column to click; the current one and the spoiled moves are marked.

import { resultFor } from "./explorer.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 120;
// Distances beyond this many plies are drawn at the band's inner edge.
const FAR = 60;

function element(name, attributes) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
  return e;
}

// The height of `value` (for the side to move there: the values are
// absolute, `white wins in N`), or null when not known: 0 at the top.
function heightOf(value) {
  const r = resultFor(value, "white");
  if (r.result === "unknown") return null;
  if (r.result === "draw") return HEIGHT / 2;
  // A win whose distance is not proven is drawn as a far one.
  const near = 1 - Math.min(r.plies ?? FAR, FAR) / FAR;
  const offset = HEIGHT * (0.08 + 0.34 * near);
  return r.result === "win" ? HEIGHT / 2 - offset : HEIGHT / 2 + offset;
}

// Draws `values` (one per position: the start, then after each move) into
// `svg`; `verdicts[ply]` marks spoiled moves, `current` the ply shown.
export function drawGraph(svg, values, verdicts, current, onPick) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const n = values.length;
  if (n === 0) return;
  const step = WIDTH / Math.max(1, n);
  const x = (ply) => step * (ply + 0.5);
  svg.append(
    element("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: "band-white" }),
    element("rect", { x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2, class: "band-black" }),
    element("line", { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "draw-line" }),
  );
  let path = "";
  let pen = false;
  values.forEach((value, ply) => {
    const y = heightOf(value);
    if (y === null) {
      pen = false;
      return;
    }
    path += `${pen ? "L" : "M"}${x(ply).toFixed(1)} ${y.toFixed(1)} `;
    pen = true;
  });
  if (path) svg.append(element("path", { d: path, class: "value-line" }));
  values.forEach((value, ply) => {
    const y = heightOf(value);
    if (y !== null && verdicts[ply] === "spoiled") {
      svg.append(element("circle", { cx: x(ply), cy: y, r: 4, class: "spoil-dot" }));
    }
  });
  svg.append(element("line", { x1: x(current), y1: 0, x2: x(current), y2: HEIGHT, class: "current-line" }));
  for (let ply = 0; ply < n; ply++) {
    const column = element("rect", { x: step * ply, y: 0, width: step, height: HEIGHT, class: "column" });
    column.dataset.ply = String(ply);
    const title = element("title", {});
    title.textContent = `${ply === 0 ? "start" : `ply ${ply}`}: ${values[ply] ?? "not proven yet"}`;
    column.append(title);
    column.addEventListener("click", () => onPick(ply));
    svg.append(column);
  }
}
