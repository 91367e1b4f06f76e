// The replay list: per replay its teams with their final scores and the
// winner, the date, the number of steps and whether the replay is complete
// (or incomplete, or damaged, with the reason), its size and format.

import { el, teamSwatch } from './widgets.js';

export function renderLibrary(box, list) {
  box.replaceChildren(el('h2', '', list.length ? 'Replays' : 'No replay found'));
  for (const r of list) box.append(libraryItem(r));
}

function libraryItem(r) {
  const a = el('a', 'lib-item');
  a.href = `?replay=${encodeURIComponent(r.id)}`;
  a.title = r.id;
  a.dataset.id = r.id;
  const scores = r.scores ?? [];
  const best = scores.length ? Math.max(...scores) : null;
  const winners = best === null ? [] : r.teams.filter((_, i) => scores[i] === best);
  const head = el('div', 'lib-head');
  r.teams.forEach((team, i) => {
    const t = el('span', winners.length === 1 && winners[0] === team ? 'lib-team won' : 'lib-team');
    t.append(teamSwatch(i), ` ${team}`);
    if (scores.length) t.append(el('b', 'lib-points', String(scores[i])));
    if (i > 0) head.append(el('span', 'lib-vs', 'vs'));
    head.append(t);
  });
  const status = r.damaged ? 'damaged' : r.incomplete ? 'incomplete' : 'complete';
  head.append(el('span', `lib-flag ${status}`, status));
  a.append(head);
  const unfinished = r.incomplete; // a damaged replay may still reach its end
  let outcome = '';
  if (scores.length && winners.length === 1) outcome = unfinished ? `${winners[0]} ahead` : `${winners[0]} won`;
  else if (scores.length) outcome = unfinished ? 'level' : 'draw';
  const when = r.date && !r.date.startsWith('0001') ? new Date(r.date).toLocaleString() : '';
  const steps = unfinished ? `${r.last + 1} of ${r.steps} steps` : `${r.steps} steps`;
  a.append(el('div', 'small', [outcome, when, steps, `${r.width}×${r.height}`, sizeText(r.size), r.format].filter(Boolean).join(' · ')));
  if (r.error) a.append(el('div', 'small bad', r.error));
  return a;
}

function sizeText(n) {
  if (!n) return '';
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} KB`;
  return `${n} B`;
}
