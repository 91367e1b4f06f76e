// The score-over-time chart: one line per team, a marker at the shown step;
// a click seeks to the step under the pointer.

import { teamStyle } from './colours.js';

const pad = 4;

export class ScoreChart {
  constructor(canvas, onSeek) {
    this.canvas = canvas;
    this.onSeek = onSeek;
    this.steps = 0; // steps the x axis spans
    this.soFar = false; // the x axis ends at the last known step, not the simulation's end
    this.stats = { points: 0, from: null, to: null, gaps: 0 }; // what the last draw plotted (tests)
    this.box = null; // the canvas's size as the last layout left it (see MapView)
    new ResizeObserver(([e]) => {
      const b = e.contentBoxSize?.[0];
      this.box = b ? { w: Math.round(b.inlineSize), h: Math.round(b.blockSize) } : null;
    }).observe(canvas);
    canvas.addEventListener('click', e => {
      if (!this.steps) return;
      const r = canvas.getBoundingClientRect();
      this.onSeek(Math.round(((e.clientX - r.left) / r.width) * (this.steps - 1)));
    });
  }

  // draw plots store.scores for steps -1 .. steps-1 (so far: up to the
  // last step there is) and marks step current.
  // The lines are drawn again only when the scores or the size changed;
  // otherwise the last lines are copied and the marker moves.
  draw(store, current) {
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    // (Measured when the last layout had it hidden: it may show now.)
    const { w, h } = this.box?.w && this.box.h ? this.box : { w: c.clientWidth, h: c.clientHeight };
    if (c.width !== Math.round(w * dpr)) c.width = Math.round(w * dpr);
    if (c.height !== Math.round(h * dpr)) c.height = Math.round(h * dpr);
    const ctx = c.getContext('2d');
    const whole = store.static?.steps ?? 0;
    this.steps = this.soFar && whole ? Math.min(whole, Math.max(store.last + 2, 2)) : whole;
    const inputs = [store, store.scoresVersion, this.steps, c.width, c.height, dpr];
    if (!this.lines || !inputs.every((v, i) => v === this.linesOf[i])) {
      this.lines ??= document.createElement('canvas');
      this.lines.width = c.width;
      this.lines.height = c.height;
      this.linesOf = inputs;
      this.drawLines(this.lines.getContext('2d'), store, w, h, dpr);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.drawImage(this.lines, 0, 0);
    if (!this.steps || current === null) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const x = this.x(w, current);
    ctx.beginPath();
    ctx.moveTo(Math.round(x) + 0.5, 0);
    ctx.lineTo(Math.round(x) + 0.5, h);
    ctx.strokeStyle = 'rgba(0,0,0,0.5)';
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  // x is the horizontal position of step s in a chart w pixels wide.
  x(w, s) {
    return pad + ((s + 1) / this.steps) * (w - 2 * pad);
  }

  drawLines(ctx, store, w, h, dpr) {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    if (!this.steps) return;
    const steps = [...store.scores.keys()].sort((a, b) => a - b);
    let max = 1;
    for (const s of steps) for (const v of store.scores.get(s)) max = Math.max(max, v);
    const x = s => this.x(w, s);
    const y = v => h - pad - (v / max) * (h - 2 * pad - 10);
    ctx.strokeStyle = '#ddd';
    ctx.strokeRect(0.5, 0.5, w - 1, h - 1);
    ctx.fillStyle = '#999';
    ctx.font = '10px system-ui, sans-serif';
    ctx.fillText(String(max), pad, 10);
    // One line per team through every known step. Steps not known yet
    // (frames coalesced in a fast match, scores still loading) are bridged:
    // the line stays a line, never a row of dots.
    store.teams.forEach((_, t) => {
      ctx.beginPath();
      steps.forEach((s, i) => {
        const v = store.scores.get(s)[t];
        if (i) ctx.lineTo(x(s), y(v));
        else ctx.moveTo(x(s), y(v));
      });
      if (steps.length === 1) ctx.lineTo(x(steps[0]) + 1, y(store.scores.get(steps[0])[t]));
      ctx.strokeStyle = teamStyle(t).colour;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    });
    const from = steps.length ? steps[0] : null, to = steps.length ? steps[steps.length - 1] : null;
    this.stats = { points: steps.length, from, to, gaps: steps.length ? to - from + 1 - steps.length : 0 };
  }
}
