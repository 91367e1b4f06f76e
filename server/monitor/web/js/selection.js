// The selected agent (clicked on the map or in the status table), whether
// the map follows it, and the view in the map's place: the map or the
// status table.

import { app, redraw } from './app.js';
import { $ } from './widgets.js';

export function select(name) {
  app.selected = name;
  $('btn-follow').disabled = !name;
  if (!name) setFollow(false);
  redraw();
}

export function setFollow(on) {
  app.follow = on && !!app.selected;
  $('btn-follow').classList.toggle('on', app.follow);
  redraw();
}

export function setView(view) {
  app.view = view;
  $('status-view').hidden = view !== 'status';
  $('legend').hidden = view === 'status';
  $('btn-view').textContent = view === 'status' ? 'Map' : 'Status';
  redraw();
}

export function toggleFollow() {
  setFollow(!app.follow);
}

export function toggleView() {
  setView(app.view === 'map' ? 'status' : 'map');
}
