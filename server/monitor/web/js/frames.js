// The frame loop: what each animation frame does, in order (follow the
// address, play on, draw what changed, then count statistics and decode a
// replay ahead in the time left over), and what the page decodes ahead
// while it is idle between frames.

import { app, redraw } from './app.js';
import { address, advance } from './timeline.js';
import { render, renderStatsPart } from './render.js';
import { noteProbe } from './probe.js';
import { warmPatterns } from './panel.js';

// notePainted records when the step asked for is first drawn (for the
// timing measurements: performance.now() at the end of that frame's draw).
function notePainted(shown) {
  if (!shown || shown.step !== app.step || app.painted?.step === shown.step) return;
  app.painted = { step: shown.step, at: performance.now() };
  noteProbe('painted', app.painted);
}

const statsBudget = 4; // ms per frame for counting statistics
const walkShare = 1; // ms of it the walk keeps while a replay is decoded ahead

// holdForSeek tells whether to leave the page as it is in this frame: it
// was sent to a replay step whose data is on its way, so drawing the old
// step with the new step's slider, chart marker and statistics would only
// keep the page's thread (style, layout, paint) from that answer and the
// frame that shows it. Not for long: after seekHold ms it draws.
const seekHold = 100;
function holdForSeek(now) {
  const target = app.seekTarget;
  return target !== null && app.shown?.step !== target && now - app.seekAt < seekHold && !!app.store?.coming(target);
}

// walkNow tells whether the statistics walk may count in this frame. It
// decodes steps (a few ms per frame, more at a keyframe): while the page
// waits for a replay step it was sent to, it leaves the page's thread to
// that answer, and in the frame that draws it and the next (the browser
// paints the drawn frame in between), to getting it on screen. After that
// next frame the loads the store held back for the step start (starting a
// request costs the page's thread a few ms on a busy machine).
function walkNow() {
  const target = app.seekTarget;
  if (target === null) return !app.sideLater;
  if (app.seekDrawn) {
    app.seekTarget = null;
    app.seekDrawn = false;
    const store = app.store;
    setTimeout(() => store?.shown(target));
  } else if (app.shown?.step === target) app.seekDrawn = true;
  else if (!app.store || app.store.gapAt(target)) app.seekTarget = null;
  return false;
}

export function frame(now) {
  // The next frame is asked for first: a failure in one draw (logged by the
  // browser) must not stop the page.
  requestAnimationFrame(frame);
  // A step put into the address (a link, the address bar) is followed
  // before anything else: its hashchange event often comes only after
  // this frame, and a step found here is drawn in this frame, its
  // request sent before the statistics walk takes its share.
  if (app.store) address.update(now);
  advance(now);
  // Scores learnt from decoded steps (the statistics walk decodes in the
  // background) go into the chart.
  if (app.store && app.store.scoresVersion !== app.chartScores) redraw();
  if (app.dirty && !holdForSeek(now)) {
    app.dirty = false;
    render();
    notePainted(app.shown);
    // The rest of a replay loads after its first frame, not before.
    if (app.mode === 'replay' && app.store && !app.store.fill) app.store.fillAll();
  }
  // Statistics are counted in the time left over, and only their table
  // is drawn again: when the walk counted, and when it stopped (waiting for
  // a segment) with counts the table held back while it was counting.
  if (app.stats && walkNow()) {
    // What the first seek would otherwise pay for (once), checkpoints for
    // a replay's seeks, then the walk; while there are checkpoints to make
    // the walk keeps a share, so the table fills in meanwhile.
    if (warmPatterns(app.store)) return;
    const ahead = app.mode === 'replay' && app.store.decodeAhead(statsBudget - walkShare);
    const counted = app.stats.advance(ahead ? walkShare : statsBudget);
    if (counted || app.statsShown !== app.stats.at(app.step ?? -1).upTo) renderStatsPart();
  }
}

// aheadWhileIdle decodes a replay ahead for seeks (store.decodeAhead) in
// the time the page's thread is idle between frames, besides the walk's
// share in each frame: the checkpoints then come two to three times
// sooner after opening. Not while a seek is on its way to the screen; a
// seek that arrives meanwhile waits for no more than what is left of the
// frame, as it is drawn in the next one.
function aheadWhileIdle(deadline) {
  const store = app.store;
  idleAsked = false;
  if (!['loading', 'replay', 'open'].includes(app.mode)) return; // the live page, the library
  if (app.state === 'error') return; // a replay that did not open: nothing will come to decode
  const budget = Math.min(idleAtMost, deadline.timeRemaining() - 1);
  if (store && app.seekTarget === null && !app.sideLater && budget > 1) store.decodeAhead(budget);
  if (!store?.aheadDone) decodeWhenIdle();
}
const idleAtMost = 10; // ms of decoding ahead in one idle period
let idleAsked = false;
// decodeWhenIdle (re)starts aheadWhileIdle: at start-up, and for a replay
// file opened after the last one was decoded (a dropped file).
export function decodeWhenIdle() {
  if (idleAsked || !window.requestIdleCallback) return;
  idleAsked = true;
  requestIdleCallback(aheadWhileIdle);
}
