// The score-over-time chart: one line per team, a marker at the shown step;
// a click seeks to the step under the pointer.

import { teamStyle } from './colors.js';

export class ScoreChart {
  constructor(canvas, onSeek) {
    this.canvas = canvas;
    this.onSeek = onSeek;
    this.steps = 0;
    this.stats = { points: 0, from: null, to: null, gaps: 0 }; // what the last draw plotted (tests)
    canvas.addEventListener('click', e => {
      if (!this.steps) return;
      const r = canvas.getBoundingClientRect();
      this.onSeek(Math.round(((e.clientX - r.left) / r.width) * (this.steps - 1)));
    });
  }

  // draw plots store.scores for steps -1 .. steps-1.
  draw(store, current) {
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    if (c.width !== Math.round(w * dpr)) c.width = Math.round(w * dpr);
    if (c.height !== Math.round(h * dpr)) c.height = Math.round(h * dpr);
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    this.steps = store.static?.steps ?? 0;
    if (!this.steps) return;
    const steps = [...store.scores.keys()].sort((a, b) => a - b);
    let max = 1;
    for (const s of steps) for (const v of store.scores.get(s)) max = Math.max(max, v);
    const pad = 4;
    const x = s => pad + ((s + 1) / this.steps) * (w - 2 * pad);
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
    if (current !== null) {
      ctx.beginPath();
      ctx.moveTo(Math.round(x(current)) + 0.5, 0);
      ctx.lineTo(Math.round(x(current)) + 0.5, h);
      ctx.strokeStyle = 'rgba(0,0,0,0.5)';
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }
}
