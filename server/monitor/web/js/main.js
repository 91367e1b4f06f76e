// The monitor page: live (websocket + history), a replay, the replay
// library, or a published viewer's "open a replay" card; one timeline.
// This module starts the page in its mode. The page's state is app
// (app.js); a change asks for a redraw, and the next animation frame draws
// what changed (frames.js, render.js). docs/architecture.md, "The monitor
// page", lists the modules; web/imports_test.go keeps their rules.

import { app, dataChanged, redraw } from './app.js';
import { $ } from './widgets.js';
import { map, legend } from './views.js';
import { seek, bindTimeline } from './timeline.js';
import { tickCountdown } from './between.js';
import { frame, decodeWhenIdle } from './frames.js';
import { bindControls } from './controls.js';
import { LiveFeed } from './live.js';
import { Store } from './store.js';
import { getJSON } from './fetch.js';
import { AdminControls } from './admin.js';
import { TournamentFeed } from './tournament.js';
import { StatsWalk } from './stats.js';
import { renderLibrary } from './library.js';
import { hashStep } from './address.js';
import { staticSite, fetchReplay, readLocalFile, acceptDrops, renderOpen } from './open.js';

// start opens the page in the mode its address asks for: a replay file
// (?src=), a replay (?replay=), the library (?library, or a server without
// a live simulation) or the live simulation.
async function start() {
  const params = new URLSearchParams(location.search);
  // A replay file: by URL, dropped or chosen; a published page (no
  // server behind it) asks for nothing else.
  // (Not on the live page: its feed keeps the running simulation on screen.)
  acceptDrops(f => app.mode !== 'live' && openLocal(readLocalFile(f), null));
  if (staticSite) {
    // The published site's index is the folder above the viewer.
    const back = $('lnk-replays');
    back.href = '../';
    back.textContent = 'Results';
    back.hidden = false;
  }
  if (params.has('src')) return openLocal(fetchReplay(params.get('src')), hashStep());
  if (staticSite) return showOpen();
  const infoFetch = getJSON('info.json').catch(() => ({ live: true, replays: false }));
  infoFetch.then(info => ($('lnk-replays').hidden = !(info.live && info.replays)));
  // A replay needs nothing from info.json: it is not waited for.
  if (params.has('replay')) return openReplay(params.get('replay'), hashStep());
  const info = await infoFetch;
  if (params.has('library') || !info.live) {
    const list = await getJSON('replays/index.json');
    if (list.length === 1 && !params.has('library')) {
      history.replaceState(null, '', `?replay=${encodeURIComponent(list[0].id)}${hashStep() === null ? '' : `#${hashStep()}`}`);
      return openReplay(list[0].id, hashStep());
    }
    return showLibrary(list);
  }
  openLive(hashStep());
}

function openLive(step) {
  app.mode = 'live';
  $('t-live').hidden = false;
  $('chart-zoom').hidden = false; // early in a long match the whole simulation's axis leaves a short line
  app.admin = new AdminControls($('admin'), $('btn-admin'), redraw);
  app.admin.probe();
  app.tournament = new TournamentFeed(redraw);
  setInterval(tickCountdown, 500);
  redraw();
  if (step !== null) {
    app.live = false;
    app.step = step;
  }
  const feed = new LiveFeed(
    () => {
      if (feed.store !== app.store) setStore(feed.store);
      if (app.live) app.step = app.store.last;
      dataChanged();
    },
    state => setState(state),
  );
}

function openReplay(id, step) {
  return showReplay(new Store(`replays/${encodeURIComponent(id)}/`, dataChanged), `replay ${id}`, step);
}

// openLocal opens a replay file read in the page (open.js): reading
// resolves to {name, file}.
async function openLocal(reading, step) {
  let got;
  try {
    got = await reading;
  } catch (e) {
    setState('error');
    $('sim-name').textContent = e.message;
    if (!app.store) showOpen(e.message);
    return;
  }
  document.body.classList.remove('library-mode');
  $('library').hidden = true;
  await showReplay(new Store(`file/${encodeURIComponent(got.name)}/`, dataChanged, got.file), got.name, step);
}

// showOpen is the page of a published viewer opened without a replay.
function showOpen(problem = '') {
  app.mode = 'open';
  document.body.classList.add('library-mode');
  setState('no replay');
  const box = $('library');
  box.hidden = false;
  renderOpen(box, f => openLocal(readLocalFile(f), null), problem);
}

async function showReplay(store, what, step) {
  app.mode = 'replay';
  app.live = false;
  $('t-live').hidden = true;
  try {
    await store.load();
  } catch (e) {
    setState('error');
    $('sim-name').textContent = `${what}: ${e.message}`;
    return;
  }
  // The first draw waits for the step's segment: drawing the page without
  // it first would only delay it.
  await store.whenLoaded(Math.max(-1, Math.min(store.last, step ?? -1)));
  setStore(store);
  setState('replay');
  decodeWhenIdle(); // stopped after the replay before, or after a file that did not open
  seek(step ?? -1);
}

function showLibrary(list) {
  app.mode = 'library';
  document.body.classList.add('library-mode'); // no map: no panel, timeline or map buttons
  setState('replays');
  const box = $('library');
  box.hidden = false;
  renderLibrary(box, list);
}

function setStore(store) {
  const sameSim = app.store && app.store.sim === store.sim;
  app.store = store;
  map.setStatic(store.static, store.teams, store.blockTypes);
  legend.show(store.teams, store.blockTypes);
  if (!sameSim) {
    app.shown = null;
    app.stats = new StatsWalk(store);
    app.statsShown = null;
  }
  if (!sameSim && app.mode === 'live' && app.step !== null && app.live) app.step = null;
  redraw();
}

function setState(state) {
  app.state = state;
  const b = $('conn');
  b.textContent = state;
  b.className = `badge ${state}`;
  redraw();
}

// The page starts: controls, decoding while idle, the frame loop, then
// the mode.
bindTimeline();
bindControls();
decodeWhenIdle();
requestAnimationFrame(frame);
start().catch(e => {
  setState('error');
  $('sim-name').textContent = e.message;
});
