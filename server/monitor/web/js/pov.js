// An agent's point of view: what lies in its vision area at the shown step
// and its last actions with their results (from the snapshots loaded; the
// steps not loaded yet are fetched and appear on the next draw). In a
// replay of our format it also shows the percept the agent received at the
// step, exactly as sent, which the server rebuilds from the replay's match
// record (GET replays/{id}/percept/{agent}/{step}, docs/practice.md).

import { el } from './widgets.js';
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
  if (store.base.startsWith('replays/')) renderPercept(box, store, snap.step, a.name);
}

// The percepts asked for, by URL: { state: 'loading' | 'ok' | 'error', data }.
const percepts = new Map();
const perceptsKept = 64;

// perceptOf returns what is known of a percept and asks for it once; the
// answer redraws the page (store.onChange).
function perceptOf(store, name, step) {
  const url = `${store.base}percept/${encodeURIComponent(name)}/${step}`;
  let p = percepts.get(url);
  if (p) return p;
  p = { state: 'loading' };
  percepts.set(url, p);
  if (percepts.size > perceptsKept) percepts.delete(percepts.keys().next().value);
  fetch(url)
    .then(async r => {
      if (!r.ok) throw new Error((await r.text()).trim() || r.statusText);
      return r.json();
    })
    .then(data => Object.assign(p, { state: 'ok', data }), e => Object.assign(p, { state: 'error', data: e.message }))
    .then(() => store.onChange());
  return p;
}

// renderPercept appends the percept of the step (what the agent knew when
// it chose the action the map shows) and what became of its answer.
function renderPercept(box, store, step, name) {
  box.append(el('div', 'pov-title', `Percept of step ${step}`));
  if (step < 0) {
    box.append(el('div', 'small', 'no request-action at step -1: the agents got sim-start'));
    return;
  }
  const p = perceptOf(store, name, step);
  if (p.state !== 'ok') {
    box.append(el('div', p.state === 'error' ? 'small bad' : 'small', p.state === 'error' ? p.data : 'rebuilding…'));
    return;
  }
  const { percept: q, answer, action, actionParams: params, actionResult: result } = p.data;
  box.append(el('div', 'pov-percept-summary', perceptSummary(q)));
  const answered = answer === 'in time' ? `${action}(${params.join(', ')}) → ${result}` : `${answer}: ${action} → ${result}`;
  box.append(el('div', 'pov-answer', `answer: ${answered}`));
  const details = el('details', 'pov-percept');
  details.append(el('summary', '', 'the percept as sent'), el('pre', '', JSON.stringify(q, null, 1)));
  box.append(details);
}

// perceptSummary says in one line what a percept holds.
export function perceptSummary(q) {
  const parts = [`energy ${q.energy}`, `role ${q.role}`, plural(q.things.length, 'thing'), plural(q.attached.length, 'attached thing'),
    plural(q.tasks.length, 'task'), plural(q.norms.length, 'norm')];
  if (q.deactivated) parts.push('deactivated');
  if (q.events.length) parts.push(plural(q.events.length, 'event'));
  if (q.violations.length) parts.push(`violates ${q.violations.join(', ')}`);
  const last = q.lastAction ? `${q.lastAction}(${q.lastActionParams.join(', ')}) → ${q.lastActionResult}` : 'none';
  return `${parts.join(' · ')} · last action ${last}`;
}
