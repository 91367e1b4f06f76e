// Drawing the page: the title, the map, the side panel (scores, tasks,
// norms, the selected agent, the statistics), the chart, the cards between
// the steps, the status view and the timeline, each part again only when
// what it shows changed; then the probe for tests.

import { app, embedded, redraw } from './app.js';
import { $, setText } from './widgets.js';
import { map, chart } from './views.js';
import { select, setView } from './selection.js';
import { renderTimeline } from './timeline.js';
import { renderWaitingCard, renderBannerCard } from './between.js';
import { probeNoSimulation, probeSimulation, noteProbe } from './probe.js';
import { renderPanel } from './panel.js';
import { renderStatus } from './status.js';
import { renderStats } from './stats.js';

// changed tells whether the inputs of a part of the page differ (by
// identity) from those of its last draw, and remembers them: a part is
// drawn again only when something it shows changed.
const drawnWith = new Map();
function changed(part, ...inputs) {
  const before = drawnWith.get(part);
  if (before && before.length === inputs.length && before.every((v, i) => v === inputs[i])) return false;
  drawnWith.set(part, inputs);
  return true;
}

function renderTitle(store) {
  const label = app.tournament?.label(store.sim) ?? '';
  const name = $('sim-name');
  const cut = app.mode === 'replay' && store.problem ? ` · incomplete: ${store.problem}` : '';
  setText(name, store.teams.join(' vs ') + (label ? ` · ${label}` : '') + cut);
  name.title = `simulation ${store.sim}`;
}

export function render() {
  renderWaitingCard();
  const store = app.store;
  document.body.classList.toggle('no-sim', !store);
  if (!store) {
    probeNoSimulation();
    return;
  }
  renderTitle(store);
  if (app.step === null && store.last >= -1) app.step = store.last;
  const snap = app.step === null ? null : store.get(app.step);
  const gap = app.step === null ? null : store.gapAt(app.step);
  const banner = $('gap');
  banner.hidden = !gap;
  if (gap) banner.textContent = `Steps ${gap.from}–${gap.to} cannot be shown: ${gap.error}`;
  // While a step loads, the previous one stays on screen.
  if (snap || (app.shown && !store.static)) app.shown = snap;
  const shown = app.shown;
  if (app.follow && shown) {
    const a = shown.entities.find(e => e.name === app.selected);
    if (a) map.centreOn(a.pos[0], a.pos[1]);
  }
  map.draw(shown, app.selected);
  // The first frame with a step is the map alone: the side panel (its
  // first chart costs as much as the map) follows in the next frame.
  app.sideLater = !!shown && app.firstFrameMs === undefined;
  if (app.sideLater) redraw();
  else if (!embedded) {
    if (changed('panel', store, shown, app.selected, app.live, app.tournament?.status, app.data)) renderPanel(app, shown);
    renderStatsPart();
    chart.draw(store, app.step);
    app.chartScores = store.scoresVersion;
  }
  renderBannerCard(store, shown);
  if (app.view === 'status') renderStatus($('status-view'), shown, name => {
    select(name);
    setView('map');
  });
  renderTimeline(store);
  if (shown && app.firstFrameMs === undefined) app.firstFrameMs = performance.now();
  probeSimulation(store, shown, gap);
}

// renderStatsPart shows the team statistics when what they show changed:
// the totals up to the shown step, or up to where the walk counted when it
// is behind that step (then the table says so). A seek between steps the
// walk has not reached shows the same table: it is not built again (a
// table costs a layout and a paint). While the walk is behind the shown
// step it counts at every frame, so then the table is built at most every
// statsEvery ms (and at once when it reaches the step).
const statsEvery = 250;
export function renderStatsPart() {
  const walk = app.stats, step = app.step ?? -1, { upTo } = walk.at(step), now = performance.now();
  const behind = upTo < step;
  const before = drawnWith.get('stats');
  const counting = !!before && before[0] === walk && before[3] && behind && now - app.statsAt < statsEvery;
  if (counting || !changed('stats', walk, upTo, walk.skipped, behind)) return;
  app.statsAt = now;
  app.statsShown = upTo;
  renderStats($('stats'), app.store, walk, step);
  noteProbe('statsUpTo', upTo);
}
