// Small widgets and DOM helpers shared by the page's parts (a module of
// their own, so that the parts that use them do not import each other).

import { teamStyle, drawShape } from './colours.js';

// $ is the page's element with id.
export const $ = id => document.getElementById(id);

// el makes an element with a class and a text.
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// setText changes an element's text only when it differs: a text set
// again, even the same, makes the browser lay the page out again.
export function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

// teamSwatch is team i's shape in its colour. A part of the page drawn
// again at every step names its place (slot) and gets the same canvas back
// each time: a new canvas costs more than the rest of a score line.
const swatches = new Map();
export function teamSwatch(i, slot) {
  const key = slot === undefined ? null : `${slot} ${i}`;
  if (key !== null && swatches.has(key)) return swatches.get(key);
  const c = document.createElement('canvas');
  c.className = 'swatch';
  c.width = c.height = 28;
  const ctx = c.getContext('2d');
  const st = teamStyle(i);
  drawShape(ctx, st.shape, 14, 14, 30);
  ctx.fillStyle = st.colour;
  ctx.fill();
  if (key !== null) swatches.set(key, c);
  return c;
}
