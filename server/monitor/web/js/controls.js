// The map's buttons (follow, fit, status view, the chart's zoom) and the
// keys of the page; the timeline's own controls are in timeline.js.

import { app, redraw } from './app.js';
import { $ } from './widgets.js';
import { map, chart } from './views.js';
import { select, setFollow, toggleFollow, toggleView } from './selection.js';
import { seek, stepBy, goLive, togglePlay } from './timeline.js';

// bindControls makes the map's buttons and the page's keys work.
export function bindControls() {
  $('btn-follow').onclick = toggleFollow;
  $('btn-fit').onclick = () => {
    map.fit();
    setFollow(false);
  };
  $('btn-view').onclick = toggleView;
  $('chart-zoom').onclick = () => {
    chart.soFar = !chart.soFar;
    $('chart-zoom').classList.toggle('on', chart.soFar);
    $('chart-zoom').setAttribute('aria-pressed', String(chart.soFar));
    redraw();
  };

  document.addEventListener('keydown', e => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.target instanceof HTMLSelectElement) return;
    const keys = {
      ' ': () => togglePlay(),
      ArrowLeft: stepBy(-1),
      ArrowRight: stepBy(1),
      ArrowDown: stepBy(-10),
      ArrowUp: stepBy(10),
      PageDown: stepBy(-10),
      PageUp: stepBy(10),
      Home: () => seek(-1),
      End: goLive,
      f: toggleFollow,
      s: toggleView,
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
}
