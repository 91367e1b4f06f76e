// The probe for tests: window.massim says what the page shows as data
// (mode, simulation, step, what the map, chart and panels drew, the cards
// on screen), so that the browser tests (server/monitor) check what a
// person sees without reading pixels. It is written after every draw.

import { app } from './app.js';
import { $ } from './widgets.js';
import { map, chart } from './views.js';

// probeNoSimulation is the probe of a page without a simulation (the
// library, a live page before the first one, a replay that did not open).
export function probeNoSimulation() {
  window.massim = { mode: app.mode, sim: null, waiting: !$('waiting').hidden, tournament: app.tournament?.status ?? null };
}

// probeSimulation is the probe of the page showing snapshot shown of
// store; gap is the gap holding the step asked for, if any.
export function probeSimulation(store, shown, gap) {
  window.massim = {
    mode: app.mode,
    sim: store.sim,
    step: app.step,
    last: store.last,
    steps: store.static.steps,
    live: app.live,
    playing: app.playing,
    selected: app.selected,
    follow: app.follow,
    // loaded: the shown step is drawn whole, the side panel included (the
    // first frame draws the map alone; firstFrameMs times that one).
    loaded: !!shown && shown.step === app.step && !app.sideLater,
    gap: gap ? gap.error : null,
    gaps: store.gaps, // every gap known: [{from, to, error}]
    problem: store.problem, // why the replay ends early
    firstFrameMs: app.firstFrameMs,
    rendered: { ...map.stats },
    transform: { x: map.ox, y: map.oy, scale: map.scale },
    scoresKnown: store.scores.size,
    chart: { ...chart.stats },
    legend: $('legend').open,
    statsUpTo: app.statsShown ?? -1, // as the table shows them
    painted: app.painted,
    snapshot: shown,
    admin: app.admin ? app.admin.status : null,
    waiting: !$('waiting').hidden,
    banner: !$('banner').hidden,
    tournament: app.tournament?.status ?? null,
    // The replay is decoded ahead for seeks (read when asked).
    get decodedAhead() {
      return store.aheadDone;
    },
  };
}

// noteProbe changes one thing the probe says between draws.
export function noteProbe(key, value) {
  if (window.massim) window.massim[key] = value;
}
