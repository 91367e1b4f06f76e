// The side panel: step and scores, tasks with their block patterns, norms,
// this step's violations and completions, and the selected agent.

import { drawShape } from './colours.js';
import { drawBlock } from './cells.js';
import { normRule, normTiming, plural, taskRule } from './words.js';
import { renderPointOfView } from './pov.js';
import { $, el, teamSwatch } from './widgets.js';

export function renderPanel(app, snap) {
  const store = app.store;
  const steps = store.static.steps;
  $('step-line').textContent = snap ? `Step ${snap.step} / ${steps - 1}` : `Step – / ${steps - 1}`;
  renderScores(store, snap, offlineNow(app));
  renderAgent(app, snap);
  renderTasks(store, snap, steps - 1);
  renderNorms(snap, steps - 1);
  renderEvents(snap);
}

// offlineNow maps each team of the running live simulation to its accounts
// that are not connected (the tournament feed); empty otherwise.
function offlineNow(app) {
  const s = app.tournament?.status;
  if (!app.live || !s || s.phase !== 'running' || s.name !== app.store.sim) return new Map();
  return new Map((s.roster ?? []).filter(r => r.missing?.length).map(r => [r.team, r.missing]));
}

function renderScores(store, snap, offline) {
  const box = $('scores');
  box.replaceChildren();
  const byTeam = new Map((snap?.scores ?? []).map(([t, s]) => [t, s]));
  store.teams.forEach((team, i) => {
    const row = el('div', 'score');
    row.dataset.team = team;
    row.append(teamSwatch(i, 'scores'), el('span', '', team));
    const missing = offline.get(team);
    if (missing) {
      const note = el('span', 'offline', `${plural(missing.length, 'agent')} offline`);
      note.title = missing.join(', ');
      row.append(note);
    }
    row.append(el('b', '', String(byTeam.get(team) ?? 0)));
    box.append(row);
  });
}

function renderAgent(app, snap) {
  const sec = $('sec-agent');
  const a = snap?.entities.find(e => e.name === app.selected);
  sec.hidden = !app.selected;
  const box = $('agent');
  box.replaceChildren();
  if (!app.selected) return;
  if (!a) {
    box.append(el('div', 'small', `${app.selected} is not in this step`));
    return;
  }
  const max = app.store.static.maxEnergy || 100;
  const bar = el('div', 'energy');
  const fill = el('div');
  fill.style.width = `${Math.max(0, Math.min(100, (100 * a.energy) / max))}%`;
  bar.append(fill);
  const failed = a.actionResult && a.actionResult !== 'success';
  const dl = el('dl');
  const row = (k, v, cls) => dl.append(el('dt', '', k), el('dd', cls ?? '', v));
  row('name', a.name);
  row('team', a.team);
  row('role', a.role);
  row('position', `(${a.pos[0]}, ${a.pos[1]})`);
  row('vision', String(a.vision));
  row('energy', `${a.energy} / ${max}`);
  row('status', a.deactivated ? 'deactivated' : 'active', a.deactivated ? 'bad' : '');
  row('action', a.action || '–');
  row('params', (a.actionParams ?? []).join(', ') || '–');
  row('result', a.actionResult || '–', failed ? 'bad' : '');
  row('attached', (a.attached ?? []).map(p => `(${p[0]}, ${p[1]})`).join(' ') || '–');
  if (a.events?.length) row('events', a.events.map(describeEvent).join('; '));
  box.append(dl, bar);
  renderPointOfView(box, app.store, snap, a);
}

function describeEvent(e) {
  if (e.type === 'hit') return `hit from (${e.origin}) −${e.damage ?? '?'}`;
  if (e.type === 'surveyed') return e.target === 'agent' ? `surveyed ${e.name} (${e.role}, ${e.energy})` : `surveyed ${e.target} at ${e.distance}`;
  return e.type;
}

// At the simulation's last step (last) the tasks and norms still shown are
// greyed ('past'): nothing more can be done about them.
function renderTasks(store, snap, last) {
  const box = $('tasks');
  box.replaceChildren();
  const tasks = snap?.tasks ?? [];
  if (!tasks.length) box.append(el('div', 'small', 'no active task'));
  for (const t of tasks) {
    const rule = taskRule(t, snap.step, last);
    const row = el('div', snap.step >= last ? 'task past' : 'task');
    row.append(cachedPattern(store, t));
    const text = el('div');
    const head = el('div');
    head.append(el('b', '', t.name), ` · ${rule.reward}`);
    text.append(head, el('div', '', rule.what), el('div', 'small', rule.when));
    row.append(text);
    box.append(row);
  }
}

// cachedPattern is taskPattern, drawn once per task of a simulation: a
// task's requirements never change, and tasks stay for many steps.
const patterns = new Map();
function cachedPattern(store, task) {
  const key = `${store.sim} ${task.name} ${JSON.stringify(task.requirements)}`;
  let c = patterns.get(key);
  if (!c) {
    if (patterns.size >= 200) patterns.clear();
    c = taskPattern(store, task);
    patterns.set(key, c);
  }
  return c;
}

// warmPatterns draws a task pattern nobody sees, once per page, and tells
// whether it did: the first canvas context and the first text drawn in a
// page cost several ms (the canvas set up, the font resolved), which the
// first seek that showed tasks paid on top of its drawing (a CPU profile of
// first seeks: taskPattern ~8 ms each, most of it getContext and fillText).
let patternsWarm = false;
export function warmPatterns(store) {
  if (patternsWarm || !store?.static) return false;
  patternsWarm = true;
  taskPattern(store, { requirements: [{ pos: [0, 1], type: store.blockTypes[0] ?? '' }] });
  return true;
}

// taskPattern draws the requirements around the submitting agent (grey) at
// (0, 0), with the map's blocks.
function taskPattern(store, task) {
  const cells = [[0, 0], ...task.requirements.map(r => r.pos)];
  const xs = cells.map(c => c[0]), ys = cells.map(c => c[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  const w = Math.max(...xs) - x0 + 1, h = Math.max(...ys) - y0 + 1;
  const s = Math.max(8, Math.min(20, Math.floor(80 / Math.max(w, h))));
  const dpr = window.devicePixelRatio || 1;
  const c = document.createElement('canvas');
  c.width = Math.round((w * s + 2) * dpr);
  c.height = Math.round((h * s + 2) * dpr);
  c.style.width = `${w * s + 2}px`;
  c.style.height = `${h * s + 2}px`;
  // A small picture drawn once: a canvas kept in memory, not one the
  // browser prepares for drawing every frame, whose context cost a seek
  // that brings new tasks ~1.5 ms each (a CPU profile of the seeks right
  // after opening: getContext 82 ms of 485 in drawing, 14 with this).
  const ctx = c.getContext('2d', { willReadFrequently: true });
  ctx.setTransform(dpr, 0, 0, dpr, 1 * dpr, 1 * dpr);
  drawShape(ctx, 'circle', (-x0 + 0.5) * s, (-y0 + 0.5) * s, s);
  ctx.fillStyle = '#777';
  ctx.fill();
  for (const r of task.requirements) drawBlock(ctx, r.pos[0] - x0, r.pos[1] - y0, s, store.blockTypes.indexOf(r.type), r.type);
  c.title = `the agent (grey) submits with ${task.requirements.map(r => `${r.type} at (${r.pos})`).join(', ')}`;
  return c;
}

function renderNorms(snap, last) {
  const box = $('norms');
  box.replaceChildren();
  const norms = snap?.norms ?? [];
  if (!norms.length) box.append(el('div', 'small', 'no norm'));
  for (const n of norms) {
    const timing = normTiming(n, snap.step, last);
    const row = el('div', snap.step >= last ? 'norm past' : timing.phase === 'in force' ? 'norm active' : 'norm');
    row.dataset.norm = n.name;
    const head = el('div');
    head.append(el('b', '', n.name), ' ', el('span', `phase ${timing.phase.replace(' ', '-')}`, timing.phase));
    const violators = (snap.violations ?? []).filter(v => v.norm === n.name).length;
    row.append(head, el('div', 'rule', normRule(n)), el('div', 'small', timing.text));
    if (violators) row.append(el('div', 'bad', `${plural(violators, 'agent')} punished this step`));
    box.append(row);
  }
}

function renderEvents(snap) {
  const box = $('events');
  box.replaceChildren();
  const lines = [];
  for (const e of snap?.events ?? []) if (e.type === 'task completed') lines.push(['', `${e.team} completed ${e.task}`]);
  for (const v of snap?.violations ?? []) lines.push(['bad', `${v.who} violated ${v.norm}`]);
  const failed = (snap?.entities ?? []).filter(a => a.actionResult && a.actionResult !== 'success').length;
  if (snap) lines.push(['small', `${failed} of ${snap.entities.length} actions failed`]);
  for (const [cls, text] of lines) box.append(el('div', cls, text));
}
