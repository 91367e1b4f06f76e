// The page's drawn views: the map (a click selects an agent, the pointer
// describes a cell), the score chart (a click seeks) and the legend.

import { MapView } from './map.js';
import { ScoreChart } from './chart.js';
import { Legend } from './legend.js';
import { app, redraw } from './app.js';
import { $ } from './widgets.js';
import { select, setFollow } from './selection.js';
import { seek } from './timeline.js';

export const map = new MapView($('map'), {
  onSelect: name => select(name),
  onHover: (text, x, y) => showHover(text, x, y),
  onUserMove: kind => {
    if (kind === 'pan' && app.follow) setFollow(false);
    redraw();
  },
});
export const chart = new ScoreChart($('chart'), s => seek(s));
export const legend = new Legend($('legend'));

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
