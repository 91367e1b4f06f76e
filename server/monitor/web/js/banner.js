// The end-of-simulation banner: final scores, best first, and the winner
// (or a draw), from the simulation's last snapshot.

import { el, teamSwatch } from './widgets.js';

// outcome ranks the teams of a final snapshot: [{team, score, index}] best
// first (ties in team order) and the winners (several on a draw).
export function outcome(snap, teams) {
  const byTeam = new Map(snap.scores.map(([t, s]) => [t, s]));
  const rows = teams.map((team, index) => ({ team, index, score: byTeam.get(team) ?? 0 }));
  rows.sort((a, b) => b.score - a.score || a.index - b.index);
  const best = rows.length ? rows[0].score : 0;
  return { rows, winners: rows.filter(r => r.score === best).map(r => r.team) };
}

// renderBanner fills box for the final snapshot snap; onClose hides it.
export function renderBanner(box, snap, teams, place, onClose) {
  const { rows, winners } = outcome(snap, teams);
  box.replaceChildren();
  const close = el('button', 'close', '×');
  close.title = 'hide (the banner comes back at the end of the next simulation)';
  close.onclick = onClose;
  const headline = winners.length === 1 ? `${winners[0]} wins` : `Draw: ${winners.join(' and ')}`;
  box.append(close, el('div', 'small', `Simulation over${place ? ` · ${place}` : ''} · ${snap.step + 1} steps`),
    el('h2', 'winner', headline));
  const table = el('div', 'final');
  for (const r of rows) {
    const rank = rows.filter(o => o.score > r.score).length; // ties share a rank
    const line = el('div', winners.includes(r.team) ? 'final-row won' : 'final-row');
    line.append(el('span', 'rank', `${rank + 1}.`), teamSwatch(r.index), el('span', 'team', r.team), el('b', '', String(r.score)));
    table.append(line);
  }
  box.append(table);
}
