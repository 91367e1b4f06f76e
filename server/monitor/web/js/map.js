// MapView draws the torus on a canvas: the map repeats in every direction,
// so panning never runs off an edge. Terrain and zones are a one-pixel-per-
// cell image scaled up; things are drawn as vectors on top. Pan with a drag,
// zoom with the wheel or a pinch, click an agent to select it.

import { colours, rgba } from './colours.js';
import { diamond2D, drawAgent, drawBlock, drawClearArea, drawClearMarker, drawCopyVeil, drawDispenser, drawLinks, drawSelection, drawVision, inStripe } from './cells.js';

const minScale = 1;
const maxScale = 64;
const maxCopies = 64; // torus copies drawn at most (zoomed far out)

export class MapView {
  constructor(canvas, { onSelect, onHover, onUserMove }) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.onSelect = onSelect;
    this.onHover = onHover;
    this.onUserMove = onUserMove;
    this.scale = 10;
    this.ox = 0;
    this.oy = 0;
    this.static = null;
    this.teamIndex = new Map();
    this.blockIndex = new Map();
    this.terrain = document.createElement('canvas');
    this.terrainOf = null; // the lists the terrain image shows
    this.drawn = null; // what the canvas shows: draw's inputs
    this.snap = null;
    this.selected = null;
    this.stats = { step: null, agents: 0, blocks: 0, copies: 0 };
    this.pointers = new Map();
    this.userMoved = false; // panned or zoomed since the last fit
    this.lastSize = null;
    // The canvas's size as the last layout left it: a draw asking the
    // browser instead would make it lay the page out again in the middle
    // of the frame, after the title and the timeline changed.
    this.box = null;
    new ResizeObserver(([e]) => {
      const b = e.borderBoxSize?.[0];
      this.box = b ? { w: b.inlineSize, h: b.blockSize } : null;
    }).observe(canvas);
    this.listen();
  }

  setStatic(st, teams, blockTypes) {
    this.static = st;
    this.teamIndex = new Map(teams.map((t, i) => [t, i]));
    this.blockIndex = new Map(blockTypes.map((b, i) => [b, i]));
    this.terrain.width = st.grid.width;
    this.terrain.height = st.grid.height;
    this.terrainOf = null;
    this.drawn = null;
    this.fit();
  }

  size() {
    if (this.box?.w && this.box.h) return this.box; // (else hidden at the last layout: it may show now)
    const r = this.canvas.getBoundingClientRect();
    return { w: r.width, h: r.height };
  }

  fit() {
    if (!this.static) return;
    this.userMoved = false;
    const { w, h } = this.size();
    const g = this.static.grid;
    this.scale = clamp(Math.min(w / (g.width + 2), h / (g.height + 2)), minScale, maxScale);
    this.ox = (w - g.width * this.scale) / 2;
    this.oy = (h - g.height * this.scale) / 2;
  }

  // centreOn moves the view so cell (x, y) is in the middle, choosing the
  // torus copy nearest to the current centre (no jump at the seams).
  centreOn(x, y) {
    const { w, h } = this.size();
    const g = this.static.grid;
    const cx = (w / 2 - this.ox) / this.scale, cy = (h / 2 - this.oy) / this.scale;
    const px = x + 0.5 + Math.round((cx - x - 0.5) / g.width) * g.width;
    const py = y + 0.5 + Math.round((cy - y - 0.5) / g.height) * g.height;
    this.ox = w / 2 - px * this.scale;
    this.oy = h / 2 - py * this.scale;
  }

  primaryX() {
    const mw = this.static.grid.width * this.scale, { w } = this.size();
    return this.ox + Math.floor((w / 2 - this.ox) / mw) * mw;
  }

  primaryY() {
    const mh = this.static.grid.height * this.scale, { h } = this.size();
    return this.oy + Math.floor((h / 2 - this.oy) / mh) * mh;
  }

  zoomAt(sx, sy, factor) {
    const s = clamp(this.scale * factor, minScale, maxScale);
    this.ox = sx - ((sx - this.ox) * s) / this.scale;
    this.oy = sy - ((sy - this.oy) * s) / this.scale;
    this.scale = s;
  }

  cellAt(sx, sy) {
    const g = this.static.grid;
    const x = Math.floor((sx - this.ox) / this.scale), y = Math.floor((sy - this.oy) / this.scale);
    return [mod(x, g.width), mod(y, g.height)];
  }

  listen() {
    const c = this.canvas;
    let moved = 0, last = null, pinch = null;
    c.addEventListener('wheel', e => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      this.zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * 0.0015));
      this.userMoved = true;
      this.onUserMove('zoom');
    }, { passive: false });
    c.addEventListener('pointerdown', e => {
      c.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      moved = 0;
      last = { x: e.clientX, y: e.clientY };
      pinch = this.pointers.size === 2 ? this.pinchState() : null;
      c.classList.add('dragging');
    });
    c.addEventListener('pointermove', e => {
      if (!this.pointers.has(e.pointerId)) {
        this.hover(e);
        return;
      }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 2 && pinch) {
        const now = this.pinchState();
        const r = c.getBoundingClientRect();
        this.ox += now.mx - pinch.mx;
        this.oy += now.my - pinch.my;
        this.zoomAt(now.mx - r.left, now.my - r.top, now.d / pinch.d);
        pinch = now;
        moved += 10;
        this.userMoved = true;
        this.onUserMove('zoom');
      } else if (this.pointers.size === 1) {
        const dx = e.clientX - last.x, dy = e.clientY - last.y;
        moved += Math.abs(dx) + Math.abs(dy);
        this.ox += dx;
        this.oy += dy;
        last = { x: e.clientX, y: e.clientY };
        if (moved >= 5) {
          this.userMoved = true;
          this.onUserMove('pan');
        }
      }
    });
    const up = e => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.delete(e.pointerId);
      if (this.pointers.size === 0) c.classList.remove('dragging');
      pinch = this.pointers.size === 2 ? this.pinchState() : null;
      if (this.pointers.size === 1) last = [...this.pointers.values()][0];
      if (e.type === 'pointerup' && moved < 5 && this.pointers.size === 0) this.click(e);
    };
    c.addEventListener('pointerup', up);
    c.addEventListener('pointercancel', up);
    c.addEventListener('pointerleave', () => this.onHover(''));
  }

  pinchState() {
    const [a, b] = [...this.pointers.values()];
    return { mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2, d: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)) };
  }

  click(e) {
    if (!this.static || !this.snap) return;
    const r = this.canvas.getBoundingClientRect();
    const [x, y] = this.cellAt(e.clientX - r.left, e.clientY - r.top);
    const here = this.snap.entities.filter(a => a.pos[0] === x && a.pos[1] === y);
    if (!here.length) return this.onSelect(null);
    // Several agents on one cell: each click selects the next.
    const i = here.findIndex(a => a.name === this.selected);
    this.onSelect(here[(i + 1) % here.length].name);
  }

  hover(e) {
    if (!this.static || !this.snap) return;
    const r = this.canvas.getBoundingClientRect();
    const [x, y] = this.cellAt(e.clientX - r.left, e.clientY - r.top);
    this.onHover(this.describeCell(x, y), e.clientX - r.left, e.clientY - r.top);
  }

  // describeCell says in words what is on cell (x, y) of the shown step.
  describeCell(x, y) {
    const snap = this.snap, g = this.static.grid;
    const at = t => t.pos[0] === x && t.pos[1] === y;
    const within = z => Math.abs(wrapDelta(x - z.pos[0], g.width)) + Math.abs(wrapDelta(y - z.pos[1], g.height)) <= z.r;
    const lines = [];
    for (const a of snap.entities.filter(at)) {
      const state = a.deactivated ? ', deactivated' : '';
      const carries = a.attached?.length ? `, ${a.attached.length} attached` : '';
      lines.push(`agent ${a.name} of team ${a.team}: ${a.role}, energy ${a.energy}${state}${carries}`);
    }
    for (const b of snap.blocks.filter(at)) lines.push(`block ${b.type}${b.attached?.length ? ' (attached)' : ''}`);
    for (const d of snap.dispensers.filter(at)) lines.push(`dispenser of ${d.type} blocks`);
    if (snap.obstacles.some(at)) lines.push('obstacle');
    if (snap.clear.some(at)) lines.push('centre of a coming clear event');
    else if (snap.clear.some(within)) lines.push('will be cleared by a coming clear event');
    if (snap.goalZones.some(within)) lines.push('goal zone');
    if (snap.roleZones.some(within)) lines.push('role zone');
    if (!lines.length) lines.push('empty');
    return `(${x}, ${y}) ${lines.join(' · ')}`;
  }

  // draw renders snap; selected is an agent name or null. It does nothing
  // when the canvas shows that already (same step, selection, view, size).
  draw(snap, selected) {
    this.snap = snap;
    this.selected = selected;
    const dpr = window.devicePixelRatio || 1;
    const { w, h } = this.size();
    this.followResize(w, h);
    const inputs = [snap, selected, this.static, this.ox, this.oy, this.scale, w, h, dpr];
    if (this.drawn && inputs.every((v, i) => v === this.drawn[i])) return;
    this.drawn = inputs;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#e6e1d6';
    ctx.fillRect(0, 0, w, h);
    if (!this.static || !snap) {
      this.stats = { step: null, agents: 0, blocks: 0, copies: 0 };
      return;
    }
    // Decoded steps share the lists that did not change: the terrain image
    // is painted again only when obstacles or zones changed.
    const of = this.terrainOf;
    if (!of || of[0] !== snap.obstacles || of[1] !== snap.goalZones || of[2] !== snap.roleZones) this.paintTerrain(snap);
    const g = this.static.grid, s = this.scale;
    const mw = g.width * s, mh = g.height * s;
    const kx0 = Math.floor(-this.ox / mw), kx1 = Math.floor((w - this.ox) / mw);
    const ky0 = Math.floor(-this.oy / mh), ky1 = Math.floor((h - this.oy) / mh);
    const copies = [];
    for (let ky = ky0; ky <= ky1; ky++) {
      for (let kx = kx0; kx <= kx1 && copies.length < maxCopies; kx++) copies.push([this.ox + kx * mw, this.oy + ky * mh]);
    }
    ctx.imageSmoothingEnabled = false;
    for (const [x, y] of copies) ctx.drawImage(this.terrain, x, y, mw, mh);
    if (s >= 10) this.gridLines(w, h);
    const links = this.links(snap); // the same in every copy
    const shared = this.sharedCells(snap);
    for (const [x, y] of copies) {
      ctx.save();
      ctx.translate(x, y);
      this.drawThings(snap, links, shared, w - x, h - y, -x, -y);
      ctx.restore();
    }
    // The torus repeats: the copies around the map itself are veiled
    // (washed out and hatched) and a frame shows where the map ends, so the
    // eye finds its own extent and does not count agents twice.
    const px = this.primaryX(), py = this.primaryY();
    for (const [x, y] of copies) if (x !== px || y !== py) drawCopyVeil(ctx, x, y, mw, mh, this.ox, this.oy);
    ctx.strokeStyle = colours.frame;
    ctx.lineWidth = 3;
    ctx.strokeRect(px, py, mw, mh);
    const pov = this.pointOfView(snap, copies, w, h);
    this.stats = { step: snap.step, agents: snap.entities.length, blocks: snap.blocks.length, copies: copies.length, pov };
  }

  // followResize keeps the view sensible when the canvas changes size: a
  // map nobody panned or zoomed is fitted again, otherwise the cell in the
  // middle stays in the middle.
  followResize(w, h) {
    const last = this.lastSize;
    this.lastSize = { w, h };
    if (!last || (last.w === w && last.h === h) || !this.static) return;
    if (!this.userMoved) {
      this.fit();
      return;
    }
    this.ox += (w - last.w) / 2;
    this.oy += (h - last.h) / 2;
  }

  // pointOfView dims everything the selected agent cannot see; it returns
  // the agent's name, or null when none is selected in this step.
  pointOfView(snap, copies, w, h) {
    const a = this.selected && snap.entities.find(e => e.name === this.selected);
    if (!a) return null;
    const path = new Path2D();
    path.rect(0, 0, w, h);
    const vision = diamond2D(a.pos, a.vision, this.scale);
    for (const [x, y] of copies) path.addPath(vision, new DOMMatrix([1, 0, 0, 1, x, y]));
    this.ctx.fillStyle = colours.dim;
    this.ctx.fill(path, 'evenodd');
    return a.name;
  }

  // paintTerrain draws obstacles and zones, one pixel per cell.
  paintTerrain(snap) {
    const g = this.static.grid;
    const ctx = this.terrain.getContext('2d');
    const img = ctx.createImageData(g.width, g.height);
    const kind = new Uint8Array(g.width * g.height); // bit 1: goal, bit 2: role
    const mark = (zones, bit) => {
      for (const z of zones) {
        for (let dy = -z.r; dy <= z.r; dy++) {
          const span = z.r - Math.abs(dy);
          for (let dx = -span; dx <= span; dx++) {
            kind[mod(z.pos[1] + dy, g.height) * g.width + mod(z.pos[0] + dx, g.width)] |= bit;
          }
        }
      }
    };
    mark(snap.goalZones, 1);
    mark(snap.roleZones, 2);
    terrainColours ??= terrainPixels();
    const [obstacle, ...tints] = terrainColours;
    const px = new Uint32Array(img.data.buffer); // a pixel a number: 10,000 cells in well under a millisecond
    for (let i = 0; i < kind.length; i++) px[i] = tints[kind[i]];
    for (const o of snap.obstacles) px[o.pos[1] * g.width + o.pos[0]] = obstacle;
    ctx.putImageData(img, 0, 0);
    this.terrainOf = [snap.obstacles, snap.goalZones, snap.roleZones];
  }

  gridLines(w, h) {
    const ctx = this.ctx, s = this.scale;
    ctx.beginPath();
    for (let x = mod(this.ox, s); x < w; x += s) {
      ctx.moveTo(Math.round(x) + 0.5, 0);
      ctx.lineTo(Math.round(x) + 0.5, h);
    }
    for (let y = mod(this.oy, s); y < h; y += s) {
      ctx.moveTo(0, Math.round(y) + 0.5);
      ctx.lineTo(w, Math.round(y) + 0.5);
    }
    ctx.strokeStyle = colours.grid;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  // drawThings draws one copy of the map; (x0, y0)-(x1, y1) is the visible
  // part in this copy's pixels, to skip what is off screen.
  drawThings(snap, links, shared, x1, y1, x0, y0) {
    const ctx = this.ctx, s = this.scale;
    const visible = (p, r = 1) => (p[0] + r + 1) * s >= x0 && (p[0] - r) * s <= x1 && (p[1] + r + 1) * s >= y0 && (p[1] - r) * s <= y1;
    const blockIndex = type => this.blockIndex.get(type) ?? 0;

    for (const c of snap.clear) {
      drawClearArea(ctx, c.pos, c.r, s);
      if (visible(c.pos)) drawClearMarker(ctx, c.pos[0], c.pos[1], s);
    }
    for (const d of snap.dispensers) {
      if (visible(d.pos)) drawDispenser(ctx, d.pos[0], d.pos[1], s, blockIndex(d.type), d.type);
    }
    drawLinks(ctx, s, links);
    for (const b of snap.blocks) {
      if (visible(b.pos)) drawBlock(ctx, b.pos[0], b.pos[1], s, blockIndex(b.type), b.type);
    }
    let sel = null;
    for (const a of snap.entities) {
      if (a.name === this.selected) sel = a;
      if (!visible(a.pos)) continue;
      const team = this.teamIndex.get(a.team) ?? 0, teams = shared.get(a.pos[0] * this.static.grid.height + a.pos[1]);
      if (!teams) drawAgent(ctx, a.pos[0], a.pos[1], s, team, a.deactivated, agentNumber(a.name));
      else inStripe(ctx, a.pos[0], a.pos[1], s, teams.indexOf(team), teams.length, () => drawAgent(ctx, a.pos[0], a.pos[1], s, team, a.deactivated));
    }
    if (sel) {
      drawVision(ctx, sel.pos, sel.vision, s);
      drawSelection(ctx, sel.pos[0], sel.pos[1], s);
    }
  }

  // sharedCells maps each cell holding agents of several teams (x·height +
  // y) to those teams' indices, ascending: each team a stripe of the cell.
  sharedCells(snap) {
    const at = new Map(), h = this.static.grid.height;
    for (const a of snap.entities) {
      const k = a.pos[0] * h + a.pos[1], t = this.teamIndex.get(a.team) ?? 0, teams = at.get(k);
      if (!teams) at.set(k, [t]);
      else if (!teams.includes(t)) teams.push(t);
    }
    for (const [k, teams] of at) {
      if (teams.length < 2) at.delete(k);
      else teams.sort((a, b) => a - b);
    }
    return at;
  }

  // links lists the neighbouring cells of each attached structure, as
  // pairs of cells (the second may lie across a torus seam).
  links(snap) {
    const g = this.static.grid;
    const seen = new Set(), pairs = [];
    for (const t of [...snap.entities, ...snap.blocks, ...snap.obstacles]) {
      if (!t.attached || !t.attached.length) continue;
      const cells = [t.pos, ...t.attached];
      const key = cells.map(p => p.join(',')).sort().join(';');
      if (seen.has(key)) continue;
      seen.add(key);
      for (let i = 0; i < cells.length; i++) {
        for (let j = i + 1; j < cells.length; j++) {
          const dx = wrapDelta(cells[j][0] - cells[i][0], g.width), dy = wrapDelta(cells[j][1] - cells[i][1], g.height);
          if (Math.abs(dx) + Math.abs(dy) !== 1) continue;
          const [x, y] = cells[i];
          pairs.push([[x, y], [x + dx, y + dy]]);
        }
      }
    }
    return pairs;
  }
}

export function agentNumber(name) {
  const m = /(\d+)$/.exec(name);
  return m ? m[1] : name;
}

// terrainColours are the terrain image's pixel values: obstacle, then
// background, goal zone, role zone, both zones (paintTerrain's kinds).
let terrainColours = null;

// terrainPixels computes them, as an ImageData's buffer seen as 32-bit
// numbers holds them (in the machine's byte order).
function terrainPixels() {
  const bg = rgba(colours.background), goal = blend(bg, rgba(colours.goal));
  const list = [rgba(colours.obstacle), bg, goal, blend(bg, rgba(colours.role)), blend(goal, rgba(colours.role))];
  return Array.from(new Uint32Array(new Uint8ClampedArray(list.flat()).buffer));
}

function blend(under, over) {
  const a = over[3] / 255;
  return [0, 1, 2].map(i => Math.round(under[i] * (1 - a) + over[i] * a)).concat(255);
}

function wrapDelta(d, n) {
  d = mod(d, n);
  return d > n / 2 ? d - n : d;
}

function mod(a, n) {
  return ((a % n) + n) % n;
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}
