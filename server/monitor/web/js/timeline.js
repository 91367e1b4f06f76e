// The timeline under the map: the step shown (seek, the live edge), playing
// at a speed, the address's #step, and the timeline's controls (slider,
// step buttons, play, speed, LIVE).

import { app, redraw } from './app.js';
import { $, setText } from './widgets.js';
import { Address } from './address.js';

export function lastStep() {
  return app.store ? app.store.last : -1;
}

export function seek(step) {
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

// stepBy is a control that moves the shown step by d.
export const stepBy = d => () => seek((app.step ?? lastStep()) + d);

export function goLive() {
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

export function togglePlay() {
  if (app.live) {
    // Playing from the live edge makes no sense: pause there instead.
    app.live = false;
    setPlaying(false);
    return;
  }
  setPlaying(!app.playing);
}

let playClock = null;
let playDebt = 0;

// advance moves a playing page on by the steps due at time now.
export function advance(now) {
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

export const address = new Address(
  s => s !== app.step && seek(s),
  () => (app.live ? null : app.step),
);

let sliderDragging = false;

// bindTimeline makes the timeline's controls work.
export function bindTimeline() {
  const slider = $('t-slider');
  slider.addEventListener('pointerdown', () => (sliderDragging = true));
  slider.addEventListener('pointerup', () => (sliderDragging = false));
  slider.addEventListener('input', () => seek(parseInt(slider.value, 10)));

  $('t-first').onclick = () => seek(-1);
  $('t-back10').onclick = stepBy(-10);
  $('t-back1').onclick = stepBy(-1);
  $('t-fwd1').onclick = stepBy(1);
  $('t-fwd10').onclick = stepBy(10);
  $('t-last').onclick = goLive;
  $('t-live').onclick = goLive;
  $('t-play').onclick = () => togglePlay();
  $('t-speed').onchange = e => (app.speed = parseFloat(e.target.value));
  app.speed = parseFloat($('t-speed').value);
}

// renderTimeline shows the step of store the page shows.
export function renderTimeline(store) {
  const slider = $('t-slider');
  const max = String(Math.max(-1, store.last)), value = String(app.step ?? -1);
  if (slider.max !== max) slider.max = max;
  if ((document.activeElement !== slider || !sliderDragging) && slider.value !== value) slider.value = value;
  setText($('t-step'), app.step === null ? '–' : `${app.step} / ${store.static.steps - 1}`);
  setText($('t-play'), app.playing && !app.live ? '⏸' : '▶');
  liveButton($('t-live'), app.live, app.tournament?.status?.phase === 'finished');
}

// liveButton shows whether the page follows the newest step: red while it
// does. Once the tournament is over nothing more comes live, so it goes
// out and says so (a click still goes to the last step).
function liveButton(btn, live, over) {
  btn.classList.toggle('on', live && !over);
  setText(btn, over ? 'ENDED' : 'LIVE');
  btn.title = over ? 'the tournament is over: nothing more comes live (go to the last step)' : 'jump back to the live step';
}
