// The legend: a strip under the map naming every kind of cell with its
// look, drawn by the map's own functions (a tooltip says what it means). It is open for a first-time visitor; whether a visitor closed
// it is remembered in the browser (localStorage).

import { colours } from './colours.js';
import { drawAgent, drawBlock, drawClearArea, drawClearMarker, drawCopyVeil, drawDispenser, drawLinks, drawSelection, drawVision, inStripe } from './cells.js';
import { el } from './widgets.js';

const KEY = 'massim-legend';
const S = 16; // swatch cell size in CSS pixels

export class Legend {
  constructor(root) {
    this.root = root; // a <details> element
    this.body = root.querySelector('.legend-body');
    this.of = '';
    root.open = localStorage.getItem(KEY) !== 'closed';
    root.addEventListener('toggle', () => localStorage.setItem(KEY, root.open ? 'open' : 'closed'));
  }

  // show lists the kinds of the simulation with teams and blockTypes
  // (rebuilt only when they change).
  show(teams, blockTypes) {
    const key = JSON.stringify([teams, blockTypes]);
    if (key === this.of) return;
    this.of = key;
    this.body.replaceChildren();
    this.row('obstacle', 'obstacle', 'nobody passes; a clear action removes it', (ctx, s) => fillCell(ctx, s, colours.obstacle));
    this.row('goal', 'goal zone', 'tasks are submitted here', (ctx, s) => fillCell(ctx, s, colours.goal, true));
    this.row('role', 'role zone', 'agents change role here', (ctx, s) => fillCell(ctx, s, colours.role, true));
    this.row('clear', 'clear event', 'everything in the dashed area is destroyed when it strikes; × marks its centre', (ctx, s) => {
      fillCell(ctx, s, colours.background);
      drawClearArea(ctx, [0, 0], 0, s);
      drawClearMarker(ctx, 0, 0, s);
    });
    blockTypes.forEach((type, i) => {
      this.row(`dispenser-${type}`, `dispenser of ${type}`, `agents request ${type} blocks here`, (ctx, s) => drawDispenser(ctx, 0, 0, s, i, ''));
    });
    blockTypes.forEach((type, i) => {
      this.row(`block-${type}`, `block ${type}`, `a block of type ${type}, free or attached`, (ctx, s) => drawBlock(ctx, 0, 0, s, i, ''));
    });
    teams.forEach((team, i) => this.row(`team-${team}`, `agent of team ${team}`, `its number is written on it when zoomed in`,
      (ctx, s) => drawAgent(ctx, 0, 0, s, i, false)));
    this.row('shared', 'several teams on one cell', 'each team gets a stripe of the cell (agents of two teams on a shared start cell)', (ctx, s) => {
      fillCell(ctx, s, colours.background);
      for (const k of [0, 1]) inStripe(ctx, 0, 0, s, k, 2, () => drawAgent(ctx, 0, 0, s, k, false));
    });
    this.row('deactivated', 'deactivated agent', 'out of energy: it cannot act until it recovers', (ctx, s) => drawAgent(ctx, 0, 0, s, 0, true));
    this.row('copy', 'copy of the map', 'the map is a torus: what leaves it at one edge comes back at the opposite one, so it repeats ' +
      'in every direction; the dark frame is the map itself, the hatched copies around it show the same things again', (ctx, s) => {
      ctx.fillStyle = colours.background;
      ctx.fillRect(0, 0, 2 * s, s);
      drawAgent(ctx, 0, 0, s, 0, false);
      drawAgent(ctx, 1, 0, s, 0, false);
      drawCopyVeil(ctx, s, 0, s, s, 0, 0);
      ctx.fillStyle = colours.frame;
      ctx.fillRect(s - 1.5, 0, 3, s);
    }, 2);
    this.row('attached', 'attached', 'a line joins things attached to each other', (ctx, s) => {
      drawLinks(ctx, s, [[[0, 0], [1, 0]]]);
      drawAgent(ctx, 0, 0, s, 0, false);
      drawBlock(ctx, 1, 0, s, 0, '');
    }, 2);
    this.row('selected', 'selected agent and its vision', 'click an agent to select it; the dashed line is what it can see', (ctx, s) => {
      drawVision(ctx, [1, 0], 1, s);
      drawAgent(ctx, 1, 0, s, 0, false);
      drawSelection(ctx, 1, 0, s);
    }, 3, 1.5, 0.25);
  }

  // row adds one kind: a swatch of w×h cells drawn by paint (the origin
  // shifted down by dy cells), its name and (as a tooltip) what it means.
  row(kind, name, meaning, paint, w = 1, h = 1, dy = 0) {
    const c = document.createElement('canvas');
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(w * S * dpr);
    c.height = Math.round(h * S * dpr);
    c.style.width = `${w * S}px`;
    c.style.height = `${h * S}px`;
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, dy * S * dpr);
    paint(ctx, S);
    const line = el('div', 'legend-row');
    line.dataset.kind = kind;
    line.title = `${name}: ${meaning}`;
    line.append(c, el('span', '', name));
    this.body.append(line);
  }
}

// fillCell paints cell (0, 0) in colour; a tint is laid over the map's
// background, as zones are on the map.
function fillCell(ctx, s, colour, tint = false) {
  if (tint) {
    ctx.fillStyle = colours.background;
    ctx.fillRect(0, 0, s, s);
  }
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, s, s);
}
