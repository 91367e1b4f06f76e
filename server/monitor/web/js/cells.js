// How each kind of thing looks: the map and the legend draw with these, so
// the legend shows exactly what the map shows. Every function draws in a
// context whose unit is the pixel, at cell (x, y) of size s.

import { colours, teamStyle, blockColour, drawShape } from './colours.js';

export function drawDispenser(ctx, x, y, s, typeIndex, type) {
  ctx.fillStyle = blockColour(typeIndex);
  ctx.fillRect(x * s + s * 0.08, y * s + s * 0.08, s * 0.84, s * 0.84);
  ctx.strokeStyle = '#222';
  ctx.lineWidth = Math.max(1, s * 0.12);
  ctx.strokeRect(x * s + s * 0.14, y * s + s * 0.14, s * 0.72, s * 0.72);
  if (s >= 14 && type) label(ctx, s, type, x, y, '#222');
}

export function drawBlock(ctx, x, y, s, typeIndex, type) {
  ctx.fillStyle = blockColour(typeIndex);
  ctx.fillRect(x * s + s * 0.15, y * s + s * 0.15, s * 0.7, s * 0.7);
  if (s >= 6) {
    ctx.strokeStyle = 'rgba(0,0,0,0.5)';
    ctx.lineWidth = 1;
    ctx.strokeRect(x * s + s * 0.15, y * s + s * 0.15, s * 0.7, s * 0.7);
  }
  if (s >= 18 && type) label(ctx, s, type, x, y, '#222');
}

// drawAgent draws an agent of the team with colour index teamIndex; text
// (its number) appears when the cell is large enough.
export function drawAgent(ctx, x, y, s, teamIndex, deactivated, text) {
  const st = teamStyle(teamIndex);
  drawShape(ctx, st.shape, (x + 0.5) * s, (y + 0.5) * s, Math.max(s, 4));
  ctx.fillStyle = deactivated ? colours.deactivated : st.colour;
  ctx.fill();
  if (s >= 6) {
    ctx.lineWidth = deactivated ? Math.max(1.5, s * 0.1) : 1;
    ctx.strokeStyle = deactivated ? st.colour : 'rgba(0,0,0,0.6)';
    ctx.stroke();
  }
  if (s >= 22 && text) label(ctx, s, text, x, y, '#fff');
}

// inStripe runs paint clipped to stripe k of n of cell (x, y): the agents
// of several teams on one cell (a shared start cell) each get a stripe of
// it, side by side, as the map preview (package preview) draws them.
export function inStripe(ctx, x, y, s, k, n, paint) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x * s + (k * s) / n, y * s, s / n, s);
  ctx.clip();
  paint();
  ctx.restore();
}

// drawCopyVeil marks the w×h area at (x, y) as a copy of the map (the
// torus repeats around it): washed out and hatched, so that its agents do
// not read as more agents, nor as deactivated ones (grey). The hatching is
// anchored at (ax, ay): it moves with the map.
export function drawCopyVeil(ctx, x, y, w, h, ax, ay) {
  ctx.fillStyle = colours.copyWash;
  ctx.fillRect(x, y, w, h);
  let hatch = hatches.get(ctx);
  if (!hatch) {
    hatch = ctx.createPattern(hatchTile(), 'repeat');
    hatches.set(ctx, hatch);
  }
  hatch.setTransform(new DOMMatrix([1, 0, 0, 1, ax, ay]));
  ctx.fillStyle = hatch;
  ctx.fillRect(x, y, w, h);
}

const hatches = new WeakMap(); // context → its hatch pattern

// hatchTile is an 8×8 tile of a diagonal line that joins its copies.
function hatchTile() {
  const c = document.createElement('canvas');
  c.width = c.height = 8;
  const t = c.getContext('2d');
  t.strokeStyle = colours.copyHatch;
  t.lineWidth = 1.5;
  t.beginPath();
  for (const d of [-8, 0, 8]) {
    t.moveTo(d, 8);
    t.lineTo(d + 8, 0);
  }
  t.stroke();
  return c;
}

// drawSelection rings the selected agent.
export function drawSelection(ctx, x, y, s) {
  ctx.beginPath();
  ctx.arc((x + 0.5) * s, (y + 0.5) * s, Math.max(s * 0.75, 7), 0, 2 * Math.PI);
  ctx.strokeStyle = colours.selected;
  ctx.lineWidth = 2;
  ctx.stroke();
}

// drawLink joins two neighbouring cells of an attached structure.
export function drawLinks(ctx, s, pairs) {
  ctx.beginPath();
  for (const [[x0, y0], [x1, y1]] of pairs) {
    ctx.moveTo((x0 + 0.5) * s, (y0 + 0.5) * s);
    ctx.lineTo((x1 + 0.5) * s, (y1 + 0.5) * s);
  }
  ctx.strokeStyle = colours.link;
  ctx.lineWidth = Math.max(2, s * 0.22);
  ctx.lineCap = 'round';
  ctx.stroke();
}

// drawClearArea outlines (and tints) the cells a clear event will clear.
export function drawClearArea(ctx, pos, r, s) {
  diamondPath(ctx, pos, r, s);
  ctx.fillStyle = colours.clear;
  ctx.fill();
  strokeDashed(ctx, colours.clearLine, [4, 3]);
}

// drawVision outlines an agent's vision area.
export function drawVision(ctx, pos, r, s) {
  diamondPath(ctx, pos, r, s);
  strokeDashed(ctx, colours.vision, [6, 4]);
}

// drawClearMarker crosses the centre of a clear event.
export function drawClearMarker(ctx, x, y, s) {
  const cx = (x + 0.5) * s, cy = (y + 0.5) * s, r = Math.max(s * 0.4, 4);
  ctx.beginPath();
  ctx.moveTo(cx - r, cy - r);
  ctx.lineTo(cx + r, cy + r);
  ctx.moveTo(cx + r, cy - r);
  ctx.lineTo(cx - r, cy + r);
  ctx.strokeStyle = colours.clearLine;
  ctx.lineWidth = Math.max(2, s * 0.15);
  ctx.stroke();
}

// diamondPath is the staircase outline of all cells within Manhattan
// distance r of pos, as the context's current path.
export function diamondPath(ctx, pos, r, s) {
  ctx.beginPath();
  traceDiamond(ctx, pos, r, s);
}

// diamond2D is the same outline as a Path2D.
export function diamond2D(pos, r, s) {
  const p = new Path2D();
  traceDiamond(p, pos, r, s);
  return p;
}

function traceDiamond(path, pos, r, s) {
  const [x, y] = pos;
  const pts = [[x, y - r], [x + 1, y - r]];
  for (let i = 1; i <= r; i++) pts.push([x + i, y - r + i], [x + i + 1, y - r + i]);
  pts.push([x + r + 1, y + 1]);
  for (let i = 1; i <= r; i++) pts.push([x + r + 1 - i, y + i], [x + r + 1 - i, y + i + 1]);
  pts.push([x, y + r + 1]);
  for (let i = 1; i <= r; i++) pts.push([x - i + 1, y + r + 1 - i], [x - i, y + r + 1 - i]);
  pts.push([x - r, y]);
  for (let i = 1; i < r; i++) pts.push([x - r + i, y - i + 1], [x - r + i, y - i]);
  if (r > 0) pts.push([x, y - r + 1]);
  pts.forEach(([px, py], i) => (i ? path.lineTo(px * s, py * s) : path.moveTo(px * s, py * s)));
  path.closePath();
}

function strokeDashed(ctx, colour, dash) {
  ctx.setLineDash(dash);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  ctx.setLineDash([]);
}

function label(ctx, s, text, x, y, colour) {
  ctx.fillStyle = colour;
  ctx.font = `${Math.round(s * 0.38)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, (x + 0.5) * s, (y + 0.52) * s);
}
