// The monitor page: live (websocket + history) or a replay, one timeline.
// State lives in `app`; everything is redrawn on the next animation frame
// after a change. window.massim exposes the render state for tests.

import { MapView } from './map.js';
import { ScoreChart } from './chart.js';
import { renderPanel, warmPatterns } from './panel.js';
import { $, setText } from './widgets.js';
import { renderStatus } from './status.js';
import { LiveFeed, liveButton } from './live.js';
import { Store } from './store.js';
import { getJSON } from './fetch.js';
import { AdminControls } from './admin.js';
import { TournamentFeed, renderWaiting, waitingShown } from './tournament.js';
import { renderBanner } from './banner.js';
import { Legend } from './legend.js';
import { StatsWalk, renderStats } from './stats.js';
import { renderLibrary } from './library.js';
import { Address, hashStep } from './address.js';
import { staticSite, fetchReplay, readLocalFile, acceptDrops, renderOpen } from './open.js';

// ?embed=1: the map and the timeline only (course pages, slides); the side
// panel is neither shown nor drawn.
const embedded = new URLSearchParams(location.search).get('embed') === '1';
document.body.classList.toggle('embed', embedded);

const app = {
  mode: 'loading', // live | replay | library | open (a published page without a replay)
  store: null,
  step: null, // the step shown (null: none yet)
  live: true, // live mode: follow the newest step
  playing: false,
  speed: 5, // steps per second
  selected: null, // agent name
  follow: false,
  view: 'map', // map | status
  shown: null, // the snapshot on screen
  state: 'connecting',
  dirty: true,
  data: 0, // counts the arrivals of data (dataChanged)
  tournament: null, // TournamentFeed (live mode)
  bannerClosed: null, // the simulation whose end banner was closed
  seekTarget: null, // a replay step sent to and not drawn yet (walkNow)
  seekAt: 0, // when (performance.now())
  seekDrawn: false, // the seek's step was drawn in the last frame
  statsAt: 0, // when the statistics table was last drawn
  statsShown: null, // the last step it counted
};

const map = new MapView($('map'), {
  onSelect: name => select(name),
  onHover: (text, x, y) => showHover(text, x, y),
  onUserMove: kind => {
    if (kind === 'pan' && app.follow) setFollow(false);
    redraw();
  },
});
const chart = new ScoreChart($('chart'), s => seek(s));
const legend = new Legend($('legend'));

// showHover puts the description of the cell under the pointer next to it.
function showHover(text, x, y) {
  const box = $('hover');
  box.textContent = text;
  box.hidden = !text;
  if (!text) return;
  const stage = $('mapbox').getBoundingClientRect();
  box.style.left = `${Math.max(4, Math.min(x + 14, stage.width - box.offsetWidth - 4))}px`;
  box.style.top = `${y + 18 + box.offsetHeight > stage.height ? y - box.offsetHeight - 8 : y + 18}px`;
}

function redraw() {
  app.dirty = true;
}

// dataChanged is the stores' and the feed's callback: new steps, scores or
// segments arrived, so what the panel derives from them may differ.
function dataChanged() {
  app.data++;
  redraw();
}

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

// ---- modes ----------------------------------------------------------------

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

// ---- timeline ---------------------------------------------------------------

function lastStep() {
  return app.store ? app.store.last : -1;
}

function seek(step) {
  if (!app.store) return;
  const last = lastStep();
  app.step = Math.max(-1, Math.min(last, Math.round(step)));
  app.live = app.mode === 'live' && app.step >= last;
  // A replay's step that is not loaded yet is asked for now, not in the
  // next frame's drawing.
  if (app.mode === 'replay') {
    app.store.seekTo(app.step);
    app.seekTarget = app.step;
    app.seekDrawn = false;
    app.seekAt = performance.now();
  }
  redraw();
}

function goLive() {
  if (app.mode !== 'live') return seek(lastStep());
  app.live = true;
  app.step = lastStep();
  redraw();
}

function setPlaying(on) {
  app.playing = on;
  playClock = null;
  redraw();
}

let playClock = null;
let playDebt = 0;

function advance(now) {
  if (!app.playing || !app.store || app.live) {
    playClock = null;
    return;
  }
  if (playClock === null) {
    playClock = now;
    playDebt = 0;
  }
  playDebt += ((now - playClock) / 1000) * app.speed;
  playClock = now;
  for (let i = 1; i <= 10; i++) app.store.prefetch(app.step + i * 5);
  while (playDebt >= 1) {
    const next = app.step + 1;
    if (next > lastStep()) {
      if (app.mode === 'live') app.live = true;
      else setPlaying(false);
      playDebt = 0;
      break;
    }
    const gap = app.store.gapAt(next);
    if (gap) {
      app.step = Math.min(gap.to, lastStep()); // play on after a damaged part
      continue;
    }
    if (!app.store.get(next)) {
      playDebt = Math.min(playDebt, 1); // wait for the group to arrive
      break;
    }
    app.step = next;
    playDebt -= 1;
    redraw();
  }
}

const address = new Address(
  s => s !== app.step && seek(s),
  () => (app.live ? null : app.step),
);

// ---- selection ----------------------------------------------------------------

function select(name) {
  app.selected = name;
  $('btn-follow').disabled = !name;
  if (!name) setFollow(false);
  redraw();
}

function setFollow(on) {
  app.follow = on && !!app.selected;
  $('btn-follow').classList.toggle('on', app.follow);
  redraw();
}

function setView(view) {
  app.view = view;
  $('status-view').hidden = view !== 'status';
  $('legend').hidden = view === 'status';
  $('btn-view').textContent = view === 'status' ? 'Map' : 'Status';
  redraw();
}

// ---- between the steps: waiting card and end banner -------------------------------

// teamIndex is a team's colour index: its place in the shown simulation, else
// in the awaited one.
function teamIndex(team) {
  const i = app.store ? app.store.teams.indexOf(team) : -1;
  if (i >= 0) return i;
  const next = app.tournament?.status?.next?.teams ?? [];
  return Math.max(0, next.indexOf(team));
}

function renderWaitingCard() {
  const box = $('waiting');
  box.hidden = !(app.mode === 'live' && waitingShown(app.tournament));
  if (!box.hidden) renderWaiting(box, app.tournament, teamIndex);
}

// tickCountdown keeps the countdown current without redrawing the map.
function tickCountdown() {
  if (!$('waiting').hidden && app.tournament?.status?.next?.startsAt) renderWaitingCard();
}

// ended tells whether the shown simulation is over.
function ended(store) {
  return store.finished || store.last >= store.static.steps - 1 || !!app.tournament?.ended(store.sim);
}

function renderBannerCard(store, shown) {
  const box = $('banner');
  const final = !!shown && shown.step === store.last && ended(store);
  box.hidden = !final || app.bannerClosed === store.sim;
  if (box.hidden) return;
  renderBanner(box, shown, store.teams, app.tournament?.label(store.sim) ?? '', () => {
    app.bannerClosed = store.sim;
    redraw();
  });
}

function renderTitle(store) {
  const label = app.tournament?.label(store.sim) ?? '';
  const name = $('sim-name');
  const cut = app.mode === 'replay' && store.problem ? ` · incomplete: ${store.problem}` : '';
  setText(name, store.teams.join(' vs ') + (label ? ` · ${label}` : '') + cut);
  name.title = `simulation ${store.sim}`;
}

// ---- rendering --------------------------------------------------------------------

function render() {
  renderWaitingCard();
  const store = app.store;
  document.body.classList.toggle('no-sim', !store);
  if (!store) {
    window.massim = { mode: app.mode, sim: null, waiting: !$('waiting').hidden, tournament: app.tournament?.status ?? null };
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
  const slider = $('t-slider');
  const max = String(Math.max(-1, store.last)), value = String(app.step ?? -1);
  if (slider.max !== max) slider.max = max;
  if ((document.activeElement !== slider || !sliderDragging) && slider.value !== value) slider.value = value;
  setText($('t-step'), app.step === null ? '–' : `${app.step} / ${store.static.steps - 1}`);
  setText($('t-play'), app.playing && !app.live ? '⏸' : '▶');
  liveButton($('t-live'), app.live, app.tournament?.status?.phase === 'finished');
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
    firstFrameMs: app.firstFrameMs ?? (app.firstFrameMs = shown ? performance.now() : undefined),
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

// renderStatsPart shows the team statistics when what they show changed:
// the totals up to the shown step, or up to where the walk counted when it
// is behind that step (then the table says so). A seek between steps the
// walk has not reached shows the same table: it is not built again (a
// table costs a layout and a paint). While the walk is behind the shown
// step it counts at every frame, so then the table is built at most every
// statsEvery ms (and at once when it reaches the step).
const statsEvery = 250;
function renderStatsPart() {
  const walk = app.stats, step = app.step ?? -1, { upTo } = walk.at(step), now = performance.now();
  const behind = upTo < step;
  const before = drawnWith.get('stats');
  const counting = !!before && before[0] === walk && before[3] && behind && now - app.statsAt < statsEvery;
  if (counting || !changed('stats', walk, upTo, walk.skipped, behind)) return;
  app.statsAt = now;
  app.statsShown = upTo;
  renderStats($('stats'), app.store, walk, step);
  if (window.massim) window.massim.statsUpTo = upTo;
}

// notePainted records when the step asked for is first drawn (for the
// timing measurements: performance.now() at the end of that frame's draw).
function notePainted(shown) {
  if (!shown || shown.step !== app.step || app.painted?.step === shown.step) return;
  app.painted = { step: shown.step, at: performance.now() };
  if (window.massim) window.massim.painted = app.painted;
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

function frame(now) {
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

// ---- controls -------------------------------------------------------------------------

let sliderDragging = false;
const slider = $('t-slider');
slider.addEventListener('pointerdown', () => (sliderDragging = true));
slider.addEventListener('pointerup', () => (sliderDragging = false));
slider.addEventListener('input', () => seek(parseInt(slider.value, 10)));

const step = d => () => seek((app.step ?? lastStep()) + d);
$('t-first').onclick = () => seek(-1);
$('t-back10').onclick = step(-10);
$('t-back1').onclick = step(-1);
$('t-fwd1').onclick = step(1);
$('t-fwd10').onclick = step(10);
$('t-last').onclick = goLive;
$('t-live').onclick = goLive;
$('t-play').onclick = () => togglePlay();
$('t-speed').onchange = e => (app.speed = parseFloat(e.target.value));
app.speed = parseFloat($('t-speed').value);
$('btn-follow').onclick = () => setFollow(!app.follow);
$('btn-fit').onclick = () => {
  map.fit();
  setFollow(false);
};
$('btn-view').onclick = () => setView(app.view === 'map' ? 'status' : 'map');
$('chart-zoom').onclick = () => {
  chart.soFar = !chart.soFar;
  $('chart-zoom').classList.toggle('on', chart.soFar);
  $('chart-zoom').setAttribute('aria-pressed', String(chart.soFar));
  redraw();
};

function togglePlay() {
  if (app.live) {
    // Playing from the live edge makes no sense: pause there instead.
    app.live = false;
    setPlaying(false);
    return;
  }
  setPlaying(!app.playing);
}

document.addEventListener('keydown', e => {
  if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
  if (e.target instanceof HTMLSelectElement) return;
  const keys = {
    ' ': () => togglePlay(),
    ArrowLeft: step(-1),
    ArrowRight: step(1),
    ArrowDown: step(-10),
    ArrowUp: step(10),
    PageDown: step(-10),
    PageUp: step(10),
    Home: () => seek(-1),
    End: goLive,
    f: () => setFollow(!app.follow),
    s: () => setView(app.view === 'map' ? 'status' : 'map'),
    0: () => map.fit() || redraw(),
    Escape: () => select(null),
  };
  const fn = keys[e.key];
  if (!fn || e.ctrlKey || e.metaKey || e.altKey) return;
  e.preventDefault();
  fn();
});
// The map's box changes with the window and with the legend opening or
// closing under it.
new ResizeObserver(redraw).observe($('mapbox'));

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
function decodeWhenIdle() {
  if (idleAsked || !window.requestIdleCallback) return;
  idleAsked = true;
  requestIdleCallback(aheadWhileIdle);
}
decodeWhenIdle();

requestAnimationFrame(frame);
start().catch(e => {
  setState('error');
  $('sim-name').textContent = e.message;
});
