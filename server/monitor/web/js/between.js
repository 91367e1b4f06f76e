// Between the steps: the waiting card of the live page (who is connected,
// what comes next and when) and the end banner of a simulation.

import { app, redraw } from './app.js';
import { $ } from './widgets.js';
import { renderWaiting, waitingShown } from './tournament.js';
import { renderBanner } from './banner.js';

// teamIndex is a team's colour index: its place in the shown simulation, else
// in the awaited one.
function teamIndex(team) {
  const i = app.store ? app.store.teams.indexOf(team) : -1;
  if (i >= 0) return i;
  const next = app.tournament?.status?.next?.teams ?? [];
  return Math.max(0, next.indexOf(team));
}

export function renderWaitingCard() {
  const box = $('waiting');
  box.hidden = !(app.mode === 'live' && waitingShown(app.tournament));
  if (!box.hidden) renderWaiting(box, app.tournament, teamIndex);
}

// tickCountdown keeps the countdown current without redrawing the map.
export function tickCountdown() {
  if (!$('waiting').hidden && app.tournament?.status?.next?.startsAt) renderWaitingCard();
}

// ended tells whether the shown simulation is over.
function ended(store) {
  return store.finished || store.last >= store.static.steps - 1 || !!app.tournament?.ended(store.sim);
}

export function renderBannerCard(store, shown) {
  const box = $('banner');
  const final = !!shown && shown.step === store.last && ended(store);
  box.hidden = !final || app.bannerClosed === store.sim;
  if (box.hidden) return;
  renderBanner(box, shown, store.teams, app.tournament?.label(store.sim) ?? '', () => {
    app.bannerClosed = store.sim;
    redraw();
  });
}
