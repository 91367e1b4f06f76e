// An agent's point of view: what lies in its vision area at the shown step
// and its last actions with their results (from the snapshots loaded; the
// steps not loaded yet are fetched and appear on the next draw).

import { el } from './panel.js';
import { plural } from './words.js';

const history = 8; // actions listed

// within tells whether cell p is within Manhattan distance r of c on a
// torus of width × height.
export function within(c, p, r, width, height) {
  const d = (a, b, n) => {
    const x = Math.abs(a - b) % n;
    return Math.min(x, n - x);
  };
  return d(c[0], p[0], width) + d(c[1], p[1], height) <= r;
}

// seenBy lists in words what agent a sees in snap.
export function seenBy(snap, a, grid) {
  const near = t => within(a.pos, t.pos, a.vision, grid.width, grid.height);
  const others = snap.entities.filter(e => e !== a && near(e));
  const mates = others.filter(e => e.team === a.team).length;
  const counts = [[mates, 'teammate'], [others.length - mates, 'opponent'], [snap.blocks.filter(near).length, 'block'],
    [snap.dispensers.filter(near).length, 'dispenser'], [snap.obstacles.filter(near).length, 'obstacle']];
  const parts = counts.filter(([n]) => n > 0).map(([n, word]) => plural(n, word));
  const zones = [];
  if (snap.goalZones.some(z => within(a.pos, z.pos, a.vision + z.r, grid.width, grid.height))) zones.push('a goal zone');
  if (snap.roleZones.some(z => within(a.pos, z.pos, a.vision + z.r, grid.width, grid.height))) zones.push('a role zone');
  if (snap.clear.some(z => within(a.pos, z.pos, a.vision + z.r, grid.width, grid.height))) zones.push('a coming clear event');
  const things = parts.length ? parts.join(', ') : 'no agent and nothing on the ground';
  return things + (zones.length ? `; part of ${zones.join(', ')}` : '');
}

// renderPointOfView appends what agent a sees and its last actions.
export function renderPointOfView(box, store, snap, a) {
  box.append(el('div', 'pov-title', 'Sees'), el('div', 'pov-sees', seenBy(snap, a, store.static.grid)));
  box.append(el('div', 'pov-title', 'Last actions'));
  const list = el('table', 'pov-actions');
  for (let step = snap.step; step > snap.step - history && step >= 0; step--) {
    const frame = store.get(step);
    const me = frame?.entities.find(e => e.name === a.name);
    const tr = el('tr');
    tr.append(el('td', 'small', String(step)));
    if (!me) {
      tr.append(el('td', 'small', frame ? 'not in this step' : '…'), el('td'));
    } else {
      const params = (me.actionParams ?? []).join(', ');
      const failed = me.actionResult && me.actionResult !== 'success';
      tr.append(el('td', '', `${me.action}${params ? `(${params})` : ''}`), el('td', failed ? 'bad' : 'ok', me.actionResult));
      if (failed) tr.className = 'failed';
    }
    list.append(tr);
  }
  if (!list.children.length) list.append(el('tr', '', 'no action yet'));
  box.append(list);
}
