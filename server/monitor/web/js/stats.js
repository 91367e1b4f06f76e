// Team statistics up to the shown step: tasks completed by size, blocks
// delivered, agents hit by clear events, norm violations. They are counted
// from consecutive snapshots, walking the simulation from its start; the
// walk asks the store for each step in turn and keeps only the previous
// snapshot, so it works on any length of replay or live history.

import { within } from './pov.js';
import { el, teamSwatch } from './widgets.js';
import { plural } from './words.js';


// stepCounts compares snapshot cur with the one before it (prev) and counts,
// per team: completed tasks by size, blocks delivered, agents struck by a
// clear event, norm violations.
export function stepCounts(prev, cur, teams, grid) {
  const counts = new Map(teams.map(t => [t, { sizes: new Map(), blocks: 0, cleared: 0, violations: 0 }]));
  const sizeOf = new Map();
  for (const t of [...(prev?.tasks ?? []), ...cur.tasks]) sizeOf.set(t.name, t.requirements.length);
  for (const e of cur.events ?? []) {
    const c = counts.get(e.team);
    if (e.type !== 'task completed' || !c) continue;
    const size = sizeOf.get(e.task) ?? 0;
    c.sizes.set(size, (c.sizes.get(size) ?? 0) + 1);
    c.blocks += size;
  }
  // A clear event pending in prev and gone in cur struck in between: the
  // agents in its area (where they stood in prev) are deactivated in cur.
  if (prev) {
    const pending = ev => cur.clear.some(c => c.pos[0] === ev.pos[0] && c.pos[1] === ev.pos[1] && c.r === ev.r);
    const struck = prev.clear.filter(ev => !pending(ev));
    if (struck.length) {
      const now = new Map(cur.entities.map(a => [a.name, a]));
      for (const a of prev.entities) {
        const hit = struck.some(ev => within(ev.pos, a.pos, ev.r, grid.width, grid.height));
        if (hit && now.get(a.name)?.deactivated && counts.has(a.team)) counts.get(a.team).cleared++;
      }
    }
  }
  const teamOf = new Map(cur.entities.map(a => [a.name, a.team]));
  for (const v of cur.violations ?? []) {
    const c = counts.get(teamOf.get(v.who));
    if (c) c.violations++;
  }
  return counts;
}

// StatsWalk keeps the running totals of one store's simulation.
export class StatsWalk {
  constructor(store) {
    this.store = store;
    this.next = 0; // the next step to count
    this.prev = undefined; // the snapshot of step next-1 (undefined: not loaded yet)
    this.totals = []; // totals[step + 1]: per team totals after step
    this.skipped = 0; // steps that could not be read
  }

  // advance counts the steps that are loaded, for about budget ms (the
  // page calls it every frame: it must never hold the page up); it
  // returns true when it counted something (the table shows it).
  advance(budget) {
    const st = this.store;
    const until = performance.now() + budget;
    if (this.prev === undefined) {
      this.prev = st.get(-1, true) ?? undefined;
      if (this.prev === undefined) return false;
      this.totals[0] = new Map(st.teams.map(t => [t, emptyTotals()]));
    }
    let counted = 0;
    while (this.next <= st.last && performance.now() < until) {
      const cur = st.get(this.next, true);
      if (!cur) {
        if (!st.gapAt?.(this.next)) break; // still loading
        this.skipped++;
        this.prev = null; // a gap: nothing to compare the next step with
        this.totals[this.next + 1] = this.totals[this.next];
        this.next++;
        continue;
      }
      const before = this.totals[this.next];
      const step = stepCounts(this.prev, cur, st.teams, st.static.grid);
      this.totals[this.next + 1] = new Map(st.teams.map(t => [t, addTotals(before.get(t), step.get(t))]));
      this.prev = cur;
      this.next++;
      counted++;
    }
    return counted > 0;
  }

  // at is the totals after step (null before any), and the last step
  // counted so far.
  at(step) {
    const known = Math.min(step, this.next - 1);
    return { totals: this.totals[known + 1] ?? null, upTo: known };
  }
}

function emptyTotals() {
  return { sizes: new Map(), tasks: 0, blocks: 0, cleared: 0, violations: 0 };
}

function addTotals(t, c) {
  const sizes = new Map(t.sizes);
  let tasks = t.tasks;
  for (const [size, n] of c.sizes) {
    sizes.set(size, (sizes.get(size) ?? 0) + n);
    tasks += n;
  }
  return { sizes, tasks, blocks: t.blocks + c.blocks, cleared: t.cleared + c.cleared, violations: t.violations + c.violations };
}

// renderStats fills box with a table of the teams' totals up to step.
export function renderStats(box, store, walk, step) {
  box.replaceChildren();
  const { totals, upTo } = walk.at(step);
  if (!totals) {
    box.append(el('div', 'small counting', 'counting… (waiting for the first steps)'));
    return;
  }
  const table = el('table', 'stats');
  const head = el('tr');
  head.append(el('th', '', ''));
  store.teams.forEach((team, i) => {
    const th = el('th');
    th.append(teamSwatch(i, 'stats'), ` ${team}`);
    head.append(th);
  });
  table.append(head);
  const row = (label, value, cls = '') => {
    const tr = el('tr', cls);
    tr.append(el('td', '', label));
    for (const team of store.teams) tr.append(el('td', 'num', String(value(totals.get(team)))));
    table.append(tr);
  };
  row('tasks completed', t => t.tasks);
  const sizes = new Set();
  for (const t of totals.values()) for (const size of t.sizes.keys()) sizes.add(size);
  for (const size of [...sizes].sort((a, b) => a - b)) row(`· of ${plural(size, 'block')}`, t => t.sizes.get(size) ?? 0, 'sub');
  row('blocks delivered', t => t.blocks);
  row('agents hit by clear events', t => t.cleared);
  row('norm violations', t => t.violations);
  box.append(table);
  // Counts come in as they are computed: the table shows them so far.
  if (upTo < step) box.append(el('div', 'small counting', `counting… up to step ${upTo} so far (of ${step})`));
  if (walk.skipped) box.append(el('div', 'small', `${plural(walk.skipped, 'unreadable step')} left out`));
}
